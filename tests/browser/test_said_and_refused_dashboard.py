"""On a phone (360×740, touch): a refusal in `mesa` and in `cenarios` shows right beside the
control that was used, inside the screen, and the live region says it; a move at a table and
a step of a truco lesson are said by the live region with their cards in words, in English
and, after the page's language switch, in Portuguese (widgets.components.announce)."""
from __future__ import annotations

import re

import pytest

import kernel_wire
from phone_pages import open_page, phone_context, record, said, settle, switch_language, wait_said

pytestmark = pytest.mark.browser

NEAR = 150  # px: the most between a control and its refusal's box
WORDS = {"en": r"\w+ of (hearts|spades|diamonds|clubs)", "pt": r"\w+ de (copas|espadas|ouros|paus)"}


def refusal_beside(page, control: str) -> dict:
    """Where the refusal shown after using `control` is: its gap to the control and its box."""
    page.wait_for_selector(".cartas-field-error .cartas-error")
    return page.evaluate("""(selector) => {
      const control = document.querySelector(selector).getBoundingClientRect();
      const error = document.querySelector('.cartas-field-error .cartas-error').getBoundingClientRect();
      const gap = Math.max(0, error.top - control.bottom, control.top - error.bottom,
                           error.left - control.right, control.left - error.right);
      return {gap, top: error.top, bottom: error.bottom, left: error.left, right: error.right,
              width: innerWidth, height: innerHeight,
              message: document.querySelector('.cartas-message').textContent};
    }""", control)


def assert_near_and_on_screen(where: dict) -> None:
    assert where["gap"] <= NEAR, where
    assert where["top"] >= 0 and where["bottom"] <= where["height"], where
    assert where["left"] >= 0 and where["right"] <= where["width"] + 1, where
    assert where["message"].strip() == "", where  # not in the message line under the title


def test_a_refusal_shows_beside_its_control_on_a_phone_and_is_said(browser, voila_url):
    context = phone_context(browser)
    try:
        mesa = open_page(context, voila_url, "mesa", "pt")
        record(mesa)
        mesa.locator(".cartas-mesa-code-input input").fill("não!")
        mesa.locator(".cartas-mesa-open").click()
        assert_near_and_on_screen(refusal_beside(mesa, ".cartas-mesa-open"))
        wait_said(mesa, "código de mesa inválido")

        scenarios = open_page(context, voila_url, "cenarios", "en")
        record(scenarios)
        score = scenarios.locator(".cartas-score-0 input")
        mark = kernel_wire.of(scenarios).mark()
        score.fill("13")
        score.press("Enter")
        settle(scenarios, mark)  # the kernel has the 13
        scenarios.locator(".cartas-make").click()
        assert_near_and_on_screen(refusal_beside(scenarios, ".cartas-make"))
        wait_said(scenarios, "from 0 to 11, not")
    finally:
        context.close()


def version(page) -> str | None:
    return page.locator(".cartas-status [data-turn]").get_attribute("data-version")


def moved(page, before: str | None, seconds: float = 5) -> bool:
    """Whether the table's version changed from `before` within `seconds`."""
    for _ in range(int(seconds * 4)):
        if version(page) != before:
            return True
        page.wait_for_timeout(250)
    return False


def play_her_card(page) -> None:
    """Wait for her turn at the table (accepting a bot's call first) and play her first card;
    a click on a drawing the table has left behind is refused, so she clicks again."""
    for _ in range(120):
        accept = page.locator(".cartas-act-accept")
        cards = page.locator(".cartas-hand-cards .cartas-pick-on")
        turn = page.locator(".cartas-status [data-turn]").get_attribute("data-turn")
        before = version(page)
        if accept.count() and accept.first.is_visible():
            accept.first.click()
            moved(page, before)
        elif turn == "you" and cards.count():
            cards.first.click()
            if moved(page, before):
                return
        else:
            page.wait_for_timeout(250)
    raise AssertionError("her turn never came")


def test_a_move_at_a_table_and_a_lesson_step_are_said_with_cards_in_words(browser, voila_url):
    context = phone_context(browser)
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{voila_url}/voila/render/mesa.ipynb?lang=en&ritmo=0")
        page.wait_for_selector(".cartas-view", state="visible")
        settle(page)
        record(page)
        name = page.locator(".cartas-mesa-name input")
        name.fill("Ana")
        name.press("Enter")
        page.locator(".cartas-mesa-create").click()
        page.locator(".cartas-mesa-start").click()
        play_her_card(page)
        wait_said(page, rf"Ana plays {WORDS['en']}")
        switch_language(page, "pt")
        play_her_card(page)
        wait_said(page, rf"Ana joga {WORDS['pt']}")
        assert not any(re.search("[♥♣♠♦]", text) for text in said(page)), said(page)

        lesson = open_page(context, voila_url, "truco_mao", "en")  # the hand, step by step
        record(lesson)
        lesson.locator(".cartas-forward").click()  # the first card dealt
        first = wait_said(lesson, rf"Seat \d .*{WORDS['en']}")
        switch_language(lesson, "pt")
        lesson.locator(".cartas-forward").click()  # the second card, said in Portuguese
        second = wait_said(lesson, rf"[Aa]ssento \d .*{WORDS['pt']}")
        assert not re.search("[♥♣♠♦]", first + second), (first, second)
    finally:
        context.close()
