"""A whole hand of truco played by clicking in the dashboard (bots at full speed: ?ritmo=0)."""

from serving import status_step, wait_settled


def test_a_whole_hand_by_clicking(dashboard):
    page = dashboard("jogar_truco.ipynb", "?ritmo=0")
    page.wait_for_selector(".cartas-status [data-turn='you']")
    assert page.locator(".cartas-table svg[data-card]").count() >= 3
    for _ in range(12):
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
