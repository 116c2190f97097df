"""The 21 scoring lesson in Chromium: give the player a card, see the total and the winner."""
from playwright.sync_api import expect

import kernel_wire


def test_adding_a_card_updates_totals_and_the_call(dashboard):
    page = dashboard("vinte_e_um_pontos.ipynb")
    assert page.locator(".cartas-winner").get_attribute("data-winner") == "banker"  # A♠ 7♥ = 8 vs 17
    page.locator(".cartas-card-pick select").select_option(label="K♣  (rei de paus)")
    mark = kernel_wire.of(page).mark()
    page.get_by_role("button", name="+ jogador").click()
    kernel_wire.of(page).handled(page, mark)  # drawn whole: the hands, the totals and the call
    expect(page.locator(".cartas-winner")).to_have_attribute("data-winner", "player")
    ace_one = page.locator(".cartas-player-hand tr[data-ace='1'] .cartas-total").text_content()
    assert ace_one == "18"
    assert "18 contra 17" in page.locator(".cartas-result").text_content()
