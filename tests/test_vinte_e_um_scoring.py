"""Scoring and actions, with hypothesis properties."""
import dataclasses
from itertools import product

import pytest
from hypothesis import given, strategies as st

from cartas.cards import STANDARD_PACK
from cartas.vinte_e_um import ACE_OPTIONS, KINDS, Action, IllegalAction, card_value, is_bust, is_two_card_21, points

hands = st.lists(st.sampled_from(STANDARD_PACK), min_size=1, max_size=8)


@given(hands)
def test_flexible_ace_is_the_best_total_not_over_21(hand):
    choices = [sum(v) for v in product(*[(1, 11) if c.rank.value == "A" else (card_value(c),)
                                         for c in hand])]
    fitting = [t for t in choices if t <= 21]
    assert points(hand, "flexible") == (max(fitting) if fitting else min(choices))


@given(hands, st.sampled_from(ACE_OPTIONS))
def test_totals_bust_and_two_card_21(hand, ace):
    total = points(hand, ace)
    assert points(hand, 1) <= total <= points(hand, 11)
    assert is_bust(hand, ace) == (total > 21)
    assert is_two_card_21(hand, ace) == (len(hand) == 2 and total == 21)


def test_two_card_21_needs_an_ace_worth_11():
    assert not any(is_two_card_21([a, b], 1) for a in STANDARD_PACK for b in STANDARD_PACK)
    assert is_two_card_21(["A♠", "Q♥"], 11) and is_two_card_21(["A♠", "Q♥"], "flexible")


@given(st.sampled_from(sorted(KINDS)), st.integers(0, 300))
def test_action_str_parses_back_and_is_hashable(kind, n):
    needs = KINDS[kind]
    action = Action(kind, **({needs: n} if needs else {}))
    assert Action.parse(str(action)) == action and hash(action) == hash(Action.parse(str(action)))
    assert action.describe("pt") and action.describe("en")
    with pytest.raises(dataclasses.FrozenInstanceError):
        action.kind = "hit"  # frozen


def test_action_forms_and_errors():
    assert str(Action.bet(3)) == "bet 3" and str(Action.call(2)) == "call 2"
    assert Action.parse("Take Bank") == Action("take_bank")
    assert Action.bet(2).describe() == "apostar 2 fichas" and Action.bet(1).describe("en") == "bet 1 chip"
    for bad in ("bet", "hit 3", "jump", 7):
        with pytest.raises(IllegalAction):
            Action.parse(bad)
    assert issubclass(IllegalAction, ValueError)
