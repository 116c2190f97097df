"""Tables under a class's load: 5 tables x 4 seats, every seat a scripted client in its own
process, on the store (a temporary SQLite file by default, or PostgreSQL with --database URL).

Each client is what a browser's kernel runs: a `classroom.tables.TableClient` whose `tick()`
(version check, reload when moved, heartbeat, bot moves) is called every POLL_EVERY seconds,
the same code path as the tables dashboard's polling loop. A client whose seat is to play
waits THINK seconds and moves. For every move, each other seat's client notes how long after
the move was saved it saw it. Then all clients stop moving and keep polling: their CPU use
over the idle period is each idle client's cost. Finally one real Jupyter kernel runs the
tables widget on an open table (its browser's beat simulated every 5 s), and its idle CPU is
measured the same way.

    .venv/bin/python benchmarks/tables.py [--play 30] [--idle 10] [--database URL]

Prints p50/p95/max of the move-to-other-seats latency, and the idle CPU % per client/kernel.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

THINK = 0.3
GAMES = ("paulista", "mineiro", "21", "paulista", "21")


def client(location: str, code: str, seat: int, play_until: float, idle_until: float, out):
    from classroom import games
    from classroom.store import connect
    from classroom.tables import POLL_EVERY, StoreRepository, TableClient, TableError, Tables

    tables = Tables(StoreRepository(connect(location)))
    me = f"learner-{code}-{seat}"
    c = TableClient(tables, code, me)
    latencies, refused, moves = [], 0, 0
    my_turn_since = None
    idle_cpu = None
    while True:
        now = time.time()
        if now >= idle_until:
            break
        if idle_cpu is None and now >= play_until:
            idle_cpu = (time.process_time(), time.perf_counter())
        before = c.snap.version
        c.tick()
        snap = c.snap
        if snap.version != before and idle_cpu is None:
            last = snap.record.get("last") or {}
            if last.get("kind") == "move" and last.get("seat") != seat:
                latencies.append(time.time() - snap.record["moved_at"])
        if (idle_cpu is None and snap.status == "playing"
                and snap.state.current_seat == seat):
            my_turn_since = my_turn_since or time.time()
            if time.time() - my_turn_since >= THINK:
                legal = games.legal_actions(snap.state, seat)
                pick = next((a for a in legal if a.kind in ("play", "accept", "play_hand", "stand",
                                                            "call", "refuse_bank", "pass")), legal[0])
                try:
                    c.move(pick)
                    moves += 1
                except TableError:
                    refused += 1
                my_turn_since = None
        else:
            my_turn_since = None
        time.sleep(POLL_EVERY)
    cpu, wall = idle_cpu if idle_cpu else (time.process_time(), time.perf_counter())
    idle_pct = 100 * (time.process_time() - cpu) / max(1e-9, time.perf_counter() - wall)
    out.put((code, seat, latencies, moves, refused, idle_pct))


KERNEL_CODE = """
import asyncio, time
from classroom.identity import Learner
from classroom.tables import Tables
from widgets.pages.mesa import Mesa
class _Id:
    current = Learner("bench-kernel-0001", "Kernel")
    def on_change(self, cb): pass
view = Mesa(lang="en", identity=_Id())
code = view.create()
async def _beat():
    while True:
        view.browser_beat()
        await asyncio.sleep(5)
_beater = asyncio.get_running_loop().create_task(_beat())
"""


def kernel_idle_cpu(location: str, seconds: float) -> float | None:
    """Start a kernel, open a table in the tables widget, wait, and measure its CPU %."""
    try:
        from jupyter_client.manager import start_new_kernel
    except ImportError:
        return None
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if location.startswith("postgres"):
        env["CARTAS_DATABASE_URL"] = location
    else:
        env["CARTAS_DB"], env["CARTAS_DATABASE_URL"] = location, ""
    km, kc = start_new_kernel(kernel_name="python3", env=env, cwd=str(ROOT))
    try:
        reply = kc.execute_interactive(KERNEL_CODE, timeout=120)
        if reply["content"]["status"] != "ok":
            print("kernel error:", reply["content"].get("evalue"))
            return None
        pid = km.provisioner.process.pid
        time.sleep(3)  # past start-up
        start = _proc_cpu(pid)
        t0 = time.perf_counter()
        time.sleep(seconds)
        cpu = 100 * (_proc_cpu(pid) - start) / (time.perf_counter() - t0)
        check = kc.execute_interactive(
            "assert view._task is not None and not view._task.done(), 'not polling'", timeout=30)
        if check["content"]["status"] != "ok":
            print("the kernel's polling loop was not running")
            return None
        return cpu
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--play", type=float, default=30.0, help="seconds of play")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle polling")
    parser.add_argument("--database", default=None, help="postgresql://... (default: temp SQLite)")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="cartas-bench-")
    location = args.database or str(Path(tmp) / "tables.db")

    from classroom.store import connect
    from classroom.tables import StoreRepository, Tables
    tables = Tables(StoreRepository(connect(location)))
    codes = []
    for n, game in enumerate(GAMES):
        seats = 4
        code = tables.create(game, f"learner-x-{n}", "creator", seats=seats if game == "21" else None,
                             options={"rounds": 50} if game == "21" else None, seed=n)
        codes.append(code)
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    start_at = time.time() + 6  # time for 20 interpreters to start
    play_until = start_at + args.play
    idle_until = play_until + args.idle
    procs = []
    for code in codes:
        for seat in range(4):
            p = ctx.Process(target=client, args=(location, code, seat, play_until, idle_until, out))
            p.start()
            procs.append(p)
    time.sleep(4)
    for n, code in enumerate(codes):  # every seat's learner sits, then the creator deals
        tables.leave(code, f"learner-x-{n}")
        for seat in range(4):
            tables.join(code, f"learner-{code}-{seat}", f"S{seat}", seat)
        tables.start(code, f"learner-x-{n}")
    results = [out.get(timeout=args.play + args.idle + 120) for _ in procs]
    for p in procs:
        p.join()
    latencies = sorted(x for r in results for x in r[2])
    moves = sum(r[3] for r in results)
    refused = sum(r[4] for r in results)
    idle = [r[5] for r in results]
    ms = [1000 * x for x in latencies]

    def pct(q):
        return ms[min(len(ms) - 1, int(q * len(ms)))]

    backend = "PostgreSQL" if location.startswith("postgres") else "SQLite"
    print(f"store: {backend}; {len(codes)} tables x 4 seats = {len(procs)} client processes, "
          f"poll every 0.2 s, {args.play:.0f} s of play, {args.idle:.0f} s idle; "
          f"{os.cpu_count()} CPUs")
    print(f"moves applied: {moves} (refused as moved on: {refused}); "
          f"move seen by the other seats: {len(ms)} observations")
    if ms:
        print(f"move -> other seats: p50 {pct(0.5):.0f} ms, p95 {pct(0.95):.0f} ms, "
              f"max {ms[-1]:.0f} ms (budget p95 500 ms)")
    print(f"idle client CPU: mean {statistics.mean(idle):.2f} %, max {max(idle):.2f} % "
          f"(budget 2 %)")
    kernel = kernel_idle_cpu(location, args.idle)
    if kernel is not None:
        print(f"idle Jupyter kernel with the tables widget open (polling): {kernel:.2f} % CPU")


if __name__ == "__main__":
    main()
