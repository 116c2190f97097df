"""URL parameters checked before use (widgets.components.params), shown back without harm, and errors that
stay in the kernel's error log (widgets.components.base.error_log), never on the kernel's stderr."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest

from widgets.components import i18n, page, params
from widgets.components.base import View

ROOT = Path(__file__).resolve().parents[1]

# The hostile values of the dashboard test, each refused by every parameter.
HOSTILE = {
    "superscript": "²",
    "digits_5000": "9" * 5000,
    "minus_one": "-1",
    "nan": "nan",
    "overflow": "1e309",
    "text_10k": "texto " * 1700,
    "unicode": "ação 🂡 ٣ \u202e\x07",
    "html": '<img src=x onerror="window.__cartas_injected=1">',
}
PARAMETERS = ("semente", "ritmo", "mesa", "lang", "cenario", "codigo", "nivel", "jogadores", "torneio")


def refused(reading, code: str):
    assert reading.problem is not None and reading.problem.code == code, reading
    return reading.problem


# Readers, one text at a time ----------------------------------------------------------------
@pytest.mark.parametrize("text, value", [("7", 7), (" 42 ", 42), ("0", 0), (str(params.MAX_SEED), params.MAX_SEED)])
def test_a_seed_is_a_whole_number_in_ascii_digits(text, value):
    assert params.whole_number("semente", text, 0, params.MAX_SEED, None, "seed") == (value, None)


@pytest.mark.parametrize("text", ["²", "٣", "7.0", "nan", "1e309", "0x10", "", "<b>1</b>", "1_000"])
def test_a_seed_that_is_not_ascii_digits_is_refused_and_a_random_one_used(text):
    reading = params.whole_number("semente", text, 0, params.MAX_SEED, None, "seed")
    assert reading.value is None
    refused(reading, "not_whole")


@pytest.mark.parametrize("text", ["-1", str(params.MAX_SEED + 1), "99999999999999999999"])
def test_a_seed_out_of_range_is_refused_naming_the_range(text):
    problem = refused(params.whole_number("semente", text, 0, params.MAX_SEED, None, "seed"), "out_of_range")
    assert f"0 to {params.MAX_SEED}" in problem.message("en") and f"0 a {params.MAX_SEED}" in problem.message("pt")


def test_a_5000_digit_seed_is_refused_by_its_length_before_it_is_read():
    problem = refused(params.whole_number("semente", "9" * 5000, 0, params.MAX_SEED, None, "seed"), "too_long")
    assert "5000 characters" in problem.message("en") and "5000 caracteres" in problem.message("pt")


@pytest.mark.parametrize("text, value", [("0.3", 0.3), ("0,3", 0.3), ("0", 0.0), ("5", 5.0), ("1.25", 1.25)])
def test_a_pace_is_a_decimal_number_with_a_point_or_a_comma(text, value):
    assert params.decimal_number("ritmo", text, 0.0, 5.0, 0.8, "pace") == (value, None)


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e309", "1e3", "²", "0.12345", "½", "0..3", ".5"])
def test_a_pace_that_is_not_a_plain_decimal_is_refused_and_the_usual_pace_used(text):
    reading = params.decimal_number("ritmo", text, 0.0, 5.0, 0.8, "pace")
    assert reading.value == 0.8
    problem = refused(reading, "not_decimal")
    assert "(0.8 s)" in problem.message("en") and "(0,8 s)" in problem.message("pt")


@pytest.mark.parametrize("text", ["-1", "9", "5.001"])
def test_a_pace_out_of_range_is_refused(text):
    problem = refused(params.decimal_number("ritmo", text, 0.0, 5.0, 0.8, "pace"), "out_of_range")
    assert "0 to 5" in problem.message("en") and "0 a 5" in problem.message("pt")


@pytest.mark.parametrize("text, lang", [("en", "en"), ("EN-gb", "en"), ("pt-BR", "pt"), (" pt ", "pt"),
                                        ("english", "en")])
def test_the_language_is_its_first_two_letters_as_the_browser_reads_it(text, lang):
    assert params.language_tag(text) == (lang, None)


@pytest.mark.parametrize("text", ["fr", "", "²", "<img src=x>", "e", "ñe"])
def test_an_unknown_language_opens_in_portuguese_and_says_so_in_both_languages(text):
    reading = params.language_tag(text)
    assert reading.value == "pt"
    message = refused(reading, "unknown_language").message("pt")
    assert "a página abre em português" in message and "the page opens in Portuguese" in message


def test_a_table_code_is_what_the_tables_accept():
    assert params.table_code("mesa", "ab-cde") == ("ABCDE", None)
    assert params.table_code("mesa", None) == (None, None)
    for text, code in [("abcdef", "bad_code"), ("<img src=x>", "bad_code"), ("²²²²²", "bad_code"),
                       ("A" * 41, "too_long")]:
        reading = params.table_code("mesa", text)
        assert reading.value is None
        assert "AB-CDE" in refused(reading, code).message("en") or code == "too_long"


def test_a_scenario_link_longer_than_a_link_can_be_is_refused_unread():
    from cartas.scenario import MAX_LINK
    assert params.scenario_link("cenario", " 2.abc.def ") == ("2.abc.def", None)
    reading = params.scenario_link("cenario", "x" * (MAX_LINK + 1))
    assert reading.value is None
    assert "the builder opens without a scenario" in refused(reading, "too_long").message("en")


def test_a_refused_value_is_shown_cut_short_with_unprintable_characters_replaced():
    assert params.shown("a\x07b\u202ec") == "a?b?c"
    assert params.shown("x" * 100) == "x" * params.SHOWN + "…"


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_hostile_value_is_refused_by_every_parameter_in_both_languages(name):
    text = HOSTILE[name]
    readings = {
        "semente": params.whole_number("semente", text, 0, params.MAX_SEED, None, "seed"),
        "ritmo": params.decimal_number("ritmo", text, 0.0, 5.0, 0.8, "pace"),
        "mesa": params.table_code("mesa", text),
        "lang": params.language_tag(text),
        "nivel": params.bot_level("nivel", text),
        "jogadores": params.player_count("jogadores", text, (4, 2)),  # mano a mano: 2
    }
    for parameter, reading in readings.items():
        assert reading.problem is not None, (parameter, name)
        for lang in ("pt", "en"):
            message = reading.problem.message(lang)
            assert f"?{parameter}=" in message and "{" not in message and len(message) < 400


# Reading the page's query ----------------------------------------------------------------
def test_the_query_is_read_up_to_its_field_limit(monkeypatch):
    fields = [f"f{i}=1" for i in range(i18n.MAX_FIELDS + 500)]
    monkeypatch.setenv("QUERY_STRING", "&".join([*fields[:3], "semente=12", *fields[3:]]))
    query = i18n.query_parameters()
    assert len(query) == i18n.MAX_FIELDS and query["semente"] == "12"


def test_the_page_readers_take_their_parameter_from_the_query(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "semente=12&ritmo=0,5&lang=en&mesa=ab-cde&cenario=1.a.b")
    assert params.seed().value == 12 and params.pace(0.7).value == 0.5 and params.language().value == "en"
    assert params.table().value == "ABCDE" and params.scenario().value == "1.a.b"
    assert params.initial_language() == "en"
    monkeypatch.setenv("QUERY_STRING", "semente=%C2%B2&ritmo=nan&lang=xx")
    assert params.seed() .value is None and params.pace(0.7).value == 0.7 and params.initial_language() == "pt"


# Every dashboard, with every parameter hostile -------------------------------------------
def dashboard_cells(notebook: Path) -> list[str]:
    """The code cells a dashboard shows (the ones Voilà keeps: not tagged remove-cell)."""
    cells = json.loads(notebook.read_text())["cells"]
    return ["".join(c["source"]) for c in cells
            if c["cell_type"] == "code" and "remove-cell" not in c.get("metadata", {}).get("tags", [])]


def run_dashboard(notebook: Path):
    """Run a dashboard's shown cells as its kernel does; the value its last cell displays."""
    namespace: dict = {}
    shown = None
    for source in dashboard_cells(notebook):
        tree = ast.parse(source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, str(notebook), "exec"), namespace)
        if last is not None:
            shown = eval(compile(ast.Expression(last.value), str(notebook), "eval"), namespace)
    return shown


def every_text(widget) -> str:
    """Every value and description of a widget tree, as the browser would draw them."""
    parts, seen, todo = [], set(), [widget]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        for attribute in ("value", "description", "placeholder"):
            value = getattr(item, attribute, None)
            if isinstance(value, str):
                parts.append(value)
        todo.extend(getattr(item, "children", ()) or ())
    return "\n".join(parts)


NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
READS = {"mesa.ipynb": ("semente", "ritmo", "mesa", "nivel"),
         "jogar_truco.ipynb": ("semente", "ritmo", "nivel", "jogadores"),
         "jogar_21.ipynb": ("semente", "ritmo", "nivel"), "aula.ipynb": ("semente",), "aula_aluno.ipynb": ("codigo",),
         "torneio.ipynb": ("ritmo",), "torneio_aluno.ipynb": ("torneio",)}


@pytest.mark.parametrize("hostile", sorted(HOSTILE))
def test_every_dashboard_opens_with_every_parameter_hostile_and_says_what_it_refused(hostile, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", urlencode({name: HOSTILE[hostile] for name in PARAMETERS}))
    monkeypatch.setattr("widgets.components.page.display", lambda *objects, **kwargs: None)
    from cartas.scenario import MAX_LINK
    long_link = len(HOSTILE[hostile]) > MAX_LINK  # refused unread; a shorter one by the scenario check
    for notebook in NOTEBOOKS:
        page.reset()
        try:
            view = run_dashboard(notebook)  # a failed cell fails the test here
        finally:
            page.reset()
        assert isinstance(view, View), notebook.name
        text = every_text(view)
        assert not re.search(r"<img[^>]*onerror", text), notebook.name  # shown back escaped only
        refused_names = {problem.fields["name"] for problem in view._url_problems}
        reads = READS.get(notebook.name, ("cenario",) if notebook.name == "cenarios.ipynb" and long_link else ())
        assert refused_names == {"lang", *reads}, notebook.name
        assert "cartas-url-notice" in text and "the page opens in Portuguese" in text, notebook.name
        if notebook.name == "cenarios.ipynb" and not long_link:
            assert "Cenário recusado" in view.message.value  # the scenario check names what it refused


def test_a_refused_parameter_is_said_in_the_page_language_and_follows_the_switch(monkeypatch):
    from classroom.tables import MemoryRepository, Tables
    from widgets.pages.mesa import Mesa
    monkeypatch.setenv("QUERY_STRING", urlencode({"lang": "en", "semente": "²", "mesa": "<b>x</b>"}))
    view = Mesa(tables=Tables(MemoryRepository()), identity=None, autopoll=False)
    assert view.seed is None and view.client is None  # a random seed; the lobby
    assert "?semente=², which is not a whole number" in view.title.value
    assert "?mesa=&lt;b&gt;x&lt;/b&gt;, which is not a table code" in view.title.value
    assert "<b>x" not in view.title.value
    view.language.value = "pt"
    assert "a mesa usa uma semente sorteada" in view.title.value


@pytest.mark.parametrize("page", ["jogar_truco", "jogar_21"])
def test_a_play_pages_semente_deals_the_same_game_from_the_same_link(page, monkeypatch):
    import importlib
    view_class = {"jogar_truco": "PlayTruco", "jogar_21": "PlayVinteEUm"}[page]
    make = getattr(importlib.import_module(f"widgets.pages.{page}"), view_class)

    def opened(query: str):
        monkeypatch.setenv("QUERY_STRING", query)
        view = make(delay=0)
        view.new_game()
        return view

    first, again, other = opened("semente=41"), opened("semente=41"), opened("semente=42")
    assert first.state.events == again.state.events  # the same deal, and the bots chose the same
    assert first.state.events != other.state.events
    refused = opened("semente=²&lang=en")
    assert ("?semente=², which is not a whole number (digits 0 to 9 only): the game uses a random seed"
            in refused.title.value)
    for view in (first, again, other, refused):
        view.close()


def test_a_view_given_its_language_reports_no_page_language(monkeypatch):
    from widgets.pages.manilhas import ManilhaExplorer
    monkeypatch.setenv("QUERY_STRING", "lang=xx")
    assert ManilhaExplorer(lang="en")._url_problems == []
    assert "cartas-url-notice" in ManilhaExplorer().title.value
