"""Saving and loading a truco game: `to_dict(state)` and `restore(...)` behind `from_json`.

The saved form is versioned (`JSON_FORMAT`) and holds everything, the random generator
included, so a loaded game goes on exactly as the original would. Loading trusts nothing:
`restore` checks every field's type and range, that no card is in two places (hands, vira,
cards played), that each seat holds as many cards as the tricks leave it, that phase, mode,
turn, pending raise, score and winner agree with each other, the generator's state (only
numpy's PCG64 is accepted, built from an allow-list, never by a name the text chooses) and
every event's shape. Anything else raises TrucoError with a code naming the problem; no
other exception escapes.
"""
from __future__ import annotations

import json

import numpy as np

from . import events as ev
from .errors import TrucoError
from .narration import EVENT_TYPES
from .rules import CARD_TEXT, COVER_FROM_TRICK, TIE_LEADS, hand_status, resolve_trick, strength_list
from .variants import VARIANTS

JSON_FORMAT = "cartas.truco/1"
MAX_JSON = 4_000_000     # characters of a saved game
MAX_EVENTS = 20_000      # a game to 12 records a few hundred
MAX_HANDS = 5_000        # hands in one game (each hand scores or ties; ties are rare)
PHASES = ("decide", "play", "answer", "game_over")
MODES = ("normal", "threshold", "mao_de_ferro")
REASONS = ("tricks", "all_tied", "run", "ran_hand", "forbidden_raise")
# The only random generators a saved game may name: numpy's default PCG64, made here.
BIT_GENERATORS = {"PCG64": np.random.PCG64}
_IDX = {text: i for i, text in enumerate(CARD_TEXT)}
_KEYS = ("format", "variant", "tie_lead", "rng", "score", "winner", "hand_number", "dealer",
         "hands", "vira", "mode", "threshold_team", "phase", "turn", "play_turn", "leader",
         "hand_value", "pending", "last_raise_team", "trick", "tricks", "results",
         "last_hand", "events")


# -- saving -----------------------------------------------------------------------------

def to_dict(state) -> dict:
    """The whole state as a JSON-friendly dict."""
    text = CARD_TEXT
    return {
        "format": JSON_FORMAT, "variant": state.variant.key, "tie_lead": state.tie_lead,
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
    }


def rng_copy(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state."""
    return _rng_from_state(rng.bit_generator.state)


def _rng_from_state(state) -> np.random.Generator:
    """A Generator from a saved bit-generator state; only `BIT_GENERATORS` are accepted."""
    allowed = ", ".join(BIT_GENERATORS)
    if not isinstance(state, dict) or set(state) != {"bit_generator", "state", "has_uint32",
                                                     "uinteger"}:
        raise TrucoError("saved_rng", allowed=allowed)
    maker = BIT_GENERATORS.get(state["bit_generator"]) if isinstance(
        state["bit_generator"], str) else None
    inner = state["state"]
    if (maker is None or not isinstance(inner, dict) or set(inner) != {"state", "inc"}
            or not all(_int(inner[k], 0, 2 ** 128 - 1) for k in ("state", "inc"))
            or state["has_uint32"] not in (0, 1) or isinstance(state["has_uint32"], bool)
            or not _int(state["uinteger"], 0, 2 ** 32 - 1)):
        raise TrucoError("saved_rng", allowed=allowed)
    bit_gen = maker()
    try:
        bit_gen.state = state  # type: ignore[assignment]  # a dict of the shape checked above
    except (TypeError, ValueError, KeyError, OverflowError):
        raise TrucoError("saved_rng", allowed=allowed) from None
    return np.random.Generator(bit_gen)


# -- small predicates ------------------------------------------------------------------------

def _int(x, low: int, high: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x <= high


def _seat(x) -> bool:
    return _int(x, 0, 3)


def _team(x) -> bool:
    return _int(x, 0, 1)


def _opt(pred):
    return lambda x: x is None or pred(x)


def _card(x) -> bool:
    return isinstance(x, str) and x in _IDX


def _bool(x) -> bool:
    return isinstance(x, bool)


def _pair(x) -> bool:
    return isinstance(x, list) and len(x) == 2 and all(_int(p, 0, 100) for p in x)


def _results(x) -> bool:
    return isinstance(x, list) and len(x) <= 3 and all(r is None or _team(r) for r in x)


def _plays(x) -> bool:
    return isinstance(x, list) and len(x) <= 4 and all(
        isinstance(p, list) and len(p) == 2 and _seat(p[0]) and (p[1] is None or _card(p[1]))
        for p in x)


def _hands(x) -> bool:
    return isinstance(x, list) and len(x) == 4 and all(
        isinstance(h, list) and len(h) <= 3 and all(c is None or _card(c) for c in h) for h in x)


def _text(x) -> bool:
    return isinstance(x, str) and len(x) <= 20


def _small(x) -> bool:
    return _int(x, 0, 100)


_COMMON = {"type": lambda x: x in EVENT_TYPES, "variant": lambda x: x in VARIANTS}
EVENT_SCHEMA = {
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
LAST_HAND_SCHEMA = {
    "hand_number": lambda x: _int(x, 1, MAX_HANDS), "dealer": _seat, "mao": _seat,
    "mode": lambda x: x in MODES, "threshold_team": _opt(_team), "vira": _opt(_card),
    "manilhas": lambda x: isinstance(x, list) and len(x) == 4 and all(map(_card, x)),
    "score_before": _pair, "hands": _hands,
    "tricks": lambda x: isinstance(x, list) and len(x) <= 3 and all(
        _plays(t) and len(t) == 4 for t in x),
    "trick_results": _results, "winning_seats": lambda x: isinstance(x, list) and len(x) <= 3
    and all(s is None or _seat(s) for s in x), "unfinished_trick": _plays, "value": _small,
    "winner_team": _opt(_team), "points": _small, "reason": lambda x: x in REASONS,
    "score": _pair, "seat": _opt(_seat), "refused_value": _opt(_small),
}


def check_event(event, index: int, variant_key: str) -> None:
    """A TrucoError unless `event` has exactly the keys and value types of its type."""
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise TrucoError("saved_event", index=index)
    schema = EVENT_SCHEMA.get(event["type"])
    if schema is None or set(event) != set(schema) | set(_COMMON) \
            or event["variant"] != variant_key \
            or not all(pred(event[k]) for k, pred in schema.items()):
        raise TrucoError("saved_event", index=index)


# -- loading ----------------------------------------------------------------------------

def _load(text):
    if isinstance(text, dict):
        return text
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise TrucoError("saved_not_json") from None
    if not isinstance(text, str):
        raise TrucoError("saved_not_json")
    if len(text) > MAX_JSON:
        raise TrucoError("saved_too_large", top=MAX_JSON)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise TrucoError("saved_not_json") from None


def _need(ok: bool, field: str, code: str = "saved_field") -> None:
    if not ok:
        raise TrucoError(code, field=field)


def restore(cls, tables, text):  # noqa: C901 - goes when a save is its setup plus its actions (issue 19, item 5)
    """Check a saved game (text, bytes or dict) and build the `cls` state it describes;
    `tables(variant)` gives the variant's precomputed tables."""
    d = _load(text)
    if not isinstance(d, dict):
        raise TrucoError("saved_not_json")
    if d.get("format") != JSON_FORMAT:
        raise TrucoError("bad_format", format=repr(d.get("format"))[:40])
    for key in d:
        if key not in _KEYS:
            raise TrucoError("saved_unknown_field", field=str(key)[:40])
    for key in _KEYS:
        _need(key in d, key)
    _need(isinstance(d["variant"], str) and d["variant"] in VARIANTS, "variant")
    variant = VARIANTS[d["variant"]]
    _need(isinstance(d["tie_lead"], str) and d["tie_lead"] in TIE_LEADS, "tie_lead")
    rng = _rng_from_state(d["rng"])

    # -- simple fields -------------------------------------------------------------------
    phase, mode = d["phase"], d["mode"]
    _need(isinstance(phase, str) and phase in PHASES, "phase")
    _need(isinstance(mode, str) and mode in MODES, "mode")
    over = phase == "game_over"
    target = variant.target
    top = target - 1 + variant.ladder[-1] if over else target - 1
    _need(_pair(d["score"]) and all(p <= top for p in d["score"]), "score")
    score = d["score"]
    _need(_int(d["hand_number"], 1, MAX_HANDS), "hand_number")
    for key in ("dealer", "turn", "leader"):
        _need(_seat(d[key]), key)
    _need(_opt(_seat)(d["play_turn"]), "play_turn")
    _need(_opt(_team)(d["winner"]), "winner")
    _need(_opt(_team)(d["threshold_team"]), "threshold_team")
    _need(_opt(_team)(d["last_raise_team"]), "last_raise_team")
    _need(_hands(d["hands"]) and all(c is not None for h in d["hands"] for c in h), "hands")
    _need(isinstance(d["trick"], list) and len(d["trick"]) <= 4 and all(
        isinstance(p, list) and len(p) == 3 and _seat(p[0]) and _card(p[1]) and _bool(p[2])
        for p in d["trick"]), "trick")
    _need(isinstance(d["tricks"], list) and len(d["tricks"]) <= 3 and all(
        _plays(t) and len(t) == 4 for t in d["tricks"]), "tricks")
    _need(_results(d["results"]) and len(d["results"]) == len(d["tricks"]), "results")
    if variant.uses_vira:
        _need(_card(d["vira"]), "vira")
    else:
        _need(d["vira"] is None, "vira")
    pending = d["pending"]
    _need(pending is None or (isinstance(pending, list) and len(pending) == 3
                              and _small(pending[0]) and _team(pending[1]) and _seat(pending[2])
                              and pending[1] == pending[2] & 1), "pending")

    # -- the cards: each in one place, each seat holding what the tricks leave it ----------
    vira = d["vira"]
    seen = [c for h in d["hands"] for c in h] + [p[1] for p in d["trick"]]
    trick_is_last = bool(d["tricks"]) and len(d["trick"]) == 4 and \
        [p[0] for p in d["trick"]] == [p[0] for p in d["tricks"][-1]]
    finished = d["tricks"][:-1] if trick_is_last else d["tricks"]
    seen += [c for t in finished for _, c in t if c is not None]
    if vira is not None:
        seen.append(vira)
    if len(set(seen)) != len(seen):
        dup = next(c for c in seen if seen.count(c) > 1)
        raise TrucoError("saved_card_twice", card=dup)
    _need(len(d["trick"]) < 4 or (over and trick_is_last), "trick", "saved_inconsistent")
    in_trick = {p[0] for p in d["trick"]} if not trick_is_last else set()
    for seat, hand in enumerate(d["hands"]):
        expected = 3 - len(d["tricks"]) - (seat in in_trick)
        if len(hand) != expected:
            raise TrucoError("saved_hand_size", seat=seat, n=len(hand), expected=expected)

    # -- tricks: seats in play order, the trick rule's results, no face-down card in trick 1 --
    strength = strength_list(variant, None if vira is None else _IDX[vira])
    for n, t in enumerate(d["tricks"]):
        seats = [p[0] for p in t]
        _need(all(seats[k] == (seats[0] + k) & 3 for k in range(4)), "tricks",
              "saved_inconsistent")
        if n + 1 < COVER_FROM_TRICK and mode != "mao_de_ferro":
            _need(all(c is not None for _, c in t), "tricks", "saved_inconsistent")
        team = resolve_trick([(s, 0 if c is None else _IDX[c], c is None) for s, c in t],
                             strength)[0]
        _need(team == d["results"][n], "results", "saved_inconsistent")
    status = hand_status(d["results"])[0] if d["results"] else False
    _need(over or not status, "results", "saved_inconsistent")
    trick_seats = [p[0] for p in d["trick"]]
    _need(all(trick_seats[k] == (d["leader"] + k) & 3 for k in range(len(trick_seats)))
          or trick_is_last, "trick", "saved_inconsistent")
    if len(d["tricks"]) + 1 < COVER_FROM_TRICK and not trick_is_last:
        _need(not any(p[2] for p in d["trick"]), "trick", "saved_inconsistent")

    # -- mode, phase, turn, values and winner agree --------------------------------------
    threshold = variant.threshold
    if not over:
        at = [p >= threshold for p in score]
        expected_mode = "mao_de_ferro" if all(at) else "threshold" if any(at) else "normal"
        _need(mode == expected_mode, "mode", "saved_inconsistent")
        _need(d["winner"] is None, "winner", "saved_inconsistent")
    else:
        _need(d["winner"] is not None and pending is None, "winner", "saved_inconsistent")
    _need((d["threshold_team"] is not None) == (mode == "threshold"), "threshold_team",
          "saved_inconsistent")
    if mode == "threshold" and not over:
        _need(score[d["threshold_team"]] >= threshold, "threshold_team", "saved_inconsistent")
    expected_value = {"normal": None, "threshold": variant.threshold_value,
                      "mao_de_ferro": variant.base_value}[mode]
    value = d["hand_value"]
    _need(_small(value) and (value == expected_value if expected_value is not None
                             else value in variant.values), "hand_value", "saved_inconsistent")
    mao = (d["dealer"] + 1) & 3
    turn = d["turn"]
    _need(bool(d["tricks"]) or d["leader"] == mao, "leader", "saved_inconsistent")
    if phase == "decide":
        _need(mode == "threshold" and not d["tricks"] and not d["trick"] and pending is None
              and turn & 1 == d["threshold_team"] and turn in (mao, (mao + 1) & 3),
              "phase", "saved_inconsistent")
    elif phase == "answer":
        _need(mode == "normal" and pending is not None and turn & 1 != pending[1]
              and pending[0] == variant.next_value(value)
              and d["last_raise_team"] == pending[1] and d["play_turn"] is not None
              and d["play_turn"] == (d["leader"] + len(d["trick"])) & 3,
              "pending", "saved_inconsistent")
    elif phase == "play":
        _need(pending is None and turn == (d["leader"] + len(d["trick"])) & 3,
              "turn", "saved_inconsistent")
    if mode != "normal":
        _need(d["last_raise_team"] is None or over, "last_raise_team", "saved_inconsistent")

    # -- the record: events and the last finished hand ----------------------------------------
    events = d["events"]
    _need(isinstance(events, list) and 0 < len(events) <= MAX_EVENTS, "events")
    for i, event in enumerate(events):
        check_event(event, i, variant.key)
    deal = next((e for e in reversed(events) if e["type"] == "deal"), None)
    _need(deal is not None and deal["hand_number"] == d["hand_number"]
          and deal["dealer"] == d["dealer"] and deal["mode"] == mode and deal["vira"] == vira,
          "events", "saved_inconsistent")
    last = d["last_hand"]
    if last is not None:
        _need(isinstance(last, dict) and set(last) == set(LAST_HAND_SCHEMA) and all(
            pred(last[k]) for k, pred in LAST_HAND_SCHEMA.items())
            and (last["vira"] is None) == (not variant.uses_vira), "last_hand")
        if last["reason"] in ("tricks", "all_tied"):
            _need(bool(last["tricks"]) and len(last["tricks"]) == len(last["trick_results"])
                  and hand_status(last["trick_results"])[0], "last_hand", "saved_inconsistent")
        if last["reason"] == "run":
            _need(last["seat"] is not None and last["refused_value"] in variant.ladder,
                  "last_hand", "saved_inconsistent")
        if last["reason"] in ("ran_hand", "forbidden_raise", "run", "tricks"):
            _need(last["winner_team"] is not None, "last_hand", "saved_inconsistent")
    _need(last is not None or d["hand_number"] == 1, "last_hand", "saved_inconsistent")

    # -- build ---------------------------------------------------------------------------
    s = object.__new__(cls)
    s.variant = variant
    s._key = variant.key
    s._tables = tables(variant)
    s.tie_lead = d["tie_lead"]
    s._rng = rng
    s._score = list(score)
    s.winner, s.hand_number, s.dealer = d["winner"], d["hand_number"], d["dealer"]
    s._hands = [[_IDX[c] for c in h] for h in d["hands"]]
    s._vira = None if vira is None else _IDX[vira]
    s._strength, s._mnames, _ = s._tables.by_vira[s._vira]
    s.mode, s.threshold_team, s.phase = mode, d["threshold_team"], phase
    s._turn, s._play_turn, s._leader = turn, d["play_turn"], d["leader"]
    s.hand_value = value
    s._pending = None if pending is None else tuple(pending)
    s._last_raise_team = d["last_raise_team"]
    s._tricks = [[(seat, None, True) if c is None else (seat, _IDX[c], False) for seat, c in t]
                 for t in d["tricks"]]
    if trick_is_last:  # a hand that ended on its last trick: the same trick object
        s._trick = s._tricks[-1] = [(seat, _IDX[c], cov) for seat, c, cov in d["trick"]]
    else:
        s._trick = [(seat, _IDX[c], cov) for seat, c, cov in d["trick"]]
    s._results = list(d["results"])
    s._events = list(events)
    s._log = [(ev.given, e) for e in events]  # a loaded event's record (see `TrucoState.events`)
    s._legal = None
    s._last_hand = None  # no record: the hand is known as the dict itself
    s._last_hand_built = last
    s._deal = (ev.given, deal)  # the deal event, as a record like the engine's own
    return s
