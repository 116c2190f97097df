"""Writes `saved_samples_main.json`: saved games, scenario links and stored tables as the
engine wrote them on main at commit 09cbd7e (before saves became setup plus actions).

Run once, on that code: `.venv/bin/python tests/data/make_saved_samples.py`. The file it
writes is kept, and `tests/test_saved_samples.py` checks that today's readers still load
every sample and that each plays on exactly as it did then. Running it again on newer code
would only record the newer engine, so the kept file is the reference.
"""
from __future__ import annotations

import base64
import json
import random
import zlib
from pathlib import Path

import cartas.scenario as sc
import cartas.truco as truco
import cartas.vinte_e_um as vinte_e_um
from classroom import games

OUT = Path(__file__).with_name("saved_samples_main.json")


def _after(state, steps: int, seed: int):
    """Plays `steps` seeded random actions; returns the actions as text."""
    pick, done = random.Random(seed), []
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[pick.randrange(len(legal))]
        state.apply_action(action)
        done.append(str(action))
    return done


def _expect(state) -> dict:
    """What a loaded sample must show, then how it must play on (30 seeded actions)."""
    copy = state.clone()
    out = {"current_seat": state.current_seat, "terminal": state.is_terminal(),
           "legal": [str(a) for a in state.legal_actions()], "events": len(state.events),
           "winner": state.winner}
    out["then_actions"] = _after(copy, 30, seed=99)
    out["then_events"] = copy.events[len(state.events):]
    return out


def _v1_link(scenario: dict) -> str:
    raw = json.dumps(sc.validate(scenario), ensure_ascii=False, sort_keys=True).encode("utf-8")
    body = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    return f"1.{body}.{sc._digest(raw)}"


def main() -> None:
    samples = []
    # saved games: to_json() of states mid-game and at the end
    for variant, seed, steps, tie in (("paulista", 1, 23, "leader"), ("mineiro", 2, 41, "first_tying"),
                                      ("paulista", 3, 0, "leader"), ("paulista", 4, 10_000, "leader")):
        state = truco.new_game(variant, seed, tie_lead=tie)
        _after(state, steps, seed)
        samples.append({"kind": "save", "game": variant, "text": state.to_json(), **_expect(state)})
    state = truco.from_deal("paulista", ["4♣ 7♥ A♠", "3♦ 2♠ K♥", "Q♣ J♦ 7♦", "5♠ 6♥ 4♦"], "K♠",
                            dealer=1, score=(11, 7), seed=5)
    _after(state, 5, 5)
    samples.append({"kind": "save", "game": "paulista", "text": state.to_json(), **_expect(state)})
    for players, seed, steps, options in ((4, 1, 17, {"rounds": 3}),
                                          (5, 2, 60, {"rotation": "auction", "ace": "flexible"}),
                                          (4, 3, 45, {"rotation": "sale", "rounds": 6}),
                                          (3, 4, 90, {"rotation": "natural"}),
                                          (6, 5, 10_000, {"rounds": 4, "decks": 2})):
        state = vinte_e_um.new_game(players, seed, **options)
        _after(state, steps, seed)
        samples.append({"kind": "save", "game": "21", "text": state.to_json(), **_expect(state)})
    # scenario links, version 2 (written today) and version 1 (still read)
    scenarios = [
        sc.truco_scenario("paulista", [["7♥", "A♠", "3♦"], ["4♣", "2♠", "K♥"], ["Q♣", "J♦", "7♦"],
                                       ["5♠", "6♥", "4♦"]], "K♠", dealer=2, score=(3, 9), seed=7,
                          title="Mão de exemplo"),
        sc.truco_scenario("mineiro", [["4♣", "7♥", "A♠"], ["7♦", "3♦", "2♠"], ["K♥", "Q♣", "J♦"],
                                      ["5♠", "6♥", "4♦"]], dealer=0, score=(10, 4), seed=8, tie_lead="first_tying"),
        sc.vinte_e_um_scenario(4, 1, chips=[20, 15, 10, 5], rotation="auction", ace="flexible", seed=3,
                               deal={"first_cards": ["5♥", "K♣", "A♠", "9♦"], "upcard": "7♣",
                                     "then": ["2♦", "A♥"]}),
        sc.vinte_e_um_scenario(5, 0, rounds=4, seed=11),
    ]
    for scenario in scenarios:
        for link in (sc.encode_link(scenario), _v1_link(scenario)):
            state = sc.build(sc.decode_link(link))
            samples.append({"kind": "link", "game": scenario["game"], "text": link,
                            "scenario": sc.validate(scenario), **_expect(state)})
    # stored tables: the state text classroom.tables keeps, as classroom.games makes it
    for game, seats, options, seed, steps in (("paulista", 4, {}, 12, 9), ("mineiro", 4, {}, 13, 30),
                                              ("21", 5, {"rotation": "sale", "rounds": 5}, 14, 25),
                                              ("21", 3, {"ace": 11, "packs": 2}, 15, 0)):
        seats, clean = games.check_setup(game, seats, options)
        state = games.new_state(game, seats, clean, seed)
        _after(state, steps, seed)
        samples.append({"kind": "table", "game": game, "text": state.to_json(), **_expect(state)})
    OUT.write_text(json.dumps({"made_on": "main 09cbd7e", "samples": samples}, ensure_ascii=False,
                              indent=0) + "\n", encoding="utf-8")
    print(f"{len(samples)} samples -> {OUT}")


if __name__ == "__main__":
    main()
