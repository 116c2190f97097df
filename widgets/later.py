"""Work a view does right after its page has been sent: the first deal of a lesson that deals.

Decided rule (issue 18, item 8: every dashboard light at class scale): a view builds its
widgets in the notebook's cell, which is all the page needs, and a lesson that deals at open
makes its first deal in `after_paint(callback)`, PAINT_DELAY seconds after the cell is over.

Why then: Voilà sends a page once its last cell has run, and the learner's browser asks the
kernel for the widgets' state only when its JavaScript has started, about two seconds after
the page arrived (more on a busy machine). The kernel is idle in between, so the deal done
there is in place when the browser draws the view: the learner sees a dealt hand at first
paint. When a class opens a lesson at once, the pages come back within a fraction of a second
of each other (they share the CPU), so deals made a second after each page no longer take CPU
from the classmates' pages still being run, as a deal made in the cell, or right after it, does
(numpy alone is about 0.1 s of CPU per kernel).

Should the browser ask first, the deal is made at once, before the widgets' state is sent:
ipywidgets answers the browser's "request_states" (on its "jupyter.widget.control" comm) in
`Widget._handle_control_comm_msg`, which `after_paint` wraps (once) so that every deal still
waiting runs first. So the state a browser receives always holds the deal.

On a kernel an event loop runs while the cell runs, and the callback goes on it with
`call_later` (checked on ipykernel 7: work there leaves the cell's reply, and the page, on
time). Without a running loop (plain Python, the tests) it runs at once, so a view made by
hand is complete when its constructor returns.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable

PAINT_DELAY = 1.0  # seconds between a view's cell and its first deal (see above)


_waiting: list[Callable[[], object]] = []  # deals due, in the order they were asked for


def after_paint(callback: Callable[[], object]) -> None:
    """Run `callback` PAINT_DELAY seconds after the running cell, or when the browser asks for
    the widgets' state if that comes first, or now when no event loop runs. Pass a guarded
    callback (`View.guarded`): nothing may escape on the event loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        callback()
        return
    _answer_browsers_after_the_deals()
    _waiting.append(callback)
    loop.call_later(PAINT_DELAY, _run, callback)


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
