"""The betting lab served by Voilà: a truco call shows what running would pay."""
from playwright.sync_api import expect

import kernel_wire
from serving import start_exercises

CARDS = "() => Array.from(document.querySelectorAll('.cartas-table-box [data-card]'), e => e.dataset.card).join(' ')"


def test_calling_truco_shows_the_run_value_a_second_answer_keeps_the_verdict_and_nova_mao_deals(dashboard):
    """One page load: a truco call shows what running would pay; a second answer to the same
    question does not flip its verdict; "Nova mão" deals new cards under a new seed."""
    page = dashboard("truco_apostas.ipynb")
    assert page.locator(".cartas-value").get_attribute("data-value") == "1"
    mark = kernel_wire.of(page).mark()
    page.locator(".cartas-raise").click()
    kernel_wire.of(page).handled(page, mark)  # drawn whole: what running pays and the status
    expect(page.locator(".cartas-run-value")).to_have_attribute("data-points", "1")
    assert "pediu truco" in page.locator(".cartas-status").text_content()
    assert page.locator(".cartas-ladder[data-variant='mineiro']").get_attribute("data-values") == "2-4-6-10-12"

    start_exercises(page)
    answers = page.locator(".cartas-exercises .cartas-answer")
    assert answers.count() >= 2
    mark = kernel_wire.of(page).mark()
    answers.nth(0).click()
    page.wait_for_selector(".cartas-feedback .cartas-right, .cartas-feedback .cartas-wrong")
    kernel_wire.of(page).handled(page, mark)  # drawn whole: the verdict, then the score (one run read the score before)
    verdict = page.locator(".cartas-feedback").inner_text()
    asked = page.locator(".cartas-score span").get_attribute("data-asked")
    mark = kernel_wire.of(page).mark()
    answers.nth(1).click()
    kernel_wire.of(page).handled(page, mark)  # the kernel has answered the click, and it is drawn
    assert page.locator(".cartas-feedback").inner_text() == verdict
    assert page.locator(".cartas-score span").get_attribute("data-asked") == asked

    before = page.evaluate(CARDS)
    seed = page.locator(".cartas-seed input").input_value()
    assert len(before.split()) >= 4
    page.get_by_role("button", name="Nova mão").click()
    page.wait_for_function(f"(before) => ({CARDS})() !== before", arg=before, polling=100)
    assert page.locator(".cartas-seed input").input_value() != seed
