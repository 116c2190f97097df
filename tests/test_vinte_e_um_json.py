"""21's from_json trusts nothing: every mutated or impossible state is refused with a
VinteEUmError, and whatever it accepts can be played on."""
import json

import numpy as np
import pytest

from cartas.vinte_e_um import ALL, RandomBot, VinteEUmError, from_json, legacy

from vinte_e_um_helpers import random_game_after


def refused(text, code="bad_state"):
    with pytest.raises(VinteEUmError) as info:
        from_json(text)
    assert info.value.code == code, str(info.value)
    assert info.value.message("pt") != info.value.message("en")
    return info.value


def saved(seed=3, steps=1, players=4):
    return json.loads(random_game_after(seed, steps, players).to_json())


def first_format(seed=3, steps=1, players=4):
    """The same game as the first format ("cartas.vinte_e_um/1") wrote it."""
    return legacy.first_format(random_game_after(seed, steps, players))


@pytest.mark.parametrize("change, where", [
    (lambda d: d.update(phase="banana"), "phase"),
    (lambda d: d.update(banker=17), "banker"),
    (lambda d: d.update(banker=True), "banker"),
    (lambda d: d["chips"].__setitem__(1, -3), "chips"),
    (lambda d: d["chips"].__setitem__(1, d["chips"][1] + 1), "chips"),   # a chip from nowhere
    (lambda d: d["hands"][1].append(d["hands"][2][0]), "hands"),          # a card twice
    (lambda d: (d["hands"][1].extend(d["stock"][:4]), d["stock"].__delitem__(slice(0, 4))),
     "hands"),                                                             # a 5-card hand to bet
    (lambda d: d["stock"].pop(), "stock"),                                # a card missing
    (lambda d: d["stock"].__setitem__(0, "1♥"), "stock[0]"),
    (lambda d: d["stock"].__setitem__(0, "7 de copas"), "stock[0]"),      # only the exact text
    (lambda d: d.update(round_number=10 ** 9), "round_number"),
    (lambda d: d.update(queue=[]), "queue"),        # seat 1 has not bet and is not asked to
    (lambda d: d.update(queue=[0, 0]), "queue"),    # seat 0 has bet already
    (lambda d: d["bets"].__setitem__(2, 1.5), "bets"),
    (lambda d: d["covered"].__setitem__(0, 1), "covered"),
    (lambda d: d.update(format="cartas.vinte_e_um/9"), "format"),
    (lambda d: d.pop("stock"), "$"),
    (lambda d: d.update(extra=1), "$"),
    (lambda d: d["config"].update(decks=True), None),
    (lambda d: d["config"].update(players=40), None),
    (lambda d: d["config"].update(chips=[20, 20, 20, 21]), "chips"),
    (lambda d: d["rng"].update(bit_generator="Generator"), "rng"),
    (lambda d: d["rng"].update(bit_generator="__class__"), "rng"),
    (lambda d: d["rng"].update(bit_generator="default_rng"), "rng"),
    (lambda d: d["rng"].update(state="x"), "rng"),
    (lambda d: d["rng"]["state"].update(state=-1), "rng"),
    (lambda d: d.update(events=[{"type": "banana"}]), "events[0]"),
    (lambda d: d.update(winner=2), "winner"),
])
def test_an_impossible_state_is_refused_naming_where(change, where):
    data = first_format()
    assert data["phase"] == "bet" and data["queue"] == [1, 2] and data["bets"][0] == 5
    change(data)
    error = refused(json.dumps(data), "bad_state" if where else error_code(data))
    if where:
        assert error.fields["where"] == where, str(error)


def error_code(data):
    try:
        from_json(json.dumps(data))
    except VinteEUmError as error:
        return error.code
    return None


@pytest.mark.parametrize("text", ["", "nul", "[]", "7", '"x"', "[" * 100_000, '{"a": 1}', None, 7])
def test_text_that_is_not_a_state_is_refused(text):
    refused(text)


def test_a_valid_state_round_trips_in_every_phase():
    phases = set()
    for seed in range(40):
        for steps in (0, 3, 9, 17, 30):
            game = random_game_after(seed, steps, 3 + seed % 10)
            text = game.to_json()
            assert from_json(text).to_json() == text
            phases.add(game.phase)
    assert phases == {"bet", "players", "banker", "rotation", "game_over"}


def junk(rng, value):
    """A plausible corruption of `value`."""
    choices = [None, True, False, -1, 0, 1, 2, 13, 10 ** 12, 1.5, "", "banana", "A♠", "10♥",
               [], {}, [None], [1, 2], {"type": "bet"}, [[[[]]]]]
    if isinstance(value, int) and not isinstance(value, bool):
        choices += [value + 1, value - 1, -value]
    if isinstance(value, list) and value:
        choices += [value[:-1], value + value[-1:], value[::-1], value * 2]
    return choices[int(rng.integers(len(choices)))]


def mutate(rng, data):
    """Change one value somewhere in `data` (in place): replace, delete or duplicate."""
    path, node = [], data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = keys[int(rng.integers(len(keys)))]
        child = node[key]
        if not isinstance(child, (dict, list)) or not child or rng.random() < 0.35:
            roll = rng.random()
            if roll < 0.1 and isinstance(node, dict):
                del node[key]
            elif roll < 0.2 and isinstance(node, list):
                node.append(node[key])
            else:
                node[key] = junk(rng, child)
            return
        path.append(key)
        node = child


def play_on(game):
    """Everything a caller may do with an accepted state, a few moves on."""
    for _ in range(6):
        for seat in [None, ALL, *range(game.players)]:
            view = game.view(seat)
            view.legal_actions()
            for event in view.events[-5:]:
                try:
                    game.narrate(event, "pt")
                except VinteEUmError:
                    pass
        assert from_json(game.to_json()).to_json() == game.to_json()
        if game.is_terminal():
            return
        seat = game.current_seat
        legal = game.view(seat).legal_actions()
        assert legal == game.legal_actions()
        game.apply_action(RandomBot(seat).choose(game.view(seat)))


@pytest.mark.slow
@pytest.mark.parametrize("saved_as", [first_format, saved], ids=["first format", "setup plus actions"])
def test_seeded_fuzz_mutated_json_raises_only_vinte_e_um_error(saved_as):
    """Seeded random changes of saved games, in both formats: each is refused with a
    VinteEUmError or loads as a game that plays on. A first-format save must agree with its
    replay field by field, so few changes load (those that change nothing the game holds)."""
    rng = np.random.default_rng(2024)
    accepted = refused_count = 0
    for _ in range(600):
        data = saved_as(int(rng.integers(10_000)), int(rng.integers(0, 40)), int(rng.integers(3, 13)))
        for _ in range(1 + int(rng.integers(2))):
            mutate(rng, data)
        try:
            game = from_json(json.dumps(data))
        except VinteEUmError as error:
            assert error.message("pt") and error.message("en")
            refused_count += 1
            continue
        accepted += 1
        play_on(game)  # only VinteEUmError may escape, and none should
    assert refused_count > 300 and accepted > 5, (refused_count, accepted)


# -- setup plus actions (docs/rules.md#saved-game-replays) ------------------------------------

def test_a_saved_21_game_is_its_setup_plus_its_actions():
    data = saved(3, 9)
    assert set(data) == {"format", "setup", "actions"} and data["format"] == "cartas.vinte_e_um/2"
    setup = data["setup"]
    assert setup["seed"] == 3 and setup["rng"] is None and setup["stocks"] == setup["lots"] == []
    assert setup["options"]["rotation"] == "rounds" and setup["options"]["rounds"] == 3
    assert len(data["actions"]) == 9 and all(isinstance(a, str) for a in data["actions"])
    loaded = from_json(data)
    assert loaded.events == random_game_after(3, 9).events


@pytest.mark.parametrize("change, code, field", [
    (lambda d: d["setup"].update(players=2), "bad_setup", "players"),
    (lambda d: d["setup"].update(players=True), "bad_setup", "players"),
    (lambda d: d["setup"]["options"].update(max_bet=1001), "bad_setup", "max_bet"),
    (lambda d: d["setup"]["options"].update(ace=2), "bad_setup", "ace"),
    (lambda d: d["setup"]["options"].update(rotation="banana"), "bad_setup", "rotation"),
    (lambda d: d["setup"]["options"].update(chips=[20, 20]), "bad_setup", "chips"),
    (lambda d: d["setup"].update(banker=40), "bad_setup", "banker"),
    (lambda d: d["setup"]["options"].update(min_bet=5, max_bet=2), "bad_setup", "options"),
    (lambda d: d["setup"].update(stocks=[["A♠", "A♠"]]), "bad_setup", "stocks"),
    (lambda d: d["setup"].update(lots=[-1]), "bad_state", None),
    (lambda d: d["setup"].update(seed=None), "bad_state", None),
    (lambda d: d["setup"].update(rng={"bit_generator": "default_rng"}), "bad_state", None),
    (lambda d: d["setup"].update(deal={"first_cards": ["1♥"]}), "bad_state", None),
    (lambda d: d["setup"].pop("lots"), "bad_state", None),
    (lambda d: d.update(actions=["bet 1"] * 10_001), "saved_too_many", None),
    (lambda d: d["actions"].insert(2, "call 1"), "saved_action", None),
    (lambda d: d["actions"].insert(2, "bet 999"), "saved_action", None),
    (lambda d: d["actions"].insert(2, ["bet", 1]), "saved_action", None),
    (lambda d: d.update(extra=1), "bad_state", None),
])
def test_a_saved_setup_out_of_range_or_an_illegal_action_is_refused(change, code, field):
    data = saved(3, 9)
    change(data)
    error = refused(json.dumps(data), code)
    if field is not None:
        assert error.fields["field"] == field, str(error)


def test_the_first_illegal_21_action_is_named_with_its_number_and_why():
    data = saved(3, 9)
    data["actions"][3] = "take_bank"
    error = refused(json.dumps(data), "saved_action")
    assert error.fields["index"] == 4
    assert error.message("en").startswith("Action 4 of this saved 21 game is not legal here: ")
    assert error.fields["error"].message("pt") in error.message("pt")


def test_the_saved_21_options_are_checked_against_the_games_spec():
    from cartas.games import find_game
    from cartas.vinte_e_um.config import OPTIONS
    assert find_game("21").options is OPTIONS
    data = saved(3, 0)
    data["setup"]["options"]["decks"] = 9
    error = refused(json.dumps(data), "bad_setup")
    assert error.fields["error"].code == "bad_number" and "1 a 8" in error.message("pt")


def test_a_21_game_sharing_its_callers_generator_saves_what_it_drew():
    """The caller's Generator, drawn from between actions too: the save fixes the stocks and
    lots the game laid out and drew, and the generator as it is now."""
    shared = np.random.default_rng(8)
    from cartas.vinte_e_um import new_game
    game = new_game(4, seed=shared, rotation="rounds", rotation_rounds=1, rounds=6)
    for _ in range(80):
        if game.is_terminal():
            break
        legal = game.legal_actions()
        game.apply_action(legal[int(shared.integers(len(legal)))])
    data = json.loads(game.to_json())
    assert data["setup"]["seed"] is None and len(data["setup"]["stocks"]) >= game.round_number
    loaded = from_json(data)
    assert loaded.events == game.events and loaded.to_json() == game.to_json()
    while not game.is_terminal():
        action = game.legal_actions()[-1]
        game.apply_action(action)
        loaded.apply_action(str(action))
    assert loaded.events == game.events
