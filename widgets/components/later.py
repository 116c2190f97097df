"""Work a view does right after its page has been sent: the first deal of a lesson that deals.

Decided rule (issue 18, item 8: every dashboard light at class scale): a view builds its
widgets in the notebook's cell, which is all the page needs, and a lesson that deals at open
makes its first deal in `after_paint(callback)`: when the learner's browser asks for the
widgets' state, or after a fallback delay (`paint_delay()`), whichever comes first.

Why then: Voilà sends a page once its last cell has run, and the learner's browser asks the
kernel for the widgets' state only when its JavaScript has started, about two seconds after
the page arrived (more on a busy machine). ipywidgets answers that "request_states" (on its
"jupyter.widget.control" comm) in `Widget._handle_control_comm_msg`, which `after_paint` wraps
(once) so that every deal still waiting runs first: the state a browser receives always holds
the deal, and the learner sees a dealt hand at first paint. The deal then runs after the
learner's page was sent, never while a class's pages are being run: 30 kernels starting at
once on 2 cores finish their cells over many seconds, and a deal a second after each cell
(numpy alone is about 0.1 s of CPU per kernel) measurably slowed the pages of the kernels still
running (class_load: deal-at-open lessons 1.2-1.9x the bare notebook, against 1.18-1.21x when
the deal waited for the browser).

The fallback delay is for a front end that never asks (JupyterLab renders widgets from their
comm messages; nbval has no browser): 1 s, or VOILA_FALLBACK seconds in a Voilà kernel (its
environment names the server, `SERVER_SOFTWARE=voila/...`), where a browser comes.

On a kernel an event loop runs while the cell runs, and the callback goes on it with
`call_later` (checked on ipykernel 7: work there leaves the cell's reply, and the page, on
time). A kernel runs each cell inside an asyncio task. Without a running loop (plain Python,
the tests), or with a loop that runs under the caller but no task of its own (Playwright's
sync API keeps one running in the main thread of the browser tests), it runs at once, so a
view made by hand is complete when its constructor returns.
"""
from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

PAINT_DELAY = 1.0  # seconds between a view's cell and its first deal, outside Voilà (see above)
VOILA_FALLBACK = 20.0  # the same in a Voilà kernel, should its browser never ask


def paint_delay() -> float:
    """Seconds after which a waiting deal is made even if no browser asked for the widgets."""
    return VOILA_FALLBACK if os.environ.get("SERVER_SOFTWARE", "").startswith("voila") else PAINT_DELAY


_waiting: list[Callable[[], object]] = []  # deals due, in the order they were asked for


def after_paint(callback: Callable[[], object]) -> None:
    """Run `callback` when the browser asks for the widgets' state, or `paint_delay()` seconds
    after the running cell if that comes first, or now when no event loop runs. Pass a guarded
    callback (`View.guarded`): nothing may escape on the event loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is None or asyncio.current_task() is None:
        callback()  # no cell running on a loop (plain Python; a loop that runs under us, as Playwright's)
        return
    _answer_browsers_after_the_deals()
    _waiting.append(callback)
    loop.call_later(paint_delay(), _run, callback)


def _run(callback: Callable[[], object]) -> None:
    """Run `callback` if it is still waiting (each runs once)."""
    if callback in _waiting:
        _waiting.remove(callback)
        callback()


def run_waiting() -> None:
    """Run every deal still waiting, oldest first."""
    while _waiting:
        _run(_waiting[0])


def _answer_browsers_after_the_deals() -> None:
    """Wrap ipywidgets' answer to a browser's "request_states" so the deals waiting run first."""
    from ipywidgets import Widget

    handler = Widget.__dict__["_handle_control_comm_msg"].__func__
    if getattr(handler, "_cartas_deals_first", False):
        return

    def deals_first(cls, msg):
        if msg.get("content", {}).get("data", {}).get("method") == "request_states":
            run_waiting()
        return handler(cls, msg)

    deals_first._cartas_deals_first = True  # type: ignore[attr-defined]
    Widget._handle_control_comm_msg = classmethod(deals_first)


def deal_from_seed(seed_box, rng, deal: Callable[[], object], top: int = 1000) -> None:
    """A lesson's first deal: the seed box gets its value from the seeded `rng` (a Generator or
    a `lazy_rng`, so numpy loads here), which deals through the box's observer; `deal()` is
    called directly when the value drawn is the one already in the box."""
    value = int((rng() if callable(rng) else rng).integers(top))
    if seed_box.value == value:
        deal()
    else:
        seed_box.value = value
