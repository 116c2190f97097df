"""The kernel Cartas' pages run in: IPython's kernel, whose shell keeps the tracebacks of widget
messages in the kernel.

Decided rule (issue 30, item 5: no patched internals): ipywidgets shows an exception raised
while it applies a widget message (a value the page sent that a trait refuses, a callback
outside `View.guarded`) with the shell's `showtraceback`, which sends the traceback to the page.
`QuietShell.showtraceback` writes those to the kernel's error log instead (the logger
"cartas", see `widgets.components.base.error_log`); a cell's error is shown as IPython shows
it. The shell is chosen by a kernel of our own, `CartasKernel`, which the environment's kernel
configuration names (`etc/ipython/ipython_kernel_config.json`, installed into the environment's
`etc/ipython` by `pip install .` and linked there by `make install`):
`IPKernelApp.kernel_class`, the hook ipykernel offers for this. Nothing is assigned to IPython's
or ipykernel's objects at run time.

Decided rule (same item): the kernel tells who asks (`CartasKernel.on_page_message`) of every comm
message the page sends ("comm_open", "comm_msg"), before it handles it, through ipykernel's
`should_handle`, the method ipykernel offers its subclasses to see each shell message first. A
Voilà page's kernel learns so that its browser has come, and a lesson makes its first deal
before ipywidgets answers the browser's "request_states" (`widgets.components.later`).
`HeldComm` is the comm a widget gets while such a kernel holds its widget messages.

This module is loaded by every kernel of the environment before any cell: it imports nothing
but ipykernel's own classes.
"""
from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from ipykernel.comm.comm import BaseComm
from ipykernel.ipkernel import IPythonKernel
from ipykernel.kernelbase import Kernel
from ipykernel.zmqshell import ZMQInteractiveShell
from traitlets import Type

WIDGET_MESSAGES = frozenset({"comm_open", "comm_msg", "comm_close"})
PAGE_MESSAGES = frozenset({"comm_open", "comm_msg"})  # what a page sends to speak to its widgets


class QuietShell(ZMQInteractiveShell):
    """IPython's kernel shell; a traceback raised while a widget message is handled goes to the
    error log, not to the page."""

    def showtraceback(self, exc_tuple=None, filename=None, tb_offset=None,
                      exception_only=False, running_compiled_code=False):
        if not self.in_widget_message():
            return super().showtraceback(exc_tuple, filename, tb_offset, exception_only, running_compiled_code)
        logging.getLogger("cartas").error("error while applying a widget message",
                                          exc_info=exc_tuple or sys.exc_info())
        return None

    def in_widget_message(self) -> bool:
        """True while the kernel handles a message of a widget's comm (its parent's type)."""
        kernel = getattr(self, "kernel", None)
        if kernel is None:
            return False
        try:
            parent = kernel.get_parent("shell") or {}
        except Exception:  # no parent known: a cell's traceback, shown as IPython shows it
            return False
        return parent.get("header", {}).get("msg_type") in WIDGET_MESSAGES


class CartasKernel(IPythonKernel):
    """IPython's kernel with `QuietShell` as its shell, which tells who asks when the page speaks
    to its comms."""

    shell_class = Type(QuietShell)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._page_listeners: list[Callable[[dict], object]] = []

    def on_page_message(self, listener: Callable[[dict], object]) -> None:
        """Call `listener(message)` with each "comm_open" and "comm_msg" the page sends, before
        the kernel handles it (once per listener, however often it is asked). An exception in a
        listener goes to the error log; the message is handled all the same."""
        if listener not in self._page_listeners:
            self._page_listeners.append(listener)

    def should_handle(self, stream, msg, idents):
        if self._page_listeners and msg.get("header", {}).get("msg_type") in PAGE_MESSAGES:
            for listener in list(self._page_listeners):
                try:
                    listener(msg)
                except Exception:
                    logging.getLogger("cartas").exception("error in a listener of the page's messages")
        return super().should_handle(stream, msg, idents)


class HeldComm(BaseComm):
    """A widget's comm made while its kernel holds the page's widget messages: it opens with no
    "comm_open" and has no kernel until `release()`. ipywidgets sends no update through a comm
    without a kernel (so it makes none), and this comm publishes nothing before then, its
    "comm_close" included. The caller registers it with the comm manager, as an opened comm is,
    so the page's messages reach its widget."""

    def __init__(self, **keys):
        super().__init__(primary=False, **keys)

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        if self.kernel is None:
            return None  # held: nobody is listening yet
        return super().publish_msg(msg_type, data, metadata, buffers, **keys)

    def release(self) -> None:
        """The page's browser has come: this comm speaks through the kernel from now on."""
        if self.kernel is None and Kernel.initialized():
            self.kernel = Kernel.instance()


def quiet() -> bool:
    """True when this process's IPython shell is a `QuietShell` (a kernel started with the
    environment's configuration)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return isinstance(get_ipython(), QuietShell)
