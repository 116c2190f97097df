"""Exact odds for 21, from the cards one seat can see.

The unknown cards are the full pack(s) minus every card the seat can see (its own hand,
face-down card included, everyone's face-up cards, cards shown and collected this round).
By symmetry every card the seat has not seen is equally likely to be the next one dealt,
wherever the other unknown cards lie, so each figure is an exhaustive enumeration over that
composition, by value class (ace, 2..9, ten-valued), memoised on the remaining counts.
Every `seen` argument lists the OTHER cards seen: it excludes the hand being evaluated,
whose cards the functions take out of the pack themselves.

Banker policy: the banker draws while his total is below `draw_below` (default 17) and under
21, then stands and calls everyone. He always holds at least two cards.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, NotRequired, TypedDict

import numpy as np

from ..cards import STANDARD_PACK, Card
from .config import MAX_PACKS, is_int, whole
from .errors import VinteEUmError, shown
from .scoring import HARD_VALUES, VALUE_CLASSES, card_of, check_ace, points, total, value_class
from .views import SeatView

# cards as the odds take them: Cards or their texts, None for a card not seen (skipped)
CardsSeen = Iterable[Card | str | None]

BUST = 22                      # index of "bust" in the distribution vectors
_VALUES = HARD_VALUES


# Fast paths keyed by the pack's own card objects (see scoring) and by their text.
_INDEX = {id(card): i for i, card in enumerate(STANDARD_PACK)}
_BY_TEXT = {str(card): i for i, card in enumerate(STANDARD_PACK)}
_CLASS_OF = np.array([value_class(card) for card in STANDARD_PACK])
_PACK_CLASSES = np.bincount(_CLASS_OF, minlength=VALUE_CLASSES)


def _index(card: object) -> int:
    """Position of `card` (text or Card) in STANDARD_PACK; VinteEUmError "bad_card"."""
    found = _INDEX.get(id(card))
    if found is None and isinstance(card, str):
        found = _BY_TEXT.get(card)
    return found if found is not None else _INDEX[id(card_of(card))]


def _cards(cards: CardsSeen) -> list[Card]:
    """The pack's own card objects for cards given as text or Card (None entries skipped)."""
    if isinstance(cards, (str, bytes)) or cards is None:
        raise VinteEUmError("cards_list", field="cards", value=shown(cards))
    return [STANDARD_PACK[_index(c)] for c in cards if c is not None]


_CLASS_LIST = [int(k) for k in _CLASS_OF]                # class of each pack index, for pure-Python loops
_PACK_CLASS_LIST = [int(n) for n in _PACK_CLASSES]      # cards of each class in one pack


def _unknown_list(cards: list[Card], decks: int) -> list[int]:
    """`unknown_counts(cards, decks)` as a list of ints, for a list of the pack's own cards
    (`_cards`) and a checked `decks`: pure Python (numpy on a dozen cards costs more than
    the count). A card seen more than `decks` times is refused as `unknown_counts` refuses it."""
    left = [n * decks for n in _PACK_CLASS_LIST]
    index, classes = _INDEX, _CLASS_LIST
    found = [index[id(c)] for c in cards]
    if len(set(found)) < len(found) and max(found.count(i) for i in found) > decks:
        unknown_counts(cards, decks)  # raises "seen_too_often", naming the cards
    for i in found:
        left[classes[i]] -= 1
    return left


def unknown_counts(seen: CardsSeen = (), decks: int = 1) -> np.ndarray:
    """Cards not yet seen, counted by value class (index 0 ace, 1..8 for 2..9, 9 ten-valued)."""
    decks = whole(decks, "decks", 1, MAX_PACKS)
    if isinstance(seen, (str, bytes)) or seen is None:
        raise VinteEUmError("cards_list", field="seen", value=shown(seen))
    index = np.array([_index(c) for c in seen if c is not None], dtype=np.int64)
    per_card = np.bincount(index, minlength=len(STANDARD_PACK))
    if per_card.max(initial=0) > decks:
        extra = [str(STANDARD_PACK[i]) for i in np.flatnonzero(per_card > decks)]
        raise VinteEUmError("seen_too_often", cards=", ".join(extra), packs=decks)
    return _PACK_CLASSES * decks - np.bincount(_CLASS_OF[index], minlength=VALUE_CLASSES)


def unknown_list(seen: CardsSeen = (), decks: int = 1) -> list[int]:
    """`unknown_counts` as a list of ints, refusing what it refuses (pure Python: for a
    bot's every decision, where numpy on a dozen cards costs more than the count)."""
    decks = whole(decks, "decks", 1, MAX_PACKS)
    if isinstance(seen, (str, bytes)) or seen is None:
        raise VinteEUmError("cards_list", field="seen", value=shown(seen))
    return _unknown_list(_cards(seen), decks)


def _unknown_apart(hand: list[Card], seen: CardsSeen, decks: int) -> list[int]:
    """`unknown_counts` of `hand` plus `seen` (as a list), where `seen` must leave the hand's
    cards out. `hand`: the pack's own cards (`_cards`)."""
    seen = _cards(seen)
    try:
        return _unknown_list(hand + seen, whole(decks, "decks", 1, MAX_PACKS))
    except VinteEUmError as error:
        both = sorted({str(c) for c in hand if c in seen})
        if both and error.code == "seen_too_often":
            raise VinteEUmError("seen_own_cards", cards=", ".join(both)) from None
        raise


def _hard_aces(cards: list[Card]) -> tuple[int, int]:
    classes = [_CLASS_LIST[_INDEX[id(c)]] for c in cards]  # the pack's own cards (`_cards`)
    return sum(HARD_VALUES[k] for k in classes), classes.count(0)


def bust_probability(hand: CardsSeen, seen: CardsSeen = (), ace: int | str = 1, decks: int = 1) -> float:
    """Probability that one more card takes `hand` over 21 (0.0 when no card is left).

    seen: the other cards the viewer has seen, NOT the hand itself (the hand's cards are
    taken out of the pack already); giving a hand's card in `seen` too raises
    VinteEUmError "seen_own_cards" with one pack (with more packs it would count as a
    second copy).
    """
    ace, hand = check_ace(ace), _cards(hand)
    counts = _unknown_apart(hand, seen, decks)
    left = sum(counts)
    if left == 0:
        return 0.0
    hard, aces = _hard_aces(hand)
    busting = sum(n for k, n in enumerate(counts) if total(hard + HARD_VALUES[k], aces + (k == 0), ace) > 21)
    return busting / left  # whole numbers: the same float numpy's sums gave


def _ace_total(ace: int | str) -> Callable[[int, int], int]:
    """total(hard, aces) for one ace option, as a fast closure."""
    if ace == 1:
        return lambda hard, aces: hard
    if ace == 11:
        return lambda hard, aces: hard + 10 * aces
    return lambda hard, aces: hard + 10 if aces and hard + 10 <= 21 else hard


_SHIFTS = tuple(8 * k for k in range(VALUE_CLASSES))   # a composition packed in one int


def _end_of(t: int, check_21: bool, stopping: bool, last: bool, stop_at: int) -> int | None:
    """Where a banker's hand totalling `t` after a card ends: -1 when it is a two-card 21
    the round would have ended on (left out), BUST over 21, `t` when he stops (the pack's
    last card, or no card forced and `t` reaches `stop_at`), None while he draws on."""
    if check_21 and t == 21:
        return -1
    if t > 21:
        return BUST
    if last or (stopping and t >= stop_at):
        return t
    return None


@lru_cache(maxsize=4096)
def _final(counts: tuple[int, ...], hard: int, aces: int, forced: int, ncards: int, given_under_21: bool,
           ace: int | str, draw_below: int) -> tuple[float, ...]:
    """Distribution of the banker's final total (index 0..21, 22 = bust) for a hand that
    holds `hard`/`aces` in `ncards` cards, must still take `forced` cards, then draws while
    below `draw_below` (and under 21), from `counts` unknown cards per value class.

    given_under_21: deals whose first two cards make exactly 21 are left out (the round
    would have ended there), so the vector sums to the probability of the condition.

    Pure Python, exact: the probability of each composition left in the pack is carried
    forward one card at a time (a composition is a tuple of counts per value class, packed
    in one int with 8 bits per class). Hands reaching a composition by different orders of
    the same cards merge, since the hand's total depends only on the cards drawn; a hand
    that stops adds its probability to its final total. Each composition is visited once.
    """
    stop_at = min(draw_below, 21)
    tot = _ace_total(ace)
    out = [0.0] * (BUST + 1)
    t = tot(hard, aces)
    n0 = sum(counts)
    if t > 21:
        out[BUST] = 1.0
        return tuple(out)
    if n0 == 0 or (forced == 0 and t >= stop_at):
        if not (given_under_21 and ncards == 2 and t == 21):
            out[t] = 1.0
        return tuple(out)
    key = 0
    for k, c in enumerate(counts):
        key |= c << _SHIFTS[k]
    level = {key: (1.0, hard, aces)}
    drawn = 0
    while level:
        n = n0 - drawn
        left = forced - drawn - 1
        stopping = left <= 0
        check_21 = given_under_21 and ncards + drawn + 1 == 2 and stopping
        last = n == 1
        # (hard, aces) -> per value class: (shift, where the hand ends or None, one card, hard, aces)
        rows_for: dict[tuple[int, int], list[tuple[int, int | None, int, int, int]]] = {}
        new: dict[int, tuple[float, int, int]] = {}  # composition -> (mass, hard, aces)
        for key, (mass, hard, aces) in level.items():
            rows = rows_for.get((hard, aces))
            if rows is None:
                rows = rows_for[(hard, aces)] = []
                for k in range(VALUE_CLASSES):
                    h, a = hard + _VALUES[k], aces + (k == 0)
                    end = _end_of(tot(h, a), check_21, stopping, last, stop_at)
                    rows.append((_SHIFTS[k], end, 1 << _SHIFTS[k], h, a))
            m = mass / n
            for shift, end, one, h, a in rows:
                c = (key >> shift) & 255
                if not c:
                    continue
                if end is None:
                    child = key - one
                    seen = new.get(child)
                    new[child] = (m * c if seen is None else seen[0] + m * c, h, a)
                elif end >= 0:
                    out[end] += m * c
        level = new
        drawn += 1
    return tuple(out)


def _final_from(counts: tuple[int, ...], hard: int, aces: int, forced: int, ncards: int,
                given_under_21: bool, ace: int | str, draw_below: int) -> np.ndarray:
    return np.array(_final(counts, hard, aces, forced, ncards, given_under_21, ace, draw_below))


def banker_distribution_array(banker_cards: CardsSeen = (), seen: CardsSeen = (), hidden: int = 0,
                              draw_below: int = 17, ace: int | str = 1, decks: int = 1,
                              given_under_21: bool = False) -> np.ndarray:
    """`banker_final_distribution` as a numpy vector: index t for a total t, index 22 for bust."""
    ace, visible = check_ace(ace), _cards(banker_cards)
    decks = whole(decks, "decks", 1, MAX_PACKS)
    if not is_int(hidden) or not 0 <= hidden <= 2:
        raise VinteEUmError("hidden_count", value=shown(hidden))
    draw_below = whole(draw_below, "draw_below", 1, 22)
    counts = tuple(_unknown_apart(visible, seen, decks))
    hard, aces = _hard_aces(visible)
    forced = hidden + max(0, 2 - len(visible) - hidden)  # he always holds two cards at least
    if given_under_21 and hidden >= 1 and len(visible) >= 2:
        # His first two cards (the hidden one and the first face-up one) did not make 21.
        acc, first = np.zeros(BUST + 1), value_class(visible[0])
        for k, c in enumerate(counts):
            pair = total(HARD_VALUES[k] + HARD_VALUES[first], (k == 0) + (first == 0), ace)
            if c and pair != 21:
                rest = counts[:k] + (c - 1,) + counts[k + 1:]
                acc += c * _final_from(rest, hard + HARD_VALUES[k], aces + (k == 0), forced - 1,
                                       3, False, ace, draw_below)
    else:
        acc = _final_from(counts, hard, aces, forced, min(len(visible), 3), bool(given_under_21),
                          ace, draw_below)
    mass = acc.sum()
    if mass == 0:
        raise VinteEUmError("no_consistent_deal")
    return acc / mass  # type: ignore[no-any-return]  # an array divided by its sum is an array


def banker_final_distribution(banker_cards: CardsSeen = (), seen: CardsSeen = (), hidden: int = 0,
                              draw_below: int = 17, ace: int | str = 1, decks: int = 1,
                              given_under_21: bool = False) -> dict[int | str, float]:
    """Probability of each final total of the banker under the policy "draw below N".

    banker_cards: the banker's cards the viewer can see; hidden: how many more he holds
    unseen (1 for a player looking at the banker's face-down card). seen: every other card
    the viewer can see, excluding `banker_cards` themselves (seen must not include the
    hand's own cards: that raises VinteEUmError with one pack). given_under_21: condition
    on the banker's first two cards not making exactly 21, which players know whenever the
    round goes on past his second card (two aces worth 11, 22, go on: his bust shows when
    his turn comes, docs/rules.md#21-banker-two-aces).
    Returns {total: p for each reachable total} plus {"bust": p}; the values sum to 1.
    """
    vec = banker_distribution_array(banker_cards, seen, hidden, draw_below, ace, decks, given_under_21)
    out: dict[int | str, float] = {t: float(vec[t]) for t in range(BUST) if vec[t] > 0}
    out["bust"] = float(vec[BUST])
    return out


def win_probability(player_cards: CardsSeen, banker_visible: CardsSeen = (), seen: CardsSeen = (),
                    hidden: int = 1, draw_below: int = 17, ace: int | str = 1, decks: int = 1,
                    given_under_21: bool = True) -> float:
    """Probability that `player_cards`, standing now, beat the banker (ties go to the bank).

    The banker plays "draw below `draw_below`" from his visible cards plus `hidden` unseen
    ones; the player's own cards (face-down one included) and `seen` are out of the pack.
    seen excludes both hands: it must not repeat `player_cards` or `banker_visible`
    (VinteEUmError "seen_own_cards" with one pack).
    """
    player = _cards(player_cards)
    _unknown_apart(player, seen, decks)
    mine = points(player, ace)
    if mine > 21:
        return 0.0
    vec = banker_distribution_array(banker_visible, player + _cards(seen), hidden, draw_below,
                                    ace, decks, given_under_21)
    return float(vec[BUST] + vec[:mine].sum())


class ViewOdds(TypedDict):
    """`odds_for_view`: "bust" for every seat, "banker" and "win" for a player facing a banker
    who holds cards."""

    bust: float
    banker: NotRequired[dict[int | str, float]]
    win: NotRequired[float]


def odds_for_view(view: SeatView, draw_below: int = 17) -> ViewOdds:
    """The three figures for the seat of `state.view(seat)` (a SeatView), from what that
    seat can see.

    For a player: {"bust": next card busts me, "banker": banker's final distribution,
    "win": standing now beats the banker}. For the banker: only "bust". A spectator's or
    the teacher's view has no figures: VinteEUmError "bad_viewer".
    """
    seat, banker = view.seat, view.banker
    if not is_int(seat):
        raise VinteEUmError("bad_viewer", last=view.players - 1, value=shown(seat))
    mine = list(view.hands[seat])
    out: ViewOdds = {"bust": bust_for_view(view)}
    if seat != banker and view.hands[banker]:
        faces = [c for c in view.hands[banker] if c is not None]
        hidden = len(view.hands[banker]) - len(faces)
        others = _others(view, seat, banker)
        under = view.phase in ("players", "banker")
        # mine + others: a list of Card | None (mypy's list.__add__ does not join the two item types)
        out["banker"] = banker_final_distribution(faces, mine + others, hidden, draw_below,  # type: ignore[operator]
                                                  view.ace, view.decks, under and hidden > 0)
        out["win"] = win_probability(mine, faces, others, hidden, draw_below, view.ace,
                                     view.decks, under and hidden > 0)
    return out


def bust_for_view(view: SeatView) -> float:
    """The chance that the next card busts the seat of `view` (a SeatView), from what that
    seat can see: `odds_for_view(view)["bust"]` without the banker's distribution."""
    seat = view.seat
    if not is_int(seat):
        raise VinteEUmError("bad_viewer", last=view.players - 1, value=shown(seat))
    return bust_probability(list(view.hands[seat]), _others(view, seat), view.ace, view.decks)


def _others(view: SeatView, *exclude: int) -> list[Card]:
    """Seen cards outside the hands of the `exclude` seats: each distinct card (in the
    order first seen) as often as it was seen less as often as those hands hold it.
    Cards are told apart by their place in the pack (`_index`), never hashed."""
    own: Counter[int] = Counter()
    for seat in exclude:
        own.update(_index(c) for c in view.hands[seat] if c is not None)
    rest: dict[int, list[Any]] = {}  # pack index -> [the card as first seen, times seen]
    for card in view.seen:
        entry = rest.get(_index(card))
        if entry is None:
            rest[_index(card)] = [card, 1]
        else:
            entry[1] += 1
    return [card for i, (card, n) in rest.items() for _ in range(n - own[i])]
