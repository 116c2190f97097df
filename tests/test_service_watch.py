"""The class service's watch path kept cheap (issue 22, item 5: a move reaches the other seats'
pages fast): a learner's move is one store transaction, the sweep reads the presence of every
table in play in one query, and the service measures each step of a move's way.

No hub here: the service's store side runs in this process (tests/hub drives the real thing).
"""
from __future__ import annotations

import asyncio
import time

import pytest

from classroom import games
from classroom.games import TableError
from classroom.service import Classes, Service, Stages, open_store
from classroom.tables import MemoryRepository, Tables

from loops import run_async


class CountingRepository(MemoryRepository):
    """The in-memory repository, naming each call made to it."""

    def __init__(self):
        super().__init__()
        self.calls: list[str] = []

    def load(self, code):
        self.calls.append("load")
        return super().load(code)

    def presence(self, code):
        self.calls.append("presence")
        return super().presence(code)

    def touch(self, code, learner, at):
        self.calls.append("touch")
        super().touch(code, learner, at)

    def save(self, code, expected_version, record, archived=False):
        self.calls.append("save")
        return super().save(code, expected_version, record, archived)


def _four_at_a_table(tables: Tables) -> str:
    code = tables.create("paulista", "hub:ana", "ana", seed=5)
    for seat, name in enumerate(["bia", "cora", "duda"], start=1):
        tables.join(code, f"hub:{name}", name, seat)
    tables.start(code, "hub:ana")
    return code


def _a_play(snap) -> tuple[str, str]:
    seat = snap.state.current_seat
    legal = games.legal_actions(snap.state, seat)
    move = next((a for a in legal if a.kind == "play"), legal[0])
    return snap.sitters[seat]["id"], str(move)


def test_a_move_on_the_version_the_service_holds_is_one_save_and_leaves_that_snapshot_alone():
    repo = CountingRepository()
    tables = Tables(repo)
    code = _four_at_a_table(tables)
    held = tables.snapshot(code)
    hands_before = [list(h) for h in held.state.hands]
    who, move = _a_play(held)
    repo.calls.clear()
    moved = tables.move(code, who, move, held.version, known=held, touch=False)
    assert repo.calls == ["save"]          # no load, no presence read, no presence write
    assert moved.version == held.version + 1 and moved.record["last"]["action"] == move
    assert moved.presence[who] >= held.record["moved_at"]   # the move still counts as her presence
    assert [list(h) for h in held.state.hands] == hands_before  # what the watchers hold is unchanged
    assert tables.snapshot(code).record == moved.record


def test_a_move_on_a_held_snapshot_the_table_has_left_is_refused_and_changes_nothing():
    tables = Tables(MemoryRepository())
    code = _four_at_a_table(tables)
    held = tables.snapshot(code)
    who, move = _a_play(held)
    tables.move(code, who, move, held.version)        # the table moves on (another replica)
    after = tables.snapshot(code)
    with pytest.raises(TableError) as refused:     # the same move sent again, on what was held
        tables.move(code, who, move, held.version, known=held, touch=False)
    assert refused.value.code == "moved_on"
    assert tables.snapshot(code).version == after.version


async def _sweep(location: str) -> tuple[int, int, list[int], list[int]]:
    store, listen, workers = open_store(location, 3)
    service = Service(Classes(store, workers), hub=None, listen=listen)  # type: ignore[arg-type]
    try:
        tables = service.classes.tables
        codes = [await service.classes.run(_four_at_a_table, tables) for _ in range(5)]
        for code in codes:
            service.publish(await service.classes.run(tables.snapshot, code))
            service.active[code] = time.monotonic()
        before = [service.snaps[c].version for c in codes]
        tables.clock = lambda: time.time() + 3600   # an hour later: every learner is away
        transactions = 0
        opened = store.transaction

        def counting(*args, **kwargs):
            nonlocal transactions
            transactions += 1
            return opened(*args, **kwargs)
        store.transaction = counting  # type: ignore[method-assign]
        await service.sweep_once()
        store.transaction = opened  # type: ignore[method-assign]
        # each of the five tables had its away seat moved by a bot: the table read again (its
        # record, its presence) and saved, three transactions each
        bot_moves = 5 * 3
        return transactions, bot_moves, before, [service.snaps[c].version for c in codes]
    finally:
        store.close()


def test_the_sweep_reads_the_presence_of_every_table_in_play_in_one_query(tmp_path):
    transactions, bot_moves, before, after = run_async(_sweep(str(tmp_path / "cartas.db")))
    assert after == [v + 1 for v in before]       # the away seats were played by the bots
    assert transactions == 1 + bot_moves          # one presence query for the five tables


def test_the_service_keeps_each_steps_recent_times_and_their_percentiles():
    stages = Stages()
    for ms in range(1, 101):
        stages.add("move_store", ms / 1000)
    stages.add("wake_answer", 0.004)
    summary = stages.summary()
    assert summary["move_store"] == {"n": 100, "p50_ms": 51.0, "p95_ms": 96.0}
    assert summary["wake_answer"]["n"] == 1 and summary["wake_answer"]["p95_ms"] == 4.0
    for _ in range(Stages.KEEP + 10):
        stages.add("loop_lag", 0.0)
    assert stages.summary()["loop_lag"]["n"] == Stages.KEEP   # bounded


# The hub's answers about tokens, cached ------------------------------------------------------
class FakeHubApi:
    """A hub API on 127.0.0.1 that knows some tokens (`GET /hub/api/user`, as HubAuth asks),
    answering each after `delay` s and counting the questions per token."""

    def __init__(self, users: dict[str, str], delay: float = 0.2):
        self.users, self.delay = users, delay
        self.asked: dict[str, int] = {}

    async def start(self) -> str:
        from tornado import web
        from tornado.httpserver import HTTPServer
        from tornado.netutil import bind_sockets
        api = self

        class User(web.RequestHandler):
            async def get(self):
                token = self.request.headers.get("Authorization", "").split()[-1]
                api.asked[token] = api.asked.get(token, 0) + 1
                await asyncio.sleep(api.delay)
                name = api.users.get(token)
                if name is None:
                    self.set_status(403)
                    self.finish("{}")
                else:
                    self.finish({"kind": "user", "name": name, "admin": False, "groups": []})
        sockets = bind_sockets(0, "127.0.0.1")
        self.server = HTTPServer(web.Application([(r"/hub/api/user", User)]))
        self.server.add_sockets(sockets)
        return f"http://127.0.0.1:{sockets[0].getsockname()[1]}/hub/api"

    def stop(self) -> None:
        self.server.stop()


async def _token_checks() -> dict:
    from classroom.service import CACHE_SECONDS, Hub
    api = FakeHubApi({"tok-ana": "ana", "tok-bia": "bia"})
    url = await api.start()
    now = [1000.0]
    hub = Hub(api_url=url, api_token="service-token", clock=lambda: now[0])
    try:
        out: dict = {}
        together = await asyncio.gather(*(hub.user_for_token("tok-ana") for _ in range(5)),
                                        hub.user_for_token("nobody"), hub.user_for_token("nobody"))
        out["together"] = [m and m["name"] for m in together]
        out["asked_together"] = dict(api.asked)
        began = time.monotonic()
        now[0] += CACHE_SECONDS * 0.4            # fresh: the hub is not asked again
        out["fresh"] = (await hub.user_for_token("tok-ana"))["name"]
        out["asked_fresh"] = api.asked["tok-ana"]
        now[0] += CACHE_SECONDS * 0.4            # 0.8 of its age: answered at once, re-checked behind
        api.users.pop("tok-ana")                 # ... and meanwhile the hub revoked it
        out["refreshing"] = (await hub.user_for_token("tok-ana"))["name"]
        out["refresh_waited"] = time.monotonic() - began
        await asyncio.sleep(api.delay * 3)
        out["asked_refresh"] = api.asked["tok-ana"]
        out["after_refresh"] = await hub.user_for_token("tok-ana")
        await hub.user_for_token("tok-bia")
        now[0] += CACHE_SECONDS + 1              # past its age, an answer is never used
        api.users.pop("tok-bia")
        out["expired"] = await hub.user_for_token("tok-bia")
        out["asked_bia"] = api.asked["tok-bia"]
        return out
    finally:
        api.stop()


def test_hub_token_checks_are_shared_cached_refreshed_behind_and_expire():
    out = run_async(_token_checks())
    assert out["together"] == ["ana"] * 5 + [None, None]
    assert out["asked_together"] == {"tok-ana": 1, "nobody": 1}   # one question per token at a time
    assert out["fresh"] == "ana" and out["asked_fresh"] == 1
    assert out["refreshing"] == "ana" and out["refresh_waited"] < 0.15   # not kept waiting on the hub
    assert out["asked_refresh"] == 2 and out["after_refresh"] is None   # the revocation is seen
    assert out["expired"] is None and out["asked_bia"] == 2
