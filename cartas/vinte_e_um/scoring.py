"""Card values and hand totals for 21.

2..10 count their face value, J, Q and K count 10, and the ace counts 1 or 11 as the table
agreed (`ace=1`, the default, or `ace=11`). `ace="flexible"` is a house rule: each ace counts
11 when that does not take the hand over 21, otherwise 1 (as in blackjack).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Literal

from ..cards import STANDARD_PACK, Card, Rank
from .errors import VinteEUmError, shown

# what the table agreed the ace counts (`check_ace` reads a few more spellings of "flexible")
Ace = Literal[1, 11, "flexible"]
ACE_OPTIONS: tuple[Ace, ...] = (1, 11, "flexible")
FLEXIBLE = "flexible"

# Value classes used by the odds: index 0 is the ace, 1..8 are 2..9, 9 is every 10-valued card.
VALUE_CLASSES = 10
_CLASS = {Rank.ACE: 0, Rank.TEN: 9, Rank.JACK: 9, Rank.QUEEN: 9, Rank.KING: 9}
for _i, _rank in enumerate((Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX,
                            Rank.SEVEN, Rank.EIGHT, Rank.NINE), start=1):
    _CLASS[_rank] = _i
HARD_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)  # value of each class with the ace as 1
# Card hashing goes through two enums; the pack's own card objects live for ever, so their
# ids are a fast, safe key (the engine only ever deals these objects).
_ID_CLASS = {id(card): _CLASS[card.rank] for card in STANDARD_PACK}
# ... and each one's value with the ace as 1 (1 only for an ace), for `points`
_ID_HARD = {id(card): HARD_VALUES[_CLASS[card.rank]] for card in STANDARD_PACK}


_CARD_BY_TEXT = {str(card): card for card in STANDARD_PACK}
_CARD_BY_ID = {id(card): card for card in STANDARD_PACK}


def check_ace(ace: object) -> int | str:
    """Normalise the ace option: 1, 11 or "flexible" (an int 1 or 11, never a bool or a
    float); anything else raises VinteEUmError "bad_ace"."""
    if isinstance(ace, str) and len(ace) < 20 and ace.strip().lower() in (
            "flexible", "flexivel", "flexível"):
        return FLEXIBLE
    if type(ace) is int and ace in (1, 11):
        return ace
    raise VinteEUmError("bad_ace", value=shown(ace))


def card_of(card: object) -> Card:
    """The pack's own Card for a Card or its text ("7♥", "7 de copas"); VinteEUmError
    "bad_card" for anything else."""
    found = _CARD_BY_ID.get(id(card))
    if found is not None:
        return found
    if isinstance(card, str):
        found = _CARD_BY_TEXT.get(card)
        if found is not None:
            return found
    if isinstance(card, Card) or (isinstance(card, str) and len(card) <= 40):
        try:
            return _CARD_BY_TEXT[str(Card.parse(str(card)))]
        except ValueError:
            pass
    raise VinteEUmError("bad_card", value=shown(card))


def cards_of(cards: Iterable[object], field: str = "cards") -> list[Card]:
    """`card_of` for each of a list (or tuple) of cards; VinteEUmError for anything else."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        try:
            cards = list(cards)
        except TypeError:
            raise VinteEUmError("cards_list", field=field, value=shown(cards)) from None
    return [card_of(c) for c in cards]


def value_class(card: Card | str) -> int:
    """0 for an ace, 1..8 for 2..9, 9 for 10, J, Q, K."""
    found = _ID_CLASS.get(id(card))
    return found if found is not None else _CLASS[card_of(card).rank]


def card_value(card: Card | str, ace: int | str = 1) -> int:
    """What one card counts; a flexible ace counts 11 here (its best value alone)."""
    card = card_of(card)
    if card.rank is Rank.ACE:
        return 1 if check_ace(ace) == 1 else 11
    return HARD_VALUES[_CLASS[card.rank]]


def total(hard: int, aces: int, ace: int | str) -> int:
    """Points of a hand from its total with aces as 1 (`hard`) and its number of aces."""
    if ace == 11:
        return hard + 10 * aces
    if ace == FLEXIBLE and aces and hard + 10 <= 21:
        return hard + 10  # two aces at 11 would be 22: at most one ever counts 11
    return hard


def points(cards: Iterable[Card | str], ace: int | str = 1) -> int:
    """The hand's total under the table's ace option."""
    if not ((ace.__class__ is int and (ace == 1 or ace == 11)) or ace is FLEXIBLE):
        ace = check_ace(ace)  # the table's own options pass as they are; anything else is checked
    hard = aces = 0
    hard_of = _ID_HARD.get
    for card in cards:  # the pack's own cards by id (the engine deals only those), others read
        value = hard_of(id(card))
        if value is None:
            value = HARD_VALUES[_CLASS[card_of(card).rank]]
        hard += value
        if value == 1:
            aces += 1
    return total(hard, aces, ace)


def is_bust(cards: Iterable[Card | str], ace: int | str = 1) -> bool:
    """Over 21: "estourei"."""
    return points(cards, ace) > 21


def is_two_card_21(cards: Iterable[Card | str], ace: int | str = 1) -> bool:
    """Exactly two cards making 21 (impossible when the ace counts 1)."""
    cards = list(cards)
    return len(cards) == 2 and points(cards, ace) == 21


def playable(cards: Iterable[Card | str], ace: int | str = 1) -> list[Card]:
    """The cards a hand really plays, in order: it takes no card once at 21 or over.

    A player or banker at 21 stops (docs/rules.md#21-stop-at-21) and a hand
    over 21 is finished, so any later cards would never be dealt to it.
    """
    kept: list[Card] = []
    for card in cards:
        if len(kept) >= 2 and points(kept, ace) >= 21:
            break
        kept.append(card_of(card))
    return kept


def call_reason(player_cards: Iterable[Card | str], banker_cards: Iterable[Card | str], ace: int | str = 1,
                decks: int = 1) -> str:
    """Why the bet goes where it goes when the banker meets this player, in the round's order.

    One of "banker_21" (two-card 21: he takes every bet before anyone plays),
    "player_bust" (the player went over first: players play before the banker),
    "banker_two_aces" (his first two cards are aces worth 11, docs/rules.md#21-banker-two-aces:
    his bust shows when his turn comes, after the players', and he pays),
    "banker_bust", "more" (the player has more points), "tie" (ties go to the bank) or
    "less". The hands are judged as given (see `playable` to trim extra cards);
    VinteEUmError "too_few_in_packs" if they hold more copies of a card than `decks` packs.
    """
    ace = check_ace(ace)
    player = cards_of(player_cards, "player_cards")
    banker = cards_of(banker_cards, "banker_cards")
    counts = Counter(player + banker)
    short = [str(c) for c, n in counts.items() if n > decks]
    if short:
        raise VinteEUmError("too_few_in_packs", packs=decks, cards=", ".join(short))
    if is_two_card_21(banker, ace):
        return "banker_21"
    if is_bust(player, ace):
        return "player_bust"
    if len(banker) == 2 and is_bust(banker, ace):
        return "banker_two_aces"
    if is_bust(banker, ace):
        return "banker_bust"
    mine, theirs = points(player, ace), points(banker, ace)
    return "more" if mine > theirs else "tie" if mine == theirs else "less"


def beats(player_points: int, banker_points: int) -> bool:
    """Whether a player standing on `player_points` beats a banker who ends on
    `banker_points`: the player must not be over 21, and the banker must bust or have fewer
    points (a tie goes to the bank). For reading a banker's final totals against a hand."""
    return player_points <= 21 and (banker_points > 21 or player_points > banker_points)


def call_winner(player_cards: Iterable[Card | str], banker_cards: Iterable[Card | str], ace: int | str = 1,
                decks: int = 1) -> str:
    """Who takes the bet, "player" or "banker" (docs/rules.md#vinte-e-um, round steps 3 to 5).

    A player who busts loses (he busts before the banker plays); a banker who busts pays
    (with the ace worth 11 a banker whose first two cards are aces busts too, when his turn
    comes, after the players); otherwise more points win and a tie goes to the bank. A
    two-card 21 of the banker takes the bet before anyone plays. `VinteEUmState` settles every call with this function.
    """
    reason = call_reason(player_cards, banker_cards, ace, decks)
    return "player" if reason in ("banker_two_aces", "banker_bust", "more") else "banker"


def judge_call(player_cards: Iterable[Card | str], banker_cards: Iterable[Card | str], ace: int | str = 1,
               decks: int = 1) -> tuple[list[Card], list[Card], str]:
    """A call between hands dealt card by card: (player's cards, banker's cards, winner).

    Each hand keeps only the cards it really plays (`playable`: none after it reached 21 or
    went over), and `call_winner` says who takes the bet, "player" or "banker".
    """
    player, banker = playable(player_cards, ace), playable(banker_cards, ace)
    return player, banker, call_winner(player, banker, ace, decks)
