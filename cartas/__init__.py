"""Cartas: the engine behind the lessons. Pure Python plus numpy; no Jupyter here."""
from .cards import (
    RANKS,
    STANDARD_PACK,
    SUITS,
    TRUCO_PACK,
    Card,
    CardError,
    Rank,
    Suit,
    make_rng,
    parse_cards,
    shuffled,
    standard_pack,
    truco_pack,
)
from .errors import RuleError

__all__ = [
    "RuleError", "CardError",
    "RANKS", "STANDARD_PACK", "SUITS", "TRUCO_PACK", "Card", "Rank", "Suit", "make_rng",
    "parse_cards", "shuffled", "standard_pack", "truco_pack",
]
