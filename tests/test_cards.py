"""Cards, parsing and packs."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from cartas.cards import (
    STANDARD_PACK,
    TRUCO_PACK,
    Card,
    CardError,
    Rank,
    Suit,
    lazy_rng,
    make_rng,
    parse_cards,
    shuffled,
    standard_pack,
    truco_pack,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("text, rank, suit", [
    ("7♥", Rank.SEVEN, Suit.COPAS),
    ("10♦", Rank.TEN, Suit.OUROS),
    ("Q♠", Rank.QUEEN, Suit.ESPADAS),
    ("7 de copas", Rank.SEVEN, Suit.COPAS),
    ("ás de espadas", Rank.ACE, Suit.ESPADAS),
    ("Ás de Espadas", Rank.ACE, Suit.ESPADAS),
    ("AS DE ESPADAS", Rank.ACE, Suit.ESPADAS),
    ("dama de ouros", Rank.QUEEN, Suit.OUROS),
    ("valete de paus", Rank.JACK, Suit.PAUS),
    ("rei de copas", Rank.KING, Suit.COPAS),
    ("três de paus", Rank.THREE, Suit.PAUS),
    ("  k♣ ", Rank.KING, Suit.PAUS),
    ("7♥️", Rank.SEVEN, Suit.COPAS),  # with an emoji variation selector
])
def test_parse_reads_symbols_and_portuguese_words(text, rank, suit):
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "7", "♥", "11♥", "7x", "sete", "ás de nada", "joker", "1♦"])
def test_parse_rejects_what_is_not_a_card_naming_the_text(text):
    with pytest.raises(ValueError, match=repr(text).replace("\\", "\\\\")):
        Card.parse(text)


def test_parse_rejects_non_text():
    with pytest.raises(ValueError, match="cannot read a card from 7"):
        Card.parse(7)


@given(st.sampled_from(STANDARD_PACK))
def test_str_round_trips_through_parse(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(card.name("pt")) == card
    assert Card.parse(card.name("en")) == card


def test_cards_are_immutable_and_hashable():
    card = Card.parse("7♥")
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE
    assert {card, Card.parse("7 de copas")} == {card}


def test_spoken_names():
    assert Card.parse("A♠").name() == "ás de espadas"
    assert Card.parse("Q♦").name("en") == "queen of diamonds"


def test_parse_cards_reads_lists_and_strings():
    assert [str(c) for c in parse_cards("7♥ A♠, 10♦")] == ["7♥", "A♠", "10♦"]
    assert [str(c) for c in parse_cards("7 de copas, dez de ouros")] == ["7♥", "10♦"]
    assert parse_cards(["K♣", Card.parse("2♦")]) == [Card.parse("K♣"), Card.parse("2♦")]


def test_truco_pack_has_forty_cards_without_eights_nines_tens():
    pack = truco_pack()
    assert len(pack) == len(set(pack)) == 40
    assert not {c.rank for c in pack} & {Rank.EIGHT, Rank.NINE, Rank.TEN}
    assert set(pack) == set(TRUCO_PACK)


def test_standard_pack_one_or_more():
    assert len(set(standard_pack())) == 52
    two = standard_pack(2)
    assert len(two) == 104 and set(two) == set(STANDARD_PACK)
    with pytest.raises(ValueError, match="from 1 to 8"):
        standard_pack(0)


def test_seeded_shuffle_replays_and_differs_between_seeds():
    first = shuffled(TRUCO_PACK, 7)
    assert first == shuffled(TRUCO_PACK, 7)
    assert first != shuffled(TRUCO_PACK, 8)
    assert sorted(first, key=TRUCO_PACK.index) == list(TRUCO_PACK)


def test_make_rng_accepts_a_generator():
    rng = np.random.default_rng(3)
    assert make_rng(rng) is rng


def test_lazy_rng_checks_the_seed_at_once_with_make_rngs_rule():
    for bad in ("7", 7.5, True, -1, 2 ** 128):
        with pytest.raises(CardError, match="seed|semente"):
            lazy_rng(bad)


def test_lazy_rng_makes_one_generator_on_first_use_and_replays_make_rng():
    rng = lazy_rng(7)
    first = rng()
    assert rng() is first
    assert list(first.integers(1000, size=5)) == list(make_rng(7).integers(1000, size=5))
    shared = np.random.default_rng(1)
    assert lazy_rng(shared)() is shared


def test_cards_rules_and_a_lazy_rng_load_no_numpy_until_a_draw():
    code = ("import sys\n"
            "from cartas.cards import Card, lazy_rng\n"
            "from cartas.truco import manilhas, ranking, strength_table\n"
            "rng = lazy_rng(3)\n"
            "manilhas('paulista', vira=Card.parse('K♠')); ranking('mineiro')\n"
            "assert 'numpy' not in sys.modules, 'numpy loaded before any draw'\n"
            "rng().integers(40)\n"
            "assert 'numpy' in sys.modules\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
