"""Scenarios in a class: the teacher's full link, copy button and QR code; the learner's view of
a link; one card format; translated options; play from the shown step; a score of 13 refused."""
import segno

from cartas.scenario import decode_link, encode_link, truco_scenario

import kernel_wire

HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]


def make(page):
    page.locator(".cartas-make button, button.cartas-make").first.click()


def options(page, selector):
    """A dropdown's option names (ipywidgets draws spaces as no-break spaces)."""
    return [t.replace("\xa0", " ") for t in page.locator(f"{selector} select option").all_text_contents()]


def type_into(page, selector, text):
    field = page.locator(f"{selector} input").first
    field.fill(text)
    field.press("Enter")
    field.blur()


def test_a_link_opens_the_scenario_for_the_learner_and_a_tampered_one_is_refused(dashboard):
    link = encode_link(truco_scenario("paulista", HANDS, "K♠", dealer=3, score=(2, 5), title="Aula 3"))
    page = dashboard("cenarios.ipynb", f"?cenario={link}")
    page.wait_for_selector(".cartas-scenario-table svg[data-card='7♥']")
    assert "Cenário aberto" in page.locator(".cartas-message").text_content()
    assert "Aula 3" in page.locator(".cartas-view h3").first.text_content()
    # the learner sees the scenario, not the builder
    assert page.locator(".cartas-editor").is_hidden()
    assert page.locator(".cartas-hand-0 input").is_hidden()
    assert page.locator(".cartas-make").is_hidden()
    assert page.locator(".cartas-step").is_visible() and page.locator(".cartas-play").is_visible()
    page.get_by_role("button", name="Editar").click()  # the teacher unfolds it
    page.wait_for_selector(".cartas-hand-0 input", state="visible")
    assert page.locator(".cartas-hand-0 input").input_value() == "7♥ A♠ 3♦"
    bad = dashboard("cenarios.ipynb", f"?cenario={link[:-3]}abc")
    bad.wait_for_selector(".cartas-message .cartas-error")
    assert "alterado" in bad.locator(".cartas-message").text_content()
    assert bad.locator(".cartas-scenario-table svg").count() == 0
    assert bad.locator(".cartas-editor").is_hidden()


def test_the_teacher_gets_the_full_link_a_copy_button_and_a_qr_code(dashboard):
    page = dashboard("cenarios.ipynb", "?lang=pt")
    type_into(page, ".cartas-hand-0", "7♥, A♠, 3♦")  # commas here, spaces elsewhere
    type_into(page, ".cartas-hand-1", "4♣ 5♣ 6♣")
    type_into(page, ".cartas-hand-2", "K♥,J♥ Q♥")
    type_into(page, ".cartas-hand-3", "2♠ 3♠ 4♠")
    type_into(page, ".cartas-vira", "K♠")
    make(page)
    page.wait_for_selector(".cartas-message .cartas-ok")
    page.wait_for_selector(".cartas-qr svg")
    url = page.locator(".cartas-full-link").input_value()
    origin = page.evaluate("window.location.origin")
    assert url.startswith(origin + "/voila/render/") and "cenarios.ipynb?cenario=" in url
    assert "lang=" not in url
    scenario = decode_link(url.split("cenario=", 1)[1])
    assert scenario["hands"] == HANDS and scenario["vira"] == "K♠"
    # the QR code is segno's code for exactly this URL, large enough for a projector
    svg = page.locator(".cartas-qr svg").first
    expected = segno.make(url, error="m", micro=False)
    drawn = svg.locator("path.qrline").get_attribute("d")
    assert drawn == expected.svg_inline(omitsize=True).split(' d="', 1)[1].split('"', 1)[0]
    assert svg.locator("path.qrline").get_attribute("stroke") == "#000"
    box = svg.bounding_box()
    assert box["width"] >= 280 and abs(box["width"] - box["height"]) < 2
    assert expected.version <= 10
    # copy: the clipboard when allowed, else the text is selected for Ctrl+C
    page.locator("button.cartas-copy").click()
    page.wait_for_function("document.querySelector('.cartas-copied').textContent.length > 0", polling=100)
    assert page.locator(".cartas-copied").text_content() in (
        "Link copiado.", "Link selecionado: tecle Ctrl+C para copiar.")
    page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.evaluate("window.getSelection().removeAllRanges()")
    page.locator("button.cartas-copy").click()
    page.wait_for_function("document.querySelector('.cartas-copied').dataset.copied !== 'clipboard'", polling=100)
    selected = page.evaluate(
        "(() => { const i = document.querySelector('.cartas-full-link');"
        " return i.value.substring(i.selectionStart, i.selectionEnd); })()")
    assert selected == url
    # the QR code enlarges for a projector
    page.locator(".cartas-qr").click()
    big = page.locator(".cartas-qr svg").first.bounding_box()
    assert big["width"] > box["width"]


def test_english_option_names_and_a_score_of_13_refused(dashboard):
    page = dashboard("cenarios.ipynb", "?lang=en")
    page.wait_for_selector("button.cartas-make:has-text('Make scenario'), .cartas-make:has-text('Make scenario')")
    ties = options(page, ".cartas-tie-lead")
    assert "whoever led the tied trick" in ties
    assert "Seat 3" in options(page, ".cartas-dealer")
    mark = kernel_wire.of(page).mark()
    page.locator(".cartas-game").get_by_role("button", name="21").click()
    kernel_wire.of(page).handled(page, mark)  # drawn whole: 21's options come field by field
    page.wait_for_selector(".cartas-rotation select", state="visible")
    rotations = options(page, ".cartas-rotation")
    assert "permanent bank" in rotations and "rotation every N rounds" in rotations
    assert "1 or 11 (flexible)" in options(page, ".cartas-ace")
    page.locator(".cartas-game").get_by_role("button", name="Truco").click()
    type_into(page, ".cartas-score-0", "13")
    make(page)
    page.wait_for_selector(".cartas-field-error .cartas-error")  # beside "Make scenario"
    assert "from 0 to 11, not (13, 0)" in page.locator(".cartas-field-error .cartas-error").text_content()
    assert page.locator(".cartas-score-0 input").input_value() == "13"  # not clamped


def test_play_from_here_continues_from_the_step_on_screen(dashboard):
    link = encode_link(truco_scenario("paulista", HANDS, "K♠", dealer=3, score=(0, 0)))
    page = dashboard("cenarios.ipynb", f"?cenario={link}&lang=pt")
    page.wait_for_selector(".cartas-scenario-table svg[data-card='7♥']")
    page.locator("button.cartas-step, .cartas-step").first.click()
    page.wait_for_selector(".cartas-step-line")
    line = page.locator(".cartas-step-line").first.text_content()
    page.locator("button.cartas-play, .cartas-play").first.click()
    page.wait_for_selector(".cartas-game-box .cartas-view")
    log = page.locator(".cartas-game-box .cartas-log").text_content()
    assert line in log  # the game's history starts with the step the builder showed
    cards = page.locator(".cartas-game-box .cartas-hand-cards svg[data-card]")
    assert cards.count() == 2  # seat 0 already played one of its three cards
