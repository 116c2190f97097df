"""A whole round of 21 played by clicking (bots at full speed: ?ritmo=0)."""

from playwright.sync_api import expect

from serving import click_and_settle, status_step, wait_settled


def test_a_whole_round_by_clicking(dashboard):
    page = dashboard("jogar_21.ipynb", "?ritmo=0")
    page.wait_for_selector(".cartas-status [data-turn='you']")
    step = status_step(page)
    page.locator(".cartas-act-bet").first.click()
    wait_settled(page, step)
    for _ in range(12):
        if "Rodada 2" in page.locator(".cartas-log").text_content():
            break
        click_and_settle(page, ".cartas-act-stand, .cartas-act-refuse_bank, .cartas-act-bet")
    log = page.locator(".cartas-log").text_content()
    assert "Rodada 2" in log and "Fim da rodada 1" in log and "O assento 0 aposta" in log
    # oldest first, and the newest line in view without scrolling (widgets.components.log)
    last_seen, overflows, first_hidden = page.evaluate("""() => {
        const box = document.querySelector('.cartas-log-scroll'), b = box.getBoundingClientRect();
        const lines = box.querySelectorAll('.cartas-log-line');
        const last = lines[lines.length - 1].getBoundingClientRect(), first = lines[0].getBoundingClientRect();
        return [last.top >= b.top - 1 && last.bottom <= b.bottom + 1, box.scrollHeight > box.clientHeight,
                first.top < b.top];
    }""")
    assert last_seen and overflows and first_hidden
    assert page.locator(".cartas-log-line").first.text_content().startswith("Começa o 21")


def test_bet_by_number_then_the_hint_at_1024x768(dashboard):
    page = dashboard("jogar_21.ipynb", "?ritmo=0")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_selector(".cartas-status [data-turn='you']")
    assert "ás vale" in page.locator(".cartas-rules").text_content()
    # one field and one button, not a row of them (the moves are drawn after the status)
    expect(page.locator(".cartas-act-bet")).to_have_count(1)
    page.locator(".cartas-amount-bet input").fill("2")
    step = status_step(page)
    page.locator(".cartas-act-bet").click()
    wait_settled(page, step)
    # the log is drawn after the status (the bots' moves after her bet may still be coming in)
    page.wait_for_function("() => document.querySelector('.cartas-log').textContent.includes('aposta 2')", polling=100)
    assert "aposta 2" in page.locator(".cartas-log").text_content()
    wait_settled(page, status_step(page) - 1)
    if page.locator(".cartas-act-stand").count():
        page.locator(".cartas-hint-button").click()
        page.wait_for_selector(".cartas-hint-text[data-action='stand'], .cartas-hint-text[data-action='hit']")
        assert "%" in page.locator(".cartas-hint").text_content()
        box = page.locator(".cartas-act-stand").bounding_box()
        assert box["x"] + box["width"] <= 1024
