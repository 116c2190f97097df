"""A check before and after in real browsers (issue 32, item 4): three phones (360×740) take the
before-check, answer a lesson's questions, take the after-check; the teacher's page shows the
normalized gain and the misconceptions that vanished (docs/rules.md#check-gain)."""
from cartas.questions import SLIP
from classroom.checks import make_question, plan

from class_pages import PHONE, create_class, open_page, sign_in
from serving import start_exercises

SKILLS = ("manilhas_from_vira", "trick_winner")
SIZE = 8


def labels(seed: int, how: str, lang: str) -> list[str]:
    """The label to tap on each question of a phase: the right one, or a named wrong one."""
    out = []
    for item in plan(list(SKILLS), SIZE, seed):
        q = make_question(item)
        choice = next(c for c in q.choices if c.misconception is None) if how == "right" else next(
            (c for c in q.choices if c.misconception not in (None, SLIP)),
            next(c for c in q.choices if c.misconception is not None))
        out.append(choice.label[lang])
    return out


def take(phone, seed: int, how: str, lang: str) -> None:
    phone.wait_for_selector(".cartas-check-phone[data-state='asking'][data-number='0']")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360
    for number, label in enumerate(labels(seed, how, lang)):
        phone.wait_for_selector(f".cartas-check-phone[data-state='asking'][data-number='{number}']")
        assert phone.locator(".cartas-right, .cartas-wrong").count() == 0  # no feedback
        button = phone.locator(".cartas-check-option").get_by_text(label, exact=True)
        box = button.bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= 360
        button.click()
    phone.wait_for_selector(".cartas-check-phone[data-state='sent']")


def test_three_phones_take_a_check_before_and_after_and_the_teacher_sees_the_gain(browser, voila_url):
    base = f"{voila_url}/voila/render"
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    phones_ctx = [browser.new_context(**PHONE) for _ in range(3)]
    try:
        class_code, key = create_class(teacher_ctx, base, "Check 8")

        teacher = open_page(teacher_ctx, f"{base}/verificacao.ipynb?lang=en")
        teacher.locator(".cartas-check-class input").fill(class_code)
        teacher.locator(".cartas-check-key input").fill(key)
        teacher.locator(".cartas-check-open-class").click()
        for skill in SKILLS:
            teacher.locator(f".cartas-check-skill-{skill} input").check()
        teacher.locator(".cartas-check-size select").select_option(str(SIZE))
        teacher.locator(".cartas-check-open").click()
        state = teacher.locator("[data-phase='before'][data-seed-before]")
        state.wait_for()
        seeds = {p: int(state.get_attribute(f"data-seed-{p}")) for p in ("before", "after")}

        phones, langs = [], ("en", "pt", "en")
        for name, lang, ctx in zip(("Ana", "Bia", "Caio"), langs, phones_ctx):
            phone = open_page(ctx, f"{base}/verificacao_aluno.ipynb?lang={lang}")
            phone.wait_for_selector(".cartas-check-phone[data-state='out']")
            sign_in(phone, name, class_code)
            take(phone, seeds["before"], "wrong", lang)
            phones.append(phone)

        # the lesson: each phone answers some of the manilhas lesson's questions
        for ctx in phones_ctx:
            lesson = open_page(ctx, f"{base}/manilhas.ipynb?lang=en")
            start_exercises(lesson)
            lesson.locator(".cartas-exercises .cartas-answer").first.click()
            lesson.wait_for_selector(".cartas-exercises .cartas-chosen")
            lesson.close()

        teacher.locator(".cartas-check-after").click()
        teacher.wait_for_selector("[data-phase='after']")
        for phone, lang in zip(phones, langs):
            phone.locator(".cartas-check-look").click()
            take(phone, seeds["after"], "right", lang)

        teacher.locator(".cartas-check-refresh").click()
        teacher.wait_for_selector("[data-matched='3']")
        assert teacher.locator(".cartas-check-gain").text_content().strip() == "+1.00"
        vanished = teacher.locator(".cartas-check-vanished li")
        assert vanished.count() >= 1
        assert teacher.locator(".cartas-check-stayed li").count() == 0
        assert "the manilha is" in teacher.locator(".cartas-check-vanished").text_content().lower() or \
            vanished.count() >= 2
    finally:
        for ctx in (teacher_ctx, *phones_ctx):
            ctx.close()
