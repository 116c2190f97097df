"""Two learners in two browsers, each with her own name, and the teacher's class view."""
import re

from playwright.sync_api import expect

from cartas.cards import Card
from cartas.truco import get_variant, strength_table

import kernel_wire
from serving import SCREENSHOTS, screenshot, start_exercises

ORDER = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]


def answer_manilha(page, right: bool) -> None:
    """Answer the quiz on screen (Paulista): the manilha's rank, or the stronger of two cards."""
    question = page.locator(".cartas-question").text_content()
    stronger = re.search(r"Which card is stronger: (\S+) or (\S+)\?", question)
    if stronger:
        vira = re.search(r"The vira is (\S+?)\.", question)
        table = strength_table(get_variant("paulista"), Card.parse(vira.group(1)) if vira else None)
        strong, weak = sorted(stronger.groups(), key=lambda c: table[Card.parse(c)], reverse=True)
        choice = strong if right else weak
    else:
        vira = re.search(r"The vira is (\w+)", question).group(1)
        after = (ORDER.index(vira) + 1) % 10
        choice = ORDER[after] if right else ORDER[(after + 1) % 10]
    mark = kernel_wire.of(page).mark()
    page.get_by_role("button", name=choice, exact=True).click()
    page.wait_for_selector(".cartas-feedback .cartas-right, .cartas-feedback .cartas-wrong")
    kernel_wire.of(page).handled(page, mark)  # the answer handled whole: its score and its progress too


def manilhas_progress(page) -> str:
    return page.locator(".cartas-index li[data-lesson='manilhas'] .cartas-progress").text_content()


def open_page(context, url):
    page = context.new_page()
    page.set_default_timeout(60_000)
    kernel_wire.watch(page)  # kernel_wire.of(page) tells when the kernel has handled a click
    page.goto(url)
    page.wait_for_selector(".cartas-view", state="visible")
    return page


def test_two_learners_each_see_their_own_progress_and_the_teacher_sees_both(browser, voila_url):
    base = f"{voila_url}/voila/render"
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 1000})
    teacher = open_page(teacher_context, f"{base}/turma.ipynb?lang=en")
    teacher.locator(".cartas-class-name input").fill("7th B <afternoon>")
    teacher.locator(".cartas-create-class").click()
    created = teacher.locator(".cartas-created [data-code]")
    code, key = created.get_attribute("data-code"), created.get_attribute("data-key")
    teacher.wait_for_selector(".cartas-class-empty")

    learners = {}
    for name, right_answers in (("Ana", 2), ("Bia <b>", 0)):
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = open_page(context, f"{base}/index.ipynb?lang=en")
        page.wait_for_selector(".cartas-whose[data-state='ready']")
        page.locator(".cartas-name-input").fill(name)
        page.locator(".cartas-code-input").fill(code.lower())
        page.locator(".cartas-pin-input").fill("2468")
        page.locator(".cartas-name-save").click()
        page.wait_for_function(
            "(name) => document.querySelector('.cartas-whose')?.textContent === name + \"'s progress\"", arg=name,
                               polling=100)
        assert manilhas_progress(page) == "not started yet"
        page.goto(f"{base}/manilhas.ipynb?lang=en")  # another dashboard, another kernel
        page.wait_for_selector(".cartas-identity[data-known=yes] .cartas-identity-name")
        assert page.locator(".cartas-identity-name").text_content() == name  # shown as text
        expect(page.locator(".cartas-not-me")).to_be_visible()  # a widget of its own, drawn after the name
        start_exercises(page)
        for _ in range(right_answers):
            answer_manilha(page, right=True)
            mark = kernel_wire.of(page).mark()
            page.locator(".cartas-next").click()
            # the next question is read once all of it is drawn: its text came after the
            # feedback went, and a question read before held a choice the next one lacks
            kernel_wire.of(page).handled(page, mark)
            page.wait_for_function("() => !document.querySelector('.cartas-feedback .cartas-right')", polling=100)
        answer_manilha(page, right=False)
        learners[name] = (context, page)

    for name, expected in (("Ana", "2 of 3 right"), ("Bia <b>", "0 of 1 right")):
        context, page = learners[name]
        page.goto(f"{base}/index.ipynb?lang=en")  # the browser remembers who she is
        page.wait_for_selector(".cartas-whose[data-state='ready']")
        assert page.locator(".cartas-whose").text_content() == f"{name}'s progress"
        assert manilhas_progress(page) == expected

    # The teacher's table refreshes by itself (the browser's timer) and shows both.
    teacher.wait_for_selector(".cartas-class-table tr[data-learner='Bia <b>']", timeout=30_000)
    ana = teacher.locator(".cartas-class-table tr[data-learner='Ana'] td[data-lesson='manilhas']")
    bia = teacher.locator(".cartas-class-table tr[data-learner='Bia <b>'] td[data-lesson='manilhas']")
    # a learner's row comes when she joins, her answers with a later refresh
    expect(bia).to_have_text("0/1", timeout=30_000)
    assert ana.text_content() == "2/3"
    csv_link = teacher.locator(".cartas-csv a.cartas-csv-standard")
    assert csv_link.get_attribute("download") == f"turma-{code}.csv"
    assert "Ana" in csv_link.get_attribute("href")
    brazil = teacher.locator(".cartas-csv a.cartas-csv-br")  # ";" between cells, for a Brazilian spreadsheet
    assert brazil.get_attribute("download") == f"turma-{code}-planilha-br.csv" and "%3B" in brazil.get_attribute("href")

    # "Not me" on a lesson forgets the name in that browser: the index asks again.
    context, page = learners["Ana"]
    page.goto(f"{base}/manilhas.ipynb?lang=en")
    page.locator(".cartas-not-me").click()
    page.wait_for_selector(".cartas-identity-anonymous")
    page.goto(f"{base}/index.ipynb?lang=en")
    page.wait_for_selector(".cartas-whose[data-state='ready']")
    assert page.locator(".cartas-whose").text_content() == "Progress in this browser"
    assert manilhas_progress(page) == "not started yet"

    # A learner with only the class code cannot open the class view.
    intruder = open_page(learners["Bia <b>"][0], f"{base}/turma.ipynb?lang=en")
    intruder.locator(".cartas-class-code input").fill(code)
    intruder.locator(".cartas-teacher-key input").fill(code)
    intruder.locator(".cartas-open-class").click()
    intruder.wait_for_selector(".cartas-message .cartas-error")
    assert "Wrong class code or teacher key" in intruder.locator(".cartas-message").text_content()
    assert intruder.locator(".cartas-class-table tr").count() == 0
    assert key not in intruder.content()

    screenshot(teacher, SCREENSHOTS / "turma.png", full_page=True)
    learners["Bia <b>"][1].goto(f"{base}/index.ipynb?lang=en")
    learners["Bia <b>"][1].wait_for_selector(".cartas-whose[data-state='ready']")
    screenshot(learners["Bia <b>"][1], SCREENSHOTS / "index-learner.png")
    for context in [teacher_context] + [c for c, _ in learners.values()]:
        context.close()


DRAW_THEN_ANSWER = """async ([source, labels]) => {
  const { default: widget } = await import(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  const values = { learner: {}, labels, mode: "form", pin_wanted: false, hub: false, error: "", notice: "",
                   index_url: "index.ipynb" };
  const handlers = {};
  const fire = (trait, value) => { values[trait] = value; (handlers["change:" + trait] || []).forEach(f => f()); };
  const model = { get: (k) => values[k], set: (k, v) => { values[k] = v; }, save_changes: () => {},
                  on: (event, f) => { (handlers[event] = handlers[event] || []).push(f); } };
  const el = document.createElement("div");
  document.body.append(el);
  widget.render({ model, el });
  const form = el.querySelector(".cartas-identity-form");
  // the kernel's answer to what the page reported: this browser, no name, no class yet
  fire("learner", { browser_id: values.stored.browser_id, name: "", class_code: null, token: "" });
  const kept = form.isConnected;
  fire("labels", { ...labels, save: "Save it" });  // something she sees changes
  return [kept, form.isConnected, el.querySelector(".cartas-name-save").textContent];
}"""


def test_the_name_form_is_drawn_again_only_when_what_it_shows_changes(browser):
    """The identity's page code alone, on a blank page with a stand-in model: the kernel's answer
    to the page's "who is this browser" changes nothing she sees, so the form she may be tapping
    stays (replaced under her finger, the tap on its button is lost: pressed on the old one,
    released on the new); new labels are drawn."""
    from widgets.components.i18n import every_key
    from widgets.components.learner import _ESM, TEXT

    page = browser.new_page()
    try:
        page.goto("about:blank")
        assert page.evaluate(DRAW_THEN_ANSWER, [_ESM, every_key(TEXT, "en")]) == [True, False, "Save it"]
    finally:
        page.close()
