"""Thousands of seeded random games: invariants after every action, and the JSON round trip."""

import pytest

from cartas.cards import make_rng, standard_pack
from cartas.vinte_e_um import ROTATIONS, from_json, new_game
from cartas.vinte_e_um.bots import RandomBot, SensibleBot

GAMES = 2000


def check_invariants(game, pack):
    assert sum(game.chips) + game.pot == game.total_chips
    assert min(game.chips) >= 0
    # every card in exactly one place; the engine deals the pack's own objects, so ids will do
    cards = game.stock + game.collected + [c for hand in game.hands for c in hand]
    assert sorted(map(id, cards)) == pack
    for seat, bet in enumerate(game.bets):
        assert bet == 0 or game.min_bet <= bet <= game.max_bet
        assert bet == 0 or seat in game.in_round and seat != game.banker
    assert all(len(game.face_down[s]) <= 1 for s in range(game.players))


def config(i):
    rotation = ROTATIONS[i % len(ROTATIONS)]
    ace = (1, 11, "flexible")[(i // len(ROTATIONS)) % 3]
    if rotation == "natural" and ace == 1:
        ace = 11  # the natural rotation needs an ace worth 11
    players = 3 + (i // 4 * 3 + i) % 10
    rounds = None if i % 7 == 0 else 1 + i % 3
    chips = 2 if rounds is None else (3, 20)[i % 2]
    return dict(players=players, seed=i, ace=ace, rotation=rotation, rounds=rounds, chips=chips,
                rotation_rounds=1 + i % 2, max_bet=1 + i % 5)


@pytest.mark.parametrize("part", range(4))
def test_random_play_keeps_every_invariant_and_round_trips(part):
    covered = set()
    for i in range(part, GAMES, 4):
        options = config(i)
        game = new_game(**options)
        pack = sorted(map(id, standard_pack(game.decks)))
        bots = [(SensibleBot if (i + s) % 3 == 0 else RandomBot)(i * 100 + s) for s in range(game.players)]
        snapshot_at = int(make_rng(i).integers(1, 60))
        steps = 0
        while not game.is_terminal():
            seat = game.current_seat
            game.apply_action(bots[seat].choose(game.view(seat)), seat)
            check_invariants(game, pack)
            steps += 1
            if steps == snapshot_at:  # continue a copy from JSON alongside the original
                copy, copy_bots = from_json(game.to_json()), [type(b)(0) for b in bots]
                for b, c in zip(bots, copy_bots):
                    c.rng.bit_generator.state = b.rng.bit_generator.state
            assert steps < 20_000
        text = game.to_json()
        assert from_json(text).to_json() == text
        if steps >= snapshot_at:
            while not copy.is_terminal():
                copy.apply_action(copy_bots[copy.current_seat].choose(copy.view(copy.current_seat)))
            assert copy.to_json() == text
        assert game.winners and max(game.chips) == game.chips[game.winners[0]]
        covered.add((options["players"], options["ace"], options["rotation"]))
    assert {p for p, _, _ in covered} == set(range(3, 13))
    assert {a for _, a, _ in covered} == {1, 11, "flexible"}
    assert {r for _, _, r in covered} == set(ROTATIONS)
