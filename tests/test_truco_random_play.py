"""Thousands of seeded random games per variant (the tests' one random-play loop,
`contract_games.play_randomly`), checking the invariants of every game."""
import random

import pytest

from cartas.cards import TRUCO_PACK
from cartas.truco import MINEIRO, PAULISTA, from_json, new_game

from contract_games import play_out

GAMES = 2000
PACK = {str(c) for c in TRUCO_PACK}


def allowed_points(variant):
    """What a hand may score, by the reason it ended."""
    return {
        "tricks": set(variant.values) | {variant.threshold_value},
        "run": {variant.base_value, *variant.ladder[:-1]},
        "ran_hand": {variant.threshold_run_value},
        "all_tied": {0},
        "forbidden_raise": {0},
    }


def check_game(state, variant):
    allowed = allowed_points(variant)
    score = [0, 0]
    held = played = None
    for event in state.events:
        kind = event["type"]
        if kind == "deal":
            cards = [c for h in event["hands"] for c in h]
            extra = [event["vira"]] if variant.uses_vira else []
            assert len(cards) == 12 and set(cards + extra) <= PACK
            assert len(set(cards + extra)) == 12 + len(extra), "a deal repeats a card"
            assert event["score"] == score
            held = [set(h) for h in event["hands"]]
            played = set()
        elif kind == "play":
            card = event["card"]
            assert card not in played, f"{card} played twice"
            assert card in held[event["seat"]], f"{card} was not in seat {event['seat']}'s hand"
            played.add(card)
            held[event["seat"]].discard(card)
        elif kind == "hand":
            assert event["points"] in allowed[event["reason"]], event
            new = list(score)
            if event["winner_team"] is not None:
                new[event["winner_team"]] += event["points"]
            assert event["score"] == new and new[0] >= score[0] and new[1] >= score[1]
            score = new
    last_hand = [e for e in state.events if e["type"] == "hand"][-1]
    assert state.is_terminal() and state.events[-1]["type"] == "game"
    assert list(state.score) == score
    if last_hand["reason"] == "forbidden_raise":
        assert state.winner == 1 - state.events[-3]["team"] and max(score) < variant.target
    else:
        assert score[state.winner] >= variant.target > score[1 - state.winner]


@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
def test_random_play_keeps_every_invariant(variant):
    pick = random.Random(variant.key)
    endings = {"target": 0, "forbidden_raise": 0}
    round_trips = 0
    for game in range(GAMES):
        state = new_game(variant, seed=game,
                         tie_lead="first_tying" if game % 2 else "leader")
        check_at = 1 + pick.randrange(40) if game % 10 == 0 else -1
        if play_out(state, pick, check_at) == check_at:
            copy = from_json(state.to_json())
            assert copy.to_json() == state.to_json()
            for original in (state, copy):
                play_out(original, random.Random(game), 30)
            assert copy.to_json() == state.to_json()
            round_trips += 1
        play_out(state, pick)
        check_game(state, variant)
        ending = [e for e in state.events if e["type"] == "hand"][-1]["reason"]
        endings["forbidden_raise" if ending == "forbidden_raise" else "target"] += 1
    assert round_trips >= GAMES // 20 * 3 // 4  # games shorter than check_at skip it
    assert endings["target"] > GAMES // 4 and endings["forbidden_raise"] > 0
