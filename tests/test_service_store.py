"""The class service's use of the store: bounded connections, table changes pushed to waiting
pages (LISTEN/NOTIFY on PostgreSQL, one poll per watched table on SQLite), migrations once.

No hub here: the service's store side (`classroom.service.Classes` and `Service`) runs in this
process; tests/hub drives the whole service through a real JupyterHub.
"""
from __future__ import annotations

import asyncio
import json
import time

import pytest

from classroom import progress
from classroom.service import Classes, HubUser, Service, open_store
from classroom.store import connect
from classroom.tables import NOTIFY_CHANNEL as CHANNEL, StoreRepository, Tables

import learner_processes
from loops import run_async
from pg_waits import wait_listening
from service_workers import migrate_at


def _changed_elsewhere(location: str, code: str) -> None:
    """A change made by another process (another service replica): Bia sits down."""
    other = connect(location)
    try:
        Tables(StoreRepository(other)).join(code, "hub:bia", "bia", 1)
    finally:
        other.close()


async def _wait_for_a_change(location: str, pool: int = 3) -> tuple[float, Service, int]:
    store, listen, workers = open_store(location, pool)
    service = Service(Classes(store, workers), hub=None, listen=listen)  # type: ignore[arg-type]
    try:
        service.start()
        tables = service.classes.tables
        code = await service.classes.run(lambda: tables.create("paulista", "hub:ana", "ana"))
        version = (await service.classes.run(tables.snapshot, code)).version
        if listen is not None:  # PostgreSQL: the listener is listening
            await asyncio.get_running_loop().run_in_executor(None, wait_listening, location, CHANNEL)
        began = time.monotonic()
        loop = asyncio.get_running_loop()
        waiting = service.register(code, version)
        loop.call_later(0.3, lambda: loop.run_in_executor(None, _changed_elsewhere, location, code))
        woken = await service.wait(code, waiting, timeout=10)
        assert woken is not None, "the waiting page was not woken"
        return time.monotonic() - began, service, woken.version
    finally:
        store.close()


@pytest.mark.postgres
def test_on_postgresql_a_table_change_reaches_a_waiting_page_through_listen_notify(postgres_url):
    waited, service, version = run_async(_wait_for_a_change(postgres_url))
    assert 0.3 <= waited < 1.5          # woken by the NOTIFY, not by the 10 s timeout
    assert service.notifications >= 1 and version == 2
    assert service._listen is not None  # no version polling on PostgreSQL


def test_on_sqlite_the_service_polls_each_watched_table_once(tmp_path):
    location = str(tmp_path / "cartas.db")
    waited, service, version = run_async(_wait_for_a_change(location))
    assert 0.3 <= waited < 1.5 and version == 2 and service._listen is None


async def _many_writes(location: str, pool: int, writers: int) -> tuple[int, int]:
    import psycopg
    store, listen, workers = open_store(location, pool)
    service = Service(Classes(store, workers), hub=None, listen=listen)  # type: ignore[arg-type]
    peak = 0
    try:
        service.start()
        done = asyncio.gather(*(service.classes.run(service.classes.record, f"learner{i}", "manilhas",
                                                    [True, False]) for i in range(writers)))
        with psycopg.connect(location, autocommit=True) as watcher:
            while not done.done():
                count = watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                        "'cartas-service' AND datname = current_database()").fetchone()[0]
                peak = max(peak, count)
                await asyncio.sleep(0.01)
        await done
        asked = sum(service.classes.learner_progress(f"learner{i}")["manilhas"]["asked"] for i in range(writers))
        return peak, asked
    finally:
        store.close()


@pytest.mark.postgres
def test_the_service_holds_at_most_its_pool_of_connections_whatever_the_writers(postgres_url):
    peak, asked = run_async(_many_writes(postgres_url, pool=3, writers=120))
    assert 1 <= peak <= 3
    assert asked == 240  # every write kept, none twice


def test_a_hub_learner_is_stored_under_her_hub_name():
    assert HubUser("any-browser", "ana").key == "hub:ana"


@pytest.mark.postgres
def test_thirty_servers_starting_at_once_migrate_the_store_once(postgres_url):
    start_at = time.time() + 4.0
    with learner_processes.context().Pool(30) as pool:
        found = pool.starmap(migrate_at, [(postgres_url, start_at)] * 30)
    store = connect(postgres_url)
    try:
        with store.transaction(write=False) as tx:
            rows = tx.execute("SELECT version, COUNT(*) FROM schema_migrations WHERE component = ? "
                              "GROUP BY version ORDER BY version", ("classroom",)).fetchall()
    finally:
        store.close()
    assert [(int(v), int(n)) for v, n in rows] == [(v, 1) for v in range(1, progress.MIGRATIONS.latest + 1)]
    assert found == [progress.MIGRATIONS.latest] * 30  # each step's CREATE TABLE ran once, none failed


async def _change_before_waiting(location: str) -> tuple[float, int, int]:
    store, listen, workers = open_store(location, 3)
    service = Service(Classes(store, workers), hub=None, listen=listen)  # type: ignore[arg-type]
    try:
        service.start()
        tables = service.classes.tables
        code = await service.classes.run(lambda: tables.create("paulista", "hub:ana", "ana"))
        seen = await service.classes.run(tables.snapshot, code)
        waiting = service.register(code, seen.version)
        moved = await service.classes.run(lambda: tables.join(code, "hub:bia", "bia", 1))
        service.publish(moved)       # the change lands before this page's wait begins
        began = time.monotonic()
        woken = await service.wait(code, waiting, timeout=5)
        loads_shared = service.snaps[code] is moved
        return time.monotonic() - began, woken.version if woken else -1, int(loads_shared)
    finally:
        store.close()


def test_a_change_between_a_pages_look_and_its_wait_still_wakes_it_at_once(tmp_path):
    waited, version, shared = run_async(_change_before_waiting(str(tmp_path / "cartas.db")))
    assert waited < 0.5 and version == 2
    assert shared == 1  # the waiters get the snapshot the change made, without loading it again


def test_a_seat_view_holds_that_seats_cards_only_and_no_deal_or_generator():
    from classroom import games
    from classroom.service import Texts, seat_view
    from classroom.tables import MemoryRepository
    tables = Tables(MemoryRepository())
    code = tables.create("paulista", "hub:ana", "ana", seed=11, pace=0.0)
    tables.join(code, "hub:bia", "bia", 1)
    tables.start(code, "hub:ana")
    for _ in range(6):  # a few moves, so the log has plays in it
        snap = tables.snapshot(code)
        seat = snap.state.current_seat
        legal = games.legal_actions(snap.state, seat)
        move = next((a for a in legal if a.kind == "play"), legal[0])
        who = {0: "hub:ana", 1: "hub:bia"}.get(seat)
        if who:
            tables.move(code, who, move, snap.version)
        else:
            assert tables.bot_move(snap) is not None
    snap = tables.snapshot(code)
    texts = Texts()
    view = seat_view(snap, 1, "bia", tables.clock(), texts)
    assert all(card is not None for card in view["hands"][1])
    assert all(card is None for seat, hand in enumerate(view["hands"]) if seat != 1 for card in hand)
    text = json.dumps(view)
    assert "seed" not in text and '"state"' not in text and "rng" not in text.lower()
    assert seat_view(snap, 1, "bia", tables.clock(), texts) == view == seat_view(snap, 1, "bia", tables.clock())
    assert texts.size > 0


async def _notified_during_its_own_change(location: str, elsewhere: bool) -> tuple[list, int, int]:
    """A change saved here whose NOTIFY reaches the loop before the save's answer does (and,
    with `elsewhere`, another replica's change saved and notified meanwhile): what the
    service loaded again, the version its waiting page woke with, the version it holds."""
    store, _, workers = open_store(location, 3)
    # a listener that delivers nothing: the notifications are the test's own calls
    service = Service(Classes(store, workers), hub=None, listen=lambda *_: None)  # type: ignore[arg-type]
    try:
        service.start()
        tables = service.classes.tables
        code = await service.classes.run(lambda: tables.create("paulista", "hub:ana", "ana"))
        service.publish(await service.classes.run(service.classes.snapshot, code))
        waiting = service.register(code, 1)
        loaded: list[str] = []
        load = service.classes.snapshot
        service.classes.snapshot = lambda c, held=None: (loaded.append(c), load(c, held))[1]  # type: ignore

        def sits() -> object:   # on a tables thread: Bia sits down, as a move would be saved
            snap = tables.join(code, "hub:bia", "bia", 1)
            service.changed_threadsafe(f"{code} {snap.version}")        # its own NOTIFY, first
            if elsewhere:                                                 # Cris, through another replica
                service.changed_threadsafe(f"{code} {tables.join(code, 'hub:cris', 'cris', 2).version}")
            time.sleep(0.2)     # the loop hears them before the answer is back
            return snap
        snap = await service.change(code, sits)
        service.publish(snap)
        woken = await service.wait(code, waiting, timeout=5)
        deadline = time.monotonic() + 5
        while elsewhere and service.snaps.get(code, snap).version < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)
        return loaded, woken.version if woken else 0, service.snaps[code].version
    finally:
        store.close()


def test_a_change_made_here_is_not_loaded_again_when_its_own_notification_comes_first(tmp_path):
    """Issue 35, item 5: the NOTIFY of a move saved here often reached the loop before the
    save's answer, and the table was then read again from the store for nothing."""
    loaded, woken, held = run_async(_notified_during_its_own_change(str(tmp_path / "cartas.db"), False))
    assert loaded == [] and woken == 2 and held == 2


def test_a_change_made_elsewhere_while_one_is_saved_here_is_still_loaded_once_published(tmp_path):
    loaded, woken, held = run_async(_notified_during_its_own_change(str(tmp_path / "cartas.db"), True))
    assert woken == 2 and held == 3 and len(loaded) == 1
