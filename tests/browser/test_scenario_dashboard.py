"""A scenario link opens the same deal on the student's screen; a tampered one is refused."""
from cartas.scenario import encode_link, truco_scenario

HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]


def test_a_link_opens_the_scenario_and_a_tampered_one_is_refused(dashboard):
    link = encode_link(truco_scenario("paulista", HANDS, "K♠", dealer=3, score=(2, 5)))
    page = dashboard("cenarios.ipynb", f"?cenario={link}")
    page.wait_for_selector(".cartas-scenario-table svg[data-card='7♥']")
    assert "Cenário aberto" in page.locator(".cartas-message").text_content()
    assert page.locator(".cartas-hand-0 input").input_value() == "7♥ A♠ 3♦"
    bad = dashboard("cenarios.ipynb", f"?cenario={link[:-3]}abc")
    bad.wait_for_selector(".cartas-message .cartas-error")
    assert "alterado" in bad.locator(".cartas-message").text_content()
    assert bad.locator(".cartas-scenario-table svg").count() == 0
