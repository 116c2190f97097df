"""The mão de onze lab served by Voilà: a raise after playing loses the game."""


def test_the_mao_de_ferro_refusal_shows_beside_its_button_and_a_raise_in_the_mao_de_onze_loses(dashboard):
    """One page load: a truco called in a mão de ferro is refused beside its button (not in the
    page's message far above), and a raise after playing a mão de onze loses the game."""
    page = dashboard("truco_mao_de_onze.ipynb", "?lang=en")
    button = page.locator(".cartas-ferro-call")
    button.scroll_into_view_if_needed()
    button.click()
    error = page.locator(".cartas-field-error .cartas-error")
    error.wait_for()
    assert "mão de ferro" in error.text_content()
    at, near = button.bounding_box(), error.bounding_box()
    assert abs((near["y"] + near["height"] / 2) - (at["y"] + at["height"] / 2)) < 120  # beside, not 800 px above
    assert page.locator(".cartas-message").first.text_content() == ""

    assert page.locator(".cartas-run-scores").get_attribute("data-points") == "1"
    page.get_by_role("button", name="Play the hand").click()
    page.get_by_role("button", name="Call truco").first.click()
    page.wait_for_function(
        "() => document.querySelector('.cartas-onze-story')?.textContent.includes('forbidden')", polling=100)
    assert "wins the game" in page.locator(".cartas-onze-story").text_content()
