"""The one exercise block of every lesson (`widgets.components.exercises`): no question asked
twice in a row, the pool gone through before a repeat, and the chosen answer marked with a
sign that is not a colour (issue 19 item 4, issue 20 item 3)."""
from __future__ import annotations

import pytest

from cartas.questions import SLIP, Choice, Question, Text
from widgets.components.base import View
from widgets.components.exercises import Exercises, NoRepeats

POOL = 6


def counting_question(rng) -> Question:
    n = int(rng.integers(POOL))
    return Question("test.counting", "", Text(f"Quanto é {n} + 1?", f"What is {n} + 1?"),
                    (Choice(n + 1, Text(str(n + 1), str(n + 1))), Choice(n + 2, Text(str(n + 2), str(n + 2)), SLIP)),
                    n + 1, Text("conta", "count"), key=n)


def test_exercises_go_through_the_pool_before_repeating_a_question():
    block = Exercises(View(lang="en"), "test_pool", counting_question, seed=4)
    asked = [block.new_question().prompt["en"] for _ in range(3 * POOL)]
    for start in range(0, 3 * POOL, POOL):  # each pass through the pool asks every question once
        assert len(set(asked[start:start + POOL])) == POOL, asked
    assert all(a != b for a, b in zip(asked, asked[1:]))  # never the question just asked
    again = Exercises(View(lang="en"), "test_pool", counting_question, seed=4)
    assert [again.new_question().prompt["en"] for _ in range(3 * POOL)] == asked  # seeded


def test_a_pool_of_one_question_still_asks_it():
    draws = NoRepeats(lambda q: q)
    assert [draws.draw(lambda: "only") for _ in range(3)] == ["only"] * 3


def test_the_chosen_answer_is_marked_with_a_sign_and_a_tooltip_not_only_a_colour():
    block = Exercises(View(lang="en"), "test_marks", counting_question, seed=1)
    q = block.new_question()
    right_button, wrong_button = block.buttons.children
    wrong_button.click()
    assert {"cartas-chosen", "cartas-chosen-wrong"} <= set(wrong_button._dom_classes)
    assert wrong_button.description == f"✗ {q.answer + 1}" and wrong_button.tooltip == "Your answer: wrong"
    assert "cartas-chosen" not in right_button._dom_classes and not right_button.description.startswith("✓")
    right_button.click()  # the first answer counts: the mark stays where it was
    assert wrong_button.description.startswith("✗ ") and "cartas-chosen" not in right_button._dom_classes
    assert "No." in block.feedback.value and f"The answer is: {q.answer}." in block.feedback.value
    block.view.lang = "pt"
    block.redraw()
    assert wrong_button.description == f"✗ {q.answer + 1}" and wrong_button.tooltip == "Sua resposta: errada"
    block.new_question()
    right = next(b for b, (v, _) in zip(block.buttons.children, block.question.options) if v == block.question.answer)
    right.click()
    assert right.description.startswith("✓ ") and "cartas-chosen-right" in right._dom_classes


def test_the_21_lessons_mark_the_chosen_answer_and_take_the_mark_off_for_the_next_question():
    from widgets.pages.vinte_e_um_banca import BankRotation
    from widgets.pages.vinte_e_um_pontos import HandScorer
    from widgets.pages.vinte_e_um_rodada import RoundStepper

    bank = BankRotation(seed=2, lang="en")
    wrong = (bank.correct_answer() + 1) % 4
    bank.seat_buttons[wrong].click()
    assert bank.seat_buttons[wrong].description == f"✗ Seat {wrong}"
    assert "cartas-chosen-wrong" in bank.seat_buttons[wrong]._dom_classes
    bank.next_button.click()
    bank.next_button.click()  # the natural question asks for a seat too: its buttons carry no old mark
    assert bank.q_kind == "natural" and not any(b.description.startswith(("✓", "✗")) for b in bank.seat_buttons)
    assert not any("cartas-chosen" in b._dom_classes for b in bank.seat_buttons)

    rounds = RoundStepper(seed=3, lang="en")
    take = rounds.should_take()
    (rounds.draw_button if take else rounds.call_button).click()
    marked = rounds.draw_button if take else rounds.call_button
    assert marked.description.startswith("✓ ") and marked.tooltip == "Your answer: right"

    hands = HandScorer(seed=1, lang="en")
    assert hands.kind == "worth"
    hands.answer(hands.correct_answer() + 30)
    assert "cartas-chosen-wrong" in hands.worth._dom_classes and hands.worth.tooltip == "Your answer: wrong"
    hands.next_button.click()
    assert "cartas-chosen" not in hands.worth._dom_classes and hands.worth.tooltip is None


@pytest.mark.parametrize("page", ["banca", "pontos", "rodada"])
def test_the_21_lessons_never_ask_the_question_just_asked(page):
    from widgets.pages.vinte_e_um_banca import BankRotation
    from widgets.pages.vinte_e_um_pontos import HandScorer
    from widgets.pages.vinte_e_um_rodada import RoundStepper

    view = {"banca": BankRotation, "pontos": HandScorer, "rodada": RoundStepper}[page](seed=7, lang="en")
    asked = []
    for _ in range(12):
        view.next_button.click()
        asked.append(view.question.value + getattr(view, "quiz_table", view.question).value)
    assert all(a != b for a, b in zip(asked, asked[1:]))
    assert len(view.draws.asked) == len(set(view.draws.asked)) >= 6
