"""A 21 game as JSON, and back: `to_json(state)` and a `from_json(text)` that trusts nothing.

`from_json` rebuilds a state that continues exactly as the original would, and refuses
anything that is not a state the rules allow, always with a `VinteEUmError` ("bad_state"
naming where and why, or the set-up error of a refused table):

- the shape: exactly the expected fields, each of the expected type (a bool is not a
  number), every list of the expected length, counts within their limits;
- the table: the set-up is re-checked as `new_game` checks it; the banker, every seat
  named anywhere, in range; the phase one of PHASES; chips never negative, and the stacks
  plus the bets on the table add up to the chips the game started with;
- the cards: every card text exact ("7♥"); the stock, the collected cards and the hands
  together hold exactly the packs (no card more often than the packs hold, none missing);
  hands of the right shape for the phase (nobody sitting out holds cards; a settled
  player's hand is collected); whoever must act can act;
- the random generator: only numpy's own bit generators by name (PCG64, PCG64DXSM,
  MT19937, Philox, SFC64), whose state numpy itself checks; nothing named by the JSON is
  ever called otherwise.
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np

from ..cards import STANDARD_PACK, standard_pack
from .config import CONFIG_KEYS, UNTIL_ONE_CAP, check_config
from .errors import VinteEUmError

FORMAT = "cartas.vinte_e_um/1"
MAX_TEXT = 20_000_000           # characters of JSON
MAX_EVENTS = 400_000
BIT_GENERATORS = {cls.__name__: cls for cls in (np.random.PCG64, np.random.PCG64DXSM,
                                                 np.random.MT19937, np.random.Philox,
                                                 np.random.SFC64)}
_DTYPES = ("uint32", "uint64", "int64")
_CARD = {str(card): card for card in STANDARD_PACK}
_OUTCOMES = (None, "bust", "won", "lost")
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
_KEYS = ("format", "config", "rng", "chips", "banker", "round_number", "bank_rounds", "phase",
         "hands", "covered", "bets", "in_round", "outcome", "called", "queue", "stock",
         "collected", "shown", "natural_seat", "high_bid", "high_bidder", "pending_offer",
         "offered", "events", "winner", "winners")


def state_to_dict(state) -> dict:
    return {
        "format": FORMAT, "config": dict(state.config),
        "rng": _rng_to_json(state.rng), "chips": list(state.chips), "banker": state.banker,
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


def to_json(state) -> str:
    return json.dumps(state_to_dict(state), ensure_ascii=False, separators=(",", ":"))


# -- the random generator ---------------------------------------------------------------

def _rng_to_json(rng: np.random.Generator) -> dict:
    state = rng.bit_generator.state
    return json.loads(json.dumps(state, default=lambda a: {"ndarray": a.tolist(),
                                                           "dtype": str(a.dtype)}))


def _rng_from_json(data) -> np.random.Generator:
    def bad():
        return VinteEUmError("bad_state", where="rng", rule="rng")

    def arrays(value, depth):
        if depth > 3:
            raise bad()
        if isinstance(value, dict):
            if "ndarray" in value:
                if set(value) != {"ndarray", "dtype"} or value["dtype"] not in _DTYPES \
                        or not isinstance(value["ndarray"], list) or len(value["ndarray"]) > 1000 \
                        or not all(_is_int(v) for v in value["ndarray"]):
                    raise bad()
                return np.array(value["ndarray"], dtype=value["dtype"])
            return {k: arrays(v, depth + 1) for k, v in value.items()}
        if isinstance(value, (list, float)):
            raise bad()
        return value

    if not isinstance(data, dict) or not isinstance(data.get("bit_generator"), str) \
            or data["bit_generator"] not in BIT_GENERATORS:
        raise bad()
    try:
        state = arrays(data, 0)
        bit_generator = BIT_GENERATORS[data["bit_generator"]]()
        bit_generator.state = state
        return np.random.Generator(bit_generator)
    except VinteEUmError:
        raise
    except (ValueError, TypeError, KeyError, OverflowError, IndexError):
        raise bad() from None


# -- reading back ---------------------------------------------------------------------

def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Checks one parsed JSON object field by field; every failure is "bad_state"."""

    def __init__(self, data: dict):
        self.data = data

    @staticmethod
    def fail(where: str, rule: str, **fields) -> VinteEUmError:
        return VinteEUmError("bad_state", where=where, rule=rule, **fields)

    def int(self, key, low, high, value=None, where=None):
        value = self.data[key] if value is None and where is None else value
        where = where or key
        if not _is_int(value):
            raise self.fail(where, "type")
        if not low <= value <= high:
            raise self.fail(where, "range")
        return value

    def seat(self, value, where, players, optional=False):
        if value is None and optional:
            return None
        return self.int(None, 0, players - 1, value=value, where=where)

    def list(self, key, length=None, limit=10_000, value=None, where=None):
        value = self.data[key] if where is None else value
        where = where or key
        if not isinstance(value, list):
            raise self.fail(where, "type")
        if (length is not None and len(value) != length) or len(value) > limit:
            raise self.fail(where, "length")
        return value

    def seats(self, key, players, distinct=True):
        seats = [self.seat(s, f"{key}[{i}]", players) for i, s in enumerate(self.list(key, limit=players * 2))]
        if distinct and len(set(seats)) != len(seats):
            raise self.fail(key, "inconsistent")
        return seats

    def cards(self, value, where, limit=8 * 52):
        cards = self.list(None, limit=limit, value=value, where=where)
        out = []
        for i, text in enumerate(cards):
            card = _CARD.get(text) if isinstance(text, str) else None
            if card is None:
                raise self.fail(f"{where}[{i}]", "card")
            out.append(card)
        return out


def _saved_object(text) -> dict:
    """The saved game's top-level object, with the keys `to_json` writes (bounded in size)."""
    if isinstance(text, (str, bytes, bytearray)):
        if len(text) > MAX_TEXT:
            raise VinteEUmError("bad_state", where="$", rule="length")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError, UnicodeDecodeError):
            raise VinteEUmError("bad_state", where="$", rule="json") from None
    else:
        data = text
    if not isinstance(data, dict):
        raise VinteEUmError("bad_state", where="$", rule="object")
    keys = set(data)
    if keys != set(_KEYS) and keys != set(_KEYS) - {"shown"}:  # "shown" came later
        raise VinteEUmError("bad_state", where="$", rule="keys", expected=", ".join(_KEYS))
    return data


def from_json(text):
    """Rebuild a state from `to_json()` (text, or the parsed dict); it continues exactly as
    the original would. Anything else raises VinteEUmError (see the module docstring)."""
    from .state import VinteEUmState
    data = _saved_object(text)
    r = _Reader(data)
    if data["format"] != FORMAT:
        raise r.fail("format", "format")

    # the table's set-up, checked as new_game checks it
    config = data["config"]
    if not isinstance(config, dict) or set(config) != set(CONFIG_KEYS):
        raise r.fail("config", "keys", expected=", ".join(CONFIG_KEYS))
    checked = check_config(**config)
    if checked != config:  # normalised differently: not what to_json writes
        raise r.fail("config", "inconsistent")
    players, decks = checked["players"], checked["decks"]
    total = sum(checked["chips"])
    state = VinteEUmState(checked, _rng_from_json(data["rng"]))

    chips = r.list("chips", players)
    for i, c in enumerate(chips):
        r.int(None, 0, total, value=c, where=f"chips[{i}]")
    state.chips = list(chips)
    state.banker = r.seat(data["banker"], "banker", players)
    cap = checked["rounds"] or UNTIL_ONE_CAP
    state.round_number = r.int("round_number", 1, cap)
    phase = data["phase"]
    if not isinstance(phase, str) or phase not in ("bet", "players", "banker", "rotation",
                                                   "game_over"):
        raise r.fail("phase", "phase")
    state.phase = phase
    # rounds run by this banker, counted when a round ends
    in_play = phase in ("bet", "players", "banker")
    state.bank_rounds = r.int("bank_rounds", 0, state.round_number - in_play)

    state.hands = [r.cards(h, f"hands[{i}]", limit=60)
                   for i, h in enumerate(r.list("hands", players))]
    covered = r.list("covered", players)
    if not all(isinstance(c, bool) for c in covered):
        raise r.fail("covered", "type")
    state.covered = list(covered)
    bets = r.list("bets", players)
    state.bets = [r.int(None, 0, checked["max_bet"], value=b, where=f"bets[{i}]")
                  for i, b in enumerate(bets)]
    state.in_round = r.seats("in_round", players)
    outcome = r.list("outcome", players)
    if not all(o in _OUTCOMES for o in outcome if not isinstance(o, (list, dict))):
        raise r.fail("outcome", "type")
    if any(isinstance(o, (list, dict)) for o in outcome):
        raise r.fail("outcome", "type")
    state.seat_results = list(outcome)
    state.called = r.seats("called", players)
    state.queue = r.seats("queue", players, distinct=False)
    state.stock = r.cards(data["stock"], "stock")
    state.collected = r.cards(data["collected"], "collected")
    if "shown" in data:
        state.shown = [r.cards(h, f"shown[{i}]", limit=60)
                       for i, h in enumerate(r.list("shown", players))]
    state.natural_seat = r.seat(data["natural_seat"], "natural_seat", players, optional=True)
    state.high_bid = r.int("high_bid", 0, total)
    state.high_bidder = r.seat(data["high_bidder"], "high_bidder", players, optional=True)
    offer = data["pending_offer"]
    if offer is not None:
        offer = r.list("pending_offer", 2)
        state.pending_offer = (r.seat(offer[0], "pending_offer[0]", players),
                               r.int(None, 1, total, value=offer[1], where="pending_offer[1]"))
    state.offered = r.seats("offered", players)
    events = r.list("events", limit=MAX_EVENTS)
    for i, event in enumerate(events):
        if not _check_event(event, players):
            raise r.fail(f"events[{i}]", "type")
    state.events = events
    state.winner = r.seat(data["winner"], "winner", players, optional=True)
    state.winners = r.seats("winners", players)
    _check_consistency(state, r, total, decks)
    return state


def _is_value(value, kind: str, players: int) -> bool:
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


def _check_event(event, players: int) -> bool:
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


def _check_consistency(state, r: _Reader, total: int, decks: int) -> None:  # noqa: C901 - goes when a save is its setup plus its actions (issue 19, item 5)
    """What only the whole state can tell: chips, cards and who acts, phase by phase."""
    players, banker, phase = state.players, state.banker, state.phase
    if sum(state.chips) + sum(state.bets) != total:
        raise r.fail("chips", "chips")
    held = Counter(state.stock + state.collected + [c for h in state.hands for c in h])
    if held != Counter(standard_pack(decks)):
        raise r.fail("stock", "card_count")
    for seat, cards in enumerate(state.shown):
        if any(n > decks for n in Counter(cards).values()):
            raise r.fail(f"shown[{seat}]", "card_count")
    in_round = state.in_round
    if any(s not in in_round for s in state.called) or any(
            state.seat_results[s] is None for s in state.called):
        raise r.fail("called", "inconsistent")
    if state.natural_seat is not None and state.natural_seat not in in_round:
        raise r.fail("natural_seat", "inconsistent")
    for seat in range(players):
        if state.covered[seat] and not state.hands[seat]:
            raise r.fail(f"covered[{seat}]", "inconsistent")
    if phase in ("bet", "players", "banker"):
        # a round in play (after it, the bank may have moved: in_round is the last round's)
        left = state._left_of(banker)
        if banker in in_round or in_round != [s for s in left if s in in_round]:
            raise r.fail("in_round", "inconsistent")
        for seat in range(players):
            if seat != banker and seat not in in_round and (
                    state.hands[seat] or state.bets[seat] or state.seat_results[seat]):
                raise r.fail(f"hands[{seat}]", "hand")  # sitting out: no cards, no bet
        _check_round(state, r)
    else:
        if any(state.bets):
            raise r.fail("bets", "inconsistent")
    if phase == "rotation":
        if state.rotation in ("natural", "permanent") or not state.queue:
            raise r.fail("queue", "inconsistent")
        if state.pending_offer is not None and (state.rotation != "sale"
                                                or state.pending_offer[0] == banker
                                                or state.pending_offer[1] > state.chips[state.pending_offer[0]]):
            raise r.fail("pending_offer", "inconsistent")
        if banker in state.queue or len(set(state.queue)) != len(state.queue):
            raise r.fail("queue", "inconsistent")
        if state.high_bidder is not None and (state.high_bidder == banker or state.high_bid < 1
                                              or state.high_bid > state.chips[state.high_bidder]):
            raise r.fail("high_bidder", "inconsistent")
    elif state.pending_offer is not None:
        raise r.fail("pending_offer", "inconsistent")
    if phase == "game_over":
        best = max(state.chips)
        winners = [s for s in range(players) if state.chips[s] == best]
        if state.queue or state.winners != winners or state.winner != (
                winners[0] if len(winners) == 1 else None):
            raise r.fail("winners", "inconsistent")
    elif state.winner is not None or state.winners:
        raise r.fail("winner", "inconsistent")


def _check_round(state, r: _Reader) -> None:  # noqa: C901 - goes when a save is its setup plus its actions (issue 19, item 5)
    """A round in play: hands, bets and the queue of whoever must act."""
    phase, banker, in_round = state.phase, state.banker, state.in_round
    queue, min_bet = state.queue, state.min_bet
    banker_cards = len(state.hands[banker])
    if state.bets[banker] or state.seat_results[banker] is not None:
        raise r.fail("bets", "inconsistent")
    for seat in in_round:
        hand, bet, outcome = state.hands[seat], state.bets[seat], state.seat_results[seat]
        if outcome is not None:  # settled: paid, and its cards collected
            if hand or bet or phase == "bet":
                raise r.fail(f"hands[{seat}]", "hand")
        elif phase == "bet":
            if len(hand) != 1 or not state.covered[seat]:
                raise r.fail(f"hands[{seat}]", "hand")
            if seat in queue:
                if bet or state.chips[seat] < min_bet:
                    raise r.fail(f"bets[{seat}]", "inconsistent")
            elif bet < min_bet:
                raise r.fail(f"bets[{seat}]", "inconsistent")
        else:
            if not hand or bet < min_bet:
                raise r.fail(f"hands[{seat}]", "hand")
    if phase == "bet":
        if banker_cards != 1 or not queue or queue != in_round[len(in_round) - len(queue):]:
            raise r.fail("queue", "inconsistent")
    else:
        if banker_cards < 2:
            raise r.fail(f"hands[{banker}]", "hand")
    if phase == "players":
        if not queue or any(s not in in_round or state.seat_results[s] is not None for s in queue) \
                or queue != [s for s in in_round if s in queue] or len(set(queue)) != len(queue):
            raise r.fail("queue", "inconsistent")
        if state.points(queue[0]) > 21 or (len(state.hands[queue[0]]) >= 2
                                           and state.points(queue[0]) == 21):
            raise r.fail(f"hands[{queue[0]}]", "hand")
    if phase == "banker":
        if queue or not state.uncalled or state.points(banker) > 21:
            raise r.fail("queue", "inconsistent")
        if any(len(state.hands[s]) < 1 for s in state.uncalled):
            raise r.fail("hands", "hand")
