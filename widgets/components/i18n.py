"""Language of the interface: Brazilian Portuguese by default, English on request.

A dashboard URL with `?lang=en` opens in English; every view also has its own switch.
"""
from __future__ import annotations

import os
from urllib.parse import parse_qs

LANGUAGES = ("pt", "en")
DEFAULT = "pt"


_request_arrived = False
WAIT_ATTEMPTS = 5
MAX_FIELDS = 50  # query fields read, at most (a dashboard uses a handful)
HOMEWORK_PARAM = "tarefa"  # ?tarefa=: a homework (widgets.components.params.homework, homework_game)


def query_parameters() -> dict[str, str]:
    """The dashboard URL's query parameters (Voilà passes them in QUERY_STRING).

    In a pre-heated kernel (VOILA_PREHEAT), the notebook runs before any learner asks for it;
    the first call waits for the learner's request (`widgets.components.preheat`), whose details
    (QUERY_STRING among them) Voilà sends once and the wait puts into the environment; later
    calls read them from there. A wait that could not reach the server within its time (a busy
    server, many kernels starting at once) is tried again, up to `WAIT_ATTEMPTS` times, rather
    than opening the page without its `?lang=` or `?cenario=`.

    Only the first `MAX_FIELDS` fields are read; a field given twice keeps its last value.
    Nothing here checks a value: `widgets.components.params` does, for each parameter.
    """
    global _request_arrived
    if not _request_arrived and os.environ.get("VOILA_PREHEAT", "False") != "False":
        from widgets.components.preheat import wait_for_request  # only under Voilà's pre-heated kernels

        for _ in range(WAIT_ATTEMPTS):
            if wait_for_request():  # Voilà sends the request once: never wait twice
                break
        _request_arrived = True
    return {key: values[-1] for key, values in query_fields().items() if values}


def query_fields() -> dict[str, list[str]]:
    """Every value of each of the URL's query parameters, as given (the first `MAX_FIELDS`
    fields), for a parameter that refuses being given twice (`params.level`); call
    `query_parameters` first, which waits for a pre-heated kernel's request."""
    fields = os.environ.get("QUERY_STRING", "").split("&", MAX_FIELDS)[:MAX_FIELDS]
    return parse_qs("&".join(fields))


def translate(table: dict, key: str, lang: str, **fields) -> str:
    """Look up `key` in a {key: {"pt": ..., "en": ...}} table and fill in the fields.

    The one translation helper of the widgets (`View.t` uses it); the engine's sentences
    come from the engine's catalogues instead."""
    entry = table[key]
    text = entry.get(lang) or entry[DEFAULT]
    return text.format(**fields) if fields else text


def every_key(table: dict, lang: str) -> dict[str, str]:
    """{key: text}: every entry of a translation table in `lang`, for a view drawn in the
    browser (its templates keep their {fields})."""
    return {key: translate(table, key, lang) for key in table}


def every_language(table: dict, key: str, **fields) -> dict[str, str]:
    """{"pt": ..., "en": ...}: `translate` in each language, for texts prepared up front."""
    return {lang: translate(table, key, lang, **fields) for lang in LANGUAGES}


def number(value: float, lang: str, digits: int = 0) -> str:
    """`value` written as a reader of `lang` writes it: 50.000 and 67,6 in Portuguese,
    50,000 and 67.6 in English (thousands grouped, `digits` decimals)."""
    text = f"{value:,.{digits}f}"
    if lang == "pt":
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return text


def percent(fraction: float, lang: str, digits: int = 1) -> str:
    """A fraction as a percentage in `lang`: 0.676 -> "67,6%" (pt) or "67.6%" (en)."""
    return number(fraction * 100, lang, digits) + "%"


def from_catalogue(catalogue, **keys: str) -> dict[str, dict[str, str]]:
    """A page's `TEXT` entries that are the engine catalogue's sentences (page key = catalogue
    key): the sentence is written once, in the game's catalogue, and the page says it as its own."""
    return {mine: {lang: catalogue.template(theirs, lang) for lang in LANGUAGES} for mine, theirs in keys.items()}
