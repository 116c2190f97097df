"""Learners: names kept as plain text, each answer recorded for the learner at this browser,
and a lesson that keeps working when its store cannot be reached or read."""
from __future__ import annotations

import hashlib
import re
from html import escape
from pathlib import Path

import pytest

from classroom.identity import MAX_NAME, Learner, clean_code, clean_name
from classroom.progress import learner_progress, open_store
from widgets import identity, progress
from widgets.course import CourseIndex
from widgets.manilhas import ManilhaExplorer

ROOT = Path(__file__).resolve().parents[1]


def answer_right(view):
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    right = str(dict(ex.question.options)[ex.question.answer])
    next(b for b in ex.buttons.children if b.description == right).click()


def browser_reports(browser_id, name="", class_code=""):
    """What the identity widget's browser side sends when it is drawn."""
    identity.widget().stored = {"browser_id": browser_id, "name": name, "class_code": class_code,
                                "count": 1}


def test_a_name_is_plain_text_without_control_characters_and_capped():
    assert clean_name("  Ana \x00Maria\u202e\n  Silva ") == "Ana Maria Silva"
    assert len(clean_name("x" * 500)) == MAX_NAME
    assert clean_name("<b>Zé</b>") == "<b>Zé</b>"  # kept as typed; escaped where shown
    assert clean_name(None) == ""


def test_a_class_code_is_six_readable_characters():
    assert clean_code(" abc-23k ") == "ABC23K"
    assert clean_code("") == ""
    for bad in ("ABC", "ABCDE0", "ABCDEFG"):
        with pytest.raises(ValueError, match="6 letters"):
            clean_code(bad)


def test_the_same_name_in_the_same_class_is_the_same_learner_on_any_browser():
    assert Learner.make("browser-one", "Ana", "ABC234").key == Learner.make("browser-two", "ana", "abc234").key
    assert Learner.make("browser-one", "Ana", "ABC234").key != Learner.make("browser-one", "Ana").key
    assert Learner.make("browser-one").key != Learner.make("browser-two").key


def test_answers_given_before_the_browser_says_who_is_there_go_to_that_learner():
    identity.reset_session()  # a fresh kernel: nobody known yet
    view = ManilhaExplorer(seed=3)
    answer_right(view)
    assert progress.recorder().pending == [("manilhas", True)]
    browser_reports("b-ana-browser", "Ana")
    assert progress.recorder().pending == []
    ana = Learner.make("b-ana-browser", "Ana")
    assert learner_progress(open_store(), ana.key)["manilhas"]["right"] == 1


def test_each_learner_sees_only_her_own_progress_on_the_index():
    identity.reset_session()
    browser_reports("b-ana-browser", "Ana")
    answer_right(ManilhaExplorer(seed=3))
    identity.reset_session()  # another page, another browser
    browser_reports("b-bia-browser", "Bia")
    index = CourseIndex(lang="en")
    assert "Bia&#x27;s progress" in index.table.value
    assert "1 of 1 right" not in index.table.value and "not started yet" in index.table.value
    identity.widget().stored = {"browser_id": "b-ana-browser", "name": "ana", "count": 2}
    assert "1 of 1 right" in index.table.value  # the index follows the learner who is there


def test_not_me_forgets_the_name_and_answers_go_to_the_anonymous_browser():
    identity.reset_session()
    browser_reports("b-shared-pc1", "Ana")
    view = ManilhaExplorer(seed=3)
    assert view.children[0].children[1] is identity.widget()  # the badge is in the header
    browser_reports("b-shared-pc1", "", "")  # "não sou eu"
    answer_right(view)
    assert learner_progress(open_store(), Learner.make("b-shared-pc1").key)["manilhas"]["asked"] == 1
    assert learner_progress(open_store(), Learner.make("b-shared-pc1", "Ana").key) == {}


def test_a_name_is_escaped_on_the_index():
    identity.reset_session()
    browser_reports("b-html-browser", "<img src=x onerror=alert(1)>")
    index = CourseIndex(lang="pt")
    assert "<img" not in index.table.value
    assert escape("<img src=x onerror=alert(1)>") in index.table.value


def test_the_form_refuses_an_unknown_class_code():
    identity.reset_session()
    form = identity.widget(form=True)
    form.submitted = {"browser_id": "b-form-browser", "name": "Ana", "class_code": "ZZZ234", "count": 1}
    assert "ZZZ234" in form.error and form.current is None
    from classroom.classes import create_class
    made = create_class(open_store(), "7º B")
    form.submitted = {"browser_id": "b-form-browser", "name": "Ana", "class_code": made.code, "count": 2}
    assert form.error == "" and form.current == Learner.make("b-form-browser", "Ana", made.code)
    assert form.learner["class_code"] == made.code  # the browser stores what was accepted


def test_a_corrupt_store_file_is_left_untouched_and_the_lesson_goes_on(tmp_path, monkeypatch):
    path = tmp_path / "garbage.db"
    path.write_bytes(bytes(range(256)) * 64)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    monkeypatch.setenv("CARTAS_DB", str(path))
    view = ManilhaExplorer(seed=3)
    answer_right(view)
    assert "cartas-right" in view.exercises.feedback.value and view.exercises.score.right == 1
    assert "não está sendo salvo" in identity.widget().notice
    index = CourseIndex(lang="pt")
    assert index.table.value.count("data-lesson=") > 5 and "não pode ser lido" in index.message.value
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("garbage")) == ["garbage.db"]


def test_an_unreachable_store_keeps_the_answers_until_it_answers(tmp_path, monkeypatch):
    from serving_ports import closed_port
    monkeypatch.setenv("CARTAS_DATABASE_URL", f"postgresql://cartas@127.0.0.1:{closed_port()}/x")
    view = ManilhaExplorer(seed=3)
    answer_right(view)
    assert "cartas-right" in view.exercises.feedback.value
    assert "não está sendo salvo" in identity.widget().notice
    view.language.value = "en"
    assert "not being saved" in identity.widget().notice
    assert progress.recorder().pending == [("manilhas", True)]
    monkeypatch.delenv("CARTAS_DATABASE_URL")  # the store is back
    assert progress.recorder().flush(force=True)
    assert identity.widget().notice == ""
    assert learner_progress(open_store(), identity.current().key)["manilhas"]["right"] == 1


def test_classroom_imports_nothing_of_jupyter():
    forbidden = re.compile(r"^\s*(import|from)\s+(ipywidgets|IPython|traitlets|voila|widgets|anywidget)\b", re.M)
    assert [p.name for p in (ROOT / "classroom").rglob("*.py") if forbidden.search(p.read_text())] == []
