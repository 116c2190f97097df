"""The numpy odds against the engine itself, its determinism and its refusals."""
import itertools

import pytest

from cartas.truco import hand_winner
from cartas.truco.odds import TIE, engine_odds, hand_odds, hand_tables

POSITIONS = [
    ("paulista", ["3♣", "2♦", "K♥"], "7♠", 0),
    ("paulista", ["4♣", "5♦", "6♥"], "7♠", 3),
    ("mineiro", ["A♥", "2♣", "Q♦"], None, 1),
]


@pytest.mark.parametrize("variant,hand,vira,position", POSITIONS)
def test_numpy_odds_agree_with_the_engine_and_rule_bot(variant, hand, vira, position):
    fast = hand_odds(variant, hand, vira, position, simulations=60_000, seed=1)
    slow = engine_odds(variant, hand, vira, position, simulations=700, seed=2)
    assert fast.hand_win == pytest.approx(slow.hand_win, abs=0.06)
    for k in range(3):
        assert fast.trick_win[k] == pytest.approx(slow.trick_win[k], abs=0.06)
        assert fast.trick_played[k] == pytest.approx(slow.trick_played[k], abs=0.06)


def test_the_same_seed_gives_the_same_odds_and_another_seed_differs():
    args = ("paulista", ["3♣", "2♦", "K♥"], "7♠", 2)
    assert hand_odds(*args, simulations=5000, seed=9) == hand_odds(*args, simulations=5000, seed=9)
    assert hand_odds(*args, simulations=5000, seed=9) != hand_odds(*args, simulations=5000, seed=10)


def test_sure_hands_win_and_fractions_add_up():
    # the three best Mineiro manilhas take the hand whatever the others hold
    odds = hand_odds("mineiro", ["4♣", "7♥", "A♠"], None, 3, simulations=4000, seed=1)
    assert odds.hand_win == 1.0
    weak = hand_odds("paulista", ["4♦", "5♠", "6♥"], "K♣", 0, simulations=4000, seed=1)
    assert weak.hand_win < 0.3
    for o in (odds, weak):
        assert o.hand_win + o.hand_loss + o.hand_none == pytest.approx(1.0)
        for k in range(3):
            total = o.trick_win[k] + o.trick_tie[k] + o.trick_loss[k]
            assert total == pytest.approx(o.trick_played[k])


def test_hand_table_comes_from_the_engine():
    result, third = hand_tables()
    for a, b, c in itertools.product((0, 1, None), repeat=3):
        code = lambda r: TIE if r is None else r  # noqa: E731
        idx = code(a) * 9 + code(b) * 3 + code(c)
        try:
            winner, played = hand_winner((a, b)), False
        except ValueError:
            winner, played = hand_winner((a, b, c)), True
        assert result[idx] == code(winner) and third[idx] == played


def test_seen_cards_and_the_partners_hand_change_the_odds():
    base = hand_odds("paulista", ["K♦", "K♠", "5♥"], "7♠", 1, simulations=20_000, seed=3)
    # every manilha (the Qs) seen on the table: nobody else can hold one
    seen = hand_odds("paulista", ["K♦", "K♠", "5♥"], "7♠", 1, simulations=20_000, seed=3,
                     seen=["Q♦", "Q♠", "Q♥", "Q♣"])
    assert seen.hand_win > base.hand_win + 0.02
    partner = hand_odds("paulista", ["K♦", "K♠", "5♥"], "7♠", 1, simulations=20_000, seed=3,
                        partner=["Q♣", "Q♥", "3♦"])
    assert partner.hand_win > 0.85


@pytest.mark.parametrize("kwargs,phrase", [
    (dict(hand=["3♣", "2♦"]), "3 cards"),
    (dict(hand=["3♣", "2♦", "9♥"]), "not in the truco pack"),
    (dict(vira="3♣"), "3♣ is the vira"),
    (dict(hand=["3♣", "2♦", "3♣"]), "3♣ appears twice in your hand"),
    (dict(seen=["K♥"]), "K♥ is in your hand and also among the cards seen"),
    (dict(seen=["7♠"]), "7♠ is the vira, so it cannot also be in the cards seen"),
    (dict(seen=["4♦", "4♦"]), "4♦ appears twice in the cards seen"),
    (dict(vira=None), "needs a vira"),
    (dict(position=4), "position"),
])
def test_bad_questions_are_refused(kwargs, phrase):
    args = dict(variant="paulista", hand=["3♣", "2♦", "K♥"], vira="7♠", position=0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=phrase):
        hand_odds(**args, simulations=100)
