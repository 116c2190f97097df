"""Processes for the tests in which many learners' kernels act on one store at once.

Each worker is a process of its own, holding its own connections, as a kernel does. They come
from multiprocessing's "forkserver": one clean server process per test worker (started on the
first use; it holds no connection, no thread of the test's and none of its state), which
imports the engine and the class store once (`PRELOAD`), and forks each worker from itself. A
"spawn" worker started a new interpreter and imported all that again: about 0.25 s of CPU
for each of the hundred or so processes these tests start in a run.

A worker gets everything it uses as arguments (a store's location, never the environment: the
server keeps the environment it started with). The functions they run live in the tests'
`*_workers.py` modules (or a test module), which a worker imports by name.
"""
from __future__ import annotations

import multiprocessing
from multiprocessing.context import BaseContext

# what the workers import, loaded once in the fork server (a module that fails to import there
# is left for the worker to import, where its error shows)
PRELOAD = ["numpy", "psycopg", "cartas.games", "classroom.store", "classroom.progress", "classroom.tables",
           "classroom.live", "classroom.attempts", "classroom.homework"]


def context() -> BaseContext:
    """multiprocessing's forkserver context, its server preloading `PRELOAD` (see the module's
    docstring): `context().Pool(n)`, `context().Manager()`."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    return ctx
