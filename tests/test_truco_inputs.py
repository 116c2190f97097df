"""Loose input is refused with a RuleError in both languages: seeds, hands, counts, cards."""
import numpy as np
import pytest

from cartas.cards import CardError, make_rng, parse_cards, standard_pack
from cartas.errors import RuleError
from cartas.truco import MINEIRO, PAULISTA, Action, TrucoError, from_deal, hand_odds, narrate, new_game, trick_winner

PLAIN = [["3♦", "K♦", "4♦"], ["2♠", "J♠", "5♠"], ["A♥", "Q♥", "6♥"], ["K♣", "5♣", "6♣"]]


def says_why(error: RuleError) -> None:
    assert error.message("pt") != error.message("en") and str(error) == error.message("en")


@pytest.mark.parametrize("seed", ["7", 7.5, True, False, -1, 2 ** 128, [7], object()])
def test_a_seed_is_none_a_whole_number_or_a_generator(seed):
    with pytest.raises(CardError) as info:
        make_rng(seed)
    assert info.value.code == "bad_seed"
    says_why(info.value)
    with pytest.raises(RuleError):
        new_game(PAULISTA, seed)
    with pytest.raises(RuleError):
        from_deal(MINEIRO, PLAIN, seed=seed)


def test_good_seeds_replay_and_a_generator_is_shared():
    assert new_game(PAULISTA, 7).to_json() == new_game(PAULISTA, np.int64(7)).to_json()
    rng = np.random.default_rng(3)
    assert make_rng(rng) is rng and make_rng(None) is not None


@pytest.mark.parametrize("texts", [None, 7, 7.5, {"7♥"}, b"7\xe2\x99\xa5"])
def test_parse_cards_takes_a_text_or_a_list_only(texts):
    with pytest.raises(CardError) as info:
        parse_cards(texts)
    says_why(info.value)


def test_parse_cards_and_packs_have_sane_limits():
    with pytest.raises(CardError):
        parse_cards(["7♥"] * 1001)
    for packs in (0, True, 9, 10 ** 6, 1.0):
        with pytest.raises(CardError):
            standard_pack(packs)


@pytest.mark.parametrize("hands, code", [
    (None, "not_hands"), (7, "not_hands"), ("3♦ K♦ 4♦", "not_hands"),
    ([None, None, None, None], "not_hands"), (PLAIN[:3], "four_hands"),
])
def test_a_deal_needs_four_hands(hands, code):
    with pytest.raises(TrucoError) as info:
        from_deal(MINEIRO, hands)
    assert info.value.code == code
    says_why(info.value)


@pytest.mark.parametrize("call", [
    lambda: from_deal(MINEIRO, PLAIN, dealer=True),
    lambda: from_deal(MINEIRO, PLAIN, dealer=1.0),
    lambda: from_deal(MINEIRO, PLAIN, score=(True, 0)),
    lambda: from_deal(MINEIRO, PLAIN, score=None),
    lambda: from_deal(MINEIRO, PLAIN, tie_lead=None),
    lambda: new_game(PAULISTA, 1, tie_lead=["leader"]),
    lambda: new_game(None, 1),
    lambda: new_game(PAULISTA, 1).view(True),
    lambda: new_game(PAULISTA, 1).view("0"),
    lambda: Action.blind(True),
    lambda: Action.raise_to(True),
    lambda: Action.raise_to(13),
    lambda: Action.parse("raise " + "9" * 5000),
    lambda: trick_winner(None, MINEIRO),
    lambda: trick_winner([(0, "3♦")] * 5, MINEIRO),
    lambda: trick_winner([(True, "3♦")], MINEIRO),
    lambda: hand_odds(PAULISTA, ["3♦", "K♦", "4♦"], "7♣", simulations=10 ** 9),
    lambda: hand_odds(PAULISTA, ["3♦", "K♦", "4♦"], "7♣", simulations=True),
    lambda: hand_odds(PAULISTA, None, "7♣"),
    lambda: narrate({"type": "banana"}),
    lambda: narrate("deal"),
])
def test_loose_types_and_counts_are_refused_with_a_rule_error(call):
    with pytest.raises(RuleError) as info:
        call()
    says_why(info.value)


def test_a_spectator_view_sees_no_hand_and_no_face_down_card():
    s = from_deal(MINEIRO, PLAIN, dealer=3)
    for a in ("play 3♦", "play 5♠", "play 6♥", "play 6♣", "cover K♦"):
        s.apply_action(a)
    v = s.view(None)
    assert v.seat is None and v.team is None and v.hand == () and not v.is_my_turn
    assert all(c is None for h in v.hands for c in h) and v.legal_actions() == []
    assert all(h == [None] * 3 for h in v.events[0]["hands"])
    assert [e for e in v.events if e["type"] == "play"][-1]["card"] is None
