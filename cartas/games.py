"""The games of Cartas, one registry: a `GameSpec` per game, found by its key.

Keys: "paulista" (Truco Paulista), "mineiro" (Truco Mineiro) and "21" (vinte e um).
`find_game(key)` gives the spec, or raises `GameError` ("unknown_game") naming the key and
the choices in Portuguese and English. A spec says everything a caller needs without
comparing game names:

- `key`, `titles` (Portuguese, English; `title(lang)`), `seats` (fewest, most) and
  `default_seats`, `teams` (True when seats play in two teams, as in truco);
- `options`: each `Option` with its default and what it allows (a list of choices, or a
  range of whole numbers; `None` allowed where the engine picks a default);
- `new_game(seed, seats=None, **options)`: a new game, every option checked first
  (an unknown option or a value outside its range is a `GameError` naming it, an impossible
  combination the engine's own `RuleError`);
- `from_json(text)`, `parse_action(text)`, `bot(seed)` (the rule-following bot) and
  `random_bot(seed)`.

Importing this module is cheap: a game's engine loads when its spec is first asked for.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .catalogue import check_lang
from .contract import Action, Bot, GameState
from .options import CATALOGUE, GameError, Option, check_options, shown as _shown, whole as _whole

GAME_KEYS: tuple[str, ...] = ("paulista", "mineiro", "21")
__all__ = ["CATALOGUE", "GAME_KEYS", "GameError", "GameSpec", "Option", "all_games", "find_game"]

@dataclass(frozen=True)
class GameSpec:
    """One game of the registry (see the module docstring)."""

    key: str
    titles: tuple[str, str]
    seats: tuple[int, int]
    default_seats: int
    teams: bool
    options: tuple[Option, ...]
    _new: Callable[..., GameState]
    _load: Callable[[str], GameState]
    _parse: Callable[[str], Action]
    _bot: Callable[[int | None], Bot]
    _random_bot: Callable[[int | None], Bot]

    def title(self, lang: str = "pt") -> str:
        return self.titles[0] if check_lang(lang) == "pt" else self.titles[1]

    def option(self, name: str) -> Option:
        """The option called `name`; GameError "unknown_option" otherwise."""
        for option in self.options:
            if option.name == name:
                return option
        raise GameError("unknown_option", game=self.key, option=_shown(name),
                        choices=", ".join(o.name for o in self.options) or "-")

    def check_seats(self, seats: object) -> int:
        """`seats` (None: the default) if the game allows it; GameError "bad_seats"."""
        if seats is None:
            return self.default_seats
        low, high = self.seats
        if not _whole(seats) or not low <= seats <= high:  # type: ignore[operator]
            raise GameError("bad_seats", game=self.key, low=low, high=high, value=_shown(seats))
        return seats  # type: ignore[return-value]

    def check_options(self, options: Mapping[str, object], seats: int | None = None) -> dict[str, object]:
        """Every option, `options` over the defaults, each checked against what it allows;
        GameError naming the first unknown option or refused value."""
        return check_options(self.options, self.key, options, self.check_seats(seats))

    def new_game(self, seed: object = None, seats: int | None = None, **options: object) -> GameState:
        """A new game from `seed` (None, a whole number or a numpy Generator) with `seats`
        (None: `default_seats`) and `options` (see `check_options`)."""
        checked = self.check_options(options, seats)
        return self._new(seed, self.check_seats(seats), **checked)

    def from_json(self, text: str) -> GameState:
        """The game saved as `text` (its `to_json()`); the game's RuleError otherwise."""
        return self._load(text)

    def parse_action(self, text: str) -> Action:
        """An action from its text (its `str()`); the game's RuleError otherwise."""
        return self._parse(text)

    def bot(self, seed: int | None = None) -> Bot:
        """The rule-following bot, deterministic given `seed`."""
        return self._bot(seed)

    def random_bot(self, seed: int | None = None) -> Bot:
        """A bot choosing uniformly among the legal actions."""
        return self._random_bot(seed)


def _truco_spec(key: str) -> GameSpec:
    from . import truco
    from .truco.rules import OPTIONS

    def new(seed: object, seats: int, *, tie_lead: str) -> GameState:
        return truco.new_game(key, seed, tie_lead=tie_lead)

    variant = truco.get_variant(key)
    title = f"Truco {variant.key.capitalize()}"
    return GameSpec(
        key=key, titles=(title, title), seats=(4, 4), default_seats=4, teams=True,
        options=OPTIONS,
        # saves and bots need numpy: their modules load on first use, not with the registry
        _new=new, _load=lambda text: truco.from_json(text), _parse=truco.Action.parse,
        _bot=lambda seed: truco.RuleBot(seed=seed), _random_bot=lambda seed: truco.RandomBot(seed))


def _vinte_e_um_spec(key: str) -> GameSpec:
    from . import vinte_e_um
    from .vinte_e_um import config

    def new(seed: object, seats: int, **options: Any) -> GameState:
        return vinte_e_um.new_game(seats, seed, **options)

    return GameSpec(
        key=key, titles=("21 (vinte e um)", "21 (vinte-e-um)"),
        seats=(config.MIN_PLAYERS, config.MAX_PLAYERS), default_seats=4, teams=False,
        options=config.OPTIONS,
        _new=new, _load=lambda text: vinte_e_um.from_json(text),
        _parse=vinte_e_um.Action.parse,
        _bot=lambda seed: vinte_e_um.SensibleBot(seed), _random_bot=lambda seed: vinte_e_um.RandomBot(seed))


_BUILDERS: dict[str, Callable[[str], GameSpec]] = {
    "paulista": _truco_spec, "mineiro": _truco_spec, "21": _vinte_e_um_spec}


@cache
def _spec(key: str) -> GameSpec:
    return _BUILDERS[key](key)


def find_game(key: object) -> GameSpec:
    """The spec of the game called `key` ("paulista", "mineiro" or "21"); GameError
    "unknown_game" naming it otherwise."""
    if not isinstance(key, str) or key not in _BUILDERS:
        raise GameError("unknown_game", value=_shown(key), choices=", ".join(GAME_KEYS))
    return _spec(key)


def all_games() -> tuple[GameSpec, ...]:
    """Every game's spec, in `GAME_KEYS` order."""
    return tuple(find_game(key) for key in GAME_KEYS)
