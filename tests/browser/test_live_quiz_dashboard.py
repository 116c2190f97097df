"""The live class quiz in real browsers: the projector and three learners' phones (360×740)
answer a live question; the projector shows the answers arriving, the histogram, the right
answer with its reason and the leaderboard (docs/rules.md#live-quiz-points). A phone's screen
reader hears the question as it opens and the verdict, in the phone's language (one phone is
in Portuguese)."""
import re

from playwright.sync_api import expect

from cartas.cards import make_rng
from widgets.components.announce import in_words, text_of
from widgets.components.live import stored_question
from widgets.pages.manilhas import ManilhaExplorer

import kernel_wire
from phone_pages import record, switch_language, wait_said
from serving import ROOT, screenshot

SCREENSHOTS = ROOT / "screenshots"

SEED = 42
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


def open_page(context, url):
    page = context.new_page()
    page.set_default_timeout(60_000)
    kernel_wire.watch(page)  # for the page's language switch (phone_pages.switch_language)
    page.goto(url)
    page.wait_for_selector(".cartas-view", state="visible")
    return page


def _expected_question():
    """The projector's first manilhas question for SEED, drawn here the way the page does."""
    return stored_question("manilhas", ManilhaExplorer(lang="en").exercises.make_question(make_rng(SEED)))


def test_three_phones_answer_a_live_question_and_the_projector_shows_histogram_and_leaderboard(browser, voila_url):
    base = f"{voila_url}/voila/render"
    question = _expected_question()
    right = question["options"][question["answer"]]["en"]
    wrong = next(o["en"] for k, o in enumerate(question["options"]) if k != question["answer"])
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    phones_ctx = [browser.new_context(**PHONE) for _ in range(3)]
    try:
        turma = open_page(teacher_ctx, f"{base}/turma.ipynb?lang=en")
        turma.locator(".cartas-class-name input").fill("Live 8")
        turma.locator(".cartas-create-class").click()
        created = turma.locator(".cartas-created [data-code]")
        class_code, key = created.get_attribute("data-code"), created.get_attribute("data-key")
        turma.close()  # one kernel less for this browser

        projector = open_page(teacher_ctx, f"{base}/aula.ipynb?lang=en&semente={SEED}")
        projector.locator(".cartas-live-class input").fill(class_code)
        projector.locator(".cartas-live-key input").fill(key)
        projector.locator(".cartas-live-start").click()
        join = projector.locator(".cartas-live-join [data-code]")
        join.wait_for()
        code = join.get_attribute("data-code")
        projector.wait_for_selector(".cartas-live-share svg.cartas-qr-code")  # the QR code for the phones
        expect(projector.locator(".cartas-live-share input")).to_have_value(re.compile(re.escape(code)))

        phones, langs = [], ("en", "en", "pt")
        for name, lang, ctx in zip(("Ana", "Bia", "Caio"), langs, phones_ctx):
            phone = open_page(ctx, f"{base}/aula_aluno.ipynb?codigo={code.lower()}&lang={lang}")
            phone.wait_for_selector(".cartas-live-phone[data-state='out']")
            phone.locator(".cartas-name-input").fill(name)
            phone.locator(".cartas-code-input").fill(class_code)
            phone.locator(".cartas-pin-input").fill("2468")
            phone.locator(".cartas-name-save").click()
            phone.wait_for_selector(".cartas-live-phone[data-state='waiting']")
            record(phone)
            phones.append(phone)
        projector.wait_for_selector(".cartas-live-state[data-players='3']")

        projector.locator(".cartas-live-seconds select").select_option("60")
        projector.locator(".cartas-live-ask").click()
        projector.wait_for_selector(".cartas-live-state[data-state='open'][data-answered='0']")
        for phone, lang in zip(phones, langs):
            phone.wait_for_selector(".cartas-live-phone[data-state='open']")
            # the question said aloud, in her language
            wait_said(phone, re.escape(in_words(" ".join(text_of(question["prompt"][lang]).split()), lang)[:60]))
            # large tap targets that fit the phone's width
            box = phone.get_by_role("button", name=question["options"][question["answer"]][lang],
                                    exact=True).bounding_box()
            assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert phones[0].evaluate("() => document.documentElement.scrollWidth") <= 360
        screenshot(phones[0], SCREENSHOTS / "aula-aluno-phone-open.png")

        right_pt = question["options"][question["answer"]]["pt"]
        for phone, choice in zip(phones, (right, wrong, right_pt)):
            phone.get_by_role("button", name=choice, exact=True).click()
            phone.wait_for_selector(".cartas-live-phone[data-state='answered']")
        projector.wait_for_selector(".cartas-live-state[data-answered='3']")  # answers arriving

        projector.locator(".cartas-live-close").click()
        projector.wait_for_selector(".cartas-live-state[data-state='closed']")
        bars = projector.locator(".cartas-live-bar")
        assert projector.locator(f".cartas-live-bar[data-option='{question['answer']}']").get_attribute(
            "data-count") == "2"
        assert sum(int(bars.nth(k).get_attribute("data-count")) for k in range(bars.count())) == 3
        assert f"Right answer: {right}" in projector.locator(".cartas-live-answer").text_content()
        leaders = projector.locator(".cartas-live-leaders tr")
        names = [leaders.nth(k).get_attribute("data-name") for k in range(leaders.count())]
        points = [int(leaders.nth(k).get_attribute("data-points")) for k in range(leaders.count())]
        assert names[:2] == ["Ana", "Caio"] and names[2] == "Bia"
        assert points[0] >= points[1] >= 500 and points[2] == 0
        screenshot(projector, SCREENSHOTS / "aula-projector-results.png", full_page=True)

        phones[0].wait_for_selector(".cartas-live-feedback [data-correct='1']")
        assert "Right! +" in phones[0].locator(".cartas-live-feedback").text_content()
        phones[1].wait_for_selector(".cartas-live-feedback [data-correct='0']")
        assert f"No. The answer is: {right}." in phones[1].locator(".cartas-live-feedback").text_content()
        phones[2].wait_for_selector(".cartas-live-feedback [data-correct='1']")
        for phone, verdict in zip(phones, ("Right! +", "No. The answer is", "Certo! +")):
            wait_said(phone, re.escape(verdict))  # the verdict said aloud

        # Ana reloads: she keeps her points
        phones[0].reload()
        phones[0].wait_for_selector(f".cartas-live-phone[data-points='{points[0]}']")
    finally:
        for ctx in (teacher_ctx, *phones_ctx):
            ctx.close()


def _new_class(context, base, name):
    """A class made on the class page: (class code, teacher key)."""
    turma = open_page(context, f"{base}/turma.ipynb?lang=en")
    turma.locator(".cartas-class-name input").fill(name)
    turma.locator(".cartas-create-class").click()
    created = turma.locator(".cartas-created [data-code]")
    made = created.get_attribute("data-code"), created.get_attribute("data-key")
    turma.close()
    return made


def _start_projector(context, base, lang, class_code, key):
    projector = open_page(context, f"{base}/aula.ipynb?lang={lang}&semente={SEED}")
    projector.locator(".cartas-live-class input").fill(class_code)
    projector.locator(".cartas-live-key input").fill(key)
    projector.locator(".cartas-live-start").click()
    join = projector.locator(".cartas-live-join [data-code]")
    join.wait_for()
    return projector, join.get_attribute("data-code")


SYNC_ERROR = "Could not send widget sync message"


def test_a_phone_that_typed_the_code_is_back_at_the_question_after_a_reload(browser, voila_url):
    """Issue 29 item 4, on a 360×740 phone: she signs in and types the projector's code, answers,
    reloads: the page is back at the current question without typing anything (the code is in
    its address, with her page's language), her answer counted once, and the console never says a
    widget message was lost. The phone reads Portuguese and the projector English: each page
    keeps its own language."""
    lang = "pt"
    base = f"{voila_url}/voila/render"
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    phone_ctx = browser.new_context(**PHONE)
    console = []
    try:
        class_code, key = _new_class(teacher_ctx, base, "Reload")
        projector, code = _start_projector(teacher_ctx, base, "en", class_code, key)
        phone = phone_ctx.new_page()
        phone.set_default_timeout(60_000)
        phone.on("console", lambda message: console.append(message.text))
        phone.goto(f"{base}/aula_aluno.ipynb?lang={lang}")
        phone.wait_for_selector(".cartas-live-phone[data-state='out']")
        phone.locator(".cartas-name-input").fill("Ana")
        phone.locator(".cartas-code-input").fill(class_code)
        phone.locator(".cartas-pin-input").fill("2468")
        phone.locator(".cartas-name-save").click()
        phone.locator(".cartas-identity-form").wait_for(state="hidden")  # signed in: the form goes
        box = phone.locator(".cartas-live-code input").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 740  # the code box above the fold
        phone.locator(".cartas-live-code input").fill(code.lower())
        phone.locator(".cartas-live-join").click()
        phone.wait_for_selector(".cartas-live-phone[data-state='waiting']")
        phone.wait_for_url(f"**codigo={code}**")
        assert f"lang={lang}" in phone.url

        projector.locator(".cartas-live-seconds select").select_option("60")
        projector.locator(".cartas-live-ask").click()
        phone.wait_for_selector(".cartas-live-phone[data-state='open'][data-number='1']")
        phone.locator(".cartas-live-option").first.click()
        phone.wait_for_selector(".cartas-live-phone[data-state='answered']")
        projector.wait_for_selector(".cartas-live-state[data-answered='1']")

        phone.reload()
        phone.wait_for_selector(".cartas-live-phone[data-state='answered'][data-number='1']")
        assert phone.locator(".cartas-live-code input").is_hidden()
        assert phone.locator(".cartas-identity-form").is_hidden()

        projector.locator(".cartas-live-close").click()
        projector.wait_for_selector(".cartas-live-state[data-state='closed']")
        phone.wait_for_selector(".cartas-live-phone[data-state='closed']")
        assert projector.locator(".cartas-live-state").get_attribute("data-answered") == "1"  # counted once
        phone.reload()
        phone.wait_for_selector(".cartas-live-phone[data-state='closed'][data-number='1']")
        phone.wait_for_selector(".cartas-live-feedback [data-correct]")
        assert not [text for text in console if SYNC_ERROR in text]
    finally:
        teacher_ctx.close()
        phone_ctx.close()


def _phone_joins(context, base, lang, code, class_code, name):
    """A phone opened from the projector's link, signed in to the class, waiting."""
    phone = open_page(context, f"{base}/aula_aluno.ipynb?codigo={code}&lang={lang}")
    phone.wait_for_selector(".cartas-live-phone[data-state='out']")
    phone.locator(".cartas-name-input").fill(name)
    phone.locator(".cartas-code-input").fill(class_code)
    phone.locator(".cartas-pin-input").fill("2468")
    phone.locator(".cartas-name-save").click()
    phone.wait_for_selector(".cartas-live-phone[data-state='waiting']")
    return phone


def test_the_projector_fits_question_histogram_and_leaderboard_on_one_laptop_screen(browser, voila_url):
    """Issue 29 item 5, at 1280×800: the QR code is big while the class joins and shrinks once
    questions are asked (the code in big text), and after a question closes with answers the
    question, the histogram and the leaderboard are all within the viewport unscrolled; the
    right answer's bar has the one fixed colour (none of the options' palette) and a ✓; axe
    finds nothing. In Portuguese, then in English (the projector's language switch)."""
    from widgets.components.live import BAR_COLOURS, RIGHT_COLOUR

    from phone_pages import axe_violations

    first = "pt"  # the class joins and answers in Portuguese; the projector then switches
    base = f"{voila_url}/voila/render"
    question = _expected_question()
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    phones_ctx = [browser.new_context(**PHONE) for _ in range(2)]
    try:
        class_code, key = _new_class(teacher_ctx, base, "Projector")
        projector, code = _start_projector(teacher_ctx, base, first, class_code, key)
        projector.wait_for_selector(".cartas-live-share svg.cartas-qr-code")
        # while the class joins, the QR code is big enough to scan from the back of the room
        assert projector.locator(".cartas-live-share .cartas-qr").bounding_box()["width"] > 240
        phones = [_phone_joins(ctx, base, first, code, class_code, name)
                  for ctx, name in zip(phones_ctx, ("Ana", "Bia"))]
        projector.wait_for_selector(".cartas-live-state[data-players='2']")

        projector.locator(".cartas-live-seconds select").select_option("60")
        projector.locator(".cartas-live-ask").click()
        projector.wait_for_selector(".cartas-live-state[data-state='open']")
        projector.wait_for_function("() => document.querySelector('.cartas-live-share .cartas-qr')"
                                    ".getBoundingClientRect().width <= 160", polling=100)  # smaller, still scannable
        assert projector.locator(".cartas-live-share .cartas-qr").bounding_box()["width"] >= 100
        expect(projector.locator(".cartas-live-join [data-code]")).to_be_visible()
        for phone, right in zip(phones, (True, False)):
            phone.wait_for_selector(".cartas-live-phone[data-state='open']")
            choice = question["answer"] if right else (question["answer"] + 1) % len(question["options"])
            phone.locator(".cartas-live-option").nth(choice).click()
            phone.wait_for_selector(".cartas-live-phone[data-state='answered']")
        projector.wait_for_selector(".cartas-live-state[data-answered='2']")
        projector.locator(".cartas-live-close").click()
        projector.wait_for_selector(".cartas-live-state[data-state='closed']")
        projector.wait_for_selector(".cartas-live-leaders tr[data-name='Ana']")

        for lang in (first, "en"):
            if lang != first:
                switch_language(projector, lang)
                assert projector.locator(".cartas-live-prompt").text_content() == question["prompt"][lang]
            for part in (".cartas-live-prompt", ".cartas-live-histogram", ".cartas-live-leaders"):
                box = projector.locator(part).bounding_box()
                assert box is not None and box["height"] > 0, (lang, part)
                assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, (lang, part, box)
                assert box["y"] >= 0 and box["y"] + box["height"] <= 800, (lang, part, box)
            right_bar = projector.locator(f".cartas-live-bar[data-option='{question['answer']}']")
            assert right_bar.get_attribute("data-right") == "1" and "✓" in right_bar.text_content()
            colour = right_bar.locator(".cartas-live-fill").evaluate("e => getComputedStyle(e).backgroundColor")
            as_rgb = "rgb({}, {}, {})".format(*(int(RIGHT_COLOUR[i:i + 2], 16) for i in (1, 3, 5)))
            assert colour == as_rgb and RIGHT_COLOUR not in BAR_COLOURS
            others = projector.locator(".cartas-live-bar[data-right='0'] .cartas-live-fill")
            assert all(others.nth(k).evaluate("e => getComputedStyle(e).backgroundColor") != as_rgb
                       for k in range(others.count()))
            screenshot(projector, SCREENSHOTS / f"aula-projector-1280x800-{lang}.png")
            assert (lang, axe_violations(projector)) == (lang, [])
    finally:
        for ctx in (teacher_ctx, *phones_ctx):
            ctx.close()
