"""Verified learners in real browsers: a taken name, crafted comm messages, a second device
with the PIN, and login cards printed from the teacher's view (docs/rules.md#verified-learners)."""
import re

from playwright.sync_api import expect
from test_learners_and_class_dashboard import open_page

from classroom import identity as ids

from serving import SCREENSHOTS, screenshot

CRAFT = """async ([trait, value]) => {
  // What a curious classmate can do from the devtools: talk to the kernel through the page's
  // widget manager, as the identity widget itself would.
  const manager = window.jupyterapp.widgetManager;
  const models = await Promise.all(Object.values(manager._models));
  const model = models.find(m => m.get("stored") !== undefined && m.get("submitted") !== undefined);
  model.set(trait, { ...value, count: 1000 + Math.floor(Math.random() * 1000) });
  model.save_changes();
  return model.model_id;
}"""


def whose(page) -> str:
    page.wait_for_selector(".cartas-whose[data-state='ready']")
    return page.locator(".cartas-whose").text_content()


def join(page, name, code, pin):
    page.locator(".cartas-name-input").fill(name)
    page.locator(".cartas-code-input").fill(code)
    page.locator(".cartas-pin-input").fill(pin)
    page.locator(".cartas-name-save").click()


def test_a_taken_name_and_crafted_messages_fail_and_she_moves_with_her_pin_and_her_card(browser, voila_url):
    base = f"{voila_url}/voila/render"
    contexts = [browser.new_context(viewport={"width": 1280, "height": 1000}) for _ in range(4)]
    teacher_ctx, ana_ctx, intruder_ctx, tablet_ctx = contexts
    try:
        teacher = open_page(teacher_ctx, f"{base}/turma.ipynb?lang=en")
        teacher.locator(".cartas-class-name input").fill("8th C")
        teacher.locator(".cartas-create-class").click()
        code = teacher.locator(".cartas-created [data-code]").get_attribute("data-code")

        ana = open_page(ana_ctx, f"{base}/index.ipynb?lang=en")
        whose(ana)
        join(ana, "Ana", code, "2468")
        ana.wait_for_function("() => document.querySelector('.cartas-whose')?.textContent === \"Ana's progress\"",
                              polling=100)

        # A second browser types her name (another case): told it is taken, offered the PIN.
        intruder = open_page(intruder_ctx, f"{base}/index.ipynb?lang=en")
        whose(intruder)
        join(intruder, "ANA", code, "0000")
        intruder.wait_for_selector(".cartas-identity-error")
        assert "The name Ana is already taken in this class. If it is you, type your PIN." in \
            intruder.locator(".cartas-identity-error").text_content()
        expect(intruder.locator(".cartas-pin-input.cartas-pin-wanted")).to_have_count(1)  # drawn after the error
        assert whose(intruder) == "Progress in this browser"
        screenshot(intruder, SCREENSHOTS / "index-name-taken.png")

        # Crafted comm messages through the page's widget manager: nobody in the class.
        browser_id = intruder.evaluate("() => JSON.parse(localStorage.getItem('cartas.learner')).browser_id")
        intruder.evaluate(CRAFT, ["stored", {"browser_id": browser_id, "name": "Ana", "class_code": code,
                                             "token": "A" * 43}])
        intruder.wait_for_selector(".cartas-identity-error:has-text('no longer in the class')")
        intruder.evaluate(CRAFT, ["submitted", {"browser_id": browser_id, "name": "Ana", "class_code": code}])
        intruder.wait_for_selector(".cartas-identity-error:has-text('The PIN has 4 to 6 digits')")
        intruder.evaluate(CRAFT, ["learner", {"browser_id": browser_id, "name": "Ana", "class_code": code,
                                              "token": "B" * 43}])  # the browser now *stores* Ana
        intruder.goto(f"{base}/index.ipynb?lang=en")  # a new kernel reads that storage
        assert whose(intruder) == "Progress in this browser"
        intruder.wait_for_selector(".cartas-identity[data-known=yes] .cartas-identity-anonymous")

        # Her second device: the PIN.
        second_device = browser.new_context()
        phone = open_page(second_device, f"{base}/index.ipynb?lang=en")
        whose(phone)
        join(phone, "ana", code, "2468")
        phone.wait_for_function("() => document.querySelector('.cartas-whose')?.textContent === \"Ana's progress\"",
                                polling=100)
        second_device.close()

        # The teacher prints login cards; the card's link signs in on a third device.
        teacher.wait_for_selector(".cartas-class-table tr[data-learner='Ana']", timeout=30_000)
        assert not teacher.locator(".cartas-open-cards").is_visible()  # nothing to open before printing
        teacher.locator(".cartas-print-cards").click()
        teacher.wait_for_selector(".cartas-open-cards", state="visible")
        with teacher.expect_popup() as opened:
            teacher.locator(".cartas-open-cards").click()
        sheet = opened.value
        sheet.wait_for_selector(".cartas-login-card")
        assert sheet.locator(".cartas-login-card").count() == 1
        card = sheet.locator(".cartas-login-card[data-learner='Ana']")
        assert card.locator(".cartas-card-name").text_content() == "Ana"
        assert card.locator(".cartas-card-class").text_content() == code
        assert card.locator("svg.cartas-qr-code path").count() >= 1
        login = card.locator(".cartas-card-login").text_content()
        assert re.fullmatch(rf"{code}-[A-Z0-9]{{4}}-[A-Z0-9]{{4}}", login)
        screenshot(sheet, SCREENSHOTS / "login-cards.png")
        screenshot(teacher, SCREENSHOTS / "turma-roster.png", full_page=True)
        tablet = open_page(tablet_ctx, f"{base}/index.ipynb?lang=en&cartao={login.replace('-', '')}")
        tablet.wait_for_function(
            "() => document.querySelector('.cartas-whose')?.textContent === \"Ana's progress\"", polling=100)
        assert "cartao" not in tablet.url  # the code is dropped from the address bar
        tablet.goto(f"{base}/manilhas.ipynb?lang=en")  # another dashboard: the device stays hers
        tablet.wait_for_selector(".cartas-identity[data-known=yes] .cartas-identity-name")
        assert tablet.locator(".cartas-identity-name").text_content() == "Ana"
    finally:
        for context in contexts:
            context.close()


def test_a_lookalike_name_is_the_learner_already_in_the_class_not_a_second_one(browser, voila_url):
    """Issue 33, item 11: "Mаria Silva" (a Cyrillic "а") and "Maria Silva." typed in another
    browser are Maria Silva, asked for her PIN; the teacher's roster keeps one Maria Silva."""
    base = f"{voila_url}/voila/render"
    contexts = [browser.new_context(viewport={"width": 1280, "height": 1000}) for _ in range(3)]
    teacher_ctx, maria_ctx, prankster_ctx = contexts
    try:
        teacher = open_page(teacher_ctx, f"{base}/turma.ipynb?lang=en")
        teacher.locator(".cartas-class-name input").fill("9th A")
        teacher.locator(".cartas-create-class").click()
        code = teacher.locator(".cartas-created [data-code]").get_attribute("data-code")
        maria = open_page(maria_ctx, f"{base}/index.ipynb?lang=en")
        whose(maria)
        join(maria, "Maria Silva", code, "2468")
        maria.wait_for_function(
            "() => document.querySelector('.cartas-whose')?.textContent === \"Maria Silva's progress\"", polling=100)
        prankster = open_page(prankster_ctx, f"{base}/index.ipynb?lang=en")
        for typed in ("M\u0430ria Silva", "Maria Silva."):
            whose(prankster)
            join(prankster, typed, code, "1111")
            error = prankster.locator(f".cartas-identity-error:has-text('{typed}')")
            error.wait_for()
            assert "is the same name as Maria Silva, who is already in this class" in error.text_content()
            assert whose(prankster) == "Progress in this browser"
        teacher.wait_for_selector(".cartas-class-table tr[data-learner='Maria Silva']", timeout=30_000)
        assert teacher.locator(".cartas-class-table tr[data-learner]").count() == 1
    finally:
        for context in contexts:
            context.close()


def error_with(page, text: str) -> str:
    found = page.locator(".cartas-identity-error", has_text=text)
    found.wait_for()
    return found.text_content()


def test_a_prankster_guessing_pins_cards_and_teacher_keys_makes_only_himself_wait(browser, voila_url):
    """Issue 33, item 8 (docs/rules.md#guess-limits): wrong PINs for Ana, twenty wrong login
    codes and wrong teacher keys from one browser make that browser wait, the right secret
    included; Ana's PIN on her tablet, her card's link and the teacher's key, each from its own
    browser, still work at once (before, the victim was locked out: her PIN, the class's cards,
    the teacher's key)."""
    base = f"{voila_url}/voila/render"
    contexts = [browser.new_context(viewport={"width": 1280, "height": 1000}) for _ in range(5)]
    teacher_ctx, ana_ctx, prankster_ctx, tablet_ctx, card_ctx = contexts
    try:
        for context in contexts:  # a page first: the server's cookie comes back on the next ones
            first = context.request.get(f"{base}/index.ipynb?lang=en")  # the page's HTML: Voilà renders it
            assert first.ok and "cartas_browser" in {c["name"] for c in context.cookies()}, first.status
        teacher = open_page(teacher_ctx, f"{base}/turma.ipynb?lang=en")
        teacher.locator(".cartas-class-name input").fill("6th D")
        teacher.locator(".cartas-create-class").click()
        created = teacher.locator(".cartas-created [data-code]")
        code, key = created.get_attribute("data-code"), created.get_attribute("data-key")
        ana = open_page(ana_ctx, f"{base}/index.ipynb?lang=en")
        whose(ana)
        join(ana, "Ana", code, "2468")
        ana.wait_for_function("() => document.querySelector('.cartas-whose')?.textContent === \"Ana's progress\"",
                              polling=100)
        teacher.wait_for_selector(".cartas-class-table tr[data-learner='Ana']", timeout=30_000)
        teacher.locator(".cartas-print-cards").click()
        teacher.wait_for_selector(".cartas-open-cards", state="visible")
        with teacher.expect_popup() as opened:
            teacher.locator(".cartas-open-cards").click()
        sheet = opened.value
        sheet.wait_for_selector(".cartas-login-card")
        login = sheet.locator(".cartas-login-card[data-learner='Ana'] .cartas-card-login").text_content()
        sheet.close()

        prankster = open_page(prankster_ctx, f"{base}/index.ipynb?lang=en")
        whose(prankster)
        for typed, pin in (("Ana.", "1111"), ("Ána", "1112"), ("Ana!", "1113"), ("«Ana»", "1114"),
                           ("An\u0430", "1115")):
            join(prankster, typed, code, pin)
            assert "is the same name as Ana" in error_with(prankster, typed)
        join(prankster, "Ana", code, "2468")  # the right PIN, from the guessing browser
        error_with(prankster, "Too many wrong PINs in this browser")
        card_input = prankster.locator(".cartas-card-input")
        for n in range(20):
            card_input.fill(code + f"ABCD{ids.CODE_ALPHABET[n]}XYZ")
            prankster.locator(".cartas-card-save").click()
            error_with(prankster, "That card is not valid" if n < 10 else "Too many wrong codes in this browser")
            card_input.fill("not a code")
            prankster.locator(".cartas-card-save").click()
            error_with(prankster, "That is not a login card code")
        card_input.fill(login)
        prankster.locator(".cartas-card-save").click()
        error_with(prankster, "Too many wrong codes in this browser")
        guessing = open_page(prankster_ctx, f"{base}/turma.ipynb?lang=en")
        guessing.locator(".cartas-class-code input").fill(code)
        guessing.locator(".cartas-teacher-key input").fill("AAAA-BBBB-CCCC-DDDD")
        for _ in range(10):
            guessing.locator(".cartas-open-class").click()
        guessing.locator(".cartas-teacher-key input").fill(key)
        guessing.locator(".cartas-open-class").click()
        guessing.wait_for_selector(".cartas-message .cartas-error:has-text('Too many tries')")

        tablet = open_page(tablet_ctx, f"{base}/index.ipynb?lang=en")
        whose(tablet)
        join(tablet, "Ana", code, "2468")
        tablet.wait_for_function("() => document.querySelector('.cartas-whose')?.textContent === \"Ana's progress\"",
                                 polling=100)
        by_card = open_page(card_ctx, f"{base}/index.ipynb?lang=en&cartao={login.replace('-', '')}")
        by_card.wait_for_function(
            "() => document.querySelector('.cartas-whose')?.textContent === \"Ana's progress\"", polling=100)
        again = open_page(teacher_ctx, f"{base}/turma.ipynb?lang=en")
        again.locator(".cartas-class-code input").fill(code)
        again.locator(".cartas-teacher-key input").fill(key)
        again.locator(".cartas-open-class").click()
        again.wait_for_selector(".cartas-class-table tr[data-learner='Ana']", timeout=30_000)
    finally:
        for context in contexts:
            context.close()
