"""`state.last_hand`: the finished hand, kept after the engine deals the next one."""
import json
import random

import pytest

from cartas.truco import ACCEPT, MINEIRO, PAULISTA, RUN, RUN_HAND, explain_last_hand, from_deal, from_json, new_game

PLAIN = [["3♦", "K♦", "4♦"], ["2♠", "J♠", "5♠"], ["A♥", "Q♥", "6♥"], ["K♣", "5♣", "6♣"]]


def play(state, *actions):
    for action in actions:
        state.apply_action(action)
    return state


def test_none_until_a_hand_ends_then_the_hand_won_by_tricks():
    s = from_deal(MINEIRO, PLAIN, dealer=3, seed=1)
    assert s.last_hand is None
    play(s, "raise 4", ACCEPT, "play 3♦", "play 2♠", "play A♥", "play K♣",
         "play K♦", "play J♠", "play Q♥", "play 5♣")
    last = s.last_hand
    assert s.hand_number == 2 and s.trick_results == []          # the next hand is dealt
    assert last == {
        "hand_number": 1, "dealer": 3, "mao": 0, "mode": "normal", "threshold_team": None,
        "vira": None, "manilhas": ["7♦", "A♠", "7♥", "4♣"], "score_before": [0, 0],
        "hands": PLAIN,
        "tricks": [[[0, "3♦"], [1, "2♠"], [2, "A♥"], [3, "K♣"]],
                   [[0, "K♦"], [1, "J♠"], [2, "Q♥"], [3, "5♣"]]],
        "trick_results": [0, 0], "winning_seats": [0, 0], "unfinished_trick": [],
        "value": 4, "winner_team": 0, "points": 4, "reason": "tricks", "score": [4, 0],
        "seat": None, "refused_value": None,
    }
    json.dumps(last)                                             # JSON-friendly
    last["score"][0] = 99                                        # a copy: the state is safe
    assert s.last_hand["score"] == [4, 0]
    text = explain_last_hand(s.last_hand, MINEIRO, "pt")
    assert "K♦" in text and "venceu as duas primeiras rodadas" in text


def test_a_run_records_who_ran_what_it_paid_and_the_cut_trick():
    s = play(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, seed=2),
             "play 3♦", "raise 3", "raise 6", RUN)   # seat 1: truco; seat 2: seis; seat 3 runs
    last = s.last_hand
    assert last["reason"] == "run" and last["seat"] == 3 and last["refused_value"] == 6
    assert last["points"] == 3 and last["winner_team"] == 0 and last["value"] == 3
    assert last["tricks"] == [] and last["unfinished_trick"] == [[0, "3♦"]]
    run = [e for e in s.events if e["type"] == "run"][-1]
    assert (run["seat"], run["points"]) == (last["seat"], last["points"])
    assert explain_last_hand(last, PAULISTA, "pt") == (
        "O assento 3 correu do pedido de seis (6): a dupla A (assentos 0 e 2) leva a mão e 3 "
        "pontos, o valor da mão antes do pedido recusado.")
    assert "ran from the call of seis (6)" in explain_last_hand(last, PAULISTA, "en")


def test_running_from_the_mao_de_onze_and_the_forbidden_raise():
    s = play(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, score=(11, 5), seed=3), RUN_HAND)
    last = s.last_hand
    assert (last["reason"], last["seat"], last["points"], last["mode"]) == ("ran_hand", 0, 1, "threshold")
    assert "correu da mão de onze" in explain_last_hand(last, PAULISTA)
    s = play(from_deal(MINEIRO, PLAIN, dealer=3, score=(3, 10)), "play hand", "play 3♦", "raise")
    last = s.last_hand
    assert s.is_terminal() and last["reason"] == "forbidden_raise" and last["seat"] == 1
    assert last["unfinished_trick"] == [[0, "3♦"]] and last["score"] == [3, 10]
    assert "pediu truco na mão de dez" in explain_last_hand(last, MINEIRO)


@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
def test_matches_the_events_of_every_hand_and_survives_json_and_clone(variant):
    pick = random.Random(variant.key)
    for seed in range(40):
        s = new_game(variant, seed, tie_lead="first_tying" if seed % 2 else "leader")
        hands_seen = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[pick.randrange(len(legal))])
            hands = [i for i, e in enumerate(s.events) if e["type"] == "hand"]
            if len(hands) == hands_seen:
                continue
            hands_seen = len(hands)
            end = hands[-1]
            start = max(i for i, e in enumerate(s.events[:end]) if e["type"] == "deal")
            deal, hand = s.events[start], s.events[end]
            tricks = [e for e in s.events[start:end] if e["type"] == "trick"]
            last = s.last_hand
            assert last["hands"] == deal["hands"] and last["vira"] == deal["vira"]
            assert last["tricks"] == [t["plays"] for t in tricks]
            assert last["winning_seats"] == [t["winning_seat"] for t in tricks]
            assert last["trick_results"] == hand["results"]
            assert (last["winner_team"], last["points"], last["reason"], last["score"]) == (
                hand["winner_team"], hand["points"], hand["reason"], hand["score"])
            if seed % 8 == 0:
                copy, clone = from_json(s.to_json()), s.clone()
                assert copy.last_hand == last == clone.last_hand
                assert copy.to_json() == s.to_json()
    s = new_game(variant, 5)  # a copy made mid-hand records the same hand as the original
    for _ in range(7):
        s.apply_action(s.legal_actions()[0])
    copy = from_json(s.to_json())
    while s.last_hand is None:
        action = s.legal_actions()[0]
        s.apply_action(action)
        copy.apply_action(str(action))
    assert copy.last_hand == s.last_hand and copy.to_json() == s.to_json()
