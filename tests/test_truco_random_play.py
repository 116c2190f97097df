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
    hands = state.hand_limit  # a short game (docs/rules.md#truco-short-game), None to 12
    played = state.events[-1].get("hands_played")
    if last_hand["reason"] == "forbidden_raise":
        assert state.winner == 1 - state.events[-3]["team"] and max(score) < variant.target
    elif played is not None:
        assert hands is not None and played == state.hand_number >= hands
        assert variant.target > score[state.winner] > score[1 - state.winner]
        levels = [e["score"] for e in state.events if e["type"] == "hand"][hands - 1:-1]
        assert all(a == b for a, b in levels), "a short game plays on only while level"
    else:
        assert score[state.winner] >= variant.target > score[1 - state.winner]
        assert hands is None or state.hand_number <= hands or all(
            a == b for a, b in [e["score"] for e in state.events if e["type"] == "hand"][hands - 1:-1])


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
def test_random_short_games_keep_every_invariant(variant, players):
    """docs/rules.md#truco-short-game: a fifth of `CARTAS_RANDOM_GAMES` short games (1 to 6
    hands, and the longest, 30) keep the invariants; a save of one replays it."""
    pick = random.Random(f"short{variant.key}{players}")
    endings = {"hands": 0, "target": 0}
    for game in range(max(50, GAMES // 5)):
        hands = 30 if game % 7 == 0 else 1 + game % 6
        state = new_game(variant, seed=game, players=players, hand_limit=hands)
        if game % 10 == 0:
            play_out(state, pick, 1 + pick.randrange(30))
            copy = from_json(state.to_json())
            assert copy.to_json() == state.to_json() and copy.hand_limit == hands
        play_out(state, pick)
        check_game(state, variant, players)
        endings["hands" if "hands_played" in state.events[-1] else "target"] += 1
    assert endings["hands"] > GAMES // 20 and endings["target"] > 0


def play_mixed(variant, players, games, strong_every=25):
    """`games` games (seeds `games`) with bots of every level and the random one mixed at one
    table, each seeing only its seat's view: every choice is one of the engine's legal actions
    (`apply_action` would refuse any other too) and each game keeps the invariants and ends.
    The cheap levels (random, easy, rule) take turns at the seats; the strong player, whose
    every decision deals hundreds of worlds, takes one seat in one game of `strong_every` (its seat moving on)."""
    spec = find_game(variant.key)
    makers = [spec.random_bot, lambda seed: spec.bot(seed, "easy"), spec.bot]
    levels = {"random": 0, "easy": 0, "rule": 0, "strong": 0}
    for i, game in enumerate(games):
        bots = [makers[(game + s) % 3](game * 10 + s) for s in range(players)]
        at = {s: ("random", "easy", "rule")[(game + s) % 3] for s in range(players)}
        if i % strong_every == 0:
            seat = (i // strong_every + game) % players
            bots[seat], at[seat] = spec.bot(game, "strong"), "strong"
        for level in at.values():
            levels[level] += 1
        state = spec.new_game(game, seats=players, tie_lead="first_tying" if game % 2 else "leader")
        while not state.is_terminal():
            seat = state.current_seat
            choice = bots[seat].choose(state.view(seat))
            assert choice in state.legal_actions(), (game, seat, at[seat], choice)
            state.apply_action(choice)
        check_game(state, variant, players)
    return levels


@pytest.mark.sample  # make quick's share of the slow test below, which make test runs instead
@pytest.mark.parametrize("players", [4, 2], ids=["four", "mano_a_mano"])
@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
def test_mixed_bots_of_every_level_play_only_legal_moves(variant, players):
    """A tenth of `CARTAS_RANDOM_GAMES` games of mixed bots (`play_mixed`), the strong
    player in a few; the issue's 10,000 are the slow test below."""
    levels = play_mixed(variant, players, range(max(20, GAMES // 10)))
    assert all(levels.values())


MIXED_GAMES = int(os.environ.get("CARTAS_MIXED_GAMES", "10000"))
MIXED_PARTS = 4  # one test per part, so that pytest-xdist's workers share the games


@pytest.mark.slow
@pytest.mark.parametrize("part", range(MIXED_PARTS))
@pytest.mark.parametrize("players", [4, 2], ids=["four", "mano_a_mano"])
@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
def test_ten_thousand_mixed_bot_games_play_only_legal_moves(variant, players, part):
    """Issue 31, item 6: `CARTAS_MIXED_GAMES` (10,000 by default) games per variant and seat
    count, bots of every level mixed (`play_mixed`; the strong player at one seat in one game
    of 100, as its decisions cost milliseconds where the others' cost microseconds), in
    `MIXED_PARTS` parts; legal moves only, and every game's invariants."""
    levels = play_mixed(variant, players, range(part, MIXED_GAMES, MIXED_PARTS), strong_every=100)
    assert all(levels.values()), levels
