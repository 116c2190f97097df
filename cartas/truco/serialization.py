"""Saving and loading a truco game: a saved game is its setup plus its actions.

The rule (docs/rules.md#saved-game-replays): the saved form (`JSON_FORMAT`) is

    {"format": "cartas.truco/2",
     "setup": {"variant": "paulista", "tie_lead": "leader", "score": [0, 0],
               "dealer": None, "deals": [], "seed": 7, "rng": None},
     "actions": ["play 7♥", "raise 3", "accept", ...]}

- `setup` is how the game began: the variant, the option `tie_lead` (checked against
  `rules.OPTIONS`, the very options the game's `cartas.games` spec shows), the score it
  starts from, the first `dealer` (None: drawn by lot from the generator), the hands dealt by
  hand (`deals`: the first hands of the game, each {"hands": four hands of three cards,
  "vira": a card or None}; the hands after them are shuffled from the generator), and the
  generator: a `seed` (a whole number) or `rng`, a numpy PCG64 state, exactly one of them;
  a game mano a mano also has "players": 2 (docs/rules.md#mano-a-mano-players; without the
  field a game has four players, so every save made before stays as it was).
- `actions` are the actions taken since, in order, as text (`str(action)`).

Loading starts the game from its setup, as `new_game` and `from_deal` do, and replays each
action through `apply_action`: what the rules would not allow is refused by the rules
themselves. A setup outside the options' ranges raises TrucoError "saved_setup" naming the
field and the engine's own refusal; the first illegal action raises "saved_action" naming its
number and why ("action 12 is not legal here: ..."). No other exception escapes. Sizes are
capped (`MAX_JSON` characters, `MAX_ACTIONS` actions, `MAX_DEALS` hands dealt by hand), so no
input makes unbounded work; replaying the most actions allowed takes about 40 ms.

Games saved in the first format ("cartas.truco/1", every field of the state) still load:
`legacy` turns one into a setup plus actions and replays it (see `cartas.truco.legacy`).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..contract import Event
from ..options import GameError, check_options
from . import events as ev, legacy
from .actions import BLIND_ACTIONS, COVER_ACTIONS, PLAY_ACTIONS, PLAY_HAND, RUN_HAND
from .errors import TrucoError
from .rules import CARD_TEXT, OPTIONS, check_players
from .variants import VARIANTS, Variant

if TYPE_CHECKING:
    from .state import TrucoState

# the engine's own steps `load` is given by `state` (which this module may not import)
Start = Callable[[dict[str, Any]], "TrucoState"]
CheckDeal = Callable[[Variant, object, object, int], tuple[list[list[int]], int | None]]
CheckScore = Callable[[object, Variant], tuple[int, int]]

JSON_FORMAT = "cartas.truco/2"
MAX_JSON = 2_000_000     # characters (a first-format save of 5,000 actions takes ~1.2 million)
MAX_ACTIONS = 5_000      # a game to 12 takes a few hundred at most; see the module docstring
MAX_DEALS = 500          # hands dealt by hand (a first-format save keeps each hand it dealt)
MAX_SEED = 2 ** 128 - 1
SETUP_KEYS = ("variant", "tie_lead", "score", "dealer", "deals", "seed", "rng")
OPTIONAL_SETUP_KEYS = ("players", "hands")  # present only when not their default (4; None: to 12)
# The only random generators a saved game may name: numpy's default PCG64, made here.
BIT_GENERATORS = {"PCG64": np.random.PCG64}


# -- the generator ------------------------------------------------------------------------

def rng_copy(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state."""
    bits = rng.bit_generator
    if type(bits) is np.random.PCG64:  # numpy's own state of its own generator: nothing to check
        copy = np.random.PCG64()
        copy.state = bits.state
        return np.random.Generator(copy)
    return rng_from_state(bits.state)  # refuses a generator a save cannot name


def rng_state(rng: np.random.Generator) -> dict[str, Any] | None:
    """The generator's state as saved (`setup["rng"]`); None when it is not a PCG64, which
    a save cannot name (see `BIT_GENERATORS`)."""
    state = dict(rng.bit_generator.state)
    return state if state.get("bit_generator") in BIT_GENERATORS else None


def _whole(x: object, low: int, high: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x <= high


def rng_from_state(state: object) -> np.random.Generator:
    """A Generator from a saved bit-generator state; only `BIT_GENERATORS` are accepted."""
    allowed = ", ".join(BIT_GENERATORS)
    if not isinstance(state, dict) or set(state) != {"bit_generator", "state", "has_uint32",
                                                     "uinteger"}:
        raise TrucoError("saved_rng", allowed=allowed)
    maker = BIT_GENERATORS.get(state["bit_generator"]) if isinstance(
        state["bit_generator"], str) else None
    inner = state["state"]
    if (maker is None or not isinstance(inner, dict) or set(inner) != {"state", "inc"}
            or not all(_whole(inner[k], 0, 2 ** 128 - 1) for k in ("state", "inc"))
            or state["has_uint32"] not in (0, 1) or isinstance(state["has_uint32"], bool)
            or not _whole(state["uinteger"], 0, 2 ** 32 - 1)):
        raise TrucoError("saved_rng", allowed=allowed)
    bit_gen = maker()
    try:
        bit_gen.state = state  # type: ignore[assignment]  # a dict of the shape checked above
    except (TypeError, ValueError, KeyError, OverflowError):
        raise TrucoError("saved_rng", allowed=allowed) from None
    return np.random.Generator(bit_gen)


# -- saving -------------------------------------------------------------------------------

def _action_texts() -> dict[Callable[..., Event], Callable[[ev.Record], str]]:
    """Per event builder that records an action, the action's text from the record
    (see `TrucoState.events`): every action logs exactly one such event."""
    play_texts = [str(a) for a in PLAY_ACTIONS]
    cover_texts = [str(a) for a in COVER_ACTIONS]
    blind_texts = [str(a) for a in BLIND_ACTIONS]
    play_hand, run_hand = str(PLAY_HAND), str(RUN_HAND)

    def play(r: ev.Record) -> str:  # (builder, key, seat, card, covered, blind, pos, ...)
        return blind_texts[r[6]] if r[5] else cover_texts[r[3]] if r[4] else play_texts[r[3]]

    return {
        ev.play_event: play,
        ev.raise_event: lambda r: f"raise {r[3]}",      # (builder, key, seat, value, ...)
        ev.accept_event: lambda r: "accept",
        ev.run_event: lambda r: "run",
        ev.decide_event: lambda r: play_hand if r[4] else run_hand,  # (..., seat, team, play)
    }


_ACTION_TEXT = _action_texts()


def _shared_texts() -> dict[int, str]:
    """The text of every shared action object `legal_actions` offers (by identity): plays,
    covers, blind plays, answers, decisions and raises."""
    from .actions import ACCEPT, RUN, Action
    shared = [*PLAY_ACTIONS, *COVER_ACTIONS, *BLIND_ACTIONS, ACCEPT, RUN, PLAY_HAND, RUN_HAND]
    return {id(a): str(a) for a in shared if isinstance(a, Action)}


_TEXT_OF = _shared_texts()


def actions_of(log: list[ev.Record]) -> list[str]:
    """The actions taken, as text, read from a state's event records."""
    texts = _ACTION_TEXT
    return [texts[record[0]](record) for record in log if record[0] in texts]


def to_dict(state: TrucoState) -> dict[str, Any]:
    """The saved game as a JSON-friendly dict: its setup and its actions.

    A game that draws from its caller's Generator (`new_game(variant, rng)`, which others
    may draw from too) is saved with every hand it dealt as dealt by hand and its generator
    as it is now (what the game goes on with); any other game with its seed."""
    setup = state._setup
    if setup["seed"] is None and setup["rng"] is None:
        text = CARD_TEXT
        deals = [r for r in state._log if r[0] is ev.deal_event]  # (builder, key, n, dealer, mao, order, vira...)
        setup = {**setup, "dealer": deals[0][3], "rng": rng_state(state._rng), "deals": [
            {"hands": [[text[c] for c in r[5][i:i + 3]]
                       for i in ev.DEAL_STARTS_BY[state.players][r[3]]],
             "vira": None if r[6] is None else text[r[6]]} for r in deals]}
    return {"format": JSON_FORMAT, "setup": json.loads(json.dumps(setup)),
            "actions": actions_of(state._log)}


# -- loading ------------------------------------------------------------------------------

def parse(text: object) -> Any:
    """The saved game's JSON value (text, bytes or an already parsed dict), size capped."""
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


def exact_keys(d: dict[str, Any], keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    """TrucoError unless `d` has exactly `keys` (and maybe some of `optional`): the first
    unknown one, else the first missing."""
    for key in d:
        if key not in keys and key not in optional:
            raise TrucoError("saved_unknown_field", field=str(key)[:40])
    for key in keys:
        if key not in d:
            raise TrucoError("saved_field", field=key)


def check_setup(setup: object, check_deal: CheckDeal, check_score: CheckScore) -> dict[str, Any]:
    """The setup, checked: `check_deal(variant, hands, vira)` and `check_score(score,
    variant)` are the engine's own checks of `from_deal`; each refusal becomes "saved_setup"
    naming the field. Returns the setup with `variant` a Variant and `deals` as the engine's
    (hands, vira) pack indexes under "forced"."""
    if not isinstance(setup, dict):
        raise TrucoError("saved_field", field="setup")
    exact_keys(setup, SETUP_KEYS, OPTIONAL_SETUP_KEYS)
    field = "variant"
    try:
        key = setup["variant"]
        if not isinstance(key, str) or key not in VARIANTS:
            raise TrucoError("unknown_variant", variant=repr(key)[:40])
        variant = VARIANTS[key]
        field = "players"
        players = check_players(setup.get("players", 4))
        field = "tie_lead"
        check_options(OPTIONS, variant.key, {"tie_lead": setup["tie_lead"]}, players)
        field = "hands"  # a short game's (docs/rules.md#truco-short-game); absent: to 12
        hands = check_options(OPTIONS, variant.key, {"hands": setup.get("hands")}, players)["hands"]
        if "hands" in setup and hands is None:  # a game to 12 is saved without the field
            raise TrucoError("saved_field", field="hands")
        field = "score"
        score = check_score(setup["score"], variant)
        field = "dealer"
        dealer = setup["dealer"]
        if dealer is not None and not _whole(dealer, 0, players - 1):
            raise TrucoError("bad_dealer", dealer=repr(dealer)[:40], top=players - 1)
        field = "deals"
        deals = setup["deals"]
        if not isinstance(deals, list) or len(deals) > MAX_DEALS or (deals and dealer is None):
            raise TrucoError("saved_field", field="deals")
        forced = []
        for deal in deals:
            if not isinstance(deal, dict) or set(deal) != {"hands", "vira"}:
                raise TrucoError("saved_field", field="deals")
            forced.append(check_deal(variant, deal["hands"], deal["vira"], players))
        field = "seed"
        seed, rng = setup["seed"], setup["rng"]
        if (seed is None) == (rng is None) or (seed is not None and not _whole(seed, 0, MAX_SEED)):
            raise TrucoError("saved_field", field="seed")
        field = "rng"
        generator = np.random.default_rng(seed) if rng is None else rng_from_state(rng)
    except (TrucoError, GameError) as err:
        raise TrucoError("saved_setup", field=field, error=err) from None
    return {"variant": variant, "tie_lead": setup["tie_lead"], "score": score, "dealer": dealer,
            "forced": forced, "generator": generator, "saved": setup, "players": players, "hands": hands}


def replay(state: TrucoState, actions: object) -> None:
    """Apply the saved `actions` to `state`, in order; the first one that is no action's
    text, or not legal there, raises "saved_action" naming it (numbered from 1)."""
    if not isinstance(actions, list):
        raise TrucoError("saved_field", field="actions")
    if len(actions) > MAX_ACTIONS:
        raise TrucoError("saved_too_many", top=MAX_ACTIONS)
    apply, legal_now, text_of = state.apply_action, state._legal_list, _TEXT_OF
    for n, text in enumerate(actions, 1):
        # the quick way: the shared legal action of that text (see `_shared_texts`)
        action = next((a for a in legal_now() if (text_of.get(id(a)) or str(a)) == text), None)
        try:
            if action is None:  # not a legal action's text: the engine says why
                if not isinstance(text, str) or len(text) > 20:
                    raise TrucoError("unreadable_action", text=repr(text)[:40])
                apply(text)
            else:
                apply(action)
        except TrucoError as err:
            raise TrucoError("saved_action", index=n, error=err) from None


def load(text: object, start: Start, check_deal: CheckDeal, check_score: CheckScore) -> TrucoState:
    """The game a saved text (or dict) holds: `start(checked_setup)` begins it (see
    `state.from_json`), then its actions are replayed; first-format saves are read by
    `legacy.read`."""
    d = parse(text)
    if not isinstance(d, dict):
        raise TrucoError("saved_not_json")
    if d.get("format") == JSON_FORMAT:
        exact_keys(d, ("format", "setup", "actions"))
        state = start(check_setup(d["setup"], check_deal, check_score))
        replay(state, d["actions"])
        return state
    if d.get("format") == legacy.FORMAT:
        return legacy.read(d, lambda setup, actions: load(
            {"format": JSON_FORMAT, "setup": setup, "actions": actions},
            start, check_deal, check_score))
    raise TrucoError("bad_format", format=repr(d.get("format"))[:40])
