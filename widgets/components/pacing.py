"""Bots that move at a pace a person can follow, shared by the "play" views (truco and 21).

One way to pace bots, the tables' (`widgets.pages.mesa`): an asyncio task on the kernel's
running loop, never `time.sleep` inside a click. So a click returns at once, the page stays
live, and the bots then move one at a time, `delay` seconds apart (`?ritmo=` in the URL), each
move drawn as it is made. Where no loop is running (plain Python, a test) or the pace is 0,
the bots move at once, without pauses.

No learner input makes unbounded work: one run of the bots (after a click, or when a game
starts) makes at most `max_bot_steps` moves and pauses at most `max_paced_seconds` in
total (after that the remaining moves of the run go without pause). A run stops as soon
as the game is over, it is the learner's turn, or the learner's seat can never act again
(`_human_out`, e.g. a 21 seat left without chips: the game is over for that learner).
When a run stops at its step limit with bots still to move, `bots_paused` is True and the
view offers a button to let them go on (`continue_bots`), again bounded. A new run (a new
game) stops the one under way.
"""
from __future__ import annotations

import asyncio
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


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The loop a kernel's cell runs on, else None: as in `widgets.components.later`, a loop
    that runs under the caller with no task of its own (Playwright's sync API in the browser
    tests' main thread) is no kernel's, and a task put there would never run."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop if asyncio.current_task() is not None else None


class BotPacing:
    """Mixin for a View where seat HUMAN plays against bots.

    The view sets `self.state`, `self.delay` (seconds) and implements `_bot_move(seat)`;
    it may override `_human_out()`. `self._busy` is True while the bots are moving (the
    view hides its buttons then); `bot_steps` counts the moves of the last run and
    `bots_paused` says whether it stopped at its limit with bots still to move. A paced run
    is `bots_task` (None when the bots moved at once); `await view.bots_done()` waits for it.
    """

    # Provided by the view (annotations only, so nothing here shadows the view's own):
    state: Any            # the view's own game state (each view reads its game's specifics)
    delay: float
    redraw: Callable[[], None]
    show_error: Callable[..., None]

    _busy = False
    bot_steps = 0
    bots_paused = False
    bots_task: asyncio.Task | None = None
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

    def _run_bots(self, paced: bool, then: Callable[[], None] | None = None) -> int:
        """Let the bots move until it is HUMAN's turn, the game is over (for the learner),
        or `max_bot_steps` moves were made, then call `then`. When `paced` (and the view has
        a pace and a running loop) the moves are an asyncio task, `self.delay` apart, and
        this returns 0 at once; otherwise they are made now. Returns the moves made now."""
        self._stop_bots()
        loop = _running_loop() if paced and self.delay else None
        if loop is not None and self.bots_to_move():
            self._busy = True
            self.redraw()
            self.bots_task = loop.create_task(self._paced_run(then))
            return 0
        steps = 0
        self._busy = True
        try:
            while steps < self.max_bot_steps and self.bots_to_move():
                self._bot_move(self.state.current_seat)
                steps += 1
        finally:
            self._finish(steps)
        if then is not None:
            then()
        return steps

    async def _paced_run(self, then: Callable[[], None] | None) -> None:
        me = asyncio.current_task()
        steps, slept = 0, 0.0
        try:
            while steps < self.max_bot_steps and self.bots_to_move():
                if slept < self.max_paced_seconds:
                    pause = min(self.delay, self.max_paced_seconds - slept)
                    await asyncio.sleep(pause)
                    slept += pause
                self._bot_move(self.state.current_seat)
                steps += 1
                self.redraw()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a move refused or broken: said on the page, never raised
            self.show_error(error)
        finally:
            if self.bots_task is me:  # not a run a new game replaced
                self.bots_task = None
                self._finish(steps)
        if then is not None:
            try:
                then()
            except Exception as error:
                self.show_error(error)

    def _finish(self, steps: int) -> None:
        self._busy = False
        self.bot_steps = steps
        self.bots_paused = steps >= self.max_bot_steps and self._still_to_move()
        self.redraw()

    def _stop_bots(self) -> None:
        task, self.bots_task = self.bots_task, None
        if task is not None and not task.done():
            task.cancel()

    async def bots_done(self) -> None:
        """Wait for the paced run under way, if any (tests, and a notebook cell)."""
        while self.bots_task is not None:
            task = self.bots_task
            try:
                await task
            except asyncio.CancelledError:
                if self.bots_task is task:
                    raise

    def _still_to_move(self) -> bool:
        try:
            return self.bots_to_move()
        except Exception:  # a broken state: nothing more to run
            return False

    def continue_bots(self) -> int:
        """Let paused bots go on for another bounded run."""
        return self._run_bots(paced=True) if self.bots_paused else 0


# The bots' level (issue 31): one chooser for every "play" view -----------------------------
LEVEL_TEXT = {
    "level": {"pt": "Nível dos robôs", "en": "Bots' level"},
    "level_next": {"pt": "Os robôs passam a {level} no próximo jogo (Jogar de novo).",
                   "en": "The bots become {level} from the next game (Play again)."},
    "bot_seat": {"pt": "Assento {seat} (robô, {level})", "en": "Seat {seat} (bot, {level})"},
}


def level_options(lang: str) -> list[tuple[str, str]]:
    """The engine's bot levels (`cartas.games.LEVELS`) as a Dropdown's options, named in `lang`."""
    from cartas.games import LEVELS, level_name
    return [(level_name(level, lang), level) for level in LEVELS]


def level_from_query():
    """The bots' level: `?nivel=forte` in the dashboard URL, as a
    `widgets.components.params.Reading` (a refused value gives the default level, "rule",
    see `View.from_url`)."""
    from widgets.components.params import level
    return level()


def level_chooser(level: str | None = None):
    """The bots' level Dropdown (class cartas-level), at `level` (the engine's default, "rule",
    when None); the view labels it in its language with `draw_level_chooser`."""
    import ipywidgets as w

    from cartas.games import DEFAULT_LEVEL
    return w.Dropdown(options=level_options("pt"), value=level or DEFAULT_LEVEL,
                      style={"description_width": "initial"},
                      layout=w.Layout(width="300px", max_width="100%"), _dom_classes=("cartas-level",))


def draw_level_chooser(chooser, lang: str, label: str) -> None:
    """Label `chooser` (`label`) and name its levels in `lang`, keeping the chosen level."""
    current = chooser.value
    options = level_options(lang)
    if list(chooser.options) != options:
        chooser.options = options
        chooser.value = current
    chooser.description = label


def make_bots(game_key: str, seats, level: str, rng) -> dict[int, Any]:
    """A bot of `level` for each of `seats`, seeded from `rng` one seat after another (the
    same draws as before levels existed, so a seeded link deals the same game); the engine
    makes them (`find_game(game_key).bot`), so a strong bot's module loads only when one is made."""
    from cartas.games import find_game
    spec = find_game(game_key)
    return {s: spec.bot(int(rng.integers(2**31)), level=level) for s in seats}


def bot_names(seats, level: str, lang: str) -> dict[int, str]:
    """{seat: label} for the bots' seats (the learner's left out), "Assento 1 (robô, Forte)",
    as the tables draw a seat's name (`names` of `widgets.draw.truco_table.table_html`)."""
    from cartas.games import level_name
    from widgets.components.i18n import translate
    name = level_name(level, lang)
    return {s: translate(LEVEL_TEXT, "bot_seat", lang, seat=s, level=name) for s in seats if s != HUMAN}
