"""The course index without a browser: the lessons by group, and her next step first (today's
review, her first homework not done, the next lesson she has not started), in both languages."""
from __future__ import annotations

import time

import pytest

from classroom import homework as hw, identity as ids
from classroom.classes import create_class
from classroom.mastery import DAY
from classroom.progress import open_store, record
from widgets.components import learner as identity, scores
from widgets.pages.index import GROUPS, LESSONS, CourseIndex


@pytest.fixture
def turma(store_location):
    return create_class(open_store(store_location), "8º A")


def sign_in(code, name, browser="browser-index-01"):
    scores.reset_session()
    joined = ids.join(open_store(), code, name, "4321", browser)
    identity.widget().set_learner(joined.learner, joined.token)
    return joined.learner


def steps(index) -> list[str]:
    """Her next steps' link classes, in the order shown."""
    html = index.next_step.value
    return [part.split("'")[0] for part in html.split("<a class='")[1:]]


def test_every_lesson_is_in_one_group_of_the_course():
    assert {lesson.group for lesson in LESSONS} == {key for key, _name in GROUPS}
    table = CourseIndex(lang="pt").table.value
    assert table.count("<details class='cartas-index-group'") == len(GROUPS)
    assert "<details class='cartas-index-group' data-group='truco'><summary><b>Truco</b> · 6 lições" in table


@pytest.mark.parametrize("lang, first, after", [("pt", "Comece por: As manilhas", "Próxima lição: A mão passo a passo"),
                                                ("en", "Start with: The manilhas", "Next lesson: A hand step by step")])
def test_her_next_step_is_the_first_lesson_she_has_not_started(turma, lang, first, after):
    store = open_store()
    ana = sign_in(turma.code, "Ana")
    assert steps(CourseIndex(lang=lang)) == ["cartas-next-lesson"]
    assert first in CourseIndex(lang=lang).next_step.value
    record(store, ana, "manilhas", [True, False])
    index = CourseIndex(lang=lang)
    assert after in index.next_step.value and f"truco_mao.ipynb?lang={lang}" in index.next_step.value
    assert "data-group='truco'><summary><b>Truco</b> · 6 " in index.table.value
    assert ("6 lições · 1 começadas" if lang == "pt" else "6 lessons · 1 started") in index.table.value


def test_her_review_and_her_homework_come_before_the_next_lesson(turma):
    store = open_store()
    task = hw.create(store, turma.code, "Semana 2", "2030-12-20", 100,
                     [{"kind": "lesson", "lesson": "truco_rodadas", "need": 1}])
    ana = sign_in(turma.code, "Ana")
    old = time.time() - 2 * DAY
    record(store, ana, "truco_rodadas", [False], at=old, skills=["tied_hand"])
    index = CourseIndex(lang="pt")
    assert steps(index) == ["cartas-next-review", "cartas-next-task", "cartas-next-lesson"]
    shown = index.next_step.value
    assert "Revisão do dia: 1 habilidade(s) para revisar" in shown and "revisao.ipynb?lang=pt" in shown
    assert "Tarefa «Semana 2»: 0 de 1 feitos" in shown and f"tarefa.ipynb?tarefa={task['id']}&amp;lang=pt" in shown
    assert "Comece por: As manilhas" in shown  # truco_rodadas started, manilhas not yet
    assert "<details class='cartas-index-fold' data-fold='todo'>" in index.todo.value and "Semana 2" in index.todo.value


def test_when_she_has_started_every_lesson_her_next_step_is_a_game(turma):
    store = open_store()
    ana = sign_in(turma.code, "Ana")
    for lesson in LESSONS:
        if lesson.exercises:
            record(store, ana, lesson.key, [True])
    shown = CourseIndex(lang="en").next_step.value
    assert "You have started every lesson: play a game" in shown and "jogar_truco.ipynb?lang=en" in shown
