"""Cartas: the engine behind the lessons. Pure Python plus numpy; no Jupyter here."""
from .cards import (
    RANKS,
    STANDARD_PACK,
    SUITS,
    TRUCO_PACK,
    Card,
    Rank,
    Suit,
    make_rng,
    parse_cards,
    shuffled,
    standard_pack,
    truco_pack,
)

__all__ = [
    "RANKS", "STANDARD_PACK", "SUITS", "TRUCO_PACK", "Card", "Rank", "Suit", "make_rng",
    "parse_cards", "shuffled", "standard_pack", "truco_pack",
]
