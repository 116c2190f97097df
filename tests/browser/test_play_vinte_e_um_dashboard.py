"""A whole round of 21 played by clicking (bots at full speed: ?ritmo=0)."""

from serving import status_step, wait_settled


def test_a_whole_round_by_clicking(dashboard):
    page = dashboard("jogar_21.ipynb", "?ritmo=0")
    page.wait_for_selector(".cartas-status [data-turn='you']")
    step = status_step(page)
    page.locator(".cartas-act-bet").first.click()
    wait_settled(page, step)
    for _ in range(12):
        if "Rodada 2" in page.locator(".cartas-log").text_content():
            break
        step = status_step(page)
        page.locator(".cartas-act-stand, .cartas-act-refuse_bank, .cartas-act-bet").first.click()
        wait_settled(page, step)
    log = page.locator(".cartas-log").text_content()
    assert "Rodada 2" in log and "Fim da rodada 1" in log and "O jogador 0 aposta" in log
