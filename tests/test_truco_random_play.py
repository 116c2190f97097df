"""Thousands of seeded random games per variant and number of players (4, and 2 mano a mano:
docs/rules.md#mano-a-mano-players), through the tests' one random-play loop
(`contract_games.play_randomly`), checking the invariants of every game.

`CARTAS_RANDOM_GAMES` sets the games per variant and player count (2,000 by default; the
issue's 10,000: `CARTAS_RANDOM_GAMES=10000 pytest tests/test_truco_random_play.py`)."""
import os
import random

import pytest

from cartas.cards import TRUCO_PACK
from cartas.games import find_game
from cartas.truco import MINEIRO, PAULISTA, from_json, new_game

from contract_games import play_out

GAMES = int(os.environ.get("CARTAS_RANDOM_GAMES", "2000"))
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


def check_game(state, variant, players=4):
    allowed = allowed_points(variant)
    dealers = []
    score = [0, 0]
    held = played = None
    for event in state.events:
        kind = event["type"]
        if kind == "deal":
            cards = [c for h in event["hands"] for c in h]
            extra = [event["vira"]] if variant.uses_vira else []
            assert len(event["hands"]) == players and all(len(h) == 3 for h in event["hands"])
            assert len(cards) == 3 * players and set(cards + extra) <= PACK
            assert len(set(cards + extra)) == 3 * players + len(extra), "a deal repeats a card"
            assert event["mao"] == (event["dealer"] + 1) % players
            if dealers:
                assert event["dealer"] == (dealers[-1] + 1) % players, "the deal moves one seat on"
            dealers.append(event["dealer"])
            assert event["score"] == score
            held = [set(h) for h in event["hands"]]
            played = set()
        elif kind == "trick":
            assert len(event["plays"]) == players
            assert [s for s, _ in event["plays"]] == [(event["plays"][0][0] + k) % players
                                                        for k in range(players)]
        elif kind in ("raise", "accept", "run", "decide"):
            assert 0 <= event["seat"] < players and event["team"] == event["seat"] % 2 \
                or kind in ("accept", "run", "decide") and players == 4
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


@pytest.mark.parametrize("players", [4, 2], ids=["four", "mano_a_mano"])
@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
def test_random_play_keeps_every_invariant(variant, players):
    """docs/rules.md#mano-a-mano-deal and the rules of four: every deal, trick, score and
    save of random games, with 4 players and with 2."""
    pick = random.Random(f"{variant.key}{players}")
    endings = {"target": 0, "forbidden_raise": 0}
    round_trips = 0
    for game in range(GAMES):
        state = new_game(variant, seed=game,
                         tie_lead="first_tying" if game % 2 else "leader", players=players)
        check_at = 1 + pick.randrange(40) if game % 10 == 0 else -1
        if play_out(state, pick, check_at) == check_at:
            copy = from_json(state.to_json())
            assert copy.to_json() == state.to_json()
            for original in (state, copy):
                play_out(original, random.Random(game), 30)
            assert copy.to_json() == state.to_json()
            round_trips += 1
        play_out(state, pick)
        assert state.players == players
        check_game(state, variant, players)
        ending = [e for e in state.events if e["type"] == "hand"][-1]["reason"]
        endings["forbidden_raise" if ending == "forbidden_raise" else "target"] += 1
    assert round_trips >= GAMES // 20 * 3 // 4  # games shorter than check_at skip it
    assert endings["target"] > GAMES // 4 and endings["forbidden_raise"] > 0


@pytest.mark.parametrize("players", [4, 2], ids=["four", "mano_a_mano"])
@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
def test_mixed_bots_of_every_level_play_only_legal_moves(variant, players):
    """Bots of every level (and the random one) mixed at one table, each seeing only its
    seat's view: each game keeps the invariants and ends (`apply_action` refuses any
    illegal choice). A tenth of `CARTAS_RANDOM_GAMES`; the strong player in a few."""
    spec = find_game(variant.key)
    makers = [spec.random_bot, lambda seed: spec.bot(seed, "easy"), spec.bot]
    for game in range(max(20, GAMES // 10)):
        seats = range(players)
        bots = [makers[(game + s) % 3](game * 10 + s) for s in seats]
        if game % 25 == 0:
            bots[game % players] = spec.bot(game, "strong")
        state = spec.new_game(game, seats=players)
        while not state.is_terminal():
            seat = state.current_seat
            choice = bots[seat].choose(state.view(seat))
            assert choice in state.legal_actions()
            state.apply_action(choice)
        check_game(state, variant, players)
