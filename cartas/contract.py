"""The one contract every game of Cartas follows (truco and 21 alike).

Widgets, scenarios, benchmarks and the generic tests (`tests/test_contract.py`) rely only on
these protocols wherever they need no game's specifics. A game module provides:

- a state class satisfying `GameState`, built by the module's `new_game(...)`;
- `from_json(text)` rebuilding a state from `state.to_json()` (and refusing any text that
  is not a state the rules allow, with the game's `RuleError`);
- `narrate(event, lang)` turning one event into a sentence;
- bots satisfying `Bot`.

Seats are ints `0..n-1`. An action is the game's own immutable `Action` value. An event is a
plain JSON-friendly dict with at least a "type" key. Refusals are `cartas.errors.RuleError`.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

Event = dict[str, Any]


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

    def legal_actions(self) -> list[Any]:
        """The legal actions when it is this seat's turn, else []."""
        ...

    @property
    def events(self) -> list[Event]:
        """Every event so far, with what this seat may not see replaced by None."""
        ...


@runtime_checkable
class GameState(Protocol):
    """A game in progress."""

    @property
    def current_seat(self) -> int | None:
        """The seat to act, None when the game is over."""
        ...

    @property
    def winner(self) -> Any:
        """Who won (a team in truco, a seat in 21), None until the end or on a tie."""
        ...

    @property
    def players(self) -> int:
        """How many seats the table has."""
        ...

    def legal_actions(self) -> list[Any]: ...

    def apply_action(self, action: Any, seat: int | None = None) -> list[Event]:
        """Apply the current seat's action and return the events it caused; `seat`, when
        given, must be the current seat. A refused action raises the game's RuleError and
        leaves the state as it was."""
        ...

    def is_terminal(self) -> bool: ...

    def view(self, seat: int | None) -> SeatView: ...

    def to_json(self) -> str: ...

    def narrate(self, event: Event, lang: str = "pt") -> str: ...

    def clone(self) -> GameState: ...


@runtime_checkable
class Bot(Protocol):
    """A player: given what its seat sees, it chooses one of the legal actions."""

    def choose(self, view: SeatView) -> Any: ...
