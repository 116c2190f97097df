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

from .catalogue import Catalogue, check_lang
from .contract import Action, Bot, GameState
from .errors import RuleError

GAME_KEYS: tuple[str, ...] = ("paulista", "mineiro", "21")

CATALOGUE = Catalogue("games", {
    "unknown_game": ("Jogo desconhecido {value}: escolha {choices}.",
                     "Unknown game {value}: choose {choices}."),
    "unknown_option": ("O jogo {game} não tem a opção {option}; as opções são: {choices}.",
                       "The game {game} has no option {option}; its options are: {choices}."),
    "bad_choice": ("Valor inválido para a opção {option} de {game}: {value}; escolha entre {choices}.",
                   "Invalid value for the option {option} of {game}: {value}; choose one of {choices}."),
    "bad_number": ("Valor inválido para a opção {option} de {game}: {value}; é um número inteiro de "
                   "{low} a {high}.",
                   "Invalid value for the option {option} of {game}: {value}; it is a whole number from "
                   "{low} to {high}."),
    "bad_per_seat": ("Valor inválido para a opção {option} de {game}: {value}; é um número inteiro de "
                     "{low} a {high}, ou um por assento.",
                     "Invalid value for the option {option} of {game}: {value}; it is a whole number from "
                     "{low} to {high}, or one per seat."),
    "bad_seats": ("Uma mesa de {game} tem de {low} a {high} assentos, não {value}.",
                  "A {game} table has {low} to {high} seats, not {value}."),
})


class GameError(RuleError):
    """A game, an option or a seat count the registry refuses."""

    catalogue = CATALOGUE


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Option:
    """One option of a game: its `name`, its `default`, and what it allows: `choices`
    (compared with their exact type: True is not 1, 11.0 is not 11) or whole numbers from
    `low` to `high`; `nullable` allows None (the engine's default); `per_seat` allows one
    such number per seat as a list."""

    name: str
    default: object
    choices: tuple[object, ...] = ()
    low: int | None = None
    high: int | None = None
    nullable: bool = False
    per_seat: bool = False

    def allows(self, value: object, seats: int) -> bool:
        if value is None:
            return self.nullable
        if self.choices:
            return any(type(value) is type(c) and value == c for c in self.choices)
        if self.per_seat and isinstance(value, list | tuple):
            return len(value) == seats and all(self._in_range(v) for v in value)
        return self._in_range(value)

    def _in_range(self, value: object) -> bool:
        return (_whole(value) and self.low is not None and self.high is not None
                and self.low <= value <= self.high)  # type: ignore[operator]

    def refusal(self, game: str, value: object) -> GameError:
        """The GameError saying that `value` is not allowed, and what is."""
        if self.choices:
            return GameError("bad_choice", option=self.name, game=game, value=_shown(value),
                             choices=", ".join(str(c) for c in self.choices))
        return GameError("bad_per_seat" if self.per_seat else "bad_number", option=self.name,
                         game=game, value=_shown(value), low=self.low, high=self.high)


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
        count = self.check_seats(seats)
        for name, value in options.items():
            option = self.option(name)
            if not option.allows(value, count):
                raise option.refusal(self.key, value)
        return {o.name: options.get(o.name, o.default) for o in self.options}

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
    from .truco.rules import TIE_LEADS

    def new(seed: object, seats: int, *, tie_lead: str) -> GameState:
        return truco.new_game(key, seed, tie_lead=tie_lead)

    variant = truco.get_variant(key)
    title = f"Truco {variant.key.capitalize()}"
    return GameSpec(
        key=key, titles=(title, title), seats=(4, 4), default_seats=4, teams=True,
        options=(Option("tie_lead", "leader", choices=TIE_LEADS),),
        # saves and bots need numpy: their modules load on first use, not with the registry
        _new=new, _load=lambda text: truco.from_json(text), _parse=truco.Action.parse,
        _bot=lambda seed: truco.RuleBot(seed=seed), _random_bot=lambda seed: truco.RandomBot(seed))


def _vinte_e_um_spec(key: str) -> GameSpec:
    from . import vinte_e_um
    from .vinte_e_um import config
    from .vinte_e_um.scoring import ACE_OPTIONS

    def new(seed: object, seats: int, **options: Any) -> GameState:
        return vinte_e_um.new_game(seats, seed, **options)

    return GameSpec(
        key=key, titles=("21 (vinte e um)", "21 (vinte-e-um)"),
        seats=(config.MIN_PLAYERS, config.MAX_PLAYERS), default_seats=4, teams=False,
        options=(
            Option("ace", None, choices=tuple(ACE_OPTIONS), nullable=True),
            Option("decks", None, low=1, high=config.MAX_PACKS, nullable=True),
            Option("min_bet", 1, low=1, high=config.MAX_BET),
            Option("max_bet", 5, low=1, high=config.MAX_BET),
            Option("chips", 20, low=0, high=config.MAX_CHIPS, per_seat=True),
            Option("rotation", config.DEFAULT_ROTATION, choices=config.ROTATIONS),
            Option("rounds", 10, low=1, high=config.MAX_ROUNDS, nullable=True),
            Option("rotation_rounds", 3, low=1, high=config.MAX_ROUNDS),
            Option("banker", None, low=0, high=config.MAX_PLAYERS - 1, nullable=True),
        ),
        _new=new, _load=lambda text: vinte_e_um.from_json(text),  # type: ignore[no-untyped-call]
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
