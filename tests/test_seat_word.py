"""One word for a seat in each language, in every catalogue: "assento" and "seat".

Every Portuguese sentence of the engine's catalogues, the store's and every page's or
component's TEXT is searched: a seat is never a "lugar" (Lugar 2, os lugares 0 a 3) nor
"jogador N" (21 said "o jogador 2" where truco said "o assento 2"). "Jogador" as the role
(the player against the banker) stays.
"""
from __future__ import annotations

import importlib
import pkgutil
import re

import cartas
import classroom
import widgets
from cartas.catalogue import Catalogue

# a place that is no seat: chips that moved, a card that cannot be in two places
NOT_A_SEAT = ("mudaram de lugar", "nos dois lugares")
LUGAR = re.compile(r"\blugar(es)?\b", re.IGNORECASE)
NUMBERED_PLAYER = re.compile(r"\bjogador(es)? (\{|\d)", re.IGNORECASE)


def _modules():
    for package in (cartas, classroom, widgets):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            yield importlib.import_module(info.name)


def portuguese_texts():
    """(where, text) of every Portuguese entry of every catalogue and TEXT table."""
    for module in _modules():
        for name, value in vars(module).items():
            if isinstance(value, Catalogue):
                for key in value.keys():
                    yield f"{module.__name__}.{name}[{key}]", value.template(key, "pt")
            elif name.endswith("TEXT") and isinstance(value, dict):
                for key, entry in value.items():
                    if isinstance(entry, dict) and "pt" in entry:
                        pt = entry["pt"]
                        for text in (pt if isinstance(pt, list) else [pt]):
                            yield f"{module.__name__}.{name}[{key}]", str(text)


def test_the_search_sees_every_catalogue():
    places = {where.split("[")[0] for where, _ in portuguese_texts()}
    assert {"cartas.truco.catalogue.CATALOGUE", "cartas.vinte_e_um.catalogue.CATALOGUE", "cartas.games.CATALOGUE",
            "widgets.pages.mesa.TEXT", "widgets.draw.truco_table.TEXT", "widgets.pages.jogar_21.TEXT"} <= places


def test_a_seat_is_an_assento_in_every_portuguese_catalogue():
    wrong = []
    for where, text in portuguese_texts():
        plain = text
        for phrase in NOT_A_SEAT:
            plain = plain.replace(phrase, "")
        if LUGAR.search(plain) or NUMBERED_PLAYER.search(plain):
            wrong.append((where, text))
    assert not wrong, wrong
