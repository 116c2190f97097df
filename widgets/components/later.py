"""Work a view does right after its page has been sent: the first deal of a lesson that deals.

Decided rule (issue 18, item 8: every dashboard light at class scale): a view builds its
widgets in the notebook's cell, which is all the page needs, and a lesson that deals at open
makes its first deal in `after_paint(callback)`: when the learner's browser asks for the
widgets' state, or after a fallback delay (`paint_delay()`), whichever comes first.

Why then: Voilà sends a page once its last cell has run, and the learner's browser asks the
kernel for the widgets' state only when its JavaScript has started, about two seconds after
the page arrived (more on a busy machine). The page's kernel, Cartas' own
(`cartas_server.kernel.CartasKernel`), shows each comm message the page sends to whoever asked
(`on_page_message`) before handling it; when it is the "request_states" that ipywidgets answers
(on its "jupyter.widget.control" comm), every deal still waiting runs first: the state a browser
receives always holds the deal, and the learner sees a dealt hand at first paint. In another
kernel only the fallback delay below makes the deal. The deal then runs after the
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
is held: JupyterLab builds widgets from those very messages. Nor in a kernel other than
`CartasKernel`: nothing would tell it that the browser came.

While messages are held, the kernel does not even make them: a widget opened then opens its
comm with no state (ipywidgets would serialise every trait for a "comm_open" nobody receives),
and a trait changed then sends no update. That was a third of a page's CPU in its cell
(`mesa`: 44 of 140 ms, most of it `get_state` for 141 widgets). The state the browser asks for
is made when it asks, from the widgets as they are then.

How, with public hooks only (issue 30, item 5: nothing assigns to another package's objects):
ipywidgets calls the callback registered with `Widget.on_widget_constructed` before a new widget
opens its comm, and opens none for a widget that has one. While held, that callback gives the
widget a `cartas_server.kernel.HeldComm` (the widget's own `comm` trait): a comm opened with no
message, registered with the comm manager so the page's messages reach it, and with no kernel
until the browser comes. ipywidgets makes and sends no update through a comm without a kernel,
and a `HeldComm` publishes nothing before then. When the page first speaks, every `HeldComm`
gets its kernel and the widgets speak as any other. tests/test_held_messages.py checks all of
it against the installed kernel and ipywidgets, so an upgrade that changes one of these
behaviours fails there, not in a learner's page.

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
import sys
import weakref
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


def in_voila() -> bool:
    """True in a kernel started by Voilà (its environment names the server)."""
    return os.environ.get("SERVER_SOFTWARE", "").startswith("voila")


def _page_kernel():
    """This process's kernel when it is Cartas' own (`cartas_server.kernel.CartasKernel`, which
    tells when the page speaks to its comms), else None (no kernel, or another one). Loads no
    kernel module where none runs (plain Python, the tests)."""
    if "ipykernel.kernelbase" not in sys.modules:
        return None
    try:
        from ipykernel.kernelbase import Kernel

        from cartas_server.kernel import CartasKernel
    except ImportError:  # no kernel here
        return None
    if not Kernel.initialized():
        return None
    kernel = Kernel.instance()
    return kernel if isinstance(kernel, CartasKernel) else None


def hold_messages_for_browser() -> None:
    """In a Voilà kernel, publish no widget comm message until the browser first speaks to this
    kernel's comms (see the module's rules). Once per kernel; nothing outside Voilà, and nothing
    in a kernel other than `CartasKernel` (none would tell us that the browser came)."""
    global _holding
    if _holding or _released or not in_voila():
        return
    kernel = _page_kernel()
    if kernel is None:
        return
    from ipywidgets import Widget

    kernel.on_page_message(_page_speaks)
    Widget.on_widget_constructed(_open_held)  # ipywidgets' hook: called before a widget opens its comm
    _holding = True


_held: weakref.WeakSet = weakref.WeakSet()  # the comms opened while held, to release
_widget_traits_of: dict[type, tuple[str, ...]] = {}


def _widget_traits(kind: type) -> tuple[str, ...]:
    """The synced traits of widget class `kind` that hold widgets (a layout, a style, children)."""
    names = _widget_traits_of.get(kind)
    if names is None:
        from ipywidgets import widget_serialization
        names = _widget_traits_of[kind] = tuple(
            name for name, trait in kind.class_traits(sync=True).items()  # type: ignore[attr-defined]
            if trait.metadata.get("to_json") is widget_serialization["to_json"])
    return names


def _open_held(widget) -> None:
    """While held, a widget just constructed gets a `HeldComm` (its own `comm` trait), so it
    opens without serialising its state and sends nothing while it changes (see the module's
    rules)."""
    if not _holding or widget.comm is not None:
        return
    import comm  # its get_comm_manager is the kernel's once ipykernel is loaded: read it now

    from cartas_server.kernel import HeldComm

    for name in _widget_traits(type(widget)):  # its layout and style are made now, as get_state
        getattr(widget, name)  # would: made later, while the browser's request_states runs over
                               # the widgets, a new one would break that answer
    keys = {"target_name": WIDGET_TARGET}
    model_id = getattr(widget, "_model_id", None)  # Widget(model_id=...): that comm's id
    if model_id is not None:
        keys["comm_id"] = model_id
    held = HeldComm(**keys)
    comm.get_comm_manager().register_comm(held)  # as an opened comm is: the page's messages reach it
    _held.add(held)
    widget.comm = held


def _page_speaks(message: dict) -> None:
    """The page sent a comm message (`CartasKernel.on_page_message`): its browser has come, and
    when it asks for the widgets' state, the deals still waiting run before ipywidgets answers."""
    release_messages()
    data = message.get("content", {}).get("data") or {}
    if message.get("header", {}).get("msg_type") == "comm_msg" and data.get("method") == "request_states":
        run_waiting()


def release_messages() -> None:
    """The browser has come: widget messages go out again, for good."""
    global _holding, _released
    _holding, _released = False, True
    while _held:
        _held.pop().release()


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
    kernel = _page_kernel()
    if kernel is not None:
        kernel.on_page_message(_page_speaks)  # the browser's request_states runs the deals first
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


def deal_from_seed(seed_box, rng, deal: Callable[[], object], top: int = 1000) -> None:
    """A lesson's first deal: the seed box gets its value from the seeded `rng` (a Generator or
    a `lazy_rng`, so numpy loads here), which deals through the box's observer; `deal()` is
    called directly when the value drawn is the one already in the box."""
    value = int((rng() if callable(rng) else rng).integers(top))
    if seed_box.value == value:
        deal()
    else:
        seed_box.value = value
