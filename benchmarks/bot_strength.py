"""How strong each bot level is, and how long it thinks: two levels played against each other.

Run:  .venv/bin/python benchmarks/bot_strength.py --a strong --b rule --variant paulista --games 200
      .venv/bin/python benchmarks/bot_strength.py --a strong --b rule --variant 21 --games 200

Levels: the registry's (`cartas.games.LEVELS`: easy, rule, strong), "random", and "coach0"
(truco only): a frozen copy of the coach's advice played as a bot (`benchmarks/coach0.py`),
never offered to learners.

Truco: mirrored deals: each seed is played twice, level A's team on seats 0 and 2, then on
seats 1 and 3, with the same deals (the deals come from the game's seed, never from the
bots), so neither level keeps the better cards (`--seats 2`, truco mano a mano: A on seat
0, then on seat 1). Printed: A's share of games won with its 95%
Wilson interval. `--games` counts games, two per seed.

21: each seed is played twice, level A at one seat (seat 0, then seat 1) and level B at every
other seat. Printed: A's chips won per round as a player and as the banker, each with a 95%
interval (mean +- 1.96 standard errors over rounds).

Decision times: every `choose` of each level is timed in CPU time (`time.process_time`: on
a shared machine the wall clock counts the other programs too), and mean and p95 printed,
with the process pinned to one core (`--cpu`, default the first one it may use).

The issue's targets (2,000 games or more per pairing): strong vs rule lower bound >= 0.62
(Paulista and Mineiro, with 4 seats and mano a mano), strong vs coach0 >= 0.52, rule vs easy >= 0.65, 21 strong vs rule
chips per round lower bound > 0. On a shared machine run a few hundred games at a time.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from coach0 import Coach0Bot

from cartas.contract import Bot
from cartas.games import LEVELS, GameSpec, find_game

Z = 1.96


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean with +- 1.96 standard errors."""
    if not values:
        return 0.0, 0.0, 0.0
    a = np.asarray(values, dtype=float)
    se = a.std(ddof=1) / math.sqrt(len(a)) if len(a) > 1 else 0.0
    return float(a.mean()), float(a.mean() - Z * se), float(a.mean() + Z * se)


class Timed:
    """A bot whose every decision is timed into `times`."""

    def __init__(self, bot: Bot, times: list[float]):
        self.bot, self.times = bot, times

    def choose(self, view):
        start = time.process_time()
        action = self.bot.choose(view)
        self.times.append(time.process_time() - start)
        return action


def maker(spec: GameSpec, level: str) -> Callable[[int], Bot]:
    if level == "random":
        return spec.random_bot
    if level == "coach0":
        coach0 = {"truco": Coach0Bot}.get(spec.family)  # the frozen coach plays truco only
        if coach0 is None:
            raise SystemExit("coach0 plays truco only")
        return coach0
    if level not in LEVELS:
        raise SystemExit(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}, random, coach0")
    return lambda seed: spec.bot(seed, level=level)


def play(state, bots) -> None:
    while not state.is_terminal():
        seat = state.current_seat
        state.apply_action(bots[seat].choose(state.view(seat)), seat)


def run_truco(spec: GameSpec, args, make_a, make_b, times_a, times_b) -> None:
    wins = games = 0
    for seed in range(args.seed, args.seed + (args.games + 1) // 2):
        for a_team in (0, 1):
            state = spec.new_game(seed, args.seats)
            bots = [Timed(make_a(seed * 8 + s), times_a) if spec.team_of(s) == a_team
                    else Timed(make_b(seed * 8 + s), times_b) for s in range(state.players)]
            play(state, bots)
            wins += state.outcome().winner == a_team
            games += 1
        if args.progress and games % 50 == 0:
            print(f"  {games} games: A {wins / games:.3f}", file=sys.stderr)
    low, high = wilson(wins, games)
    seats = state.players
    print(f"{spec.key}, {seats} seats: {args.a} vs {args.b}, {games} games ({games // 2} seeds, teams swapped): "
          f"{args.a} wins {wins / games:.3f} [95% {low:.3f}, {high:.3f}]")


def run_21(spec: GameSpec, args, make_a, make_b, times_a, times_b) -> None:
    as_player: list[float] = []
    as_banker: list[float] = []
    for seed in range(args.seed, args.seed + (args.games + 1) // 2):
        for a_seat in (0, 1):
            state = spec.new_game(seed, args.seats)
            bots = [Timed(make_a(seed * 10 + s), times_a) if s == a_seat
                    else Timed(make_b(seed * 10 + s), times_b) for s in range(state.players)]
            round_no, chips, banker = spec.deal_number(state), state.outcome().scores[a_seat], spec.banker(state)
            while not state.is_terminal():
                seat = state.current_seat
                state.apply_action(bots[seat].choose(state.view(seat)), seat)
                now = spec.deal_number(state)
                if now != round_no or state.is_terminal():
                    change = state.outcome().scores[a_seat] - chips
                    (as_banker if banker == a_seat else as_player).append(change)
                    round_no, chips, banker = now, state.outcome().scores[a_seat], spec.banker(state)
    for name, values in (("player", as_player), ("banker", as_banker)):
        mean, low, high = mean_interval(values)
        print(f"{spec.key}: {args.a} among {args.b}, as {name}: {mean:+.3f} chips per round "
              f"[95% {low:+.3f}, {high:+.3f}] over {len(values)} rounds")
    mean, low, high = mean_interval(as_player + as_banker)
    print(f"{spec.key}: {args.a} among {args.b}, every round: {mean:+.3f} chips per round "
          f"[95% {low:+.3f}, {high:+.3f}]")


def report_times(name: str, times: list[float]) -> None:
    if times:
        ms = np.asarray(times) * 1000
        print(f"  {name}: {len(ms)} decisions, mean {ms.mean():.2f} ms, p95 {np.percentile(ms, 95):.2f} ms, "
              f"max {ms.max():.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="strong")
    parser.add_argument("--b", default="rule")
    parser.add_argument("--variant", default="paulista", help="a registry key: paulista, mineiro, 21")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seats", type=int, default=None,
                        help="seats at the table (truco: 4, or 2 mano a mano; default: the game's)")
    parser.add_argument("--cpu", type=int, default=None, help="the core to run on")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    spec = find_game(args.variant)
    if "coach0" in (args.a, args.b) and args.seats not in (None, 4):
        raise SystemExit("coach0 plays truco with 4 seats only")
    make_a, make_b = maker(spec, args.a), maker(spec, args.b)
    times_a: list[float] = []
    times_b: list[float] = []
    start = time.perf_counter()
    {"truco": run_truco, "21": run_21}[spec.family](spec, args, make_a, make_b, times_a, times_b)
    print(f"decision times, CPU time on one core ({time.perf_counter() - start:.0f} s in all, wall clock):")
    report_times(args.a, times_a)
    if args.b != args.a:
        report_times(args.b, times_b)


if __name__ == "__main__":
    main()
