"""The manilha lesson as a learner meets it: served by Voilà, shown in Chromium."""
import re

from playwright.sync_api import expect

import kernel_wire
from phone_pages import switch_language
from serving import start_exercises


def shown_manilhas(page):
    cards = page.locator(".cartas-manilhas svg[data-card]")
    return [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]


def pick_vira(page, label: str, first_manilha: str) -> None:
    """Choose the vira in the dropdown and wait until the weakest manilha drawn is `first_manilha`."""
    mark = kernel_wire.of(page).mark()
    page.locator(".cartas-vira select").select_option(label=label)
    kernel_wire.of(page).handled(page, mark)  # drawn whole: the manilhas and the step's text
    expect(page.locator(".cartas-manilhas svg").first).to_have_attribute("data-card", first_manilha)


def test_picking_a_vira_shows_its_manilhas_a_three_wraps_around_and_a_question_answers_at_once(dashboard):
    """One page load, in English through the URL: the vira 7♦ makes the queens manilhas, the
    vira 3♣ wraps around to the fours, and a question answers as soon as it is tapped."""
    page = dashboard("manilhas.ipynb", "?lang=en")
    pick_vira(page, "7♦  (7 of diamonds)", "Q♦")
    assert shown_manilhas(page) == ["Q♦", "Q♠", "Q♥", "Q♣"]
    assert "after 7 comes Q" in page.locator(".cartas-step").text_content()
    pick_vira(page, "3♣  (3 of clubs)", "4♦")
    assert shown_manilhas(page) == ["4♦", "4♠", "4♥", "4♣"]
    assert "wraps around" in page.locator(".cartas-step").text_content()

    assert page.locator(".cartas-next").text_content() == "Start"
    start_exercises(page)
    assert page.locator(".cartas-next").text_content() == "Another question"
    question = page.locator(".cartas-question").text_content()
    vira_rank = re.search(r"The vira is (\w+)", question).group(1)
    order = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]
    right = order[(order.index(vira_rank) + 1) % 10]
    mark = kernel_wire.of(page).mark()
    page.get_by_role("button", name=right, exact=True).click()
    kernel_wire.of(page).handled(page, mark)  # drawn whole: the verdict and the score
    expect(page.locator(".cartas-feedback .cartas-right")).to_have_count(1)
    assert page.locator(".cartas-score").text_content().strip() == "Score: 1 of 1"
    switch_language(page, "pt")  # the vira 3♣ said in Portuguese
    assert "depois do 3 vem o 4" in page.locator(".cartas-step").text_content()
    assert "volta" in page.locator(".cartas-step").text_content()
