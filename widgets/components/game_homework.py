"""A homework's game item played on a play page (jogar_truco, jogar_21, or under the homework
in tarefa): when the game is over for the learner, it is sent once to the homework service.

Decided rules (docs/rules.md#homework-games, classroom.homework):
- The item is the page's `?tarefa=ID&item=N` (N from 0, read through
  widgets.components.params; a malformed one is named in the page's notice and nothing is
  sent), or the one the homework page plays under itself.
- The kernel never sends a verdict: when a drawing finds the game over for the learner's seat
  (`classroom.homework.game_result`), it sends the state's `to_json()`, and the homework
  service replays it with the engine and decides whether it is over, whether it counts for
  the item (its game, its variant, begun from a scenario or not) and whether she won. The
  page's `my_moves` (the indices of her moves among the game's actions) go with it, so the
  store checks that each was her seat's (classroom.homework.finish_game). Under JupyterHub
  the class service refuses such a game: there only its own deal counts (widgets.pages.tarefa).
- One game is sent once: a second drawing of the same ended game sends nothing; once the item
  is done (now or before), no later game is sent. A game the item does not take (another
  variant, a scenario) is said under the game, in her language, and the next game may count.
- The learner is the one at this browser, her token checked again before the write; while the
  browser has not said who she is, nothing is sent and the next drawing tries again.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from widgets.components.pacing import HUMAN

# The homework store and the learner's widget are imported when a page has a homework item
# (`from_url`, `GameHomework.check`), so a play page opened without one loads none of them
# (benchmarks/class_load.py).


class GameHomework:
    """The homework item a play view's game is for (see the module's rules). `view` has
    `state`, `lang`, `show_message` and `show_error`; `on_done(verdict)` is called after a
    write the service accepted."""

    def __init__(self, view, assignment: str, item: int, from_scenario: bool = False,
                 on_done: Callable[[dict], None] | None = None):
        self.view = view
        self.assignment = assignment
        self.item = item
        self.from_scenario = from_scenario
        self.on_done = on_done
        self.done = False          # the item is done (by this page or before): nothing more to send
        self._sent: Any = None     # the ended game already sent (the state object itself)
        self.verdict: dict | None = None

    def check(self) -> dict | None:
        """Send the game if it is over for the learner and not sent yet; the service's verdict
        ({"correct", "choice", "first"}) when it was taken now, else None. Never raises: a
        refusal or a store that does not answer is shown on the view."""
        from classroom import homework as hw
        from classroom.store import StoreError
        from widgets.components import learner as identity
        from widgets.components.homework import Refusal, homework_service, t

        state = self.view.state
        if self.done or state is None or state is self._sent or hw.game_result(state, HUMAN) is None:
            return None
        try:
            learner = identity.widget().verified() if identity.current() is not None else None
            if learner is None:
                return None  # the browser has not said who she is yet: the next drawing tries again
            self._sent = state
            mine = getattr(self.view, "my_moves", None)
            verdict = homework_service().finish_game(self.assignment, self.item, learner.key, state.game,
                                                     state.to_json(), HUMAN, self.from_scenario,
                                                     mine=None if mine is None else list(mine))
        except hw.HomeworkError as error:
            # no game will ever count (under JupyterHub only the service's own deal does: "service_deals")
            self.done = error.code in ("not_yours", "no_assignment", "bad_item", "service_deals")
            self.view.show_error(Refusal(error))
            return None
        except StoreError:
            self._sent = None  # try again at the next drawing
            self.view.show_message(t("game_store_down", self.view.lang), kind="error")
            return None
        self.done, self.verdict = True, verdict
        self.view.show_message(t("game_saved", self.view.lang), kind="ok")
        if self.on_done is not None:
            self.on_done(verdict)
        return verdict


def from_url(view, from_scenario: bool = False) -> GameHomework | None:
    """The item of the page's `?tarefa=ID&item=N`, or None (no such parameters, or refused:
    the page's notice says why)."""
    from widgets.components import params
    from widgets.components.i18n import query_parameters

    if "tarefa" not in query_parameters():
        return None
    from classroom import homework as hw

    code = view.from_url(params.homework())
    text = query_parameters().get("item")
    if code is None or text is None:
        return None
    item = view.from_url(params.whole_number("item", text, 0, hw.MAX_ITEMS - 1, None, "homework"))
    return None if item is None else GameHomework(view, code, item, from_scenario)
