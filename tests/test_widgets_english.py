"""Every page in English says nothing in Portuguese but the game's own words.

Each dashboard's view is made in English and driven a little (every button clicked three
times over, which deals, answers, plays and opens what each page offers); then everything it
shows (HTML text, button labels, options, placeholders) is searched for Portuguese words
that an English page must not hold. The game's terms (truco, vira, manilha, zap, mão de
onze...) stay in Portuguese in both languages and are allowed. A card's accessible name (the
SVG <title>) is the cards' own deliverable ("card names in words", issue 20 item 2) and is
left out here.
"""
from __future__ import annotations

import importlib
import re
from html import unescape

import ipywidgets as w
import pytest

PAGES = [("manilhas", "ManilhaExplorer"), ("truco_mao", "DealStepper"), ("truco_rodadas", "TrickLab"),
         ("truco_apostas", "BettingLab"), ("truco_mao_de_onze", "ThresholdLab"),
         ("truco_mineiro", "VariantComparison"), ("chances_truco", "TrucoOddsExplorer"),
         ("jogar_truco", "PlayTruco"), ("vinte_e_um_pontos", "HandScorer"), ("vinte_e_um_rodada", "RoundStepper"),
         ("vinte_e_um_banca", "BankRotation"), ("jogar_21", "PlayVinteEUm"), ("cenarios", "ScenarioBuilder"),
         ("turma", "ClassView"), ("mesa", "Mesa"), ("index", "CourseIndex")]

# the game's words, the same in both languages (and the language switch's own label)
ALLOWED = ["mão de onze", "mão de dez", "mão de ferro", "Português", "pica-fumo", "espadilha"]
# words that give a Portuguese sentence away
GIVEAWAYS = ["ouros", "espadas", "copas", "paus", "coberta", "cobertas", "assento", "assentos", "lugar",
             "lugares", "dupla", "rodada", "você", "não", "sim", "fichas", "banca", "ponto", "pontos", "point(s)",
             "ponto(s)", "joga", "pede", "aceita", "corre", "vez", "também", "que", "com", "para", "uma", "mão",
             "pé", "jogador", "ganha", "perde", "empate", "carta", "certas", "pergunta"]
_WORD = re.compile("|".join(rf"(?<![\w(]){re.escape(word)}(?![\w)])" if word[-1] != ")" else re.escape(word)
                            for word in GIVEAWAYS), re.IGNORECASE)


def shown_text(widget, out: list[str]) -> list[str]:
    for attr in ("value", "description", "placeholder", "tooltip"):
        value = getattr(widget, attr, None)
        if isinstance(value, str) and value:
            out.append(value)
    out.extend(getattr(widget, "_options_labels", ()) or ())
    for child in getattr(widget, "children", ()) or ():
        if isinstance(child, w.Widget):
            shown_text(child, out)
    return out


def _click_everything(widget, seen: set[int]) -> None:
    if id(widget) in seen:
        return
    seen.add(id(widget))
    if isinstance(widget, w.Button):
        widget.click()
    for child in list(getattr(widget, "children", ()) or ()):
        if isinstance(child, w.Widget):
            _click_everything(child, seen)


def portuguese_in(text: str) -> list[str]:
    text = re.sub(r"<title>.*?</title>", " ", text, flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    text = unescape(re.sub(r"<[^>]+>", " ", text))
    for term in ALLOWED:
        text = re.sub(re.escape(term), " ", text, flags=re.IGNORECASE)
    return sorted({match.group(0).lower() for match in _WORD.finditer(text)})


def test_the_giveaway_search_finds_a_portuguese_sentence():
    assert portuguese_in("Among the manilhas: ouros ♦ &lt; espadas ♠") == ["espadas", "ouros"]
    assert portuguese_in("<p>2 point(s)</p> the copas manilha") == ["copas", "point(s)"]
    assert portuguese_in("It is a mão de onze; <title>carta coberta</title>") == []


@pytest.mark.parametrize(("module", "name"), PAGES)
def test_an_english_page_shows_no_portuguese(module, name, store_location):
    view = getattr(importlib.import_module(f"widgets.pages.{module}"), name)(lang="en")
    for _ in range(3):
        _click_everything(view, set())
    text = "\n".join(shown_text(view, []))
    found = portuguese_in(text)
    where = {word: re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", text)))
             for word in found}
    assert not found, {word: where[word][max(0, where[word].lower().find(word) - 80):][:160] for word in found}


def test_running_from_a_call_says_point_or_points_in_words():
    import numpy as np

    from cartas.questions import find_kind
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(30):
        question = find_kind("truco_mineiro.ladder").make(rng)
        pays = question.answer
        seen.add(pays)
        assert "(s)" not in question.reason["en"] and "(s)" not in question.reason["pt"]
        assert f" {pays} {'point' if pays == 1 else 'points'} " in question.reason["en"]
        assert f" {pays} {'ponto' if pays == 1 else 'pontos'} " in question.reason["pt"]
    assert 1 in seen and len(seen) > 2
