"""Manilhas and card strength, docs/rules.md#truco-paulista and #truco-mineiro."""
import pytest
from hypothesis import given, strategies as st

from cartas.cards import TRUCO_PACK, Card, Rank, Suit
from cartas.truco import MINEIRO, NATURAL_ORDER, PAULISTA, get_variant, manilhas, next_rank, ranking, strength_table


def cards(text):
    return tuple(Card.parse(t) for t in text.split())


def test_natural_order_puts_dama_below_valete():
    symbols = [r.value for r in NATURAL_ORDER]
    assert symbols == ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]


@pytest.mark.parametrize("vira, expected", [
    ("6♦", "7♦ 7♠ 7♥ 7♣"),   # the seed's own examples
    ("7♠", "Q♦ Q♠ Q♥ Q♣"),
    ("3♥", "4♦ 4♠ 4♥ 4♣"),   # wraps around
    ("K♣", "A♦ A♠ A♥ A♣"),
    ("Q♦", "J♦ J♠ J♥ J♣"),
])
def test_paulista_manilhas_follow_the_vira_weakest_first(vira, expected):
    assert manilhas(PAULISTA, vira) == cards(expected)


def test_mineiro_manilhas_are_fixed_and_need_no_vira():
    assert manilhas(MINEIRO) == cards("7♦ A♠ 7♥ 4♣")
    assert manilhas("mineiro", "K♠") == manilhas(MINEIRO)


@pytest.mark.parametrize("vira", ["8♦", "10♠", "9♥"])
def test_vira_outside_the_truco_pack_is_refused(vira):
    with pytest.raises(ValueError, match=f"{vira} cannot be the vira"):
        manilhas(PAULISTA, vira)


def test_paulista_without_vira_is_refused():
    with pytest.raises(ValueError, match="needs a vira"):
        manilhas(PAULISTA)


def test_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown truco variant 'goiano'"):
        get_variant("goiano")


def test_next_rank_wraps_from_three_to_four():
    assert next_rank(Rank.THREE) == Rank.FOUR
    with pytest.raises(ValueError, match="not a truco rank"):
        next_rank(Rank.EIGHT)


@given(st.sampled_from(TRUCO_PACK))
def test_manilhas_beat_every_other_card_and_rank_by_suit(vira):
    table = strength_table(PAULISTA, vira)
    four = manilhas(PAULISTA, vira)
    others = [c for c in TRUCO_PACK if c not in four]
    assert min(table[m] for m in four) > max(table[c] for c in others)
    assert [m.suit for m in four] == [Suit.OUROS, Suit.ESPADAS, Suit.COPAS, Suit.PAUS]
    assert [table[m] for m in four] == sorted({table[m] for m in four})


@given(st.sampled_from(TRUCO_PACK), st.sampled_from(TRUCO_PACK), st.sampled_from(TRUCO_PACK))
def test_outside_the_manilhas_suit_does_not_matter(vira, a, b):
    table = strength_table(PAULISTA, vira)
    four = manilhas(PAULISTA, vira)
    if a not in four and b not in four:
        assert (table[a] == table[b]) == (a.rank == b.rank)
        if a.rank != b.rank:
            assert (table[a] > table[b]) == (NATURAL_ORDER.index(a.rank) > NATURAL_ORDER.index(b.rank))


def test_ranking_groups_all_forty_cards():
    groups = ranking(PAULISTA, "K♠")
    assert sum(len(g) for g in groups) == 40
    assert len(groups) == 9 + 4  # nine plain ranks, four single manilhas
    assert groups[-1] == [Card.parse("A♣")]
    assert groups[0] == list(cards("4♦ 4♠ 4♥ 4♣"))


def test_mineiro_ranking_keeps_the_other_fours_sevens_and_aces_in_natural_order():
    table = strength_table(MINEIRO)
    assert table[Card.parse("4♦")] == table[Card.parse("4♥")] == 0
    assert table[Card.parse("7♠")] == table[Card.parse("7♣")]
    assert table[Card.parse("A♦")] < table[Card.parse("2♦")]
    assert table[Card.parse("4♣")] > table[Card.parse("7♥")] > table[Card.parse("A♠")] > table[Card.parse("7♦")]
    assert table[Card.parse("7♦")] > table[Card.parse("3♠")]
