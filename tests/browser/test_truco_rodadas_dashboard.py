"""The tricks lab served by Voilà: covering a card changes who wins the trick."""
from playwright.sync_api import expect

import kernel_wire


def test_covering_the_manilha_gives_the_trick_to_team_b(dashboard):
    page = dashboard("truco_rodadas.ipynb", "?lang=en")
    winner = page.locator(".cartas-trick-winner")
    assert winner.get_attribute("data-team") == "A"
    mark = kernel_wire.of(page).mark()
    page.locator(".cartas-cover-0 input").check()
    kernel_wire.of(page).handled(page, mark)  # drawn whole: the verdict and the cards played
    expect(winner).to_have_attribute("data-team", "B")
    assert "Winner: Team B" in winner.text_content()
    assert page.locator(".cartas-played[data-seat='0'] svg").get_attribute("data-card") == "back"
