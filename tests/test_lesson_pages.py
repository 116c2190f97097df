"""Every lesson page follows one language switch, and no engine check reaches a dashboard.

The notebooks are written by tools/lessons.py; the page-language widget is widgets/components/page.py.
"""
from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path

import ipywidgets as w
import pytest
import traitlets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
lessons = importlib.import_module("lessons")
make_notebook = importlib.import_module("make_notebook")

LESSON_NAMES = sorted(lessons.LESSONS)


def _heading_levels(text):
    return re.findall(r"^(#+) ", text, re.MULTILINE)


def cells(name):
    return json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())["cells"]


def test_every_lesson_but_the_index_is_written_by_the_lessons_script():
    stored = {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")} - {"index"}
    assert stored == set(LESSON_NAMES)


@pytest.mark.parametrize("name", LESSON_NAMES)
def test_stored_notebook_is_what_the_lessons_script_writes(name, tmp_path):
    make_notebook.make_notebook(tmp_path / "x.ipynb", lessons.LESSONS[name])
    assert json.loads((tmp_path / "x.ipynb").read_text()) == json.loads(
        (ROOT / "notebooks" / f"{name}.ipynb").read_text())


@pytest.mark.parametrize("name", LESSON_NAMES)
def test_a_lesson_opens_with_the_page_language_cell(name):
    first = cells(name)[0]
    assert first["cell_type"] == "code" and "page_language()" in first["source"]


@pytest.mark.parametrize("name", LESSON_NAMES)
def test_every_prose_cell_is_written_in_both_languages(name):
    for cell in cells(name):
        if cell["cell_type"] != "markdown":
            continue
        source = cell["source"]
        assert source.count('<div class="lang-pt" lang="pt">') == 1, source[:80]
        assert source.count('<div class="lang-en" lang="en">') == 1, source[:80]
        assert "<details" not in source
        pt, en = source.split('<div class="lang-en"')
        # the same headings, level by level, in each language
        assert _heading_levels(pt) == _heading_levels(en)


@pytest.mark.parametrize("name", LESSON_NAMES)
def test_engine_checks_are_hidden_from_the_dashboard(name):
    checked = 0
    for cell in cells(name):
        if cell["cell_type"] == "code" and "NBVAL_CHECK_OUTPUT" in cell["source"]:
            assert "remove-cell" in cell["metadata"].get("tags", [])
            checked += 1
        elif cell["cell_type"] == "code":
            # a shown code cell displays a widget and nothing else
            last = cell["source"].strip().splitlines()[-1]
            assert last.startswith(("follow(", "page_language()")), last
    assert checked >= 1


@pytest.mark.parametrize("config", ["voila.json", "etc/jupyter/jupyter_server_config.json"])
def test_voila_removes_cells_tagged_remove_cell(config):
    settings = json.loads((ROOT / config).read_text())["TagRemovePreprocessor"]
    assert settings["enabled"] is True and "remove-cell" in settings["remove_cell_tags"]


# -- the page-language widget ----------------------------------------------------------------

@pytest.fixture
def page(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    from widgets.components import page as module
    module.reset()
    yield module
    module.reset()  # no later test meets a page switch it did not show


def test_the_url_sets_the_page_language(page, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    page.page_language()
    assert page.language.lang == "en"
    assert page._switch.lang == "en"


def test_the_browser_choice_reaches_every_following_view(page):
    from widgets.pages.manilhas import ManilhaExplorer
    page.page_language()
    one, two = page.follow(ManilhaExplorer()), page.follow(ManilhaExplorer())
    page._switch.lang = "en"  # what the front end sends after reading localStorage
    assert page.language.lang == "en"
    assert one.lang == two.lang == "en"
    assert one.draw_button.description == two.draw_button.description == "Draw a vira"


def test_a_view_switch_moves_the_page_and_the_other_views(page):
    from widgets.pages.manilhas import ManilhaExplorer
    page.page_language()
    one, two = page.follow(ManilhaExplorer()), page.follow(ManilhaExplorer())
    one.language.value = "en"
    assert page._switch.lang == "en" and two.language.value == "en"
    two.language.value = "pt"
    assert page._switch.lang == "pt" and one.lang == "pt"


def test_a_view_made_later_starts_in_the_page_language(page):
    from widgets.pages.manilhas import ManilhaExplorer
    page.language.lang = "en"
    view = page.follow(ManilhaExplorer(lang="pt"))
    assert view.lang == "en"


def test_every_view_follows_the_page_without_follow(page):
    from widgets.pages.manilhas import ManilhaExplorer
    from widgets.pages.vinte_e_um_pontos import HandScorer
    page.page_language()
    one, two = ManilhaExplorer(), HandScorer()
    page._switch.lang = "en"
    assert one.lang == two.lang == "en" and one.draw_button.description == "Draw a vira"
    two.language.value = "pt"  # a view's own switch moves the page and the other views
    assert page.language.lang == "pt" and one.lang == "pt"


def test_a_view_made_with_a_language_keeps_it_and_no_page_means_the_url(page, monkeypatch):
    from widgets.pages.manilhas import ManilhaExplorer
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    assert ManilhaExplorer().lang == "en"  # no page switch shown: the URL decides
    page.page_language()
    view = ManilhaExplorer(lang="pt")
    page._switch.lang = "en"
    assert view.lang == "pt"


def test_the_index_is_written_by_the_lessons_script_with_the_page_language_cell(tmp_path):
    make_notebook.make_notebook(tmp_path / "x.ipynb", lessons.INDEX)
    stored = json.loads((ROOT / "notebooks" / "index.ipynb").read_text())
    assert json.loads((tmp_path / "x.ipynb").read_text()) == stored
    first, prose = stored["cells"][0], stored["cells"][1]
    assert "page_language()" in first["source"]
    assert '<div class="lang-pt" lang="pt">' in prose["source"] and '<div class="lang-en" lang="en">' in prose["source"]
    assert "# Cartas: learn truco and 21" in prose["source"] and "<details" not in prose["source"]


def test_index_lesson_names_look_like_links():
    from widgets.pages.index import CourseIndex
    table = CourseIndex(lang="pt").table.value
    link = table.split("data-lesson='manilhas'")[1].split("</a>")[0]
    assert "text-decoration:underline" in link and "cursor:pointer" in link and "color:#1565c0" in link


def test_following_twice_links_once(page):
    from widgets.pages.manilhas import ManilhaExplorer
    view = ManilhaExplorer()
    assert page.follow(page.follow(view)) is view
    calls = []
    view.language.observe(lambda change: calls.append(change["new"]), names="value")
    page.language.lang = "en"
    assert calls == ["en"]


def test_an_unknown_language_is_refused_and_nothing_changes(page):
    with pytest.raises(traitlets.TraitError, match="pt, en"):
        page.language.lang = "fr"
    assert page.language.lang == "pt"
    page.page_language()
    page._switch.lang = "fr"  # a tampered front end: the switch keeps the page's language
    assert page._switch.lang == "pt" and page.language.lang == "pt"


def test_the_bootstrap_hides_the_other_language_before_any_widget_draws(page):
    assert '.lang-en { display: none' in page.BOOTSTRAP
    assert 'localStorage.getItem("cartas-lang")' in page.BOOTSTRAP
    assert isinstance(page.PageLanguage(), w.DOMWidget)


def test_a_view_on_a_page_shows_neither_its_own_title_nor_its_own_switch(page):
    """One title and one language switch per page, those of the page: a view that follows the
    page draws no heading of its own and leaves its switch out of its header; made with a
    language of its own (or with no page), it shows both."""
    from widgets.pages.manilhas import ManilhaExplorer
    alone = ManilhaExplorer()  # no page yet: a view standing alone
    assert "<h3" in alone.title.value and alone.language in alone.children[0].children
    page.page_language()
    on_page, own = ManilhaExplorer(), ManilhaExplorer(lang="en")
    assert on_page.on_page() and "<h3" not in on_page.title.value
    assert on_page.language not in on_page.children[0].children
    assert not own.on_page() and "Manilha explorer" in own.title.value
    assert own.language in own.children[0].children
    page._switch.lang = "en"  # the page's switch still moves the view
    assert on_page.lang == "en" and "<h3" not in on_page.title.value
