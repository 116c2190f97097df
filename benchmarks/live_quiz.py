"""A live class quiz under a class's load: 40 simulated learners answer each question at once.

Each learner is a process of its own with its own connection to the store, as each phone's
kernel is; they all send their answer at the same instant (`classroom.live.StoreLiveQuiz.answer`).
The projector is one more process calling `board()` every REFRESH seconds, which is what the
projector page does on each tick of its browser timer (`widgets.components.live.LiveTicker`).
For every answer, the figure is the time from the learner sending it to the end of the
projector's first refresh that started after it was saved: when the teacher sees it.

Runs on a temporary SQLite file and on a throwaway PostgreSQL server it starts itself (initdb
and pg_ctl on 127.0.0.1, a free port, stopped and removed at the end), or on --database URL.

    .venv/bin/python benchmarks/live_quiz.py [--learners 40] [--questions 5] [--only sqlite|postgresql]

Prints, per back end: p50/p95/max of send → saved, and of send → visible on the projector's
next refresh (the goal: p95 ≤ 1 s), with answers lost or counted twice (must be 0).
"""
from __future__ import annotations

import argparse
import glob
import multiprocessing as mp
import os
import pwd
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

REFRESH = 0.5     # the projector's refresh while a question is open (LiveTicker's seconds)
GAP = 4.0         # seconds between questions
ANSWER_AT = 1.5   # seconds after a question is asked, every learner answers
SECONDS = 20


def learner(location: str, code: str, learner_id: str, class_code: str, questions: int, ready, go, t0, out) -> None:
    from classroom.live import LiveError, StoreLiveQuiz
    from classroom.store import connect

    quiz = StoreLiveQuiz(connect(location))
    quiz.join(code, learner_id, learner_id, class_code)
    ready.put(learner_id)
    go.wait()
    starts = [t0.value + k * GAP + ANSWER_AT for k in range(questions)]
    times = []
    for number, start in enumerate(starts, 1):
        time.sleep(max(0.0, start - time.time()))
        sent = time.time()
        try:
            quiz.answer(code, learner_id, number, number % 3)
            times.append((number, sent, time.time(), "ok"))
        except LiveError as error:
            times.append((number, sent, time.time(), error.code))
    out.put((learner_id, times))
    quiz.store.close()


def projector(location: str, code: str, go, t0, questions: int, out) -> None:
    from classroom.live import StoreLiveQuiz
    from classroom.store import connect

    quiz = StoreLiveQuiz(connect(location))
    go.wait()
    until = t0.value + questions * GAP
    refreshes = []
    while time.time() < until:
        began = time.time()
        board = quiz.board(code)
        refreshes.append((began, time.time(), board["number"], board["answered"]))
        time.sleep(max(0.0, REFRESH - (time.time() - began)))
    out.put(refreshes)
    quiz.store.close()


def run(location: str, learners: int, questions: int) -> dict:
    from classroom.classes import create_class
    from classroom.live import StoreLiveQuiz
    from classroom.progress import open_store

    store = open_store(location)
    quiz = StoreLiveQuiz(store)
    made = create_class(store, "Benchmark")
    started = quiz.start(made.code, made.key)
    code, token = started["code"], started["host_token"]
    context = mp.get_context("spawn")
    out, ready, go, t0 = context.Queue(), context.Queue(), context.Event(), context.Value("d", 0.0)
    procs = [context.Process(target=learner, args=(location, code, f"learner-{k:02d}", made.code, questions,
                                                   ready, go, t0, out)) for k in range(learners)]
    procs.append(context.Process(target=projector, args=(location, code, go, t0, questions, out)))
    for p in procs:
        p.start()
    for _ in range(learners):  # every learner started, connected and joined
        ready.get(timeout=600)
    t0.value = time.time() + 1.0
    go.set()
    asked_at = [t0.value + k * GAP for k in range(questions)]
    end = asked_at[-1] + GAP
    for number, at in enumerate(asked_at, 1):
        time.sleep(max(0.0, at - time.time()))
        if number > 1:
            quiz.close(code, token)
        question = {"lesson": "benchmark", "answer": 0,
                    "prompt": {"pt": f"Pergunta {number}", "en": f"Question {number}"},
                    "options": [{"pt": str(k), "en": str(k)} for k in range(4)],
                    "why": {"pt": "Porque sim.", "en": "Because."}}
        quiz.ask(code, token, question, SECONDS)
    results, refreshes = {}, None
    for _ in procs:
        item = out.get(timeout=end - time.time() + 120)
        if isinstance(item, tuple):
            results[item[0]] = item[1]
        else:
            refreshes = item
    for p in procs:
        p.join(timeout=30)
    assert refreshes is not None
    saved, visible, refused = [], [], []
    for times in results.values():
        for number, sent, done, outcome in times:
            if outcome != "ok":
                refused.append(outcome)
                continue
            saved.append(done - sent)
            seen = next((end_ for began, end_, n, _ in refreshes if began >= done and n == number), None)
            if seen is not None:
                visible.append(seen - sent)
    board = quiz.board(code)
    with store.transaction(write=False) as tx:
        stored = int(tx.execute("SELECT COUNT(*) FROM live_answers WHERE session_code = ?", (code,)).fetchone()[0])
    store.close()
    return {"saved": saved, "visible": visible, "refused": refused, "stored": stored,
            "expected": learners * questions, "accepted": len(saved), "players": board["players"]}


def quantiles(values: list[float], unit: str = "ms") -> str:
    """p50, p95 and max of `values` (seconds), in ms or s."""
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    if unit == "s":
        return f"p50 {statistics.median(ordered):.3f} s, p95 {p95:.3f} s, max {ordered[-1]:.3f} s (n={len(ordered)})"
    return (f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"max {ordered[-1] * 1000:.0f} ms (n={len(ordered)})")


@contextmanager
def store_location(kind: str):
    """The location of a store of `kind` for one run: a fresh SQLite file, a throwaway
    PostgreSQL server (stopped afterwards), or `kind` itself (a URL or file given)."""
    server = None
    with tempfile.TemporaryDirectory(prefix="cartas-bench-") as folder:
        if kind == "sqlite":
            location = str(Path(folder) / "cartas.db")
        elif kind == "postgresql":
            server = ThrowawayPostgres()
            location = server.url
        else:
            location = kind
        try:
            yield location
        finally:
            if server is not None:
                server.stop()


# A throwaway PostgreSQL -------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ThrowawayPostgres:
    """initdb + pg_ctl in a temporary folder on 127.0.0.1 (as an unprivileged user when run
    as root); `url` while it runs; stopped and removed by `stop()`."""

    def __init__(self):
        found = shutil.which("initdb")
        dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[-2]))
        bindir = Path(found).resolve().parent if found else (Path(dirs[-1]) if dirs else None)
        if bindir is None or not (bindir / "initdb").exists():
            raise SystemExit("PostgreSQL not found (initdb): install Debian's package 'postgresql'")
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="cartas-bench-pg-"))
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            entry = pwd.getpwnam("postgres")
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            self.run_as = ["runuser", "-u", "postgres", "--"]
        self.data = self.folder / "data"
        port = _free_port()
        subprocess.run([*self.run_as, str(bindir / "initdb"), "-D", str(self.data), "-U", "cartas",
                        "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"],
                       check=True, capture_output=True, timeout=120)
        options = f"-k {self.folder} -h 127.0.0.1 -p {port} -c max_connections=100"
        subprocess.run([*self.run_as, str(bindir / "pg_ctl"), "-D", str(self.data), "-l",
                        str(self.folder / "server.log"), "-o", options, "-w", "-t", "60", "start"],
                       check=True, capture_output=True, timeout=90)
        self.url = f"postgresql://cartas@127.0.0.1:{port}/postgres"

    def stop(self) -> None:
        subprocess.run([*self.run_as, str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                        "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    parser.add_argument("--database", help="a store URL or file to use instead of the throwaway ones")
    args = parser.parse_args()
    os.environ["CARTAS_PROGRESS"] = os.devnull
    backends = [args.only] if args.only else ["sqlite", "postgresql"]
    print(f"{args.learners} learners answering at once, {args.questions} questions, "
          f"the projector refreshing every {REFRESH} s; {os.cpu_count()} cores")
    for kind in ([args.database] if args.database else backends):
        with store_location(kind) as location:
            figures = run(location, args.learners, args.questions)
        name = kind if kind in ("sqlite", "postgresql") else "given store"
        lost = max(0, figures["accepted"] - figures["stored"])
        twice = max(0, figures["stored"] - figures["accepted"])
        print(f"{name}: send → saved: {quantiles(figures['saved'])}")
        print(f"{name}: send → visible on the projector's next refresh: {quantiles(figures['visible'])}")
        print(f"{name}: {figures['stored']} of {figures['expected']} answers stored "
              f"({lost} accepted but lost, {twice} counted twice), refused: {len(figures['refused'])} "
              f"{sorted(set(figures['refused']))}")


if __name__ == "__main__":
    main()
