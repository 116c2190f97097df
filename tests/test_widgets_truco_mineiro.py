"""Truco Mineiro beside Truco Paulista, driven as a learner would."""
import re

from widgets.truco_mineiro import VariantComparison


def verdicts(view):
    return dict(re.findall(r"cartas-verdict' data-variant='(\w+)' data-team='(.)'", view.compare.value))


def manilhas_of(view, key):
    part = view.facts.value.split(f"cartas-manilhas' data-variant='{key}'")[1].split("</div></td>")[0]
    return re.findall(r'data-card="([^"]+)"', part)


def test_facts_side_by_side_come_from_the_engine():
    view = VariantComparison(seed=1)
    assert manilhas_of(view, "mineiro") == ["7♦", "A♠", "7♥", "4♣"]
    assert manilhas_of(view, "paulista") == ["A♦", "A♠", "A♥", "A♣"]
    assert "truco 4/2 · seis 6/4 · dez 10/6 · doze 12/10" in view.facts.value
    assert "truco 3/1 · seis 6/3 · nove 9/6 · doze 12/9" in view.facts.value
    assert "mão de dez aos 10 pontos: vale 4" in view.facts.value


def test_the_same_trick_can_go_to_different_teams():
    view = VariantComparison(seed=1)
    assert verdicts(view) == {"paulista": "B", "mineiro": "A"}     # A♦ manilha vs the zap 4♣
    view.vira.value = "3♠"                                          # Paulista manilhas become the 4s
    assert verdicts(view)["paulista"] == "A" and manilhas_of(view, "paulista")[0] == "4♦"


def test_language_and_exercises():
    view = VariantComparison(seed=2)
    view.language.value = "en"
    assert "Winner:" in view.compare.value and "Hand at the threshold" in view.facts.value
    ex = view.exercises
    for _ in range(5):
        ex.answer(ex.question.answer)
        assert ex.question.why["en"] in ex.feedback.value
        ex.next_button.click()
    assert "Score: 5 of 5" in ex.score_label.value


def test_a_bad_card_becomes_a_friendly_message():
    view = VariantComparison(seed=1)
    view.cards[2].value = "doze de copas"
    assert "Não é possível" in view.message.value and "Traceback" not in view.message.value
    view.cards[2].value = "5♥"
    assert view.message.value == "" and verdicts(view)["mineiro"] == "A"
