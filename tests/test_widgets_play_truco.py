"""The truco game view, played through its buttons as a learner would."""
from html import escape

import pytest

from cartas.truco import from_deal
from widgets.play_truco import PlayTruco


def visible(button):
    return button.layout.display != "none"


def take_turn(view):
    """Make one legal move through the buttons: a card if possible, else accept/play hand."""
    for index, card in enumerate(view.hand_cards.cards):
        if card["enabled"]:
            view.hand_cards.pick(index)  # what a click on the picture does
            return
    for button in (view.accept_button, view.play_hand_button):
        if visible(button):
            button.click()
            return
    raise AssertionError("no move offered on the learner's turn")


def test_a_whole_game_to_twelve_and_again():
    view = PlayTruco(seed=3, delay=0)
    moves = 0
    while not view.state.is_terminal():
        assert view.acting_seat() is not None  # the bots stop at each decision of the learner's
        take_turn(view)
        moves += 1
        assert view.last_error is None, view.message.value
    assert max(view.state.score) >= 12
    assert "Fim de jogo" in view.status.value
    assert not any(card["enabled"] for card in view.hand_cards.cards)
    assert "cartas-review-text" in view.review_box.value  # the review shows itself at the end
    view.again.click()
    assert view.state.score == (0, 0) and not view.state.is_terminal()
    assert moves > 10


def test_buttons_follow_the_legal_actions():
    # seat 1 deals, so seat 2 leads... use dealer 3: the learner (seat 0) leads the first trick
    state = from_deal("paulista", [["3♣", "2♦", "K♥"], ["4♣", "5♦", "6♥"], ["7♣", "Q♦", "J♥"],
                                   ["4♦", "5♠", "6♠"]], "7♠", dealer=3, seed=1)
    # seeded bots: unseeded ones may call truco before the trick ends (then you answer first)
    view = PlayTruco(state=state, delay=0, lang="pt", seed=1)
    assert "Sua vez" in view.status.value
    assert [card["label"] for card in view.hand_cards.cards] == ["3♣", "2♦", "K♥"]
    assert all(card["enabled"] and 'data-card="' in card["svg"] for card in view.hand_cards.cards)
    assert visible(view.raise_button) and "truco" in view.raise_button.description
    assert not visible(view.accept_button) and not visible(view.run_button)
    assert not visible(view.cover)  # no carta coberta in the first trick
    assert 'data-value="1"' in view.table.value or "data-value='1'" in view.table.value
    view.hand_cards.pick(0)
    assert "Assento 0 joga 3♣" in view.log_box.value
    assert view.state.current_seat == 0 and len(view.state.trick_results) >= 1


def test_raising_is_answered_and_narrated():
    state = from_deal("paulista", [["Q♣", "Q♥", "3♦"], ["4♣", "5♦", "6♥"], ["7♣", "Q♦", "J♥"],
                                   ["4♦", "5♠", "6♠"]], "7♠", dealer=3, seed=1)
    view = PlayTruco(state=state, delay=0)
    view.raise_button.click()
    assert "pede truco" in view.log_box.value
    assert view.last_error is None


def test_why_explains_the_last_trick_and_english_switch():
    view = PlayTruco(seed=5, delay=0, lang="en")
    view.why.click()
    assert "no trick to explain" in view.explanation.value
    while not view.state.tricks:  # a finished trick in the hand being played
        take_turn(view)
    text = view.explain()
    assert "trick" in text and ("wins" in text or "tie" in text)
    assert escape(text) in view.explanation.value
    view.language.value = "pt"
    assert "Por quê?" == view.why.description


def test_a_refused_move_leaves_the_game_unchanged():
    view = PlayTruco(seed=2, delay=0)
    before = view.state.to_json()
    with pytest.raises(ValueError):
        view.act_kind("accept")  # no raise pending: refused
    view.accept_button.click()  # through the button: a friendly message instead
    assert "Não é possível" in view.message.value
    assert view.state.to_json() == before


def test_why_explains_a_hand_that_ended_by_a_run():
    # dealer 2: seat 3 leads and calls truco at once; the learner (seat 0) answers for the team
    state = from_deal("paulista", [["4♣", "5♦", "6♥"], ["3♣", "2♦", "K♥"], ["7♣", "Q♦", "J♥"],
                                   ["4♦", "5♠", "6♠"]], "7♠", dealer=2, seed=1)
    state.apply_action("raise 3")
    view = PlayTruco(state=state, delay=0, lang="pt")
    view.run_button.click()
    assert view.state.hand_number == 2 and view.state.tricks == []
    view.why.click()
    assert ("O assento 0 correu do pedido de truco (3): a dupla B (assentos 1 e 3) leva a mão "
            "e 1 ponto") in view.explanation.value


def test_the_forbidden_raise_button_warns_and_loses_the_game():
    state = from_deal("paulista", [["Q♣", "Q♥", "3♦"], ["4♣", "5♦", "6♥"], ["7♣", "Q♦", "J♥"],
                                   ["4♦", "5♠", "6♠"]], "7♠", dealer=3, score=(11, 4), seed=1)
    view = PlayTruco(state=state, delay=0, lang="pt")
    view.play_hand_button.click()
    assert view.state.raise_forbidden and visible(view.raise_button)
    assert view.raise_button.description == "Pedir truco (perde o jogo!)"
    assert "mão de onze" in view.raise_button.tooltip and "perde o jogo" in view.raise_button.tooltip
    view.language.value = "en"
    assert view.raise_button.description == "Call truco (loses the game!)"
    view.raise_button.click()
    assert view.state.is_terminal() and view.state.winner == 1
    assert "other team won" in view.status.value and "calls truco" in view.log_box.value
