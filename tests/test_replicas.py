"""The class service in replicas, for real on one machine (issue 35, item 3).

A real JupyterHub (tests/hub/hubkit.py) whose class service is externally managed: three
`python -m classroom.service` processes behind Debian's haproxy (round robin), their pools
through Debian's pgbouncer in transaction pooling, each one's LISTEN connection straight to
PostgreSQL (tests/hub/replicakit.py). Learners ask with their own hub tokens, through the hub's
proxy (then haproxy), or straight to one replica when a test needs to say which one.

Under CI=true a missing haproxy, pgbouncer, jupyterhub or hub proxy is a failure, never a skip.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "hub"))
import hubkit
import replicakit

pytestmark = [pytest.mark.hub, pytest.mark.postgres, pytest.mark.xdist_group("replicas")]

QUIZ = [f"q{i:02d}" for i in range(40)]      # the 40 learners answering at once
LEARNERS = ["ana", "bia", *QUIZ]
COUNT = 3


def _missing(problem: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(problem)
    pytest.skip(problem)


@pytest.fixture(scope="module")
def district(postgres_server):
    """(hub, replicas, tokens): the hub, three replicas behind haproxy, every user's token."""
    problem = hubkit.missing() or replicakit.missing()
    if problem:
        _missing(problem)
    import psycopg
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute('DROP DATABASE IF EXISTS "cartas_replicas" WITH (FORCE)')
        conn.execute('CREATE DATABASE "cartas_replicas"')
    database = postgres_server.rsplit("/", 1)[0] + "/cartas_replicas"
    folder = Path(tempfile.mkdtemp(prefix="cartas-replicas-"))
    hub = hubkit.Hub(folder / "hub", database, learners=LEARNERS, spawn=False)
    replicas = replicakit.Replicas(folder / "replicas", database, {}, count=COUNT, pool_size=4)
    hub.external_url = replicas.url
    replicas.environment = hub.service_environment()
    try:
        replicas.start()
        hub.start()
        tokens = {user: hub.token_for(user) for user in [*LEARNERS, "tereza"]}
        yield hub, replicas, tokens
    finally:
        hub.stop()
        replicas.stop()
        for index in range(COUNT):
            log = folder / "replicas" / f"replica-{index}.log"
            if log.exists() and "Traceback" in log.read_text(errors="replace"):
                print(f"replica {index}'s log:\n{log.read_text(errors='replace')[-4000:]}")
        shutil.rmtree(folder, ignore_errors=True)
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute('DROP DATABASE IF EXISTS "cartas_replicas" WITH (FORCE)')


def call(base: str, token: str, method: str, path: str, body: dict | None = None,
         timeout: float = 40.0) -> tuple[int, dict, str]:
    """(status, JSON answer, the replica that answered) of one request with a hub token. An
    answer 503 "hub_down" (the hub took longer than the service's HUB_TIMEOUT to check the token,
    on a loaded test machine; nothing was done) is asked again, as a page says to, up to
    HUB_RETRIES times."""
    for _ in range(HUB_RETRIES):
        answer = _call_once(base, token, method, path, body, timeout)
        if answer[0] != 503 or answer[1].get("error") != "hub_down":
            return answer
    return answer


HUB_RETRIES = 3


def _call_once(base: str, token: str, method: str, path: str, body: dict | None,
               timeout: float) -> tuple[int, dict, str]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, method=method,
                                     headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read()), response.headers.get("X-Cartas-Replica", "")
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            value = json.loads(text)
        except ValueError:
            value = {"error": text[:200].decode(errors="replace")}
        return error.code, value, error.headers.get("X-Cartas-Replica", "")


def _table(hub, tokens, seats: dict[int, str], pace: float = 0.2) -> str:
    """A mano a mano truco table made through the hub, `seats` {seat: learner} seated, started
    (its learners away only after 600 s: no bot takes a seat of theirs while the tests run)."""
    creator = seats[0]
    status, made, _ = call(hub.service_url, tokens[creator], "POST", "api/tables",
                           {"game": "paulista", "seats": 2, "pace": pace, "timeout": 600})
    assert status == 200, made
    code = made["code"]
    for seat, who in seats.items():
        if seat:
            status, joined, _ = call(hub.service_url, tokens[who], "POST", f"api/tables/{code}/join", {"seat": seat})
            assert status == 200, joined
    status, started, _ = call(hub.service_url, tokens[creator], "POST", f"api/tables/{code}/start", {})
    assert status == 200, started
    return code


def _choice(view: dict) -> str:
    legal = [entry["action"] for entry in view["legal"]]
    return next((a for a in legal if a.startswith("play")), legal[0])


def look(base: str, token: str, code: str, known: int) -> tuple[int, dict, str]:
    """A page's look at a table it has seen at version `known`: a plain look is answered from
    the replica's cache, which may lag a change made through another replica by its
    notification's delay (milliseconds), so, as a page's client keeps the newest version it has
    seen (classroom.remote_tables), the look asks for a version no older than `known`."""
    return call(base, token, "GET", f"api/tables/{code}?after={known - 1}&wait=10")


def started(base: str, token: str, code: str) -> dict:
    """The first look at a table just started, through `base`: a plain look is that replica's
    cache, which may not have heard of the start yet (its notification's delay), so it asks
    again until the view has a seat to play (10 s at most)."""
    deadline = time.monotonic() + 10
    while True:
        status, view, _ = call(base, token, "GET", f"api/tables/{code}")
        if status == 200 and view.get("current_seat") is not None or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert status == 200 and view.get("current_seat") is not None, view
    return view


def _full(base: str, token: str, code: str, known: int = 0) -> dict:
    """The table's whole log as a spectator reads it, no older than version `known` (see `look`)."""
    newer = f"&after={known - 1}&wait=10" if known > 0 else ""
    status, view, _ = call(base, token, "GET", f"api/tables/{code}?events_since=0&events_seat=none{newer}")
    assert status == 200, view
    return view


def test_a_tables_moves_go_through_alternating_replicas_each_applied_once(district):
    hub, replicas, tokens = district
    seats = {0: "ana", 1: "bia"}
    code = _table(hub, tokens, seats)
    movers = []
    view = started(hub.service_url, tokens["ana"], code)
    first, turn = view["version"], view["current_seat"]
    known = first
    for _ in range(12):
        # who is to play asks for her view through the hub (then haproxy), and plays on it
        who = seats[turn]
        status, view, _ = look(hub.service_url, tokens[who], code, known)
        assert status == 200, view
        if view["status"] != "playing":
            break
        status, moved, replica = call(hub.service_url, tokens[who], "POST", f"api/tables/{code}/move",
                                      {"action": _choice(view), "version": view["version"]})
        assert status == 200, moved
        assert moved["version"] == view["version"] + 1
        movers.append(replica)
        turn, known = moved["current_seat"], moved["version"]
    assert len(movers) >= 8
    assert set(movers) == {f"r{i}" for i in range(COUNT)}, movers     # every replica applied some
    assert sum(a != b for a, b in zip(movers, movers[1:])) >= len(movers) // 2, movers
    final = _full(hub.service_url, tokens["ana"], code, known)
    assert final["version"] == first + len(movers)                     # none lost, none twice


def test_a_page_waiting_on_one_replica_sees_a_move_made_through_another(district):
    hub, replicas, tokens = district
    seats = {0: "ana", 1: "bia"}
    code = _table(hub, tokens, seats)
    view = started(replicas.replica_url(1), tokens["ana"], code)
    mover = seats[view["current_seat"]]
    watcher = seats[1 - view["current_seat"]]
    version = view["version"]
    woke: dict = {}

    def wait() -> None:
        began = time.monotonic()
        woke["status"], woke["view"], woke["replica"] = call(
            replicas.replica_url(0), tokens[watcher], "GET", f"api/tables/{code}?after={version}&wait=25")
        woke["seconds"] = time.monotonic() - began
    status, _, replica = call(replicas.replica_url(0), tokens[watcher], "GET", f"api/tables/{code}")
    assert status == 200 and replica == "r0"        # her page's first look, on r0
    waiting = threading.Thread(target=wait)
    waiting.start()
    deadline = time.monotonic() + 30
    while replicas.health(0)["waiting"] < 1:       # the page waits on replica r0 now
        assert time.monotonic() < deadline and waiting.is_alive(), woke
        time.sleep(0.05)
    status, mine, _ = call(replicas.replica_url(1), tokens[mover], "GET", f"api/tables/{code}")
    began = time.monotonic()
    status, moved, replica = call(replicas.replica_url(1), tokens[mover], "POST", f"api/tables/{code}/move",
                                  {"action": _choice(mine), "version": mine["version"]})
    assert status == 200 and replica == "r1", moved
    waiting.join(30)
    assert woke["status"] == 200 and woke["replica"] == "r0"
    assert woke["view"]["version"] == version + 1                       # the move made on r1
    assert woke["seconds"] < 25 and time.monotonic() - began < 5        # woken by r0's LISTEN, not its timeout


def test_a_bot_moves_exactly_once_while_every_replica_watches_its_table(district):
    hub, replicas, tokens = district
    code = _table(hub, tokens, {0: "ana"}, pace=0.2)                   # seat 1: a bot
    before = [replicas.health(i) for i in range(COUNT)]
    stop = threading.Event()

    def watch(index: int) -> None:      # a page of ana's waiting on each replica: all of them watch it
        version = 0
        while not stop.is_set():
            status, view, _ = call(replicas.replica_url(index), tokens["ana"], "GET",
                                   f"api/tables/{code}?after={version}&wait=3")
            if status == 200:
                version = view["version"]
    watchers = [threading.Thread(target=watch, args=(i,), daemon=True) for i in range(COUNT)]
    for thread in watchers:
        thread.start()
    mine, known = 0, 1
    try:
        deadline = time.monotonic() + 60
        while mine < 6 and time.monotonic() < deadline:
            status, view, _ = look(hub.service_url, tokens["ana"], code, known)
            known = max(known, view["version"])
            if view["status"] != "playing":
                break
            if view["current_seat"] != 0:      # the bot's turn: wait for its move
                status, woke, _ = call(hub.service_url, tokens["ana"], "GET",
                                       f"api/tables/{code}?after={view['version']}&wait=10")
                known = max(known, woke.get("version", known)) if status == 200 else known
                continue
            status, moved, _ = call(hub.service_url, tokens["ana"], "POST", f"api/tables/{code}/move",
                                    {"action": _choice(view), "version": view["version"]})
            assert status == 200, moved
            mine, known = mine + 1, moved["version"]
        assert mine >= 3
        deadline = time.monotonic() + 15
        while True:     # the bot's move after her last one, once saved
            final = _full(hub.service_url, tokens["ana"], code, known)
            if final["current_seat"] == 0 or final["status"] != "playing" or time.monotonic() > deadline:
                break
            call(hub.service_url, tokens["ana"], "GET", f"api/tables/{code}?after={final['version']}&wait=5")
    finally:
        stop.set()
        for thread in watchers:
            thread.join(10)
    after = [replicas.health(i) for i in range(COUNT)]
    saved = sum(a["bot_moves"] - b["bot_moves"] for a, b in zip(after, before))
    versions = final["version"] - 1 - 1    # its creation is version 1, its start version 2
    assert saved == versions - mine > 0    # every other version is one bot move, saved by one replica
    assert final["current_seat"] == 0 or final["status"] != "playing"


def test_forty_live_answers_at_once_through_several_replicas_are_each_counted_once(district):
    hub, replicas, tokens = district
    teacher = tokens["tereza"]
    status, session, _ = call(hub.service_url, teacher, "POST", "api/live", {"class": hubkit.CLASS})
    assert status == 200, session
    code, host = session["code"], session["host_token"]
    with ThreadPoolExecutor(len(QUIZ)) as pool:
        joined = list(pool.map(lambda u: call(hub.service_url, tokens[u], "POST", f"api/live/{code}/join", {}), QUIZ))
    assert all(s == 200 for s, _, _ in joined), [v for s, v, _ in joined if s != 200][:3]
    question = {"lesson": "replicas", "prompt": {"pt": "Qual?", "en": "Which?"},
                "options": [{"pt": "a", "en": "a"}, {"pt": "b", "en": "b"}], "answer": 1,
                "why": {"pt": "porque", "en": "because"}}
    status, asked, _ = call(hub.service_url, teacher, "POST", f"api/live/{code}/ask",
                            {"host_token": host, "question": question, "seconds": 60})
    assert status == 200, asked
    number = asked["number"]
    gate = threading.Barrier(len(QUIZ))

    def answer(index_user):
        index, user = index_user
        gate.wait()          # all 40 at once, and each one twice, on two different replicas
        first = call(replicas.replica_url(index % COUNT), tokens[user], "POST", f"api/live/{code}/answer",
                     {"number": number, "choice": index % 2})
        again = call(replicas.replica_url((index + 1) % COUNT), tokens[user], "POST", f"api/live/{code}/answer",
                     {"number": number, "choice": 1})
        return first, again
    with ThreadPoolExecutor(len(QUIZ)) as pool:
        answers = list(pool.map(answer, enumerate(QUIZ)))
    assert all(first[0] == 200 for first, _ in answers), [f for f, _ in answers if f[0] != 200][:3]
    assert all(again[0] == 409 and again[1]["error"] == "already_answered" for _, again in answers)
    assert {first[2] for first, _ in answers} == {f"r{i}" for i in range(COUNT)}
    # the teacher closes it through two replicas at once: it closes once, and stays closed
    with ThreadPoolExecutor(2) as pool:
        closed = list(pool.map(lambda i: call(replicas.replica_url(i), teacher, "POST", f"api/live/{code}/close",
                                              {"host_token": host}), range(2)))
    assert all(s == 200 for s, _, _ in closed)
    status, board, _ = call(hub.service_url, teacher, "GET", f"api/live/{code}/board")
    assert status == 200 and board["answered"] == len(QUIZ) and board["open"] is False
    assert board["counts"] == [len(QUIZ) // 2, len(QUIZ) // 2]           # each answer once, its first choice
    late = call(hub.service_url, tokens[QUIZ[0]], "POST", f"api/live/{code}/answer", {"number": number, "choice": 0})
    assert late[0] == 409


def test_the_pools_go_through_pgbouncer_in_transaction_mode_and_listen_straight(district, postgres_server):
    import psycopg
    hub, replicas, tokens = district
    code = _table(hub, tokens, {0: "ana", 1: "bia"})
    with ThreadPoolExecutor(8) as pool:   # the same statements, many times, over server connections lent in turn
        looks = list(pool.map(lambda _: call(hub.service_url, tokens["ana"], "GET", f"api/tables/{code}"), range(60)))
    assert all(status == 200 for status, _, _ in looks)
    admin = replicas.pooled_url.rsplit("/", 1)[0] + "/pgbouncer"
    with psycopg.connect(admin, autocommit=True, cursor_factory=psycopg.ClientCursor) as conn:
        pools = conn.execute("SHOW POOLS").fetchall()
        columns = [c.name for c in conn.cursor().execute("SHOW POOLS").description]
        clients = conn.execute("SHOW CLIENTS").fetchall()
        client_columns = [c.name for c in conn.cursor().execute("SHOW CLIENTS").description]
    mode = columns.index("pool_mode")
    ours = [row for row in pools if row[columns.index("database")] == "cartas_replicas"]
    assert ours and all(row[mode] == "transaction" for row in ours)
    names = [row[client_columns.index("application_name")] for row in clients
             if row[client_columns.index("database")] == "cartas_replicas"]
    assert names.count("cartas-service") >= COUNT           # every replica's pool, through PgBouncer
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        listening = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = 'cartas_replicas' "
                                 "AND application_name = 'cartas-listen' AND query LIKE 'LISTEN%'").fetchone()[0]
    assert listening == COUNT                                # one LISTEN each, straight to PostgreSQL


def move_through_a_district(hub, tokens, seats: dict[int, str], code: str, known: int) -> int:
    """One move of the seat to play, through the hub, while replicas may die: the version it
    made. A move not answered 200 was sent twice (haproxy retried it elsewhere: the first one
    counted, the second refused "moved_on"), or saved by a replica killed before it answered:
    the table says whether it went through (only these moves change it). A look newer than
    `known` says an earlier try went through, its answer and its check both lost to the dying
    replica: that try is this move, and no other is made."""
    for _ in range(20):
        status, view, _ = look(hub.service_url, tokens[seats[0]], code, known)
        if status != 200:      # the dead replica, before haproxy knows
            time.sleep(0.1)
            continue
        if view["version"] > known:
            return view["version"]
        who = seats[view["current_seat"]]
        status, view, _ = look(hub.service_url, tokens[who], code, known)
        if status != 200:
            continue
        status, moved, _ = call(hub.service_url, tokens[who], "POST", f"api/tables/{code}/move",
                                {"action": _choice(view), "version": view["version"]})
        if status == 200:
            return moved["version"]
        checked, after, _ = look(hub.service_url, tokens[seats[0]], code, view["version"])
        if checked == 200 and after["version"] == view["version"] + 1:
            return after["version"]
        time.sleep(0.1)
    raise AssertionError(f"no move went through: {status} {moved}")


def test_a_replica_killed_mid_game_the_game_goes_on_no_move_lost_or_twice(district):
    hub, replicas, tokens = district
    seats = {0: "ana", 1: "bia"}
    code = _table(hub, tokens, seats)
    first = _full(hub.service_url, tokens["ana"], code)["version"]
    made, known = 0, first

    def one_move() -> None:
        nonlocal made, known
        known = move_through_a_district(hub, tokens, seats, code, known)
        made += 1
    for _ in range(4):
        one_move()
    # a page of bia's waits on the replica about to die
    dying = 2
    status, view, _ = call(replicas.replica_url(dying), tokens["bia"], "GET", f"api/tables/{code}")
    def wait_there() -> None:
        try:
            call(replicas.replica_url(dying), tokens["bia"], "GET",
                 f"api/tables/{code}?after={view['version']}&wait=20")
        except OSError:   # its replica is gone: the page asks again (through haproxy, another one)
            pass
    waiting = threading.Thread(target=wait_there, daemon=True)
    waiting.start()
    replicas.kill(dying)
    try:
        for _ in range(8):
            one_move()
        final = _full(hub.service_url, tokens["ana"], code, known)
        assert final["version"] == first + made == first + 12         # every move once: none lost, none twice
        for index in range(COUNT):
            if index != dying:
                assert replicas.health(index)["ok"]
    finally:
        replicas.start_replica(dying)     # the later tests have all three again
        replicas.wait_ready(dying)


def test_a_watch_stream_whose_replica_is_killed_goes_on_through_another_nothing_lost_or_twice(district):
    """Issue 35: a page's watch stream (classroom.remote_tables) broken with its replica opens
    again through haproxy, from the last version it saw: it reaches every later version, its
    log the table's own (no event lost or taken twice)."""
    from classroom.remote import RemoteClassroom
    from classroom.remote_tables import RemoteTables

    from loops import run_async
    hub, replicas, tokens = district
    seats = {0: "ana", 1: "bia"}
    code = _table(hub, tokens, seats)
    known = _full(hub.service_url, tokens["ana"], code)["version"]
    watcher = RemoteTables(RemoteClassroom(hub.service_url, tokens["q01"], "q01")).client(code, "hub:q01")

    async def follow(version: int) -> None:
        for _ in range(40):
            if watcher.snap.version >= version:
                break
            await watcher.wait_for_change(5.0)
            try:
                watcher.tick()
            except Exception:    # a stream opened on the dead replica before haproxy knew: again
                pass
        assert watcher.snap.version == version
    for _ in range(3):
        known = move_through_a_district(hub, tokens, seats, code, known)
        run_async(follow(known))
    assert watcher.streams == 1 and watcher.replica
    dying = int(watcher.replica[1:])                    # the replica its stream comes from
    replicas.kill(dying)
    try:
        for _ in range(6):
            known = move_through_a_district(hub, tokens, seats, code, known)
        run_async(follow(known))
        assert watcher.streams >= 2 and watcher.replica != f"r{dying}"
        log = _full(hub.service_url, tokens["q01"], code, known)["events"]   # a spectator's, as hers
        assert watcher.snap.view["events"] == log[watcher.snap.view["events_from"]:]
    finally:
        watcher.stop_watching()
        replicas.start_replica(dying)     # the later tests have all three again
        replicas.wait_ready(dying)
        replicas.wait_all_up()


def test_with_table_affinity_every_request_about_a_table_reaches_one_replica(postgres_server):
    """`balance="table"` (deploy/jupyterhub/README.md, "Table affinity"; benchmarks/school.py
    --balance table): haproxy hashes the path up to the table's code, so a table's looks, long
    polls and moves reach one replica, and different tables spread over them. Asked without a
    token (401): which replica answered is all this checks."""
    problem = replicakit.missing()
    if problem:
        _missing(problem)
    folder = Path(tempfile.mkdtemp(prefix="cartas-affinity-"))
    # no hub is asked: a request without a token is refused before the hub is
    hub = {"JUPYTERHUB_API_URL": "http://127.0.0.1:9/hub/api", "JUPYTERHUB_API_TOKEN": "unused",
           "JUPYTERHUB_SERVICE_PREFIX": replicakit.PREFIX}
    import psycopg
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute('DROP DATABASE IF EXISTS "cartas_affinity" WITH (FORCE)')
        conn.execute('CREATE DATABASE "cartas_affinity"')
    database = postgres_server.rsplit("/", 1)[0] + "/cartas_affinity"
    replicas = replicakit.Replicas(folder, database, hub, count=2, pool_size=2, pgbouncer=False, balance="table")
    try:
        replicas.start()

        def replica(path: str, method: str = "GET") -> str:
            request = urllib.request.Request(f"{replicas.url}{replicakit.PREFIX}{path}", method=method,
                                             data=b"{}" if method == "POST" else None)
            try:
                urllib.request.urlopen(request, timeout=10)
            except urllib.error.HTTPError as error:
                assert error.code == 401
                return error.headers["X-Cartas-Replica"]
            raise AssertionError("answered without a token")
        codes = [f"T{i:04d}" for i in range(12)]
        for code in codes:
            asked = {replica(f"api/tables/{code}"), replica(f"api/tables/{code}?after=3&wait=0"),
                     replica(f"api/tables/{code}?after=9&wait=0&events_since=4&events_seat=1"),
                     replica(f"api/tables/{code}/move", "POST"), replica(f"api/tables/{code}/join", "POST")}
            assert len(asked) == 1, (code, asked)
        assert len({replica(f"api/tables/{code}") for code in codes}) == 2
    finally:
        replicas.stop()
        shutil.rmtree(folder, ignore_errors=True)
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute('DROP DATABASE IF EXISTS "cartas_affinity" WITH (FORCE)')
