"""Truco Mineiro beside Truco Paulista, driven as a learner would."""
import re

from widgets.pages.truco_mineiro import VariantComparison


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
    ex.next_button.click()  # the learner presses "Começar"
    for _ in range(5):
        ex.answer(ex.question.answer)
        assert ex.question.reason["en"] in ex.feedback.value
        ex.next_button.click()
    assert "Score: 5 of 5" in ex.score_label.value


def beside(view, control):
    return view._error_slots[id(control)].value


def test_a_bad_card_is_refused_beside_its_field():
    view = VariantComparison(seed=1)
    view.cards[2].value = "doze de copas"
    assert "doze de copas" in beside(view, view.cards[2]) and "Traceback" not in beside(view, view.cards[2])
    assert view.message.value == "" and beside(view, view.cards[1]) == ""
    view.cards[2].value = "5♥"
    assert beside(view, view.cards[2]) == "" and verdicts(view)["mineiro"] == "A"
    view.cards[1].value = "8♣"
    assert "não está no baralho do truco" in beside(view, view.cards[1])


def test_a_card_played_twice_or_the_vira_in_the_trick_is_refused_beside_the_field():
    view = VariantComparison(seed=1)
    shown = view.compare.value
    view.cards[3].value = "4♣"  # seat 0 plays 4♣ already
    assert "4♣ aparece duas vezes" in beside(view, view.cards[3]) and view.compare.value == shown
    view.cards[3].value = "3♣"
    view.language.value = "en"
    view.cards[2].value = "K♠"  # the vira
    assert "the vira K♠ cannot also be in a hand" in beside(view, view.cards[2])
    view.cards[2].value = "5♥"
    view.vira.value = "5♥"
    assert "the vira 5♥" in beside(view, view.cards[2])
    view.vira.value = "7 ouros"
    assert "in the vira" in beside(view, view.vira) and beside(view, view.cards[2]) == ""


def test_exercises_alternate_duels_and_what_running_pays():
    from widgets.pages.truco_apostas import ladder_rows
    view = VariantComparison(seed=3)
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    runs = 0
    for _ in range(6):
        q = ex.question
        if "corre" in q.prompt["pt"]:
            runs += 1
            key = "mineiro" if "Mineiro" in q.prompt["pt"] else "paulista"
            pays = {name: p for name, _, p in ladder_rows(key) if name}
            call = next(n for n in pays if f"pede {n} " in q.prompt["pt"])
            assert q.answer == pays[call] and str(pays[call]) not in q.prompt["pt"]
        ex.next_button.click()
    assert runs == 3
