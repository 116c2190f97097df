"""Setting up a 21 table: loose types refused, sane limits, tables where nobody can bet,
and the ace-11 banker's two aces (docs/rules.md#21-banker-two-aces)."""
import pytest

from cartas.vinte_e_um import (
    HIT,
    STAND,
    UNTIL_ONE_CAP,
    Action,
    RandomBot,
    VinteEUmError,
    from_deal,
    narrate,
    new_game,
    play_game,
)

from vinte_e_um_helpers import as_lists


def refused(code, call, *args, **kwargs):
    """Run call, expect a VinteEUmError with `code`, in both languages; return it."""
    with pytest.raises(VinteEUmError) as info:
        call(*args, **kwargs)
    error = info.value
    assert error.code == code, (error.code, str(error))
    pt, en = error.message("pt"), error.message("en")
    assert pt and en and pt != en and str(error) == en
    return error


# -- loose types and limits ----------------------------------------------------------------

@pytest.mark.parametrize("seed", ["7", 7.5, True, -1, 2 ** 63, [1]])
def test_a_seed_is_a_whole_number_or_none(seed):
    refused("bad_seed", new_game, 3, seed=seed)


@pytest.mark.parametrize("option, value, code", [
    ("chips", None, "chips_shape"), ("chips", True, "chips_shape"), ("chips", "20", "chips_shape"),
    ("chips", [20, True, 20], "whole_number"), ("chips", [20, -1, 20], "whole_number"),
    ("chips", 10 ** 9, "whole_number"), ("chips", 20.0, "chips_shape"),
    ("banker", True, "banker_range"), ("banker", 3, "banker_range"), ("banker", "0", "banker_range"),
    ("decks", True, "whole_number"), ("decks", 10 ** 6, "whole_number"), ("decks", 0, "whole_number"),
    ("rounds", True, "whole_number"), ("rounds", 10 ** 6, "whole_number"), ("rounds", 2.0, "whole_number"),
    ("rotation_rounds", False, "whole_number"), ("min_bet", 1.0, "whole_number"),
    pytest.param("max_bet", 10 ** 5000, "whole_number", id="max_bet-5000-digits"),
    ("ace", 11.0, "bad_ace"), ("ace", True, "bad_ace"),
    ("ace", "x" * 5000, "bad_ace"), ("rotation", ["rounds"], "unknown_rotation"),
])
def test_every_option_is_type_checked_with_a_sane_limit(option, value, code):
    error = refused(code, new_game, 3, seed=1, **{option: value})
    assert len(str(error)) < 300  # a 5000-digit number is named, not printed whole


@pytest.mark.parametrize("players", [True, 2, 13, 3.0, "4", None])
def test_players_three_to_twelve_as_a_whole_number(players):
    refused("players_range", new_game, players)


def test_from_deal_refuses_missing_or_malformed_cards():
    refused("first_cards_shape", from_deal, 3, None)
    refused("first_cards_shape", from_deal, 3, "10♥ 9♠ 8♣")
    refused("bad_card", from_deal, 3, ["10♥", "banana", "8♣"])
    refused("bad_card", from_deal, 3, ["10♥", 7, "8♣"])
    refused("cards_list", from_deal, 3, ["10♥", "9♠", "8♣"], "7♦", None)
    refused("first_cards_seats", from_deal, 3, {1: "10♥", 2: "9♠"})
    refused("too_few_in_packs", from_deal, 3, ["10♥", "10♥", "10♥"], "10♥", ["10♥"], decks=2)


def test_numpy_integers_are_whole_numbers_and_a_generator_is_a_seed():
    import numpy as np
    game = new_game(np.int64(4), seed=np.random.default_rng(3), chips=np.int32(9), banker=np.int8(2))
    assert game.players == 4 and game.chips == [9, 9, 9, 9] and game.banker == 2
    assert type(game.banker) is int
    assert new_game(3, seed=np.uint32(7)).to_json() == new_game(3, seed=7).to_json()


# -- a table where nobody can bet ----------------------------------------------------------

def test_a_table_where_every_stack_is_below_the_minimum_bet_is_refused():
    """Decided: docs/rules.md#21-no-bettor."""
    refused("nobody_can_bet", new_game, 3, chips=2, min_bet=3)
    refused("nobody_can_bet", from_deal, 3, ["10♥", "9♠", "8♣"], chips=2, min_bet=3)


def test_a_table_where_only_the_banker_has_chips_is_refused():
    refused("nobody_can_bet", new_game, 3, chips=[20, 0, 0], banker=0)
    refused("nobody_can_bet", new_game, 3, chips=[20, 0, 0])  # the lot can only draw seat 0
    refused("nobody_can_bet", new_game, 4, chips=[20, 2, 0, 1], min_bet=3, banker=0)


def test_the_first_banker_holds_chips_and_the_lot_draws_among_those_who_do():
    refused("banker_no_chips", new_game, 3, chips=[20, 0, 20], banker=1)
    refused("no_chips_at_all", new_game, 3, chips=0)
    for seed in range(30):
        game = new_game(4, seed=seed, chips=[0, 20, 0, 20])
        assert game.banker in (1, 3)
        assert game.current_seat in (1, 3) and game.view(game.current_seat).legal_actions()


def test_a_table_with_one_player_able_to_bet_plays_to_an_end():
    game = play_game(3, bots=RandomBot, seed=2, chips=[20, 3, 0], banker=0, rounds=None)
    assert game.is_terminal() and game.current_seat is None
    assert game.legal_actions() == [] and game.view(0).legal_actions() == []
    with pytest.raises(VinteEUmError) as info:
        game.apply_action("bet 1")
    assert info.value.code == "game_over"


# -- the banker's two aces (ace worth 11) -----------------------------------------------------

def two_aces(chips=20):
    """Banker 0 holds A♣ face down and turns A♦; seat 1 (10♠) gets 6♥ then hits K♦; seat 2
    (9♦) gets 8♣ and stands."""
    return from_deal(3, {1: "10♠", 2: "9♦", 0: "A♣"}, "A♦", ["6♥", "K♦", "8♣"], banker=0,
                     seed=1, ace=11, chips=chips)


def test_rule_banker_two_aces_players_play_first_and_his_bust_shows_at_his_turn():
    game = two_aces()
    game.apply_action("bet 2")
    events = game.apply_action("bet 3")
    assert game.phase == "players" and game.current_seat == 1  # the round goes on
    assert not any(e["type"] == "banker_bust" for e in events)
    assert as_lists(game.view(1).hands[0]) == [None, "A♦"]  # his bust is not shown yet
    game.apply_action(HIT)  # 10 + 6 + K = 26: seat 1 busts and pays the banker at once
    assert game.seat_results[1] == "bust" and game.chips[0] == 22
    events = game.apply_action(STAND)  # seat 2 on 17; now the banker's turn: his bust shows
    kinds = [e["type"] for e in events]
    assert kinds.index("stand") < kinds.index("banker_bust")
    bust = next(e for e in events if e["type"] == "banker_bust")
    assert bust["points"] == 22 and bust["pays"] == [2]
    assert game.chips == [19, 18, 23] and game.round_number == 2
    assert "estoura com 22" in narrate(bust) and "busts with 22" in narrate(bust, "en")


def test_rule_banker_two_aces_pays_uncalled_players_from_his_left_until_empty():
    game = from_deal(4, {1: "10♠", 2: "9♦", 3: "8♥", 0: "A♣"}, "A♦", ["7♥", "8♣", "9♣"],
                     banker=0, seed=1, ace=11, chips=[4, 20, 20, 20], rounds=1)
    for action in ("bet 3", "bet 3", "bet 3", STAND, STAND, STAND):
        game.apply_action(action)
    pays = [e for e in game.events if e["type"] == "pay"]
    assert [(p["to"], p["amount"], p["owed"]) for p in pays] == [(1, 3, 3), (2, 1, 3), (3, 0, 3)]
    assert game.chips == [0, 23, 21, 20]


def test_rule_banker_two_aces_with_every_player_bust_pays_nobody():
    game = from_deal(3, {1: "10♠", 2: "9♦", 0: "A♣"}, "A♦", ["6♥", "K♦", "8♣", "Q♦"],
                     banker=0, seed=1, ace=11)
    for action in ("bet 2", "bet 3", HIT, HIT):
        game.apply_action(action)
    bust = next(e for e in game.events if e["type"] == "banker_bust")
    assert bust["pays"] == [] and game.chips == [25, 18, 17]
    assert "ninguém" in narrate(bust)


# -- every game ends -------------------------------------------------------------------------

def test_rounds_none_ends_after_the_cap_with_most_chips_winning():
    """Decided: docs/rules.md#21-round-cap."""
    game = play_game(3, bots=RandomBot, seed=4, rounds=None, chips=500, max_bet=1,
                     rotation="permanent")
    assert game.is_terminal() and game.round_number == UNTIL_ONE_CAP
    over = game.events[-1]
    assert over["type"] == "game_over" and over["cap"] == UNTIL_ONE_CAP
    assert game.chips[game.winners[0]] == max(game.chips)
    assert "200 rodadas" in narrate(over) and "200 rounds" in narrate(over, "en")


def test_a_seat_without_chips_or_stake_is_out_for_good():
    """Decided: docs/rules.md#21-seat-out."""
    game = new_game(4, seed=3, chips=[0, 20, 20, 20], banker=1)
    assert game.seat_is_out(0) and not game.seat_is_out(2) and not game.seat_is_out(1)
    assert 0 in game.sitting_out
    refused("bad_viewer", game.seat_is_out, 4)
    while not game.is_terminal():
        assert game.current_seat != 0
        seat = game.current_seat
        game.apply_action(RandomBot(seat).choose(game.view(seat)))
    assert game.seat_is_out(0) and game.seat_is_out(1)


def test_bank_story_starts_where_the_engine_says():
    game = new_game(4, seed=3, banker=0, rotation="rounds", rotation_rounds=1)
    assert game.bank_story() == []
    while not game.bank_story():
        seat = game.current_seat
        choice = Action("take_bank") if game.phase == "rotation" else RandomBot(1).choose(game.view(seat))
        game.apply_action(choice)
    story = game.bank_story()
    assert story[0]["type"] == "round_end" and story[-1]["type"] == "bank_change"
    assert story[-1]["reason"] == "rounds" and [e["type"] for e in story[1:-1]] == ["rotation", "take_bank"]
