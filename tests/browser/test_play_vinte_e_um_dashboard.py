"""A whole round of 21 played by clicking (bots at full speed: ?ritmo=0)."""

SETTLED = """(step) => {
  const status = document.querySelector('.cartas-status [data-turn]');
  return status && status.dataset.turn !== 'bot' && Number(status.dataset.step) > step;
}"""


def status_step(page):
    return int(page.locator(".cartas-status [data-turn]").get_attribute("data-step"))


def test_a_whole_round_by_clicking(dashboard):
    page = dashboard("jogar_21.ipynb", "?ritmo=0")
    page.wait_for_selector(".cartas-status [data-turn='you']")
    step = status_step(page)
    page.locator(".cartas-act-bet").first.click()
    page.wait_for_function(SETTLED, arg=step)
    for _ in range(12):
        if "Rodada 2" in page.locator(".cartas-log").text_content():
            break
        step = status_step(page)
        page.locator(".cartas-act-stand, .cartas-act-refuse_bank, .cartas-act-bet").first.click()
        page.wait_for_function(SETTLED, arg=step)
    log = page.locator(".cartas-log").text_content()
    assert "Rodada 2" in log and "Fim da rodada 1" in log and "O jogador 0 aposta" in log
