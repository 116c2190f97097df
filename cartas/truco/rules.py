"""Pure truco rules: who wins a trick, who takes a hand, and why.

Teams: team 0 = seats 0 and 2, team 1 = seats 1 and 3 (`seat % 2`).
Cards are handled inside the engine as indexes into `cartas.cards.TRUCO_PACK`, with one
precomputed strength list per (variant, vira), so the hot path never hashes a Card.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

from ..cards import TRUCO_PACK, Card
from . import text as _text
from .errors import TrucoError
from .variants import Variant, get_variant, manilhas, strength_table

CARD_INDEX: dict[Card, int] = {card: i for i, card in enumerate(TRUCO_PACK)}
CARD_TEXT: tuple[str, ...] = tuple(str(card) for card in TRUCO_PACK)
COVERED = -1  # the strength of a face-down card: below every real card


def team_of(seat: int) -> int:
    """The team of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat & 1


# -- deal, play order and the events of a hand ---------------------------------------------

CARDS_EACH = 3   # every seat is dealt three cards
VIRA_CARD = 12   # pack position of the vira: the 13th card of the shuffle (Paulista)


def _seat(seat, what: str) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise TrucoError(f"the {what} is a seat from 0 to 3, not {seat!r}", "bad_seat",
                         seat=repr(seat))
    return seat


def play_order(leader: int) -> list[int]:
    """The four seats in play order starting with `leader` (seats play 0, 1, 2, 3, 0, ...)."""
    leader = _seat(leader, "leader")
    return [(leader + k) & 3 for k in range(4)]


def deal_order(dealer: int) -> list[tuple[int, int]]:
    """Where the 12 dealt cards go, in the order they leave the shuffled pack.

    Item n is (seat, position in that seat's hand) for the n-th card of the shuffle. The
    rule: the mão (the seat after the dealer) gets the first three cards, then each seat in
    play order gets the next three, the dealer last; in Paulista the next card, the 13th
    (pack position `VIRA_CARD`), is turned up as the vira.
    """
    mao = (_seat(dealer, "dealer") + 1) & 3
    return [(seat, k) for seat in play_order(mao) for k in range(CARDS_EACH)]


def pack_left(cards_out: int) -> int:
    """Cards still face down in the 40-card pack once `cards_out` have left it (the vira
    counts: after the whole deal of a Paulista hand 27 are left, in Mineiro 28)."""
    return len(TRUCO_PACK) - cards_out


def hand_events(events: Sequence[dict], hand_number: int = 1) -> list[dict]:
    """The events of one hand, from its "deal" event through its "hand" event, plus the
    "game" event when that hand ended the game. Empty if the hand was never dealt; while the
    hand is still being played, the events so far (its "hand" event is then missing)."""
    start = next((i for i, e in enumerate(events)
                  if e["type"] == "deal" and e["hand_number"] == hand_number), None)
    if start is None:
        return []
    end = next((i + 1 for i in range(start, len(events)) if events[i]["type"] == "hand"),
               len(events))
    if end < len(events) and events[end]["type"] == "game":
        end += 1
    return list(events[start:end])


@lru_cache(maxsize=None)
def strength_list(variant: Variant, vira_index: int | None) -> tuple[int, ...]:
    """Strength of each pack index for this variant and vira (see `strength_table`)."""
    vira = None if vira_index is None else TRUCO_PACK[vira_index]
    table = strength_table(variant, vira)
    return tuple(table[card] for card in TRUCO_PACK)


def resolve_trick(plays: Sequence[tuple[int, int]]) -> tuple[int | None, int | None, int | None]:
    """Core trick comparison on (seat, strength) pairs, COVERED for a face-down card.

    Returns (winning team or None, winning seat or None, seat of the first tying card or None).
    A trick ties only when each team's best card is equal; a covered card never wins or ties.
    Between partners holding equal best cards, the one who played first wins the trick.
    """
    best0 = best1 = COVERED  # each team's best strength so far, and who played it
    seat0 = seat1 = None
    for seat, strength in plays:
        if seat & 1:
            if strength > best1:
                best1, seat1 = strength, seat
        elif strength > best0:
            best0, seat0 = strength, seat
    if best0 == best1:
        if best0 == COVERED:
            return None, None, None
        first = next(seat for seat, strength in plays if strength == best0)
        return None, None, first
    if best0 > best1:
        return 0, seat0, None
    return 1, seat1, None


def hand_status(results: Sequence[int | None]) -> tuple[bool, int | None]:
    """(finished, winning team or None) for trick results so far; no validation."""
    n = len(results)
    if n < 2:
        return False, None
    first, second = results[0], results[1]
    if n == 2:
        if first is None:
            return second is not None, second
        if second is None or second == first:
            return True, first
        return False, None
    third = results[2]
    if third is not None:
        return True, third
    # Trick 3 tied: with one trick each the winner of trick 1 takes the hand;
    # after two tied tricks nobody scores (first is None then).
    return True, first


# -- public rule functions --------------------------------------------------------------

def _check_plays(plays, variant: Variant, vira) -> tuple[list[tuple[int, Card | None]], tuple]:
    """Validate a trick given as (seat, card-or-None) pairs; return it parsed + strengths."""
    parsed: list[tuple[int, Card | None]] = []
    seats, cards = set(), set()
    for item in plays:
        try:
            seat, card = item
        except (TypeError, ValueError):
            raise TrucoError(f"each play is a (seat, card) pair, not {item!r}", "play_pair",
                             item=repr(item)) from None
        if not isinstance(seat, int) or not 0 <= seat <= 3:
            raise TrucoError(f"seats are 0 to 3, not {seat!r}", "bad_seat", seat=repr(seat))
        if seat in seats:
            raise TrucoError(f"seat {seat} plays twice in one trick", "seat_twice", seat=seat)
        seats.add(seat)
        if card is not None:
            try:
                card = Card.parse(card)
            except ValueError as err:
                raise TrucoError(str(err), "unreadable_card", text=str(card), seat=seat,
                                 place="trick") from None
            if card not in CARD_INDEX:
                raise TrucoError(f"{card} is not in the truco pack (no 8s, 9s or 10s)",
                                 "not_in_pack", card=str(card))
            if card in cards:
                raise TrucoError(f"{card} is played twice in one trick", "card_twice",
                                 card=str(card))
            cards.add(card)
        parsed.append((seat, card))
    if not parsed:
        raise TrucoError("a trick needs at least one play", "empty_trick")
    table = strength_table(variant, vira)
    strengths = tuple((seat, COVERED if card is None else table[card]) for seat, card in parsed)
    return parsed, strengths


def trick_winner(plays: Iterable[tuple[int, Card | str | None]], variant, vira=None) -> int | None:
    """The team (0 or 1) that wins the trick, or None for a tie.

    `plays` is the trick in order as (seat, card) pairs, a face-down card given as None.
    `vira` is needed for Truco Paulista and ignored for Mineiro. Raises ValueError for
    a malformed trick (unknown seat, a seat or card twice, a card outside the pack).
    """
    variant = get_variant(variant)
    _, strengths = _check_plays(list(plays), variant, vira)
    return resolve_trick(strengths)[0]


def trick_winning_seat(plays: Iterable[tuple[int, Card | str | None]], variant,
                       vira=None) -> int | None:
    """The seat whose card takes the trick, or None for a tie (arguments as `trick_winner`).

    Between partners holding equal best cards, the one who played first takes it."""
    variant = get_variant(variant)
    _, strengths = _check_plays(list(plays), variant, vira)
    return resolve_trick(strengths)[1]


def explain_trick(plays, variant, vira=None, lang: str = "pt") -> str:
    """One sentence saying who wins the trick and why, in Portuguese ("pt") or English."""
    variant = get_variant(variant)
    parsed, strengths = _check_plays(list(plays), variant, vira)
    team, seat, first_tying = resolve_trick(strengths)
    names = manilhas(variant, vira)
    by_strength = dict(strengths)
    return _text.explain_trick(parsed, by_strength, team, seat, first_tying, variant, names, lang)


def _check_results(results) -> list[int | None]:
    results = list(results)
    for r in results:
        if r not in (0, 1, None) or isinstance(r, bool):
            raise TrucoError(f"a trick result is 0, 1 or None (tie), not {r!r}", "bad_result",
                             result=repr(r))
    if len(results) > 3:
        raise TrucoError(f"a hand has at most 3 tricks, not {len(results)}", "too_many_tricks",
                         n=len(results))
    for n in range(2, len(results)):
        if hand_status(results[:n])[0]:
            raise TrucoError(
                f"the results {_fmt(results)} go on past trick {n}, which already decided the hand",
                "past_decided", results=results, n=n)
    if not hand_status(results)[0]:
        raise TrucoError(f"the results {_fmt(results)} do not finish a hand: it is still undecided",
                         "undecided", results=results)
    return results


def _fmt(results) -> str:
    return "(" + ", ".join("tie" if r is None else str(r) for r in results) + ")"


def hand_winner(results: Iterable[int | None]) -> int | None:
    """The team that takes a finished hand from its trick results, or None if nobody scores.

    `results` holds each trick's result in order: 0, 1, or None for a tie. Raises
    ValueError for a sequence that is not a finished hand (still undecided, or going on
    past the deciding trick).
    """
    return hand_status(_check_results(results))[1]


def explain_hand(results, lang: str = "pt") -> str:
    """One sentence saying who takes the hand from these trick results and why."""
    results = _check_results(results)
    return _text.explain_hand(results, hand_status(results)[1], lang)


def finished_sequences() -> list[tuple[int | None, ...]]:
    """Every sequence of trick results that finishes a hand (15 of them), shortest first."""
    found = []
    outcomes = (0, 1, None)
    for a in outcomes:
        for b in outcomes:
            if hand_status((a, b))[0]:
                found.append((a, b))
            else:
                found.extend((a, b, c) for c in outcomes)
    return sorted(found, key=len)


def explain_last_hand(last_hand: dict, variant, lang: str = "pt") -> str:
    """Why `state.last_hand` ended as it did: its deciding trick and the hand's result, or who
    ran (from a raise or from the mão de onze/dez) and what it paid, or the forbidden raise."""
    variant = get_variant(variant)
    if last_hand["reason"] not in ("tricks", "all_tied"):
        return _text.explain_ending(last_hand, variant, lang)
    trick = [(seat, card) for seat, card in last_hand["tricks"][-1]]
    return (explain_trick(trick, variant, last_hand["vira"], lang) + " "
            + explain_hand(last_hand["trick_results"], lang))
