"""A limit on guessing: teacher keys and table codes, counted in the store.

Decided rules:
- Every wrong try (a teacher key that does not open the class, a table code with no table)
  is counted under each of its scopes: the browser it came from, and the class it was for
  (a teacher key: the class code typed; a table code: the learner's own class, if she is in
  one). The counts live in the store (the `attempts` table, both back ends), so the kernels
  of one browser and the browsers of one class share them.
- LIMIT (10) wrong tries of one kind within WINDOW (60 s) in one scope start a wait there.
  The first wait is FIRST_WAIT (20 s); each further one doubles (40, 80...) up to MAX_WAIT
  (10 min). A scope left calm for FORGIVE (15 min) after its last wait starts again from
  the first. The count starts afresh when a wait ends.
- During a wait every try in that scope is refused before the key or code is even looked
  at, the right one included, with the time left said in words in both languages ("Muitas
  tentativas: espere 40 segundos" / "Too many tries: wait 40 seconds"). A try refused so is
  not counted again. A right try does not clear the count.
- The browser is what the server told this kernel (`HTTP_X_CARTAS_BROWSER`, set by
  cartas_server from its own cookie or the client's address), never anything the page
  sends. Without it (a JupyterHub single-user server: the hub's user; plain Jupyter: this
  kernel) the scope is the nearest thing the server vouches for.
- Time comes from a clock given to `Attempts` (default `time.time`; wall time, since kernels
  share the counts), so tests move it by hand.
"""
from __future__ import annotations

import math
import os
import re
import time
from collections.abc import Callable, Sequence

from .store import Migrations, Store, Transaction

LIMIT = 10
WINDOW = 60.0
FIRST_WAIT = 20.0
MAX_WAIT = 600.0
FORGIVE = 15 * 60.0
FORGET = 24 * 3600.0  # rows untouched this long are removed

TEACHER_KEY = "teacher_key"
TABLE_CODE = "table_code"

MIGRATIONS = Migrations("attempts", [
    # 1: one row per (kind of try, scope)
    ("CREATE TABLE attempts (kind TEXT NOT NULL, scope TEXT NOT NULL, "
     "window_start DOUBLE PRECISION NOT NULL, failures INTEGER NOT NULL, "
     "strikes INTEGER NOT NULL, blocked_until DOUBLE PRECISION NOT NULL, "
     "last_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (kind, scope))",
     "CREATE INDEX attempts_by_last ON attempts (last_at)"),
])

TEXT = {
    "seconds": {"pt": "Muitas tentativas: espere {n} segundos.",
                "en": "Too many tries: wait {n} seconds."},
    "second": {"pt": "Muitas tentativas: espere 1 segundo.", "en": "Too many tries: wait 1 second."},
    "minutes": {"pt": "Muitas tentativas: espere {n} minutos.",
                "en": "Too many tries: wait {n} minutes."},
}

_BROWSER = re.compile(r"[0-9a-f]{32}")


class TooManyTries(ValueError):
    """A try refused because its scope is waiting; `wait` is the whole seconds left."""

    def __init__(self, wait: int):
        self.wait = max(1, int(wait))
        super().__init__(self.message("en"))

    def message(self, lang: str = "pt") -> str:
        lang = lang if lang in ("pt", "en") else "pt"
        if self.wait == 1:
            return TEXT["second"][lang]
        if self.wait >= 120:
            return TEXT["minutes"][lang].format(n=math.ceil(self.wait / 60))
        return TEXT["seconds"][lang].format(n=self.wait)


def this_browser(environ=None) -> str:
    """The browser this kernel serves, as the server named it (see the module's rules)."""
    environ = os.environ if environ is None else environ
    told = environ.get("HTTP_X_CARTAS_BROWSER", "")
    if _BROWSER.fullmatch(told):
        return f"browser:{told}"
    user = environ.get("JUPYTERHUB_USER", "")
    if user:
        return f"hub:{user[:100]}"
    return f"kernel:{os.getpid()}"


def scopes(class_code: str = "", browser: str | None = None) -> list[str]:
    """The scopes of a try: this kernel's browser (or `browser`), and the class if any."""
    found = [this_browser() if browser is None else browser]
    if class_code:
        found.append(f"class:{class_code}")
    return found


class Attempts:
    """Wrong tries counted in `store`; `clock()` gives the time in seconds."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock
        store.migrate(MIGRATIONS)

    def wait(self, kind: str, where: Sequence[str]) -> int:
        """Whole seconds before a try of `kind` may be made in every scope of `where`."""
        now = self.clock()
        marks = ", ".join("?" for _ in where)
        with self.store.transaction(write=False) as tx:
            row = tx.execute(f"SELECT MAX(blocked_until) FROM attempts WHERE kind = ? "
                             f"AND scope IN ({marks})", (kind, *where)).fetchone()
        left = (row[0] or 0.0) - now
        return math.ceil(left) if left > 0 else 0

    def check(self, kind: str, where: Sequence[str]) -> None:
        """TooManyTries while any scope of `where` waits; nothing otherwise."""
        left = self.wait(kind, where)
        if left:
            raise TooManyTries(left)

    def failed(self, kind: str, where: Sequence[str]) -> int:
        """Count one wrong try in each scope; return the seconds of a wait it started (0 if none)."""
        now = self.clock()
        started = 0.0
        with self.store.transaction() as tx:
            for scope in where:
                started = max(started, self._count(tx, kind, scope, now))
            tx.execute("DELETE FROM attempts WHERE last_at < ? AND blocked_until < ?",
                       (now - FORGET, now))
        return math.ceil(started)

    @staticmethod
    def _count(tx: Transaction, kind: str, scope: str, now: float) -> float:
        tx.execute("INSERT INTO attempts (kind, scope, window_start, failures, strikes, "
                   "blocked_until, last_at) VALUES (?, ?, ?, 0, 0, 0, ?) "
                   "ON CONFLICT (kind, scope) DO NOTHING", (kind, scope, now, now))
        lock = " FOR UPDATE" if tx.kind == "postgresql" else ""  # SQLite: the write lock is held
        start, failures, strikes, blocked = tx.execute(
            "SELECT window_start, failures, strikes, blocked_until FROM attempts "
            f"WHERE kind = ? AND scope = ?{lock}", (kind, scope)).fetchone()
        if blocked and now - blocked > FORGIVE:
            strikes = 0
        if now - start >= WINDOW:
            start, failures = now, 0
        failures += 1
        wait = 0.0
        if failures >= LIMIT:
            strikes += 1
            wait = min(FIRST_WAIT * 2 ** (strikes - 1), MAX_WAIT)
            blocked = now + wait
            start, failures = blocked, 0  # counting starts afresh when the wait ends
        tx.execute("UPDATE attempts SET window_start = ?, failures = ?, strikes = ?, "
                   "blocked_until = ?, last_at = ? WHERE kind = ? AND scope = ?",
                   (start, failures, strikes, blocked, now, kind, scope))
        return wait


_clock: Callable[[], float] = time.time


def limiter(store: Store | None = None) -> Attempts:
    """The limiter the lessons use: on this process's store (classroom.progress.open_store),
    with the module's clock (`set_clock` in tests)."""
    if store is None:
        from .progress import open_store
        store = open_store()
    return Attempts(store, clock=_clock)


def set_clock(clock: Callable[[], float] | None) -> None:
    """Use `clock` for the lessons' limiter (None: back to time.time)."""
    global _clock
    _clock = time.time if clock is None else clock
