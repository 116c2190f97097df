"""A saved truco game (`from_json`) is its setup plus its actions (docs/rules.md#saved-game-replays):
a setup out of range or an action the rules refuse is refused with a TrucoError naming it,
first-format saves load as the same game or are refused, and nothing else escapes."""
import copy
import json
import random

import numpy as np
import pytest

from cartas.errors import RuleError
from cartas.truco import MINEIRO, PAULISTA, TrucoError, from_deal, from_json, legacy, new_game
from cartas.truco.bots import RandomBot

PLAIN = [["3♦", "K♦", "4♦"], ["2♠", "J♠", "5♠"], ["A♥", "Q♥", "6♥"], ["K♣", "5♣", "6♣"]]


def saved(steps=9, variant=PAULISTA, seed=3):
    state = new_game(variant, seed)
    bots = [RandomBot(seed + s) for s in range(4)]
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(bots[state.current_seat].choose(state.view(state.current_seat)))
    return json.loads(state.to_json())


def refused(data) -> TrucoError:
    with pytest.raises(TrucoError) as info:
        from_json(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False))
    assert info.value.message("pt") and info.value.message("en")
    return info.value


def first_format(steps=0, variant=PAULISTA, seed=3):
    """The game `saved(steps...)` holds, as the first format ("cartas.truco/1") wrote it."""
    return legacy.first_format(from_json(json.dumps(saved(steps, variant, seed))))


def test_a_saved_game_is_its_setup_plus_its_actions():
    """docs/rules.md#saved-game-replays: a new game keeps its seed, a chosen deal its hands,
    dealer and score, and the actions are their texts, in order."""
    data = saved(9)
    assert set(data) == {"format", "setup", "actions"} and data["format"] == "cartas.truco/2"
    assert data["setup"] == {"variant": "paulista", "tie_lead": "leader", "score": [0, 0],
                             "dealer": None, "deals": [], "seed": 3, "rng": None}
    assert len(data["actions"]) == 9 and all(isinstance(a, str) for a in data["actions"])
    state = from_deal(MINEIRO, PLAIN, dealer=3, score=(10, 4), seed=8)
    state.apply_action("play hand")
    chosen = json.loads(state.to_json())
    assert chosen["setup"]["deals"] == [{"hands": PLAIN, "vira": None}]
    assert chosen["setup"]["dealer"] == 3 and chosen["setup"]["score"] == [10, 4]
    assert chosen["actions"] == ["play hand"]


def test_a_saved_game_loads_back_exactly_at_every_step():
    for steps in range(0, 60, 7):
        data = saved(steps)
        loaded = from_json(json.dumps(data))
        assert json.loads(loaded.to_json()) == data
        assert loaded.events == from_json(data).events


def test_a_game_sharing_its_callers_generator_saves_the_hands_it_dealt():
    """A Generator others draw from too: the save keeps the hands as dealt and the generator
    as it is now, so the replay deals what was dealt and goes on as the game would."""
    shared = np.random.default_rng(5)
    state = new_game(PAULISTA, shared)
    for _ in range(40):  # each action chosen with a draw from the same generator
        legal = state.legal_actions()
        state.apply_action(legal[int(shared.integers(len(legal)))])
    data = json.loads(state.to_json())
    assert data["setup"]["seed"] is None and data["setup"]["rng"] is not None
    assert len(data["setup"]["deals"]) == state.hand_number
    loaded = from_json(data)
    assert loaded.events == state.events
    for _ in range(30):
        if state.is_terminal():
            break
        action = state.legal_actions()[0]
        state.apply_action(action)
        loaded.apply_action(str(action))
    assert loaded.events == state.events


@pytest.mark.parametrize("change, code, field", [
    (lambda d: d["setup"].__setitem__("variant", "gaucho"), "saved_setup", "variant"),
    (lambda d: d["setup"].__setitem__("tie_lead", None), "saved_setup", "tie_lead"),
    (lambda d: d["setup"].__setitem__("tie_lead", "loudest"), "saved_setup", "tie_lead"),
    (lambda d: d["setup"].__setitem__("score", [-7, 99]), "saved_setup", "score"),
    (lambda d: d["setup"].__setitem__("score", [True, 0]), "saved_setup", "score"),
    (lambda d: d["setup"].__setitem__("score", [12, 0]), "saved_setup", "score"),
    (lambda d: d["setup"].__setitem__("dealer", 4), "saved_setup", "dealer"),
    (lambda d: d["setup"].__setitem__("seed", -1), "saved_setup", "seed"),
    (lambda d: d["setup"].__setitem__("seed", 2 ** 128), "saved_setup", "seed"),
    (lambda d: d["setup"].__setitem__("seed", None), "saved_setup", "seed"),
    (lambda d: d["setup"].__setitem__("rng", {"bit_generator": "MT19937"}), "saved_setup", "seed"),
    (lambda d: d["setup"].update(seed=None, rng={"bit_generator": "__class__"}), "saved_setup", "rng"),
    (lambda d: d["setup"].update(deals=[{"hands": PLAIN, "vira": "K♠"}]), "saved_setup", "deals"),
    (lambda d: d["setup"].update(dealer=0, deals=[{"hands": PLAIN, "vira": PLAIN[0][0]}]),
     "saved_setup", "deals"),
    (lambda d: d["setup"].update(dealer=0, deals=[{"hands": [PLAIN[0]] * 4, "vira": "7♥"}]),
     "saved_setup", "deals"),
    (lambda d: d["setup"].update(dealer=0, deals=[{"hands": PLAIN[:3], "vira": "7♥"}]),
     "saved_setup", "deals"),
    (lambda d: d["setup"].update(dealer=0, deals=[{"hands": PLAIN}]), "saved_setup", "deals"),
    (lambda d: d["setup"].update(dealer=0, deals=[PLAIN] * 600), "saved_setup", "deals"),
    (lambda d: d["setup"].pop("seed"), "saved_field", None),
    (lambda d: d["setup"].__setitem__("extra", 1), "saved_unknown_field", None),
    (lambda d: d.__setitem__("setup", []), "saved_field", None),
    (lambda d: d.__setitem__("extra", 1), "saved_unknown_field", None),
    (lambda d: d.pop("actions"), "saved_field", None),
    (lambda d: d.__setitem__("actions", {}), "saved_field", None),
    (lambda d: d.__setitem__("actions", ["accept"] * 5_001), "saved_too_many", None),
    (lambda d: d["actions"].insert(3, "accept"), "saved_action", None),
    (lambda d: d["actions"].insert(3, 7), "saved_action", None),
    (lambda d: d["actions"].insert(3, "banana"), "saved_action", None),
    (lambda d: d["actions"].insert(3, "play 7♥" * 9), "saved_action", None),
    (lambda d: d.__setitem__("format", "cartas.truco/0"), "bad_format", None),
])
def test_a_saved_setup_out_of_range_or_an_illegal_action_is_refused(change, code, field):
    data = saved(9)
    change(data)
    error = refused(data)
    assert error.code == code, error.message("en")
    if field is not None:
        assert error.fields["field"] == field, error.message("en")


def test_the_first_illegal_action_is_named_with_its_number_and_why():
    data = saved(9)
    before = from_json(json.dumps(dict(data, actions=data["actions"][:4]), ensure_ascii=False))
    other = (before.current_seat + 1) % 4  # a card someone else holds is never legal
    data["actions"][4] = f"play {before.hand_of(other)[0]}"
    error = refused(data)
    assert error.code == "saved_action" and error.fields["index"] == 5
    assert error.message("en").startswith("action 5 of the saved game is not legal here: ")
    assert error.message("pt").startswith("a jogada 5 do jogo salvo não vale aqui: ")
    inner = error.fields["error"]
    assert isinstance(inner, TrucoError) and inner.message("pt") in error.message("pt")


def test_the_saved_options_are_checked_against_the_games_spec():
    from cartas.games import find_game
    from cartas.truco.rules import OPTIONS
    assert find_game("paulista").options is OPTIONS and find_game("mineiro").options is OPTIONS
    data = saved(0)
    data["setup"]["tie_lead"] = "first"
    error = refused(data)
    assert error.fields["error"].code == "bad_choice"  # the registry's own refusal, wrapped
    assert "first_tying" in error.message("en") and "first_tying" in error.message("pt")


# -- the first format ("cartas.truco/1") --------------------------------------------------------

def test_a_first_format_save_loads_as_the_same_game():
    for steps, variant, seed in ((0, PAULISTA, 1), (13, MINEIRO, 2), (400, PAULISTA, 3)):
        old = first_format(steps, variant, seed)
        state = from_json(json.dumps(old, ensure_ascii=False))
        assert legacy.first_format(state) == old
        assert json.loads(state.to_json())["format"] == "cartas.truco/2"


@pytest.mark.parametrize("change, code", [
    (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "saved_inconsistent"),
    (lambda d: d.__setitem__("vira", d["hands"][2][0]), "saved_inconsistent"),
    (lambda d: d["hands"][0].extend(["4♣", "5♥"]), "saved_inconsistent"),
    (lambda d: d["hands"][0].pop(), "saved_inconsistent"),
    (lambda d: d.__setitem__("score", [-7, 99]), "saved_inconsistent"),
    (lambda d: d.__setitem__("phase", "banana"), "saved_inconsistent"),
    (lambda d: d.__setitem__("mode", "mao_de_ferro"), "saved_inconsistent"),
    (lambda d: d.__setitem__("turn", (d["turn"] + 1) % 4), "saved_inconsistent"),
    (lambda d: d.__setitem__("hand_value", 5), "saved_inconsistent"),
    (lambda d: d.__setitem__("winner", 0), "saved_inconsistent"),
    (lambda d: d.__setitem__("variant", "gaucho"), "saved_field"),
    (lambda d: d.__setitem__("tie_lead", None), "saved_setup"),
    (lambda d: d.__setitem__("extra", 1), "saved_unknown_field"),
    (lambda d: d.pop("events"), "saved_field"),
    (lambda d: d.__setitem__("events", {}), "saved_field"),
    (lambda d: d["events"].append({"type": "deal"}), "saved_event"),
    (lambda d: d["events"].append("banana"), "saved_event"),
    (lambda d: d["events"][0].__setitem__("dealer", 9), "saved_event"),
    (lambda d: d["events"][0]["hands"][0].__setitem__(0, d["events"][0]["hands"][1][0]), "saved_setup"),
    (lambda d: d["events"].insert(0, d["events"][-1]), "saved_inconsistent"),
    (lambda d: d["rng"].__setitem__("bit_generator", "MT19937"), "saved_setup"),
    (lambda d: d["rng"].__setitem__("bit_generator", "__class__"), "saved_setup"),
    (lambda d: d["rng"]["state"].__setitem__("state", -1), "saved_setup"),
    (lambda d: d.__setitem__("rng", None), "saved_setup"),
])
def test_an_impossible_first_format_save_is_refused_with_a_code(change, code):
    data = first_format(5)
    change(data)
    assert refused(data).code == code


def test_a_first_format_trick_must_follow_the_trick_rule_and_the_face_down_ban():
    state = from_deal(MINEIRO, PLAIN, dealer=3)
    for a in ("play 3♦", "play 5♠", "play 6♥", "play 6♣"):
        state.apply_action(a)
    data = legacy.first_format(state)
    wrong = copy.deepcopy(data)
    wrong["results"] = [1]  # 3♦ took it for team 0
    assert refused(wrong).code == "saved_inconsistent"
    covered = copy.deepcopy(data)
    covered["tricks"][0][1][1] = None  # a face-down card in the first trick
    assert refused(covered).code == "saved_inconsistent"
    played = copy.deepcopy(data)
    played["events"][2]["covered"] = True  # the event says the 5♠ went face down in trick 1
    error = refused(played)
    assert error.code == "saved_action" and error.fields["error"].code == "no_cover_first", error


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "7", '"x"', "[" * 50_000,
                                  '{"a":' * 50_000, b"\xff\xfe", 12, None])
def test_text_that_is_no_saved_game_is_refused(text):
    with pytest.raises(TrucoError):
        from_json(text)


def _mutations(value, rng, depth=0):
    """One random change somewhere inside a JSON value (seeded)."""
    if isinstance(value, dict) and value and rng.random() < 0.85:
        key = rng.choice(list(value))
        value = dict(value)
        if rng.random() < 0.1:
            del value[key]
        else:
            value[key] = _mutations(value[key], rng, depth + 1)
        return value
    if isinstance(value, list) and value and rng.random() < 0.85:
        value = list(value)
        i = rng.randrange(len(value))
        roll = rng.random()
        if roll < 0.1:
            del value[i]
        elif roll < 0.2:
            value.append(copy.deepcopy(value[i]))
        else:
            value[i] = _mutations(value[i], rng, depth + 1)
        return value
    return rng.choice([None, True, False, 0, 1, -1, 3, 12, 99, 2 ** 70, 1.5, "", "x", "7♥",
                       "A♠", "play", [], {}, [0, 1], {"type": "deal"}, "PCG64", "game_over"])


@pytest.mark.parametrize("saved_as", [saved, first_format], ids=["setup plus actions", "first format"])
def test_fuzz_a_mutated_saved_game_raises_only_truco_error(saved_as):
    """Seeded random mutations of valid saved games, in both formats: each one loads (a
    change the rules allow) or is refused with TrucoError; TypeError, KeyError,
    AttributeError, IndexError or RecursionError never escape, and a loaded one can be
    played on."""
    rng = random.Random(2024)
    bases = [saved_as(steps, variant, seed) for steps in (0, 5, 13, 40, 400)
             for variant, seed in ((PAULISTA, 1), (MINEIRO, 2))]
    loaded = 0
    for _ in range(1500):
        data = _mutations(rng.choice(bases), rng)
        try:
            state = from_json(json.dumps(data))
        except TrucoError:
            continue
        loaded += 1
        for _ in range(30):  # whatever loads must play on under the rules
            if state.is_terminal():
                break
            legal = state.legal_actions()
            for event in state.apply_action(legal[rng.randrange(len(legal))]):
                state.narrate(event, "pt")
        state.last_hand, state.view(0).events, state.view(None)
    assert loaded < 1500  # most mutations are refused


def test_from_json_refusals_are_rule_errors():
    assert issubclass(TrucoError, RuleError)


def test_a_saved_game_over_the_size_caps_is_refused_before_any_replay():
    from cartas.truco.serialization import MAX_ACTIONS, MAX_JSON
    assert refused(" " * (MAX_JSON + 1)).code == "saved_too_large"
    data = saved(0)
    data["actions"] = ["accept"] * (MAX_ACTIONS + 1)  # the first would be refused, the cap comes first
    assert refused(data).code == "saved_too_many"
