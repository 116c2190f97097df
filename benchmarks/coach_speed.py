"""How fast the coach answers: every kind of advice in its slowest common positions.

Run:  .venv/bin/python benchmarks/coach_speed.py

Prints, for each position, the worst of 5 runs in milliseconds and its ratio to one explorer
query (`hand_odds` with 50,000 simulations) measured in the same run. Target: every advice
under 300 ms (the coach answers a "Dica" click). The truco advice is the strong player's
judge (`cartas.truco.strong`, one brain with the "Forte" bots): its worlds bound the work.
"""
from __future__ import annotations

import time

from cartas.coach.truco import TrucoSpot, advise, advise_truco
from cartas.coach.vinte_e_um import advise_banker, advise_player
from cartas.truco.odds import hand_odds

TARGET_MS = 300

POSITIONS = {
    "truco: ask at the start (the judge)": lambda: advise_truco(
        TrucoSpot("paulista", ["3♣", "2♦", "K♥"], vira="7♠", next_raise=3)),
    "truco: card, last in trick 1 (3 candidates)": lambda: advise(
        TrucoSpot("paulista", ["3♣", "2♦", "4♥"], vira="7♠", seat=3,
                  table=[(0, "K♦"), (1, "5♣"), (2, "J♠")])),
    "truco: card, leading trick 1 (3 candidates, 9 hidden)": lambda: advise(
        TrucoSpot("paulista", ["3♣", "2♦", "4♥"], vira="7♠", seat=0)),
    "truco: card, second in trick 2 (2 cards + face down)": lambda: advise(
        TrucoSpot("paulista", ["3♣", "4♥"], vira="7♠", seat=1, results=[0],
                  table=[(0, "K♦")], seen=["2♦", "5♣", "J♠", "Q♥"])),
    "truco: ask in trick 2 (the judge)": lambda: advise_truco(
        TrucoSpot("paulista", ["3♣", "4♥"], vira="7♠", seat=1, results=[1],
                  table=[(0, "K♦")], seen=["2♦", "5♣", "J♠", "Q♥"], next_raise=3)),
    "truco: answer a raise (the judge)": lambda: advise(
        TrucoSpot("mineiro", ["4♣", "3♦", "K♥"], seat=1, pending=4, hand_value=2,
                  next_raise=6)),
    "truco: answer for the partner after playing (the judge)": lambda: advise(
        TrucoSpot("paulista", ["3♣", "4♥"], vira="7♠", seat=0, mao=0, leader=0, pending=3,
                  next_raise=6, table=[(0, "K♦"), (1, "5♣")])),
    "truco: mão de onze (the judge, with partner)": lambda: advise(
        TrucoSpot("paulista", ["3♣", "2♦", "K♥"], vira="7♠", partner=["A♦", "5♥", "6♣"],
                  deciding=True, threshold=True, score=(11, 4))),
    "21: player, 12 against a 10 showing": lambda: advise_player(["2♠", "K♥"], ["10♦"]),
    "21: player, 4 against a 6 showing": lambda: advise_player(["2♠", "2♥"], ["6♦"]),
    "21: banker, 12 against three players": lambda: advise_banker(
        ["2♠", "K♥"], [(["9♦"], 1, 3), (["5♣"], 1, 2), (["K♦", "2♣"], 1, 5)]),
}


def worst_of(repeats: int, run) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return max(times)


def main() -> None:
    reference = worst_of(5, lambda: hand_odds("paulista", ["3♣", "2♦", "K♥"], "7♠", 0, 50_000, 1))
    print(f"reference: hand_odds, 50,000 simulations: {1000 * reference:.0f} ms")
    slowest = 0.0
    for name, run in POSITIONS.items():
        run()  # warm caches (lru caches, imports), as a running dashboard has them
        seconds = worst_of(5, run)
        slowest = max(slowest, seconds)
        print(f"{name:55s} {1000 * seconds:6.0f} ms  ({seconds / reference:4.2f} x reference)")
    verdict = "OK" if 1000 * slowest < TARGET_MS else "TOO SLOW"
    print(f"slowest advice: {1000 * slowest:.0f} ms (target < {TARGET_MS} ms): {verdict}")


if __name__ == "__main__":
    main()
