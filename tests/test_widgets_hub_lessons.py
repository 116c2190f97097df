"""The lesson pages under JupyterHub: homework, skills and the live quiz go through the class
service (classroom.remote), whose kernels hold no database.

Each "kernel" here is the environment a single-user server gives (its user's hub token and
the service's address), set by hand in turn for the teacher and the learners; the service
runs in this process on SQLite (tests/school_service.py: class `turma-a` is ana and bia, `prof`
teaches).
"""
from __future__ import annotations

import pytest
from school_service import School

import classroom
from cartas.scenario import encode_link, truco_scenario
from classroom.interface import ServiceClassroom
from widgets.components import learner as identity, scores

HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "Q♥", "J♥"], ["2♠", "3♠", "7♠"]]


@pytest.fixture
def school(tmp_path):
    running = School(str(tmp_path / "service.db"))
    yield running
    running.stop()


@pytest.fixture
def kernel_of(school, monkeypatch):
    """Switch to a fresh kernel of hub user `name` (her token, the service's address)."""
    def switch(name: str) -> None:
        monkeypatch.setenv("JUPYTERHUB_API_TOKEN", f"token-{name}")
        monkeypatch.setenv("JUPYTERHUB_USER", name)
        monkeypatch.setenv("CARTAS_SERVICE_URL", f"http://127.0.0.1:{school.port}/")
        scores.reset_session()
        assert isinstance(classroom.open(), ServiceClassroom) and identity.widget().current.name == name
    return switch


def _teacher_view():
    from widgets.pages.turma import ClassView
    view = ClassView(lang="pt")
    view.open_table("turma-a", "")  # under the hub: the group, no key
    return view, view.homework


def test_under_the_hub_the_teacher_gives_homework_a_learner_does_it_and_the_teacher_sees_it(kernel_of):
    kernel_of("prof")
    view, panel = _teacher_view()
    assert view.opened is not None and panel.layout.display != "none"
    hidden = [view.key, view.remember, view.forget_all_button, view.device_status]
    assert [part.layout.display for part in hidden] == ["none"] * 4  # the hub's login: no key, no device
    panel.kind.value = "scenario"
    panel.link.value = encode_link(truco_scenario("paulista", HANDS, "K♠"))
    panel.add_button.click()
    panel.title.value, panel.due.value, panel.pass_mark.value = "Semana 1", "2030-12-20", 50
    panel.create_button.click()
    assert "Semana 1" in view.message.value, view.message.value
    task_id = panel.which.value
    assert task_id and "data-learner='ana'" in panel.table.value

    kernel_of("ana")
    from widgets.pages.index import CourseIndex
    from widgets.pages.tarefa import Homework
    assert "Semana 1" in CourseIndex(lang="pt").todo.value
    page = Homework(code=task_id, lang="pt")
    buttons = page.items_box.children[0].children[2].children
    buttons[0].click()
    assert "cartas-task-verdict" in page.items_box.children[0].children[2].value, page.message.value

    kernel_of("prof")
    view, panel = _teacher_view()
    ana_row = panel.table.value.split("data-learner='ana'")[1].split("</tr>")[0]
    bia_row = panel.table.value.split("data-learner='bia'")[1].split("</tr>")[0]
    assert "data-done='1'" in ana_row and "data-done='1'" not in bia_row


def test_under_the_hub_her_skills_reach_her_review_and_the_teachers_mastery_table(kernel_of):
    from widgets.pages.revisao import Review
    kernel_of("ana")
    classroom.open().record(identity.widget().current, "truco_rodadas", [False], skills=["tied_hand"])
    assert Review(lang="en").due == ["tied_hand"]
    kernel_of("prof")
    _, panel = _teacher_view()
    row = panel.mastery.value.split("data-learner='ana'")[1].split("</tr>")[0]
    assert "data-skill='tied_hand' data-level='attempted'" in row


def test_under_the_hub_the_projector_asks_and_a_phone_answers_through_the_service(kernel_of):
    from widgets.pages.aula import LiveProjector
    from widgets.pages.aula_aluno import LivePhone
    kernel_of("prof")
    projector = LiveProjector(lang="pt", seed=7)
    assert projector.key.layout.display == "none"  # the hub says who teaches: no key
    session = projector.start("turma-a", "")

    kernel_of("ana")
    phone = LivePhone(lang="pt", code=session["code"])  # joins: the hub user, in turma-a
    assert phone.joined == {"points": 0, "first_number": 1}

    kernel_of("prof")
    number = projector.ask_lesson("manilhas")

    kernel_of("ana")
    phone.refresh()
    assert phone.shown["number"] == number and phone.shown["open"]
    phone.buttons.children[0].click()
    assert phone.shown["mine"] is not None, phone.message.value

    kernel_of("prof")
    projector.refresh()
    assert projector.board["answered"] == 1 and [p["name"] for p in projector.board["leaders"]] == ["ana"]


def test_under_the_hub_the_teacher_runs_a_tournament_her_learners_phones_follow_and_a_reload_takes_it_back(
        kernel_of, school):
    from classroom.store import connect
    from classroom.tables import StoreRepository, Tables
    from widgets.pages.torneio import TournamentTeacher
    from widgets.pages.torneio_aluno import TournamentPhone

    def teacher_page() -> TournamentTeacher:
        page = TournamentTeacher(lang="en", pace=0.0)
        assert page.key.layout.display == "none"  # the hub's login: no key
        page.code.value = "turma-a"
        page.open_class_button.click()
        return page

    kernel_of("prof")
    teacher = teacher_page()
    assert teacher.compose.layout.display == "", teacher.message.value
    teacher.players.value, teacher.length.value, teacher.rounds.value = "single", 1, 1
    teacher.open_button.click()
    assert teacher.opened is not None, teacher.message.value
    code = teacher.opened["code"]
    for name in ("ana", "bia"):
        kernel_of(name)
        phone = TournamentPhone(lang="pt")   # no link: her class's newest tournament
        assert phone.code == code and "data-state='out'" in phone.status.value, phone.message.value
    kernel_of("prof")
    teacher = teacher_page()                 # the page reloaded: the tournament taken back
    assert teacher.opened["code"] == code and "taken back" in teacher.message.value
    teacher.enrol_button.click()
    assert "2 learner(s) enrolled now." in teacher.message.value, teacher.message.value
    teacher.start_button.click()
    assert "Round 1: 1 table(s) opened." in teacher.message.value, teacher.message.value
    kernel_of("ana")
    phone = TournamentPhone(lang="en")
    assert "data-state='table'" in phone.status.value and "Sit at the table" in phone.status.value
    table = phone.mine["table_code"]
    store = connect(school.location)
    try:
        tables = Tables(StoreRepository(store))
        for who in ("hub:ana", "hub:bia"):
            tables.leave(table, who)
    finally:
        store.close()
    kernel_of("prof")
    teacher = teacher_page()
    for _ in range(40):
        teacher.refresh()
        if teacher.board["status"] == "finished":
            break
    assert teacher.board["status"] == "finished" and "Podium" in teacher.screen.value
    kernel_of("bia")
    phone = TournamentPhone(lang="pt")
    assert "data-state='finished'" in phone.status.value and "Classificação" in phone.standings.value
