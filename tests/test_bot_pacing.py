"""Bots are paced one way (`widgets.components.pacing`, as the tables do): an asyncio task on
the kernel's loop, never `time.sleep` inside a click. A click returns at once; the bots then
move at the page's pace (`?ritmo=`), each move drawn as it is made."""
from __future__ import annotations

import asyncio
import time

import pytest

from widgets.components import pacing
from widgets.components.later import run_waiting
from widgets.pages.jogar_21 import PlayVinteEUm
from widgets.pages.jogar_truco import PlayTruco

from loops import run_async

PACE = 0.15


def _no_sleeping(*_args):
    raise AssertionError("time.sleep in a bot run: the kernel would stop for the whole run")


def click_21(view, kind):
    next(b for b in view.actions.children if f"cartas-act-{kind}" in b._dom_classes).click()


@pytest.mark.parametrize("game", ["truco", "21"])
def test_a_click_returns_at_once_while_the_bots_play_on_at_the_pages_pace(monkeypatch, game):
    monkeypatch.setattr(time, "sleep", _no_sleeping)
    moves: list[float] = []

    async def play():
        if game == "21":
            view = PlayVinteEUm(seed=4, delay=PACE, players=5)
            run_waiting()  # the first deal, which a page makes once its browser asks
            act = lambda: click_21(view, "bet")  # noqa: E731
        else:
            view = PlayTruco(seed=2, delay=PACE)
            run_waiting()
            while view.state.current_seat != 0:  # dealt so the learner leads, or the bots moved at once
                await view.bots_done()
            act = lambda: view.play_card(0)  # noqa: E731
        made = view._bot_move

        def timed(seat):
            moves.append(time.perf_counter())
            made(seat)

        view._bot_move = timed
        started = time.perf_counter()
        act()
        returned = time.perf_counter() - started
        busy = view._busy and view.bots_task is not None and not moves
        await view.bots_done()
        return view, started, returned, busy

    view, started, returned, busy = run_async(play())
    assert returned < PACE / 2 and busy  # the click came back before any bot moved
    assert len(moves) >= 2 and not view._busy and view.bot_steps == len(moves)
    gaps = [b - a for a, b in zip([started, *moves], moves)]
    assert all(gap >= PACE * 0.9 for gap in gaps), gaps  # one move per pace, not all at once
    assert view.state.is_terminal() or view.state.current_seat == 0 or view._human_out()


def test_without_a_running_loop_or_at_pace_zero_the_bots_move_at_once(monkeypatch):
    monkeypatch.setattr(time, "sleep", _no_sleeping)
    view = PlayVinteEUm(seed=4, delay=PACE, players=5)  # no loop runs here: at once
    click_21(view, "bet")
    assert view.bots_task is None and view.bot_steps > 0 and view.state.current_seat in (0, None)

    async def at_zero():
        fast = PlayVinteEUm(seed=4, delay=0, players=5)
        run_waiting()
        click_21(fast, "bet")
        return fast.bots_task, fast.bot_steps

    task, steps = run_async(at_zero())
    assert task is None and steps == view.bot_steps


def test_a_new_game_stops_the_bots_of_the_last_one():
    async def play():
        view = PlayVinteEUm(seed=4, delay=5.0, players=5)  # long pauses: the run is still under way
        run_waiting()
        click_21(view, "bet")
        first = view.bots_task
        await asyncio.sleep(0)
        view.delay = 0
        view.new_game()
        await asyncio.sleep(0)
        return view, first

    view, first = run_async(play())
    assert first is not None and first.cancelled() and view.bots_task is None and not view._busy


def test_pacing_has_no_time_sleep_left():
    assert not hasattr(pacing, "time")
