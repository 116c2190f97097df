"""The events a truco game records: plain JSON-friendly dicts, one builder per type.

Every event has "type" and "variant" (the variant's key, so `narrate(event, lang)` needs
nothing else). Types and their other keys:

- "deal": hand_number, dealer, mao, hands (the 3 cards of each seat, in seat order), vira
  (or None), manilhas (weakest first), score (before the hand), mode, threshold_team, value;
- "decide": seat, team, play (True: the team plays its mão de onze/dez; False: it runs);
- "play": seat, card, covered, blind, position (blind plays only), manilha (its nickname or
  None), trick (1..3);
- "trick": number, winner_team (None for a tie), winning_seat, card, manilha, plays
  ([seat, card or None if face down] in play order), next_leader;
- "raise": seat, team, value (asked), name (the shout: always "truco" when forbidden),
  reraise, forbidden (a raise in a mão de onze/dez, which loses the game), hand_value (what
  the hand is worth now: a re-raise accepts the raise it answers);
  a short game's "deal" also has hands_limit (its number of hands, docs/rules.md#truco-short-game);
- "accept": seat, team, value; "run": seat, team, points (what the other team scores);
- "hand": hand_number, winner_team, points, reason ("tricks", "all_tied", "run",
  "ran_hand", "forbidden_raise"), results, score (after);
- "game": winner_team, score; and hands_played (how many) when a short game ended by its hands.

`redact_event(event, seat)` is the event as one seat saw it. The builders take pack
indexes (see `rules.CARD_TEXT`) and are called by the state as each event happens.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypedDict, overload

from ..contract import Event, copy_event
from .rules import CARD_TEXT, PLAYER_COUNTS, deal_order, resolve_trick, strength_list
from .variants import Variant

if TYPE_CHECKING:
    from .state import TrucoState

# An event as the state logs it: its builder below, then the builder's arguments.
Record: TypeAlias = "tuple[Callable[..., Event], *tuple[Any, ...]]"
# A finished trick inside the engine: (seat, pack index, face down?) in play order.
Trick: TypeAlias = "list[tuple[int, int, bool]]"
# A play as events and `last_hand` write it: [seat, card text or None if face down].
PlayPair: TypeAlias = "list[int | str | None]"
Reason = Literal["tricks", "all_tied", "run", "ran_hand", "forbidden_raise"]


class PendingRaise(TypedDict):
    """`TrucoState.pending_raise`: the raise awaiting an answer."""

    value: int
    name: str
    team: int
    seat: int
    answer_seat: int


class LastHand(TypedDict):
    """`TrucoState.last_hand`: the last finished hand (see `last_hand_dict`)."""

    hand_number: int
    dealer: int
    mao: int
    mode: str
    threshold_team: int | None
    vira: str | None
    manilhas: list[str]
    score_before: list[int]
    hands: list[list[str]]
    tricks: list[list[PlayPair]]
    trick_results: list[int | None]
    winning_seats: list[int | None]
    unfinished_trick: list[PlayPair]
    value: int
    winner_team: int | None
    points: int
    reason: Reason
    score: list[int]
    seat: int | None
    refused_value: int | None

_IDX = {text: i for i, text in enumerate(CARD_TEXT)}


def _deal_starts(dealer: int, players: int = 4) -> tuple[int, ...]:
    """Per seat, the pack position of its first card in `deal_order(dealer, players)`; each
    seat's three cards are consecutive there, so the hot path deals them as slices."""
    where = {(seat, k): n for n, (seat, k) in enumerate(deal_order(dealer, players))}
    starts = tuple(where[seat, 0] for seat in range(players))
    assert all(where[seat, k] == starts[seat] + k for seat in range(players) for k in (1, 2))
    return starts


# players -> dealer -> per seat, where its three cards start in the shuffled pack
DEAL_STARTS_BY = {players: tuple(_deal_starts(dealer, players) for dealer in range(players))
                  for players in PLAYER_COUNTS}
DEAL_STARTS = DEAL_STARTS_BY[4]


def deal_event(variant: str, hand_number: int, dealer: int, mao: int, order: list[int], vira: int | None,
               manilha_texts: tuple[str, ...], score: tuple[int, int], mode: str,
               threshold_team: int | None, value: int, players: int = 4, hands: int | None = None) -> Event:
    text = CARD_TEXT
    event: Event = {
        "type": "deal", "variant": variant, "hand_number": hand_number, "dealer": dealer,
        "mao": mao, "hands": [[text[c] for c in order[i:i + 3]]
                              for i in DEAL_STARTS_BY[players][dealer]],
        "vira": None if vira is None else text[vira],
        "manilhas": list(manilha_texts), "score": [score[0], score[1]], "mode": mode,
        "threshold_team": threshold_team, "value": value,
    }
    if hands is not None:  # a short game (docs/rules.md#truco-short-game): its length
        event["hands_limit"] = hands
    return event


def play_event(variant: str, seat: int, card: int, covered: bool, blind: bool, pos: int,
               manilha_names: tuple[str | None, ...], trick: int) -> Event:
    return {
        "type": "play", "variant": variant, "seat": seat, "card": CARD_TEXT[card],
        "covered": covered, "blind": blind, "position": pos if blind else None,
        "manilha": None if covered else manilha_names[card], "trick": trick,
    }


def trick_event(variant: str, number: int, team: int | None, seat: int | None, card: int | None,
                manilha_names: tuple[str | None, ...], trick: Trick, leader: int) -> Event:
    text = CARD_TEXT
    return {
        "type": "trick", "variant": variant, "number": number, "winner_team": team,
        "winning_seat": seat, "card": None if card is None else text[card],
        "manilha": None if card is None else manilha_names[card],
        "plays": [[s, None if cov else text[c]] for s, c, cov in trick],
        "next_leader": leader,
    }


def raise_event(variant: str, seat: int, value: int, name: str, reraise: bool, forbidden: bool,
                hand_value: int) -> Event:
    return {"type": "raise", "variant": variant, "seat": seat, "team": seat & 1,
            "value": value, "name": name, "reraise": reraise, "forbidden": forbidden,
            "hand_value": hand_value}


def accept_event(variant: str, seat: int, value: int) -> Event:
    return {"type": "accept", "variant": variant, "seat": seat, "team": seat & 1, "value": value}


def run_event(variant: str, seat: int, points: int) -> Event:
    return {"type": "run", "variant": variant, "seat": seat, "team": seat & 1, "points": points}


def decide_event(variant: str, seat: int, team: int, play: bool) -> Event:
    return {"type": "decide", "variant": variant, "seat": seat, "team": team, "play": play}


def hand_event(variant: str, hand_number: int, winner: int | None, points: int, reason: Reason,
               results: list[int | None], score: list[int]) -> Event:
    return {"type": "hand", "variant": variant, "hand_number": hand_number,
            "winner_team": winner, "points": points, "reason": reason,
            "results": list(results), "score": [score[0], score[1]]}


def game_event(variant: str, winner: int | None, score: list[int], played: int | None = None) -> Event:
    event: Event = {"type": "game", "variant": variant, "winner_team": winner,
                    "score": [score[0], score[1]]}
    if played is not None:  # a short game won by being ahead after its hands (truco-short-game)
        event["hands_played"] = played
    return event


def build(record: Record) -> Event:
    """The event a record `(builder, *args)` stands for."""
    return record[0](*record[1:])


def last_hand_dict(variant: Variant, deal: Record, tricks: list[Trick], unfinished: Trick,
                   results: list[int | None], winner: int | None, points: int, reason: Reason,
                   value: int, score: list[int], seat: int | None, refused: int | None) -> LastHand:
    """`TrucoState.last_hand` from the record the state keeps when a hand ends: `deal` is the
    record of the hand's deal event, `tricks` its finished tricks, `unfinished` the cards of
    a trick the hand ended before finishing ([] when none)."""
    deal_event = build(deal)
    text = CARD_TEXT
    vira = deal_event["vira"]
    strength = strength_list(variant, None if vira is None else _IDX[vira])
    winning = []
    for t in tricks:
        pos = resolve_trick(t, strength)[1]
        winning.append(None if pos is None else t[pos][0])
    return {
        "hand_number": deal_event["hand_number"], "dealer": deal_event["dealer"],
        "mao": deal_event["mao"], "mode": deal_event["mode"],
        "threshold_team": deal_event["threshold_team"], "vira": vira,
        "manilhas": list(deal_event["manilhas"]), "score_before": list(deal_event["score"]),
        "hands": [list(h) for h in deal_event["hands"]],
        "tricks": [[[s, None if cov else text[c]] for s, c, cov in t] for t in tricks],
        "trick_results": list(results),
        "winning_seats": winning,
        "unfinished_trick": [[s, None if cov else text[c]] for s, c, cov in unfinished],
        "value": value, "winner_team": winner, "points": points, "reason": reason,
        "score": list(score), "seat": seat, "refused_value": refused,
    }


class NewEvents(Sequence[Event]):
    """The events one `TrucoState.apply_action` caused: a read-only sequence of event dicts,
    built on first use.

    Random play (benchmarks, bots, odds) applies many thousands of actions and never reads
    what `apply_action` returns, so the state logs events as records (see
    `TrucoState.events`) and this sequence starts out knowing only where its events are:
    the state, and the index of its first and past its last event in `state.events`. The
    first read builds copies of those dicts (`cartas.contract.copy_event`: they share no list
    with the history), which are the caller's to change. `list(events)` gives a plain list
    (for `json.dumps`, or to append to); equal to any sequence of the same dicts."""

    __slots__ = ("_state", "_start", "_stop", "_built")

    def __init__(self, state: TrucoState, start: int, stop: int):
        self._state, self._start, self._stop = state, start, stop
        self._built: list[Event] | None = None

    def _events(self) -> list[Event]:
        built = self._built
        if built is None:
            built = self._built = [copy_event(e) for e in self._state.events[self._start:self._stop]]
            self._state = None  # type: ignore[assignment]  # the copies are made: the state may go (never read again)
        return built

    def __len__(self) -> int:
        return self._stop - self._start

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:  # an int gives one event, a slice a list of them
        return self._events()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NewEvents):
            other = other._events()
        return isinstance(other, Sequence) and not isinstance(other, str) and \
            self._events() == list(other)

    __hash__ = None  # type: ignore[assignment]  # compared by value, like a list

    def __repr__(self) -> str:
        return repr(self._events())

    def __reduce__(self) -> tuple[type[list[Event]], tuple[list[Event]]]:  # copies and pickles are plain lists
        return (list, (self._events(),))


def sees_hand(mode: str, phase_decide: bool, threshold_team: int | None, seat: int | None, owner: int) -> bool:
    """The rule of what a seat sees of a hand: its own cards, except in a mão de ferro (then
    nobody sees any); also its partner's while its team decides a mão de onze/dez. A
    spectator (seat None) sees no hand. Mano a mano there is no partner (seats 0 and 1 only,
    so no `owner` is ever `seat + 2`): the player at the threshold sees her own cards alone
    (docs/rules.md#mano-a-mano-threshold)."""
    if seat is None or mode == "mao_de_ferro":
        return False
    if owner == seat:
        return True
    return phase_decide and owner == (seat + 2) & 3 and seat & 1 == threshold_team


def redact_event(event: Event, seat: int | None) -> Event:
    """The event as `seat` saw it (None: a spectator): hidden cards become None.

    A face-down card is seen by its player only; a deal shows the seat its own hand (and its
    partner's when its team decides a mão de onze/dez), never in a mão de ferro."""
    kind = event["type"]
    if kind == "play" and event["covered"] and event["seat"] != seat:
        return {**event, "card": None}
    if kind == "deal":
        deciding = event["mode"] == "threshold"
        hands = [h if sees_hand(event["mode"], deciding, event["threshold_team"], seat, s)
                 else [None] * len(h) for s, h in enumerate(event["hands"])]
        return {**event, "hands": hands}
    return event
