"""Bots that move at a pace a person can follow, shared by the "play" views (truco and 21).

No learner input makes unbounded work: one run of the bots (after a click, or when a game
starts) makes at most `max_bot_steps` moves and pauses at most `max_paced_seconds` in
total (after that the remaining moves of the run go without pause). A run stops as soon
as the game is over, it is the learner's turn, or the learner's seat can never act again
(`_human_out`, e.g. a 21 seat left without chips: the game is over for that learner).
When a run stops at its step limit with bots still to move, `bots_paused` is True and the
view offers a button to let them go on (`continue_bots`), again bounded.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

HUMAN = 0  # the learner's seat in every play view
MAX_BOT_STEPS = 400        # bot moves per learner input, at most
MAX_PACED_SECONDS = 20.0   # pauses per learner input, at most, in seconds


def pace_from_query(default: float = 0.8):
    """Seconds between bot moves: `?ritmo=0.3` in the dashboard URL (0 for tests), as a
    `widgets.components.params.Reading` (a refused value gives `default`, see `View.from_url`)."""
    from widgets.components.params import pace
    return pace(default)


class BotPacing:
    """Mixin for a View where seat HUMAN plays against bots.

    The view sets `self.state`, `self.delay` (seconds) and implements `_bot_move(seat)`;
    it may override `_human_out()`. `self._busy` is True while the bots are moving (the
    view hides its buttons then); `bot_steps` counts the moves of the last run and
    `bots_paused` says whether it stopped at its limit with bots still to move.
    """

    # Provided by the view (annotations only, so nothing here shadows the view's own):
    state: Any            # the view's own game state (each view reads its game's specifics)
    delay: float
    redraw: Callable[[], None]

    _busy = False
    bot_steps = 0
    bots_paused = False
    max_bot_steps = MAX_BOT_STEPS
    max_paced_seconds = MAX_PACED_SECONDS

    def _bot_move(self, seat: int) -> None:  # pragma: no cover - every play view overrides it
        raise NotImplementedError

    def _human_out(self) -> bool:
        """Whether the learner's seat can never act again (the game is over for them)."""
        return False

    def bots_to_move(self) -> bool:
        """Whether a bot is to move now: the game goes on, it is not the learner's turn, and
        the learner can still act later."""
        state = self.state
        return (not state.is_terminal() and state.current_seat != HUMAN
                and not self._human_out())

    def _run_bots(self, paced: bool) -> int:
        """Let the bots move until it is HUMAN's turn, the game is over (for the learner),
        or `max_bot_steps` moves were made; when `paced`, wait `self.delay` before each
        move (at most `max_paced_seconds` in all) and redraw after it. Returns the moves."""
        self._busy = True
        steps, slept = 0, 0.0
        try:
            self.redraw()
            while steps < self.max_bot_steps and self.bots_to_move():
                if paced and self.delay and slept < self.max_paced_seconds:
                    pause = min(self.delay, self.max_paced_seconds - slept)
                    time.sleep(pause)
                    slept += pause
                self._bot_move(self.state.current_seat)
                steps += 1
                if paced:
                    self.redraw()
        finally:
            self._busy = False
            self.bot_steps = steps
            self.bots_paused = steps >= self.max_bot_steps and self._still_to_move()
        self.redraw()
        return steps

    def _still_to_move(self) -> bool:
        try:
            return self.bots_to_move()
        except Exception:  # a broken state: nothing more to run
            return False

    def continue_bots(self) -> int:
        """Let paused bots go on for another bounded run."""
        return self._run_bots(paced=True) if self.bots_paused else 0
