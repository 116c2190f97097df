"""The deal stepper served by Voilà: stepping forward deals the cards one by one."""
from playwright.sync_api import expect

import kernel_wire
from phone_pages import switch_language


def test_english_through_the_url_and_forward_deals_cards_and_narrates(dashboard):
    """One page load, in English through the URL: the first step shuffles, three steps forward
    deal each seat its third card."""
    page = dashboard("truco_mao.ipynb", "?lang=en")
    assert "shuffles the 40 cards" in page.locator(".cartas-narration").text_content()
    forward = page.get_by_role("button", name="Forward ▶")
    # each step is read once the kernel has drawn it whole: the hands, the narration and the
    # counter come in messages of their own
    for _ in range(3):
        mark = kernel_wire.of(page).mark()
        forward.click()
        kernel_wire.of(page).handled(page, mark)
    expect(page.locator(".cartas-hand svg[data-card]")).to_have_count(3)
    assert "gets the third card" in page.locator(".cartas-narration").text_content()
    assert page.locator(".cartas-seat[data-team='A']").count() == 2
    assert "Step 4 of" in page.locator(".cartas-counter").text_content()
    switch_language(page, "pt")  # the same step in Portuguese
    assert "recebe a 3ª carta" in page.locator(".cartas-narration").text_content()
    assert "Passo 4 de" in page.locator(".cartas-counter").text_content()
