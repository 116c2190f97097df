"""The truco odds explorer: change the hand, recompute, and see the odds change."""


def hand_win(page):
    return float(page.locator(".cartas-odds-hand").get_attribute("data-win"))


def test_a_stronger_hand_shows_better_odds(dashboard):
    page = dashboard("chances_truco.ipynb")
    page.wait_for_selector(".cartas-odds-hand")
    before = hand_win(page)
    field = page.locator(".cartas-hand input")
    field.fill("Q♣ Q♥ 3♠")  # vira 7♠: the two best manilhas (Qs) and a 3 are nearly unbeatable
    page.get_by_role("button", name="Calcular").click()
    page.wait_for_function(
        "(before) => Number(document.querySelector('.cartas-odds-hand').dataset.win) !== before",
        arg=before, polling=100)
    assert hand_win(page) > 0.9 > before
    assert page.locator(".cartas-odds-cards svg[data-card='Q♣']").count() == 1
