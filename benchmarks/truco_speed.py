"""Truco engine speed, compared with main's engine and OpenSpiel's euchre, plus the rule bot's win rate.

Run:  .venv/bin/python benchmarks/truco_speed.py [--games 2000] [--bot-games 1000] [--repeat 3]

Random play is driven from a plain Python loop (legal_actions, pick one, apply_action) for
both engines, in the same process, so the ratio compares like with like. OpenSpiel is
optional (`pip install open_spiel`): without it the comparison is skipped.

Deals: euchre's loop draws every deal from one shared random stream, so the headline truco
figure does the same (one seeded numpy Generator passed to `new_game` for every game). The
figure with a new seed per game (`new_game(variant, seed)`, which builds a Generator each
time, about 10-20 µs) is printed too.

Main's engine: the `cartas` package as it was on main at 09cbd7e (`--against`), taken from
git at run time (`git archive`) into a temporary folder and imported as `cartas_main`; the same
loop times it in the same rounds, and the ratio today / main is printed (the engine must stay
within 10% of main's actions per second). Run it from a git checkout of the project.

The machine may be shared, so each measurement is repeated (`--repeat`, in interleaved
rounds: euchre, paulista, main's paulista, mineiro, main's mineiro, euchre, ...) and the best
rate of each is printed.
"""
from __future__ import annotations

import argparse
import importlib
import io
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from cartas.cards import make_rng
from cartas.truco import MINEIRO, PAULISTA, new_game
from cartas.truco.bots import RandomBot, RuleBot, play_game

ROOT = Path(__file__).resolve().parents[1]
MAIN = "09cbd7e"  # main before the fast path was rewritten (issue 19)


def engine_at(revision: str):
    """The truco engine of `revision`: its `cartas` package, from git, imported as `cartas_main`
    (its imports are relative, so it never mixes with today's package)."""
    archive = subprocess.run(["git", "archive", revision, "cartas"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    folder = Path(tempfile.mkdtemp(prefix="cartas-main-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "cartas").rename(folder / "cartas_main")
    sys.path.insert(0, str(folder))
    return importlib.import_module("cartas_main.truco")


def truco_rate(variant, games: int, seed: int = 0, shared_stream: bool = True,
               new_game=new_game) -> tuple[float, float]:
    """(games/s, actions/s) of uniformly random play, with `new_game` (today's engine, or
    main's: `engine_at(MAIN).new_game`).

    shared_stream: every deal comes from one seeded Generator (as euchre's deals come from
    one random.Random); otherwise each game gets its own seed."""
    pick = random.Random(seed)
    deals = make_rng(seed)
    actions = 0
    start = time.perf_counter()
    for game in range(games):
        state = new_game(variant, deals if shared_stream else game)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[pick.randrange(len(legal))])
            actions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def euchre_rate(games: int, seed: int = 0) -> tuple[float, float, float] | None:
    """(games/s, player actions/s, all actions/s) of OpenSpiel's euchre, or None.

    Truco deals inside the engine, so the fair figure counts only the players' actions
    (the time spent dealing is still counted); chance moves are included in the last one."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    pick = random.Random(seed)
    actions = chance = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[pick.randrange(len(outcomes))][0])
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[pick.randrange(len(legal))])
                actions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, (actions + chance) / elapsed


def bot_win_rate(variant, games: int) -> float:
    """Share of seeded games the RuleBot team wins against the RandomBot team.

    The rule team sits at seats 0 and 2 in even games and 1 and 3 in odd ones."""
    wins = 0
    for game in range(games):
        rule_team = game % 2
        bots = [RuleBot(4 * game + s) if s % 2 == rule_team else RandomBot(4 * game + s)
                for s in range(4)]
        wins += play_game(variant, bots, seed=game).winner == rule_team
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="random games per variant")
    parser.add_argument("--bot-games", type=int, default=1000, help="bot games per variant")
    parser.add_argument("--repeat", type=int, default=3,
                        help="rounds of the speed measurements; the best round of each is shown")
    parser.add_argument("--against", default=MAIN, help="the git revision whose engine is timed beside today's")
    args = parser.parse_args()
    truco_main = engine_at(args.against)

    euchre, truco, seeded, main_engine = None, {}, {}, {}
    for _ in range(max(args.repeat, 1)):  # keep each engine's best round
        e = euchre_rate(max(args.games // 2, 1))
        if e is not None and (euchre is None or e[1] > euchre[1]):
            euchre = e
        for variant in (PAULISTA, MINEIRO):
            t = truco_rate(variant, args.games)
            if variant not in truco or t[1] > truco[variant][1]:
                truco[variant] = t
            t = truco_rate(variant.key, args.games, new_game=truco_main.new_game)
            if variant not in main_engine or t[1] > main_engine[variant][1]:
                main_engine[variant] = t
            t = truco_rate(variant, args.games, shared_stream=False)
            if variant not in seeded or t[1] > seeded[variant][1]:
                seeded[variant] = t
    if euchre is None:
        print("open_spiel is not installed (pip install open_spiel): comparison skipped")
    else:
        print(f"OpenSpiel euchre: {euchre[0]:10,.0f} games/s {euchre[1]:12,.0f} actions/s"
              f"   ({euchre[2]:,.0f}/s counting the deal's chance moves)")
    for label, rates in (("one deal stream, as euchre", truco), ("a new seed per game", seeded)):
        print(f"truco, {label}:")
        for variant in (PAULISTA, MINEIRO):
            games_s, actions_s = rates[variant]
            line = f"  {variant.key:9s}: {games_s:10,.0f} games/s {actions_s:12,.0f} actions/s"
            if euchre is not None:
                line += f"   ratio to euchre {actions_s / euchre[1]:.2f}"
                line += f" ({actions_s / euchre[2]:.2f} counting its chance moves)"
            print(line)
    print(f"today's engine against main's ({args.against}), one deal stream:")
    for variant in (PAULISTA, MINEIRO):
        now, then = truco[variant][1], main_engine[variant][1]
        print(f"  {variant.key:9s}: today {now:12,.0f} actions/s   main {then:12,.0f} actions/s"
              f"   today / main {now / then:.2f}")
    for variant in (PAULISTA, MINEIRO):
        if args.bot_games > 0:
            rate = bot_win_rate(variant, args.bot_games)
            print(f"RuleBot team vs RandomBot team, {variant.key}, {args.bot_games} seeded "
                  f"games: RuleBot wins {rate:.1%}")


if __name__ == "__main__":
    main()
