"""Thousands of seeded random games of 21, driven only through the game contract
(`cartas.contract`) by the tests' one random-play loop (`contract_games.play_randomly`):
legal actions, the events apply_action returns, each seat's view, narration of every event
in both languages, and the JSON round trip mid-game. A second test checks the engine's own
invariants (chips and cards) after every action."""

import random

import pytest

from cartas.cards import make_rng, standard_pack
from cartas.contract import GameState, SeatView
from cartas.vinte_e_um import ROTATIONS, from_json, narrate, new_game
from cartas.vinte_e_um.bots import RandomBot, SensibleBot

from contract_games import play_randomly

GAMES = 2000


def config(i):
    rotation = ROTATIONS[i % len(ROTATIONS)]
    ace = (1, 11, "flexible")[(i // len(ROTATIONS)) % 3]
    if rotation == "natural" and ace == 1:
        ace = 11  # the natural rotation needs an ace worth 11
    players = 3 + (i // 4 * 3 + i) % 10
    rounds = None if i % 14 == 0 else 1 + i % 2
    chips = 2 if rounds is None else (3, 20)[i % 2]
    return dict(players=players, seed=i, ace=ace, rotation=rotation, rounds=rounds, chips=chips,
                rotation_rounds=1 + i % 2, max_bet=1 + i % 5)


def play_through_the_contract(game, snapshot_at, seed):
    """Play to the end with Protocol methods only (`contract_games.play_randomly`), checking
    each seat's view and the events of every action; returns (steps, copy from JSON or None)."""
    assert isinstance(game, GameState)
    assert isinstance(game.view(game.current_seat), SeatView)  # the Protocol (a slow check: once)
    found = {"steps": 0, "copy": None}

    def check(game, events):
        steps = found["steps"]
        before = len(game.events) - len(events)
        assert events and game.events[before:] == events
        seat = game.current_seat
        if seat is not None:
            view = game.view(seat)
            assert view.seat == seat and view.is_my_turn
            assert view.legal_actions() == game.legal_actions()
            if steps % 4 == 0:  # a seat waiting its turn
                other = game.view((seat + 1 + steps % (game.players - 1)) % game.players)
                assert not other.is_my_turn and other.legal_actions() == []
        if steps % 32 == 0:  # what a spectator is told of them (the whole log: now and then)
            assert game.view(None).events[before:] == [
                e if e["type"] != "deal" or e["face_up"] else dict(e, card=None) for e in events]
        for event in events:
            assert narrate(event, "pt") != game.narrate(event, "en")
        found["steps"] = steps = steps + 1
        if steps == snapshot_at:
            found["copy"] = copy = from_json(game.to_json())
            assert copy.to_json() == game.to_json()
        assert steps < 20_000

    for _ in play_randomly(game, random.Random(seed), check=check):
        pass
    assert game.current_seat is None and game.legal_actions() == []
    return found["steps"], found["copy"]


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_random_play_through_the_contract(part):
    covered = set()
    for i in range(part, GAMES, 4):
        options = config(i)
        game = new_game(**options)
        snapshot_at = int(make_rng(i).integers(1, 40))
        steps, copy = play_through_the_contract(game, snapshot_at, i)
        if copy is not None:  # a copy from JSON plays on to a legal end
            play_through_the_contract(copy, 0, i + 1)
        text = game.to_json()
        assert from_json(text).to_json() == text
        winners = game.winners
        assert winners and all(game.chips[w] == max(game.chips) for w in winners)
        assert game.winner == (winners[0] if len(winners) == 1 else None)
        covered.add((options["players"], options["ace"], options["rotation"]))
    assert {p for p, _, _ in covered} == set(range(3, 13))
    assert {a for _, a, _ in covered} == {1, 11, "flexible"}
    assert {r for _, _, r in covered} == set(ROTATIONS)


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


@pytest.mark.slow
def test_engine_invariants_and_identical_continuation_from_json():
    for i in range(0, 400):
        game = new_game(**config(i))
        pack = sorted(map(id, standard_pack(game.decks)))
        bots = [(SensibleBot if (i + s) % 3 == 0 else RandomBot)(i * 100 + s) for s in range(game.players)]
        snapshot_at = int(make_rng(i).integers(1, 60))
        steps, copy = 0, None
        while not game.is_terminal():
            seat = game.current_seat
            game.apply_action(bots[seat].choose(game.view(seat)), seat)
            check_invariants(game, pack)
            steps += 1
            if steps == snapshot_at:  # continue a copy from JSON alongside the original
                copy, copy_bots = from_json(game.to_json()), [type(b)(0) for b in bots]
                for b, c in zip(bots, copy_bots):
                    c.rng.bit_generator.state = b.rng.bit_generator.state
        if copy is not None:
            while not copy.is_terminal():
                copy.apply_action(copy_bots[copy.current_seat].choose(copy.view(copy.current_seat)))
            assert copy.to_json() == game.to_json()
