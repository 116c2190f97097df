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


def last_hand_dict(variant, deal, tricks, trick, results, winner, points, reason, value,
                   score, seat, refused) -> dict:
    """`TrucoState.last_hand` from the record the state keeps when a hand ends (`deal` is
    the hand's deal event, or its record: builder, then arguments)."""
    if deal.__class__ is tuple:
        deal = deal[0](*deal[1:])
    text = CARD_TEXT
    strength = strength_list(variant, None if deal["vira"] is None else _IDX[deal["vira"]])
    unfinished = trick if trick and not (tricks and trick is tricks[-1]) else []
    winning = []
    for t in tricks:
        pos = resolve_trick(t, strength)[1]
        winning.append(None if pos is None else t[pos][0])
    return {
        "hand_number": deal["hand_number"], "dealer": deal["dealer"], "mao": deal["mao"],
        "mode": deal["mode"], "threshold_team": deal["threshold_team"], "vira": deal["vira"],
        "manilhas": list(deal["manilhas"]), "score_before": list(deal["score"]),
        "hands": [list(h) for h in deal["hands"]],
        "tricks": [[[s, None if cov else text[c]] for s, c, cov in t] for t in tricks],
        "trick_results": list(results),
        "winning_seats": winning,
        "unfinished_trick": [[s, None if cov else text[c]] for s, c, cov in unfinished],
        "value": value, "winner_team": winner, "points": points, "reason": reason,
        "score": list(score), "seat": seat, "refused_value": refused,
    }


class EventList(list):
    """The events one `TrucoState.apply_action` caused: a list of event dicts, built on
    first use.

    Random play (benchmarks, bots, odds) applies many thousands of actions and never reads
    what `apply_action` returns, so the state logs events as records (see
    `TrucoState.events`) and this list starts out empty, knowing only `_source`: (the
    state, index of its first and past its last event in `state.events`). The first use
    through any list method fills it with the very dicts of `state.events` (the same
    objects, built once); from then on it is a plain list, which the caller may change
    without touching the state. Copying or pickling it gives a plain list of the dicts."""

    __slots__ = ("_source",)
    _source: tuple | None  # (state, start, stop) until built, then None

    def _build(self) -> None:
        source = getattr(self, "_source", None)
        if source is not None:
            self._source = None
            state, start, stop = source
            list.extend(self, state.events[start:stop])

    def __len__(self) -> int:
        source = getattr(self, "_source", None)
        return list.__len__(self) if source is None else source[2] - source[1]

    def __reduce_ex__(self, protocol):
        return (list, (list(self),))

    def __radd__(self, other):
        # `[...] + events`: list's own concatenation would read the (empty) items directly
        if not isinstance(other, list):
            return NotImplemented
        return other + list(self)


def _building(name: str):
    """`list.<name>`, once the EventList's dicts are in (the argument's too, when it is an
    EventList: list's comparisons and concatenation read another list's items directly)."""
    base = getattr(list, name)

    def method(self, *args, **kwargs):
        self._build()
        for arg in args:
            if arg.__class__ is EventList:
                arg._build()
        return base(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = base.__doc__
    return method


# Every list method that reads or changes the items (`len` is above; truth uses it).
for _name in ("__getitem__", "__iter__", "__reversed__", "__contains__", "__eq__", "__ne__",
              "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__",
              "__iadd__", "__imul__", "__setitem__", "__delitem__", "__repr__", "append",
              "extend", "insert", "pop", "remove", "clear", "copy", "count", "index",
              "reverse", "sort"):
    setattr(EventList, _name, _building(_name))
del _name


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
