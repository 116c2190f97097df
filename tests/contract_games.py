"""The games the generic contract test (`tests/test_contract.py`) plays, taken from the
registry (`cartas.games`), and the one random-play loop every test of random play uses.

To add a game to the contract test, add it to `cartas.games`; `GAMES` below lists each
registered game once with its defaults, plus a few option sets worth playing too. Nothing
in the contract test knows which game it plays.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from cartas.contract import Bot, Event, GameState
from cartas.games import GameSpec, all_games, find_game


@dataclass(frozen=True)
class ContractGame:
    spec: GameSpec
    options: dict[str, Any] = field(default_factory=dict)
    seats: int | None = None
    random_bots: bool = False   # the contract's bot test plays the random bot, else the rule bot

    def new(self, seed: int) -> GameState:
        return self.spec.new_game(seed, seats=self.seats, **self.options)

    def load(self, text: str) -> GameState:
        return self.spec.from_json(text)

    def bot(self, seed: int) -> Bot:
        return (self.spec.random_bot if self.random_bots else self.spec.bot)(seed)


GAMES: dict[str, ContractGame] = {spec.key: ContractGame(spec) for spec in all_games()}
GAMES.update({
    "paulista_random_bots": ContractGame(find_game("paulista"), random_bots=True),
    "mineiro_first_tying": ContractGame(find_game("mineiro"), {"tie_lead": "first_tying"}),
    # mano a mano, one against one (docs/rules.md#mano-a-mano-players)
    "paulista_mano_a_mano": ContractGame(find_game("paulista"), seats=2),
    "mineiro_mano_a_mano": ContractGame(find_game("mineiro"), {"tie_lead": "first_tying"}, seats=2,
                                        random_bots=True),
    "21_short": ContractGame(find_game("21"), {"rounds": 3}, random_bots=True),
    "21_auction": ContractGame(find_game("21"), {"rounds": 4, "rotation": "auction", "ace": "flexible"},
                               seats=5),
})


def play_randomly(state: GameState, rng: random.Random | None, steps: int | None = None,
                  check: Callable[[GameState, list[Event]], None] | None = None,
                  choose: Callable[[GameState], Any] | None = None) -> Iterator[list[Event]]:
    """Random legal actions through the contract alone, until the end (or `steps` actions);
    yields the events of each action, after `check(state, events)` when given. The tests' one
    random-play loop: `choose(state)`, when given, picks the action instead of `rng` (a seeded
    random bot choosing from the current seat's view)."""
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        if choose is not None:
            action = choose(state)
        else:
            assert rng is not None
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        events = state.apply_action(action)
        n += 1
        if check is not None:
            check(state, events)
        yield events


def play_out(state: GameState, rng: random.Random | None, steps: int | None = None,
             choose: Callable[[GameState], Any] | None = None) -> int:
    """`play_randomly` to the end (or `steps` actions), ignoring the events; the count."""
    return sum(1 for _ in play_randomly(state, rng, steps, choose=choose))
