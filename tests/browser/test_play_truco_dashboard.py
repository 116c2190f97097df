"""A whole hand of truco played by clicking in the dashboard (bots at full speed: ?ritmo=0)."""


def log_lines(page):
    return page.locator(".cartas-log-line").count()


def test_a_whole_hand_by_clicking(dashboard):
    page = dashboard("jogar_truco.ipynb", "?ritmo=0")
    page.wait_for_selector(".cartas-play-card")
    assert page.locator(".cartas-table svg[data-card]").count() >= 3
    for _ in range(12):
        if "Mão 2" in page.locator(".cartas-log").text_content():
            break
        before = log_lines(page)
        card = page.locator(".cartas-play-card:not([disabled]):visible")
        for name in ("cartas-accept", "cartas-play-hand"):
            button = page.locator(f".{name}")
            if button.is_visible():
                button.click()
                break
        else:
            card.first.click()
        page.wait_for_function(f"() => document.querySelectorAll('.cartas-log-line').length > {before}")
    log = page.locator(".cartas-log").text_content()
    assert "Mão 2" in log and ("leva a mão" in log or "empataram" in log or "corre" in log)
    page.get_by_role("button", name="Por quê?").click()
    page.wait_for_selector(".cartas-why-text")
    assert "rodada" in page.locator(".cartas-why-text").text_content()
