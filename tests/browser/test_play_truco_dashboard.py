"""A whole hand of truco played by clicking in the dashboard (bots at full speed: ?ritmo=0).

Each page opens a seeded game (?semente=), so each test meets the same deal every run:
with 0 a bot calls truco during the first hand and she accepts it; with 6 she plays first
and nobody calls."""

from serving import status_step, wait_settled

READY_TO_ACT = """() => document.querySelector('.cartas-log').textContent.includes('Mão 2')
    || [...document.querySelectorAll('.cartas-accept, .cartas-play-hand')].some(b => b.offsetParent !== null)
    || document.querySelector('.cartas-hand-cards .cartas-pick-on svg') !== null"""


def test_a_whole_hand_by_clicking(dashboard):
    page = dashboard("jogar_truco.ipynb", "?ritmo=0&semente=0")
    page.wait_for_selector(".cartas-status [data-turn='you']")
    assert page.locator(".cartas-table svg[data-card]").count() >= 3
    for _ in range(12):
        # the log and the moves offered are drawn after the status: wait for them to come
        page.wait_for_function(READY_TO_ACT, polling=100)
        if "Mão 2" in page.locator(".cartas-log").text_content():
            break
        step = status_step(page)
        for name in ("cartas-accept", "cartas-play-hand"):
            button = page.locator(f".{name}")
            if button.is_visible():
                button.click()
                break
        else:
            page.locator(".cartas-hand-cards .cartas-pick-on svg").first.click()  # the picture
        # Wait for the bots to finish: the status shows your turn (or the end) at a later step.
        wait_settled(page, step)
    log = page.locator(".cartas-log").text_content()
    assert "Mão 2" in log and ("leva a mão" in log or "empataram" in log or "corre" in log)
    page.get_by_role("button", name="Por quê?").click()
    page.wait_for_selector(".cartas-why-text")
    why = page.locator(".cartas-why-text").text_content()
    # Hand 2 has no finished trick yet, so "Por quê?" explains how hand 1 ended: its last
    # trick, or who ran and what it paid.
    assert ("correu" in why and "ponto" in why) if "corre:" in log else "rodada" in why


def _inside(box, width=1024, height=768):
    return box is not None and box["x"] >= 0 and box["y"] >= 0 and \
        box["x"] + box["width"] <= width and box["y"] + box["height"] <= height


def test_cards_and_betting_buttons_stand_beside_the_table_at_1024x768_and_the_hint_gives_its_numbers(dashboard):
    """One page load, in English at 1024×768 (seed 6: she plays first): her cards and the betting
    buttons stand beside the table, with no sideways scrolling; the hint gives the advice with
    its numbers, and the review opens."""
    page = dashboard("jogar_truco.ipynb", "?ritmo=0&lang=en&semente=6")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_selector(".cartas-status [data-turn='you']")
    page.locator(".cartas-table").scroll_into_view_if_needed()
    table = page.locator(".cartas-table").bounding_box()
    hand = page.locator(".cartas-hand-cards").bounding_box()
    assert _inside(hand), (table, hand)
    assert hand["x"] >= table["x"] + 500  # beside the table, not under it
    assert hand["y"] < table["y"] + table["height"]
    buttons = [page.locator(f".{name}") for name in ("cartas-raise", "cartas-accept", "cartas-play-hand")]
    shown = [b for b in buttons if b.is_visible()]
    assert shown, "a betting button is offered on the learner's turn"
    for button in shown:
        assert _inside(button.bounding_box()), button.bounding_box()
    assert _inside(page.locator(".cartas-hint-button").bounding_box())
    # no sideways scrolling at 1024 px
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024

    page.locator(".cartas-hint-button").click()
    page.wait_for_selector(".cartas-hint-line")
    hint = page.locator(".cartas-hint").text_content()
    assert "Chance of taking the hand" in hint and "%" in hint
    assert any(word in hint for word in ("Play ", "Accept", "Run", "Raise", "Call truco", "Do not call"))
    page.locator(".cartas-review-button").click()
    page.wait_for_selector(".cartas-review-text")
