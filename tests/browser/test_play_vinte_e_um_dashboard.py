"""A whole round of 21 played by clicking (bots at full speed: ?ritmo=0)."""


def test_a_whole_round_by_clicking(dashboard):
    page = dashboard("jogar_21.ipynb", "?ritmo=0")
    page.wait_for_selector(".cartas-act-bet")
    page.locator(".cartas-act-bet").first.click()
    for _ in range(12):
        if "Rodada 2" in page.locator(".cartas-log").text_content():
            break
        page.wait_for_selector(".cartas-act-stand, .cartas-act-refuse_bank, .cartas-act-bet")
        if page.locator(".cartas-act-bet").count():
            break
        page.locator(".cartas-act-stand, .cartas-act-refuse_bank").first.click()
        page.wait_for_timeout(150)
    page.wait_for_function("() => document.querySelector('.cartas-log').textContent.includes('Rodada 2')")
    log = page.locator(".cartas-log").text_content()
    assert "Fim da rodada 1" in log and "O jogador 0 aposta" in log
