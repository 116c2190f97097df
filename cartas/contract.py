"""The one contract every game of Cartas follows (truco and 21 alike).

Widgets, scenarios, the class tables, benchmarks and the generic tests
(`tests/test_contract.py`) rely only on these protocols wherever they need no game's
specifics, and find games in one registry, `cartas.games` (`find_game(key)` gives a
`GameSpec`: how to start, load and play a game, and its rule bot). A game provides:

- a state class satisfying `GameState`, built by its spec's `new_game(seed, **options)`;
- `from_json(text)` rebuilding a state from `state.to_json()` (and refusing any text that
  is not a state the rules allow, with the game's `RuleError`);
- `state.narrate(event, lang)` turning one event into a sentence, and
  `state.describe(action, lang)` naming one action (a button's label);
- `state.outcome()`: what each team or seat has won so far, and who won the game;
- bots satisfying `Bot`.

Seats are ints `0..n-1`. An action is the game's own immutable `Action` value, with a `kind`
and a `str()` form its game's `parse_action` reads back. An event is a plain JSON-friendly
dict with at least a "type" key; the events `apply_action` returns are the caller's own
copies: changing them never changes `state.events`. Refusals are `cartas.errors.RuleError`.
Views hold `cartas.cards.Card` values (None for a card the viewer may not see).

What comes back is typed (`Action`, `Event`, `Outcome`, `int | None`); what goes in may be
anything, as it may come from a browser: a method taking an action (`apply_action`,
`describe`) or a view (`Bot.choose`) takes any value and refuses, with the game's
`RuleError`, one that is not its game's.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

Event = dict[str, Any]


def copy_event(event: Event) -> Event:
    """A copy of a JSON-friendly event sharing no list or dict with it (cheaper than
    `copy.deepcopy`, which an event never needs: it holds only str, int, bool, None,
    lists and dicts)."""
    return {key: _copy_value(value) for key, value in event.items()}


def _copy_value(value: Any) -> Any:
    if value.__class__ is list:
        return [_copy_value(v) for v in value]
    if value.__class__ is dict:
        return {k: _copy_value(v) for k, v in value.items()}
    return value


@runtime_checkable
class Action(Hashable, Protocol):
    """A move: immutable and hashable; `str(action)` is text the game's `parse_action`
    reads back."""

    @property
    def kind(self) -> str: ...


@dataclass(frozen=True)
class Outcome:
    """What a game has given each side so far, and who won (`state.outcome()`).

    `by` says what the sides are: "team" (truco: `scores` per team, `winner` a team) or
    "seat" (21: `scores` are each seat's chips, `winner` a seat). `winner` is None until the
    end, and on a shared top; `winners` lists every side at the top once the game is over
    (one, or the tied seats), and is empty before."""

    by: Literal["team", "seat"]
    scores: tuple[int, ...]
    winner: int | None
    winners: tuple[int, ...]
    over: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: {"by", "scores", "winner", "winners", "over"}."""
        return {"by": self.by, "scores": list(self.scores), "winner": self.winner,
                "winners": list(self.winners), "over": self.over}


@runtime_checkable
class SeatView(Protocol):
    """What one seat may see now (`state.view(seat)`); never a card it may not see.

    `seat` is None for a spectator, who sees only what is face up.
    """

    @property
    def seat(self) -> int | str | None:
        """The viewer: a seat, or None for a spectator (a game may add its own viewers, as
        21's "all" for the teacher who sees every card)."""
        ...

    @property
    def current_seat(self) -> int | None: ...

    @property
    def is_my_turn(self) -> bool: ...

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions when it is this seat's turn, else []."""
        ...

    @property
    def events(self) -> list[Event]:
        """Every event so far, with what this seat may not see replaced by None."""
        ...

    def events_from(self, first: int) -> list[Event]:
        """`events[first:]` (`first` >= 0), only those redacted (a page that holds the first
        events is sent the rest)."""
        ...


@runtime_checkable
class GameState(Protocol):
    """A game in progress."""

    @property
    def game(self) -> str:
        """The game's key in the registry (`cartas.games.find_game(state.game)`)."""
        ...

    @property
    def current_seat(self) -> int | None:
        """The seat to act, None when the game is over."""
        ...

    @property
    def winner(self) -> int | None:
        """Who won (a team in truco, a seat in 21), None until the end or on a tie."""
        ...

    @property
    def players(self) -> int:
        """How many seats the table has."""
        ...

    @property
    def events(self) -> list[Event]:
        """Everything that happened so far, in order (read it, never change it)."""
        ...

    def legal_actions(self) -> Sequence[Action]: ...

    def apply_action(self, action: Any, seat: int | None = None) -> Sequence[Event]:
        """Apply the current seat's action (an `Action`, or its text) and return the events
        it caused, as copies the caller owns (a sequence: `list(events)` for a list); `seat`,
        when given, must be the current seat.
        A refused action raises the game's RuleError and leaves the state as it was."""
        ...

    def is_terminal(self) -> bool: ...

    def view(self, seat: int | None) -> SeatView: ...

    def to_json(self) -> str: ...

    def narrate(self, event: Event, lang: str = "pt") -> str: ...

    def describe(self, action: Any, lang: str = "pt") -> str:
        """The action's name in `lang` as this game says it now (a button's label); `action`
        is the game's `Action` or its text."""
        ...

    def outcome(self) -> Outcome: ...

    def clone(self) -> GameState: ...


@runtime_checkable
class Bot(Protocol):
    """A player: given what its seat sees, it chooses one of the legal actions."""

    def choose(self, view: Any) -> Action:
        """One of `view.legal_actions()`; `view` is its own game's SeatView (another game's
        view is refused with the game's RuleError)."""
        ...
