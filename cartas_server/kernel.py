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

This module is loaded by every kernel of the environment before any cell: it imports nothing
but ipykernel's own classes.
"""
from __future__ import annotations

import logging
import sys

from ipykernel.ipkernel import IPythonKernel
from ipykernel.zmqshell import ZMQInteractiveShell
from traitlets import Type

WIDGET_MESSAGES = frozenset({"comm_open", "comm_msg", "comm_close"})


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
    """IPython's kernel with `QuietShell` as its shell."""

    shell_class = Type(QuietShell)


def quiet() -> bool:
    """True when this process's IPython shell is a `QuietShell` (a kernel started with the
    environment's configuration)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return isinstance(get_ipython(), QuietShell)
