"""Every game follows one contract (`cartas.contract`): the same random-play loop, written
only with the protocol's methods, runs every game of the registry (`cartas.games`, listed
in `tests/contract_games.GAMES`)."""
import json
import random
from collections.abc import Sequence

import pytest

from cartas.cards import Card
from cartas.contract import Action, Bot, GameState, Outcome, SeatView
from cartas.errors import RuleError

from contract_games import GAMES, play_out, play_randomly as _play_randomly

SEEDS = (1, 2, 3)


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
        assert isinstance(events, Sequence) and events
        assert state.events[len(state.events) - len(events):] == list(events)
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
    outcome = state.outcome()
    assert isinstance(outcome, Outcome) and outcome.over and outcome.winner == state.winner
    assert outcome.winners and (outcome.winner is None) == (len(outcome.winners) > 1)
    json.dumps(outcome.to_dict())


@pytest.mark.parametrize("name", GAMES)
def test_actions_are_described_in_both_languages_and_read_back_from_their_text(name):
    game = GAMES[name]
    state = game.new(2)
    for _ in range(40):
        if state.is_terminal():
            break
        for action in state.legal_actions():
            assert isinstance(action, Action) and isinstance(action.kind, str)
            assert game.spec.parse_action(str(action)) == action
            pt, en = state.describe(action, "pt"), state.describe(action, "en")
            assert pt and en and isinstance(pt, str) and isinstance(en, str)
        play_out(state, random.Random(2), steps=1)


@pytest.mark.parametrize("name", GAMES)
def test_the_outcome_counts_each_side_before_the_end(name):
    state = GAMES[name].new(3)
    outcome = state.outcome()
    assert not outcome.over and outcome.winner is None and outcome.winners == ()
    assert outcome.by in ("team", "seat")
    assert len(outcome.scores) == (2 if outcome.by == "team" else state.players)


@pytest.mark.parametrize("name", GAMES)
def test_views_hold_card_values_or_none_for_a_hidden_card(name):
    state = GAMES[name].new(4)
    seen = 0
    for _ in _play_randomly(state, random.Random(4), steps=25):
        for seat in (0, None):
            for hand in state.view(seat).hands:
                assert all(card is None or isinstance(card, Card) for card in hand)
                seen += sum(isinstance(card, Card) for card in hand)
    assert seen


@pytest.mark.parametrize("name", GAMES)
def test_changing_the_events_returned_never_changes_the_history(name):
    state = GAMES[name].new(5)
    for events in _play_randomly(state, random.Random(5), steps=30):
        saved = json.dumps(state.events)
        for event in events:
            for key, value in list(event.items()):
                if isinstance(value, list):
                    value.append("changed")
                event[key] = "changed"
        assert json.dumps(state.events) == saved


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


# -- the registry (cartas.games) -----------------------------------------------------------

def test_the_registry_holds_paulista_mineiro_and_21_each_titled_in_both_languages():
    from cartas.games import GAME_KEYS, all_games, find_game

    assert GAME_KEYS == ("paulista", "mineiro", "21")
    assert [spec.key for spec in all_games()] == list(GAME_KEYS)
    assert find_game("21").title("pt") == "21 (vinte e um)" and find_game("21").title("en")
    assert find_game("mineiro").title("en") == "Truco Mineiro"
    assert find_game("paulista").seats == (2, 4) and find_game("paulista").teams  # 2: mano a mano
    assert find_game("21").seats == (3, 12) and not find_game("21").teams


@pytest.mark.parametrize("key", ["truco", "vinte_e_um", "", None, 21, "PAULISTA"])
def test_an_unknown_game_key_is_a_rule_error_naming_it_and_the_choices(key):
    from cartas.games import GameError, find_game

    with pytest.raises(GameError) as info:
        find_game(key)
    assert info.value.code == "unknown_game"
    for lang in ("pt", "en"):
        assert repr(key) in info.value.message(lang) and "paulista, mineiro, 21" in info.value.message(lang)


@pytest.mark.parametrize("key, seats, options, code", [
    ("21", None, {"rounds": 0}, "bad_number"),
    ("21", None, {"rounds": 1001}, "bad_number"),
    ("21", None, {"ace": True}, "bad_choice"),
    ("21", None, {"ace": 11.0}, "bad_choice"),
    ("21", None, {"rotation": "lottery"}, "bad_choice"),
    ("21", 3, {"chips": [5, 5]}, "bad_per_seat"),
    ("21", None, {"colour": "red"}, "unknown_option"),
    ("21", 13, {}, "bad_seats"),
    ("21", True, {}, "bad_seats"),
    ("paulista", 3, {}, "bad_seat_count"),
    ("mineiro", 5, {}, "bad_seats"),
    ("mineiro", None, {"tie_lead": "dealer"}, "bad_choice"),
    ("paulista", None, {"rounds": 3}, "unknown_option"),
])
def test_a_setup_outside_the_options_ranges_is_refused_before_the_engine(key, seats, options, code):
    from cartas.games import GameError, find_game

    with pytest.raises(GameError) as info:
        find_game(key).new_game(1, seats=seats, **options)
    assert info.value.code == code
    assert info.value.message("pt") != info.value.message("en")


def test_an_impossible_combination_of_options_is_the_engines_own_refusal():
    from cartas.games import find_game
    from cartas.vinte_e_um import VinteEUmError

    with pytest.raises(VinteEUmError) as info:
        find_game("21").new_game(1, ace=1, rotation="natural")
    assert info.value.code == "natural_needs_11"


def test_a_spec_starts_the_same_game_as_its_engine_from_the_same_seed():
    import cartas.truco as truco
    import cartas.vinte_e_um as vinte_e_um
    from cartas.games import find_game

    assert find_game("mineiro").new_game(7, tie_lead="first_tying").to_json() == \
        truco.new_game("mineiro", 7, tie_lead="first_tying").to_json()
    assert find_game("21").new_game(7, seats=5, rounds=3).to_json() == \
        vinte_e_um.new_game(5, 7, rounds=3).to_json()
