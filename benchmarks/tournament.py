"""A class tournament under a class's load (issue 34): 32 simulated learners in pairs at 8 truco
tables, 3 Swiss rounds, all through the classroom interface (`classroom.interface.StoreClassroom`,
one per learner as each phone's kernel has, each with its own store connection).

Each learner is a thread: she polls her page (`tournaments().my_table`) every --poll seconds,
and once seated plays her own seat (a bot's choice at level "easy" sent as her move, through the
tables of her classroom) until the game ends. The teacher is one more thread polling the
projector's board (`board()`, which records finished tables) every --poll seconds and starting
the next round as soon as the last result is in. The figure: for each learner and each round
after the first, the time from the end of that round's last game (its last move saved) to her
page showing her next table.

Runs on a temporary SQLite file and on a throwaway PostgreSQL server (benchmarks/live_quiz.py's),
or on --database URL.

    .venv/bin/python benchmarks/tournament.py [--learners 32] [--rounds 3] [--poll 0.25] [--only sqlite|postgresql]

Prints per back end p50/p95/max of last game end → every learner seeing her next table (the goal:
p95 ≤ 2 s) and the rounds' durations.
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from live_quiz import quantiles, store_location  # noqa: E402 - after the path is set

from classroom import classes, games  # noqa: E402
from classroom.interface import StoreClassroom  # noqa: E402
from classroom.progress import open_store  # noqa: E402
from classroom.store import connect  # noqa: E402
from classroom.tables import TableError  # noqa: E402


class Run:
    """One tournament: the learners' and the teacher's threads and what they measured."""

    def __init__(self, location: str, learners: int, rounds: int, poll: float):
        self.location, self.rounds, self.poll = location, rounds, poll
        made = classes.create_class(open_store(location), "bench")
        self.cup = StoreClassroom(connect(location)).tournaments()
        opened = self.cup.open(made.code, made.key, {"game": "paulista", "players": "pairs", "partners": "lot",
                                                     "rounds": rounds, "seed": 7, "pace": 0.0, "level": "easy",
                                                     "timeout": 600})
        self.code, self.host = opened["code"], opened["host_token"]
        self.ids = [f"l{i:02d}" for i in range(learners)]
        for who in self.ids:
            self.cup.add(self.code, self.host, who, who.upper())
        self.ends: dict[int, float] = {}      # round -> when its last game's last move was saved
        self.started: dict[int, float] = {}
        self.lock = threading.Lock()
        self.seen: list[float] = []
        self.errors: list[str] = []

    def learner(self, me: str) -> None:
        room = StoreClassroom(connect(self.location))
        mine, tables = room.tournaments(), room.tables()
        round_seen = 0
        try:
            while round_seen < self.rounds:
                page = mine.my_table(self.code, me, me.upper())
                if page["round"] > round_seen and (page["table_code"] or page["bye"]):
                    now = time.time()
                    with self.lock:
                        end = self.ends.get(page["round"] - 1)
                    if end is not None:
                        self.seen.append(now - end)
                    round_seen = page["round"]
                    if page["table_code"]:
                        self.play(tables, page["table_code"], me, page["round"])
                    continue
                time.sleep(self.poll)
        except Exception as error:  # a figure is worthless with a lost learner: say so
            self.errors.append(f"{me}: {error!r}")

    def play(self, tables, table_code: str, me: str, number: int) -> None:
        snap = tables.snapshot(table_code)
        seat = snap.seat_of(me)
        while snap.status != "finished":
            if snap.state.current_seat == seat:
                action = games.bot_action(snap.state, seat, snap.record["seed"], "easy")
                try:
                    snap = tables.move(table_code, me, str(action), snap.version)
                except TableError as error:
                    if error.code != "moved_on":
                        raise
                else:
                    if snap.status == "finished":
                        with self.lock:
                            self.ends[number] = max(self.ends.get(number, 0.0), time.time())
                    continue
            time.sleep(0.02)
            snap = tables.snapshot(table_code)

    def teacher(self) -> None:
        current = 0
        try:
            while True:
                board = self.cup.board(self.code)
                if board["status"] == "finished":
                    return
                ready = all(g["scores"] is not None or g["bye"] for g in board["games"] if g["round"] == current)
                if ready and current < self.rounds:
                    current += 1
                    self.started[current] = time.time()
                    self.cup.start_round(self.code, self.host, current)
                time.sleep(self.poll)
        except Exception as error:
            self.errors.append(f"teacher: {error!r}")

    def go(self) -> dict:
        threads = [threading.Thread(target=self.learner, args=(who,), daemon=True) for who in self.ids]
        threads.append(threading.Thread(target=self.teacher, daemon=True))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=900)
        board = self.cup.board(self.code)
        return {"seen": self.seen, "errors": self.errors, "ends": self.ends, "started": self.started,
                "status": board["status"], "tables": len([g for g in board["games"] if g["round"] == 1])}


def run(location: str, learners: int, rounds: int, poll: float) -> dict:
    return Run(location, learners, rounds, poll).go()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--poll", type=float, default=0.25, help="seconds between a page's polls")
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    parser.add_argument("--database", help="a store URL or file to use instead of the throwaway ones")
    args = parser.parse_args()
    os.environ["CARTAS_PROGRESS"] = os.devnull
    backends = [args.only] if args.only else ["sqlite", "postgresql"]
    print(f"{args.learners} learners in pairs, {args.rounds} Swiss rounds of truco, pages polling every "
          f"{args.poll} s; {os.cpu_count()} cores")
    for kind in ([args.database] if args.database else backends):
        with store_location(kind) as location:
            figures = run(location, args.learners, args.rounds, args.poll)
        name = kind if kind in ("sqlite", "postgresql") else "given store"
        rounds = ", ".join(f"round {r}: {figures['ends'][r] - figures['started'][r]:.1f} s"
                           for r in sorted(figures["ends"]) if r in figures["started"])
        print(f"{name}: {figures['tables']} tables a round, tournament {figures['status']}; {rounds}")
        print(f"{name}: last game end → every learner seeing her next table: {quantiles(figures['seen'], 's')}")
        if figures["errors"]:
            print(f"{name}: ERRORS {figures['errors'][:5]}")


if __name__ == "__main__":
    main()
