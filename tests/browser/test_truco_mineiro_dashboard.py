"""The variant comparison served by Voilà: a new vira changes only the Paulista verdict."""


def test_changing_the_vira_changes_the_paulista_verdict(dashboard):
    page = dashboard("truco_mineiro.ipynb")
    verdict = ".cartas-verdict[data-variant='{}']"
    assert page.locator(verdict.format("paulista")).get_attribute("data-team") == "B"
    box = page.locator(".cartas-vira input")
    box.fill("3♠")
    box.press("Enter")
    page.wait_for_selector(verdict.format("paulista") + "[data-team='A']")
    assert page.locator(verdict.format("mineiro")).get_attribute("data-team") == "A"
    assert "zap" in page.locator(verdict.format("mineiro")).text_content()
