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
from functools import lru_cache
from typing import Iterable

import numpy as np

from ..cards import STANDARD_PACK, Card
from .scoring import HARD_VALUES, VALUE_CLASSES, check_ace, points, total, value_class

BUST = 22                      # index of "bust" in the distribution vectors
_HARD = np.array(HARD_VALUES)


# Fast paths keyed by the pack's own card objects (see scoring) and by their text.
_INDEX = {id(card): i for i, card in enumerate(STANDARD_PACK)}
_BY_TEXT = {str(card): i for i, card in enumerate(STANDARD_PACK)}
_CLASS_OF = np.array([value_class(card) for card in STANDARD_PACK])
_PACK_CLASSES = np.bincount(_CLASS_OF, minlength=VALUE_CLASSES)


def _index(card) -> int:
    """Position of `card` (text or Card) in STANDARD_PACK."""
    found = _INDEX.get(id(card))
    if found is None and isinstance(card, str):
        found = _BY_TEXT.get(card)
    return found if found is not None else STANDARD_PACK.index(Card.parse(card))


def _cards(cards: Iterable) -> list[Card]:
    """The pack's own card objects for cards given as text or Card (None entries skipped)."""
    return [STANDARD_PACK[_index(c)] for c in cards if c is not None]


def unknown_counts(seen: Iterable = (), decks: int = 1) -> np.ndarray:
    """Cards not yet seen, counted by value class (index 0 ace, 1..8 for 2..9, 9 ten-valued)."""
    index = np.array([_index(c) for c in seen if c is not None], dtype=np.int64)
    per_card = np.bincount(index, minlength=len(STANDARD_PACK))
    if per_card.max(initial=0) > decks:
        extra = [str(STANDARD_PACK[i]) for i in np.flatnonzero(per_card > decks)]
        raise ValueError(f"{', '.join(extra)} seen more often than {decks} pack(s) hold")
    return _PACK_CLASSES * decks - np.bincount(_CLASS_OF[index], minlength=VALUE_CLASSES)


def _unknown_apart(hand: list[Card], seen: Iterable, decks: int) -> np.ndarray:
    """`unknown_counts` of `hand` plus `seen`, where `seen` must leave the hand's cards out."""
    seen = _cards(seen)
    try:
        return unknown_counts(hand + seen, decks)
    except ValueError as error:
        both = sorted({str(c) for c in hand if c in seen})
        if both:
            raise ValueError(f"seen must not include the hand's own cards ({', '.join(both)} "
                             f"given in both)") from error
        raise


def _hard_aces(cards: list[Card]) -> tuple[int, int]:
    classes = [value_class(c) for c in cards]
    return sum(HARD_VALUES[k] for k in classes), classes.count(0)


def bust_probability(hand: Iterable, seen: Iterable = (), ace=1, decks: int = 1) -> float:
    """Probability that one more card takes `hand` over 21 (0.0 when no card is left).

    seen: the other cards the viewer has seen, NOT the hand itself (the hand's cards are
    taken out of the pack already); giving a hand's card in `seen` too raises ValueError
    with one pack (with more packs it would count as a second copy).
    """
    ace, hand = check_ace(ace), _cards(hand)
    counts = _unknown_apart(hand, seen, decks)
    if counts.sum() == 0:
        return 0.0
    hard, aces = _hard_aces(hand)
    after = [total(hard + HARD_VALUES[k], aces + (k == 0), ace) for k in range(VALUE_CLASSES)]
    return float(counts[np.array(after) > 21].sum() / counts.sum())


def _stops(pts: int, forced: int, ncards: int, cards_left: int, given_under_21: bool,
           draw_below: int) -> int | None:
    """Where the banker's hand ends if it ends here: a total, BUST, -1 (excluded), or None."""
    if given_under_21 and ncards == 2 and forced == 0 and pts >= 21:
        return -1  # the round would have ended at his second card: excluded by the condition
    if pts > 21:
        return BUST
    if forced == 0 and (pts >= min(draw_below, 21) or cards_left == 0):
        return pts
    return None


@lru_cache(maxsize=200_000)
def _final(counts: tuple, hard: int, aces: int, forced: int, ncards: int, given_under_21: bool,
           ace, draw_below: int) -> np.ndarray:
    """Distribution of the banker's final total (index 0..21, 22 = bust), read-only.

    Hands that stop after the next card are added in place rather than recursed into:
    they are most of the tree.
    """
    n = sum(counts)
    acc = np.zeros(BUST + 1)
    if n == 0:  # no card left at all: he keeps what he has
        acc[min(total(hard, aces, ace), BUST)] = 1.0
        return acc
    for k, c in enumerate(counts):
        if not c:
            continue
        new_hard, new_aces = hard + HARD_VALUES[k], aces + (k == 0)
        new_forced, new_ncards = max(forced - 1, 0), min(ncards + 1, 3)
        end = _stops(total(new_hard, new_aces, ace), new_forced, new_ncards, n - 1,
                     given_under_21, draw_below)
        if end is None:
            rest = counts[:k] + (c - 1,) + counts[k + 1:]
            acc += c * _final(rest, new_hard, new_aces, new_forced, new_ncards, given_under_21,
                              ace, draw_below)
        elif end >= 0:
            acc[end] += c
    acc /= n
    acc.flags.writeable = False
    return acc


def _final_from(counts: tuple, hard: int, aces: int, forced: int, ncards: int,
                given_under_21: bool, ace, draw_below: int) -> np.ndarray:
    """`_final`, also for a hand that already stops as it is."""
    end = _stops(total(hard, aces, ace), forced, ncards, sum(counts), given_under_21, draw_below)
    if end is None:
        return _final(counts, hard, aces, forced, ncards, given_under_21, ace, draw_below)
    out = np.zeros(BUST + 1)
    if end >= 0:
        out[end] = 1.0
    return out


def banker_distribution_array(banker_cards: Iterable = (), seen: Iterable = (), hidden: int = 0,
                              draw_below: int = 17, ace=1, decks: int = 1,
                              given_under_21: bool = False) -> np.ndarray:
    """`banker_final_distribution` as a numpy vector: index t for a total t, index 22 for bust."""
    ace, visible = check_ace(ace), _cards(banker_cards)
    if hidden < 0 or not isinstance(hidden, int):
        raise ValueError(f"hidden counts the banker's unseen cards (0 or more), not {hidden!r}")
    counts = tuple(int(c) for c in _unknown_apart(visible, seen, decks))
    hard, aces = _hard_aces(visible)
    forced = hidden + max(0, 2 - len(visible) - hidden)  # he always holds two cards at least
    args = (given_under_21, ace, draw_below)
    if given_under_21 and hidden >= 1 and len(visible) >= 2:
        # His first two cards (the hidden one and the first face-up one) made under 21.
        acc, first = np.zeros(BUST + 1), value_class(visible[0])
        for k, c in enumerate(counts):
            pair = total(HARD_VALUES[k] + HARD_VALUES[first], (k == 0) + (first == 0), ace)
            if c and pair < 21:
                rest = counts[:k] + (c - 1,) + counts[k + 1:]
                acc += c * _final_from(rest, hard + HARD_VALUES[k], aces + (k == 0), forced - 1, 3,
                                       False, ace, draw_below)
    else:
        acc = np.array(_final_from(counts, hard, aces, forced, min(len(visible), 3), *args))
    mass = acc.sum()
    if mass == 0:
        raise ValueError("no deal is consistent with these cards and the condition given_under_21")
    return acc / mass


def banker_final_distribution(banker_cards: Iterable = (), seen: Iterable = (), hidden: int = 0,
                              draw_below: int = 17, ace=1, decks: int = 1,
                              given_under_21: bool = False) -> dict:
    """Probability of each final total of the banker under the policy "draw below N".

    banker_cards: the banker's cards the viewer can see; hidden: how many more he holds
    unseen (1 for a player looking at the banker's face-down card). seen: every other card
    the viewer can see, excluding `banker_cards` themselves (seen must not include the
    hand's own cards: that raises ValueError with one pack). given_under_21: condition on the banker's first two cards making
    less than 21, which players know whenever the round goes on past his second card.
    Returns {total: p for each reachable total} plus {"bust": p}; the values sum to 1.
    """
    vec = banker_distribution_array(banker_cards, seen, hidden, draw_below, ace, decks, given_under_21)
    out = {t: float(vec[t]) for t in range(BUST) if vec[t] > 0}
    out["bust"] = float(vec[BUST])
    return out


def win_probability(player_cards: Iterable, banker_visible: Iterable = (), seen: Iterable = (),
                    hidden: int = 1, draw_below: int = 17, ace=1, decks: int = 1,
                    given_under_21: bool = True) -> float:
    """Probability that `player_cards`, standing now, beat the banker (ties go to the bank).

    The banker plays "draw below `draw_below`" from his visible cards plus `hidden` unseen
    ones; the player's own cards (face-down one included) and `seen` are out of the pack.
    seen excludes both hands: it must not repeat `player_cards` or `banker_visible`
    (ValueError "seen must not include the hand's own cards" with one pack).
    """
    player = _cards(player_cards)
    _unknown_apart(player, seen, decks)
    mine = points(player, ace)
    if mine > 21:
        return 0.0
    vec = banker_distribution_array(banker_visible, player + _cards(seen), hidden, draw_below,
                                    ace, decks, given_under_21)
    return float(vec[BUST] + vec[:mine].sum())


def odds_for_view(view: dict, draw_below: int = 17) -> dict:
    """The three figures for the seat of `state.view(seat)`, from what that seat can see.

    For a player: {"bust": next card busts me, "banker": banker's final distribution,
    "win": standing now beats the banker}. For the banker: only "bust".
    """
    seat, banker = view["seat"], view["banker"]
    mine = view["hands"][seat]
    out = {"bust": bust_probability(mine, _others(view, seat), view["ace"], view["decks"])}
    if seat != banker and view["hands"][banker]:
        shown = [c for c in view["hands"][banker] if c is not None]
        hidden = len(view["hands"][banker]) - len(shown)
        others = _others(view, seat, banker)
        under = view["phase"] in ("players", "banker")
        out["banker"] = banker_final_distribution(shown, mine + others, hidden, draw_below,
                                                  view["ace"], view["decks"], under and hidden > 0)
        out["win"] = win_probability(mine, shown, others, hidden, draw_below, view["ace"],
                                     view["decks"], under and hidden > 0)
    return out


def _others(view: dict, *exclude: int) -> list[str]:
    """Seen cards outside the hands of the `exclude` seats."""
    own = Counter()
    for seat in exclude:
        own.update(c for c in view["hands"][seat] if c is not None)
    rest = Counter(view["seen"])
    rest.subtract(own)
    return list(rest.elements())
