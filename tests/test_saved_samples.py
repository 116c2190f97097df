"""Saved games, scenario links and stored tables written by main at 09cbd7e still load, and
each plays on exactly as it did then (`tests/data/saved_samples_main.json`, made by
`tests/data/make_saved_samples.py` on that code)."""
import json
import random
from pathlib import Path

import pytest

import cartas.scenario as sc
import cartas.truco as truco
import cartas.vinte_e_um as vinte_e_um
from classroom import games

SAMPLES = json.loads((Path(__file__).parent / "data" / "saved_samples_main.json").read_text("utf-8"))["samples"]


def _load(sample):
    if sample["kind"] == "link":
        scenario = sc.decode_link(sample["text"])
        assert scenario == sample["scenario"]
        return sc.build(scenario)
    if sample["kind"] == "table":
        return games.load_state(sample["game"], sample["text"])
    module = vinte_e_um if sample["game"] == "21" else truco
    return module.from_json(sample["text"])


@pytest.mark.parametrize("sample", SAMPLES, ids=[f"{s['kind']}-{s['game']}-{n}" for n, s in enumerate(SAMPLES)])
def test_a_sample_saved_on_main_loads_and_plays_on_as_it_did(sample):
    state = _load(sample)
    assert state.current_seat == sample["current_seat"]
    assert state.is_terminal() == sample["terminal"]
    assert [str(a) for a in state.legal_actions()] == sample["legal"]
    assert len(state.events) == sample["events"]
    assert state.winner == sample["winner"]
    start = len(state.events)
    pick, done = random.Random(99), []
    for _ in range(30):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[pick.randrange(len(legal))]
        state.apply_action(action)
        done.append(str(action))
    assert done == sample["then_actions"]
    assert state.events[start:] == sample["then_events"]


@pytest.mark.parametrize("sample", [s for s in SAMPLES if s["kind"] != "link"],
                         ids=[f"{s['kind']}-{s['game']}-{n}" for n, s in enumerate(SAMPLES) if s["kind"] != "link"])
def test_a_sample_saved_on_main_is_saved_again_as_setup_plus_actions(sample):
    """docs/rules.md#saved-game-replays: a first-format save, once loaded, is saved as its
    setup plus its actions, and that save loads as the same game."""
    state = _load(sample)
    saved = json.loads(state.to_json())
    assert set(saved) == {"format", "setup", "actions"}
    assert json.loads(sample["text"])["format"] != saved["format"]
    again = _load({**sample, "text": state.to_json()})
    assert again.events == state.events and again.to_json() == state.to_json()
    assert [str(a) for a in again.legal_actions()] == sample["legal"]
