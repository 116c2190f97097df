"""Truco mano a mano (one against one, `seats=2`): the rules of docs/rules.md#truco-mano-a-mano
in both variants, as the engine, its views, narration, saves, bots and coach apply them."""
import json

import numpy as np
import pytest

from cartas.cards import TRUCO_PACK
from cartas.coach.truco import advise, spot_from_view
from cartas.games import GameError, find_game
from cartas.truco import (
    ACCEPT,
    MINEIRO,
    PAULISTA,
    PLAY_HAND,
    RUN_HAND,
    Action,
    IllegalActionError,
    TrucoError,
    deal_hands,
    deal_order,
    from_deal,
    from_json,
    new_game,
    play_order,
    seat_partner,
    team_seats,
    vira_card,
)
from cartas.truco.bots import play_game

VARIANTS = pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
TWO = [["3♦", "K♦", "4♦"], ["2♠", "J♠", "5♠"]]


def vira_for(variant):
    return "7♣" if variant.uses_vira else None


# -- players -----------------------------------------------------------------------------

@VARIANTS
def test_rule_mano_a_mano_seat_0_and_seat_1_are_each_a_team_of_one(variant):
    """docs/rules.md#mano-a-mano-players: with 2 players seat 0 is team 0, seat 1 team 1,
    and nobody has a partner; 4 stays the default."""
    assert new_game(variant, 1).players == 4
    state = find_game(variant.key).new_game(5, seats=2)
    assert state.players == 2 and len(state.hands) == 2
    assert [state.team_of(s) for s in (0, 1)] == [0, 1]
    assert [state.partner_of(s) for s in (0, 1)] == [None, None]
    for seat in (0, 1):
        view = state.view(seat)
        assert view.players == 2 and view.team == seat and view.partner is None
        assert len(view.hands) == 2 and view.hand == tuple(state.hand_of(seat))
    assert team_seats(1, 2) == (1,) and team_seats(1) == (1, 3)
    assert seat_partner(0, 2) is None and seat_partner(0) == 2
    assert play_order(1, 2) == [1, 0]


@pytest.mark.parametrize("players", [3, 1, 0, 5, "2", 2.0, True, None])
def test_rule_mano_a_mano_any_other_number_of_players_is_refused(players):
    """docs/rules.md#mano-a-mano-players: 4 or 2 players, nothing else, named in the refusal."""
    with pytest.raises(TrucoError) as refused:
        new_game(PAULISTA, 1, players=players)
    assert refused.value.code == "bad_players"
    assert "mano a mano" in refused.value.message("en") and "mano a mano" in refused.value.message("pt")


@pytest.mark.parametrize("key", ["paulista", "mineiro"])
def test_the_registry_takes_2_or_4_seats_for_truco_and_says_so_for_3(key):
    spec = find_game(key)
    assert spec.seats == (2, 4) and set(spec.seat_counts) == {2, 4} and spec.default_seats == 4
    assert spec.check_seats(2) == 2 and spec.check_seats(None) == 4
    with pytest.raises(GameError) as refused:
        spec.new_game(1, seats=3)
    assert refused.value.code == "bad_seat_count"
    assert refused.value.message("pt").endswith("tem 2 ou 4 assentos, não 3.")
    assert refused.value.message("en").endswith("table has 2 or 4 seats, not 3.")
    for bad in (1, 5, "2", True):
        with pytest.raises(GameError) as refused:
            spec.new_game(1, seats=bad)
        assert refused.value.code == "bad_seats"
    assert spec.seats_from(1, 2) == [1, 0]


# -- the deal ----------------------------------------------------------------------------

@VARIANTS
def test_rule_mano_a_mano_deal_gives_the_mao_then_the_dealer_three_cards_and_the_seventh_is_the_vira(variant):
    """docs/rules.md#mano-a-mano-deal: the mão takes cards 1-3, the dealer 4-6, the 7th card
    (pack position 6) is the vira in Paulista; the first dealer is drawn by lot of two."""
    assert deal_order(0, 2) == [(1, 0), (1, 1), (1, 2), (0, 0), (0, 1), (0, 2)]
    assert vira_card(2) == 6 and vira_card() == 12
    assert deal_hands(list("abcdefgh"), 1, True, 2) == ([["a", "b", "c"], ["d", "e", "f"]], "g")
    for seed in range(20):
        rng = np.random.default_rng(seed)
        dealer = int(rng.integers(2))
        order = list(range(40))
        rng.shuffle(order)
        state = new_game(variant, seed, players=2)
        pack = [str(c) for c in TRUCO_PACK]
        deal = state.events[0]
        assert deal["dealer"] == dealer and deal["mao"] == 1 - dealer == state.mao
        assert deal["hands"][1 - dealer] == [pack[c] for c in order[0:3]]
        assert deal["hands"][dealer] == [pack[c] for c in order[3:6]]
        assert deal["vira"] == (pack[order[6]] if variant.uses_vira else None)
        assert state.current_seat == state.trick_leader == 1 - dealer


@VARIANTS
def test_rule_mano_a_mano_deal_alternates_and_a_trick_is_two_cards(variant):
    """docs/rules.md#mano-a-mano-deal: the deal alternates every hand; the other player is
    the mão and leads; a trick ends after two cards."""
    state = from_deal(variant, TWO, vira_for(variant), dealer=1, seed=3, players=2)
    assert state.mao == 0 and state.current_seat == 0
    state.apply_action(Action.play("3♦"))
    assert state.current_seat == 1 and state.trick_number == 1
    state.apply_action(Action.play("5♠"))
    trick = state.events[-1]
    assert trick["type"] == "trick" and trick["number"] == 1 and len(trick["plays"]) == 2
    dealers = [e["dealer"] for e in play_game(variant, [find_game(variant.key).bot(s) for s in (1, 2)],
                                             seed=4, players=2).events if e["type"] == "deal"]
    assert len(dealers) > 2 and all(a != b for a, b in zip(dealers, dealers[1:]))


def test_a_mano_a_mano_deal_by_hand_is_checked_for_two_players():
    with pytest.raises(TrucoError) as refused:
        from_deal(PAULISTA, TWO + TWO, "7♣", players=2)
    assert refused.value.code == "two_hands" and "two hands" in refused.value.message("en")
    with pytest.raises(TrucoError) as refused:
        from_deal(PAULISTA, TWO, "7♣", dealer=2, players=2)
    assert refused.value.code == "bad_dealer" and "0 to 1" in refused.value.message("en")
    with pytest.raises(TrucoError) as refused:
        from_deal(MINEIRO, [TWO[0], TWO[0]], players=2)
    assert refused.value.code == "dealt_twice" and "6 cards" in refused.value.message("en")
    with pytest.raises(TrucoError) as refused:
        new_game(MINEIRO, 1, players=2).view(2)
    assert refused.value.code == "bad_seat" and "0 to 1" in refused.value.message("en")


# -- threshold, answers, mão de ferro -------------------------------------------------------

@VARIANTS
def test_rule_mano_a_mano_the_player_at_the_threshold_sees_only_her_own_cards(variant):
    """docs/rules.md#mano-a-mano-threshold: at 11 (10) the player decides, seeing her own three
    cards only, and the values are those of four players."""
    top = variant.threshold
    for play in (True, False):
        state = from_deal(variant, TWO, vira_for(variant), dealer=0, score=(3, top), seed=1,
                          players=2)
        assert state.phase == "decide" and state.threshold_team == 1 and state.current_seat == 1
        view = state.view(1)
        assert view.hands[0] == (None, None, None) and None not in view.hands[1]
        assert state.view(0).hands[1] == (None, None, None)
        with pytest.raises(IllegalActionError):
            state.apply_action(PLAY_HAND, seat=0)  # nobody decides for her
        state.apply_action(PLAY_HAND if play else RUN_HAND)
        if play:
            assert state.phase == "play" and state.hand_value == variant.threshold_value
        else:
            assert state.score == (3 + variant.threshold_run_value, top)


@VARIANTS
def test_rule_mano_a_mano_only_the_other_player_answers_a_raise(variant):
    """docs/rules.md#mano-a-mano-answers: the other player answers; no one in her place."""
    state = from_deal(variant, TWO, vira_for(variant), dealer=1, seed=2, players=2)
    state.apply_action(Action.raise_to(variant.ladder[0]))
    assert state.phase == "answer" and state.current_seat == 1
    assert state.pending_raise["answer_seat"] == 1
    with pytest.raises(IllegalActionError):
        state.apply_action(ACCEPT, seat=0)
    state.apply_action(ACCEPT, seat=1)
    assert state.hand_value == variant.ladder[0] and state.current_seat == 0


@VARIANTS
def test_rule_mano_a_mano_mao_de_ferro_is_played_blind_as_with_four(variant):
    """docs/rules.md#ferro-blind, mano a mano: both at the threshold, cards by position."""
    top = variant.threshold
    state = from_deal(variant, TWO, vira_for(variant), dealer=0, score=(top, top), seed=1,
                      players=2)
    assert state.is_mao_de_ferro and {a.kind for a in state.legal_actions()} == {"blind"}
    assert state.view(1).hand == (None, None, None)


# -- narration, saves -----------------------------------------------------------------------

def test_mano_a_mano_narration_names_the_player_not_a_pair():
    state = from_deal(PAULISTA, TWO, "7♣", dealer=1, seed=2, players=2)
    state.apply_action(Action.raise_to(3))
    state.apply_action("run")
    run, hand = state.events[-3], state.events[-2]
    assert run["type"] == "run" and hand["type"] == "hand"
    assert state.narrate(run, "pt") == "Assento 1 corre: assento 0 ganha 1 ponto."
    assert state.narrate(hand, "en", {0: "Ana"}).startswith("Ana takes the hand")
    assert state.view(1).narrate(hand, "pt").startswith("Assento 0 leva a mão")
    assert "dupla" not in " ".join(state.narrate(e, "pt") for e in state.events)
    four = new_game(PAULISTA, 1)
    assert "dupla" in four.narrate({**hand, "winner_team": 0}, "pt")


@VARIANTS
def test_a_mano_a_mano_save_keeps_its_players_and_replays(variant):
    """docs/rules.md#saved-game-replays with docs/rules.md#mano-a-mano-players: the setup
    keeps "players": 2 (a game of four has no such field) and loads back exactly."""
    state = new_game(variant, 11, players=2)
    rng = np.random.default_rng(0)
    for _ in range(25):
        legal = state.legal_actions()
        if not legal:
            break
        state.apply_action(legal[int(rng.integers(len(legal)))])
    saved = state.to_dict()
    assert saved["setup"]["players"] == 2 and "players" not in new_game(variant, 11).to_dict()["setup"]
    again = from_json(state.to_json())
    assert again.players == 2 and again.to_json() == state.to_json() and again.events == state.events
    dealt = from_deal(variant, TWO, vira_for(variant), dealer=0, seed=5, players=2)
    assert from_json(dealt.to_json()).to_json() == dealt.to_json()
    for players, field in ((3, "players"), ("2", "players"), (None, "players")):
        bad = json.loads(state.to_json())
        bad["setup"]["players"] = players
        with pytest.raises(TrucoError) as refused:
            from_json(json.dumps(bad))
        assert refused.value.code == "saved_setup" and refused.value.fields["field"] == field
    bad = json.loads(dealt.to_json())
    bad["setup"]["dealer"] = 3
    with pytest.raises(TrucoError) as refused:
        from_json(json.dumps(bad))
    assert refused.value.fields["field"] == "dealer"


# -- bots and coach -------------------------------------------------------------------------

@VARIANTS
@pytest.mark.parametrize("level", ["easy", "rule", "strong"])
def test_every_bot_level_plays_mano_a_mano_to_the_end(variant, level):
    spec = find_game(variant.key)
    for seed in range(3 if level == "strong" else 10):
        bots = [spec.bot(seed, level=level), spec.bot(seed + 100)]
        state = play_game(variant, bots, seed=seed, players=2)
        assert state.is_terminal() and max(state.score) >= 12 or state.events[-2]["reason"] == "forbidden_raise"


def test_a_rule_bot_alone_at_the_first_trick_takes_it_when_it_can():
    """Mano a mano no partner plays after the bot: it does not hold back the manilha that
    wins the trick (with four players it would, for its partner)."""
    state = from_deal(PAULISTA, [["3♥", "5♦", "6♣"], ["K♠", "Q♦", "4♣"]], "3♣",
                      dealer=1, seed=1, players=2)
    # the vira 3♣ makes the 4s manilhas: only seat 1's zap 4♣ beats the 3♥ seat 0 leads
    state.apply_action(Action.play("3♥"))
    choice = find_game("paulista").bot(1).choose(state.view(1))
    assert choice == Action.play("4♣")


@VARIANTS
def test_the_coach_advises_every_decision_mano_a_mano(variant):
    spec = find_game(variant.key)
    kinds = set()
    for seed in range(4):
        state = spec.new_game(seed, seats=2)
        bot = spec.random_bot(seed)
        while not state.is_terminal():
            view = state.view(state.current_seat)
            if view.hand and not view.is_mao_de_ferro:
                advice = advise(spot_from_view(view), seed)
                kinds.add(advice.action)
                assert 0.0 <= advice.win <= 1.0 and advice.win + advice.loss <= 1.0 + 1e-9
                assert advice.action in {"play", "cover", "truco", "no_truco", "accept", "run", "raise",
                                         "play_hand", "run_hand"}
                if view.phase == "decide":  # she decides from her own cards: no partner's
                    assert spot_from_view(view).partner is None and advice.action in {"play_hand", "run_hand"}
            state.apply_action(bot.choose(view))
    assert {"play", "accept"} <= kinds or {"play", "run"} <= kinds


@VARIANTS
def test_mano_a_mano_explanations_and_refusals_name_the_player_not_a_pair(variant):
    """docs/rules.md#mano-a-mano-players: the "why" of a trick or a hand, and a refusal that
    names a team, call the player by her seat; with four players they still say "dupla"."""
    spec = find_game(variant.key)
    told = 0
    for seed in range(30):
        state = spec.new_game(seed, seats=2)
        bot = spec.random_bot(seed)
        while not state.is_terminal():
            state.apply_action(bot.choose(state.view(state.current_seat)))
            for lang, pair in (("pt", "dupla"), ("en", "team")):
                why = spec.why(state, lang)
                if why:
                    told += 1
                    low = why.lower()
                    assert pair not in low and "partner" not in low and "parceiro" not in low, why
    assert told > 100
    state = from_deal(variant, TWO, vira_for(variant), dealer=1, seed=2, players=2)
    state.apply_action(Action.raise_to(variant.ladder[0]))
    state.apply_action(ACCEPT)
    with pytest.raises(IllegalActionError) as refused:
        state.apply_action(Action.raise_to(variant.ladder[1]))
    assert refused.value.message("pt").startswith("o assento 0 pediu por último")
    assert refused.value.message("pt").endswith("só depois que o outro jogador aumentar")
    assert refused.value.message("en").endswith("until the other player raises")
    four = from_deal(variant, TWO + [["6♦", "7♦", "Q♣"], ["J♣", "K♣", "A♣"]], vira_for(variant),
                     dealer=3, seed=2)
    four.apply_action(Action.raise_to(variant.ladder[0]))
    four.apply_action(ACCEPT)
    with pytest.raises(IllegalActionError) as refused:
        four.apply_action(Action.raise_to(variant.ladder[1]))
    assert "a outra dupla" in refused.value.message("pt") and "dupla A" in refused.value.message("pt")
