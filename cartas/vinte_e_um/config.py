"""Setting up a 21 table: every option checked, with sane upper limits on every count.

A number is an `int` (never a bool, a float or a string); each has a range, so no input
makes unbounded work: 3..12 participants, 1..MAX_PACKS packs, stacks 0..MAX_CHIPS per seat,
bets 1..MAX_BET, 1..MAX_ROUNDS rounds (or None: until one participant holds every chip,
but never more than UNTIL_ONE_CAP rounds), 1..MAX_ROUNDS rounds per bank in the "rounds"
rotation. A seed is None, a whole number 0..2**63-1 or a numpy Generator. Every refusal is
a `VinteEUmError` naming the option.

numpy is not imported here (a lesson that only scores hands never loads it): a numpy integer
or Generator can only exist once numpy is loaded, so the checks look for it in `sys.modules`.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypedDict

from ..cards import make_rng
from ..options import Option
from .errors import VinteEUmError, shown
from .scoring import ACE_OPTIONS, check_ace

if TYPE_CHECKING:
    import numpy as np
    from typing_extensions import TypeIs  # annotations only: nothing imports it at run time

ROTATIONS: tuple[str, ...] = ("rounds", "natural", "auction", "sale", "permanent")
DEFAULT_ROTATION = "rounds"
MIN_PLAYERS, MAX_PLAYERS = 3, 12
MAX_PACKS = 8
MAX_CHIPS = 10_000        # per seat
MAX_BET = 1_000
MAX_ROUNDS = 1_000
UNTIL_ONE_CAP = 200       # rounds=None ends after this many rounds at the latest
# A 21 table's options, as its `cartas.games` spec shows them and a saved game's setup is
# checked against them (docs/rules.md#saved-game-replays).
OPTIONS: tuple[Option, ...] = (
    Option("ace", None, choices=tuple(ACE_OPTIONS), nullable=True),
    Option("decks", None, low=1, high=MAX_PACKS, nullable=True),
    Option("min_bet", 1, low=1, high=MAX_BET),
    Option("max_bet", 5, low=1, high=MAX_BET),
    Option("chips", 20, low=0, high=MAX_CHIPS, per_seat=True),
    Option("rotation", DEFAULT_ROTATION, choices=ROTATIONS),
    Option("rounds", 10, low=1, high=MAX_ROUNDS, nullable=True),
    Option("rotation_rounds", 3, low=1, high=MAX_ROUNDS),
    Option("banker", None, low=0, high=MAX_PLAYERS - 1, nullable=True),
)
class Config(TypedDict):
    """A table's options as `check_config` normalised them (`state.config`)."""

    players: int
    ace: int | str
    decks: int
    min_bet: int
    max_bet: int
    chips: list[int]
    rotation: str
    rotation_rounds: int
    rounds: int | None


CONFIG_KEYS = ("players", "ace", "decks", "min_bet", "max_bet", "chips", "rotation",
               "rotation_rounds", "rounds")


def is_int(value: object) -> TypeIs[int | np.integer[Any]]:
    """A whole number: an int or numpy integer, never a bool."""
    if isinstance(value, bool):
        return False
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return isinstance(value, int)
    return isinstance(value, (int, numpy.integer)) and not isinstance(value, numpy.bool_)


def whole(value: object, name: str, low: int, high: int) -> int:
    """`value` as an int when it is a whole number in [low, high]; VinteEUmError otherwise."""
    if not is_int(value) or not low <= value <= high:
        raise VinteEUmError("whole_number", field=name, low=low, high=high, value=shown(value))
    return int(value)


def default_ace(rotation: str = DEFAULT_ROTATION) -> int:
    """The table's ace when none is agreed: 1 (the source's examples), except 11 under the
    "natural" rotation, which needs a two-card 21 (impossible with the ace worth 1).
    Decided: docs/rules.md#21-ace."""
    return 11 if rotation == "natural" else 1


def default_packs(players: int) -> int:
    """Packs on the table when none are agreed: one up to 8 participants, two for 9 to 12.
    Decided: docs/rules.md#21-packs."""
    return 1 if players <= 8 else 2


def check_seed(seed: object) -> np.random.Generator:
    """A numpy Generator from a seed: None (fresh entropy), a whole number 0..2**63-1, or a
    Generator (shared). A bool, a float or a string is refused ("bad_seed")."""
    numpy = sys.modules.get("numpy")
    if seed is None or (numpy is not None and isinstance(seed, numpy.random.Generator)):
        return make_rng(seed)
    if not is_int(seed) or not 0 <= seed < 2 ** 63:
        raise VinteEUmError("bad_seed", value=shown(seed))
    return make_rng(int(seed))


def check_config(players: object, ace: object, decks: object, min_bet: object, max_bet: object, chips: object,
                 rotation: object, rotation_rounds: object, rounds: object) -> Config:
    """The table's options, normalised; VinteEUmError naming the first one refused.
    Decided: docs/rules.md#21-chips."""
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise VinteEUmError("players_range", value=shown(players))
    players = int(players)
    if not isinstance(rotation, str) or rotation not in ROTATIONS:
        raise VinteEUmError("unknown_rotation", value=shown(rotation), choices=", ".join(ROTATIONS))
    ace = check_ace(default_ace(rotation) if ace is None else ace)
    decks = default_packs(players) if decks is None else whole(decks, "decks", 1, MAX_PACKS)
    min_bet = whole(min_bet, "min_bet", 1, MAX_BET)
    max_bet = whole(max_bet, "max_bet", 1, MAX_BET)
    if min_bet > max_bet:
        raise VinteEUmError("bet_order", min_bet=min_bet, max_bet=max_bet)
    if is_int(chips):
        stacks = [whole(chips, "chips", 0, MAX_CHIPS)] * players
    elif isinstance(chips, (list, tuple)) and len(chips) == players:
        stacks = [whole(c, "chips", 0, MAX_CHIPS) for c in chips]
    else:
        raise VinteEUmError("chips_shape", players=players, value=shown(chips))
    if sum(stacks) == 0:
        raise VinteEUmError("no_chips_at_all")
    if rotation == "natural" and ace == 1:
        raise VinteEUmError("natural_needs_11")
    rotation_rounds = whole(rotation_rounds, "rotation_rounds", 1, MAX_ROUNDS)
    if rounds is not None:
        rounds = whole(rounds, "rounds", 1, MAX_ROUNDS)
    return dict(players=players, ace=ace, decks=decks, min_bet=min_bet, max_bet=max_bet,
                chips=stacks, rotation=rotation, rotation_rounds=rotation_rounds, rounds=rounds)


def check_banker(banker: object, config: Config, rng: np.random.Generator) -> int:
    """The first banker: `banker` when given (a seat holding chips), else drawn by lot with
    the seeded `rng` among the seats holding chips. Then the table must let somebody bet:
    some other seat must hold at least the minimum bet ("nobody_can_bet" otherwise: every
    stack below min_bet, or only the banker with chips).
    Decided: docs/rules.md#21-seats, docs/rules.md#21-no-bettor."""
    players, chips = config["players"], config["chips"]
    if banker is None:
        holders = [s for s in range(players) if chips[s] > 0]
        banker = holders[int(rng.integers(len(holders)))]
    elif not is_int(banker) or not 0 <= banker < players:
        raise VinteEUmError("banker_range", last=players - 1, value=shown(banker))
    banker = int(banker)
    if chips[banker] == 0:
        raise VinteEUmError("banker_no_chips", banker=banker)
    if not any(chips[s] >= config["min_bet"] for s in range(players) if s != banker):
        raise VinteEUmError("nobody_can_bet", min_bet=config["min_bet"])
    return banker
