"""Every game follows one contract (`cartas.contract`): the same random-play loop, written
only with the protocol's methods, runs every game in `tests/contract_games.GAMES`."""
import json
import random

import pytest

from cartas.contract import Bot, GameState, SeatView
from cartas.errors import RuleError

from contract_games import GAMES

SEEDS = (1, 2, 3)


def _play_randomly(state, rng, steps=None):
    """Random legal actions through the contract; yields (state, events) after each one."""
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        legal = state.legal_actions()
        events = state.apply_action(legal[rng.randrange(len(legal))])
        n += 1
        yield events


@pytest.mark.parametrize("name", GAMES)
def test_states_views_and_bots_satisfy_the_runtime_protocols(name):
    game = GAMES[name]
    state = game.new(1)
    assert isinstance(state, GameState)
    assert isinstance(game.bot(1), Bot)
    for seat in [*range(state.players), None]:
        assert isinstance(state.view(seat), SeatView)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", GAMES)
def test_random_play_through_the_contract_alone(name, seed):
    game = GAMES[name]
    state = game.new(seed)
    rng = random.Random(seed)
    before = len(state.events)
    for events in _play_randomly(state, rng):
        # apply_action returns the new events, which end the state's record
        assert isinstance(events, list) and events
        assert state.events[len(state.events) - len(events):] == events
        assert len(state.events) == before + len(events)
        before = len(state.events)
        for event in events:
            assert isinstance(event, dict) and isinstance(event["type"], str)
            json.dumps(event)
            pt, en = state.narrate(event, "pt"), state.narrate(event, "en")
            assert isinstance(pt, str) and isinstance(en, str) and pt and en
        # each seat's view: legal actions only on its turn, the same as the state's
        current = state.current_seat
        for seat in range(state.players):
            view = state.view(seat)
            assert view.seat == seat and view.current_seat == current
            assert view.is_my_turn == (seat == current)
            assert view.legal_actions() == (state.legal_actions() if seat == current else [])
        spectator = state.view(None)
        assert not spectator.is_my_turn and spectator.legal_actions() == []
    assert state.is_terminal() and state.current_seat is None and state.legal_actions() == []


@pytest.mark.parametrize("name", GAMES)
def test_json_round_trip_mid_game_is_equal_and_plays_on_identically(name):
    game = GAMES[name]
    for seed in SEEDS:
        state = game.new(seed)
        rng = random.Random(seed)
        for _ in _play_randomly(state, rng, steps=7 * seed):
            pass
        copy = game.load(state.to_json())
        assert copy.to_json() == state.to_json()
        assert copy.legal_actions() == state.legal_actions()
        for a, b in zip(_play_randomly(state, random.Random(9)),
                        _play_randomly(copy, random.Random(9))):
            assert a == b
        assert copy.to_json() == state.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name):
    state = GAMES[name].new(4)
    copy = state.clone()
    saved = state.to_json()
    for _ in _play_randomly(copy, random.Random(4), steps=5):
        pass
    assert state.to_json() == saved and copy.to_json() != saved


@pytest.mark.parametrize("name", GAMES)
def test_bots_choose_a_legal_action_from_their_seat_view(name):
    game = GAMES[name]
    state = game.new(5)
    bots = [game.bot(seat) for seat in range(state.players)]
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.current_seat
        action = bots[seat].choose(state.view(seat))
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("name", GAMES)
def test_a_refused_action_is_a_rule_error_in_both_languages_and_changes_nothing(name):
    state = GAMES[name].new(6)
    saved = state.to_json()
    for wrong in ("no such move", 42, None):
        with pytest.raises(RuleError) as info:
            state.apply_action(wrong)
        assert info.value.code and info.value.message("pt") and info.value.message("en")
        assert str(info.value) == info.value.message("en")
    assert state.to_json() == saved


@pytest.mark.parametrize("name", GAMES)
def test_saved_text_that_is_not_a_game_is_a_rule_error(name):
    load = GAMES[name].load
    for text in ("", "{", "[]", '{"format": "nothing"}', "[" * 100_000):
        with pytest.raises(RuleError):
            load(text)
