"""Every finished sequence of trick results, and every three-trick combination."""
import itertools

import pytest

from cartas.truco import explain_hand, finished_sequences, hand_winner

# The whole table, written out by hand from docs/rules.md#truco-hand-ties.
EXPECTED = {
    (0, 0): 0, (1, 1): 1,                       # two tricks won
    (None, 0): 0, (None, 1): 1,                 # trick 1 tied: trick 2 decides
    (0, None): 0, (1, None): 1,                 # trick 1 won, trick 2 tied
    (None, None, 0): 0, (None, None, 1): 1,     # two ties: trick 3 decides
    (None, None, None): None,                   # all tied: nobody scores
    (0, 1, 0): 0, (0, 1, 1): 1, (1, 0, 0): 0, (1, 0, 1): 1,   # one each, trick 3 decides
    (0, 1, None): 0, (1, 0, None): 1,           # one each, trick 3 tied: trick 1 decides
}


def test_finished_sequences_lists_exactly_the_fifteen_finished_hands():
    found = finished_sequences()
    assert sorted(found, key=repr) == sorted(EXPECTED, key=repr)
    assert len(found) == len(set(found)) == 15


@pytest.mark.parametrize("results, winner", sorted(EXPECTED.items(), key=repr))
def test_every_finished_sequence(results, winner):
    assert hand_winner(results) == winner
    for lang in ("pt", "en"):
        sentence = explain_hand(results, lang)
        assert sentence.endswith(".") and len(sentence) > 20


@pytest.mark.parametrize("combo", list(itertools.product((0, 1, None), repeat=3)))
def test_every_three_trick_combination(combo):
    if combo in EXPECTED:
        assert hand_winner(combo) == EXPECTED[combo]
    else:
        # The first two tricks already decided the hand: a third one is not played.
        assert combo[:2] in EXPECTED
        with pytest.raises(ValueError, match="go on past trick 2"):
            hand_winner(combo)


@pytest.mark.parametrize("results", [[], [0], [None], [1], (0, 1), (1, 0), (None, None)])
def test_undecided_sequences_are_rejected(results):
    with pytest.raises(ValueError, match="still undecided"):
        hand_winner(results)


@pytest.mark.parametrize("results", [(0, 1, 0, 1), (None, None, None, None), (2, 0), (0, "x"),
                                     (True, 0)])
def test_malformed_sequences_are_rejected(results):
    with pytest.raises(ValueError):
        hand_winner(results)


def test_explain_hand_names_the_reason():
    assert "1ª" in explain_hand([1, 0, None], "pt") and "first trick" in explain_hand([1, 0, None], "en")
    assert "ninguém pontua" in explain_hand([None, None, None])
    assert "seats 1 and 3" in explain_hand([None, 1], "en")
