"""Game state contract: errors, views, JSON, events, narration and bots."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from cartas.vinte_e_um import (
    HIT,
    KINDS,
    STAND,
    Action,
    IllegalAction,
    VinteEUmError,
    from_deal,
    from_json,
    narrate,
    new_game,
    play_game,
)
from cartas.vinte_e_um.bots import RandomBot, SensibleBot

from vinte_e_um_helpers import as_lists, random_game_after


def candidates(game):
    """Every action worth trying now, legal or not."""
    out = [Action(k) for k, needs in KINDS.items() if needs is None]
    out += [Action(k, amount=n) for k in ("bet", "bid", "offer") for n in range(0, 9)]
    out += [Action.call(s) for s in range(game.players)]
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 12), st.integers(0, 60))
def test_illegal_actions_explain_and_leave_the_state_untouched(seed, players, steps):
    game = random_game_after(seed, steps, players)
    before = game.to_json()
    legal = set(game.legal_actions())
    for action in candidates(game):
        reason = game.why_illegal(action)
        assert (reason is None) == (action in legal), (action, reason)
        if reason is not None:
            with pytest.raises(IllegalAction, match=reason[:20].replace("(", r"\(")):
                game.apply_action(action)
            assert game.to_json() == before
    if not game.is_terminal():
        other = (game.current_seat + 1) % players
        with pytest.raises(IllegalAction, match=f"it is seat {game.current_seat}'s turn"):
            game.apply_action(game.legal_actions()[0], seat=other)
        assert game.to_json() == before


def test_apply_action_accepts_str_and_returns_its_events():
    game = new_game(3, seed=1, banker=0)
    events = game.apply_action("bet 2")
    assert events == [{"type": "bet", "seat": 1, "amount": 2}]
    with pytest.raises(IllegalAction, match="'hit' is not allowed now"):
        game.apply_action("hit")


def test_json_round_trip_is_exact_and_continues_identically():
    game = new_game(6, seed=8, rotation="auction", rounds=5)
    bots = [RandomBot(i) for i in range(6)]
    for _ in range(40):
        game.apply_action(bots[game.current_seat].choose(game.view(game.current_seat)))
    text = game.to_json()
    copy = from_json(text)
    assert copy.to_json() == text
    bots2 = [RandomBot(i) for i in range(6)]
    for b, b2 in zip(bots, bots2):
        b2.rng.bit_generator.state = b.rng.bit_generator.state
    while not game.is_terminal():
        game.apply_action(bots[game.current_seat].choose(game.view(game.current_seat)))
        copy.apply_action(bots2[copy.current_seat].choose(copy.view(copy.current_seat)))
    assert copy.to_json() == game.to_json()


def test_view_hides_face_down_cards_and_banker_card_until_first_call():
    """Decided: docs/rules.md#21-who-sees."""
    game = from_deal(3, {1: "10♥", 2: "9♠", 0: "5♦"}, "6♣", ["9♦", "8♣"], seed=1)
    for action in ("bet 1", "bet 1", STAND, STAND):
        game.apply_action(action)
    assert as_lists(game.view(0).hands[0]) == ["5♦", "6♣"]  # the banker looks at his own card
    assert as_lists(game.view(1).hands[0]) == [None, "6♣"] and as_lists(game.view(1).hands[2]) == [None, "8♣"]
    assert "5♦" not in game.view(1).seen and "9♠" not in game.view(1).seen
    game.apply_action(Action.call(1))
    assert as_lists(game.view(2).hands[0]) == ["5♦", "6♣"]
    assert game.called == [1] and game.uncalled == [2] and game.face_down[2] == [game.hands[2][0]]
    assert as_lists(game.view(2).collected) == ["10♥", "9♦"]


def test_spectator_view_shows_only_face_up_and_shown_cards():
    game = from_deal(3, {1: "10♥", 2: "9♠", 0: "5♦"}, "6♣", ["9♦", "5♠", "8♣"], seed=1)
    for action in ("bet 1", "bet 2", HIT):  # seat 1: 10, 9, 5 = 24, busts and shows them
        game.apply_action(action)
    public = game.view(None)
    assert public.seat is None and public.points is None and public.legal_actions() == []
    assert as_lists(public.hands) == [[None, "6♣"], [], [None, "8♣"]]
    assert sorted(as_lists(public.seen)) == sorted(["6♣", "8♣", "10♥", "9♦", "5♠"])
    assert as_lists(public.cards) == [[None, "6♣"], ["10♥", "9♦", "5♠"], [None, "8♣"]]
    assert as_lists(public.settled) == [False, True, False]
    assert as_lists(public.visible_points) == [6, 24, 8]
    assert as_lists(public.sitting_out) == [] and as_lists(public.left_of_banker) == [1, 2]
    assert [e["card"] for e in game.events_for(None) if e["type"] == "deal" and not e["face_up"]] == [None] * 3
    own = game.view(2)  # a seat sees its own first card, not the others'
    assert as_lists(own.cards[2]) == ["9♠", "8♣"] and as_lists(own.visible_points[2]) == 17
    assert as_lists(own.cards[0]) == [None, "6♣"] and own.points == 17
    json.dumps(public.to_dict())


def test_the_all_view_shows_every_card_and_viewers_are_checked():
    game = from_deal(3, {1: "10♥", 2: "9♠", 0: "5♦"}, "6♣", ["9♦", "8♣"], seed=1)
    game.apply_action("bet 1")  # seat 2 still to bet: every card is face down
    everything = game.view("all")
    assert as_lists(everything.hands) == [["5♦"], ["10♥"], ["9♠"]]
    assert as_lists(everything.visible_points) == [5, 10, 9] and everything.points is None
    assert sorted(as_lists(everything.seen)) == ["10♥", "5♦", "9♠"]
    assert game.events_for("all") == game.events
    assert as_lists(game.view(None).hands) == [[None], [None], [None]]
    assert as_lists(game.view(None).visible_points) == [None, None, None] and as_lists(game.view(None).seen) == []
    for bad in (-1, 3, "2", True):
        with pytest.raises(ValueError, match="A viewer is a seat"):
            game.view(bad)
    with pytest.raises(ValueError, match="A viewer is a seat"):
        game.events_for(-1)


def test_from_deal_checks_its_cards():
    with pytest.raises(ValueError, match="exactly the seats dealt in"):
        from_deal(3, {1: "10♥", 2: "9♠"})
    with pytest.raises(ValueError, match="too few"):
        from_deal(3, ["10♥", "10♥", "10♥"], "10♥", ["10♥"], decks=2)


def test_new_game_rejects_bad_options():
    for options, code in [(dict(ace=2), "bad_ace"), (dict(rotation="x"), "unknown_rotation"),
                          (dict(min_bet=6), "bet_order"), (dict(chips=[1, 2]), "chips_shape"),
                          (dict(rounds=0), "whole_number")]:
        with pytest.raises(VinteEUmError) as info:
            new_game(3, **options)
        assert info.value.code == code
        assert info.value.message("pt") != info.value.message("en") == str(info.value)


def test_every_event_narrates_in_both_languages_and_is_json():
    kinds = set()
    for seed, rotation in enumerate(["rounds", "natural", "auction", "sale", "permanent"] * 4):
        game = play_game(4 + seed % 6, bots=RandomBot, seed=seed, rotation=rotation,
                         ace=11 if rotation == "natural" else [1, 11, "flexible"][seed % 3],
                         rotation_rounds=1, rounds=6)
        json.dumps(game.events)
        for event in game.events:
            kinds.add(event["type"])
            pt, en = narrate(event), narrate(event, "en")
            assert pt.endswith(".") and en.endswith(".") and pt != en
    assert {"deal", "bet", "bust", "call", "pay", "bank_change", "bid", "offer",
            "take_bank", "refuse_bank", "game_over"} <= kinds
    assert narrate({"type": "bust", "seat": 3, "points": 24, "cards": []}).startswith("Estourei!")


def test_bots_are_deterministic_and_use_the_seed():
    a = play_game(5, seed=12, rotation="sale").to_json()
    assert a == play_game(5, seed=12, rotation="sale").to_json()
    assert a != play_game(5, seed=13, rotation="sale").to_json()


def test_sensible_player_bets_by_first_card_and_stands_by_risk():
    bot = SensibleBot(0)
    high = from_deal(3, {1: "K♥", 2: "3♠", 0: "5♦"}, "6♣", ["5♣", "9♦"], seed=1)
    assert bot.choose(high.view(1)) == Action.bet(5)
    high.apply_action("bet 5")
    assert bot.choose(high.view(2)) == Action.bet(1)
    high.apply_action("bet 1")
    assert bot.choose(high.view(1)) == STAND  # 15: 7 to K bust it, more than half the pack
    high.apply_action(STAND)
    assert bot.choose(high.view(2)) == HIT  # 12: only tens bust it


def test_sensible_banker_calls_weakest_first_and_draws_when_behind():
    game = from_deal(4, {1: "9♥", 2: "9♠", 3: "9♣", 0: "10♦"}, "7♣",
                     ["K♥", "2♣", "4♦"], seed=1)
    for action in ("bet 1", "bet 1", "bet 1", STAND, STAND, STAND):
        game.apply_action(action)
    bot = SensibleBot(0)
    assert bot.choose(game.view(0)) == Action.call(2)  # 2♣ showing looks weakest
    game.apply_action(Action.call(2))
    assert bot.choose(game.view(0)) == Action.call(3)  # 4♦ next; the K♥ hand looks like 20
    game.apply_action(Action.call(3))
    assert bot.choose(game.view(0)) == Action.call(1)  # 17 is not behind; a draw would likely bust
    assert game.chips[0] == 22
    behind = from_deal(3, {1: "9♥", 2: "9♠", 0: "10♦"}, "2♣", ["K♥", "Q♣"], seed=1)
    for action in ("bet 1", "bet 1", STAND, STAND):
        behind.apply_action(action)
    assert bot.choose(behind.view(0)) == Action("draw")  # 12 against hands showing a ten


def test_narration_calls_a_named_seat_by_its_name_and_the_others_by_number():
    from cartas.vinte_e_um import narrate, new_game
    state = new_game(4, seed=3, banker=1)
    pay = {"type": "pay", "from": 1, "to": 2, "amount": 3, "owed": 3}
    assert narrate(pay, "pt", {1: "Ana", 2: "Bia"}) == "Ana paga 3 fichas a Bia."
    assert narrate(pay, "en", {2: "Bia"}) == "Seat 1 pays 3 chips to Bia."
    assert narrate(pay, "pt", {2: "  "}) == narrate(pay, "pt") == "O assento 1 paga 3 fichas ao assento 2."
    change = {"type": "bank_change", "from": 1, "to": 12, "reason": "sale", "price": 2}
    assert narrate(change, "pt", {1: "Ana"}).startswith("A banca passa de Ana para o assento 12")
    for event in state.events:
        named = state.narrate(event, "en", {0: "Cida"})
        assert "seat 0" not in named.lower()
