"""The deal stepper served by Voilà: stepping forward deals the cards one by one."""


def test_forward_deals_cards_and_narrates(dashboard):
    page = dashboard("truco_mao.ipynb")
    assert "embaralha as 40 cartas" in page.locator(".cartas-narration").text_content()
    forward = page.get_by_role("button", name="Avançar ▶")
    for _ in range(3):
        forward.click()
    page.wait_for_function(
        "() => document.querySelectorAll('.cartas-hand svg[data-card]').length === 3", polling=100)
    assert "recebe a 3ª carta" in page.locator(".cartas-narration").text_content()
    assert page.locator(".cartas-seat[data-team='A']").count() == 2
    assert "Passo 4 de" in page.locator(".cartas-counter").text_content()


def test_english_through_the_url(dashboard):
    page = dashboard("truco_mao.ipynb", "?lang=en")
    assert "shuffles the 40 cards" in page.locator(".cartas-narration").text_content()
