"""A game's options and what each allows: `Option`, and `GameError` for a refused one.

Each game declares its options once, beside its engine (`cartas.truco.setup.OPTIONS`,
`cartas.vinte_e_um.config.OPTIONS`); its `GameSpec` in `cartas.games` shows them to callers,
and the game's loader checks a saved game's setup against the very same `Option`s
(docs/rules.md#saved-game-replays), so no range is written twice. This module imports no
game, so every game may use it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .catalogue import Catalogue
from .errors import RuleError

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
    "bad_seat": ("Numa mesa de {game} os assentos vão de 0 a {high}, não {value}.",
                 "At a {game} table the seats go from 0 to {high}, not {value}."),
    "bad_seats": ("Uma mesa de {game} tem de {low} a {high} assentos, não {value}.",
                  "A {game} table has {low} to {high} seats, not {value}."),
    "bad_seat_count": ("Uma mesa de {game} tem {choices} assentos, não {value}.",
                       "A {game} table has {choices_en} seats, not {value}."),
    "unknown_level": ("Nível de jogador desconhecido {value}: escolha {choices}.",
                      "Unknown player level {value}: choose {choices}."),
    "level_easy": ("Fácil", "Easy"),
    "level_rule": ("Médio", "Medium"),
    "level_strong": ("Forte", "Strong"),
})


class GameError(RuleError):
    """A game, an option or a seat count the registry refuses."""

    catalogue = CATALOGUE


def shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def whole(value: object) -> bool:
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
        return (whole(value) and self.low is not None and self.high is not None
                and self.low <= value <= self.high)  # type: ignore[operator]

    def refusal(self, game: str, value: object) -> GameError:
        """The GameError saying that `value` is not allowed, and what is."""
        if self.choices:
            return GameError("bad_choice", option=self.name, game=game, value=shown(value),
                             choices=", ".join(str(c) for c in self.choices))
        return GameError("bad_per_seat" if self.per_seat else "bad_number", option=self.name,
                         game=game, value=shown(value), low=self.low, high=self.high)


def check_options(options: tuple[Option, ...], game: str, values: Mapping[str, object],
                  seats: int) -> dict[str, object]:
    """Every one of a game's `options`, `values` over the defaults, each checked against what
    it allows at a table of `seats`; GameError naming the first unknown option ("unknown_option")
    or refused value."""
    known = {o.name: o for o in options}
    for name, value in values.items():
        option = known.get(name) if isinstance(name, str) else None
        if option is None:
            raise GameError("unknown_option", game=game, option=shown(name),
                            choices=", ".join(known) or "-")
        if not option.allows(value, seats):
            raise option.refusal(game, value)
    return {o.name: values.get(o.name, o.default) for o in options}
