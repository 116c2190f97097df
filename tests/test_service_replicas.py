"""What the class service's replicas share, on PostgreSQL, without a hub (issue 35, item 1;
tests/test_replicas.py runs the real thing): a lost LISTEN connection is made good on return,
and the homework request limits and reached codes are the store's, not a process's.
"""
from __future__ import annotations

import asyncio
import time

import pytest

from classroom import games
from classroom.service import HOMEWORK_BURST, HOMEWORK_EVERY, Classes, Refused, Service, open_store

from loops import run_async

pytestmark = pytest.mark.postgres


def _two_at_a_table(tables) -> str:
    code = tables.create("paulista", "hub:ana", "ana", seats=2, seed=3, timeout=600)
    tables.join(code, "hub:bia", "bia", 1)
    tables.start(code, "hub:ana")
    return code


async def _a_change_while_not_listening(url: str) -> tuple[int, int | None]:
    import psycopg
    store, listen, workers = open_store(url, 3)
    other, _, _ = open_store(url, 2)        # another replica's store: its saves notify, nothing more
    service = Service(Classes(store, workers), hub=None, listen=listen)  # type: ignore[arg-type]
    try:
        tables = service.classes.tables
        code = await service.classes.run(_two_at_a_table, tables)
        snap = await service.classes.run(service.classes.snapshot, code)
        service.publish(snap)
        service.start()
        deadline = time.monotonic() + 10
        with psycopg.connect(url, autocommit=True) as admin:
            def listeners() -> int:
                return admin.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                     "'cartas-listen' AND datname = current_database()").fetchone()[0]
            while listeners() == 0:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            future = service.register(code, snap.version)       # a page waits on this replica
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = "
                          "'cartas-listen' AND datname = current_database()")
            while listeners() > 0:
                await asyncio.sleep(0.02)
            # the move is saved (and notified) while nobody here listens: that note is lost
            seat = snap.state.current_seat
            legal = games.legal_actions(snap.state, seat)
            elsewhere = Classes(other, 1).tables
            elsewhere.move(code, snap.sitters[seat]["id"], str(legal[0]), snap.version)
        woke = await service.wait(code, future, 10.0)
        return snap.version, None if woke is None else woke.version
    finally:
        store.close()
        other.close()


def test_a_change_saved_while_the_listen_connection_was_lost_reaches_the_waiting_page(postgres_url):
    before, woke = run_async(_a_change_while_not_listening(postgres_url))
    assert woke == before + 1      # read again once LISTEN was back (Service.resync), not after the wait


async def _calls_on_two_replicas(url: str) -> list[bool]:
    stores = [open_store(url, 2)[0] for _ in range(2)]
    try:
        replicas = [Service(Classes(store, 1), hub=None) for store in stores]  # type: ignore[arg-type]
        taken = []
        for index in range(HOMEWORK_BURST + 1):     # her requests, each to the next replica
            try:
                await replicas[index % 2].take_call("ana", "table")
                taken.append(True)
            except Refused as refused:
                assert refused.code == "too_many_requests"
                taken.append(False)
        return taken
    finally:
        for store in stores:
            store.close()


def test_a_learners_homework_request_limit_is_shared_by_the_replicas(postgres_url):
    taken = run_async(_calls_on_two_replicas(postgres_url))
    assert taken == [True] * HOMEWORK_BURST + [False]       # not a burst per replica
    assert HOMEWORK_EVERY > 0


def test_a_code_reached_on_one_replica_is_no_guess_on_another(postgres_url):
    first, second = (open_store(postgres_url, 2)[0] for _ in range(2))
    try:
        one, two = Classes(first, 1), Classes(second, 1)
        assert not two.has_reached("ana", "ABCDE")
        one.add_reached([("ana", "ABCDE"), ("ana", "ABCDE")])
        assert two.has_reached("ana", "ABCDE") and not two.has_reached("bia", "ABCDE")
    finally:
        first.close()
        second.close()
