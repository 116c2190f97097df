"""The call as one pure function, settled hands kept for the table, the banker who cannot
pay, odds inputs and translated refusals."""
import types

import pytest
from hypothesis import given, settings, strategies as st

import cartas.vinte_e_um as vinte_e_um
from cartas.cards import STANDARD_PACK
from cartas.vinte_e_um import (
    HIT,
    STAND,
    Action,
    IllegalAction,
    bust_probability,
    call_winner,
    explain_call,
    from_deal,
    from_json,
    legacy,
    narrate,
    new_game,
    playable,
    points,
    win_probability,
)
from cartas.vinte_e_um.bots import RandomBot

from vinte_e_um_helpers import as_lists, random_game_after


def three(first, upcard, then=(), **options):
    """Seat 0 banker, players 1 and 2; deal order: 1, 2, banker, upcard, then `then`."""
    return from_deal(3, {1: first[0], 2: first[1], 0: first[2]}, upcard, then, banker=0,
                     seed=options.pop("seed", 7), **options)


@pytest.mark.parametrize("player, banker, ace, winner, words", [
    (["10♠", "8♦"], ["9♠", "8♠"], 1, "player", "18 contra 17; ganha o jogador"),
    (["10♠", "7♦"], ["9♠", "8♠"], 1, "banker", "empate, e o empate é da banca"),
    (["10♠", "6♦"], ["9♠", "8♠"], 1, "banker", "16 contra 17; ganha a banca"),
    (["10♠", "9♦", "5♣"], ["9♠", "8♠", "10♥"], 1, "banker", "Estourei"),  # he busts first
    (["10♠", "2♦"], ["9♠", "7♠", "10♥"], 1, "player", "estoura com 26"),
    (["10♠", "9♦"], ["A♣", "K♦"], 11, "banker", "21 com duas cartas"),
    (["10♠", "9♦", "5♣"], ["A♣", "A♦"], 11, "banker", "Estourei"),  # players play first
    (["10♠", "9♦"], ["A♣", "A♦"], 11, "player", "dois ases"),  # his bust shows at his turn
])
def test_call_winner_and_its_explanation(player, banker, ace, winner, words):
    assert call_winner(player, banker, ace) == winner
    assert words in explain_call(player, banker, ace, "pt")
    english = explain_call(player, banker, ace, "en")
    assert ("player wins" in english) == (winner == "player")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(STANDARD_PACK), min_size=4, max_size=7, unique=True),
       st.integers(2, 5), st.sampled_from([1, 11, "flexible"]))
def test_call_winner_more_points_win_ties_to_the_bank(cards, split, ace):
    player, banker = cards[:split], cards[split:]
    mine, theirs = points(player, ace), points(banker, ace)
    if mine <= 21 and theirs <= 21 and len(banker) > 2:
        assert call_winner(player, banker, ace) == ("player" if mine > theirs else "banker")
    if mine > 21 and len(banker) > 2:
        assert call_winner(player, banker, ace) == "banker"


def test_call_winner_refuses_cards_the_packs_cannot_hold():
    with pytest.raises(ValueError, match="too few of 10♠"):
        call_winner(["10♠", "7♦"], ["10♠", "8♠"])
    assert call_winner(["10♠", "8♦"], ["10♠", "7♠"], decks=2) == "player"


def test_playable_stops_a_hand_at_21_or_over():
    assert playable(["10♠", "A♦", "5♣"], ace=11) == playable(["10♠", "A♦"], ace=11)
    assert len(playable(["10♠", "9♦", "5♣", "2♥"])) == 3
    assert len(playable(["10♠", "9♦"])) == 2


def test_judge_call_trims_each_hand_then_says_who_wins():
    from cartas.vinte_e_um import judge_call
    player, banker, winner = judge_call(["10♠", "A♦", "5♣"], ["9♠", "8♠"], ace=11)
    assert player == playable(["10♠", "A♦"], ace=11) and len(banker) == 2 and winner == "player"
    assert judge_call(["10♠", "7♦"], ["9♠", "8♠", "4♥", "2♣"])[1:] == (playable(["9♠", "8♠", "4♥"]), "banker")
    with pytest.raises(ValueError, match="too few"):
        judge_call(["10♠", "7♦"], ["10♠", "8♠"])


def test_beats_reads_final_totals_like_call_winner():
    from cartas.vinte_e_um import beats
    assert beats(18, 17) and beats(18, 22) and beats(12, 23)
    assert not beats(17, 17) and not beats(16, 17) and not beats(22, 23)
    for mine, theirs, cards in ((18, 17, (["10♠", "8♦"], ["9♠", "8♠"])),
                                (17, 17, (["10♠", "7♦"], ["9♠", "8♠"])),
                                (12, 26, (["10♠", "2♦"], ["9♠", "7♠", "10♥"]))):
        assert beats(mine, theirs) == (call_winner(*cards) == "player")


def test_the_game_settles_every_call_with_call_winner(monkeypatch):
    game = three(["10♥", "10♠", "9♦"], "8♣", ["7♦", "8♦"])  # 17 and 18 against 17
    game.apply_action("bet 2"), game.apply_action("bet 2")
    game.apply_action(STAND), game.apply_action(STAND)
    game.apply_action(Action.call(1))
    assert game.seat_results[1] == "lost"  # the tie goes to the bank
    seen = []
    monkeypatch.setattr(vinte_e_um.state, "call_winner",
                        lambda p, b, ace, decks: seen.append((len(p), len(b))) or "banker")
    game.apply_action(Action.call(2))  # 18 against 17, but the (patched) rule says bank
    assert seen == [(2, 2)] and game.events[-1]["type"] != "call"  # the round ended
    call = [e for e in game.events if e["type"] == "call"][-1]
    assert (call["seat"], call["winner"], call["player_points"]) == (2, "banker", 18)


def test_all_lists_every_public_name():
    # the names the package holds, plus those it loads on first use (numpy's modules)
    typing_only = {"annotations", "TYPE_CHECKING"}
    public = {name for name, value in vars(vinte_e_um).items() if not name.startswith("_")
              and name not in typing_only
              and not (isinstance(value, types.ModuleType) and name not in ("bots", "odds"))}
    assert set(vinte_e_um.__all__) == public | set(vinte_e_um._LAZY)
    assert {"new_game", "call_winner", "explain_call", "playable"} <= public


def test_settled_hands_stay_shown_until_the_next_round():
    game = three(["10♥", "10♠", "9♦"], "8♣", ["9♣", "5♠", "8♦"], rounds=3, rotation="permanent")
    game.apply_action("bet 2"), game.apply_action("bet 2")
    game.apply_action(HIT)  # seat 1: 10, 9, 5 = 24
    assert game.hands[1] == [] and [str(c) for c in game.shown[1]] == ["10♥", "9♣", "5♠"]
    assert game.seat_results[1] == "bust" and as_lists(game.view(2).shown[1]) == ["10♥", "9♣", "5♠"]
    assert from_json(game.to_json()).shown == game.shown
    game.apply_action(STAND)  # seat 2 on 18
    assert game.shown[2] == [] and game.phase == "banker"
    game.apply_action(Action.call(2))  # the last call ends the round: a new one starts
    assert game.round_number == 2 and game.shown == [[], [], []]
    end = [e for e in game.events if e["type"] == "call"][-1]
    assert end["cards"] == ["10♠", "8♦"]


def test_a_called_hand_is_shown_while_others_wait():
    game = three(["10♥", "10♠", "9♦"], "8♣", ["7♦", "8♦"])  # 17 and 18 against 17
    for action in ("bet 2", "bet 2", STAND, STAND, Action.call(1)):
        game.apply_action(action)
    assert game.hands[1] == [] and [str(c) for c in game.shown[1]] == ["10♥", "7♦"]
    assert game.seat_results[1] == "lost" and game.uncalled == [2]


def test_shown_is_cleared_when_the_next_round_starts():
    game = new_game(4, seed=5, rounds=None, rotation="permanent")
    bot = RandomBot(5)
    seen_settled = False
    while game.round_number < 3:
        before = game.round_number
        game.apply_action(bot.choose(game.view(game.current_seat)))
        if game.round_number != before:
            assert game.shown == [[] for _ in range(4)]
        seen_settled |= any(game.shown)
        for seat, cards in enumerate(game.shown):
            assert not cards or (game.seat_results[seat] in ("bust", "won", "lost") and not game.hands[seat])
    assert seen_settled


def test_old_json_without_shown_still_loads():
    game = new_game(3, seed=2)
    data = legacy.first_format(game)  # the first format, "shown" added later
    del data["shown"]
    assert from_json(data).shown == [[], [], []]


def test_a_banker_with_nothing_left_says_so_instead_of_paying_zero():
    game = three(["10♥", "10♠", "2♦"], "3♣", ["9♦", "8♣"], chips=[4, 20, 20])
    for action in ("bet 3", "bet 5", STAND, STAND, Action.call(2), Action.call(1)):
        game.apply_action(action)
    short, empty = [e for e in game.events if e["type"] == "pay"][-2:]
    assert (short["amount"], empty["amount"]) == (4, 0)
    assert "só tem 4 fichas para pagar 5" in narrate(short, "pt")
    text = narrate(empty, "pt")
    assert "não tem mais fichas para pagar o assento 1" in text and "0 fichas" not in text
    assert "has no chips left to pay seat 1" in narrate(empty, "en")


def test_odds_say_seen_must_leave_the_hand_out():
    with pytest.raises(ValueError, match="seen must not include the hand's own cards \\(5♠"):
        bust_probability(["10♥", "5♠"], seen=["5♠", "2♦"])
    with pytest.raises(ValueError, match="seen must not include the hand's own cards"):
        win_probability(["10♥", "7♠"], ["9♦"], seen=["7♠"])
    assert "seen" in bust_probability.__doc__ and "NOT the hand" in bust_probability.__doc__


def test_refusals_keep_english_and_speak_portuguese():
    game = new_game(3, seed=1, banker=0)
    with pytest.raises(IllegalAction) as info:
        game.apply_action("bet 7")
    assert str(info.value) == "a bet of 7 is outside the limits 1 to 5"
    assert info.value.code == "bet_limits"
    assert info.value.message("pt") == "uma aposta de 7 está fora dos limites de 1 a 5"
    assert info.value.message("en") == str(info.value)
    assert "pedir carta" in game.illegal("hit").message("pt")
    assert "não existe a ação" in game.illegal("fly 3").message("pt")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60))
def test_every_refusal_has_a_portuguese_message(seed, steps):
    game = random_game_after(seed, steps)
    tries = [Action(k) for k in ("hit", "stand", "draw", "pass", "take_bank", "accept_offer")]
    tries += [Action(k, amount=n) for k in ("bet", "bid", "offer") for n in (0, 3, 30)]
    tries += [Action.call(s) for s in range(4)]
    for action in tries:
        error = game.illegal(action)
        if error is not None:
            assert error.code and error.message("pt") != str(error), (action, str(error))
