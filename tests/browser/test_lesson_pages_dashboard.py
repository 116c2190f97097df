"""Every dashboard served by Voilà: the whole page in one language, no raw Python output, and
no text cut off on a 1024×768 projector.

- With `?lang=en`, no Portuguese heading (h1-h3) is visible: the prose blocks of the other
  language are hidden and the views draw their titles in English.
- No output area shows a Python value (True, 0.6, (0, 1), a quoted string...): the engine checks
  are tagged `remove-cell` and Voilà drops them.
- At 1024×768, in English and then in Portuguese (the page's own switch: every view redraws its
  labels), no label, dropdown or button text is cut off. A text is cut off when its element is
  narrower than the text: a label, button or toggle button whose content is wider than its box
  (`scrollWidth > clientWidth`, ipywidgets ends such texts with "…"), or a dropdown whose chosen
  option is wider than the space left beside its arrow (measured with the dropdown's own font).
  One page load per dashboard does all of it.
- The learner's choice of language is remembered across dashboards and reloads (localStorage),
  from the page switch and from a view's own switch.
"""
from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from pathlib import Path

import pytest

import widgets

import kernel_wire
from class_pages import wait_for_view

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
LESSONS = importlib.import_module("lessons").LESSONS

DASHBOARDS = sorted(LESSONS) + ["index"]
ARROW = 20  # pixels of a dropdown taken by its arrow

CUT_OFF = """(arrow) => {
  const visible = e => e.offsetParent !== null && e.getClientRects().length > 0;
  const cut = [];
  const boxes = '.widget-label, .widget-label-basic, .widget-button, .widget-toggle-button, '
              + '.jupyter-button, .widget-inline-hbox > label';
  for (const e of document.querySelectorAll(boxes)) {
    if (visible(e) && e.innerText.trim() && e.scrollWidth > e.clientWidth + 1) {
      cut.push(e.innerText.trim() + ` (${e.scrollWidth} > ${e.clientWidth})`);
    }
  }
  const canvas = document.createElement('canvas').getContext('2d');
  for (const s of document.querySelectorAll('select')) {
    if (!visible(s) || s.multiple || s.selectedIndex < 0) continue;
    const style = getComputedStyle(s);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = s.options[s.selectedIndex].text;
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
    const width = canvas.measureText(text).width;
    if (width > room + 1) cut.push(`${text} (select: ${Math.round(width)} > ${Math.round(room)})`);
  }
  return cut;
}"""

# A whole output that reads like a Python value.
PYTHON_REPR = re.compile(r"""^(True|False|None|-?\d+(\.\d+)?(e[-+]?\d+)?|\(.*\)|\[.*\]|\{.*\}|'.*'|".*"|\w+\(.*\))$""",
                         re.DOTALL)

OUTPUTS = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output'))
  .filter(e => !(e.dataset.mimeType || '').includes('widget-view'))
  .map(e => ({mime: e.dataset.mimeType || '', text: (e.innerText || '').trim()}))"""

HEADINGS = """() => Array.from(document.querySelectorAll('h1, h2, h3'))
  .filter(e => e.offsetParent !== null && e.getClientRects().length > 0)
  .map(e => ({text: e.innerText.replace('\\u00b6', '').trim(),
              inEnglish: e.closest('.lang-en') !== null,
              inPortuguese: e.closest('.lang-pt') !== null}))"""


def portuguese_view_texts() -> set[str]:
    """Every Portuguese sentence the views know that differs from its English one."""
    texts = set()
    for info in pkgutil.iter_modules(widgets.__path__):
        module = importlib.import_module(f"widgets.{info.name}")
        for value in vars(module).values():
            if isinstance(value, dict):
                for entry in value.values():
                    if isinstance(entry, dict) and isinstance(entry.get("pt"), str) \
                            and entry.get("pt") != entry.get("en"):
                        texts.add(re.sub(r"<[^>]+>", "", entry["pt"]).strip())
    return texts


def python_reprs(outputs) -> list[str]:
    """The outputs a learner should never see: plain text or stream output, or a Python value."""
    shown = []
    for output in outputs:
        if output["mime"].startswith(("text/plain", "application/vnd.jupyter.std")) \
                or PYTHON_REPR.match(output["text"]):
            shown.append(f"{output['mime']}: {output['text'][:80]!r}")
    return shown


def test_the_repr_detector_knows_python_values():
    for text in ("True", "0.6", "(0, 1)", "[8, 18, 18]", "'A♦ < A♠'", "80", "VBox(children=())"):
        assert python_reprs([{"mime": "text/html", "text": text}]), text
    for text in ("", "Mão 1: assento 3 dá as cartas", "Dupla A 3 × 1 Dupla B"):
        assert not python_reprs([{"mime": "text/html", "text": text}]), text
    assert python_reprs([{"mime": "text/plain", "text": "Explorer ready"}])


def open_page(context, voila_url, notebook, query=""):
    page = context.new_page()
    page.set_default_timeout(60_000)
    kernel_wire.watch(page)
    page.goto(f"{voila_url}/voila/render/{notebook}{query}")
    wait_for_view(page)
    return page


def page_language_ready(page, lang):
    page.wait_for_selector(".cartas-page-language button", state="visible")
    page.wait_for_function("(lang) => document.documentElement.dataset.cartasLang === lang", arg=lang, polling=100)


@pytest.mark.parametrize("name", DASHBOARDS)
def test_dashboard_in_english_shows_no_portuguese_heading_no_python_output_and_no_label_cut_off_in_either_language(
        name, browser, voila_url):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = open_page(context, voila_url, f"{name}.ipynb", "?lang=en")
        assert not python_reprs(page.evaluate(OUTPUTS))
        page_language_ready(page, "en")
        headings = page.evaluate(HEADINGS)
        assert headings, "a lesson has visible headings"
        portuguese = portuguese_view_texts()
        for heading in headings:
            assert not heading["inPortuguese"], heading
            assert heading["inEnglish"] or heading["text"] not in portuguese, heading
        assert any(h["inEnglish"] for h in headings)
        assert page.title() == page.locator(".lang-en h1").first.inner_text().replace("¶", "").strip()
        wire = kernel_wire.of(page)
        wire.handled(page, 0)  # the views' first drawing is on the page
        assert ("en", page.evaluate(CUT_OFF, ARROW)) == ("en", [])
        mark = wire.mark()
        page.locator(".cartas-page-language button[data-lang='pt']").click()
        page_language_ready(page, "pt")
        wire.handled(page, mark)  # the views have drawn their labels in Portuguese
        assert ("pt", page.evaluate(CUT_OFF, ARROW)) == ("pt", [])
    finally:
        context.close()


def test_the_language_choice_is_remembered_across_dashboards_and_reloads(browser, voila_url):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        first = open_page(context, voila_url, "manilhas.ipynb", "?lang=en")
        page_language_ready(first, "en")
        # Another dashboard, no ?lang: English from the learner's last choice, views included.
        second = open_page(context, voila_url, "truco_mao.ipynb")
        page_language_ready(second, "en")
        second.wait_for_function(
            "() => document.querySelector('.cartas-narration').textContent.includes('shuffles')", polling=100)
        assert second.locator(".lang-en h1").is_visible()
        assert not second.locator(".lang-pt h1").is_visible()
        # The page switch goes back to Portuguese, and the view follows.
        second.locator(".cartas-page-language button[data-lang='pt']").click()
        page_language_ready(second, "pt")
        second.wait_for_function(
            "() => document.querySelector('.cartas-narration').textContent.includes('embaralha')", polling=100)
        second.reload()
        second.wait_for_selector(".cartas-view", state="visible")
        page_language_ready(second, "pt")
        assert second.locator(".lang-pt h1").is_visible()
        # The page's switch is the only one (the view shows none of its own), and the next
        # dashboard opens in the language it chose.
        assert second.locator(".cartas-language").count() == 0
        second.locator(".cartas-page-language button[data-lang='en']").click()
        page_language_ready(second, "en")
        assert second.locator(".lang-en h1").is_visible()
        third = open_page(context, voila_url, "vinte_e_um_pontos.ipynb")
        page_language_ready(third, "en")
        assert third.locator(".lang-en h1").inner_text().startswith("21: what is the hand worth?")
    finally:
        context.close()


def test_the_index_switches_its_headings_and_table_with_the_page(browser, voila_url):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = open_page(context, voila_url, "index.ipynb", "?lang=en")
        page_language_ready(page, "en")
        assert page.locator(".lang-en h1").is_visible() and not page.locator(".lang-pt h1").is_visible()
        page.wait_for_function("() => document.querySelector('.cartas-index').textContent.includes('What you learn')",
                               polling=100)
        page.locator(".cartas-page-language button[data-lang='pt']").click()
        page_language_ready(page, "pt")
        page.wait_for_function("() => document.querySelector('.cartas-index').textContent.includes('O que se aprende')",
                               polling=100)
        assert page.locator(".lang-pt h1").is_visible()
        link = page.locator(".cartas-index a.cartas-lesson-link").first
        style = link.evaluate("(a) => { const s = getComputedStyle(a); "
                              "return [s.textDecorationLine, s.cursor]; }")
        assert style == ["underline", "pointer"]
        assert "lang=pt" in link.get_attribute("href")
    finally:
        context.close()
