"""The manilha explorer and the course index, driven as a learner would."""
import json

import pytest

from cartas.cards import Card
from cartas.truco import manilha_rank
from widgets.course import CourseIndex
from widgets.manilhas import ManilhaExplorer


def shown(explorer):
    return [c for c in explorer.manilhas_box.value.split('data-card="')[1:]]


def manilhas_shown(explorer):
    return [part.split('"')[0] for part in shown(explorer)]


def test_picking_a_vira_shows_the_step_and_manilhas():
    view = ManilhaExplorer(seed=1)
    view.vira.value = Card.parse("6♦")
    assert manilhas_shown(view) == ["7♦", "7♠", "7♥", "7♣"]
    assert "depois do <b>6</b> vem o <b>7</b>" in view.step.value
    assert "volta" not in view.step.value


def test_vira_three_shows_the_wrap_around():
    view = ManilhaExplorer(seed=1, vira="3♠")
    assert manilhas_shown(view) == ["4♦", "4♠", "4♥", "4♣"]
    assert "dá a volta" in view.step.value


def test_drawing_a_vira_is_seeded():
    first = [ManilhaExplorer(seed=5).draw_vira() for _ in range(2)]
    assert first[0] == first[1]
    view = ManilhaExplorer(seed=5)
    drawn = view.draw_button.click() or view.vira.value
    assert drawn == first[0]
    assert manilhas_shown(view)[0].startswith(manilha_rank(drawn).value)


def test_mineiro_hides_the_vira_and_shows_fixed_manilhas():
    view = ManilhaExplorer(seed=1)
    view.variant.value = "mineiro"
    assert view.vira_controls.layout.display == "none"
    assert manilhas_shown(view) == ["7♦", "A♠", "7♥", "4♣"]
    assert "não há vira" in view.step.value


def test_ranking_lists_forty_cards_strongest_first():
    view = ManilhaExplorer(seed=1, vira="K♠")
    rows = view.ranking_box.value.split("<tr data-cards='")[1:]
    assert rows[0].startswith("A♣'")
    assert sum(len(row.split("'")[0].split()) for row in rows) == 40


def test_language_switch_translates_everything():
    view = ManilhaExplorer(seed=1, vira="7♠")
    view.language.value = "en"
    assert "after <b>7</b> comes <b>Q</b>" in view.step.value
    assert view.draw_button.description == "Draw a vira"
    assert view.vira.value == Card.parse("7♠")
    assert "The vira is" in view.question.value


def test_question_answers_at_once_and_keeps_score():
    view = ManilhaExplorer(seed=3)
    right = manilha_rank(view.question_vira)
    wrong = next(b for b in view.answer_buttons if b.description != right.value)
    wrong.click()
    assert "cartas-wrong" in view.feedback.value and f"a manilha é {right.value}" in view.feedback.value
    next(b for b in view.answer_buttons if b.description == right.value).click()
    assert "cartas-right" in view.feedback.value
    assert view.score.right == 0 and view.score.asked == 1  # only the first answer counts
    view.next_button.click()
    assert view.feedback.value == ""
    next(b for b in view.answer_buttons if b.description == manilha_rank(view.question_vira).value).click()
    assert "Acertos: 1 de 2" in view.score_label.value


def test_progress_reaches_the_index(tmp_path):
    view = ManilhaExplorer(seed=3)
    right = manilha_rank(view.question_vira).value
    next(b for b in view.answer_buttons if b.description == right).click()
    index = CourseIndex(lang="pt")
    assert "1 de 1 certas" in index.table.value
    assert "manilhas.ipynb?lang=pt" in index.table.value
    index.language.value = "en"
    assert "manilhas.ipynb?lang=en" in index.table.value and "1 of 1 right" in index.table.value


def test_an_error_in_a_callback_becomes_a_friendly_message():
    view = ManilhaExplorer(seed=1)
    view.variant.value = "paulista"
    broken = view.guarded(lambda: Card.parse("onze de nada"))
    assert broken() is None
    assert "Não é possível" in view.message.value and "onze de nada" in view.message.value
    assert "Traceback" not in view.message.value
    crash = view.guarded(lambda: 1 / 0)
    crash()
    assert "Algo deu errado" in view.message.value and "ZeroDivision" not in view.message.value


def test_lang_query_parameter_sets_the_language(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "lang=en&x=1")
    assert ManilhaExplorer(seed=1).lang == "en"
    monkeypatch.setenv("QUERY_STRING", "lang=fr")
    assert ManilhaExplorer(seed=1).lang == "pt"


def test_index_marks_dashboards_without_exercises():
    index = CourseIndex(lang="pt")
    row = index.table.value.split("data-lesson='jogar_truco'")[1].split("</tr>")[0]
    assert "para jogar e explorar" in row and "ainda não começou" not in row


def test_every_lesson_with_exercises_records_its_score_under_its_key():
    from pathlib import Path

    import widgets.course
    from widgets.course import LESSONS
    sources = "".join(p.read_text() for p in Path(widgets.course.__file__).parent.glob("*.py"))
    for lesson in LESSONS:
        assert (f'"{lesson.key}"' in sources.replace(f'Lesson("{lesson.key}"', "")) == lesson.exercises, lesson.key
