"""The class service kept light per learner at district scale (issue 35, item 4): the teacher's
listing of a class's tables sends a brief per table (no events, no cards), and a page's plain
look at its table (its heartbeat) is answered from the service's cache, not the store, while
a change, made through the service or elsewhere (another replica), is still seen.

A real class service on 127.0.0.1 (tests/test_remote_tables.py's `RunningService`), on SQLite
and on PostgreSQL; its store's statements are recorded by a wrapper of the store.
"""
from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager

from test_remote_tables import service, tables_of  # noqa: F401  # the fixture, by name

from classroom import games
from classroom.service import HeldSnapshots
from classroom.store import connect
from classroom.tables import POLL_EVERY, StoreRepository, Tables

BRIEF_MOST = 700   # bytes of one 4-seat table's brief at most (its last 80 events took kilobytes)


class Statements:
    """Every statement the service's store runs, as (SQL, when), recorded by wrapping the
    store's `transaction` (all of the service's store calls go through it)."""

    def __init__(self, store):
        self.seen: list[tuple[str, float]] = []
        self._store, self._original = store, store.transaction
        seen = self.seen

        class Recording:
            def __init__(self, tx):
                self._tx = tx

            def execute(self, sql, params=()):
                seen.append((sql, time.monotonic()))
                return self._tx.execute(sql, params)

            def executemany(self, sql, rows):
                seen.append((sql, time.monotonic()))
                return self._tx.executemany(sql, rows)

            def __getattr__(self, name):
                return getattr(self._tx, name)

        original = self._original

        @contextmanager
        def transaction(*args, **kwargs):
            with original(*args, **kwargs) as tx:
                yield Recording(tx)
        store.transaction = transaction

    def since(self, began: float) -> list[str]:
        return [sql for sql, at in list(self.seen) if at >= began]

    def stop(self) -> None:
        self._store.transaction = self._original


def _a_move(view: dict) -> str:
    legal = [m["action"] for m in view["legal"]]
    return next((m for m in legal if m.startswith("play ")), legal[0])


def test_the_teachers_listing_sends_a_brief_per_table_without_its_events(service):  # noqa: F811
    ana, bia = tables_of(service, "ana").classroom, tables_of(service, "bia").classroom
    code = ana.create_table("paulista", seats=4, **{"class": "turma-a"})["code"]
    bia.join(code, 1)
    view = ana.start(code)
    for _ in range(6):        # the bots and the two learners play a few cards: a log to leave out
        me = {0: ana, 1: bia}.get(view["current_seat"])
        if me is None:
            view = ana.watch(code, view["version"], 5.0)
            continue
        view = me.move(code, _a_move(me.table(code)), view["version"])
    teacher = tables_of(service, "tereza").classroom
    listing = teacher.class_tables("turma-a")
    full = teacher.table(code)          # the same table as a spectator's view
    assert full["events"]               # there is a log, and a full view sends it
    brief = next(b for b in listing if b["code"] == code)
    assert not {"events", "events_from", "events_total", "view", "hands", "legal", "why"} & set(brief)
    assert "♥" not in json.dumps(brief) and "♠" not in json.dumps(brief)   # no card at all
    assert brief["version"] == full["version"] and brief["status"] == "playing"
    assert [s["name"] for s in brief["seats"]] == ["ana", "bia", None, None]
    assert brief["level"] == full["level"] and brief["hand_number"] == full["hand_number"] >= 1
    assert brief["result"]["scores"] == full["result"]["scores"]
    assert len(json.dumps(brief, ensure_ascii=False).encode()) <= BRIEF_MOST
    # the teacher's page reads it as any table and watches it apart
    listed = tables_of(service, "tereza").list_class("turma-a")
    assert [s.code for s in listed] == [code] and listed[0].state is None
    assert [s["name"] for s in listed[0].seats()] == ["ana", "bia", None, None]


def test_a_heartbeat_is_answered_from_the_cache_and_still_sees_a_change(service):  # noqa: F811
    ana_tables = tables_of(service, "ana")
    ana, bia = ana_tables.classroom, tables_of(service, "bia").classroom
    code = ana.create_table("paulista", seats=2)["code"]     # mano a mano: no bot moves here
    bia.join(code, 1)
    started = ana.start(code)
    # Bia's page waits on its long poll, as a page does (on SQLite: the tables waited on are polled)
    woke: list[dict] = []
    waiting = threading.Thread(target=lambda: woke.append(bia.watch(code, started["version"], 20.0)))
    waiting.start()
    deadline = time.monotonic() + 10
    while not service.service.waiters.get(code) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert service.service.waiters.get(code), "Bia's long poll did not arrive"
    ana.table(code)   # a first look may load the table once

    statements = Statements(service.service.classes.store)
    try:
        began = time.monotonic()
        beats = [ana.table(code) for _ in range(30)]    # 30 heartbeats of Ana's page
        during = statements.since(began)
        elapsed = time.monotonic() - began
    finally:
        statements.stop()
    assert {b["version"] for b in beats} == {started["version"]}
    polled = "SELECT version FROM mesas WHERE code = ?"   # SQLite's poll of the waited tables' versions
    # PostgreSQL: each time the service's LISTEN is in place (late on a loaded machine, or again
    # after its connection dropped) it reads the versions of the tables it watches in one query
    # (`Service.resync`), its own work and no heartbeat's (met once in a clean-clone run)
    resync = "SELECT code, version FROM mesas WHERE code IN (?)"
    reads = [sql for sql in during
             if ("FROM mesas" in sql and sql not in (polled, resync)) or "mesa_presence WHERE code = ?" in sql]
    assert reads == [], reads           # no heartbeat read the table or its presence
    # what ran meanwhile is the service's own periodic work (the sweep, the beats' one write a second)
    others = [sql for sql in during if sql != polled]
    assert len(others) <= 2 * (elapsed / 1.0 + 2), others
    assert len(during) - len(others) <= elapsed / POLL_EVERY + 2, during   # one poll a POLL_EVERY

    # a change through the service: the next heartbeat has it (Bia's long poll too)
    turn = {0: ana, 1: bia}[started["current_seat"]]
    moved = turn.move(code, _a_move(turn.table(code)), started["version"])
    assert ana.table(code)["version"] == moved["version"]
    waiting.join(30)
    assert woke and woke[0]["version"] == moved["version"]

    # a change made elsewhere (another replica's, straight into the store): heard, then seen
    other = connect(service.location)
    try:
        tables = Tables(StoreRepository(other))
        snap = tables.snapshot(code)
        seat = snap.state.current_seat
        move = str(next(a for a in games.legal_actions(snap.state, seat)))
        elsewhere = tables.move(code, snap.sitters[seat]["id"], move, snap.version)
    finally:
        other.close()
    # on SQLite a table nobody waits on is read from the store; on PostgreSQL the NOTIFY refreshes it
    deadline = time.monotonic() + 10
    while ana.table(code)["version"] != elsewhere.version and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ana.table(code)["version"] == elsewhere.version


def test_the_probe_of_health_answers_from_memory_and_the_figures_stay_on_health(service):  # noqa: F811
    import urllib.request
    statements = Statements(service.service.classes.store)
    try:
        with urllib.request.urlopen(service.url + "health?probe=1", timeout=10) as answer:
            probe = json.loads(answer.read())
        assert statements.seen == []
    finally:
        statements.stop()
    assert probe == {"ok": True, "replica": probe["replica"]}   # no figures computed for a probe every few seconds
    with urllib.request.urlopen(service.url + "health", timeout=10) as answer:
        figures = json.loads(answer.read())
    assert figures["ok"] is True and "stages" in figures and "waiting" in figures


def test_the_cache_forgets_the_tables_it_is_told_changed_elsewhere():
    held = HeldSnapshots()
    held.update({"AAAA": "a", "BBBB": "b", "CCCC": "c"})   # type: ignore[dict-item]
    held.invalidate(["AAAA", "ZZZZ"])
    assert set(held) == {"BBBB", "CCCC"}
    held.invalidate()
    assert not held
