"""A school on JupyterHub: 200 learners, each an HTTP client of the class service with her own
hub token, record progress and play truco at 50 tables on PostgreSQL.

Starts a real JupyterHub on 127.0.0.1 (tests/hub/hubkit.py: DummyAuthenticator, the class
service hub-managed with its pool, no learner servers: the learners here are simulated
kernels) and a throwaway PostgreSQL (or uses --database). Every learner gets a hub token of
her own, so every request goes through the service's token check, as a learner's kernel does.
Learners go through the hub's proxy (`/services/cartas/`), as in the deployment.

Each learner (in one of --processes asyncio processes, a table's four in the same one; no
gzip asked, as a kernel's urllib asks none): every ~ANSWER_EVERY s records 1 to 3 answers; at
her table (four learners, truco paulista, no bots) she watches the table as a kernel's page
does (`--watch stream`, the default: one watch stream, `api/tables/CODE/watch`, reopened from
the last version seen when it ends or breaks; `--watch poll`: one long poll per version, as
pages did before issue 35's stream) and, when it is her turn, thinks THINK s and plays; like a
kernel's page, she says which events she holds, so each answer carries only the new ones. A
finished game is followed by a new table for the same four. For every move, the time from
sending it to each other seat's watch receiving that version is one latency sample.

    .venv/bin/python benchmarks/school.py [--learners 200] [--seconds 120] [--pool 8] [--processes 4]
        [--database URL] [--direct] [--replicas N] [--balance roundrobin|table] [--watch stream|poll]

Prints: answers sent vs stored (lost, duplicated), peak PostgreSQL connections of the service
vs its pool, the p50/p95 move-to-other-seats latency, the service's CPU and memory (and its
CPU per move and per long-poll answer, a watch stream's view line counting as one answer:
the process's CPU time over the run divided by each count, the figures
deploy/jupyterhub/README.md's capacity table is derived from), and
database queries (and transactions) per second; then where a move's time went: the mover's
own answer, the clients' loop lateness, and the service's steps (`/health` "stages": auth,
queue and store of a move, a woken page's answer, the service loop's lateness).

With `--replicas N` (N >= 2; issue 35, item 5) the class service is externally managed
instead, as a district runs it: N `python -m classroom.service` processes (each `--pool-size
POOL`) behind Debian's haproxy (round robin; with --balance table, a table's requests to one
replica, hashed on the path up to its code), their pools through Debian's pgbouncer in
transaction pooling and each one's LISTEN connection straight to PostgreSQL
(tests/hub/replicakit.py's `Replicas`). Learners still go through the hub's proxy (with
--direct, to haproxy). The service's CPU is then the sum over the N processes
(`psutil.Process(pid).cpu_times()` of each), divided by the same counts, and its memory the
sum of each one's peak; queries per second and the stages are each replica's `/health`
(queries summed); the answers' `X-Cartas-Replica` header says how many each replica gave;
peak PostgreSQL connections are all of the database's (PgBouncer's and the LISTEN ones).
Moves are checked too: no version of a table answered to two moves, and each table's stored
version is where its start and its answered moves left it (`moves_off`: a move applied twice,
or applied and never answered, shows there).
"""
from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import pwd
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))   # serving_ports
sys.path.insert(0, str(ROOT / "tests" / "hub"))

ANSWER_EVERY = 3.0
THINK = (0.3, 1.0)
WAIT = 20.0


# A throwaway PostgreSQL ------------------------------------------------------------------------
def start_postgres(folder: Path) -> tuple[str, list[str], Path, Path]:
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[-2]))
    found = shutil.which("initdb")
    bindir = Path(found).resolve().parent if found and shutil.which("pg_ctl") else (Path(dirs[-1]) if dirs else None)
    if bindir is None:
        sys.exit("PostgreSQL not found: install Debian's postgresql (make postgres), or pass --database")
    run_as: list[str] = []
    if os.geteuid() == 0:
        entry = pwd.getpwnam("postgres")
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    from hubkit import free_port
    port, data = free_port(), folder / "data"
    subprocess.run([*run_as, str(bindir / "initdb"), "-D", str(data), "-U", "cartas", "--auth=trust",
                    "-E", "UTF8", "--no-locale", "--no-sync"], check=True, capture_output=True)
    subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "pg.log"), "-o",
                    f"-k {folder} -h 127.0.0.1 -p {port} -c fsync=off -c max_connections=100", "-w", "start"],
                   check=True, capture_output=True)
    return f"postgresql://cartas@127.0.0.1:{port}/postgres", run_as, bindir, data


def stop_postgres(run_as, bindir, data) -> None:
    subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                   capture_output=True)


def _numeric_resolver():
    import socket

    from tornado.netutil import Resolver

    class Numeric(Resolver):
        """The service's address is numeric (127.0.0.1): no resolver thread per request."""
        async def resolve(self, host, port, family=socket.AF_UNSPEC):
            return [(socket.AF_INET, (host, port))]
    return Numeric()


# The simulated school --------------------------------------------------------------------------
class Watch:
    """A seat's watch stream of one table, as a kernel's client keeps it
    (classroom.remote_tables): its view lines are queued as they come (with the time each
    arrived), and when the stream ends or breaks another is opened from the last version seen."""

    def __init__(self, school: School, user: str, code: str, view: dict):
        self.school, self.user, self.code = school, user, code
        self.version = view["version"]
        self.held = held(view)
        self.page = f"{abs(hash((user, code))) % 2**60:x}"   # its own moves' versions come in their answers
        self.queue: asyncio.Queue = asyncio.Queue()
        self.buffer = b""
        self.task = asyncio.ensure_future(self.run())

    def received(self, chunk: bytes) -> None:
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        now = time.monotonic()
        for line in lines:
            if not line.strip():
                self.school.keepalives += 1
                continue
            view = json.loads(line)
            self.version = view["version"]
            self.held = held(view)
            self.queue.put_nowait((view, now))

    async def run(self) -> None:
        school = self.school
        while time.monotonic() < school.until:
            self.buffer = b""
            school.streams += 1
            query = (f"after={self.version}&events_since={self.held['events_since']}"
                     f"&events_seat={self.held['events_seat']}&page={self.page}")
            try:
                response = await school.http.fetch(
                    f"{school.url}api/tables/{self.code}/watch?{query}",
                    headers={"Authorization": f"token {school.tokens[self.user]}"},
                    streaming_callback=self.received, request_timeout=600, decompress_response=False)
                replica = response.headers.get("X-Cartas-Replica", "")
                school.answered_by[replica] = school.answered_by.get(replica, 0) + 1
            except Exception as error:   # refused, or broken: counted, and opened again a second later
                key = f"watch {getattr(error, 'code', None) or type(error).__name__}"
                school.errors[key] = school.errors.get(key, 0) + 1
                await asyncio.sleep(1.0)

    async def next(self, timeout: float) -> tuple[dict, float] | None:
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None

    def close(self) -> None:
        self.task.cancel()


class School:
    def __init__(self, service_url: str, tokens: dict[str, str], seconds: float, seed: int = 7,
                 watch: str = "stream"):
        from tornado.httpclient import AsyncHTTPClient
        AsyncHTTPClient.configure(None, max_clients=2 * len(tokens) + 50, resolver=_numeric_resolver())
        self.http = AsyncHTTPClient()
        self.url = service_url
        self.tokens = tokens
        self.until = time.monotonic() + seconds
        self.rng = np.random.default_rng(seed)
        self.sent: dict[str, int] = {u: 0 for u in tokens}   # answers the service said it recorded
        self.failed_writes = 0
        self.errors: dict[str, int] = {}
        self.moves_sent: dict[tuple[str, int], float] = {}   # (table, version after) -> when sent
        self.seen: list[tuple[str, int, float]] = []          # (table, version, when a watcher saw it)
        self.move_answers: list[float] = []                   # send -> the mover's own answer
        self.lag: list[float] = []                            # how late this process's loop runs
        self.moves = 0
        self.games = 0
        self.polls = 0                                        # long polls the service answered
        self.answered_by: dict[str, int] = {}                 # replica (X-Cartas-Replica) -> answers
        self.started: dict[str, int] = {}                     # table -> its version once started
        self.table_moves: dict[str, int] = {}                 # table -> moves answered there
        self.watch = watch                                    # "stream" or "poll" (long polls)
        self.streams = 0                                      # watch streams opened
        self.keepalives = 0                                   # their empty lines

    async def call(self, user: str, method: str, path: str, body=None, timeout: float = 30.0):
        from tornado.httpclient import HTTPClientError
        try:
            response = await self.http.fetch(
                self.url + path, method=method, body=None if body is None else json.dumps(body),
                headers={"Authorization": f"token {self.tokens[user]}", "Content-Type": "application/json"},
                request_timeout=timeout, allow_nonstandard_methods=True, decompress_response=False)
            replica = response.headers.get("X-Cartas-Replica", "")
            self.answered_by[replica] = self.answered_by.get(replica, 0) + 1
            return json.loads(response.body)
        except HTTPClientError as error:
            key = str(error.code)
            if error.response is not None:
                try:
                    key += " " + json.loads(error.response.body).get("error", "")
                except ValueError:
                    pass
            self.errors[key] = self.errors.get(key, 0) + 1
            return None

    async def answers(self, user: str) -> None:
        rng = np.random.default_rng(abs(hash(user)) % 2**32)
        await asyncio.sleep(float(rng.uniform(0, ANSWER_EVERY)))
        while time.monotonic() < self.until:
            batch = [bool(x) for x in rng.random(int(rng.integers(1, 4))) < 0.6]
            done = await self.call(user, "POST", f"api/progress/{user}", {"lesson": "manilhas", "answers": batch})
            if done is not None and done.get("recorded") == len(batch):
                self.sent[user] += len(batch)
            else:
                self.failed_writes += 1
            await asyncio.sleep(float(rng.uniform(0.5, 1.5)) * ANSWER_EVERY)

    async def table(self, four: list[str]) -> None:
        """Four learners at one table, game after game until the time is up."""
        while time.monotonic() < self.until:
            made = await self.call(four[0], "POST", "api/tables", {"game": "paulista"})
            if made is None:
                await asyncio.sleep(1)
                continue
            code = made["code"]
            for seat, user in enumerate(four[1:], start=1):
                await self.call(user, "POST", f"api/tables/{code}/join", {"seat": seat})
            started = await self.call(four[0], "POST", f"api/tables/{code}/start", {})
            if started is not None:
                self.started[code] = started["version"]
            ends = await asyncio.gather(*(self.seat(code, seat, user) for seat, user in enumerate(four)))
            self.games += ends[0] == "finished"

    async def seat(self, code: str, seat: int, user: str) -> str:
        """Play one seat until the game ends or the time is up; the table's last status."""
        rng = np.random.default_rng(abs(hash((code, seat))) % 2**32)
        view = await self.call(user, "GET", f"api/tables/{code}")
        if self.watch == "stream" and view is not None:
            watch = Watch(self, user, code, view)
            try:
                return await self.seat_streamed(code, seat, user, view, watch, rng)
            finally:
                watch.close()
        while view is not None and time.monotonic() < self.until and view["status"] != "finished":
            if view["seat"] != seat:    # her join was refused (counted in errors): she only watches
                self.errors["not_seated"] = self.errors.get("not_seated", 0) + 1
                return view["status"]
            if view["status"] == "playing" and view["current_seat"] == seat:
                view = await self.play(code, user, view, rng)
                continue
            left = self.until - time.monotonic()
            if left <= 0:
                break
            h = held(view)
            got = await self.call(user, "GET", f"api/tables/{code}?after={view['version']}&wait={min(WAIT, left):.1f}"
                                  f"&events_since={h['events_since']}&events_seat={h['events_seat']}",
                                  timeout=WAIT + 30)
            if got is not None:
                self.polls += 1
            if got is not None and got["version"] != view["version"]:
                self.seen.append((code, got["version"], time.monotonic()))
            view = got if got is not None else view
        return "" if view is None else view["status"]

    async def play(self, code: str, user: str, view: dict, rng, page: str | None = None) -> dict | None:
        """Think, then play one of her legal moves (a card when she may): the move's answer,
        or the table read again when the move was refused (None when that fails too). `page`:
        her page's id, said with the move when she watches with a stream."""
        await asyncio.sleep(float(rng.uniform(*THINK)))
        moves = [m["action"] for m in view["legal"]]
        plays = [m for m in moves if m.startswith("play ")] or moves
        move = plays[int(rng.integers(len(plays)))]
        sent = time.monotonic()
        body = {"action": move, "version": view["version"], **held(view), **({"page": page} if page else {})}
        moved = await self.call(user, "POST", f"api/tables/{code}/move", body)
        if moved is None:
            return await self.call(user, "GET", f"api/tables/{code}")
        self.moves += 1
        self.table_moves[code] = self.table_moves.get(code, 0) + 1
        self.moves_sent[(code, moved["version"])] = sent
        self.move_answers.append(time.monotonic() - sent)
        return moved

    async def seat_streamed(self, code: str, seat: int, user: str, view: dict, watch: Watch, rng) -> str:
        """`seat` with a watch stream, as a kernel's page: her move says her page's id, so its
        version comes in the move's answer only (an older or equal version on the stream is
        passed over)."""
        while time.monotonic() < self.until and view["status"] != "finished":
            if view["seat"] != seat:
                self.errors["not_seated"] = self.errors.get("not_seated", 0) + 1
                return view["status"]
            if view["status"] == "playing" and view["current_seat"] == seat:
                view = await self.play(code, user, view, rng, page=watch.page) or view
                continue
            left = self.until - time.monotonic()
            if left <= 0:
                break
            got = await watch.next(min(WAIT, left))
            if got is None:
                continue
            line, when = got
            self.polls += 1
            if line["version"] > view["version"]:
                self.seen.append((code, line["version"], when))
                view = line
        return view["status"]

    async def loop_lag(self, every: float = 0.1) -> None:
        """The simulated learners' own lateness: a late loop delays every notification seen."""
        while time.monotonic() < self.until:
            began = time.monotonic()
            await asyncio.sleep(every)
            self.lag.append(time.monotonic() - began - every)

    def latencies(self) -> list[float]:
        out = []
        for code, version, when in self.seen:
            sent = self.moves_sent.get((code, version))
            if sent is not None:
                out.append(when - sent)
        return out


def held(view: dict) -> dict:
    """What of its seat's log a page holds after `view`, as a kernel's page says it
    (classroom.remote_tables): the answers carry only the events after those."""
    return {"events_since": view["events_total"], "events_seat": "none" if view["seat"] is None else view["seat"]}


# the service's connections: its pool's (one process); every client connection to the database
# but this one (replicas: PgBouncer's, whose application_name is its last client's, and the
# LISTEN ones)
SERVICE_CONNECTIONS = "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'cartas-service'"
DATABASE_CONNECTIONS = ("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                        "AND backend_type = 'client backend' AND pid <> pg_backend_pid()")


# transactions, and milliseconds connections spent in a statement or a transaction (PostgreSQL
# 14 and later; over the run's wall time: how many connections were busy on average)
DATABASE_WORK = ("SELECT xact_commit + xact_rollback, active_time + idle_in_transaction_time "
                 "FROM pg_stat_database WHERE datname = current_database()")


async def watch_connections(url: str, stop: asyncio.Event, peak: list[int], query: str = SERVICE_CONNECTIONS) -> None:
    import psycopg
    conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
    try:
        while not stop.is_set():
            cursor = await conn.execute(query)
            peak[0] = max(peak[0], (await cursor.fetchone())[0])
            await asyncio.sleep(0.05)
    finally:
        await conn.close()


def cpu_of(processes) -> float:
    """Seconds of CPU (user and system) `processes` have used so far, together."""
    return sum(t.user + t.system for t in (p.cpu_times() for p in processes))


async def run(args, hub, database: str, replicas=None) -> dict:
    import psutil
    names = [f"l{i:03d}" for i in range(args.learners)]
    tokens = {u: hub.token_for(u) for u in names}
    if replicas is None:
        procs = [psutil.Process(hub.get(f"{hub.api}/services")["cartas"]["pid"])]
        health = hub.service_url + "health"

        def healths() -> list[dict]:
            return [hub.get(health, token=None)]
    else:   # each replica's own figures, asked of it (not of whichever haproxy picks)
        procs = [psutil.Process(replicas.processes[i].pid) for i in range(replicas.count)]

        def healths() -> list[dict]:
            return [replicas.health(i) for i in range(replicas.count)]
    # haproxy and PgBouncer: the machinery in front of the replicas, reported apart
    front = [] if replicas is None else [
        p for top in (replicas.proxy, replicas.bouncer) if top is not None
        for p in [psutil.Process(top.pid), *psutil.Process(top.pid).children(recursive=True)]]
    before = healths()
    import psycopg
    with psycopg.connect(database, autocommit=True) as conn:
        xact0, busy0 = conn.execute(DATABASE_WORK).fetchone()
    proxy = next((p for p in psutil.Process(hub.process.pid).children(recursive=True)
                  if "configurable-http-proxy" in " ".join(p.cmdline())), None)
    proxy0 = proxy.cpu_times() if proxy else None
    front0 = cpu_of(front)
    cpu0, wall0 = [cpu_of([p]) for p in procs], time.monotonic()
    if replicas is not None:
        url = f"{replicas.url}/services/cartas/" if args.direct else hub.service_url
    else:
        url = f"http://127.0.0.1:{hub.service_port}/services/cartas/" if args.direct else hub.service_url
    stop, peak, rss = asyncio.Event(), [0], [p.memory_info().rss for p in procs]

    async def sample_memory():
        while not stop.is_set():
            for i, p in enumerate(procs):
                rss[i] = max(rss[i], p.memory_info().rss)
            await asyncio.sleep(0.5)

    watchers = [asyncio.ensure_future(watch_connections(
                    database, stop, peak, SERVICE_CONNECTIONS if replicas is None else DATABASE_CONNECTIONS)),
                asyncio.ensure_future(sample_memory())]
    tables = [names[i:i + 4] for i in range(0, len(names) - len(names) % 4, 4)]
    # the learners' kernels are processes of their own: here `--processes` of them share the
    # tables (a table's four seats in one process, so a move and its notifications are timed
    # on one clock), and one process's loop is not every learner's bottleneck
    parts_of = [tables[k::args.processes] for k in range(args.processes)]
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(len(parts_of), mp_context=get_context("spawn")) as pool:
        parts = await asyncio.gather(*(loop.run_in_executor(
            pool, clients, url, {u: tokens[u] for four in part for u in four}, part, args.seconds, 7 + k, args.watch)
            for k, part in enumerate(parts_of) if part))
    wall = time.monotonic() - wall0
    each_cpu = [cpu_of([p]) - c0 for p, c0 in zip(procs, cpu0)]   # seconds of CPU of each process
    service_cpu = sum(each_cpu)
    front_cpu = cpu_of(front) - front0
    school = Results(parts)
    proxy1 = proxy.cpu_times() if proxy else None
    stop.set()
    await asyncio.gather(*watchers)
    afters = healths()
    after = afters[0]
    with psycopg.connect(database, autocommit=True) as conn:
        xact1, busy1 = conn.execute(DATABASE_WORK).fetchone()
        stored = dict(conn.execute("SELECT substr(learner_id, 5), asked_count FROM progress "
                                   "WHERE lesson = 'manilhas'").fetchall())
        rows = dict(conn.execute("SELECT substr(learner_id, 5), count(*) FROM answers "
                                 "WHERE lesson = 'manilhas' GROUP BY learner_id").fetchall())
        versions = dict(conn.execute("SELECT code, version FROM mesas").fetchall())
    lost = sum(max(0, school.sent.get(u, 0) - stored.get(u, 0)) for u in names)
    duplicated = sum(max(0, stored.get(u, 0) - school.sent.get(u, 0)) for u in names)
    rows_off = sum(abs(rows.get(u, 0) - stored.get(u, 0)) for u in names)
    lat = school.latencies()
    # a version answered to two moves (one overwrote the other), and a table whose stored
    # version is not its start's plus the moves answered there (a move applied twice, or
    # applied and its answer lost)
    moves_same_version = school.moves - len(school.versions)
    moves_off = sum(abs(versions.get(code, 0) - v0 - school.table_moves.get(code, 0))
                    for code, v0 in school.started.items())
    queries = [a.get("queries") for a in afters]
    return {
        "learners": len(names), "tables": len(tables), "seconds": round(wall, 1),
        "answers_sent": sum(school.sent.values()), "answers_stored": sum(stored.values()),
        "lost": lost, "duplicated": duplicated, "answer_rows_off": rows_off, "failed_writes": school.failed_writes,
        "moves": school.moves, "games_finished": school.games, "errors": school.errors,
        "peak_connections": peak[0], "pool": args.pool,
        "latency_samples": len(lat),
        "p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
        "p95_ms": round(1000 * float(np.percentile(lat, 95)), 1) if lat else None,
        "max_ms": round(1000 * max(lat), 1) if lat else None,
        "move_answer_p50_ms": _ms(school.move_answers, 50), "move_answer_p95_ms": _ms(school.move_answers, 95),
        "clients_loop_lag_p50_ms": _ms(school.lag, 50), "clients_loop_lag_p95_ms": _ms(school.lag, 95),
        "moves_same_version": moves_same_version, "moves_off": moves_off,
        "service_stages": after.get("stages") if replicas is None else {a.get("replica"): a.get("stages")
                                                                        for a in afters},
        "service_cpu_percent": round(100 * service_cpu / wall, 1),
        "service_cpu_s": round(service_cpu, 2), "long_poll_answers": school.polls, "watch": args.watch,
        "watch_streams": school.streams, "stream_keepalives": school.keepalives,
        # the service's whole CPU (answers recorded, token checks, bots' sweep included) divided
        # by each count: two readings of one figure, not parts to add up
        "service_cpu_ms_per_move": round(1000 * service_cpu / school.moves, 2) if school.moves else None,
        "service_cpu_ms_per_long_poll_answer": round(1000 * service_cpu / school.polls, 2) if school.polls else None,
        "service_rss_mb_peak": round(sum(rss) / 2**20, 1),
        "clients_cpu_percent": round(100 * school.cpu / wall, 1), "client_processes": len(parts),
        "proxy_cpu_percent": round(100 * ((proxy1.user + proxy1.system) - (proxy0.user + proxy0.system)) / wall, 1)
        if proxy0 and proxy1 else None,
        "load_average": os.getloadavg()[0],
        "queries_per_s": round(sum(a - b for a, b in zip(queries, (h.get("queries") for h in before))) / wall, 1)
        if None not in queries else None,
        "transactions_per_s": round((xact1 - xact0) / wall, 1),
        "busy_connections": None if None in (busy0, busy1) else round((busy1 - busy0) / 1000 / wall, 2),
        **({} if replicas is None else {
            "replicas": replicas.count, "pgbouncer_pool": replicas.bouncer_pool_size, "balance": replicas.balance,
            "answered_by": dict(sorted(school.answered_by.items())),
            "replica_cpu_percent": {a.get("replica"): round(100 * c / wall, 1) for a, c in zip(afters, each_cpu)},
            "replica_rss_mb_peak": {a.get("replica"): round(r / 2**20, 1) for a, r in zip(afters, rss)},
            "replica_notifications": {a.get("replica"): a.get("notifications") for a in afters},
            "bot_moves": sum(a.get("bot_moves") or 0 for a in afters),
            "haproxy_pgbouncer_cpu_percent": round(100 * front_cpu / wall, 1)}),
    }


def clients(url: str, tokens: dict[str, str], tables: list[list[str]], seconds: float, seed: int,
            watch: str = "stream") -> dict:
    """One process of simulated learners: the answers of `tokens`' learners and the games of
    `tables`, for `seconds`; what it saw."""
    cpu0 = time.process_time()
    import logging  # a watch stream closed at a game's end is a fetch cancelled: tornado logs its end
    logging.getLogger("tornado.application").setLevel(logging.CRITICAL)

    async def go() -> School:
        school = School(url, tokens, seconds, seed, watch)
        await asyncio.gather(*(school.answers(u) for u in tokens), *(school.table(t) for t in tables),
                             school.loop_lag())
        return school
    school = asyncio.run(go())
    return {"sent": school.sent, "failed_writes": school.failed_writes, "errors": school.errors,
            "moves": school.moves, "games": school.games, "polls": school.polls, "latencies": school.latencies(),
            "move_answers": school.move_answers, "lag": school.lag, "cpu": time.process_time() - cpu0,
            "answered_by": school.answered_by, "started": school.started, "table_moves": school.table_moves,
            "streams": school.streams, "keepalives": school.keepalives,
            "versions": [[code, version] for code, version in school.moves_sent]}


class Results:
    """The client processes' figures, together."""

    def __init__(self, parts: list[dict]):
        self.sent = {u: n for part in parts for u, n in part["sent"].items()}
        self.failed_writes = sum(p["failed_writes"] for p in parts)
        self.errors: dict[str, int] = {}
        for part in parts:
            for key, n in part["errors"].items():
                self.errors[key] = self.errors.get(key, 0) + n
        self.moves = sum(p["moves"] for p in parts)
        self.games = sum(p["games"] for p in parts)
        self.polls = sum(p["polls"] for p in parts)
        self.streams = sum(p["streams"] for p in parts)
        self.keepalives = sum(p["keepalives"] for p in parts)
        self.lat = [x for p in parts for x in p["latencies"]]
        self.move_answers = [x for p in parts for x in p["move_answers"]]
        self.lag = [x for p in parts for x in p["lag"]]
        self.cpu = sum(p["cpu"] for p in parts)
        self.answered_by: dict[str, int] = {}
        for part in parts:
            for key, n in part["answered_by"].items():
                self.answered_by[key] = self.answered_by.get(key, 0) + n
        self.started = {code: v for part in parts for code, v in part["started"].items()}
        self.table_moves = {code: n for part in parts for code, n in part["table_moves"].items()}
        self.versions = {(code, version) for part in parts for code, version in part["versions"]}

    def latencies(self) -> list[float]:
        return self.lat


def _ms(values: list[float], percent: float) -> float | None:
    return round(1000 * float(np.percentile(values, percent)), 1) if values else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--pool", type=int, default=8, help="the service's --pool-size")
    parser.add_argument("--database", default=None, help="postgresql://... (default: a throwaway server)")
    parser.add_argument("--direct", action="store_true",
                        help="ask the service directly (with --replicas, haproxy), not through the hub's proxy")
    parser.add_argument("--replicas", type=int, default=1,
                        help="N >= 2: N service processes behind haproxy, pools through PgBouncer (default: one, "
                             "hub-managed)")
    parser.add_argument("--balance", choices=("roundrobin", "table"), default="roundrobin",
                        help="with --replicas: haproxy sends each request to the next replica (roundrobin), or "
                             "a table's requests to one replica (table: hashed on the path up to its code)")
    parser.add_argument("--watch", choices=("stream", "poll"), default="stream",
                        help="how a seat watches its table: one watch stream (as a kernel's page does), or a "
                             "long poll per version (as pages did before)")
    parser.add_argument("--processes", type=int, default=4,
                        help="processes the simulated learners run in (their kernels' stand-ins)")
    args = parser.parse_args()
    if args.replicas < 1:
        parser.error("--replicas must be at least 1")
    import hubkit
    problem = hubkit.missing()
    if not problem and args.replicas > 1:
        import replicakit
        problem = replicakit.missing()
    if problem:
        sys.exit(problem)
    folder = Path(tempfile.mkdtemp(prefix="cartas-school-"))
    pg = None
    try:
        if args.database:
            database = args.database
        else:
            pg_folder = Path(tempfile.mkdtemp(prefix="cartas-school-pg-"))
            url, *pg = start_postgres(pg_folder)
            import psycopg
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute('CREATE DATABASE "cartas_school"')
            database = url.rsplit("/", 1)[0] + "/cartas_school"
        names = [f"l{i:03d}" for i in range(args.learners)]
        hub = hubkit.Hub(folder / "hub", database, learners=names, teachers=["tereza"],
                         groups={"teachers-turma": ["tereza"], "turma": names}, pool_size=args.pool)
        replicas = None
        if args.replicas > 1:   # externally managed: the hub starts none of them
            replicas = replicakit.Replicas(folder / "replicas", database, {}, count=args.replicas,
                                           pool_size=args.pool, balance=args.balance)
            hub.external_url = replicas.url
            replicas.environment = hub.service_environment()
        started = time.monotonic()
        try:
            if replicas is not None:
                replicas.start()
            hub.start()
            print(f"hub and class service{f' ({args.replicas} replicas)' if replicas else ''} up in "
                  f"{time.monotonic() - started:.1f} s; {args.learners} learners for {args.seconds:.0f} s...",
                  flush=True)
            result = asyncio.run(run(args, hub, database, replicas))
        finally:
            hub.stop()
            if replicas is not None:
                replicas.stop()
    finally:
        if pg:
            stop_postgres(*pg)
            shutil.rmtree(pg_folder, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(result, indent=1))
    print(f"lost writes {result['lost']}, duplicated {result['duplicated']} "
          f"({result['answers_stored']} of {result['answers_sent']} answers stored); "
          f"peak PostgreSQL connections {result['peak_connections']} (pool {result['pool']}); "
          f"move -> other seats p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms "
          f"({result['latency_samples']} samples, {result['moves']} moves); "
          f"service CPU {result['service_cpu_percent']}% of a core, {result['service_rss_mb_peak']} MB "
          f"({result['service_cpu_ms_per_move']} ms per move, {result['service_cpu_ms_per_long_poll_answer']} ms "
          f"per long-poll answer: {result['long_poll_answers']} answered) "
          f"(the simulated learners {result['clients_cpu_percent']}%, the proxy {result['proxy_cpu_percent']}%, "
          f"machine load {result['load_average']:.1f}); "
          f"{result['queries_per_s']} queries/s ({result['transactions_per_s']} transactions/s, "
          f"{result['busy_connections']} connections busy on average); "
          f"moves answered with one version {result['moves_same_version']}, tables' versions off {result['moves_off']}")
    if "replicas" in result:
        print(f"{result['replicas']} replicas ({result['balance']}; pool {result['pool']} each, "
              f"PgBouncer {result['pgbouncer_pool']}): "
              f"CPU {result['replica_cpu_percent']} % of a core, answers {result['answered_by']}, "
              f"notifications {result['replica_notifications']}, bot moves {result['bot_moves']}; "
              f"haproxy and PgBouncer {result['haproxy_pgbouncer_cpu_percent']}%")


if __name__ == "__main__":
    main()
