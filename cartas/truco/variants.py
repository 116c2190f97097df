"""Truco variants, manilhas and the strength of every card.

All of a variant's numbers live in one `Variant` object: `PAULISTA` and `MINEIRO`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..cards import SUITS, TRUCO_PACK, Card, Rank, Suit
from .catalogue import threshold_name
from .errors import TrucoError

# Natural order of the truco ranks, lowest to highest. Q (dama) is below J (valete).
NATURAL_ORDER: tuple[Rank, ...] = (
    Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.QUEEN,
    Rank.JACK, Rank.KING, Rank.ACE, Rank.TWO, Rank.THREE,
)
_NATURAL_INDEX = {rank: i for i, rank in enumerate(NATURAL_ORDER)}


@dataclass(frozen=True, eq=False)  # identity: there is one object per variant
class Variant:
    """Everything that differs between Truco Paulista and Truco Mineiro."""

    key: str                      # "paulista" or "mineiro"
    label: dict[str, str]         # {"pt": ..., "en": ...}
    uses_vira: bool
    fixed_manilhas: tuple[Card, ...] | None  # weakest first; None when derived from the vira
    base_value: int               # what a hand is worth before any raise
    ladder: tuple[int, ...]       # values a raise may reach, in order
    raise_names: tuple[str, ...]  # what a player shouts for each ladder step
    threshold: int                # mão de onze (11) / mão de dez (10)
    threshold_value: int          # the value of a hand played at the threshold
    threshold_run_value: int      # what the other team scores if the threshold team runs
    target: int = 12              # points that win the game
    manilha_names: tuple[str, ...] = ()  # nicknames, weakest first

    def __str__(self) -> str:
        return self.key

    def __repr__(self) -> str:
        return f"cartas.truco.{self.key.upper()}"

    @property
    def values(self) -> tuple[int, ...]:
        """Every value a normal hand can have: the base, then the raises."""
        return (self.base_value, *self.ladder)

    def next_value(self, value: int) -> int | None:
        """The ladder step above `value`, or None at the top."""
        for step in self.ladder:
            if step > value:
                return step
        return None

    def run_pays(self, asked_value: int) -> int:
        """What the raising team scores if the other team runs from a raise to `asked_value`:
        the value before that raise. For a re-raise this is the raise it answered, which
        re-raising accepted (Paulista: truco, then seis, then a run pays 3)."""
        if asked_value not in self.ladder:
            raise TrucoError("not_a_raise", value=repr(asked_value),
                             ladder=", ".join(map(str, self.ladder)))
        values = self.values
        return values[values.index(asked_value) - 1]

    @property
    def threshold_name(self) -> str:
        """ "mão de onze" (Paulista) or "mão de dez" (Mineiro)."""
        return threshold_name(self.threshold)

    def raise_name(self, value: int) -> str:
        """The shout that raises to `value`: 'truco', 'seis', 'nove', 'dez' or 'doze'."""
        return self.raise_names[self.ladder.index(value)]


PAULISTA = Variant(
    key="paulista",
    label={"pt": "Truco Paulista", "en": "Truco Paulista"},
    uses_vira=True,
    fixed_manilhas=None,
    base_value=1,
    ladder=(3, 6, 9, 12),
    raise_names=("truco", "seis", "nove", "doze"),
    threshold=11,
    threshold_value=3,
    threshold_run_value=1,
    manilha_names=("pica-fumo", "espadilha", "copas", "zap"),
)

MINEIRO = Variant(
    key="mineiro",
    label={"pt": "Truco Mineiro", "en": "Truco Mineiro"},
    uses_vira=False,
    fixed_manilhas=(
        Card(Rank.SEVEN, Suit.OUROS),   # pica-fumo
        Card(Rank.ACE, Suit.ESPADAS),   # espadilha
        Card(Rank.SEVEN, Suit.COPAS),   # copas (sete copas)
        Card(Rank.FOUR, Suit.PAUS),     # zap
    ),
    base_value=2,
    ladder=(4, 6, 10, 12),
    raise_names=("truco", "seis", "dez", "doze"),
    threshold=10,
    threshold_value=4,
    threshold_run_value=2,
    manilha_names=("pica-fumo", "espadilha", "sete copas", "zap"),
)

VARIANTS = {PAULISTA.key: PAULISTA, MINEIRO.key: MINEIRO}


def get_variant(variant: Variant | str) -> Variant:
    """Accept a Variant or its key ("paulista", "mineiro")."""
    if isinstance(variant, Variant):
        return variant
    found = VARIANTS.get(variant.strip().lower()) if isinstance(variant, str) else None
    if found is None:
        raise TrucoError("unknown_variant", variant=repr(variant)[:40])
    return found


def _check_vira(variant: Variant, vira: Card | str | None) -> Card | None:
    if not variant.uses_vira:
        return None  # Mineiro ignores any vira: its manilhas are fixed.
    if vira is None:
        raise TrucoError("needs_vira")
    try:
        card = Card.parse(vira)
    except ValueError:
        raise TrucoError("unreadable_card", text=str(vira)[:40], place="vira") from None
    if card.rank not in _NATURAL_INDEX:
        raise TrucoError("bad_vira", card=str(card))
    return card


def next_rank(rank: Rank) -> Rank:
    """The rank after `rank` in the natural order, wrapping 3 -> 4."""
    if rank not in _NATURAL_INDEX:
        raise TrucoError("not_truco_rank", rank=str(getattr(rank, "value", rank)))
    return NATURAL_ORDER[(_NATURAL_INDEX[rank] + 1) % len(NATURAL_ORDER)]


def manilha_rank(vira: Card | str | None) -> Rank:
    """Paulista: the rank of the manilhas for this vira."""
    card = _check_vira(PAULISTA, vira)
    assert card is not None  # Paulista uses a vira: `_check_vira` refused a missing one
    return next_rank(card.rank)


def manilhas(variant: Variant | str, vira: Card | str | None = None) -> tuple[Card, ...]:
    """The four manilhas, weakest first."""
    variant = get_variant(variant)
    return _manilhas(variant, _check_vira(variant, vira))


@cache
def _manilhas(variant: Variant, vira: Card | None) -> tuple[Card, ...]:
    if variant.fixed_manilhas is not None:
        return variant.fixed_manilhas
    assert vira is not None  # a variant without fixed manilhas uses a vira (`_check_vira`)
    rank = next_rank(vira.rank)
    return tuple(Card(rank, suit) for suit in SUITS)


def strength_table(variant: Variant | str, vira: Card | str | None = None) -> dict[Card, int]:
    """Strength of each of the 40 cards: 0..9 by natural rank, 10..13 for the manilhas.

    Equal numbers mean equal cards (suits only matter among the manilhas).
    """
    variant = get_variant(variant)
    return _strength_table(variant, _check_vira(variant, vira))


@cache
def _strength_table(variant: Variant, vira: Card | None) -> dict[Card, int]:
    table = {card: _NATURAL_INDEX[card.rank] for card in TRUCO_PACK}
    for i, card in enumerate(_manilhas(variant, vira)):
        table[card] = len(NATURAL_ORDER) + i
    return table


def ranking(variant: Variant | str, vira: Card | str | None = None) -> list[list[Card]]:
    """All 40 cards grouped by strength, weakest group first; cards in a group are equal."""
    table = strength_table(variant, vira)
    groups: dict[int, list[Card]] = {}
    for card in TRUCO_PACK:
        groups.setdefault(table[card], []).append(card)
    return [sorted(groups[k], key=lambda c: c.suit.order) for k in sorted(groups)]


def is_manilha(card: Card | str, variant: Variant | str, vira: Card | str | None = None) -> bool:
    return Card.parse(card) in manilhas(variant, vira)
