"""Tables (mesas): one truco or 21 game shared by several browsers, kept in the store.

A table is one versioned record: `load(code) -> (version, record)`, and every change is a
compare-and-swap `save(code, expected_version, record)` that succeeds only if nobody saved
since (`UPDATE ... WHERE code = ? AND version = ?`). Presence (heartbeats) lives beside the
record in its own rows, so a heartbeat never moves the table's version.

Decided rules:

- A table's code is CODE_LENGTH (5) characters from CODE_ALPHABET (no 0/O, 1/I/L); its link
  is the tables dashboard with `?mesa=CODE`. A code is matched case-insensitively, spaces and
  dashes ignored.
- Games: Truco Paulista, Truco Mineiro (4 seats, teams 0+2 and 1+3, or 2 seats mano a mano,
  one against one: docs/rules.md#mano-a-mano-players) or 21 (3 to 12 seats,
  options set by the creator: see `classroom.games`). The creator sits first (seat 0 unless
  another is chosen) and alone may start the game; seats still empty then play as bots, at
  the level the creator chose (`level`: "easy", "rule" by default, or "strong", kept in the
  record; a record without one, made before tables had a level, plays at "rule").
- A learner holds at most one seat per table; joining another seat leaves the first. A seat
  is free when nobody sits there, or when its learner has been away longer than the table's
  timeout (default 60 s, 10..600). Joining is possible before and during the game: a learner
  may take a bot's seat, an away learner's seat, or come back to his own.
- A move names the version the learner saw. If the table moved on since (another move, a bot,
  someone sitting down), the move is refused with "the table moved on" and nothing changes:
  of two moves sent at once, exactly one is applied. The move itself is checked by the engine
  (`legal_actions`/`apply_action`).
- Who plays a seat: its learner while present; a bot when the seat is empty or its learner
  has been away longer than the timeout. Bots move one at a time, each at least `pace`
  seconds (default 0.7) after the table's last change. Any client may try a bot move; the CAS
  lets exactly one succeed. To spare useless attempts, the client of the lowest seated
  present learner is the one that tries first; the others try only when the table has been
  still for `pace + TAKEOVER` seconds (that learner's kernel may be gone). Spectators never
  move bots, so a table whose learners all left waits for them, unless someone drives it.
- Driving a table nobody watches (`drive`; a tournament drives its round's tables when its
  board is read, docs/rules.md#tournament): when no seated learner is present (none beat in
  the last PRESENT seconds), the bots' moves due are made one after another without waiting
  for the pace (nobody watches them), at most DRIVE_MOVES (60) and DRIVE_BUDGET (0.25 s of
  work) per call, and saved in one compare-and-swap: if anything moved meanwhile (a learner
  came back and played) nothing is saved and the next call tries again. It stops at a seat
  whose learner is not yet past the timeout: her seat waits for her until then, so a learner
  who comes back in time finds her seat and her turn. The moves are the very ones the bots
  would make one by one (a bot's move depends on the seed, its level and the step count).
- A homework table (`homework` in its record: one learner's game of a homework item against
  the bots, `classroom.homework.bot_table`) is hers alone: her seat, taken at the deal, is
  always hers (never a bot's, even while she is away: the game waits for her), she cannot
  leave it nor move to another seat (the seat of a side about to win), and nobody else sits
  there ("homework_table").
- A finished game's table is archived: it leaves the class's list of open tables, and stays
  readable by its code.
- An abandoned table leaves the class's list too (the teacher's "Mesas da turma"): one not
  finished where nothing happened for IDLE (30 minutes): no move (a learner's or a bot's, its
  `moved_at`, which is its creation before it starts) and no heartbeat of anyone (a seated
  learner's or a watcher's page, `mesa_presence`). It is not archived: it stays readable by
  its code, and a learner coming back to it (a heartbeat, a move) puts it back on the list.
"""
from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import games
from .games import TableError

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
DEFAULT_TIMEOUT = 60.0
TIMEOUT_RANGE = (10.0, 600.0)
DEFAULT_PACE = 0.7
TAKEOVER = 2.0            # seconds of stillness after which any seated client moves the bots
PRESENT = 15.0            # a heartbeat younger than this: the learner's page is open
HEARTBEAT_EVERY = 5.0     # seconds between a client's heartbeats
POLL_EVERY = 0.2          # seconds between a client's version checks
MAX_NAME = 40
RECORD_FORMAT = "cartas.mesa/1"
IDLE = 30 * 60.0          # seconds without a move or a heartbeat after which a table is abandoned
DRIVE_MOVES = 60          # the most bot moves one `Tables.drive` makes (a table nobody watches)
DRIVE_BUDGET = 0.25       # ... and the seconds of work after which it stops (at least one move made)

__all__ = ["TableError", "Tables", "TableClient", "MemoryRepository", "StoreRepository",
           "clean_code", "table_link"]


# The repository: where the versioned records live ------------------------------------------
class Repository(Protocol):
    def create(self, code: str, class_code: str, record: dict) -> bool: ...
    def load(self, code: str) -> tuple[int, dict] | None: ...
    def version(self, code: str) -> int | None: ...
    def save(self, code: str, expected_version: int, record: dict, archived: bool = False) -> bool: ...
    def list_class(self, class_code: str, archived: bool = False) -> list[tuple[str, int, dict]]: ...
    def touch(self, code: str, learner: str, at: float) -> None: ...
    def presence(self, code: str) -> dict[str, float]: ...
    # many tables at once (the class service's caches and sweep: one query for all of them)
    def versions(self, codes: list[str]) -> dict[str, int]: ...
    def touch_many(self, beats: list[tuple[str, str, float]]) -> None: ...
    def presence_of(self, codes: list[str]) -> dict[str, dict[str, float]]: ...


class MemoryRepository:
    """The repository in memory (unit tests): the same CAS rule, under a lock."""

    def __init__(self):
        import threading
        self._lock = threading.Lock()
        self._rows: dict[str, list] = {}   # code -> [version, json text, class, archived]
        self._seen: dict[tuple[str, str], float] = {}

    def create(self, code, class_code, record) -> bool:
        with self._lock:
            if code in self._rows:
                return False
            self._rows[code] = [1, json.dumps(record), class_code, False]
            return True

    def load(self, code):
        with self._lock:
            row = self._rows.get(code)
            return None if row is None else (row[0], json.loads(row[1]))

    def version(self, code):
        with self._lock:
            row = self._rows.get(code)
            return None if row is None else row[0]

    def save(self, code, expected_version, record, archived=False) -> bool:
        with self._lock:
            row = self._rows.get(code)
            if row is None or row[0] != expected_version:
                return False
            self._rows[code] = [row[0] + 1, json.dumps(record), row[2], bool(archived)]
            return True

    def list_class(self, class_code, archived=False):
        with self._lock:
            return [(c, r[0], json.loads(r[1])) for c, r in sorted(self._rows.items())
                    if r[2] == class_code and r[3] == archived]

    def touch(self, code, learner, at) -> None:
        with self._lock:
            self._seen[(code, learner)] = at

    def presence(self, code):
        with self._lock:
            return {who: at for (c, who), at in self._seen.items() if c == code}

    def versions(self, codes):
        with self._lock:
            return {code: self._rows[code][0] for code in codes if code in self._rows}

    def touch_many(self, beats) -> None:
        with self._lock:
            for code, learner, at in beats:
                self._seen[(code, learner)] = at

    def presence_of(self, codes):
        out: dict[str, dict[str, float]] = {code: {} for code in codes}
        with self._lock:
            for (code, who), at in self._seen.items():
                if code in out:
                    out[code][who] = at
        return out


class StoreRepository:
    """The repository on the classroom store (SQLite or PostgreSQL): one row per table in
    `mesas` (code, class, version, record as JSON text, archived) and one row per learner
    and table in `mesa_presence`. Its schema is the store component "tables"."""

    def __init__(self, store=None):
        from .store import shared
        self.store = shared() if store is None else store
        self.store.migrate(MIGRATIONS)

    def create(self, code, class_code, record) -> bool:
        with self.store.transaction() as tx:
            if tx.execute("SELECT 1 FROM mesas WHERE code = ?", (code,)).fetchone():
                return False
            now = time.time()
            tx.execute("INSERT INTO mesas (code, class_code, version, record, archived, "
                       "created_at, updated_at) VALUES (?, ?, 1, ?, 0, ?, ?)",
                       (code, class_code, json.dumps(record, ensure_ascii=False), now, now))
            _notify(tx, code, 1)
            return True

    def load(self, code):
        with self.store.transaction(write=False, single=True) as tx:
            row = tx.execute("SELECT version, record FROM mesas WHERE code = ?",
                             (code,)).fetchone()
        return None if row is None else (int(row[0]), json.loads(row[1]))

    def version(self, code):
        with self.store.transaction(write=False, single=True) as tx:
            row = tx.execute("SELECT version FROM mesas WHERE code = ?", (code,)).fetchone()
        return None if row is None else int(row[0])

    def save(self, code, expected_version, record, archived=False) -> bool:
        """Compare-and-swap: the record replaces version `expected_version` only. On
        PostgreSQL the update and its NOTIFY are one statement (one round trip)."""
        if self.store.kind == "postgresql":
            with self.store.transaction(single=True) as tx:
                cursor = tx.execute(
                    "WITH saved AS (UPDATE mesas SET version = version + 1, record = ?, archived = ?, "
                    "updated_at = ? WHERE code = ? AND version = ? RETURNING code, version) "
                    "SELECT pg_notify(?, code || ' ' || version) FROM saved",
                    (json.dumps(record, ensure_ascii=False), int(bool(archived)), time.time(), code,
                     expected_version, NOTIFY_CHANNEL))
                return len(cursor.fetchall()) == 1
        with self.store.transaction() as tx:
            cursor = tx.execute(
                "UPDATE mesas SET version = version + 1, record = ?, archived = ?, "
                "updated_at = ? WHERE code = ? AND version = ?",
                (json.dumps(record, ensure_ascii=False), int(bool(archived)), time.time(), code,
                 expected_version))
            saved = cursor.rowcount == 1
            if saved:
                _notify(tx, code, expected_version + 1)
            return saved

    def list_class(self, class_code, archived=False):
        with self.store.transaction(write=False, single=True) as tx:
            rows = tx.execute("SELECT code, version, record FROM mesas WHERE class_code = ? "
                              "AND archived = ? ORDER BY created_at, code",
                              (class_code, int(bool(archived)))).fetchall()
        return [(code, int(version), json.loads(record)) for code, version, record in rows]

    def touch(self, code, learner, at) -> None:
        with self.store.transaction(single=True) as tx:
            tx.execute("INSERT INTO mesa_presence (code, learner, seen_at) VALUES (?, ?, ?) "
                       "ON CONFLICT (code, learner) DO UPDATE SET seen_at = excluded.seen_at",
                       (code, learner, at))

    def presence(self, code):
        with self.store.transaction(write=False, single=True) as tx:
            rows = tx.execute("SELECT learner, seen_at FROM mesa_presence WHERE code = ?",
                              (code,)).fetchall()
        return {learner: float(at) for learner, at in rows}

    def versions(self, codes: list[str]) -> dict[str, int]:
        """The stored version of each of the tables `codes` (those that exist), in one query."""
        marks = ", ".join("?" for _ in codes)
        with self.store.transaction(write=False, single=True) as tx:
            rows = tx.execute(f"SELECT code, version FROM mesas WHERE code IN ({marks})", codes).fetchall()
        return {str(code): int(version) for code, version in rows}

    def touch_many(self, beats: list[tuple[str, str, float]]) -> None:
        """Learners' presence at tables, (code, learner, when) each, in one transaction."""
        with self.store.transaction(batch=True) as tx:
            tx.executemany("INSERT INTO mesa_presence (code, learner, seen_at) VALUES (?, ?, ?) "
                           "ON CONFLICT (code, learner) DO UPDATE SET seen_at = excluded.seen_at", beats)

    def presence_of(self, codes: list[str]) -> dict[str, dict[str, float]]:
        """Who was seen when at each of the tables `codes`, in one query (the service's sweep)."""
        out: dict[str, dict[str, float]] = {code: {} for code in codes}
        if not codes:
            return out
        marks = ", ".join("?" for _ in codes)
        with self.store.transaction(write=False, single=True) as tx:
            rows = tx.execute(f"SELECT code, learner, seen_at FROM mesa_presence WHERE code IN ({marks})",
                              codes).fetchall()
        for code, learner, at in rows:
            out[code][learner] = float(at)
        return out


NOTIFY_CHANNEL = "cartas_tables"


def _notify(tx, code: str, version: int) -> None:
    """On PostgreSQL, tell every listener (the class service) that table `code` is now at
    `version` (payload "CODE VERSION"); the note is delivered when the transaction commits,
    and never if it rolls back."""
    if tx.kind == "postgresql":
        tx.execute("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, f"{code} {version}"))


def _migrations():
    from .store import Migrations
    return Migrations("tables", [
        # 1: the tables and who was seen at them
        ("CREATE TABLE mesas (code TEXT PRIMARY KEY, class_code TEXT NOT NULL DEFAULT '', "
         "version BIGINT NOT NULL, record TEXT NOT NULL, archived INTEGER NOT NULL DEFAULT 0, "
         "created_at DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL)",
         "CREATE INDEX mesas_by_class ON mesas (class_code, archived)",
         "CREATE TABLE mesa_presence (code TEXT NOT NULL, learner TEXT NOT NULL, "
         "seen_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, learner))"),
        # 2 (the store's migration 4): games stored in a first format become setup plus actions
        _replayable_states,
    ])


def _replayable_states(tx) -> None:
    """Rewrite each stored game as its setup plus its actions (docs/rules.md#saved-game-replays):
    a state the engine reads is saved again as the engine saves it now. A record whose state
    the engine refuses is left as it was (and is refused when read, as before); the version
    is kept, so no client sees the table move."""
    for code, text in tx.execute("SELECT code, record FROM mesas").fetchall():
        record = json.loads(text)
        state = record.get("state") if isinstance(record, dict) else None
        if not isinstance(state, str):
            continue
        try:
            saved = games.load_state(record["game"], state).to_json()
        except (ValueError, KeyError):  # the game's RuleError, or an unknown game
            continue
        if saved != state:
            tx.execute("UPDATE mesas SET record = ? WHERE code = ?",
                       (json.dumps({**record, "state": saved}, ensure_ascii=False), code))


MIGRATIONS = _migrations()


# Codes and links ---------------------------------------------------------------------------
def clean_code(text) -> str:
    """A table code as typed or linked, normalised; TableError if it cannot be one."""
    if not isinstance(text, str):
        raise TableError("bad_code", code=repr(text)[:20], n=CODE_LENGTH)
    code = "".join(ch for ch in text if ch not in " -\t").upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise TableError("bad_code", code=repr(text[:20]), n=CODE_LENGTH)
    return code


def table_link(code: str, base: str = "mesa.ipynb") -> str:
    return f"{base}?mesa={code}"


def _clean_name(name) -> str:
    from .identity import clean_name
    return clean_name(name)[:MAX_NAME]


# The rules of a table ----------------------------------------------------------------------
@dataclass
class Snapshot:
    """One version of a table as a client knows it."""

    code: str
    version: int
    record: dict
    presence: dict[str, float] = field(default_factory=dict)
    _state: Any = None

    @property
    def state(self):
        """The game (None before it starts), rebuilt from the record once per version."""
        if self._state is None and self.record.get("state"):
            self._state = games.load_state(self.record["game"], self.record["state"])
        return self._state

    @property
    def game(self) -> str:
        return self.record["game"]

    @property
    def status(self) -> str:
        return self.record["status"]

    @property
    def sitters(self) -> list[dict | None]:
        return self.record["sitters"]

    @property
    def level(self) -> str:
        """The level the table's bots play at ("rule" for a table stored before levels)."""
        return games.table_level(self.record)

    def seat_of(self, learner: str) -> int | None:
        return next((s for s, who in enumerate(self.sitters) if who and who["id"] == learner), None)

    def away(self, learner: str, now: float) -> bool:
        """Gone longer than the table's timeout (never seen counts from when he sat)."""
        seen = self.presence.get(learner)
        if seen is None:
            sitter = next((w for w in self.sitters if w and w["id"] == learner), None)
            seen = sitter["since"] if sitter else 0.0
        return now - seen > self.record["timeout"]

    def last_active(self) -> float:
        """When anything last happened at the table: its last move (or its creation), or the
        latest heartbeat of anyone there."""
        moved = float(self.record.get("moved_at") or self.record.get("created_at") or 0.0)
        return max([moved, *self.presence.values()])

    def abandoned(self, now: float) -> bool:
        """Not finished, and nothing happened for IDLE seconds (see the module's rules)."""
        return self.status != "finished" and now - self.last_active() > IDLE

    def present(self, learner: str, now: float) -> bool:
        seen = self.presence.get(learner)
        return seen is not None and now - seen <= PRESENT

    def controller(self, seat: int, now: float) -> str:
        """Who plays `seat` now: "learner", or "bot" (empty seat, or its learner away; at a
        homework table its learner's seat is always hers)."""
        who = self.sitters[seat]
        if who is not None and self.record.get("homework") and who["id"] == self.record["creator"]:
            return "learner"
        if who is None or self.away(who["id"], now):
            return "bot"
        return "learner"

    def seats(self, now: float) -> list[dict]:
        """Every seat, for all to see: {seat, name (or None), controller, away, team}."""
        out = []
        for seat, who in enumerate(self.sitters):
            out.append({"seat": seat, "name": who["name"] if who else None,
                        "id": who["id"] if who else None,
                        "controller": self.controller(seat, now),
                        "away": who is not None and self.away(who["id"], now),
                        "team": games.team_of(self.game, seat)})
        return out


class Tables:
    """The table service over a repository: every change is load, check, CAS save."""

    def __init__(self, repo: Repository | None = None, clock: Callable[[], float] = time.time,
                 rng=None):
        self.repo = StoreRepository() if repo is None else repo
        self.clock = clock
        self._codes = rng if rng is not None else secrets.SystemRandom()

    # reading
    def snapshot(self, code: str) -> Snapshot:
        code = clean_code(code)
        loaded = self.repo.load(code)
        if loaded is None:
            raise TableError("no_table", code=code)
        version, record = loaded
        return Snapshot(code, version, record, self.repo.presence(code))

    def reload(self, code: str, held: Snapshot | None) -> Snapshot:
        """Table `code` as stored now, read knowing `held`, a snapshot of it the caller holds
        (the class service's, when a change made elsewhere is notified). While `held`'s game is
        in play: one query (the record), `held`'s presence (copied: the caller reads presence
        again itself, as the service's sweep does every few seconds) and its game advanced by
        the actions saved since (`games.advance`), not replayed from the start. Otherwise (no
        `held`, another table, a game not in play): `snapshot`."""
        code = clean_code(code)
        if held is None or held.code != code or held.status != "playing" or held._state is None:
            return self.snapshot(code)
        loaded = self.repo.load(code)
        if loaded is None:
            raise TableError("no_table", code=code)
        version, record = loaded
        state = None
        if record.get("state") and record.get("game") == held.game:
            state = games.advance(held.game, held._state, held.record.get("state"), record["state"])
        return Snapshot(code, version, record, dict(held.presence), state)

    def list_class(self, class_code: str, archived: bool = False, abandoned: bool = False) -> list[Snapshot]:
        """The class's open tables, but the abandoned ones (`abandoned`: those too); or, with
        `archived`, its finished ones."""
        if archived:
            return [Snapshot(code, version, record)
                    for code, version, record in self.repo.list_class(class_code, archived)]
        now = self.clock()
        snaps = [Snapshot(code, version, record, self.repo.presence(code))
                 for code, version, record in self.repo.list_class(class_code, archived)]
        return [snap for snap in snaps if abandoned or not snap.abandoned(now)]

    # creating and sitting
    def create(self, game: str, learner: str, name: str, *, seats: int | None = None,
               options: dict | None = None, class_code: str = "", seat: int = 0,
               timeout: float = DEFAULT_TIMEOUT, pace: float = DEFAULT_PACE,
               seed: int | None = None, homework: dict | None = None, level: str = games.DEFAULT_LEVEL) -> str:
        """A new table with its creator seated; returns its code. `homework`: the homework
        item its game is for (a homework table: see the module's rules). `level`: the bots'
        level (TableError "bad_level" naming any other)."""
        seats, options = games.check_setup(game, seats, options)
        level = games.check_level(level)
        name = self._check_name(name)
        if (not isinstance(timeout, (int, float)) or isinstance(timeout, bool)
                or not TIMEOUT_RANGE[0] <= timeout <= TIMEOUT_RANGE[1]):
            raise TableError("bad_timeout", low=int(TIMEOUT_RANGE[0]), high=int(TIMEOUT_RANGE[1]),
                             value=repr(timeout))
        self._check_seat(seat, seats)
        now = self.clock()
        sitters: list[dict | None] = [None] * seats
        sitters[seat] = {"id": learner, "name": name, "since": now}
        record: dict[str, Any] = {
            "format": RECORD_FORMAT, "game": game, "seats": seats, "options": options,
            "class_code": class_code or "", "creator": learner, "created_at": now,
            "timeout": float(timeout), "pace": float(pace), "level": level,
            "seed": int(seed) if seed is not None else secrets.randbelow(2**31),
            "sitters": sitters, "status": "waiting", "state": None,
            "moved_at": now, "last": None, "outcome": None,
        }
        if homework is not None:
            record["homework"] = dict(homework)
        for _ in range(20):
            code = "".join(self._codes.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.repo.create(code, record["class_code"], record):
                self.repo.touch(code, learner, now)
                return code
        raise TableError("store_down")  # pragma: no cover - 20 clashes in 28 million codes

    def join(self, code: str, learner: str, name: str, seat: int) -> Snapshot:
        """Sit `learner` at `seat` (free, a bot's, an away learner's, or his own)."""
        name = self._check_name(name)

        def change(snap: Snapshot, now: float) -> dict:
            self._check_seat(seat, snap.record["seats"])
            if snap.status == "finished":
                raise TableError("finished")
            if snap.record.get("homework") and (learner != snap.record["creator"] or snap.seat_of(learner) != seat):
                raise TableError("homework_table")  # her seat is hers, and hers alone, from the deal on
            who = snap.sitters[seat]
            if who is not None and who["id"] != learner and not snap.away(who["id"], now):
                raise TableError("seat_taken", seat=seat, name=who["name"])
            sitters = [None if w and w["id"] == learner else w for w in snap.sitters]
            sitters[seat] = {"id": learner, "name": name, "since": now}
            return {**snap.record, "sitters": sitters}

        self.repo.touch(clean_code(code), learner, self.clock())
        return self._update(code, change)

    def leave(self, code: str, learner: str) -> Snapshot:
        """Give the seat up (a bot plays it from now on)."""
        def change(snap: Snapshot, now: float) -> dict:
            if snap.seat_of(learner) is None:
                raise TableError("not_seated")
            if snap.record.get("homework"):  # her seat would be a bot's: it would end her game for her
                raise TableError("homework_table")
            return {**snap.record, "sitters": [None if w and w["id"] == learner else w
                                                for w in snap.sitters]}
        return self._update(code, change)

    def start(self, code: str, learner: str) -> Snapshot:
        """The creator deals: the game begins, empty seats played by bots."""
        def change(snap: Snapshot, now: float) -> dict:
            if snap.record["creator"] != learner:
                raise TableError("not_creator")
            if snap.status != "waiting":
                raise TableError("already_started")
            state = games.new_state(snap.game, snap.record["seats"], snap.record["options"],
                                    snap.record["seed"])
            return {**snap.record, "status": "playing", "state": state.to_json(),
                    "moved_at": now, "last": {"kind": "start"}}
        return self._update(code, change)

    def heartbeat(self, code: str, learner: str) -> None:
        self.repo.touch(clean_code(code), learner, self.clock())

    def client(self, code: str, learner: str | None) -> TableClient:
        """A page's client of table `code`: its presence recorded by its heartbeat only (the
        browser's beat), so a closed page stops counting as present."""
        return TableClient(self, code, learner, beat_in_tick=False)

    # playing
    def move(self, code: str, learner: str, action, seen_version: int, known: Snapshot | None = None,
             touch: bool = True, page: str = "") -> Snapshot:
        """`learner` plays `action` (an engine Action or its text) on the version he saw.
        Refused with "the table moved on" if the table changed since; the engine refuses an
        illegal move. Returns the new snapshot.

        `known`, a snapshot of this table the caller already holds (the class service's), is
        used instead of loading the table when it is the version seen: a version's record never
        changes, and the save's compare-and-swap still refuses a move on a table that moved on.
        With `touch=False` the move is not written as the learner's presence (the caller
        records presence itself): the move is then one store transaction, its save. A game
        `known` has loaded is copied (`clone`), not replayed from its log. `page`, the class
        service's id of the page that sent the move, is kept in the record's `last` (its watch
        stream does not carry the version back: `classroom.service`)."""
        code = clean_code(code)
        if known is not None and known.code == code and known.version == seen_version:
            # its game too, as a copy (the caller's is never changed): no replay of the log
            held = known._state
            snap = Snapshot(code, known.version, known.record, dict(known.presence),
                            None if held is None else held.clone())
        else:
            loaded = self.repo.load(code)
            if loaded is None:
                raise TableError("no_table", code=code)
            version, record = loaded
            if version != seen_version:
                raise TableError("moved_on")
            snap = Snapshot(code, version, record, self.repo.presence(code))
        if snap.status == "waiting":
            raise TableError("not_started")
        if snap.status == "finished":
            raise TableError("finished")
        seat = snap.seat_of(learner)
        if seat is None:
            raise TableError("not_seated")
        state = snap.state
        if state.current_seat != seat:
            raise TableError("not_your_turn", seat=state.current_seat)
        if isinstance(action, str):
            try:
                action = games.parse_action(snap.game, action)
            except ValueError:
                raise TableError("bad_action", text=action[:40]) from None
        games.apply(state, action, seat)   # the engine's refusal (a RuleError) passes through
        now = self.clock()
        if touch:
            self.repo.touch(code, learner, now)
        else:
            snap.presence[learner] = now
        last = {"kind": "move", "seat": seat, "action": str(action), "by": "learner"}
        if page:
            last["page"] = page
        return self._save(snap, state, now, last)

    def bot_move(self, snap: Snapshot) -> Snapshot | None:
        """Make the bot move due on `snap` (the version this client saw), if one is due:
        the current seat is a bot's and the table has been still for its pace. Returns the
        new snapshot, or None when nothing was due or another client won the race."""
        now = self.clock()
        if not self.bot_due(snap, now):
            return None
        state = snap.state.clone()   # the version's game, loaded once (`bot_due`): a copy, no replay
        seat = state.current_seat
        assert seat is not None  # `bot_due`: the game goes on and a bot's seat is to act
        action = games.bot_action(state, seat, snap.record["seed"], snap.level)
        games.apply(state, action, seat)
        try:
            return self._save(snap, state, now, {"kind": "move", "seat": seat,
                                                 "action": str(action), "by": "bot"})
        except TableError as error:
            if error.code == "moved_on":
                return None
            raise

    def drive(self, snap: Snapshot, most: int = DRIVE_MOVES, budget: float = DRIVE_BUDGET) -> Snapshot | None:
        """Play the bots' moves due at a table nobody watches (see the module's rules): the new
        snapshot, or None when nothing was due (a learner present, or the turn of a seat whose
        learner is not yet past the timeout) or the table moved on meanwhile."""
        now = self.clock()
        if snap.status != "playing" or self.bot_mover(snap, now) is not None:
            return None
        state = games.load_state(snap.game, snap.record["state"])
        started = time.perf_counter()
        last: dict | None = None
        for made in range(most):
            seat = state.current_seat
            if seat is None or snap.controller(seat, now) != "bot":
                break
            if made and time.perf_counter() - started > budget:
                break
            action = games.bot_action(state, seat, snap.record["seed"], snap.level)
            games.apply(state, action, seat)
            last = {"kind": "move", "seat": seat, "action": str(action), "by": "bot"}
        if last is None:
            return None
        try:
            return self._save(snap, state, now, last)
        except TableError as error:
            if error.code == "moved_on":
                return None
            raise

    def bot_due(self, snap: Snapshot, now: float) -> bool:
        if snap.status != "playing":
            return False
        seat = snap.state.current_seat
        if seat is None or snap.controller(seat, now) != "bot":
            return False
        return now - snap.record["moved_at"] >= snap.record["pace"]

    def bot_mover(self, snap: Snapshot, now: float) -> str | None:
        """The learner whose client moves the bots first: the lowest seated present one."""
        for who in snap.sitters:
            if who and snap.present(who["id"], now):
                return who["id"]
        return None

    # internals
    def _save(self, snap: Snapshot, state, now: float, last: dict) -> Snapshot:
        finished = state.is_terminal()
        record = {**snap.record, "state": state.to_json(), "moved_at": now, "last": last,
                  "status": "finished" if finished else "playing",
                  "outcome": games.outcome(state).to_dict() if finished else None}
        if not self.repo.save(snap.code, snap.version, record, archived=finished):
            raise TableError("moved_on")
        return Snapshot(snap.code, snap.version + 1, record, snap.presence, state)

    def _update(self, code: str, change, attempts: int = 5) -> Snapshot:
        """Apply a seating change with CAS, retrying on a race (seating is not a game move:
        it is re-checked against the newer version and re-applied)."""
        code = clean_code(code)
        for _ in range(attempts):
            snap = self.snapshot(code)
            now = self.clock()
            record = change(snap, now)
            if self.repo.save(code, snap.version, record):
                return Snapshot(code, snap.version + 1, record, snap.presence)
        raise TableError("moved_on")

    @staticmethod
    def _check_name(name) -> str:
        clean = _clean_name(name)
        if not clean:
            raise TableError("bad_name", n=MAX_NAME)
        return clean

    @staticmethod
    def _check_seat(seat, seats: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            raise TableError("bad_seat", top=seats - 1, seat=repr(seat))


# A client: what a browser's kernel (or a benchmark's process) keeps ----------------------
class TableClient:
    """One participant's connection to one table: the learner (or None for a spectator),
    the last snapshot seen, and `tick()`, the polling step the widget's loop and the
    benchmark's clients both run every POLL_EVERY seconds. With `beat_in_tick=False` (the
    widget) presence is recorded by `heartbeat()` only, which the browser's beat calls: a
    kernel whose page is closed stops counting as present.

    `tick()` does at most: one cheap version query; a full load when the version changed; a
    heartbeat every HEARTBEAT_EVERY seconds; presence every second; and a bot move when this
    client is the bot mover (or the table has been still for pace + TAKEOVER). It returns
    True when the snapshot changed (the view must redraw)."""

    def __init__(self, tables: Tables, code: str, learner: str | None = None,
                 beat_in_tick: bool = True):
        self.tables = tables
        self.beat_in_tick = beat_in_tick
        self.code = clean_code(code)
        self.learner = learner
        self.snap = tables.snapshot(self.code)
        self._beat = 0.0
        self._seen_presence = tables.clock()
        if learner is not None:
            self.heartbeat()

    @property
    def seat(self) -> int | None:
        return None if self.learner is None else self.snap.seat_of(self.learner)

    def _me(self) -> str:
        """The client's learner; a spectator's client (no learner) cannot act."""
        if self.learner is None:
            raise TableError("not_seated")
        return self.learner

    def heartbeat(self) -> None:
        self.tables.heartbeat(self.code, self._me())
        self._beat = self.tables.clock()

    def refresh(self) -> bool:
        """Reload if the table's version moved; True when it did."""
        version = self.tables.repo.version(self.code)
        if version is None or version == self.snap.version:
            return False
        self.snap = self.tables.snapshot(self.code)
        self._seen_presence = self.tables.clock()
        return True

    def tick(self) -> bool:
        changed = self.refresh()
        now = self.tables.clock()
        if self.beat_in_tick and self.learner is not None and now - self._beat >= HEARTBEAT_EVERY:
            self.heartbeat()
        if now - self._seen_presence >= 1.0:
            before = {k: self.snap.controller(k, now) for k in range(len(self.snap.sitters))}
            self.snap.presence = self.tables.repo.presence(self.code)
            self._seen_presence = now
            after = {k: self.snap.controller(k, now) for k in range(len(self.snap.sitters))}
            changed = changed or before != after
        if self.seat is not None and self.tables.bot_due(self.snap, now):
            mover = self.tables.bot_mover(self.snap, now)
            still = now - self.snap.record["moved_at"]
            if mover == self.learner or still >= self.snap.record["pace"] + TAKEOVER:
                moved = self.tables.bot_move(self.snap)
                if moved is not None:
                    self.snap = moved
                    changed = True
                else:
                    changed = self.refresh() or changed
        return changed

    # acting through the client
    def move(self, action, seen_version: int | None = None) -> None:
        """Play `action` on the version the learner saw: `seen_version` (the drawing he
        clicked), by default the last snapshot this client holds."""
        seen = self.snap.version if seen_version is None else seen_version
        self.snap = self.tables.move(self.code, self._me(), action, seen)

    def join(self, name: str, seat: int) -> None:
        self.snap = self.tables.join(self.code, self._me(), name, seat)

    def leave(self) -> None:
        self.snap = self.tables.leave(self.code, self._me())

    def start(self) -> None:
        self.snap = self.tables.start(self.code, self._me())
