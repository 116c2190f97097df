"""A short truco game (option `hands`): the rules of docs/rules.md#truco-short-game in both
variants and both seat counts, as the engine, its narration, saves and refusals apply them."""
import json
import random

import pytest

from cartas.games import GameError, find_game
from cartas.truco import MINEIRO, PAULISTA, RUN_HAND, TrucoError, from_deal, from_json, new_game

from contract_games import play_out

VARIANTS = pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
PLAYERS = pytest.mark.parametrize("players", [4, 2], ids=["four", "mano_a_mano"])
FOUR = [["3♦", "K♦", "4♦"], ["2♠", "J♠", "5♠"], ["3♣", "K♣", "4♣"], ["2♥", "J♥", "5♥"]]


def deal(variant, players):
    return FOUR[:players], ("7♣" if variant.uses_vira else None)


def hand_scores(state):
    """The score after each hand, in order."""
    return [tuple(e["score"]) for e in state.events if e["type"] == "hand"]


def random_game(variant, players, hands, seed):
    state = new_game(variant, seed=seed, players=players, hand_limit=hands)
    play_out(state, random.Random(seed))
    return state


@VARIANTS
@PLAYERS
def test_rule_short_game_ends_after_its_hands_with_the_team_ahead_winning(variant, players):
    """docs/rules.md#truco-short-game: once the N-th hand is scored with a team ahead, that team
    wins, whatever the gap; the game event names the hands played."""
    checked = 0
    for seed in range(60):
        state = random_game(variant, players, 3, seed)
        scores = hand_scores(state)
        if max(state.score) >= variant.target or state.events[-2]["reason"] == "forbidden_raise":
            continue
        first_ahead = next(n for n, (a, b) in enumerate(scores, 1) if n >= 3 and a != b)
        assert state.hand_number == len(scores) == first_ahead
        a, b = state.score
        assert state.winner == (0 if a > b else 1)
        assert state.outcome().over and state.outcome().winner == state.winner
        assert state.events[-1]["hands_played"] == state.hand_number
        checked += 1
    assert checked > 30


@VARIANTS
@PLAYERS
def test_rule_short_game_level_after_its_hands_plays_on_until_a_team_is_ahead(variant, players):
    """docs/rules.md#truco-short-game: level after the N-th hand, the game plays on hand by hand
    (the narration calls them tie-break hands) until a team is ahead after one."""
    found = 0
    for seed in range(200):
        state = random_game(variant, players, 2, seed)
        scores = hand_scores(state)
        if len(scores) < 2 or scores[1][0] != scores[1][1] or max(state.score) >= variant.target:
            continue
        assert len(scores) >= 3 and all(a == b for a, b in scores[1:-1]) and scores[-1][0] != scores[-1][1]
        extra = [e for e in state.events if e["type"] == "deal"][2]
        assert "desempate" in state.narrate(extra, "pt") and "tie-break" in state.narrate(extra, "en")
        found += 1
    assert found >= 3


@VARIANTS
@PLAYERS
def test_rule_short_game_still_ends_when_a_team_reaches_twelve(variant, players):
    """docs/rules.md#truco-short-game: reaching the target ends a short game as it ends a game to
    12 (no hands_played in its game event)."""
    state = from_deal(variant, *deal(variant, players), score=(11, 11), players=players, seed=3,
                      hand_limit=5)
    assert state.mode == "mao_de_ferro"  # from the score alone, hands left or not
    play_out(state, random.Random(1))
    if max(state.score) >= variant.target:
        assert "hands_played" not in state.events[-1]
    found = False
    for seed in range(80):
        state = random_game(variant, players, 30, seed)
        if max(state.score) >= variant.target:
            assert state.hand_number <= 30 and "hands_played" not in state.events[-1]
            assert state.score[state.winner] >= variant.target
            found = True
    assert found


@VARIANTS
@PLAYERS
def test_rule_short_game_keeps_the_threshold_hand_and_its_run(variant, players):
    """docs/rules.md#truco-short-game: a team at the threshold has its mão de onze/dez in a
    short game too; running from it is a hand played, and the team ahead after the last hand
    wins."""
    state = from_deal(variant, *deal(variant, players), score=(variant.threshold, 3), players=players,
                      seed=5, hand_limit=1)
    assert state.mode == "threshold" and state.phase == "decide"
    state.apply_action(RUN_HAND)
    assert state.score == (variant.threshold, 3 + variant.threshold_run_value)
    assert state.is_terminal() and state.winner == 0 and state.events[-1]["hands_played"] == 1


@VARIANTS
def test_rule_short_game_forbidden_raise_still_loses_at_once(variant):
    """docs/rules.md#truco-short-game and #threshold-any-raise: a call for truco in a mão de
    onze/dez loses a short game too, before its hands are played."""
    state = from_deal(variant, *deal(variant, 4), score=(variant.threshold, 3), seed=5, hand_limit=9)
    state.apply_action("play hand")
    state.apply_action(next(a for a in state.legal_actions() if a.kind == "raise"))
    assert state.is_terminal() and state.hand_number == 1 and "hands_played" not in state.events[-1]


@VARIANTS
@PLAYERS
def test_a_short_game_narrates_its_hand_of_its_length_in_both_languages(variant, players):
    state = new_game(variant, seed=2, players=players, hand_limit=5)
    first = state.events[0]
    assert first["hands_limit"] == 5
    assert state.narrate(first, "pt").startswith("Mão 1 de 5:")
    assert state.narrate(first, "en").startswith("Hand 1 of 5:")
    play_out(state, random.Random(2))
    if "hands_played" in state.events[-1]:
        assert state.narrate(state.events[-1], "pt").startswith(f"Depois de {state.hand_number} mãos")
        assert state.narrate(state.events[-1], "en").startswith(f"After {state.hand_number} hands")


def test_a_game_to_twelve_is_unchanged():
    """Without the option, no event nor save gains a field (saves made before load as they were)."""
    state = new_game(PAULISTA, seed=4)
    assert state.hand_limit is None and "hands_limit" not in state.events[0]
    assert "hands" not in json.loads(state.to_json())["setup"]


@VARIANTS
@PLAYERS
def test_a_short_game_save_replays_with_its_length(variant, players):
    spec = find_game(variant.key)
    state = spec.new_game(8, seats=players, hands=4)
    play_out(state, random.Random(8), 25)
    saved = json.loads(state.to_json())
    assert saved["setup"]["hands"] == 4
    copy = spec.from_json(state.to_json())
    assert copy.hand_limit == 4 and copy.to_json() == state.to_json()
    for s in (state, copy):
        play_out(s, random.Random(9))
    assert copy.to_json() == state.to_json() and copy.winner == state.winner


@pytest.mark.parametrize("value", [0, 31, -1, True, 2.0, "5", [3]])
def test_a_short_game_of_a_hostile_length_is_refused_in_both_languages(value):
    spec = find_game("mineiro")
    with pytest.raises(GameError) as caught:
        spec.new_game(1, hands=value)
    assert "hands" in caught.value.message("pt") and "1 a 30" in caught.value.message("pt")
    assert "hands" in caught.value.message("en") and "1 to 30" in caught.value.message("en")
    with pytest.raises(TrucoError) as engine:
        new_game(MINEIRO, seed=1, hand_limit=value)
    assert engine.value.code == "bad_hands"
    assert "mãos" in engine.value.message("pt") and "hands" in engine.value.message("en")
    saved = json.loads(new_game(MINEIRO, seed=1, hand_limit=3).to_json())
    saved["setup"]["hands"] = value
    with pytest.raises(TrucoError) as load:
        from_json(json.dumps(saved))
    assert load.value.code == "saved_setup" and "hands" in load.value.message("en")


def test_a_saved_game_to_twelve_may_not_name_a_null_length():
    saved = json.loads(new_game(PAULISTA, seed=1).to_json())
    saved["setup"]["hands"] = None
    with pytest.raises(TrucoError) as load:
        from_json(json.dumps(saved))
    assert load.value.code == "saved_setup"
