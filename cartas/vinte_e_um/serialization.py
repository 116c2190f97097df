"""A 21 game as JSON, and back: a saved game is its setup plus its actions.

The rule (docs/rules.md#saved-game-replays): the saved form (`FORMAT`) is

    {"format": "cartas.vinte_e_um/2",
     "setup": {"players": 4, "options": {"ace": 1, "decks": 1, "min_bet": 1, "max_bet": 5,
                                         "chips": [20, 20, 20, 20], "rotation": "rounds",
                                         "rotation_rounds": 3, "rounds": 10},
               "banker": None, "deal": None, "seed": 7, "rng": None, "stocks": [], "lots": []},
     "actions": ["bet 3", "hit", "stand", ...]}

- `setup` is how the game began: the table's options (checked against `config.OPTIONS`,
  the very options the game's `cartas.games` spec shows, then as `new_game` checks them),
  the first `banker` as asked (None: drawn by lot), the `deal` chosen by hand (`from_deal`'s
  first_cards, upcard and then), the generator (a `seed`, or `rng`: a numpy bit generator's
  state, exactly one of them), and what is fixed by hand instead of drawn: `stocks` (the
  first stocks laid out, each its top cards in order, the others below in their order) and
  `lots` (the first lots drawn when every seat refused the bank).
- `actions` are the actions taken since, in order, as text (`str(action)`).

Loading starts the game from its setup and replays each action through `apply_action`, so
the rules themselves refuse what they would not allow: a setup outside the options' ranges
raises VinteEUmError "bad_setup" naming the field and the refusal, the first illegal action
"saved_action" naming its number and why, a malformed one "bad_state". Sizes are capped
(`MAX_TEXT` characters, `MAX_ACTIONS` actions, `MAX_STOCKS` stocks, `MAX_LOTS` lots), so no
input makes unbounded work. Replaying takes about 30 µs an action: a game with the default
options (10 rounds, a few hundred actions) loads in under 10 ms, 1,700 actions take 50 ms,
and the cap (a 200-round game at 12 seats stays under it) about 0.3 s. The random generator
is only ever one of numpy's own bit generators, by name (PCG64, PCG64DXSM, MT19937, Philox,
SFC64), whose state numpy itself checks; nothing named by the JSON is ever called otherwise.

Games saved in the first format ("cartas.vinte_e_um/1", every field of the state) still
load, through `legacy`, which turns one into a setup plus actions and replays it.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard

import numpy as np

from ..cards import STANDARD_PACK
from ..options import GameError, check_options
from . import legacy
from .actions import Action
from .config import CONFIG_KEYS, MAX_PACKS, MAX_PLAYERS, MAX_ROUNDS, OPTIONS, UNTIL_ONE_CAP
from .errors import VinteEUmError

if TYPE_CHECKING:
    from .state import VinteEUmState

FORMAT = "cartas.vinte_e_um/2"
MAX_TEXT = 2_000_000            # characters of JSON
MAX_ACTIONS = 10_000            # ~30 µs each to replay: 10,000 take ~0.3 s (see the docstring)
MAX_STOCKS = 4 * MAX_ROUNDS     # a stock per round, and a reshuffle now and then
MAX_LOTS = UNTIL_ONE_CAP
SETUP_KEYS = ("players", "options", "banker", "deal", "seed", "rng", "stocks", "lots")
OPTION_KEYS = tuple(k for k in CONFIG_KEYS if k != "players")
BIT_GENERATORS = {cls.__name__: cls for cls in (np.random.PCG64, np.random.PCG64DXSM,
                                                 np.random.MT19937, np.random.Philox,
                                                 np.random.SFC64)}
_DTYPES = ("uint32", "uint64", "int64")
_CARD = {str(card): card for card in STANDARD_PACK}


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(where: str, rule: str, **fields: object) -> VinteEUmError:
    return VinteEUmError("bad_state", where=where, rule=rule, **fields)


# -- the random generator ---------------------------------------------------------------

_rng_to_json = legacy.rng_to_json


def _rng_from_json(data: object) -> np.random.Generator:
    def bad() -> VinteEUmError:
        return VinteEUmError("bad_state", where="rng", rule="rng")

    def arrays(value: object, depth: int) -> object:
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
        bit_generator.state = state  # type: ignore[assignment]  # a wrong shape raises, caught below
        return np.random.Generator(bit_generator)
    except VinteEUmError:
        raise
    except (ValueError, TypeError, KeyError, OverflowError, IndexError):
        raise bad() from None


# -- saving -------------------------------------------------------------------------------

def to_dict(state: VinteEUmState) -> dict[str, Any]:
    """The saved game: its setup and its actions.

    A game that draws from its caller's Generator (`new_game(..., seed=rng)`, which others
    may draw from too) is saved with every stock it laid out and every lot it drew fixed by
    hand, its first banker, and its generator as it is now (what the game goes on with);
    any other game with its seed."""
    setup = state._setup
    if setup["seed"] is None and setup["rng"] is None:
        setup = {**setup, "banker": state.events[0]["banker"], "deal": None,
                 "rng": _rng_to_json(state.rng),
                 "stocks": [[str(c) for c in stock] for stock in state._stock_log],
                 "lots": list(state._lot_log)}
    return {"format": FORMAT, "setup": json.loads(json.dumps(setup)),
            "actions": list(state._actions)}


def to_json(state: VinteEUmState) -> str:
    return json.dumps(to_dict(state), ensure_ascii=False, separators=(",", ":"))


# -- loading ------------------------------------------------------------------------------

def _cards(value: object, where: str, limit: int, none: bool = False) -> list[str | None]:
    """A list of exact card texts ("7♥"; None too when `none`), at most `limit` long."""
    if not isinstance(value, list) or len(value) > limit:
        raise _bad(where, "length" if isinstance(value, list) else "type")
    for i, text in enumerate(value):
        if not (none and text is None) and not (isinstance(text, str) and text in _CARD):
            raise _bad(f"{where}[{i}]", "card")
    return value


def _check_deal(deal: object, players: int) -> tuple[list[str | None], str | None, list[str | None]] | None:
    """The deal chosen by hand, as `from_deal` takes it (first_cards, upcard, then)."""
    if deal is None:
        return None
    if not isinstance(deal, dict) or set(deal) != {"first_cards", "upcard", "then"}:
        raise _bad("setup.deal", "keys", expected="first_cards, upcard, then")
    first = _cards(deal["first_cards"], "setup.deal.first_cards", players, none=True)
    if len(first) != players:
        raise _bad("setup.deal.first_cards", "length")
    upcard = _cards([deal["upcard"]], "setup.deal.upcard", 1, none=True)[0]
    return first, upcard, _cards(deal["then"], "setup.deal.then", 104)


def check_setup(setup: object) -> dict[str, Any]:
    """The saved setup, its shape and ranges checked (the engine checks the rest as it
    starts the game): the options against `config.OPTIONS` ("bad_setup" wrapping the
    registry's GameError), the generator, the stocks and lots fixed by hand."""
    if not isinstance(setup, dict):
        raise _bad("setup", "object")
    if set(setup) != set(SETUP_KEYS):
        raise _bad("setup", "keys", expected=", ".join(SETUP_KEYS))
    players, options = setup["players"], setup["options"]
    if not _is_int(players) or not 3 <= players <= MAX_PLAYERS:
        raise VinteEUmError("bad_setup", field="players",
                            error=VinteEUmError("players_range", value=repr(players)[:40]))
    if not isinstance(options, dict) or set(options) != set(OPTION_KEYS):
        raise _bad("setup.options", "keys", expected=", ".join(OPTION_KEYS))
    try:
        check_options(OPTIONS, "21", {**options, "banker": setup["banker"]}, players)
    except GameError as err:
        raise VinteEUmError("bad_setup", field=str(err.fields.get("option", "options")), error=err) from None
    deal = _check_deal(setup["deal"], players)
    seed, rng = setup["seed"], setup["rng"]
    if (seed is None) == (rng is None) or (seed is not None and not (
            _is_int(seed) and 0 <= seed < 2 ** 63)):
        raise _bad("setup.seed", "range")
    generator = np.random.default_rng(seed) if rng is None else _rng_from_json(rng)
    stocks = setup["stocks"]
    if not isinstance(stocks, list) or len(stocks) > MAX_STOCKS:
        raise _bad("setup.stocks", "length")
    for i, stock in enumerate(stocks):
        _cards(stock, f"setup.stocks[{i}]", MAX_PACKS * 52)
    lots = setup["lots"]
    if not isinstance(lots, list) or len(lots) > MAX_LOTS or not all(
            _is_int(n) and 0 <= n < MAX_PLAYERS for n in lots):
        raise _bad("setup.lots", "range")
    return {"players": players, "options": options, "banker": setup["banker"], "deal": deal,
            "generator": generator, "saved": setup}


def replay(state: VinteEUmState, actions: object) -> None:
    """Apply the saved `actions` in order; the first one refused raises "saved_action"
    naming it (numbered from 1) and the engine's reason."""
    if not isinstance(actions, list):
        raise _bad("actions", "type")
    if len(actions) > MAX_ACTIONS:
        raise VinteEUmError("saved_too_many", top=MAX_ACTIONS)
    parsed: dict[str, Action] = {}  # the texts repeat: each is read once
    for n, text in enumerate(actions, 1):
        try:
            action = parsed.get(text) if isinstance(text, str) else None
            if action is None:
                action = parsed[text] = Action.parse(text)
            error = state.illegal(action)
            if error is not None:
                raise error
            state._apply(action)  # as apply_action, without copying the events for a caller
        except VinteEUmError as err:
            if err.code == "bad_setup":  # a stock or lot the setup fixed cannot be
                raise
            raise VinteEUmError("saved_action", index=n, error=err) from None


def parse(text: object) -> dict[str, Any]:
    """The saved game's top-level object (text, bytes or the parsed dict), size capped."""
    if isinstance(text, (str, bytes, bytearray)):
        if len(text) > MAX_TEXT:
            raise _bad("$", "length")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError, UnicodeDecodeError):
            raise _bad("$", "json") from None
    else:
        data = text
    if not isinstance(data, dict):
        raise _bad("$", "object")
    return data


class Begin(Protocol):
    """How `load` starts a game: `state._begin` (which this module may not import)."""

    def __call__(self, players: int, seed: int | np.random.Generator | None, options: dict[str, Any],
                 banker: int | None, deal: tuple[object, object, object] | None = None,
                 saved: dict[str, Any] | None = None) -> VinteEUmState: ...


def load(text: object, begin: Begin) -> VinteEUmState:
    """The game a saved text holds: `begin` (`state._begin`) starts it from its checked
    setup, then its actions are replayed. First-format saves are read by `legacy.read`."""
    data = parse(text)
    if data.get("format") == legacy.FORMAT:
        return legacy.read(data, lambda setup, actions: load(
            {"format": FORMAT, "setup": setup, "actions": actions}, begin))
    if data.get("format") != FORMAT:
        raise _bad("format", "format")
    if set(data) != {"format", "setup", "actions"}:
        raise _bad("$", "keys", expected="format, setup, actions")
    setup = check_setup(data["setup"])
    try:
        state = begin(setup["players"], setup["generator"], setup["options"], setup["banker"],
                      setup["deal"], saved=setup["saved"])
    except VinteEUmError as err:
        if err.code == "bad_setup":  # a stock the setup fixed, refused as the game starts
            raise
        raise VinteEUmError("bad_setup", field="options", error=err) from None
    replay(state, data["actions"])
    return state
