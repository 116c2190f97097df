"""The betting lab served by Voilà: a truco call shows what running would pay."""


def test_calling_truco_shows_the_run_value(dashboard):
    page = dashboard("truco_apostas.ipynb")
    assert page.locator(".cartas-value").get_attribute("data-value") == "1"
    page.locator(".cartas-raise").click()
    page.wait_for_selector(".cartas-run-value[data-points='1']")
    assert "pediu truco" in page.locator(".cartas-status").text_content()
    assert page.locator(".cartas-ladder[data-variant='mineiro']").get_attribute("data-values") == "2-4-6-10-12"
