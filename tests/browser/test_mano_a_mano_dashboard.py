"""`jogar_truco` mano a mano in a browser (docs/rules.md#mano-a-mano-players): the learner picks
"Mano a mano (2)" on a 360 px phone and plays; the table of two fits the screen, every target
is 44 px, and axe finds no WCAG violation, in Portuguese and in English."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_pages import axe_violations, click_first, layout_problems, phone_context, settle, switch_language

pytestmark = pytest.mark.browser

NONE = {"out": [], "small": [], "cut": [], "overlap": []}


def test_mano_a_mano_is_chosen_played_and_fits_a_phone_in_both_languages(browser, voila_url):
    context = phone_context(browser)
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{voila_url}/voila/render/jogar_truco.ipynb?lang=pt&ritmo=0&semente=6")
        page.wait_for_selector(".cartas-table .cartas-seat[data-seat='3']", state="visible")
        settle(page)
        page.locator(".cartas-players button", has_text="Mano a mano (2)").click()
        # a new game of two: two seats, face to face, and the learner's turn or the bot's move
        page.wait_for_function("() => document.querySelectorAll('.cartas-table .cartas-seat').length === 2",
                               polling=100)
        assert page.locator(".cartas-seat[data-place='top']").get_attribute("data-seat") == "1"
        settle(page)
        assert ("pt", "chosen", layout_problems(page)) == ("pt", "chosen", NONE)
        assert ("pt", "chosen", axe_violations(page)) == ("pt", "chosen", [])
        steps = [s for s in (".cartas-pick-on", ".cartas-raise", ".cartas-accept") if click_first(page, s)]
        assert steps, "the learner could make no move"
        assert page.locator(".cartas-table .cartas-seat").count() == 2
        assert ("pt", steps, layout_problems(page)) == ("pt", steps, NONE)
        switch_language(page, "en")
        assert page.locator(".cartas-players button", has_text="One on one (2)").count() == 1
        assert ("en", steps, layout_problems(page)) == ("en", steps, NONE)
        assert ("en", steps, axe_violations(page)) == ("en", steps, [])
        assert "Dupla" not in page.locator(".cartas-table").inner_text()
    finally:
        context.close()


def test_jogadores_2_in_the_address_opens_mano_a_mano(browser, voila_url):
    context = phone_context(browser)
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{voila_url}/voila/render/jogar_truco.ipynb?lang=en&ritmo=0&semente=3&jogadores=2")
        page.wait_for_function("() => document.querySelectorAll('.cartas-table .cartas-seat').length === 2",
                               polling=100)
        page.goto(f"{voila_url}/voila/render/jogar_truco.ipynb?lang=en&ritmo=0&semente=3&jogadores=3")
        page.wait_for_selector(".cartas-url-notice", state="visible")
        assert "2 or 4 players" in page.locator(".cartas-url-notice").inner_text()
        expect(page.locator(".cartas-table .cartas-seat")).to_have_count(4)  # the table may come after the notice
    finally:
        context.close()
