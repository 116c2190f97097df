"""Time every exact 21 odds figure, cold (memo cleared), against the 50 ms budget.

Each figure runs 7 times from a cleared memo; the median is held to the budget (the
slowest run is shown too: on a shared machine it measures the neighbours).

Run: .venv/bin/python benchmarks/vinte_e_um_odds.py
"""
import sys
import time

from cartas.vinte_e_um import odds

BUDGET_MS = 50.0
CASES = [
    ("bust_probability, 1 pack", odds.bust_probability, (["5♥", "4♣", "3♦"], ["6♦", "K♠"], 1, 1)),
    ("bust_probability, 2 packs flexible", odds.bust_probability, (["A♥", "4♣"], ["6♦"], "flexible", 2)),
]
for ace in (1, 11, "flexible"):
    for decks in (1, 2):
        CASES += [
            (f"banker_final_distribution, unseen 2 cards, ace={ace}, {decks} pack(s)",
             odds.banker_final_distribution, ([], ["7♥"], 1, 17, ace, decks)),
            (f"banker_final_distribution, upcard 2, draw below 21, ace={ace}, {decks} pack(s)",
             odds.banker_final_distribution, (["2♣"], ["7♥"], 1, 21, ace, decks, True)),
            (f"win_probability, 10+7 v 2, ace={ace}, {decks} pack(s)",
             odds.win_probability, (["10♥", "7♣"], ["2♦"], [], 1, 17, ace, decks)),
        ]


def main() -> int:
    worst = 0.0
    for name, func, args in CASES:
        times = []
        for _ in range(7):
            odds._final.cache_clear()
            start = time.perf_counter()
            func(*args)
            times.append((time.perf_counter() - start) * 1000)
        median = sorted(times)[len(times) // 2]
        worst = max(worst, median)
        print(f"{median:7.2f} ms median (best {min(times):6.2f}, slowest {max(times):7.2f})  {name}")
    print(f"slowest median: {worst:.2f} ms; budget {BUDGET_MS:.0f} ms")
    return 0 if worst < BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
