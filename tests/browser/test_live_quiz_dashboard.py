"""The live class quiz in real browsers: the projector and three learners' phones (360×740)
answer a live question; the projector shows the answers arriving, the histogram, the right
answer with its reason and the leaderboard (docs/rules.md#live-quiz-points). A phone's screen
reader hears the question as it opens and the verdict, in the phone's language (one phone is
in Portuguese)."""
import re

from phone_pages import record, wait_said

from cartas.cards import make_rng
from widgets.components.announce import in_words, text_of
from widgets.components.live import stored_question
from widgets.pages.manilhas import ManilhaExplorer

from serving import ROOT

SCREENSHOTS = ROOT / "screenshots"

SEED = 42
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


def open_page(context, url):
    page = context.new_page()
    page.set_default_timeout(60_000)
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
        assert code in projector.locator(".cartas-live-share input").input_value()

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
        SCREENSHOTS.mkdir(exist_ok=True)
        phones[0].screenshot(path=str(SCREENSHOTS / "aula-aluno-phone-open.png"))

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
        projector.screenshot(path=str(SCREENSHOTS / "aula-projector-results.png"), full_page=True)

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
