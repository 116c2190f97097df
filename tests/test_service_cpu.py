"""The class service's work per move (issue 35, item 5): what it no longer does again.

A move on the version the service holds copies that game instead of replaying its log; a
change heard of from another replica is read as one query (the record) and the held game is
advanced by the new actions, not replayed; an answer batch is one statement on PostgreSQL.
Each result must be exactly what a full load gives."""
from __future__ import annotations

import asyncio
import concurrent.futures

import numpy as np
import pytest

from classroom import games
from classroom.identity import Learner
from classroom.progress import MIGRATIONS, learner_progress, record
from classroom.tables import MemoryRepository, Tables


class Clock:
    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


class CountingRepository(MemoryRepository):
    """The memory repository, counting the presence queries."""

    def __init__(self):
        super().__init__()
        self.presence_reads = 0

    def presence(self, code):
        self.presence_reads += 1
        return super().presence(code)


@pytest.fixture
def loads(monkeypatch):
    """How many times a game is loaded whole (its log replayed)."""
    count = [0]
    real = games.load_state

    def counting(game, text):
        count[0] += 1
        return real(game, text)
    monkeypatch.setattr(games, "load_state", counting)
    return count


def playing_table(tables: Tables) -> str:
    code = tables.create("paulista", "ana", "Ana", seed=11)
    for seat, who in enumerate(["bia", "caio", "duda"], start=1):
        tables.join(code, who, who.capitalize(), seat)
    tables.start(code, "ana")
    return code


def play_one(tables: Tables, code: str, known=None):
    snap = known if known is not None else tables.snapshot(code)
    seat = snap.state.current_seat
    who = snap.sitters[seat]["id"]
    action = str(games.legal_actions(snap.state, seat)[0])
    return tables.move(code, who, action, snap.version, known=known, touch=False)


@pytest.mark.parametrize("game, seats", [("paulista", 4), ("mineiro", 2), ("21", 5)])
def test_a_newer_save_is_read_from_the_held_game_as_a_full_load_reads_it(game, seats, loads):
    state = games.new_state(game, seats, {}, 3)
    rng = np.random.default_rng(3)
    held, held_text = games.load_state(game, state.to_json()), state.to_json()
    before = loads[0]
    steps = 0
    while not state.is_terminal() and steps < 150:
        for _ in range(int(rng.integers(1, 4))):
            if state.is_terminal():
                break
            seat = state.current_seat
            legal = games.legal_actions(state, seat)
            games.apply(state, legal[int(rng.integers(len(legal)))], seat)
            steps += 1
        text = state.to_json()
        newer = games.advance(game, held, held_text, text)
        assert newer.to_json() == text
        assert held.to_json() == held_text            # the held game is never changed
        for seat in [None, *range(seats)]:
            assert newer.view(seat).to_dict() == state.view(seat).to_dict()
        held, held_text = newer, text
    assert loads[0] == before                        # nothing replayed from the start


def test_a_save_that_does_not_extend_the_held_one_is_loaded_whole(loads):
    state = games.new_state("paulista", 4, {}, 5)
    text = state.to_json()
    other = games.new_state("paulista", 4, {}, 6)      # another setup (seed)
    games.apply(other, games.legal_actions(other, other.current_seat)[0], other.current_seat)
    assert games.advance("paulista", state, text, other.to_json()).to_json() == other.to_json()
    assert loads[0] == 1
    assert games.advance("paulista", state, None, other.to_json()).to_json() == other.to_json()
    assert loads[0] == 2


def test_a_move_on_the_held_version_copies_its_game_and_leaves_the_held_one_as_it_was(loads):
    tables = Tables(MemoryRepository(), clock=Clock())
    code = playing_table(tables)
    held = tables.snapshot(code)
    held_text = held.state.to_json()
    before = loads[0]
    moved = play_one(tables, code, known=held)
    assert loads[0] == before                        # no replay of the log
    assert held.state.to_json() == held_text
    assert moved.state.to_json() == tables.snapshot(code).state.to_json()
    assert moved.version == held.version + 1


def test_a_change_heard_of_is_one_query_and_the_held_game_advanced(loads):
    repo = CountingRepository()
    here, elsewhere = Tables(repo, clock=Clock()), Tables(repo, clock=Clock())
    code = playing_table(here)
    held = here.snapshot(code)
    held.state  # noqa: B018  # the service holds it loaded
    play_one(elsewhere, code)                        # another replica's move
    play_one(elsewhere, code)
    reads, before = repo.presence_reads, loads[0]
    snap = here.reload(code, held)
    assert (repo.presence_reads, loads[0]) == (reads, before)
    assert snap.version == held.version + 2
    assert snap.state.to_json() == here.snapshot(code).state.to_json()
    assert snap.presence == held.presence and snap.presence is not held.presence


def test_a_table_not_in_play_is_read_whole_with_its_presence():
    repo = CountingRepository()
    tables = Tables(repo, clock=Clock())
    code = tables.create("paulista", "ana", "Ana", seed=2)
    held = tables.snapshot(code)
    tables.join(code, "bia", "Bia", 1)
    reads = repo.presence_reads
    snap = tables.reload(code, held)
    assert repo.presence_reads == reads + 1
    assert snap.seat_of("bia") == 1


@pytest.mark.postgres
def test_on_postgresql_an_answer_batch_is_one_statement_and_keeps_its_order(postgres_url):
    from classroom.store import PooledPostgresStore
    store = PooledPostgresStore(postgres_url, 2)
    try:
        store.migrate(MIGRATIONS)
        ana = Learner("hub:ana", "Ana", "")
        record(store, ana, "manilhas", [True])
        before = store.queries
        record(store, ana, "manilhas", [False, True, False, False])
        assert store.queries == before + 1
        counts = learner_progress(store, ana.key)["manilhas"]
        assert (counts["right"], counts["asked"]) == (2, 5)
        with store.transaction(write=False) as tx:
            rows = tx.execute("SELECT correct FROM answers WHERE learner_id = ? ORDER BY id", (ana.key,)).fetchall()
            seen = tx.execute("SELECT name FROM learners WHERE id = ?", (ana.key,)).fetchone()
        assert [r[0] for r in rows] == [1, 0, 1, 0, 0]
        assert seen[0] == "Ana"
    finally:
        store.close()


def test_an_answer_is_the_json_value_json_writes_in_utf8():
    """`encode_answer` (orjson when installed) writes what json.dumps(ensure_ascii=False)
    writes, as a reader parses it: texts in Portuguese, keys that are not texts, nested lists;
    an integer orjson does not write is left to json."""
    import json

    from classroom.service import encode_answer
    value = {"pt": "Você não está sentado nesta mesa: ação, truco!", "en": "You are not seated",
             "counts": {1: 2, 3: [4.5, None, True]}, "nested": [[{"a": ""}]], "big": 10**30}
    text = encode_answer(value)
    assert isinstance(text, bytes)
    assert json.loads(text) == json.loads(json.dumps(value, ensure_ascii=False))
    del value["big"]
    assert json.loads(encode_answer(value)) == json.loads(json.dumps(value, ensure_ascii=False))
    assert "ação".encode() in encode_answer(value)            # UTF-8, not \\u escapes


def test_a_tables_answers_are_not_encoded_by_json_when_orjson_is_there(monkeypatch, tmp_path):
    """Every long-poll answer is one seat's view encoded (issue 35, item 5): by orjson, some
    ten times faster than json.dumps, which encodes none of a table's answers here."""
    pytest.importorskip("orjson")
    import json as real_json

    from test_remote_tables import RunningService, tables_of

    import classroom.service as service_module

    class CountingJson:
        dumps_calls = 0

        def __getattr__(self, name):
            return getattr(real_json, name)

        def dumps(self, *args, **kwargs):
            CountingJson.dumps_calls += 1
            return real_json.dumps(*args, **kwargs)
    running = RunningService(str(tmp_path / "service.db"))
    try:
        monkeypatch.setattr(service_module, "json", CountingJson())
        ana = tables_of(running, "ana").classroom
        view = ana.create_table("paulista", pace=0.2)
        view = ana.start(view["code"])
        code = view["code"]
        while view["current_seat"] != 0:              # the bot's turn: a long poll answers it
            view = ana.watch(code, view["version"], 5.0)
        moved = ana.move(code, view["legal"][0]["action"], view["version"])
        assert moved["version"] == view["version"] + 1
        assert ana.table(code)["version"] >= moved["version"]
    finally:
        running.stop()
    assert CountingJson.dumps_calls == 0


class CountingLoop(asyncio.SelectorEventLoop):
    """An event loop counting the futures and timers made on it."""

    futures = 0
    timers = 0

    def create_future(self):
        CountingLoop.futures += 1
        return super().create_future()

    def call_at(self, when, callback, *args, context=None):
        CountingLoop.timers += 1
        return super().call_at(when, callback, *args, context=context)


def test_a_long_poll_is_one_future_and_one_timer_woken_or_timed_out(tmp_path):
    """A page's long poll (`Service.register`, `Service.wait`) makes its waiter's future and
    one timer, whether a change wakes it or its time is up (issue 35, item 5: wait_for and
    shield made two futures more per poll); it answers as before: the new version, None
    after its time, and nothing is left waiting."""
    from classroom.service import Classes, Service, open_store

    async def main():
        store, listen, workers = open_store(str(tmp_path / "service.db"), 3)
        service = Service(Classes(store, workers), hub=None, listen=listen)  # type: ignore[arg-type]
        service.loop = asyncio.get_running_loop()
        try:
            tables = service.classes.tables
            code = await service.classes.run(lambda: tables.create("paulista", "hub:ana", "ana"))
            held = await service.classes.run(tables.snapshot, code)
            newer = await service.classes.run(lambda: tables.join(code, "hub:bia", "bia", 1))
            counts = []
            for publish, timeout in ((True, 5.0), (False, 0.05)):
                before = CountingLoop.futures, CountingLoop.timers
                waiting = service.register(code, held.version)
                if publish:
                    service.loop.call_soon(service.publish, newer)
                woken = await service.wait(code, waiting, timeout)
                counts.append((CountingLoop.futures - before[0], CountingLoop.timers - before[1]))
                assert woken is (newer if publish else None)
                assert code not in service.waiters
            return counts
        finally:
            store.close()

    def run():
        loop = CountingLoop()
        try:
            return loop.run_until_complete(main())
        finally:
            loop.close()

    # on a thread of its own: on a worker that ran a browser test, Playwright's sync API (the
    # session's browser) has its loop running on the main thread, which refuses a second one
    # ("Cannot run the event loop while another loop is running")
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        assert thread.submit(run).result(timeout=60) == [(1, 1), (1, 1)]
