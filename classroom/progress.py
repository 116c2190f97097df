"""Progress tables: every answer, and per-(learner, lesson) counters.

Decided rules:
- One transaction per record: the learner's row, each answer and the lesson's counters are
  written together or not at all. Counters only ever grow in the database
  (`right_count = progress.right_count + excluded.right_count`), never read, changed and
  written back, so concurrent kernels lose nothing.
- A record never renames a learner of a class (her name is the one she joined with, see
  classroom.identity); a learner without a class is her browser, and her name only a label.
- A lesson counts as done once its learner has DONE_RIGHT right answers in it.
- The old `~/.cartas/progress.json` (path in CARTAS_PROGRESS) is imported once into a SQLite
  store, under the learner IMPORTED; the file is left as it was, and the import is marked
  in the `imports` table, so it never happens twice. Entries of an unexpected shape are
  skipped. The first anonymous learner who opens a dashboard with no progress of her own
  takes the imported scores over (on Binder or a laptop, that is the learner who made them).
"""
from __future__ import annotations

import json
import os
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import identity
from .identity import Learner
from .store import Migrations, Store, StoreUnavailable, shared

DONE_RIGHT = 5
IMPORTED = "imported:progress.json"

MIGRATIONS = Migrations("classroom", [
    # 1: learners and their counters
    ("CREATE TABLE learners (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', "
     "created_at DOUBLE PRECISION NOT NULL, last_seen DOUBLE PRECISION NOT NULL)",
     "CREATE TABLE progress (learner_id TEXT NOT NULL, lesson TEXT NOT NULL, "
     "right_count INTEGER NOT NULL, asked_count INTEGER NOT NULL, "
     "last_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (learner_id, lesson))"),
    # 2: classes, each answer kept, the legacy import marker
    ("CREATE TABLE classes (code TEXT PRIMARY KEY, title TEXT NOT NULL, key_hash TEXT NOT NULL, "
     "created_at DOUBLE PRECISION NOT NULL)",
     "ALTER TABLE learners ADD COLUMN class_code TEXT NOT NULL DEFAULT ''",
     "CREATE INDEX learners_by_class ON learners (class_code)",
     "CREATE TABLE answers (id {serial_pk}, learner_id TEXT NOT NULL, lesson TEXT NOT NULL, "
     "correct INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL)",
     "CREATE INDEX answers_by_learner ON answers (learner_id, lesson)",
     "CREATE TABLE imports (source TEXT PRIMARY KEY, imported_at DOUBLE PRECISION NOT NULL)"),
    # 3: verified learners (classroom.identity): a PIN hash, device tokens, login cards, guess counts
    ("ALTER TABLE learners ADD COLUMN pin_hash TEXT NOT NULL DEFAULT ''",
     "CREATE TABLE learner_tokens (token_hash TEXT PRIMARY KEY, learner_id TEXT NOT NULL, "
     "created_at DOUBLE PRECISION NOT NULL, used_at DOUBLE PRECISION NOT NULL)",
     "CREATE INDEX learner_tokens_by_learner ON learner_tokens (learner_id)",
     "CREATE TABLE learner_cards (learner_id TEXT PRIMARY KEY, class_code TEXT NOT NULL, "
     "code_hash TEXT NOT NULL UNIQUE, created_at DOUBLE PRECISION NOT NULL)",
     "CREATE TABLE login_attempts (scope TEXT NOT NULL, subject TEXT NOT NULL, failures INTEGER NOT NULL, "
     "first_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (scope, subject))"),
    # 4: names compared without case, accents or repeated spaces (classroom.values.name_key)
    lambda tx: _name_keys(tx),
    # 5: names compared with look-alike letters folded and edge punctuation trimmed (issue 33)
    lambda tx: _name_keys_again(tx),
    # 6: every answer kept whole: its question's kind, variant, seed or scenario, the choices shown,
    # the one chosen, its misconception, the time taken (issue 32; classroom.answers)
    lambda tx: _answers_whole(tx),
])


def _answers_whole(tx) -> None:
    from .answers import STEP
    for statement in STEP:
        tx.execute(statement)


def _name_keys(tx) -> None:
    """Migration 4: each learner of a class gets her name's comparison key, unique in her class
    (a unique index, so two kernels joining as "Célia" and "celia" at once make one learner).
    A store may hold learners whose names already compare equal ("Célia" and "Celia", made
    before): the first one made keeps the key, and so the name; the others keep no key (NULL,
    which the index allows): they stay, found by their id, devices and cards as before, and
    the teacher sees them both and can merge them (classroom.identity.merge)."""
    tx.execute("ALTER TABLE learners ADD COLUMN name_key TEXT")
    _key_learners(tx)


def _name_keys_again(tx) -> None:
    """Migration 5: every learner's key recomputed by today's `name_key`, the same way as
    migration 4 (the first one made keeps a key two learners now share; the other keeps none,
    and stays as she was, found by her id, devices and card). Nobody's id, name, PIN or card
    changes, so every stored learner signs in as before."""
    tx.execute("DROP INDEX learners_by_name_key")
    tx.execute("UPDATE learners SET name_key = NULL")
    _key_learners(tx)


def _key_learners(tx) -> None:
    """Each learner of a class keyed by `name_key(name)`, oldest first: the first one made keeps
    a key two learners share, the other none (NULL); then the unique index on the keys."""
    from .values import name_key
    taken: set[tuple[str, str]] = set()
    keyed = []
    for learner_id, code, name in tx.execute("SELECT id, class_code, name FROM learners WHERE class_code <> '' "
                                             "ORDER BY created_at, id").fetchall():
        key = (code, name_key(name))
        if key[1] and key not in taken:
            taken.add(key)
            keyed.append((key[1], learner_id))
    if keyed:
        tx.executemany("UPDATE learners SET name_key = ? WHERE id = ?", keyed)
    tx.execute("CREATE UNIQUE INDEX learners_by_name_key ON learners (class_code, name_key)")


# the SQLite stores of this process whose legacy JSON was looked at already
_LEGACY_CHECKED: weakref.WeakSet[Store] = weakref.WeakSet()


def legacy_path() -> Path:
    return Path(os.environ.get("CARTAS_PROGRESS", "") or Path.home() / ".cartas" / "progress.json")


def open_store(location: str | None = None) -> Store:
    """This process's store with the progress tables migrated (and, on SQLite, the legacy
    JSON imported once). Raises StoreUnavailable / StoreError. Under JupyterHub with a class
    service this process holds no database credentials: StoreUnavailable (the dashboards ask
    `classroom.open()`, which gives the service's client there)."""
    if location is None:
        from .hub import hub_configured
        if hub_configured():
            raise StoreUnavailable("under JupyterHub the class store is behind the Cartas class service: "
                                   "this kernel runs no SQL")
    store = shared(location)
    store.migrate(MIGRATIONS)
    from .homework import MIGRATIONS as HOMEWORK  # migration 5: homework and each answer's skill
    store.migrate(HOMEWORK)
    if store.kind == "sqlite" and store not in _LEGACY_CHECKED:
        import_legacy(store, legacy_path())
        _LEGACY_CHECKED.add(store)
    return store


def record(store: Store, learner: Learner, lesson: str, answers, at: float | None = None,
           skills=None) -> None:
    """Add `answers` (a list of booleans, right or wrong) to `learner`'s `lesson`; `skills`,
    one per answer ("" for none), names the skill each trains (classroom.mastery)."""
    answers = [bool(a) for a in answers]
    if not answers:
        return
    from .mastery import check_skill
    skills = [check_skill(s) for s in (skills or [""] * len(answers))]
    if len(skills) != len(answers):
        raise ValueError("one skill per answer")
    at = time.time() if at is None else at
    right = sum(answers)
    if store.kind == "postgresql":
        _record_postgres(store, learner, lesson, answers, skills, at, right)
        return
    with store.transaction(batch=True) as tx:
        tx.execute("INSERT INTO learners (id, name, class_code, created_at, last_seen) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
                   "name = CASE WHEN learners.class_code = '' THEN excluded.name ELSE learners.name END, "
                   "last_seen = excluded.last_seen",
                   (learner.key, learner.name, learner.class_code, at, at))
        if any(skills):  # the skill column comes with migration 5 (classroom.homework)
            tx.executemany("INSERT INTO answers (learner_id, lesson, correct, at, skill) VALUES (?, ?, ?, ?, ?)",
                           [(learner.key, lesson, int(a), at, s) for a, s in zip(answers, skills)])
        else:
            tx.executemany("INSERT INTO answers (learner_id, lesson, correct, at) VALUES (?, ?, ?, ?)",
                           [(learner.key, lesson, int(a), at) for a in answers])
        tx.execute("INSERT INTO progress (learner_id, lesson, right_count, asked_count, last_at) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT (learner_id, lesson) DO UPDATE SET "
                   "right_count = progress.right_count + excluded.right_count, "
                   "asked_count = progress.asked_count + excluded.asked_count, "
                   "last_at = excluded.last_at",
                   (learner.key, lesson, right, len(answers), at))


# What `record` writes, as one statement on PostgreSQL: its own transaction, one round trip and
# no BEGIN, pipeline or COMMIT (the class service records an answer batch about once a move;
# issue 35). The three writes are the ones `record` makes on SQLite; the answers keep their
# order (`WITH ORDINALITY`), as one INSERT each would.
_LEARNER_UPSERT = ("INSERT INTO learners (id, name, class_code, created_at, last_seen) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
                   "name = CASE WHEN learners.class_code = '' THEN excluded.name ELSE learners.name END, "
                   "last_seen = excluded.last_seen")
_PROGRESS_UPSERT = ("INSERT INTO progress (learner_id, lesson, right_count, asked_count, last_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (learner_id, lesson) DO UPDATE SET "
                    "right_count = progress.right_count + excluded.right_count, "
                    "asked_count = progress.asked_count + excluded.asked_count, "
                    "last_at = excluded.last_at")


def _record_postgres(store: Store, learner: Learner, lesson: str, answers: list[bool], skills: list[str],
                     at: float, right: int) -> None:
    """`record`'s three writes in one PostgreSQL statement (data-modifying WITH queries)."""
    correct = [int(a) for a in answers]
    if any(skills):  # the skill column comes with migration 5 (classroom.homework)
        said = ("INSERT INTO answers (learner_id, lesson, correct, at, skill) SELECT ?, ?, c, ?, s "
                "FROM unnest(?::integer[], ?::text[]) WITH ORDINALITY AS t(c, s, n) ORDER BY n")
        values: tuple = (learner.key, lesson, at, correct, skills)
    else:
        said = ("INSERT INTO answers (learner_id, lesson, correct, at) SELECT ?, ?, c, ? "
                "FROM unnest(?::integer[]) WITH ORDINALITY AS t(c, n) ORDER BY n")
        values = (learner.key, lesson, at, correct)
    with store.transaction(single=True) as tx:
        tx.execute(f"WITH seen AS ({_LEARNER_UPSERT}), said AS ({said}) {_PROGRESS_UPSERT}",
                   (learner.key, learner.name, learner.class_code, at, at, *values,
                    learner.key, lesson, right, len(answers), at))


def learner_progress(store: Store, learner_id: str) -> dict[str, dict]:
    """{lesson: {"right", "asked", "last"}} of one learner."""
    with store.transaction(write=False) as tx:
        rows = tx.execute("SELECT lesson, right_count, asked_count, last_at FROM progress "
                          "WHERE learner_id = ?", (learner_id,)).fetchall()
    return {lesson: {"right": int(r), "asked": int(a), "last": float(t)} for lesson, r, a, t in rows}


def class_learners(store: Store, code: str) -> list[dict]:
    """The learners of class `code`, by name: {"id", "name", "last_seen", "lessons":
    {lesson: {"right", "asked"}}, "done": lessons with DONE_RIGHT right answers, "has_pin":
    False for a learner stored before verification, who has not joined with a PIN yet}.
    (Under JupyterHub a class is a hub group: `classroom.open()` asks the class service.)"""
    with store.transaction(write=False) as tx:
        people = tx.execute("SELECT id, name, last_seen, pin_hash FROM learners WHERE class_code = ? "
                            "ORDER BY name, id", (code,)).fetchall()
        rows = tx.execute("SELECT p.learner_id, p.lesson, p.right_count, p.asked_count, p.last_at "
                          "FROM progress p JOIN learners l ON l.id = p.learner_id "
                          "WHERE l.class_code = ?", (code,)).fetchall()
    out = {pid: {"id": pid, "name": name, "last_seen": float(seen), "lessons": {}, "done": 0,
                 "has_pin": bool(pin)} for pid, name, seen, pin in people}
    for pid, lesson, right, asked, last in rows:
        learner = out[pid]
        learner["lessons"][lesson] = {"right": int(right), "asked": int(asked)}
        learner["done"] += int(right) >= DONE_RIGHT
        learner["last_seen"] = max(learner["last_seen"], float(last))
    return list(out.values())


def members_learners(store: Store, members: Sequence[tuple[str, str]]) -> list[dict]:
    """The rows of `members` ((learner id, name) pairs: a hub group's, whose login signs them
    in), in their order and in the shape of `class_learners`: those who never answered too
    (`last_seen` 0), `has_pin` always true."""
    rows: dict[str, dict[str, Any]] = {
        pid: {"id": pid, "name": name, "last_seen": 0.0, "lessons": {}, "done": 0, "has_pin": True}
        for pid, name in members}
    if not rows:
        return []
    ids = list(rows)
    marks = ", ".join("?" for _ in ids)
    with store.transaction(write=False) as tx:
        seen = tx.execute(f"SELECT id, last_seen FROM learners WHERE id IN ({marks})", ids).fetchall()
        counts = tx.execute("SELECT learner_id, lesson, right_count, asked_count FROM progress "
                            f"WHERE learner_id IN ({marks})", ids).fetchall()
    for pid, at in seen:
        rows[pid]["last_seen"] = float(at)
    for pid, lesson, right, asked in counts:
        row = rows[pid]
        row["lessons"][lesson] = {"right": int(right), "asked": int(asked)}
        row["done"] += int(right) >= DONE_RIGHT
    return [rows[pid] for pid, _ in members]


def remove_learner(store: Store, code: str, learner_id: str) -> bool:
    """Delete a learner of class `code` with all her answers, devices and card; False if not
    in that class (see classroom.identity.remove)."""
    return identity.remove(store, code, learner_id)


def import_legacy(store: Store, path: Path) -> int:
    """Import the old JSON progress file once; return how many lessons were imported."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return 0  # absent or unreadable: nothing to import, and the file is left alone
    if not isinstance(data, dict):
        return 0
    entries = []
    for lesson, score in data.items():
        if (isinstance(lesson, str) and isinstance(score, dict)
                and all(isinstance(score.get(k), int) and not isinstance(score.get(k), bool)
                        for k in ("right", "asked"))
                and 0 <= score["right"] <= score["asked"] and score["asked"] > 0):
            entries.append((lesson[:100], score["right"], score["asked"]))
    source = f"json:{Path(path).expanduser().resolve()}"
    now = time.time()
    with store.transaction() as tx:
        fresh = tx.execute("INSERT INTO imports (source, imported_at) VALUES (?, ?) "
                           "ON CONFLICT (source) DO NOTHING", (source, now)).rowcount
        if not fresh or not entries:
            return 0
        tx.execute("INSERT INTO learners (id, name, class_code, created_at, last_seen) "
                   "VALUES (?, '', '', ?, ?) ON CONFLICT (id) DO NOTHING", (IMPORTED, now, now))
        for lesson, right, asked in entries:
            tx.execute("INSERT INTO progress (learner_id, lesson, right_count, asked_count, last_at) "
                       "VALUES (?, ?, ?, ?, ?) ON CONFLICT (learner_id, lesson) DO NOTHING",
                       (IMPORTED, lesson, right, asked, now))
    return len(entries)


def claim_imported(store: Store, learner: Learner) -> int:
    """Give the imported scores to `learner` if she is anonymous and has no progress yet;
    return the number of lessons taken over (0 when someone already took them)."""
    if learner.name:
        return 0
    now = time.time()
    with store.transaction() as tx:
        if tx.execute("SELECT 1 FROM progress WHERE learner_id = ?", (learner.key,)).fetchone():
            return 0
        moved = tx.execute("UPDATE progress SET learner_id = ? WHERE learner_id = ?",
                           (learner.key, IMPORTED)).rowcount
        if moved:
            tx.execute("INSERT INTO learners (id, name, class_code, created_at, last_seen) "
                       "VALUES (?, '', ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                       (learner.key, learner.class_code, now, now))
            tx.execute("DELETE FROM learners WHERE id = ?", (IMPORTED,))
    return moved
