"""Decided 21 rules that had no test of their own (docs/rules.md#decisions), through random
seeded play with the engine's own bots."""
from __future__ import annotations

from cartas.vinte_e_um import new_game
from cartas.vinte_e_um.bots import RandomBot


def test_rule_sitting_out_fewer_chips_than_the_minimum_bet_sits_the_round_out():
    """docs/rules.md#21-sitting-out: no cards and no bet for that round."""
    game = new_game(4, seed=3, banker=0, min_bet=2, max_bet=5, chips=[20, 20, 1, 20])
    assert game.sitting_out == [2] and game.hands[2] == []
    while game.phase == "bets":
        seat = game.current_seat
        assert seat != 2
        game.apply_action(RandomBot(seat).choose(game.view(seat)))
    assert game.hands[2] == [] and game.bets[2] == 0


def test_rule_stop_at_21_a_hand_at_21_takes_no_more_cards():
    """docs/rules.md#21-stop-at-21: at 21 neither a player may hit nor the banker draw."""
    seen = 0
    for seed in range(60):
        game, bot = new_game(4, seed=seed, rounds=3), RandomBot(seed)
        while not game.is_terminal():
            seat = game.current_seat
            kinds = {a.kind for a in game.legal_actions()}
            if game.phase in ("players", "banker") and game.points(seat) == 21:
                seen += 1
                assert not kinds & {"hit", "draw"}, (seed, kinds)
            game.apply_action(bot.choose(game.view(seat)))
    assert seen >= 5


def test_rule_broke_banker_the_bank_goes_to_the_next_seat_at_his_left_with_chips():
    """docs/rules.md#21-broke-banker: a banker left with no chips passes the bank on."""
    found = 0
    for seed in range(80):
        game = new_game(5, seed=seed, chips=3, rotation="permanent", rounds=None)
        bot = RandomBot(seed)
        while not game.is_terminal() and found < 3:
            events = list(game.apply_action(bot.choose(game.view(game.current_seat))))
            for event in events:
                if event["type"] == "bank_change" and event["reason"] == "broke":
                    found += 1
                    chips = game.chips
                    left = [(event["from"] + i) % 5 for i in range(1, 5)]
                    assert chips[event["from"]] == 0 and event["to"] == next(s for s in left if chips[s] > 0)
        if found >= 3:
            break
    assert found >= 1
