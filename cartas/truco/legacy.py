"""Reading games saved in the first format ("cartas.truco/1"), which held every field of the
state (hands, tricks, turn, score, the generator, every event...).

Such a save is turned into a setup plus its actions (docs/rules.md#saved-game-replays) and
replayed like any other: its events say everything needed. The first deal gives the first
dealer and the score the game started from, every "deal" event the hands dealt (so the
replay deals exactly those, in order), and the "decide", "play", "raise", "accept" and "run"
events the actions; the saved generator is the one the game goes on with (a replay of dealt
hands draws nothing from it). Then every field the save holds must be what the replayed game
holds: the rules decide what a state may be, not a second list of checks here. A field that
differs raises TrucoError "saved_inconsistent" naming it.

Only the events' shape is checked before the replay (`check_event`), so that reading the
setup and the actions out of them cannot fail any other way.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..contract import Event
from .errors import TrucoError
from .narration import EVENT_TYPES
from .rules import CARD_TEXT
from .variants import VARIANTS

if TYPE_CHECKING:
    from .state import TrucoState

FORMAT = "cartas.truco/1"
MAX_EVENTS = 20_000      # as the first format allowed
MAX_HANDS = 5_000
KEYS = ("format", "variant", "tie_lead", "rng", "score", "winner", "hand_number", "dealer",
        "hands", "vira", "mode", "threshold_team", "phase", "turn", "play_turn", "leader",
        "hand_value", "pending", "last_raise_team", "trick", "tricks", "results",
        "last_hand", "events")
MODES = ("normal", "threshold", "mao_de_ferro")
REASONS = ("tricks", "all_tied", "run", "ran_hand", "forbidden_raise")
_IDX = {text: i for i, text in enumerate(CARD_TEXT)}


# -- the first format, as the engine wrote it ------------------------------------------------

def first_format(state: TrucoState) -> dict[str, Any]:
    """What the first format held for `state` (what a first-format save must agree with)."""
    text = CARD_TEXT
    return json.loads(json.dumps({  # type: ignore[no-any-return]  # the JSON of a dict is a dict
        "format": FORMAT, "variant": state.variant.key, "tie_lead": state.tie_lead,
        "rng": state._rng.bit_generator.state, "score": list(state._score),
        "winner": state.winner, "hand_number": state.hand_number, "dealer": state.dealer,
        "hands": [[text[c] for c in h] for h in state._hands],
        "vira": None if state._vira is None else text[state._vira],
        "mode": state.mode, "threshold_team": state.threshold_team, "phase": state.phase,
        "turn": state._turn, "play_turn": state._play_turn, "leader": state._leader,
        "hand_value": state.hand_value,
        "pending": None if state._pending is None else list(state._pending),
        "last_raise_team": state._last_raise_team,
        "trick": [[s, text[c], cov] for s, c, cov in state._trick],
        "tricks": [[[s, None if cov else text[c]] for s, c, cov in t] for t in state._tricks],
        "results": list(state._results),
        "last_hand": state.last_hand,
        "events": state.events,
    }, ensure_ascii=False))


# -- the events' shape -----------------------------------------------------------------------

def _int(x: object, low: int, high: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x <= high


def _seat(x: object) -> bool:
    return _int(x, 0, 3)


def _team(x: object) -> bool:
    return _int(x, 0, 1)


# a check of one field's value
Predicate = Callable[[object], bool]


def _opt(pred: Predicate) -> Predicate:
    return lambda x: x is None or pred(x)


def _card(x: object) -> bool:
    return isinstance(x, str) and x in _IDX


def _bool(x: object) -> bool:
    return isinstance(x, bool)


def _pair(x: object) -> bool:
    return isinstance(x, list) and len(x) == 2 and all(_int(p, 0, 100) for p in x)


def _results(x: object) -> bool:
    return isinstance(x, list) and len(x) <= 3 and all(r is None or _team(r) for r in x)


def _plays(x: object) -> bool:
    return isinstance(x, list) and len(x) <= 4 and all(
        isinstance(p, list) and len(p) == 2 and _seat(p[0]) and (p[1] is None or _card(p[1]))
        for p in x)


def _hands(x: object) -> bool:
    return isinstance(x, list) and len(x) == 4 and all(
        isinstance(h, list) and len(h) <= 3 and all(c is None or _card(c) for c in h) for h in x)


def _text(x: object) -> bool:
    return isinstance(x, str) and len(x) <= 20


def _small(x: object) -> bool:
    return _int(x, 0, 100)


_COMMON: dict[str, Predicate] = {"type": lambda x: x in EVENT_TYPES, "variant": lambda x: x in VARIANTS}
EVENT_SCHEMA: dict[str, dict[str, Predicate]] = {
    "deal": {"hand_number": lambda x: _int(x, 1, MAX_HANDS), "dealer": _seat, "mao": _seat,
             "hands": _hands, "vira": _opt(_card),
             "manilhas": lambda x: isinstance(x, list) and len(x) == 4 and all(map(_card, x)),
             "score": _pair, "mode": lambda x: x in MODES, "threshold_team": _opt(_team),
             "value": _small},
    "decide": {"seat": _seat, "team": _team, "play": _bool},
    "play": {"seat": _seat, "card": _card, "covered": _bool, "blind": _bool,
             "position": _opt(lambda x: _int(x, 0, 2)), "manilha": _opt(_text),
             "trick": lambda x: _int(x, 1, 3)},
    "trick": {"number": lambda x: _int(x, 1, 3), "winner_team": _opt(_team),
              "winning_seat": _opt(_seat), "card": _opt(_card), "manilha": _opt(_text),
              "plays": _plays, "next_leader": _seat},
    "raise": {"seat": _seat, "team": _team, "value": _small, "name": _text, "reraise": _bool,
              "forbidden": _bool, "hand_value": _small},
    "accept": {"seat": _seat, "team": _team, "value": _small},
    "run": {"seat": _seat, "team": _team, "points": _small},
    "hand": {"hand_number": lambda x: _int(x, 1, MAX_HANDS), "winner_team": _opt(_team),
             "points": _small, "reason": lambda x: x in REASONS, "results": _results,
             "score": _pair},
    "game": {"winner_team": _team, "score": _pair},
}


def check_event(event: object, index: int, variant_key: str) -> None:
    """A TrucoError unless `event` has exactly the keys and value types of its type."""
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise TrucoError("saved_event", index=index)
    schema = EVENT_SCHEMA.get(event["type"])
    if schema is None or set(event) != set(schema) | set(_COMMON) \
            or event["variant"] != variant_key \
            or not all(pred(event[k]) for k, pred in schema.items()):
        raise TrucoError("saved_event", index=index)


# -- reading ---------------------------------------------------------------------------------

def _action(event: Event, index: int) -> str | None:
    """The text of the action an event records (None for events no action causes)."""
    kind = event["type"]
    if kind == "play":
        if event["blind"]:
            if event["position"] is None:
                raise TrucoError("saved_event", index=index)
            return f"blind {event['position']}"
        return f"{'cover' if event['covered'] else 'play'} {event['card']}"
    if kind == "raise":
        return f"raise {event['value']}"
    if kind == "decide":
        return "play hand" if event["play"] else "run hand"
    return kind if kind in ("accept", "run") else None


def read(d: dict[str, Any], replay: Callable[[dict[str, Any], list[str]], TrucoState]) -> TrucoState:
    """The game a first-format save `d` holds, replayed by `replay(setup, actions)`; the
    save's fields must then agree with the replayed game's (see the module docstring)."""
    for key in d:
        if key not in KEYS:
            raise TrucoError("saved_unknown_field", field=str(key)[:40])
    for key in KEYS:
        if key not in d:
            raise TrucoError("saved_field", field=key)
    variant = d["variant"]
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise TrucoError("saved_field", field="variant")
    events = d["events"]
    if not isinstance(events, list) or not 0 < len(events) <= MAX_EVENTS:
        raise TrucoError("saved_field", field="events")
    for i, event in enumerate(events):
        check_event(event, i, variant)
    first = events[0]
    if first["type"] != "deal":
        raise TrucoError("saved_inconsistent", field="events")
    setup = {"variant": variant, "tie_lead": d["tie_lead"], "score": first["score"],
             "dealer": first["dealer"], "seed": None, "rng": d["rng"],
             "deals": [{"hands": e["hands"], "vira": e["vira"]} for e in events
                       if e["type"] == "deal"]}
    actions = [text for i, e in enumerate(events) if (text := _action(e, i)) is not None]
    state = replay(setup, actions)
    replayed = first_format(state)
    for key in KEYS:
        if _canonical(replayed[key]) != _canonical(d[key]):  # True is not 1 here
            raise TrucoError("saved_inconsistent", field=key)
    return state


def _canonical(value: object) -> str:
    """A JSON value as canonical text: equal texts are the same value of the same types."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
