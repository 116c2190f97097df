"""The 21 bank lesson in Chromium: pick the sale and see the bank sold."""


def test_choosing_sale_shows_the_bank_sold(dashboard):
    page = dashboard("vinte_e_um_banca.ipynb")
    page.get_by_role("button", name="compra e venda").click()
    page.wait_for_function(
        "() => document.querySelector('.cartas-story')?.textContent.includes('aceita a oferta')")
    assert page.locator(".cartas-change").get_attribute("data-to") == "2"
    assert page.locator(".cartas-table").get_attribute("data-banker") == "2"
