"""Bots that move at a pace a person can follow, shared by the "play" views (truco and 21)."""
from __future__ import annotations

import time

from .i18n import query_parameters

HUMAN = 0  # the learner's seat in every play view


def pace_from_query(default: float = 0.8) -> float:
    """Seconds between bot moves: `?ritmo=0.3` in the dashboard URL (0 for tests)."""
    try:
        return max(0.0, min(5.0, float(query_parameters().get("ritmo", default))))
    except ValueError:
        return default


class BotPacing:
    """Mixin for a View where seat HUMAN plays against bots.

    The view sets `self.state`, `self.delay` (seconds) and implements `_bot_move(seat)`;
    `self._busy` is True while the bots are moving (the view hides its buttons then).
    """

    _busy = False

    def _bot_move(self, seat: int) -> None:  # pragma: no cover - every play view overrides it
        raise NotImplementedError

    def _run_bots(self, paced: bool) -> None:
        """Let the bots move until it is HUMAN's turn or the game is over; when `paced`,
        wait `self.delay` before each move and redraw after it."""
        self._busy = True
        try:
            self.redraw()
            while not self.state.is_terminal() and self.state.current_seat != HUMAN:
                if paced and self.delay:
                    time.sleep(self.delay)
                self._bot_move(self.state.current_seat)
                if paced:
                    self.redraw()
        finally:
            self._busy = False
        self.redraw()
