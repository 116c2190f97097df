"""A limit on guessing: teacher keys, table codes, login cards, PINs, live codes, counted in the store.

Decided rules:
- Every wrong try (a teacher key that does not open the class, a table code with no table, a
  login-card code that is nobody's, a wrong PIN, a live-quiz code with no session) is counted
  under each of its scopes: first the guesser (the browser it came from, the hub user), then
  what was guessed at (the class of a teacher key or card code, the learner's own class for a
  table code, the learner whose PIN it was). The counts live in the store (the `attempts`
  table, both back ends), so the kernels of one browser and the browsers of one class share them.
- LIMIT (10) wrong tries of one kind within WINDOW (60 s) in one scope start a wait there
  (PIN_LIMIT, 5, for PINs, which are short). The first wait is FIRST_WAIT (20 s); each further
  one doubles (40, 80...) up to MAX_WAIT (10 min). A scope left calm for FORGIVE (15 min)
  after its last wait starts again from the first. The count starts afresh when a wait ends.
- The guesser is limited, not the victim (docs/rules.md#guess-limits): a try from a known
  source (a browser whose server cookie came back, a hub user) is refused only while its own
  scope waits, so a prankster guessing a class's codes or a classmate's PIN makes only himself
  wait, and the right code, key or PIN of anyone else always passes. A try from an unknown
  source (a page opened without the server's cookie, a kernel the server told nothing) also
  waits while its address or anything it guessed at waits: the shared counts only slow those.
  Reloading the page (the cookie then comes back) makes the source known: that is the short
  proof of presence a learner whose first page was refused is told to give.
- During a wait every try in a scope that applies is refused before the key or code is even
  looked at, the right one included, with the time left said in words in both languages
  ("Muitas tentativas: espere 40 segundos" / "Too many tries: wait 40 seconds"). A try refused
  so is not counted again. A right try does not clear the count.
- The browser is what the server told this kernel (`HTTP_X_CARTAS_BROWSER`, set by
  cartas_server from its own cookie: 32 hex digits for a cookie the browser sent back, the
  same plus "." and 16 hex digits of its address for a page that came without one), never
  anything the page sends. Without it (a JupyterHub single-user server: the hub's user; plain
  Jupyter: this kernel, unknown) the scope is the nearest thing the server vouches for.
- Time comes from a clock given to `Attempts` (default `time.time`; wall time, since kernels
  share the counts), so tests move it by hand.
"""
from __future__ import annotations

import math
import os
import re
import time
from collections.abc import Callable, Sequence

from .store import Migrations, Store, Transaction, shared

LIMIT = 10
WINDOW = 60.0
FIRST_WAIT = 20.0
MAX_WAIT = 600.0
FORGIVE = 15 * 60.0
FORGET = 24 * 3600.0  # rows untouched this long are removed

PIN_LIMIT = 5

TEACHER_KEY = "teacher_key"
TABLE_CODE = "table_code"
LOGIN_CARD = "login_card"
PIN = "pin"
LIVE_CODE = "live_code"
LIMITS = {PIN: PIN_LIMIT}
KNOWN = ("browser:", "hub:")  # scopes of a source the server vouches for (the module's rules)

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
    "reload": {"pt": "Se esta é a primeira página que você abre aqui, recarregá-la pode bastar.",
               "en": "If this is the first page you opened here, reloading it may be enough."},
}

_BROWSER = re.compile(r"([0-9a-f]{32})(?:\.([0-9a-f]{16}))?")


class TooManyTries(ValueError):
    """A try refused because its scope is waiting; `wait` is the whole seconds left."""

    def __init__(self, wait: int, unknown: bool = False):
        self.wait = max(1, int(wait))
        self.unknown = unknown  # refused by a shared count: reloading the page may be enough
        super().__init__(self.message("en"))

    def message(self, lang: str = "pt") -> str:
        lang = lang if lang in ("pt", "en") else "pt"
        if self.wait == 1:
            said = TEXT["second"][lang]
        elif self.wait >= 120:
            said = TEXT["minutes"][lang].format(n=math.ceil(self.wait / 60))
        else:
            said = TEXT["seconds"][lang].format(n=self.wait)
        return f"{said} {TEXT['reload'][lang]}" if self.unknown else said


def sources(environ=None) -> list[str]:
    """The scopes of whoever tries from this kernel, as the server named it (the module's
    rules): [its browser] for a known one; [its page, its address] for an unknown one."""
    environ = os.environ if environ is None else environ
    told = _BROWSER.fullmatch(environ.get("HTTP_X_CARTAS_BROWSER", ""))
    if told and told[2]:
        return [f"page:{told[1]}", f"address:{told[2]}"]
    if told:
        return [f"browser:{told[1]}"]
    user = environ.get("JUPYTERHUB_USER", "")
    if user:
        return [f"hub:{user[:100]}"]
    return [f"kernel:{os.getpid()}"]


def this_browser(environ=None) -> str:
    """The browser (or page) this kernel serves, as the server named it."""
    return sources(environ)[0]


def known(where: Sequence[str]) -> bool:
    """True when the guesser of `where` (its first scope) is a source the server vouches for."""
    return bool(where) and where[0].startswith(KNOWN)


def scopes(class_code: str = "", browser: str | None = None, guessed: Sequence[str] = ()) -> list[str]:
    """The scopes of a try: the guesser (this kernel's source, or `browser`) first, then the
    class if any and whatever else was `guessed` at (a learner's PIN: "learner:ID")."""
    found = sources() if browser is None else [browser]
    if class_code:
        found.append(f"class:{class_code}")
    found.extend(guessed)
    return found


class Attempts:
    """Wrong tries counted in `store`; `clock()` gives the time in seconds."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock
        store.migrate(MIGRATIONS)

    def wait(self, kind: str, where: Sequence[str]) -> int:
        """Whole seconds before a try of `kind` may be made from `where`: its guesser's own
        scope for a known source, every scope of `where` for an unknown one."""
        where = list(where[:1]) if known(where) else list(where)
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
            raise TooManyTries(left, unknown=not known(where))

    def failed(self, kind: str, where: Sequence[str]) -> int:
        """Count one wrong try in each scope; return the seconds of a wait it started that
        applies to this source (0 if none)."""
        now = self.clock()
        started = 0.0
        applies = where[:1] if known(where) else where
        with self.store.transaction() as tx:
            for scope in where:
                wait = self._count(tx, kind, scope, now, LIMITS.get(kind, LIMIT))
                started = max(started, wait if scope in applies else 0.0)
            tx.execute("DELETE FROM attempts WHERE last_at < ? AND blocked_until < ?",
                       (now - FORGET, now))
        return math.ceil(started)

    def forget(self, kind: str, scope: str) -> None:
        """Forget the count of `kind` in `scope` (a learner's PIN count, when her PIN is reset)."""
        with self.store.transaction() as tx:
            tx.execute("DELETE FROM attempts WHERE kind = ? AND scope = ?", (kind, scope))

    @staticmethod
    def _count(tx: Transaction, kind: str, scope: str, now: float, limit: int = LIMIT) -> float:
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
        if failures >= limit:
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
    """The limiter the lessons use: on this process's store (`classroom.store.shared`, the one
    classroom.progress.open_store opens too), with the module's clock (`set_clock` in tests)."""
    return Attempts(shared() if store is None else store, clock=_clock)


def set_clock(clock: Callable[[], float] | None) -> None:
    """Use `clock` for the lessons' limiter (None: back to time.time)."""
    global _clock
    _clock = time.time if clock is None else clock
