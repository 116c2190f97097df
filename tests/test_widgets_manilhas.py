"""The manilha explorer and the course index, driven as a learner would."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from cartas.cards import Card
from cartas.truco import manilha_rank
from widgets.pages.index import CourseIndex
from widgets.pages.manilhas import ManilhaExplorer

ROOT = Path(__file__).resolve().parents[1]


def shown(explorer):
    return [c for c in explorer.manilhas_html.split('data-card="')[1:]]


def manilhas_shown(explorer):
    return [part.split('"')[0] for part in shown(explorer)]


def test_picking_a_vira_shows_the_step_and_manilhas():
    view = ManilhaExplorer(seed=1)
    view.vira.value = Card.parse("6♦")
    assert manilhas_shown(view) == ["7♦", "7♠", "7♥", "7♣"]
    assert "depois do <b>6</b> vem o <b>7</b>" in view.step_html
    assert "volta" not in view.step_html


def test_vira_three_shows_the_wrap_around():
    view = ManilhaExplorer(seed=1, vira="3♠")
    assert manilhas_shown(view) == ["4♦", "4♠", "4♥", "4♣"]
    assert "dá a volta" in view.step_html


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
    assert "não há vira" in view.step_html


def test_ranking_lists_forty_cards_strongest_first():
    view = ManilhaExplorer(seed=1, vira="K♠")
    rows = view.ranking_html.split("<tr data-cards='")[1:]
    assert rows[0].startswith("A♣'")
    assert sum(len(row.split("'")[0].split()) for row in rows) == 40


def test_language_switch_translates_everything():
    view = ManilhaExplorer(seed=1, vira="7♠")
    view.language.value = "en"
    assert "after <b>7</b> comes <b>Q</b>" in view.step_html
    assert view.draw_button.description == "Draw a vira"
    assert view.vira.value == Card.parse("7♠")
    assert "only your first answer counts" in view.exercises.prompt.value
    assert view.exercises.next_button.description == "Start"
    view.exercises.next_button.click()
    assert "The vira is" in view.exercises.prompt.value
    assert view.exercises.next_button.description == "Another question"
    view.language.value = "pt"
    assert "A vira é" in view.exercises.prompt.value
    assert view.exercises.next_button.description == "Outra pergunta"


def test_the_exercises_ask_nothing_until_the_learner_starts_them():
    view = ManilhaExplorer(seed=3)
    ex = view.exercises
    assert ex.question is None and ex.buttons is None and ex.feedback is None
    assert "só a primeira resposta conta" in ex.prompt.value and ex.next_button.description == "Começar"
    view.variant.value = "mineiro"  # a change of set-up before the start asks nothing either
    assert ex.question is None
    with pytest.raises(ValueError, match="not started"):
        ex.answer("anything")
    assert ex.score.asked == 0
    ex.next_button.click()
    assert ex.question is not None and len(ex.buttons.children) == len(ex.question.options)
    view.variant.value = "paulista"  # now a change of set-up replaces the question on screen
    assert "A vira é" in ex.prompt.value


def test_new_questions_and_language_switches_leave_no_widgets_behind():
    from ipywidgets.widgets.widget import _instances
    view = ManilhaExplorer(seed=3)
    view.exercises.next_button.click()
    alive = len(_instances)
    for _ in range(4):
        view.language.value = "en" if view.language.value == "pt" else "pt"
        view.exercises.next_button.click()
    answers = len(view.exercises.buttons.children)
    # the questions alternate between 10 ranks and 2 cards: only the buttons on screen live
    assert len(_instances) - alive in {0, answers - 10, answers - 2}
    assert all(b.comm is not None for b in view.exercises.buttons.children)


def test_the_explorer_opens_without_numpy_and_loads_it_at_the_first_draw():
    code = ("import sys\n"
            "from widgets.pages.manilhas import ManilhaExplorer\n"
            "view = ManilhaExplorer(lang='pt')\n"
            "view.language.value = 'en'; view.variant.value = 'mineiro'; view.variant.value = 'paulista'\n"
            "assert 'numpy' not in sys.modules, 'numpy loaded with the page'\n"
            "view.draw_button.click()\n"
            "assert 'numpy' in sys.modules\n")
    env = {**os.environ, "CARTAS_DB": str(Path(tempfile.mkdtemp()) / "cartas.db")}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert result.returncode == 0, result.stderr


def click(ex, value):
    label = dict(ex.question.options)[value]
    next(b for b in ex.buttons.children if b.description == label[ex.view.lang]).click()


def test_paulista_question_asks_the_manilha_of_a_vira_and_answers_at_once():
    view = ManilhaExplorer(seed=3)
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    assert "A vira é" in ex.prompt.value
    wrong = next(v for v, _ in ex.question.options if v != ex.question.answer)
    click(ex, wrong)
    assert "cartas-wrong" in ex.feedback.value and f"a manilha é {ex.question.answer.value}" in ex.feedback.value
    click(ex, ex.question.answer)  # a second click neither scores nor flips the verdict
    assert "cartas-wrong" in ex.feedback.value and "cartas-right" not in ex.feedback.value
    assert ex.score.right == 0 and ex.score.asked == 1
    ex.next_button.click()
    assert ex.feedback.value == ""
    click(ex, ex.question.answer)
    assert "Acertos: 1 de 2" in ex.score_label.value


def test_the_quiz_alternates_the_manilha_and_the_stronger_card_questions():
    view = ManilhaExplorer(seed=4)
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    kinds = []
    for _ in range(4):
        kinds.append("mais forte" in ex.prompt.value)
        ex.next_button.click()
    assert kinds == [False, True, False, True]
    from cartas.truco import strength_table
    vira = Card.parse(ex.question.prompt["pt"].split("A vira é ")[1].split(".")[0]) \
        if "A vira é" in ex.question.prompt["pt"] else None
    assert vira is not None
    ex.next_button.click()  # a "which is stronger" question: the answer is the engine's stronger card
    a, b = (v for v, _ in ex.question.options)
    vira = Card.parse(ex.question.prompt["pt"].split("A vira é ")[1].split(".")[0])
    table = strength_table("paulista", vira)
    assert ex.question.answer == (a if table[a] > table[b] else b) and table[a] != table[b]


def test_mineiro_quiz_never_asks_about_a_vira():
    view = ManilhaExplorer(seed=2)
    view.variant.value = "mineiro"
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    for _ in range(6):
        assert "vira" not in ex.prompt.value.lower()
        if "manilha?" in ex.prompt.value:
            assert str(ex.question.answer) in ("4♣", "7♥", "A♠", "7♦")
            assert sum(str(v) in ("4♣", "7♥", "A♠", "7♦") for v, _ in ex.question.options) == 1
        ex.next_button.click()


def test_a_score_adds_up_across_visits():
    first = ManilhaExplorer(seed=3)
    first.exercises.new_question()
    click(first.exercises, first.exercises.question.answer)
    again = ManilhaExplorer(seed=9)  # a reload: a new view, the same learner
    assert "Acertos: 1 de 1" in again.exercises.score_label.value
    again.exercises.new_question()
    click(again.exercises, next(v for v, _ in again.exercises.question.options
                                if v != again.exercises.question.answer))
    assert "Acertos: 1 de 2" in again.exercises.score_label.value


def test_progress_reaches_the_index(tmp_path):
    view = ManilhaExplorer(seed=3)
    view.exercises.new_question()
    click(view.exercises, view.exercises.question.answer)
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

    import widgets.pages.index
    from widgets.pages.index import LESSONS
    sources = "".join(p.read_text() for p in Path(widgets.pages.index.__file__).parent.glob("*.py"))
    for lesson in LESSONS:
        assert (f'"{lesson.key}"' in sources.replace(f'Lesson("{lesson.key}"', "")) == lesson.exercises, lesson.key
