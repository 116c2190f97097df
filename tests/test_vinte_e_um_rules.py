"""One test per rule of docs/rules.md#vinte-e-um, named after the rule."""
import pytest

from cartas.vinte_e_um import HIT, ROTATIONS, STAND, Action, IllegalAction, from_deal, new_game, play_game, points
from cartas.vinte_e_um.bots import RandomBot

from vinte_e_um_helpers import as_lists


def play(game, *actions):
    for action in actions:
        game.apply_action(action)
    return game


def types(game, since=0):
    return [e["type"] for e in game.events[since:]]


def three(first, upcard, then=(), **options):
    """Seat 0 banker, players 1 and 2; deal order: 1, 2, banker, upcard, then `then`."""
    options.setdefault("seed", 7)
    by_seat = {1: first[0], 2: first[1], 0: first[2]}
    return from_deal(3, by_seat, upcard, then, banker=0, **options)


def test_rule_participants_three_to_twelve_one_pack_up_to_eight_two_above():
    """Decided: docs/rules.md#21-packs."""
    for bad in (2, 13):
        with pytest.raises(ValueError, match="3 to 12"):
            new_game(bad)
    for players in range(3, 13):
        game = new_game(players, seed=players)
        assert game.decks == (1 if players <= 8 else 2)
        cards = len(game.stock) + sum(map(len, game.hands)) + len(game.collected)
        assert cards == 52 * game.decks
    assert new_game(4, seed=1, decks=2).decks == 2  # the table may choose


def test_rule_values_face_value_court_cards_ten_ace_as_agreed():
    assert points(["2♥", "9♠", "10♦"]) == 21
    assert points(["K♥", "Q♠"]) == 20 and points(["J♣", "A♦"]) == 11
    assert points(["J♣", "A♦"], ace=11) == 21
    assert points(["A♣", "A♦"], ace=11) == 22
    with pytest.raises(ValueError, match="1, 11 or 'flexible'"):
        points(["A♣"], ace=7)


def test_rule_values_flexible_ace_is_a_house_rule_best_of_one_or_eleven():
    assert points(["A♣", "9♦"], ace="flexible") == 20
    assert points(["A♣", "9♦", "5♠"], ace="flexible") == 15
    assert points(["A♣", "A♦", "9♠"], ace="flexible") == 21
    assert new_game(3, seed=1, ace="flexible").ace == "flexible"


def test_rule_chips_same_stack_and_bets_within_limits_and_stack():
    """Decided: docs/rules.md#21-chips."""
    game = new_game(4, seed=2, chips=20)
    assert game.chips == [20, 20, 20, 20]
    assert [a.amount for a in game.legal_actions()] == [1, 2, 3, 4, 5]
    with pytest.raises(IllegalAction, match="a bet of 7 is outside the limits 1 to 5"):
        game.apply_action("bet 7")
    poor = three(["2♥", "3♥", "4♥"], "5♥", chips=[20, 2, 20])
    with pytest.raises(IllegalAction, match="seat 1 has only 2 chips"):
        poor.apply_action(Action.bet(3))
    assert [a.amount for a in poor.legal_actions()] == [1, 2]
    custom = new_game(3, seed=3, min_bet=2, max_bet=10)
    assert [a.amount for a in custom.legal_actions()] == list(range(2, 11))


def test_rule_round_one_card_face_down_to_each_from_banker_left_banker_last():
    """Decided: docs/rules.md#21-seats."""
    game = new_game(5, seed=4, banker=3)
    deals = [e for e in game.events if e["type"] == "deal"]
    assert [e["seat"] for e in deals] == [4, 0, 1, 2, 3]
    assert not any(e["face_up"] for e in deals)
    view = game.view(4)
    assert as_lists(view.hands[4]) == [str(game.hands[4][0])]
    assert all(as_lists(view.hands[s]) == [None] for s in (0, 1, 2, 3))  # nobody shows their card
    assert all(e["card"] is None for e in game.events_for(4) if e["type"] == "deal" and e["seat"] != 4)


def test_rule_round_players_bet_looking_only_at_their_first_card():
    game = new_game(4, seed=5, banker=0)
    order = []
    while game.phase == "bet":
        assert all(len(game.hands[s]) == 1 for s in range(4))  # nothing else dealt yet
        order.append(game.current_seat)
        game.apply_action(Action.bet(2))
    assert order == [1, 2, 3]
    assert game.bets == [0, 2, 2, 2] and game.phase == "players"  # ace 1: no banker 21


def test_rule_round_banker_two_card_21_shows_and_takes_every_bet():
    game = three(["10♥", "9♠", "A♦"], "K♣", ace=11, rounds=1)
    play(game, "bet 3", "bet 5")
    assert "banker_21" in types(game)
    assert game.chips == [28, 17, 15] and game.is_terminal()
    assert not any(e["type"] == "deal" and e["face_up"] and e["seat"] != 0 for e in game.events)


def test_rule_round_player_second_card_face_up_first_card_stays_down():
    game = three(["10♥", "9♠", "5♦"], "6♣", ["4♠"])
    play(game, "bet 1", "bet 1")
    assert game.phase == "players" and game.current_seat == 1
    assert game.hands[1] == [game.hands[1][0], game.hands[1][1]] and str(game.hands[1][1]) == "4♠"
    assert as_lists(game.view(2).hands[1]) == [None, "4♠"]
    assert as_lists(game.view(2).hands[0]) == [None, "6♣"]  # the banker's second card is face up
    assert game.face_down[1] == [game.hands[1][0]]


def test_rule_round_player_over_21_says_estourei_and_pays_at_once():
    game = three(["10♥", "9♠", "5♦"], "6♣", ["4♠", "8♣", "2♦"])
    play(game, "bet 4", "bet 1", HIT)
    bust = next(e for e in game.events if e["type"] == "bust")
    assert bust == {"type": "bust", "seat": 1, "cards": ["10♥", "4♠", "8♣"], "points": 22}
    assert game.chips[0] == 24 and game.bets[1] == 0 and game.current_seat == 2
    assert game.phase == "players" and game.seat_results[1] == "bust"


def test_rule_round_banker_draws_then_calls_turning_his_card_player_with_more_wins():
    """Decided: docs/rules.md#21-banker-chooses."""
    game = three(["10♥", "9♠", "5♦"], "6♣", ["9♦", "8♣", "3♦"])
    play(game, "bet 4", "bet 2", STAND, STAND)  # 19 and 17 against the banker's 11
    assert game.phase == "banker" and game.current_seat == 0
    play(game, "draw")  # 3♦: 14
    start = len(game.events)
    play(game, Action.call(1))
    assert types(game, start)[:2] == ["reveal", "call"]
    call = game.events[start + 1]
    assert (call["player_points"], call["banker_points"], call["winner"]) == (19, 14, "player")
    assert game.chips[1] == 24 and game.chips[0] == 16  # even money


def test_rule_round_tie_goes_to_the_bank():
    game = three(["10♥", "9♠", "10♦"], "8♣", ["8♦", "9♣"])
    play(game, "bet 3", "bet 2", STAND, STAND, Action.call(1))  # 18 against 18
    call = next(e for e in game.events if e["type"] == "call")
    assert call["winner"] == "banker" and call["player_points"] == call["banker_points"] == 18
    assert game.chips == [23, 17, 18]


def test_rule_round_banker_over_21_pays_only_players_not_yet_called():
    """Decided: docs/rules.md#21-banker-pays."""
    game = three(["10♥", "9♠", "6♦"], "6♣", ["7♦", "8♣", "K♦"])
    play(game, "bet 3", "bet 2", STAND, STAND)  # 17 and 17; banker 12
    play(game, Action.call(1), "draw")  # call 17 vs 12: player wins; then K: 22, bust
    assert "banker_bust" in types(game)
    bust = next(e for e in game.events if e["type"] == "banker_bust")
    assert bust["pays"] == [2]
    assert game.chips == [20 - 3 - 2, 23, 22]


def test_rule_end_banker_who_cannot_pay_pays_in_calling_order_until_empty():
    game = three(["10♥", "10♠", "2♦"], "3♣", ["9♦", "8♣"], chips=[4, 20, 20])
    play(game, "bet 3", "bet 5", STAND, STAND)  # 19 and 18 against 5
    play(game, Action.call(2), Action.call(1))  # seat 2 called first: paid in full
    pays = [e for e in game.events if e["type"] == "pay"]
    assert [(p["to"], p["amount"], p["owed"]) for p in pays] == [(2, 4, 5), (1, 0, 3)]
    assert game.chips[0] == 0 and sum(game.chips) + game.pot == 44


def test_rule_running_out_of_cards_reshuffles_collected_cards():
    """Decided: docs/rules.md#21-running-out."""
    game = three(["10♥", "2♠", "6♦"], "6♣", ["9♦", "8♣", "K♦", "2♦"], seed=3)
    play(game, "bet 1", "bet 1", HIT)  # seat 1: 10, 9, 8 = 27, shown and collected
    assert game.collected and game.current_seat == 2
    # As if every other card had been shown and collected too: the stock is empty.
    game.collected, game.stock = game.collected + game.stock, []
    pool = sorted(map(str, game.collected))
    start = len(game.events)
    play(game, HIT)
    hit, shuffle, deal = game.events[start:start + 3]
    assert shuffle == {"type": "reshuffle", "cards": len(pool)}
    assert deal["seat"] == 2 and deal["card"] in pool and len(game.stock) == len(pool) - 1


def test_rule_running_out_of_cards_with_none_collected_players_must_stand():
    game = three(["10♥", "2♠", "6♦"], "6♣", ["2♦"])
    play(game, "bet 1", "bet 1")
    game.stock, game.collected = [], []  # as if every card were in the hands
    assert game.legal_actions() == [STAND]
    with pytest.raises(IllegalAction, match="no cards left"):
        game.apply_action(HIT)


@pytest.mark.parametrize("take", [True, False])
def test_rule_rotation_rounds_offered_from_banker_left_then_round_the_table(take):
    """Decided: docs/rules.md#21-rotation."""
    game = three(["10♥", "9♠", "5♦"], "6♣", ["9♦", "8♣"], rotation="rounds", rotation_rounds=1)
    play(game, "bet 1", "bet 1", STAND, STAND, Action.call(1), Action.call(2))
    assert game.phase == "rotation" and game.current_seat == 1
    assert set(map(str, game.legal_actions())) == {"take_bank", "refuse_bank"}
    play(game, "refuse_bank")
    assert game.current_seat == 2
    play(game, "take_bank" if take else "refuse_bank")
    change = next(e for e in game.events if e["type"] == "bank_change")
    if take:
        assert (change["to"], change["reason"]) == (2, "rounds") and game.banker == 2
    else:  # everyone refused: drawn by lot among them, with the seeded rng
        assert change["reason"] == "lot" and game.banker in (1, 2)
    assert game.phase == "bet" and game.round_number == 2


def test_rule_rotation_rounds_waits_for_the_agreed_number_of_rounds():
    game = new_game(4, seed=11, rotation="rounds", rotation_rounds=3, banker=0)
    bot = RandomBot(1)
    while game.round_number < 3 or game.phase != "rotation":
        assert game.phase != "rotation" and game.banker == 0 or game.round_number > 3
        if game.is_terminal():
            break
        game.apply_action(bot.choose(game.view(game.current_seat)))
        if "bank_change" in types(game):
            break
    assert game.phase == "rotation" and game.bank_rounds == 3 and game.current_seat == 1


def test_rule_rotation_natural_two_card_21_takes_the_bank():
    # seats 1 and 2 both make A+K; the first from the banker's left takes the bank
    game = three(["A♥", "K♠", "5♦"], "6♣", ["K♦", "A♣"], ace=11, rotation="natural")
    play(game, "bet 1", "bet 1")
    assert all(e["auto"] for e in game.events if e["type"] == "stand")  # 21 stands by itself
    play(game, Action.call(1), Action.call(2))
    change = next(e for e in game.events if e["type"] == "bank_change")
    assert change == {"type": "bank_change", "from": 0, "to": 1, "reason": "natural", "price": 0}
    assert game.banker == 1
    with pytest.raises(ValueError, match="ace to count 11"):
        new_game(4, rotation="natural", ace=1)


def test_rule_ace_default_is_1_except_11_under_the_natural_rotation():
    """Decided: docs/rules.md#21-ace."""
    from cartas.vinte_e_um import default_ace
    assert [default_ace(r) for r in ROTATIONS] == [11 if r == "natural" else 1 for r in ROTATIONS]
    assert new_game(4, seed=1).ace == 1 and new_game(4, seed=1, rotation="auction").ace == 1
    natural = new_game(4, seed=1, rotation="natural")
    assert natural.ace == 11 and natural.config["ace"] == 11
    assert natural.events[0]["ace"] == 11 and from_json_ace(natural) == 11
    assert new_game(4, seed=1, rotation="natural", ace="flexible").ace == "flexible"
    dealt = three(["A♥", "K♠", "5♦"], "6♣", ["K♦"], rotation="natural")
    assert dealt.ace == 11 and dealt.points(1) == 11  # the ace alone counts 11
    assert three(["A♥", "K♠", "5♦"], "6♣").ace == 1
    for make in (lambda: new_game(4, rotation="natural", ace=1),
                 lambda: three(["A♥", "K♠", "5♦"], "6♣", rotation="natural", ace=1)):
        with pytest.raises(ValueError, match="ace to count 11"):
            make()


def from_json_ace(game):
    from cartas.vinte_e_um import from_json
    return from_json(game.to_json()).ace


def test_rule_rotation_auction_highest_offer_paid_to_banker_takes_the_bank():
    game = three(["10♥", "9♠", "5♦"], "6♣", ["9♦", "8♣"], rotation="auction")
    play(game, "bet 1", "bet 1", STAND, STAND, Action.call(1), Action.call(2))
    chips = list(game.chips)
    assert game.phase == "rotation" and game.current_seat == 1
    play(game, "bid 2", "bid 3")
    with pytest.raises(IllegalAction, match="must beat the highest bid, 3"):
        game.apply_action("bid 3")
    play(game, "bid 4", "pass")
    assert game.banker == 1 and game.chips[1] == chips[1] - 4 and game.chips[0] == chips[0] + 4
    game2 = three(["10♥", "9♠", "5♦"], "6♣", ["9♦", "8♣"], rotation="auction")
    play(game2, "bet 1", "bet 1", STAND, STAND, Action.call(1), Action.call(2), "pass", "pass")
    assert game2.banker == 0 and game2.phase == "bet"  # everyone may pass


def test_rule_rotation_sale_banker_accepts_or_refuses_an_offer():
    game = three(["10♥", "9♠", "5♦"], "6♣", ["9♦", "8♣"], rotation="sale")
    play(game, "bet 1", "bet 1", STAND, STAND, Action.call(1), Action.call(2))
    play(game, Action.offer(2))
    assert game.current_seat == 0 and set(map(str, game.legal_actions())) == {"accept_offer", "refuse_offer"}
    play(game, "refuse_offer")
    assert game.banker == 0 and game.current_seat == 2
    chips = list(game.chips)
    play(game, Action.offer(6), "accept_offer")
    assert game.banker == 2 and game.chips[2] == chips[2] - 6 and game.chips[0] == chips[0] + 6


def test_the_banker_answers_an_offer_only_while_one_is_pending():
    """The banker's answer needs a pending offer: without one it is an IllegalAction in both
    languages (the handler checks it itself, it does not unpack a missing offer)."""
    game = three(["10♥", "9♠", "5♦"], "6♣", ["9♦", "8♣"], rotation="sale")
    play(game, "bet 1", "bet 1", STAND, STAND, Action.call(1), Action.call(2))
    assert game.phase == "rotation" and game.pending_offer is None
    saved = game.to_json()
    for answer in ("accept_offer", "refuse_offer"):
        with pytest.raises(IllegalAction) as refused:
            game.apply_action(answer)
        assert refused.value.code == "wrong_kind"
        handler = getattr(game, "_do_" + answer)
        with pytest.raises(IllegalAction) as refused:
            handler(game.banker, Action(answer))
        assert refused.value.code == "no_offer"
        assert refused.value.message("pt") != refused.value.message("en")
    assert game.to_json() == saved


def test_rule_rotation_permanent_bank_never_moves():
    game = play_game(5, seed=3, rotation="permanent", rounds=6, banker=2)
    assert not any(e["type"] == "bank_change" and e["reason"] != "broke" for e in game.events)


def test_rule_end_after_the_set_rounds_most_chips_wins():
    """Decided: docs/rules.md#21-end."""
    game = play_game(4, seed=9, rounds=4)
    assert game.is_terminal() and game.round_number == 4
    best = max(game.chips)
    assert game.winners == [s for s in range(4) if game.chips[s] == best]
    assert game.winner == (game.winners[0] if len(game.winners) == 1 else None)
    tie = three(["10♥", "9♠", "5♦"], "6♣", ["9♦", "8♣"], chips=[10, 10, 10], rounds=1)
    play(tie, "bet 1", "bet 1", STAND, STAND, Action.call(1), Action.call(2))  # 19, 17 beat 11
    assert tie.chips == [8, 11, 11] and tie.winner is None and tie.winners == [1, 2]


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_rule_end_play_until_one_participant_holds_every_chip(rotation):
    ace = 11 if rotation == "natural" else 1
    game = play_game(3, seed=5, rounds=None, chips=3, rotation=rotation, ace=ace)
    assert game.is_terminal() and sorted(game.chips)[:-1] == [0, 0] and game.winner is not None
