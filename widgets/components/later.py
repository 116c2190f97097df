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

Decided rule (same item): in a Voilà kernel, **no widget message leaves the kernel before its
browser comes** (`hold_messages_for_browser`, called by the page's first cell and by every
view). Nobody listens to them: Voilà runs the cells itself and sends the page once they have
run, and the browser then asks for every widget's state in one "request_states" (its widget
manager creates each model from that answer, with no "comm_open" of its own; if the control
comm fails it asks each comm in turn, which also comes through here). Each widget's "comm_open"
and each update made while the page was built (a page has 20-150 widget models, and a first
drawing updates many) cost the kernel its JSON, signing and sending, and the server reading and
routing them: at class scale that was most of the difference between a lesson and the bare
notebook (class_load: 0.1-0.16 s of server CPU per page). Held messages are dropped, never sent
late: the state the browser receives is the kernel's current one. The first message a browser
sends to this kernel's comms (opening the control comm, or any comm message) ends the hold for
good, so a page that is live works as before. Outside Voilà (JupyterLab, nbval, tests) nothing
is held: JupyterLab builds widgets from those very messages.

While messages are held, the kernel does not even make them: a widget opened then opens its
comm with no state (ipywidgets would serialise every trait for a "comm_open" nobody receives),
and a trait changed then sends no update. That was a third of a page's CPU in its cell
(`mesa`: 44 of 140 ms, most of it `get_state` for 141 widgets). The state the browser asks for
is made when it asks, from the widgets as they are then.

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
    return VOILA_FALLBACK if in_voila() else PAINT_DELAY


_waiting: list[Callable[[], object]] = []  # deals due, in the order they were asked for
_holding = False  # True while this Voilà kernel's widget messages wait for its browser
_released = False  # True once its browser came: never held again
WIDGET_TARGET = "jupyter.widget"
HELD = frozenset({"comm_open", "comm_msg", "comm_close"})


def in_voila() -> bool:
    """True in a kernel started by Voilà (its environment names the server)."""
    return os.environ.get("SERVER_SOFTWARE", "").startswith("voila")


def hold_messages_for_browser() -> None:
    """In a Voilà kernel, publish no widget comm message until the browser first speaks to this
    kernel's comms (see the module's rules). Once per kernel; nothing outside Voilà or a kernel."""
    global _holding
    if _holding or _released or not in_voila():
        return
    try:
        from ipykernel.comm.comm import BaseComm
        from ipykernel.kernelbase import Kernel
    except ImportError:  # no kernel here
        return
    if not Kernel.initialized():
        return
    handlers = Kernel.instance().shell_handlers  # the kernel keeps bound handlers, by message type
    if not getattr(BaseComm.publish_msg, "_cartas_holds", False):
        publish = BaseComm.publish_msg

        def held_publish(self, msg_type, *args, **keys):
            if _holding and msg_type in HELD and getattr(self, "target_name", "") == WIDGET_TARGET:
                if self.kernel is None:  # as the real send does: ipywidgets sends no update
                    self.kernel = Kernel.instance()  # on a comm without its kernel
                return None  # nobody is listening yet: the browser will ask for the state
            return publish(self, msg_type, *args, **keys)

        held_publish._cartas_holds = True  # type: ignore[attr-defined]
        BaseComm.publish_msg = held_publish  # type: ignore[method-assign]
    _make_no_held_messages()
    for name in ("comm_open", "comm_msg"):
        handler = handlers.get(name)
        if handler is None or getattr(handler, "_cartas_releases", False):
            continue

        def browser_speaks(*args, _handler=handler, **kwargs):
            release_messages()
            return _handler(*args, **kwargs)

        browser_speaks._cartas_releases = True  # type: ignore[attr-defined]
        handlers[name] = browser_speaks
    _holding = True


_widget_traits_of: dict[type, tuple[str, ...]] = {}


def _widget_traits(kind: type) -> tuple[str, ...]:
    """The synced traits of widget class `kind` that hold widgets (a layout, a style, children)."""
    names = _widget_traits_of.get(kind)
    if names is None:
        from ipywidgets.widgets.widget import _widget_to_json
        names = _widget_traits_of[kind] = tuple(
            name for name, trait in kind.class_traits(sync=True).items()  # type: ignore[attr-defined]
            if trait.metadata.get("to_json") is _widget_to_json)
    return names


def _make_no_held_messages() -> None:
    """While held, a widget opens its comm without serialising its state, and a changed trait
    sends nothing (neither message would leave the kernel). Installed once."""
    from ipywidgets import Widget, comm
    from ipywidgets._version import __protocol_version__

    if getattr(Widget.open, "_cartas_holds", False):
        return
    open_widget, send_state = Widget.open, Widget.send_state

    def held_open(self):
        if not _holding or self.comm is not None:
            return open_widget(self)
        for name in _widget_traits(type(self)):  # its layout and style are made now, as
            getattr(self, name)  # get_state would: made later, while the browser's request_states
                                 # runs over the widgets, a new one would break that answer
        opening = {"target_name": WIDGET_TARGET, "data": {"state": {}, "buffer_paths": []},
                   "buffers": [], "metadata": {"version": __protocol_version__}}
        if self._model_id is not None:
            opening["comm_id"] = self._model_id
        self.comm = comm.create_comm(**opening)
        return None

    def held_send_state(self, key=None):
        if _holding:
            return None  # the browser, when it comes, asks for the whole state
        return send_state(self, key)

    held_open._cartas_holds = True  # type: ignore[attr-defined]
    Widget.open = held_open
    Widget.send_state = held_send_state


def release_messages() -> None:
    """The browser has come: widget messages go out again, for good."""
    global _holding, _released
    _holding, _released = False, True


def holding() -> bool:
    """True while this kernel holds its widget messages for a browser still to come."""
    return _holding


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
