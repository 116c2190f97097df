"""A check before and after's pages without a browser (issue 32, item 4): the teacher's
(widgets.pages.verificacao) and a learner's phone (widgets.pages.verificacao_aluno)."""
from __future__ import annotations

from html import escape

import pytest

from cartas.questions import SLIP
from classroom import identity as ids
from classroom.answers import value_text
from classroom.checks import make_question
from classroom.classes import create_class
from classroom.progress import open_store
from widgets.components import learner as identity
from widgets.pages.verificacao import CheckTeacher
from widgets.pages.verificacao_aluno import TAP_PX, CheckPhone

SKILLS = ("manilhas_from_vira", "trick_winner")


@pytest.fixture
def turma():
    store = open_store()
    return store, create_class(store, "7º B")


def _sign_in(store, code, name, pin, browser):
    joined = ids.join(store, code, name, pin, browser)
    identity.forget()
    identity.widget().set_learner(joined.learner, joined.token)
    return joined.learner


def take(phone: CheckPhone, how: str) -> None:
    """Tap through the check: the right choice, or a wrong one naming a misconception."""
    assert phone.taking is not None
    for number, item in enumerate(phone.taking["questions"]):
        question = make_question(item)
        wanted = question.answer if how == "right" else next(
            (c.value for c in question.choices if c.misconception not in (None, SLIP)),
            next(c.value for c in question.choices if c.misconception is not None))
        labels = [b.description for b in phone.buttons.children]
        assert labels == [c.label[phone.lang] for c in question.choices]
        assert all(b.layout.width == "100%" and int(b.layout.min_height[:-2]) >= TAP_PX
                   for b in phone.buttons.children)
        assert "cartas-right" not in phone.status.value and "cartas-wrong" not in phone.status.value
        assert f"data-number='{number}'" in phone.status.value
        phone.buttons.children[[value_text(c.value) for c in question.choices].index(value_text(wanted))].click()
    assert "data-state='sent'" in phone.status.value, phone.message.value


def test_three_phones_take_the_check_before_and_after_and_the_teacher_sees_the_gain(turma):
    store, made = turma
    teacher = CheckTeacher(lang="en")
    teacher.code.value, teacher.key.value = made.code, "wrong"
    teacher.open_class_button.click()
    assert "Wrong class code or teacher key." in teacher.message.value
    teacher.key.value = made.key
    teacher.open_class_button.click()
    teacher.open_button.click()
    assert "Tick at least one skill." in teacher.message.value
    for key in SKILLS:
        teacher.skill_boxes[key].value = True
    teacher.size.value = 8
    teacher.open_button.click()
    assert teacher.check is not None and "data-phase='before'" in teacher.state.value
    learners = [("Ana", "2468", "b-ana-phone-01"), ("Bia", "1357", "b-bia-phone-01"), ("Caio", "9753", "b-caio-ph-01")]
    for name, pin, browser in learners:
        _sign_in(store, made.code, name, pin, browser)
        phone = CheckPhone(lang="pt")
        assert "data-state='asking'" in phone.status.value and "não diz se acertou" in phone.status.value
        take(phone, "wrong")
        assert CheckPhone(lang="pt").taking is None  # taken: nothing more to take in this phase
    teacher.after_button.click()
    assert "data-phase='after'" in teacher.state.value
    for name, pin, browser in learners:
        _sign_in(store, made.code, name, pin, browser)
        phone = CheckPhone(lang="en")
        take(phone, "right")
    teacher.refresh_button.click()
    found = teacher.found
    assert found["matched"] == 3 and found["class"]["gain"] == 1.0
    assert "data-matched='3'" in teacher.results.value and "+1.00" in teacher.results.value
    assert found["vanished"] and not found["stayed"]
    for entry in found["vanished"]:
        assert escape(entry["name"]["en"]) in teacher.results.value
    teacher.language.value = "pt"
    assert escape(found["vanished"][0]["name"]["pt"]) in teacher.results.value and "Equívocos que sumiram" in \
        teacher.results.value
    teacher.close_button.click()
    assert "data-phase='closed'" in teacher.state.value


def test_a_phone_out_of_a_class_is_asked_to_sign_in(turma):
    identity.forget()
    phone = CheckPhone(lang="en")
    assert "data-state='out'" in phone.status.value and phone.taking is None
