"""Cards, packs and seeded shuffling.

A `Card` is a small immutable value: `Card.parse("7♥")`, `Card.parse("ás de espadas")`,
and `str(card)` gives the symbol form, which parses back.

numpy is imported by the first `make_rng` call, not with this module: a dashboard that shows
cards without drawing any (the manilha explorer before its first draw) never loads it.
"""
from __future__ import annotations

import enum
import functools
import sys
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .catalogue import Catalogue
from .errors import RuleError

if TYPE_CHECKING:
    import numpy as np

CATALOGUE = Catalogue("cards", {
    "unreadable_card": ("“{text}” não se lê como carta: escreva como “7♥”, “10♦” ou "
                        "“7 de copas”",
                        "cannot read a card from '{text}': write it as '7♥', '10♦' or "
                        "'7 de copas'"),
    "not_card_text": ("{value} não é uma carta: escreva um texto como “7♥”",
                      "cannot read a card from {value}: expected text such as '7♥'"),
    "not_cards": ("as cartas são um texto (“7♥ A♠”) ou uma lista de cartas, não {value}",
                  "cards are a text ('7♥ A♠') or a list of cards, not {value}"),
    "too_many_cards": ("são cartas demais: no máximo {top}, não {n}",
                       "too many cards: at most {top}, not {n}"),
    "bad_seed": ("a semente é um número inteiro de 0 a 2^128 - 1, um gerador do numpy ou "
                 "nada (None), não {value}",
                 "a seed is a whole number from 0 to 2^128 - 1, a numpy Generator or None, "
                 "not {value}"),
    "bad_packs": ("o número de baralhos é um inteiro de 1 a {top}, não {value}",
                  "the number of packs is a whole number from 1 to {top}, not {value}"),
    # a card's name in words, as a screen reader says it (`Card.spoken`, `FACE_DOWN`)
    "spoken": ("{rank} de {suit}", "{rank} of {suit}"),
    "face_down": ("carta virada para baixo", "face-down card"),
})
MAX_CARDS = 1000     # `parse_cards` reads at most this many cards
MAX_PACKS = 8        # `standard_pack` joins at most this many packs
SEED_LIMIT = 2 ** 128


class CardError(RuleError):
    """A card, a list of cards, a pack size or a seed that cannot be used; says why."""

    catalogue = CATALOGUE


def _shown(value: object) -> str:
    """A short repr of a refused value, for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Suit(enum.Enum):
    """The four suits, in the truco manilha order: ouros < espadas < copas < paus."""

    OUROS = "♦"
    ESPADAS = "♠"
    COPAS = "♥"
    PAUS = "♣"

    @property
    def symbol(self) -> str:
        return self.value

    @property
    def order(self) -> int:
        """Position in the manilha order, 0 (ouros) to 3 (paus)."""
        return _SUIT_ORDER[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.OUROS, Suit.COPAS)

    def name_in(self, lang: str = "pt") -> str:
        return _SUIT_NAMES[lang][self]


class Rank(enum.Enum):
    """Card ranks; the value is the symbol printed on the card."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def symbol(self) -> str:
        return self.value

    def name_in(self, lang: str = "pt") -> str:
        return _RANK_NAMES[lang][self]


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
_SUIT_ORDER = {suit: i for i, suit in enumerate(SUITS)}

_RANK_NAMES = {
    "pt": {Rank.ACE: "ás", Rank.JACK: "valete", Rank.QUEEN: "dama", Rank.KING: "rei"},
    "en": {Rank.ACE: "ace", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"},
}
for _names in _RANK_NAMES.values():
    for _rank in RANKS:
        _names.setdefault(_rank, _rank.value)

# every rank in words, for `Card.spoken` ("sete de copas" / "seven of hearts")
_RANK_WORDS_SPOKEN = {
    "pt": {**_RANK_NAMES["pt"], Rank.TWO: "dois", Rank.THREE: "três", Rank.FOUR: "quatro", Rank.FIVE: "cinco",
           Rank.SIX: "seis", Rank.SEVEN: "sete", Rank.EIGHT: "oito", Rank.NINE: "nove", Rank.TEN: "dez"},
    "en": {**_RANK_NAMES["en"], Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "four", Rank.FIVE: "five",
           Rank.SIX: "six", Rank.SEVEN: "seven", Rank.EIGHT: "eight", Rank.NINE: "nine", Rank.TEN: "ten"},
}

_SUIT_NAMES = {
    "pt": {Suit.OUROS: "ouros", Suit.ESPADAS: "espadas", Suit.COPAS: "copas", Suit.PAUS: "paus"},
    "en": {Suit.OUROS: "diamonds", Suit.ESPADAS: "spades", Suit.COPAS: "hearts", Suit.PAUS: "clubs"},
}


def _fold(text: str) -> str:
    """Lower case without accents or variation selectors, so "Ás" == "as" and "♥️" == "♥"."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c) and c != "\ufe0f")


_RANK_WORDS: dict[str, Rank] = {rank.value.lower(): rank for rank in RANKS}
_RANK_WORDS.update({
    "as": Rank.ACE, "a": Rank.ACE, "ace": Rank.ACE,
    "dois": Rank.TWO, "duque": Rank.TWO, "tres": Rank.THREE, "terno": Rank.THREE,
    "quatro": Rank.FOUR, "cinco": Rank.FIVE, "seis": Rank.SIX, "sete": Rank.SEVEN,
    "oito": Rank.EIGHT, "nove": Rank.NINE, "dez": Rank.TEN,
    "valete": Rank.JACK, "dama": Rank.QUEEN, "rei": Rank.KING,
    "jack": Rank.JACK, "queen": Rank.QUEEN, "king": Rank.KING,
    "two": Rank.TWO, "three": Rank.THREE, "four": Rank.FOUR, "five": Rank.FIVE, "six": Rank.SIX,
    "seven": Rank.SEVEN, "eight": Rank.EIGHT, "nine": Rank.NINE, "ten": Rank.TEN,
})
_SUIT_WORDS: dict[str, Suit] = {suit.value: suit for suit in SUITS}
_SUIT_WORDS.update({"♡": Suit.COPAS, "♢": Suit.OUROS, "♤": Suit.ESPADAS, "♧": Suit.PAUS})
for _suit in SUITS:
    _plural = _SUIT_NAMES["pt"][_suit]
    _SUIT_WORDS[_plural] = _suit
    _SUIT_WORDS[_plural[:-1]] = _suit  # "copa", "ouro", "espada", "pau"
    _SUIT_WORDS[_SUIT_NAMES["en"][_suit]] = _suit


_PACK_TEXT: dict[int, str] = {}  # filled once the packs are made (below `Card`)
_PACK_HASH: dict[int, int] = {}  # id -> hash of the packs' own cards (an enum hashes slowly), likewise


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """A playing card. Immutable and hashable; `str()` gives e.g. "7♥"."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        text = _PACK_TEXT.get(id(self))  # a pack's own card: its text worked out once
        return text if text is not None else f"{self.rank.value}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __hash__(self) -> int:
        # the dataclass's own hash, hash((rank, suit)), read from a table for a pack's own card
        found = _PACK_HASH.get(id(self))
        return found if found is not None else hash((self.rank, self.suit))

    def name(self, lang: str = "pt") -> str:
        """Spoken name: "7 de copas" / "7 of hearts"."""
        joiner = " de " if lang == "pt" else " of "
        return self.rank.name_in(lang) + joiner + self.suit.name_in(lang)

    def spoken(self, lang: str = "pt") -> str:
        """The name in words, as a screen reader should say it: "sete de copas" / "seven of
        hearts" (`name` keeps the digits: "7 de copas"). Parses back."""
        return CATALOGUE.say("spoken", lang, rank=_RANK_WORDS_SPOKEN[lang][self.rank],
                             suit=self.suit.name_in(lang))

    @classmethod
    def parse(cls, text: object) -> Card:
        """Read "7♥", "10♦", "Q♠", "7 de copas", "Ás de Espadas", "dama de ouros"...

        Raises CardError (a RuleError, so a ValueError) naming the text when it is not a card.
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError("not_card_text", value=_shown(text))
        folded = _fold(text)
        rank_part = suit_part = None
        if " de " in folded or " of " in folded:
            sep = " de " if " de " in folded else " of "
            rank_part, _, suit_part = folded.partition(sep)
        elif folded and folded[-1] in _SUIT_WORDS:
            rank_part, suit_part = folded[:-1], folded[-1]
        rank = _RANK_WORDS.get((rank_part or "").strip())
        suit = _SUIT_WORDS.get((suit_part or "").strip())
        if rank is None or suit is None:
            raise CardError("unreadable_card", text=text[:40])
        return cls(rank, suit)


def face_down_name(lang: str = "pt") -> str:
    """What a card the viewer may not see is called aloud: "carta virada para baixo" / "face-down card"."""
    return CATALOGUE.say("face_down", lang)


def parse_cards(texts: str | Iterable[str | Card]) -> list[Card]:
    """Parse several cards: a list, or one string separated by commas or spaces ("7♥ A♠").

    Anything else (None, a number...) and more than `MAX_CARDS` cards raise CardError."""
    if isinstance(texts, str):
        if len(texts) > 40 * MAX_CARDS:
            raise CardError("too_many_cards", top=MAX_CARDS, n=len(texts.split()))
        # Spoken names contain spaces ("7 de copas"), so then only commas separate cards.
        spoken = " de " in f" {_fold(texts)} " or " of " in _fold(texts)
        parts = texts.split(",") if spoken else texts.replace(",", " ").split()
        items = [t for t in parts if t.strip()]
    elif isinstance(texts, (list, tuple)):
        items = list(texts)
    else:
        raise CardError("not_cards", value=_shown(texts))
    if len(items) > MAX_CARDS:
        raise CardError("too_many_cards", top=MAX_CARDS, n=len(items))
    return [Card.parse(item) for item in items]


TRUCO_RANKS: tuple[Rank, ...] = tuple(r for r in RANKS if r not in (Rank.EIGHT, Rank.NINE, Rank.TEN))
TRUCO_PACK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in TRUCO_RANKS)
STANDARD_PACK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)
# id -> text of the packs' own cards, which live as long as the module: no other object can
# share an id with one of them (`Card.__str__` reads it; an enum's `.value` is slow to read)
_PACK_TEXT.update({id(card): f"{card.rank.value}{card.suit.value}" for card in TRUCO_PACK + STANDARD_PACK})
_PACK_HASH.update({id(card): hash((card.rank, card.suit)) for card in TRUCO_PACK + STANDARD_PACK})


def truco_pack() -> list[Card]:
    """The 40-card truco pack (no 8s, 9s, 10s or jokers), in a fixed order."""
    return list(TRUCO_PACK)


def standard_pack(packs: int = 1) -> list[Card]:
    """One or more 52-card packs without jokers, in a fixed order."""
    if not isinstance(packs, int) or isinstance(packs, bool) or not 1 <= packs <= MAX_PACKS:
        raise CardError("bad_packs", top=MAX_PACKS, value=_shown(packs))
    return list(STANDARD_PACK) * packs


def _checked_seed(seed: object) -> None:
    """Raise CardError unless `seed` is None, a whole number in range or a numpy Generator."""
    numpy = sys.modules.get("numpy")  # a Generator or a numpy integer means numpy is loaded
    if numpy is not None and isinstance(seed, numpy.random.Generator):
        return
    whole = isinstance(seed, int) or (numpy is not None and isinstance(seed, numpy.integer))
    if seed is not None and (isinstance(seed, bool) or not whole or not 0 <= int(seed) < SEED_LIMIT):  # type: ignore[call-overload]
        raise CardError("bad_seed", value=_shown(seed))


def make_rng(seed: int | np.random.Generator | None = None) -> np.random.Generator:
    """A numpy Generator: pass a seed to replay, or a Generator to share one stream.

    The rule: a seed is None (fresh entropy), a whole number from 0 to 2^128 - 1 (a bool is
    not a number here) or a numpy Generator, which is used as it is. Anything else ("7",
    7.5, True, a list...) raises CardError naming it, before numpy sees it."""
    _checked_seed(seed)
    import numpy as np  # here, not at the top: see the module's docstring

    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(None if seed is None else int(seed))


def lazy_rng(seed: int | np.random.Generator | None = None) -> Callable[[], np.random.Generator]:
    """`make_rng(seed)` when first needed: the seed is checked now (same rule, same error),
    the Generator is made (and numpy loaded) by the first call, and every call returns it."""
    _checked_seed(seed)
    return functools.cache(lambda: make_rng(seed))


def shuffled(cards: Sequence[Card], rng: int | np.random.Generator | None = None) -> list[Card]:
    """A new list with the cards in an order drawn from the seeded generator."""
    order = make_rng(rng).permutation(len(cards))
    return [cards[i] for i in order]
