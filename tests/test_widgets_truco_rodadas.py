"""The tricks and tie-breaking lab, driven as a learner would."""
import re

from cartas.truco import explain_hand, finished_sequences
from widgets.pages.truco_rodadas import TrickLab


def winner_card(view):
    cells = view.trick_box.value.split("class='cartas-played'")[1:]
    return [re.search(r'data-card="([^"]+)"', c).group(1) for c in cells if "#2e7d32" in c]


def test_default_trick_manilha_wins_for_team_a():
    view = TrickLab(seed=1)
    assert "data-team='A'" in view.trick_box.value
    assert "manilha de copas" in view.trick_box.value
    assert winner_card(view) == ["7♥"]


def test_face_down_card_is_worth_nothing_and_partners_tie_wins():
    view = TrickLab(seed=1)
    view.covers[0].value = True                      # 7♥ face down: 3♣ and 3♦ are team B's
    assert "data-team='B'" in view.trick_box.value
    assert "parceiro" in view.trick_box.value
    assert winner_card(view) == ["3♣"]
    view.cards[2].value = "3♥"                       # team A's 3 ties team B's 3
    assert "data-team='-'" in view.trick_box.value and "empata" in view.trick_box.value
    assert winner_card(view) == []


def test_mineiro_uses_fixed_manilhas_and_hides_the_vira():
    view = TrickLab(seed=1)
    view.variant.value = "mineiro"
    view.cards[0].value = "4♣"
    assert view.vira.layout.display == "none"
    assert winner_card(view) == ["4♣"] and "zap" in view.trick_box.value


def test_hand_results_show_the_deciding_rule():
    view = TrickLab(seed=1)
    assert "data-team='A'" in view.hand_box.value    # A, tie: the first trick decides
    view.results[0].value = "tie"
    view.results[1].value = "B"
    assert "data-team='B'" in view.hand_box.value
    assert explain_hand([None, 1], "pt") in view.hand_box.value
    view.results[1].value = "-"
    assert "cartas-hand-pending" in view.hand_box.value
    assert "a mão ainda não acabou: falta jogar a 2ª rodada" in view.hand_box.value
    assert view.outcomes.value.count("class='cartas-outcome'") == len(finished_sequences()) == 15


def test_language_switch_keeps_choices():
    view = TrickLab(seed=1)
    view.results[1].value = "B"
    view.results[2].value = "tie"
    view.language.value = "en"
    assert [d.value for d in view.results] == ["A", "B", "tie"]
    assert "One trick each and the third tied" in view.hand_box.value
    assert "Winner: Team A" in view.trick_box.value and view.show_button.description == "Who wins?"


def test_exercises_answer_at_once_with_the_engine_reason():
    view = TrickLab(seed=4)
    ex = view.exercises
    ex.next_button.click()  # the learner presses "Começar"
    for _ in range(5):
        q = ex.question
        ex.answer(q.answer)
        assert "cartas-right" in ex.feedback.value and q.reason["pt"] in ex.feedback.value
        ex.next_button.click()
    ex.answer(next(v for v, _ in ex.question.options if v != ex.question.answer))
    assert "cartas-wrong" in ex.feedback.value
    assert "Acertos: 5 de 6" in ex.score_label.value


def test_a_bad_card_becomes_a_friendly_message():
    view = TrickLab(seed=1)
    view.cards[1].value = "onze de nada"
    beside = view._error_slots[id(view.cards[1])]
    assert "Não é possível" in beside.value and "onze de nada" in beside.value
    assert "Traceback" not in beside.value and "cannot" not in beside.value and "10♦" not in beside.value
    view.cards[1].value = "3♦"                       # the same card twice in one trick
    assert "3♦ aparece duas vezes na rodada" in view._error_slots[id(view.cards[1])].value
    view.cards[1].value = "2♠"
    assert view.message.value == "" and beside.value == ""


def test_the_vira_cannot_be_played_in_the_trick():
    view = TrickLab(seed=1, vira="6♣")
    view.cards[2].value = "6♣"
    assert "6♣ é a vira" in view._error_slots[id(view.cards[2])].value


def test_an_impossible_sequence_of_tricks_is_explained_in_plain_words():
    view = TrickLab(seed=1)
    view.results[0].value = "A"
    view.results[1].value = "A"
    view.results[2].value = "B"
    text = view.hand_box.value
    assert "Essa sequência não acontece: a mão já acabou na 2ª rodada" in text
    assert "3ª rodada não é jogada" in text and "não jogada" in text
    view.results[1].value = "-"
    assert "não pode vir antes de uma jogada" in view.hand_box.value
    view.language.value = "en"
    assert "tricks are played in order" in view.hand_box.value


def test_after_a_tied_trick_the_chosen_tie_lead_rule_says_who_leads():
    view = TrickLab(seed=1)
    view.covers[0].value = True
    view.cards[2].value = "3♥"          # 3♣ (seat 1) and 3♥ (seat 2) tie; seat 0 led
    assert "data-team='-'" in view.trick_box.value
    assert "assento 0 abre a próxima rodada" in view.trick_box.value
    view.tie_lead.value = "first_tying"
    assert "assento 1 abre a próxima rodada" in view.trick_box.value
    view.language.value = "en"
    assert view.tie_lead.value == "first_tying"
    assert "seat 1 leads the next trick" in view.trick_box.value
