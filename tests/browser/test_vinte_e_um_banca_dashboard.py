"""The 21 bank lesson in Chromium: pick the sale and see the bank sold."""
from playwright.sync_api import expect

import kernel_wire
from phone_pages import switch_language


def test_the_exercise_answers_at_once_and_choosing_sale_shows_the_bank_sold(dashboard):
    """One page load, in English: a question about the bank answers when tapped, and the sale
    mode's example ends with the bank sold to seat 2."""
    page = dashboard("vinte_e_um_banca.ipynb", "?lang=en")
    assert "who holds the bank now" in page.locator(".cartas-question").text_content()
    mark = kernel_wire.of(page).mark()
    page.get_by_role("button", name="Seat 1").click()
    kernel_wire.of(page).handled(page, mark)  # drawn whole: the verdict and the score are two widgets
    expect(page.locator(".cartas-feedback")).to_contain_text("The bank passes")
    assert "Score: " in page.locator(".cartas-score").text_content()

    mark = kernel_wire.of(page).mark()
    page.get_by_role("button", name="sale by offer").click()
    kernel_wire.of(page).handled(page, mark)
    expect(page.locator(".cartas-story")).to_contain_text("The banker accepts seat")
    assert page.locator(".cartas-change").get_attribute("data-to") == "2"
    assert page.locator(".cartas-table").get_attribute("data-banker") == "2"
    switch_language(page, "pt")  # the same story in Portuguese
    assert "aceita a oferta" in page.locator(".cartas-story").text_content()
