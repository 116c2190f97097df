"""Shared set-up for the 21 tests."""
from cartas.cards import Card
from cartas.vinte_e_um import new_game
from cartas.vinte_e_um.bots import RandomBot

from contract_games import play_out


def random_game_after(seed: int, steps: int, players: int = 4):
    """A seeded game with a bank-moving rotation, played at random for up to `steps` actions."""
    game = new_game(players, seed=seed, rotation=["rounds", "auction", "sale"][seed % 3],
                    rotation_rounds=1, rounds=3)
    bot = RandomBot(seed)
    play_out(game, None, steps, choose=lambda state: bot.choose(state.view(state.current_seat)))
    return game


def as_lists(value):
    """A view's tuples (nested) as lists and its cards as text, to compare with literals."""
    if isinstance(value, tuple):
        return [as_lists(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    return value
