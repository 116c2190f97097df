"""Speed of the truco odds explorer: numpy Monte Carlo against the engine's own loop.

Run:  .venv/bin/python benchmarks/truco_odds_speed.py [--hands 1000000] [--engine-hands 2000]

Prints simulated hands per second of `cartas.truco.odds` (deal + play + summary), the rate
of the engine playing the same hands (`engine_odds`: from_deal, then RuleBot through
legal_actions/apply_action until the hand ends), their ratio, and the latency of one
explorer query (`hand_odds` with its default 50,000 simulations). Targets: >= 1,000,000
hands/s, >= 100x the engine, < 200 ms per query.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from cartas.truco.odds import engine_odds, hand_odds

POSITION = ("paulista", ["3♣", "2♦", "K♥"], "7♠", 0)


def best_of(repeats: int, run) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--engine-hands", type=int, default=2000)
    args = parser.parse_args()
    hand_odds(*POSITION, simulations=10_000, seed=0)  # warm up
    fast = args.hands / best_of(3, lambda: hand_odds(*POSITION, simulations=args.hands, seed=1))
    slow = args.engine_hands / best_of(
        1, lambda: engine_odds(*POSITION, simulations=args.engine_hands, seed=1))
    latencies = []
    for seed in range(7):
        start = time.perf_counter()
        hand_odds(*POSITION, seed=seed)
        latencies.append(time.perf_counter() - start)
    query = statistics.median(latencies) * 1000
    ratio = fast / slow
    print(f"numpy Monte Carlo: {fast:,.0f} simulated hands/s")
    print(f"engine loop (from_deal + RuleBot): {slow:,.0f} hands/s")
    print(f"ratio: {ratio:,.0f}x")
    print(f"one explorer query (50,000 hands): {query:.0f} ms (median of 7)")
    ok = fast >= 1_000_000 and ratio >= 100 and query < 200
    print("targets met" if ok else "TARGETS MISSED (>= 1,000,000/s, >= 100x, < 200 ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
