"""A saved truco game (`from_json`) is checked field by field: anything that is not a state
the rules allow is refused with a TrucoError naming the problem, and nothing else escapes."""
import copy
import json
import random

import pytest

from cartas.errors import RuleError
from cartas.truco import MINEIRO, PAULISTA, TrucoError, from_deal, from_json, new_game
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
        from_json(json.dumps(data, ensure_ascii=False))
    assert info.value.message("pt") and info.value.message("en")
    return info.value


def test_a_saved_game_loads_back_exactly_at_every_step():
    for steps in range(0, 60, 7):
        data = saved(steps)
        assert json.loads(from_json(json.dumps(data)).to_json()) == data


@pytest.mark.parametrize("change, code", [
    (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "saved_card_twice"),
    (lambda d: d.__setitem__("vira", d["hands"][2][0]), "saved_card_twice"),
    (lambda d: d["hands"][0].extend(["4♣", "5♥"]), "saved_field"),
    (lambda d: d["hands"][0].pop(), "saved_hand_size"),
    (lambda d: d.__setitem__("score", [-7, 99]), "saved_field"),
    (lambda d: d.__setitem__("score", [True, 0]), "saved_field"),
    (lambda d: d.__setitem__("phase", "banana"), "saved_field"),
    (lambda d: d.__setitem__("mode", "mao_de_ferro"), "saved_inconsistent"),
    (lambda d: d.__setitem__("turn", 7), "saved_field"),
    (lambda d: d.__setitem__("turn", (d["turn"] + 1) % 4), "saved_inconsistent"),
    (lambda d: d.__setitem__("pending", [3, 0]), "saved_field"),
    (lambda d: d.__setitem__("hand_value", 5), "saved_inconsistent"),
    (lambda d: d.__setitem__("winner", 0), "saved_inconsistent"),
    (lambda d: d.__setitem__("variant", "gaucho"), "saved_field"),
    (lambda d: d.__setitem__("tie_lead", None), "saved_field"),
    (lambda d: d.__setitem__("extra", 1), "saved_unknown_field"),
    (lambda d: d.pop("events"), "saved_field"),
    (lambda d: d["events"].append({"type": "deal"}), "saved_event"),
    (lambda d: d["events"].append("banana"), "saved_event"),
    (lambda d: d["events"][0].__setitem__("dealer", 9), "saved_event"),
    (lambda d: d.__setitem__("events", {}), "saved_field"),
    (lambda d: d["rng"].__setitem__("bit_generator", "MT19937"), "saved_rng"),
    (lambda d: d["rng"].__setitem__("bit_generator", "__class__"), "saved_rng"),
    (lambda d: d["rng"].__setitem__("bit_generator", "SeedSequence"), "saved_rng"),
    (lambda d: d["rng"]["state"].__setitem__("state", -1), "saved_rng"),
    (lambda d: d["rng"]["state"].__setitem__("inc", "7"), "saved_rng"),
    (lambda d: d.__setitem__("rng", None), "saved_rng"),
    (lambda d: d.__setitem__("format", "cartas.truco/0"), "bad_format"),
])
def test_an_impossible_saved_game_is_refused_with_a_code(change, code):
    data = saved(0)  # the first hand, before any play
    change(data)
    assert refused(data).code == code


def test_a_saved_trick_must_follow_the_trick_rule_and_the_face_down_ban():
    state = from_deal(MINEIRO, PLAIN, dealer=3)
    for a in ("play 3♦", "play 5♠", "play 6♥", "play 6♣"):
        state.apply_action(a)
    data = json.loads(state.to_json())
    wrong = copy.deepcopy(data)
    wrong["results"] = [1]  # 3♦ took it for team 0
    assert refused(wrong).code == "saved_inconsistent"
    covered = copy.deepcopy(data)
    covered["tricks"][0][1][1] = None  # a face-down card in the first trick
    assert refused(covered).code == "saved_inconsistent"


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


def test_fuzz_a_mutated_saved_game_raises_only_truco_error():
    """Seeded random mutations of valid saved games: each one loads (a change the rules
    allow) or is refused with TrucoError; TypeError, KeyError, AttributeError, IndexError or
    RecursionError never escape, and a loaded one can be played on."""
    rng = random.Random(2024)
    bases = [saved(steps, variant, seed) for steps in (0, 5, 13, 40, 400)
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
