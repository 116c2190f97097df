"""Keyboard only (Tab and Enter, no mouse): a whole hand of truco and an exercise answered.
After a card is played the focus stays on the learner's cards (the next card to play, or the
row while the bots move), never on the page's body; a focused control shows an outline.

And what a screen reader hears: the view's aria-live region says a move (the learner's and the
bots') and a refusal, in the page's language."""
from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from serving import SETTLED, status_step, wait_settled

pytestmark = pytest.mark.browser

FOCUSED = "(selector) => !!document.activeElement && document.activeElement.matches(selector)"


def tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches `selector` (fails after `limit` presses)."""
    for _ in range(limit):
        if page.evaluate(FOCUSED, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


ANSWER = """() => ['cartas-accept', 'cartas-play-hand'].find(name => {
  const button = document.querySelector('.' + name);
  return button && button.offsetParent !== null; }) || null"""


def tab_to_answer(page, limit: int = 80) -> str | None:
    """Tab to what the learner must answer now: the accept (a truco asked) or play-hand button
    (mão de onze) when shown, else a card she may play; returns that button's class, or None for
    a card. Which one is asked again before each press: the status can show her turn a moment
    before the bot's truco brings its buttons (each widget's update is a message of its own)."""
    for _ in range(limit):
        answer = page.evaluate(ANSWER)
        if page.evaluate(FOCUSED, f".{answer}" if answer else ".cartas-pick-on"):
            return answer
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {answer or 'a card to play'}")


def focus_outline(page) -> str:
    return page.evaluate("() => { const s = getComputedStyle(document.activeElement); "
                         "return s.outlineStyle + ' ' + s.outlineWidth; }")


def test_a_whole_truco_hand_by_keyboard_with_the_focus_kept_on_the_cards(dashboard):
    page = dashboard("jogar_truco.ipynb", "?ritmo=0&lang=pt&semente=0")  # a bot's truco to accept, too
    page.wait_for_selector(".cartas-status [data-turn='you']")
    played = 0
    for _ in range(12):
        if "Mão 2" in page.locator(".cartas-log").text_content():
            break
        step = status_step(page)
        answer = tab_to_answer(page)
        assert focus_outline(page).split()[0] != "none"  # a visible focus outline
        page.keyboard.press("Enter")
        if answer is None:
            # the focus stays with the cards (the next one, or the row), not the page's body
            assert page.evaluate("() => !!document.activeElement.closest('.cartas-hand-cards')")
        try:
            page.wait_for_function(SETTLED, arg=step, timeout=20_000, polling=100)
        except PlaywrightTimeout:
            # an Enter on a control the page was replacing is refused by the kernel ("the game
            # moved on") and moves nothing (as a click: click_and_settle): focus and press again
            if status_step(page) == step:
                continue
            wait_settled(page, step)
        played += answer is None
    log = page.locator(".cartas-log").text_content()
    assert played >= 2 and "Mão 2" in log


def test_an_exercise_answered_by_keyboard(dashboard):
    page = dashboard("manilhas.ipynb", "?lang=en")
    tab_to(page, ".cartas-exercises .cartas-next")
    page.keyboard.press("Enter")
    page.wait_for_selector(".cartas-exercises .cartas-answer", state="visible")
    tab_to(page, ".cartas-exercises .cartas-answer")
    assert focus_outline(page).split()[0] != "none"
    page.keyboard.press("Enter")
    page.wait_for_selector(".cartas-exercises .cartas-right, .cartas-exercises .cartas-wrong")


RECORD = """() => { window.cartasSaid = [];
  const region = document.querySelector('.cartas-announce');
  new MutationObserver(() => { if (region.textContent) window.cartasSaid.push(region.textContent); })
    .observe(region, {childList: true, characterData: true, subtree: true}); }"""


def record(page) -> None:
    """Record what the live region says from now on, once it watches the view (before, what the
    view draws is taken as already there and not said)."""
    page.wait_for_selector(".cartas-announce[data-watching]", state="attached")
    page.evaluate(RECORD)


def said(page) -> list[str]:
    return page.evaluate("() => window.cartasSaid")


def test_the_live_region_says_a_move_and_a_refusal_in_the_pages_language(dashboard):
    page = dashboard("jogar_truco.ipynb", "?ritmo=0&lang=en&semente=6")  # she plays first, nobody calls
    page.wait_for_selector(".cartas-status [data-turn='you']")
    live = page.locator(".cartas-announce").first
    assert live.get_attribute("aria-live") == "polite" and live.get_attribute("role") == "status"
    record(page)
    card = page.locator(".cartas-hand-cards .cartas-pick-on").first
    step = status_step(page)
    name = card.locator("svg").get_attribute("aria-label")  # the button is named by its picture
    assert " of " in name  # the card named in words ("seven of hearts")
    card.click()
    wait_settled(page, step)
    # her move is said, and the bots' cards after it
    page.wait_for_function("() => window.cartasSaid.some(t => /Seat 0 plays/.test(t))", polling=100)
    page.wait_for_function("() => window.cartasSaid.some(t => /Seat [123] plays/.test(t))", polling=100)
    assert not any("Assento" in text for text in said(page))

    odds = dashboard("chances_truco.ipynb", "?lang=pt")
    record(odds)
    field = odds.locator(".cartas-hand input")
    field.fill("xyz")
    field.press("Enter")
    odds.wait_for_selector(".cartas-field-error .cartas-error")
    odds.wait_for_function("() => window.cartasSaid.some(t => t.includes('Não é possível'))", polling=100)
    assert any("xyz" in text for text in said(odds)), said(odds)
