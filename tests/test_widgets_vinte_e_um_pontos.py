"""The 21 scoring view: totals per ace option, busts, the two-card 21, the call, exercises."""
from cartas.cards import Card
from cartas.vinte_e_um import call_winner, explain_call, points
from widgets.pages.index import CourseIndex
from widgets.pages.vinte_e_um_pontos import HandScorer


def totals(box_html):
    """{ace option: total} as the view prints them."""
    rows = box_html.split("<tr data-ace='")[1:]
    return {row.split("'")[0]: int(row.split("class='cartas-total'>")[1].split("<")[0]) for row in rows}


def winner(view):
    return view.result.value.split("data-winner='")[1].split("'")[0]


def test_totals_count_the_cards_played_and_a_two_card_21_says_what_it_earns():
    view = HandScorer(player=["A♠", "K♥"], banker=["10♦", "7♣"], ace=11, seed=1)
    assert totals(view.player_box.value) == {"1": 11, "11": 21, "flexible": 21}
    assert view.player_box.value.count("21 com duas cartas!") == 1  # for the table's ace only
    assert "ganha a aposta como qualquer vitória (1 para 1)" in view.player_box.value
    assert "toma a banca" in view.player_box.value
    view.add("player", "5♦")  # a hand at 21 takes no more cards: the 5♦ is never dealt
    assert totals(view.player_box.value) == {"1": 16, "11": 21, "flexible": 21}
    assert "estourou" not in view.player_box.value


def test_a_banker_two_card_21_takes_every_bet():
    view = HandScorer(player=["9♦", "7♣"], banker=["A♦", "Q♣"], ace=11, seed=1)
    assert "leva todas as apostas na hora" in view.banker_box.value


def test_estourou_never_appears_beside_a_21():
    view = HandScorer(player=["10♦", "7♣", "4♠", "5♥"], banker=["10♠", "J♣", "A♥"], ace=1, seed=1)
    assert totals(view.player_box.value)["1"] == 21 and totals(view.banker_box.value)["1"] == 21
    assert "estourou" not in view.player_box.value and "estourou" not in view.banker_box.value
    view.ace.value = 11  # the banker's 10 J A is 31 with an ace of 11... but 10 J is 20, then A: 31
    assert "estourou" in view.banker_box.value and totals(view.banker_box.value)["11"] == 31
    assert "estourou" not in view.player_box.value


def test_bust_is_said_for_the_table_ace():
    view = HandScorer(player=["10♦", "7♣", "6♠"], banker=["10♠", "7♥"], ace=1, seed=1)
    assert view.player_box.value.count("estourou") == 1 and totals(view.player_box.value)["1"] == 23


def test_buttons_add_and_remove_cards():
    view = HandScorer(player=[], banker=[], seed=1)
    view.card.value = Card.parse("10♦")
    view.buttons["to_player"].click()
    view.card.value = Card.parse("4♣")
    view.buttons["to_player"].click()
    assert view.player_box.value.count("data-card=") == 2
    view.buttons["undo_player"].click()
    assert view.player_box.value.count("data-card=") == 1
    assert "pelo menos duas cartas" in view.result.value
    view.buttons["clear"].click()
    assert "nenhuma carta" in view.player_box.value


def test_a_tie_goes_to_the_bank_and_more_points_win():
    view = HandScorer(player=["10♠", "7♦"], banker=["9♠", "8♠"], seed=1)
    assert winner(view) == "banker" and "17 contra 17" in view.result.value
    view.remove("player")
    view.add("player", "8♦")
    assert winner(view) == "player" and "18 contra 17" in view.result.value


def test_ace_option_changes_who_wins():
    view = HandScorer(player=["A♠", "7♥"], banker=["10♦", "7♣"], seed=1)
    assert winner(view) == "banker"
    view.ace.value = 11
    assert winner(view) == "player" and "18 contra 17" in view.result.value


def test_banker_two_card_21_and_player_bust_take_the_bet():
    assert call_winner(["10♠", "9♦"], ["A♣", "K♦"], ace=11) == "banker"
    assert "21 com duas cartas" in explain_call(["10♠", "9♦"], ["A♣", "K♦"], ace=11)
    view = HandScorer(player=["10♠", "9♦", "5♣"], banker=["9♠", "8♠", "10♥"], seed=1)
    assert winner(view) == "banker" and "Estourei" in view.result.value  # he busts before the banker


def test_banker_bust_pays_the_player():
    view = HandScorer(player=["10♠", "2♦"], banker=["9♠", "7♠", "10♥"], seed=1)
    assert winner(view) == "player" and "estoura" in view.result.value


def test_a_duplicate_card_is_refused_kindly():
    view = HandScorer(player=["10♠", "7♦"], banker=["10♠", "8♠"], seed=1)
    assert "Não é possível" in view.result.value and "10♠" in view.result.value


def test_questions_answer_at_once_keep_score_and_reach_the_index():
    view = HandScorer(seed=4)
    assert view.kind == "worth"
    view.worth.value = str(points(view.q_hand, view.q_ace))
    view.answer_button.click()
    assert "cartas-right" in view.feedback.value
    view.next_button.click()
    assert view.kind == "call" and view.feedback.value == ""
    right = view.correct_answer()
    (view.who_banker if right == "player" else view.who_player).click()
    assert "cartas-wrong" in view.feedback.value and "chama" in view.feedback.value
    assert "Acertos: 1 de 2" in view.score_label.value
    assert "1 de 2 certas" in CourseIndex(lang="pt").table.value


def test_questions_are_seeded():
    a, b = HandScorer(seed=9), HandScorer(seed=9)
    assert a.q_hand == b.q_hand and a.q_ace == b.q_ace


def test_language_switch_translates():
    view = HandScorer(player=["A♠", "7♥"], banker=["10♦", "7♣"], seed=1)
    view.language.value = "en"
    assert "The banker wins" in view.result.value and "18" not in view.result.value.split("calls")[0]
    assert view.buttons["to_player"].description == "+ player"
    assert view.card.label == "A♦  (ace of diamonds)"


def test_an_error_in_a_callback_becomes_a_friendly_message():
    view = HandScorer(seed=1)
    view.add_card = view.guarded(lambda: view.add("player", "onze de nada"))
    view.add_card()
    assert "Não é possível" in view.message.value and "onze de nada" in view.message.value
    view.guarded(lambda: 1 / 0)()
    assert "Algo deu errado" in view.message.value and "Traceback" not in view.message.value


def test_cards_after_a_finished_hand_are_left_out():
    view = HandScorer(player=["10♠", "A♦", "5♣"], banker=["9♠", "8♠"], ace=11, seed=1)
    assert winner(view) == "player" and "21 contra 17" in view.result.value
    assert "As cartas a partir de 5♣ não entram" in view.result.value


def test_a_card_already_on_the_table_is_refused_beside_the_card_picker():
    view = HandScorer(player=["A♠", "7♥"], banker=["10♦", "7♣"], seed=1)
    view.card.value = Card.parse("7♥")
    view.buttons["to_banker"].click()
    slot = view._error_slots[id(view.card)].value
    assert "7♥ já está na mesa" in slot and view.banker_cards == [Card.parse("10♦"), Card.parse("7♣")]


def test_enter_answers_and_a_second_answer_keeps_the_verdict():
    view = HandScorer(seed=2)
    assert view.kind == "worth"
    right = view.correct_answer()
    view.worth.value = str(right + 1)  # what Enter does in the number field
    assert "cartas-wrong" in view.feedback.value and view.score.asked == 1
    view.worth.value = str(right)
    view.answer_button.click()
    assert "cartas-wrong" in view.feedback.value and view.score.right == 0 and view.score.asked == 1


def test_a_worth_question_shows_a_hand_as_it_can_be_dealt():
    """The property test of tests/test_question_answers.py found "A♠ J♠ J♦, ace 11: worth 31?",
    answer 31; but the hand stops at the two-card 21 (docs/rules.md#21-stop-at-21), so the rules
    say 21. A question's hand holds no card after 21 or a bust, in the lesson and in the review."""
    from functools import partial

    import numpy as np

    from cartas.questions import draw_question
    from cartas.vinte_e_um import playable
    question = partial(draw_question, "vinte_e_um_pontos")  # the lesson's kinds, from the registry
    view = HandScorer(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(300):
        view.new_question()
        if view.kind == "worth":
            assert view.q_hand == playable(view.q_hand, view.q_ace), view.q_hand
            assert view.correct_answer() == points(playable(view.q_hand, view.q_ace), view.q_ace)
        q = question(rng)
        if q.skill == "score_21_hand":
            shown = [Card.parse(c) for c in q.key[2].split()]
            assert shown == playable(shown, q.key[1]) and q.answer == points(shown, q.key[1]), q.prompt["en"]


def test_an_empty_or_non_number_total_is_no_answer_and_is_not_scored():
    """Issue 29, item 8: the field started at 0, so *Responder* without typing was scored as
    the answer 0, wrong. The field starts empty; an empty or non-number answer gets a short
    message beside it, in the page's language, and the question stays open."""
    for lang, said in (("pt", "Escreva um número"), ("en", "Type a number")):
        view = HandScorer(seed=4, lang=lang)
        assert view.kind == "worth" and view.worth.value == ""
        for typed in ("", "   ", "vinte", "17.5", "1e3"):
            view.worth.value = typed
            view.answer_button.click()
            slot = view._error_slots[id(view.worth_box)].value
            assert said in slot and "Traceback" not in slot, typed
            assert view.score.asked == 0 and not view.answered and view.feedback.value == ""
        view.worth.value = str(view.correct_answer())  # Enter
        assert view.answered and view.score.asked == 1 and view.score.right == 1
        assert view._error_slots[id(view.worth_box)].value == ""
        view.next_button.click()
        view.next_button.click()  # a call, then a worth question again: the field is empty again
        assert view.kind == "worth" and view.worth.value == ""
