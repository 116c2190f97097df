"""Homework in real browsers (docs/rules.md#homework): the teacher assigns a scenario, a
learner of the class does it from her "To do", and the teacher's results show it done."""
from playwright.sync_api import expect
from test_learners_and_class_dashboard import open_page
from test_verified_learners_dashboard import join, whose

from cartas.scenario import encode_link, truco_scenario

from serving import SCREENSHOTS, screenshot

HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "Q♥", "J♥"], ["2♠", "3♠", "7♠"]]


def open_class(browser, base: str, title: str):
    """The teacher's and Ana's laptop contexts, and the teacher's page with a new class `title`
    open on it: (teacher_ctx, ana_ctx, teacher, code)."""
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    ana_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    teacher = open_page(teacher_ctx, f"{base}/turma.ipynb?lang=en")
    teacher.locator(".cartas-class-name input").fill(title)
    teacher.locator(".cartas-create-class").click()
    code = teacher.locator(".cartas-created [data-code]").get_attribute("data-code")
    return teacher_ctx, ana_ctx, teacher, code


def add_and_create(teacher, title: str) -> str:
    """Add the item chosen on the teacher's page, name the homework `title`, due 2030-12-20,
    create it: its key, once her class's results show it."""
    teacher.locator(".cartas-hw-add").click()
    teacher.wait_for_selector(".cartas-hw-items ol[data-count='1']")
    teacher.locator(".cartas-hw-title input").fill(title)
    teacher.locator(".cartas-hw-due input").fill("2030-12-20")
    teacher.locator(".cartas-hw-create").click()
    teacher.wait_for_selector(".cartas-hw-results [data-task]")
    return teacher.locator(".cartas-hw-results [data-task]").get_attribute("data-task")


def test_the_teacher_assigns_homework_a_learner_does_it_and_the_teacher_sees_it_done(browser, voila_url):
    base = f"{voila_url}/voila/render"
    teacher_ctx, ana_ctx, teacher, code = open_class(browser, base, "9th A")
    try:

        ana = open_page(ana_ctx, f"{base}/index.ipynb?lang=en")
        whose(ana)
        join(ana, "Ana", code, "2468")
        ana.wait_for_function("() => document.querySelector('.cartas-whose')?.textContent === \"Ana's progress\"",
                              polling=100)
        ana.wait_for_selector(".cartas-todo[data-state='empty']", state="attached")  # folded on the index

        # The teacher composes: a scenario from the builder, then a title and a due day.
        teacher.locator(".cartas-hw-kind select").select_option(label="Scenario")
        teacher.locator(".cartas-hw-link input").fill(encode_link(truco_scenario("paulista", HANDS, "K♠")))
        task = add_and_create(teacher, "Week 1 <b>")
        expect(teacher.locator(".cartas-hw-results tr[data-learner='Ana'] td").nth(1)).to_have_attribute(
            "data-done", "0")

        # Ana sees it under "To do", opens it and answers.
        ana.locator(".cartas-refresh").click()
        ana.wait_for_selector(f".cartas-todo-task[data-task='{task}'][data-done='0']", state="attached")
        assert "Week 1 <b>" in ana.locator(".cartas-next-task").text_content()  # her next step, at the top
        ana.locator(".cartas-index-fold[data-fold='todo'] summary").click()  # her to-do unfolds
        assert "Week 1 <b>" in ana.locator(f".cartas-todo-task[data-task='{task}']").text_content()
        ana.locator(f".cartas-todo-task[data-task='{task}'] .cartas-todo-link").click()
        ana.wait_for_selector(".cartas-task-item[data-kind='scenario'][data-done='0']")
        assert "Your cards:" in ana.locator(".cartas-task-seen").text_content()
        ana.locator(".cartas-task-option").first.click()
        ana.wait_for_selector(".cartas-task-verdict")
        assert ana.locator(".cartas-task-verdict").text_content().strip()  # the coach's reason
        ana.wait_for_selector(".cartas-task-state[data-done='1']")

        # The teacher's table refreshes by itself and shows it done.
        expect(teacher.locator(".cartas-hw-results tr[data-learner='Ana'] td").nth(1)).to_have_attribute(
            "data-done", "1", timeout=30_000)
        assert "Download the homework CSV" in teacher.locator(".cartas-hw-csv").text_content()
        screenshot(teacher, SCREENSHOTS / "turma-homework.png", full_page=True)
        screenshot(ana, SCREENSHOTS / "tarefa.png", full_page=True)
    finally:
        teacher_ctx.close()
        ana_ctx.close()


def test_a_learner_plays_a_homework_game_against_the_bots_on_her_table_and_it_counts(browser, voila_url):
    """Issue 33, item 1 on a laptop (docs/rules.md#homework-games): "Play here" opens her
    homework table, dealt by the store; she plays only her own moves through the page, the
    bots move at the table's pace, and the table's end marks the item done for the teacher."""
    base = f"{voila_url}/voila/render"
    teacher_ctx, ana_ctx, teacher, code = open_class(browser, base, "9th B")
    try:
        teacher.locator(".cartas-hw-kind select").select_option(label="Game")
        teacher.locator(".cartas-hw-game select").select_option(label="21 against the bots")
        task = add_and_create(teacher, "Bots")

        ana = open_page(ana_ctx, f"{base}/index.ipynb?lang=en")
        whose(ana)
        join(ana, "Ana", code, "2468")
        ana.wait_for_function("() => document.querySelector('.cartas-whose')?.textContent === \"Ana's progress\"",
                              polling=100)
        ana.goto(f"{base}/tarefa.ipynb?tarefa={task}&lang=en")
        ana.wait_for_selector(".cartas-task-item[data-kind='game'][data-done='0']")
        assert ana.locator(".cartas-task-game-page").count() == 0  # no other way to play it
        ana.locator(".cartas-task-play").click()
        # her homework table, on the tables' own view: her seat, the bots in the others, no seat to take
        ana.wait_for_selector(".cartas-mesa-seat[data-seat='0'][data-mine='true']")
        assert ana.locator(".cartas-mesa-seat[data-controller='bot']").count() == 3
        assert ana.locator(".cartas-mesa-sit:visible").count() == 0
        ana.wait_for_selector(".cartas-status [data-turn]")
        moves = 0
        while ana.locator(".cartas-task-state[data-done='1']").count() == 0:
            turn = ana.locator(".cartas-status [data-turn]")
            if turn.count() and turn.get_attribute("data-turn") == "you":
                version = turn.get_attribute("data-version")
                buttons = ana.locator(".cartas-act-stand, .cartas-act-bet, .cartas-act")
                if buttons.count():
                    try:
                        buttons.first.click(timeout=5_000)
                        ana.wait_for_function(
                            "(v) => document.querySelector('.cartas-status [data-turn]')?.dataset.version !== v",
                            arg=version, timeout=20_000, polling=100)
                        moves += 1
                    except Exception:  # a button replaced under the click: read the page again
                        pass
                    continue
            ana.wait_for_function(
                """() => document.querySelector(".cartas-task-state[data-done='1']")
                         || document.querySelector(".cartas-status [data-turn='you']")""", timeout=120_000, polling=100)
        assert moves >= 1
        expect(ana.locator(".cartas-task-item[data-kind='game']")).to_have_attribute("data-done", "1")
        expect(teacher.locator(".cartas-hw-results tr[data-learner='Ana'] td").nth(1)).to_have_attribute(
            "data-done", "1", timeout=30_000)
    finally:
        teacher_ctx.close()
        ana_ctx.close()
