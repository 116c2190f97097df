"""Reading 21 games saved in the first format ("cartas.vinte_e_um/1"), which held every
field of the state (hands, stock, chips, queue, the generator, every event...).

Such a save is turned into a setup plus its actions (docs/rules.md#saved-game-replays) and
replayed like any other: its events say everything needed. "game_start" gives the first
banker; the "deal" events between one "round_start" or "reshuffle" and the next give the
top of each stock laid out (the last stock's remaining cards are the saved "stock"); the
"refuse_bank" events before a lot's "bank_change" give the lot drawn; and the "bet", "hit",
"stand", "draw", "call" and bank events give the actions. The saved generator is the one
the game goes on with (a replay of fixed stocks and lots draws nothing from it). Then every
field the save holds must be what the replayed game holds: the rules decide what a state may
be, not a second list of checks here. A field that differs raises VinteEUmError "bad_state"
naming it ("inconsistent").

Only the shape of the events and of the table's set-up is checked before the replay, so
that reading the setup and the actions out of them cannot fail any other way.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeGuard

from ..cards import STANDARD_PACK
from ..contract import Event
from .config import CONFIG_KEYS, check_config
from .errors import VinteEUmError

if TYPE_CHECKING:
    import numpy as np

    from .state import VinteEUmState

FORMAT = "cartas.vinte_e_um/1"
MAX_EVENTS = 400_000
_CARD = {str(card): card for card in STANDARD_PACK}
KEYS = ("format", "config", "rng", "chips", "banker", "round_number", "bank_rounds", "phase",
        "hands", "covered", "bets", "in_round", "outcome", "called", "queue", "stock",
        "collected", "shown", "natural_seat", "high_bid", "high_bidder", "pending_offer",
        "offered", "events", "winner", "winners")
# Every event the engine logs: its fields and their kinds (see _check_event).
EVENT_FIELDS: dict[str, dict[str, str]] = {
    "game_start": {"players": "int", "banker": "seat", "chips": "ints", "ace": "ace",
                   "decks": "int", "rotation": "rotation"},
    "round_start": {"round": "int", "banker": "seat", "players": "seats",
                    "sitting_out": "seats"},
    "deal": {"seat": "seat", "face_up": "bool", "card": "card?"},
    "bet": {"seat": "seat", "amount": "int"},
    "banker_21": {"seat": "seat", "cards": "cards", "chips": "int"},
    "hit": {"seat": "seat"},
    "stand": {"seat": "seat", "points": "int", "auto": "bool"},
    "bust": {"seat": "seat", "cards": "cards", "points": "int"},
    "pay": {"from": "seat", "to": "seat", "amount": "int", "owed": "int"},
    "draw": {"seat": "seat"},
    "reveal": {"seat": "seat", "card": "card"},
    "call": {"seat": "seat", "banker": "seat", "player_points": "int", "banker_points": "int",
             "cards": "cards", "winner": "side", "chips": "int"},
    "banker_bust": {"seat": "seat", "cards": "cards", "points": "int", "pays": "seats"},
    "reshuffle": {"cards": "int"},
    "round_end": {"round": "int", "banker": "seat", "hands": "hands", "points": "points",
                  "chips": "ints"},
    "rotation": {"mode": "mode", "seats": "seats"},
    "take_bank": {"seat": "seat"},
    "refuse_bank": {"seat": "seat"},
    "bid": {"seat": "seat", "amount": "int"},
    "pass": {"seat": "seat"},
    "offer": {"seat": "seat", "amount": "int"},
    "accept_offer": {"seat": "seat", "buyer": "seat", "amount": "int"},
    "refuse_offer": {"seat": "seat", "buyer": "seat", "amount": "int"},
    "bank_change": {"from": "seat", "to": "seat", "reason": "reason", "price": "int"},
    "game_over": {"winner": "seat?", "winners": "seats", "chips": "ints", "cap": "int?"},
}
EVENT_TYPES = frozenset(EVENT_FIELDS)
_OPTIONAL_FIELDS = {"cap"}
_CHOICES = {"side": ("player", "banker"), "mode": ("rounds", "auction", "sale"),
            "reason": ("rounds", "lot", "natural", "auction", "sale", "broke"),
            "rotation": ("rounds", "natural", "auction", "sale", "permanent"),
            "ace": (1, 11, "flexible")}
_BIG = 10 ** 9


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_value(value: object, kind: str, players: int) -> bool:
    if kind.endswith("?"):
        return value is None or _is_value(value, kind[:-1], players)
    if kind == "seat":
        return _is_int(value) and 0 <= value < players
    if kind == "int":
        return _is_int(value) and -_BIG <= value <= _BIG
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "card":
        return isinstance(value, str) and value in _CARD
    if kind in _CHOICES:
        return any(value == c and type(value) is type(c) for c in _CHOICES[kind])
    if kind in ("cards", "seats", "ints"):
        item = {"cards": "card", "seats": "seat", "ints": "int"}[kind]
        return isinstance(value, list) and len(value) <= 60 and all(
            _is_value(v, item, players) for v in value)
    if kind in ("hands", "points"):
        item = "cards" if kind == "hands" else "int"
        return isinstance(value, dict) and len(value) <= players and all(
            isinstance(k, str) and k.isdigit() and int(k) < players and _is_value(v, item, players)
            for k, v in value.items())
    return False


def _check_event(event: object, players: int) -> bool:
    """Whether `event` is one the engine could have logged: its type, exactly its fields,
    each of the right kind."""
    if not isinstance(event, dict):
        return False
    kind = event.get("type")
    fields = EVENT_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return False
    keys = set(event) - {"type"}
    if not set(fields) - _OPTIONAL_FIELDS <= keys <= set(fields):
        return False
    return all(_is_value(event[k], fields[k], players) for k in keys)


def _bad(where: str, rule: str, **fields: object) -> VinteEUmError:
    return VinteEUmError("bad_state", where=where, rule=rule, **fields)


def rng_to_json(rng: np.random.Generator) -> dict[str, Any]:
    """A numpy Generator's state as JSON (its arrays as {"ndarray", "dtype"})."""
    state = rng.bit_generator.state
    return json.loads(json.dumps(state, default=lambda a: {"ndarray": a.tolist(),  # type: ignore[no-any-return]  # the JSON of a dict is a dict
                                                           "dtype": str(a.dtype)}))


def first_format(state: VinteEUmState) -> dict[str, Any]:
    """What the first format held for `state` (what a first-format save must agree with)."""
    # the JSON of a dict is a dict
    return json.loads(json.dumps(_first_format(state, rng_to_json(state.rng)), ensure_ascii=False))  # type: ignore[no-any-return]


def _first_format(state: VinteEUmState, rng: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": FORMAT, "config": dict(state.config),
        "rng": rng, "chips": list(state.chips), "banker": state.banker,
        "round_number": state.round_number, "bank_rounds": state.bank_rounds,
        "phase": state.phase,
        "hands": [[str(c) for c in h] for h in state.hands], "covered": list(state.covered),
        "bets": list(state.bets), "in_round": list(state.in_round),
        "outcome": list(state.seat_results), "called": list(state.called),
        "queue": list(state.queue),
        "stock": [str(c) for c in state.stock], "collected": [str(c) for c in state.collected],
        "shown": [[str(c) for c in cards] for cards in state.shown],
        "natural_seat": state.natural_seat, "high_bid": state.high_bid,
        "high_bidder": state.high_bidder,
        "pending_offer": list(state.pending_offer) if state.pending_offer else None,
        "offered": list(state.offered), "events": state.events,
        "winner": state.winner, "winners": list(state.winners),
    }


_ACTION_EVENTS = {"hit", "draw", "take_bank", "refuse_bank", "pass", "accept_offer", "refuse_offer"}


def _action(event: Event) -> str | None:
    """The text of the action an event records (None for events no action causes)."""
    kind = event["type"]
    if kind in ("bet", "bid", "offer"):
        return f"{kind} {event['amount']}"
    if kind == "stand":
        return None if event["auto"] else "stand"
    if kind == "call":
        return f"call {event['seat']}"
    return kind if kind in _ACTION_EVENTS else None


def _fixed(events: list[Event], stock: object) -> tuple[list[list[str]], list[int]]:
    """The stocks laid out (the cards dealt from each, then the saved `stock` under the last)
    and the lots drawn, read from the events."""
    stocks: list[list[str]] = []
    lots: list[int] = []
    refused: list[int] = []
    for i, event in enumerate(events):
        kind = event["type"]
        if kind in ("round_start", "reshuffle"):
            stocks.append([])
        elif kind == "deal":
            if not stocks or event["card"] is None:
                raise _bad(f"events[{i}]", "inconsistent")
            stocks[-1].append(event["card"])
        elif kind == "rotation":
            refused = []
        elif kind == "refuse_bank":
            refused.append(event["seat"])
        elif kind == "bank_change" and event["reason"] == "lot":
            if event["to"] not in refused:
                raise _bad(f"events[{i}]", "inconsistent")
            lots.append(refused.index(event["to"]))
    if not isinstance(stock, list) or not stocks:
        raise _bad("stock", "type")
    for i, text in enumerate(stock):
        if not isinstance(text, str) or text not in _CARD:
            raise _bad(f"stock[{i}]", "card")
    stocks[-1] = stocks[-1] + stock
    return stocks, lots


def read(data: dict[str, Any], replay: Callable[[dict[str, Any], list[str]], VinteEUmState]) -> VinteEUmState:
    """The game a first-format save holds, replayed by `replay(setup, actions)`; the save's
    fields must then agree with the replayed game's (see the module docstring)."""
    keys = set(data)
    if keys != set(KEYS) and keys != set(KEYS) - {"shown"}:  # "shown" came later
        raise _bad("$", "keys", expected=", ".join(KEYS))
    config = data["config"]
    if not isinstance(config, dict) or set(config) != set(CONFIG_KEYS):
        raise _bad("config", "keys", expected=", ".join(CONFIG_KEYS))
    checked = check_config(**config)
    if checked != config:  # normalised differently: not what the first format wrote
        raise _bad("config", "inconsistent")
    players = checked["players"]
    events = data["events"]
    if not isinstance(events, list) or len(events) > MAX_EVENTS:
        raise _bad("events", "length" if isinstance(events, list) else "type")
    for i, event in enumerate(events):
        if not _check_event(event, players):
            raise _bad(f"events[{i}]", "type")
    if not events or events[0]["type"] != "game_start":
        raise _bad("events", "inconsistent")
    stocks, lots = _fixed(events, data["stock"])
    setup = {"players": players, "options": {k: v for k, v in checked.items() if k != "players"},
             "banker": events[0]["banker"], "deal": None, "seed": None, "rng": data["rng"],
             "stocks": stocks, "lots": lots}
    actions = [text for event in events if (text := _action(event)) is not None]
    state = replay(setup, actions)
    replayed = first_format(state)
    for key in KEYS:
        if key in data and _canonical(replayed[key]) != _canonical(data[key]):  # True is not 1 here
            raise _bad(key, "inconsistent")
    return state


def _canonical(value: object) -> str:
    """A JSON value as canonical text: equal texts are the same value of the same types."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
