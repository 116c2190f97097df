"""The games the generic contract test (`tests/test_contract.py`) plays, one entry each.

To add a game, add one `ContractGame` to `GAMES`: how to start it from a seed, how to load
its saved text (the module's `from_json`) and a bot for it. Nothing else in the contract
test knows which game it plays.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cartas.truco as truco
import cartas.vinte_e_um as vinte_e_um


@dataclass(frozen=True)
class ContractGame:
    new: Callable[[int], Any]          # seed -> a new GameState
    load: Callable[[str], Any]         # the game module's from_json
    bot: Callable[[int], Any]          # seed -> a Bot


GAMES: dict[str, ContractGame] = {
    "truco_paulista": ContractGame(lambda seed: truco.new_game("paulista", seed),
                                   truco.from_json, lambda seed: truco.RandomBot(seed)),
    "truco_mineiro": ContractGame(lambda seed: truco.new_game("mineiro", seed,
                                                              tie_lead="first_tying"),
                                  truco.from_json, lambda seed: truco.RuleBot(seed)),
    "vinte_e_um": ContractGame(lambda seed: vinte_e_um.new_game(4, seed, rounds=3),
                               vinte_e_um.from_json, lambda seed: vinte_e_um.RandomBot(seed)),
    "vinte_e_um_auction": ContractGame(
        lambda seed: vinte_e_um.new_game(5, seed, rounds=4, rotation="auction", ace="flexible"),
        vinte_e_um.from_json, lambda seed: vinte_e_um.SensibleBot(seed)),
}
