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
- "accept": seat, team, value; "run": seat, team, points (what the other team scores);
- "hand": hand_number, winner_team, points, reason ("tricks", "all_tied", "run",
  "ran_hand", "forbidden_raise"), results, score (after);
- "game": winner_team, score.

`redact_event(event, seat)` is the event as one seat saw it. The builders take pack
indexes (see `rules.CARD_TEXT`) and are called by the state as each event happens.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..contract import copy_event
from .rules import CARD_TEXT, deal_order, resolve_trick, strength_list

_IDX = {text: i for i, text in enumerate(CARD_TEXT)}


def _deal_starts(dealer: int) -> tuple[int, ...]:
    """Per seat, the pack position of its first card in `deal_order(dealer)`; each seat's
    three cards are consecutive there, so the hot path deals them as slices."""
    where = {(seat, k): n for n, (seat, k) in enumerate(deal_order(dealer))}
    starts = tuple(where[seat, 0] for seat in range(4))
    assert all(where[seat, k] == starts[seat] + k for seat in range(4) for k in (1, 2))
    return starts


DEAL_STARTS = tuple(_deal_starts(dealer) for dealer in range(4))


def deal_event(variant, hand_number, dealer, mao, order, vira, manilha_texts, score, mode,
               threshold_team, value) -> dict:
    text = CARD_TEXT
    return {
        "type": "deal", "variant": variant, "hand_number": hand_number, "dealer": dealer,
        "mao": mao, "hands": [[text[c] for c in order[i:i + 3]] for i in DEAL_STARTS[dealer]],
        "vira": None if vira is None else text[vira],
        "manilhas": list(manilha_texts), "score": [score[0], score[1]], "mode": mode,
        "threshold_team": threshold_team, "value": value,
    }


def play_event(variant, seat, card, covered, blind, pos, manilha_names, trick) -> dict:
    return {
        "type": "play", "variant": variant, "seat": seat, "card": CARD_TEXT[card],
        "covered": covered, "blind": blind, "position": pos if blind else None,
        "manilha": None if covered else manilha_names[card], "trick": trick,
    }


def trick_event(variant, number, team, seat, card, manilha_names, trick, leader) -> dict:
    text = CARD_TEXT
    return {
        "type": "trick", "variant": variant, "number": number, "winner_team": team,
        "winning_seat": seat, "card": None if card is None else text[card],
        "manilha": None if card is None else manilha_names[card],
        "plays": [[s, None if cov else text[c]] for s, c, cov in trick],
        "next_leader": leader,
    }


def raise_event(variant, seat, value, name, reraise, forbidden, hand_value) -> dict:
    return {"type": "raise", "variant": variant, "seat": seat, "team": seat & 1,
            "value": value, "name": name, "reraise": reraise, "forbidden": forbidden,
            "hand_value": hand_value}


def accept_event(variant, seat, value) -> dict:
    return {"type": "accept", "variant": variant, "seat": seat, "team": seat & 1, "value": value}


def run_event(variant, seat, points) -> dict:
    return {"type": "run", "variant": variant, "seat": seat, "team": seat & 1, "points": points}


def decide_event(variant, seat, team, play) -> dict:
    return {"type": "decide", "variant": variant, "seat": seat, "team": team, "play": play}


def hand_event(variant, hand_number, winner, points, reason, results, score) -> dict:
    return {"type": "hand", "variant": variant, "hand_number": hand_number,
            "winner_team": winner, "points": points, "reason": reason,
            "results": list(results), "score": [score[0], score[1]]}


def game_event(variant, winner, score) -> dict:
    return {"type": "game", "variant": variant, "winner_team": winner,
            "score": [score[0], score[1]]}


def build(record: tuple) -> dict:
    """The event a record `(builder, *args)` stands for."""
    return record[0](*record[1:])


def last_hand_dict(variant, deal: tuple, tricks, unfinished, results, winner, points, reason,
                   value, score, seat, refused) -> dict:
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


class NewEvents(Sequence[dict]):
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

    def __init__(self, state, start: int, stop: int):
        self._state, self._start, self._stop = state, start, stop
        self._built: list[dict] | None = None

    def _events(self) -> list[dict]:
        built = self._built
        if built is None:
            built = self._built = [copy_event(e) for e in self._state.events[self._start:self._stop]]
            self._state = None  # the copies are made: the state may go
        return built

    def __len__(self) -> int:
        return self._stop - self._start

    def __getitem__(self, index):  # an int gives one event, a slice a list of them
        return self._events()[index]

    def __iter__(self) -> Iterator[dict]:
        return iter(self._events())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NewEvents):
            other = other._events()
        return isinstance(other, Sequence) and not isinstance(other, str) and \
            self._events() == list(other)

    __hash__ = None  # type: ignore[assignment]  # compared by value, like a list

    def __repr__(self) -> str:
        return repr(self._events())

    def __reduce__(self):  # copies and pickles are plain lists
        return (list, (self._events(),))


def sees_hand(mode: str, phase_decide: bool, threshold_team, seat, owner: int) -> bool:
    """The rule of what a seat sees of a hand: its own cards, except in a mão de ferro (then
    nobody sees any); also its partner's while its team decides a mão de onze/dez. A
    spectator (seat None) sees no hand."""
    if seat is None or mode == "mao_de_ferro":
        return False
    if owner == seat:
        return True
    return phase_decide and owner == (seat + 2) & 3 and seat & 1 == threshold_team


def redact_event(event: dict, seat: int | None) -> dict:
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
