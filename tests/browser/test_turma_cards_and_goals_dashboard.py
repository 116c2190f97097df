"""The teacher's page on a 1280x800 laptop, in Portuguese and English (issue 29): printing the
class's login cards again revokes nobody's card until she confirms new cards for everyone, and
a homework game item says whether it asks to play the game to the end or to win it."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_learners_and_class_dashboard import open_page
from test_verified_learners_dashboard import join, whose

from serving import SCREENSHOTS, screenshot

LAPTOP = {"width": 1280, "height": 800}
WORDS = {
    "pt": {"ready": "1 cartão(ões) pronto(s)",
           "confirm": ("Fazer cartões novos para os 1 alunos da turma? "
                       "Todos os cartões impressos antes deixam de valer."),
           "game": "Partida", "win": "vencer a partida", "item": "21 contra os robôs (vencer)"},
    "en": {"ready": "1 card(s) ready",
           "confirm": "Make new cards for all 1 learners of the class? Every card printed before stops working.",
           "game": "Game", "win": "win the game", "item": "21 against the bots (win)"},
}


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_reprinting_cards_asks_before_revoking_the_class_and_a_game_item_asks_to_play_or_win(
        browser, voila_url, lang):
    base = f"{voila_url}/voila/render"
    words = WORDS[lang]
    teacher_ctx, ana_ctx = browser.new_context(viewport=LAPTOP), browser.new_context(viewport=LAPTOP)
    try:
        teacher = open_page(teacher_ctx, f"{base}/turma.ipynb?lang={lang}")
        teacher.locator(".cartas-class-name input").fill("7º B")
        teacher.locator(".cartas-create-class").click()
        code = teacher.locator(".cartas-created [data-code]").get_attribute("data-code")
        ana = open_page(ana_ctx, f"{base}/index.ipynb?lang={lang}")
        whose(ana)
        join(ana, "Ana Luísa", code, "2468")
        ana.wait_for_selector(".cartas-identity[data-known=yes] .cartas-identity-name")

        # Cards for the learners without one, then new ones for everyone: asked first.
        teacher.wait_for_selector(".cartas-class-table tr[data-learner='Ana Luísa']", timeout=30_000)
        teacher.locator(".cartas-print-cards").click()
        teacher.wait_for_selector(".cartas-open-cards", state="visible")
        expect(teacher.locator(".cartas-roster-result")).to_contain_text(words["ready"])
        confirm = teacher.locator(".cartas-renew-confirm")
        assert not confirm.is_visible()
        teacher.locator(".cartas-renew-cards").click()
        expect(confirm).to_be_visible()
        expect(confirm).to_contain_text(words["confirm"])
        yes = teacher.locator(".cartas-renew-yes").bounding_box()
        assert yes is not None and 0 <= yes["x"] and yes["x"] + yes["width"] <= LAPTOP["width"]  # on the screen
        teacher.locator(".cartas-renew-no").click()
        expect(confirm).to_be_hidden()

        # A game item that asks to win.
        teacher.locator(".cartas-hw-kind select").select_option(label=words["game"])
        teacher.locator(".cartas-hw-game select").select_option(index=1)
        teacher.locator(".cartas-hw-goal select").select_option(label=words["win"])
        teacher.locator(".cartas-hw-add").click()
        teacher.wait_for_selector(".cartas-hw-items ol[data-count='1']")
        expect(teacher.locator(".cartas-hw-items")).to_contain_text(words["item"])
        goal = teacher.locator(".cartas-hw-goal").bounding_box()
        assert goal is not None and goal["x"] + goal["width"] <= LAPTOP["width"]
        screenshot(teacher, SCREENSHOTS / f"turma-cards-goals-{lang}.png", full_page=True)
    finally:
        teacher_ctx.close()
        ana_ctx.close()
