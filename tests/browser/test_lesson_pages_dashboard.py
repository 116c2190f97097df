"""The page's language across dashboards, served by Voilà.

- The learner's choice of language is remembered across dashboards and reloads (localStorage),
  from the page switch and from a view's own switch.
- The index switches its headings and its table with the page.

What every dashboard shows on a 1024×768 projector and in English (no Python value in an
output, no Portuguese heading in English, no text cut off in either language) is checked in
each dashboard's one page load of tests/browser/test_phone_dashboards.py (tests/browser/projector.py).
"""
from __future__ import annotations

import kernel_wire
from class_pages import wait_for_view
from projector import python_reprs


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
