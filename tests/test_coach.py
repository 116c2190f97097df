"""The coach: advice checked on hand-built positions where the right choice is certain, and
against the rule-based bots where the rules decide."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from cartas.cards import Card
from cartas.coach.truco import TrucoSpot, advise, advise_answer, advise_threshold, advise_truco, chance, spot_from_view
from cartas.coach.vinte_e_um import advise_banker, advise_player
from cartas.truco import RuleBot, StrongBot, TrucoError, hand_odds, new_game, strength_table
from cartas.truco.strong import WORLDS
from cartas.vinte_e_um.bots import SensibleBot
from cartas.vinte_e_um.odds import bust_probability

ZAP_AND_TWO = TrucoSpot("paulista", ["5♣", "5♥", "5♠"], vira="4♦", next_raise=3)
WEAK = TrucoSpot("paulista", ["4♦", "5♠", "6♥"], vira="K♠", seat=3, next_raise=3)


# -- truco: asking ----------------------------------------------------------------------

def test_a_zap_and_two_manilhas_ask_truco():
    advice = advise_truco(ZAP_AND_TWO)
    assert advice.action == "truco"
    assert advice.win > 0.95
    assert advice.options["truco"]["expected"] > advice.options["no_truco"]["expected"]
    assert advice.options["truco"]["if_they_run"] == 1.0


def test_mineiro_zap_copas_and_espadilha_ask_truco():
    advice = advise_truco(TrucoSpot("mineiro", ["4♣", "7♥", "A♠"], seat=3, hand_value=2,
                                    next_raise=4))
    assert advice.action == "truco" and advice.win == 1.0


def test_a_weak_hand_does_not_ask_truco():
    advice = advise_truco(WEAK)
    assert advice.action == "no_truco" and advice.reason == "no_ask" and advice.win < 0.3


def test_nobody_asks_truco_in_a_mao_de_onze():
    spot = TrucoSpot("paulista", ["5♣", "5♥", "5♠"], vira="4♦", threshold=True, hand_value=3)
    advice = advise_truco(spot)
    assert advice.action == "no_truco" and advice.reason == "no_ask_threshold"
    assert "perde o jogo" in advice.text("pt") and "loses the game" in advice.text("en")


def test_no_truco_advice_when_asking_is_not_allowed():
    spot = TrucoSpot("paulista", ["5♣", "5♥", "5♠"], vira="4♦", next_raise=None)
    assert advise_truco(spot).reason == "no_ask_not_allowed"


# -- truco: answering -------------------------------------------------------------------

def test_a_strong_hand_raises_back_and_accepts_when_it_cannot_raise():
    strong = TrucoSpot("paulista", ["5♣", "5♥", "5♠"], vira="4♦", seat=1, pending=3,
                       next_raise=6)
    assert advise_answer(strong).action == "raise"
    capped = TrucoSpot("paulista", ["5♣", "5♥", "5♠"], vira="4♦", seat=1, pending=3)
    advice = advise_answer(capped)
    assert advice.action == "accept"
    assert advice.options["accept"]["expected"] > advice.options["run"]["expected"] == -1.0


def test_a_weak_hand_runs():
    spot = TrucoSpot("paulista", ["4♦", "5♠", "6♥"], vira="K♠", seat=1, pending=3)
    advice = advise_answer(spot)
    assert advice.action == "run" and advice.options["run"]["expected"] == -1.0
    assert advice.options["accept"]["expected"] < -1.0


def test_never_run_when_running_hands_them_the_game():
    spot = TrucoSpot("paulista", ["4♦", "5♠", "6♥"], vira="K♠", seat=1, pending=3,
                     score=(11, 3))
    advice = advise_answer(spot)
    assert advice.action == "accept" and advice.reason == "accept_forced"


# -- truco: mão de onze -----------------------------------------------------------------

def test_mao_de_onze_with_the_zap_and_two_manilhas_between_partners_is_played():
    spot = TrucoSpot("paulista", ["5♣", "4♦", "6♥"], vira="4♠", seat=0,
                     partner=["5♥", "5♠", "7♦"], deciding=True, threshold=True, score=(11, 5))
    advice = advise_threshold(spot)
    assert advice.action == "play_hand"
    assert advice.options["play_hand"]["expected"] > advice.options["run_hand"]["expected"] == -1.0


def test_mao_de_onze_with_nothing_is_run():
    spot = TrucoSpot("paulista", ["4♦", "5♠", "6♥"], vira="K♠", seat=1,
                     partner=["4♥", "5♦", "6♣"], deciding=True, threshold=True)
    assert advise(spot).action == "run_hand"


# -- truco: cards -----------------------------------------------------------------------

def test_partner_holding_the_last_trick_gets_the_lowest_card_face_down():
    # Second trick, last to play: the partner's manilha holds it.
    spot = TrucoSpot("paulista", ["3♦", "4♠"], vira="K♠", seat=3, mao=0,
                     table=[(0, "2♦"), (1, "A♣"), (2, "K♥")], results=[1],
                     seen=["7♦", "6♦", "5♦", "Q♦"])
    advice = advise_card(spot)
    assert (advice.action, str(advice.card)) == ("cover", "4♠")


def test_a_sure_trick_is_taken_as_cheaply_as_possible():
    # Last to play in trick 1; a 2 takes the trick over the opponents' king.
    spot = TrucoSpot("paulista", ["3♣", "2♦", "4♥"], vira="7♠", seat=3, mao=0,
                     table=[(0, "K♦"), (1, "5♣"), (2, "J♠")])
    advice = advise_card(spot)
    assert advice.action == "play" and str(advice.card) == "2♦"


def test_the_judges_play_out_matches_the_engines_monte_carlo():
    """From the start of a hand the judge's play-out (the strong player's and the coach's one
    brain) and the engine's vectorised hand_odds play the same rule policy: the chances of
    the rule bot's card agree."""
    from cartas.truco.strong import Judge
    for hand, vira, seat in ((["A♣", "2♥", "7♦"], "Q♠", 0), (["3♣", "K♥", "5♦"], "6♠", 0)):
        judge = Judge(TrucoSpot("paulista", hand, vira=vira, seat=seat, mao=0), np.random.default_rng(5), 4000)
        rule = judge.verdict().rule_card
        outcomes = judge.outcomes(judge.strength[Card.parse(rule.split()[1])])
        reference = hand_odds("paulista", hand, vira, position=0, simulations=40_000, seed=3)
        assert abs(outcomes.count(1) / len(outcomes) - reference.hand_win) < 0.03, hand
    win, loss, worlds = chance(ZAP_AND_TWO)
    assert win == 1.0 and loss == 0.0 and worlds == WORLDS  # the same worlds as every advice


def test_the_same_spot_gets_the_same_advice():
    spot = TrucoSpot("paulista", ["A♣", "2♥", "7♦"], vira="Q♠", seat=2, mao=0,
                     table=[(0, "3♦"), (1, "K♣")])
    one, two = advise(spot, seed=9), advise(spot, seed=9)
    assert (one.card, one.options) == (two.card, two.options)


def test_a_card_given_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        advise(TrucoSpot("paulista", ["A♣", "2♥", "7♦"], vira="A♣", seat=1,
                         table=[(0, "3♦")]))


def test_a_card_given_twice_is_refused_in_both_languages_naming_the_card():
    with pytest.raises(TrucoError) as caught:
        advise(TrucoSpot("paulista", ["A♣", "2♥", "7♦"], vira="A♣", seat=1,
                         table=[(0, "3♦")]))
    assert caught.value.code == "coach_card_twice"
    assert "A♣" in caught.value.message("pt") and "duas vezes" in caught.value.message("pt")
    assert "A♣" in caught.value.message("en") and "twice" in caught.value.message("en")


def test_answering_when_nobody_raised_is_refused_in_both_languages():
    with pytest.raises(TrucoError) as caught:
        advise_answer(ZAP_AND_TWO)
    assert caught.value.code == "coach_no_pending"
    assert "ninguém pediu truco" in caught.value.message("pt")
    assert "nobody has called truco" in caught.value.message("en")


def test_the_reason_writes_numbers_the_way_each_language_does():
    advice = advise_truco(WEAK)
    percent = f"{100 * advice.win:.1f}"
    assert percent.replace(".", ",") + "%" in advice.text("pt")
    assert percent + "%" in advice.text("en")


def test_where_the_rules_decide_the_coach_plays_the_rule_bots_card():
    """In real games between rule bots: when the partner already holds the trick as the last
    card, or no card can win or tie it, the coach's card has the bot's strength."""
    checked = 0
    for seed in range(6):
        state = new_game("paulista", seed)
        bots = [RuleBot(seed * 4 + s, bluff=0.0) for s in range(4)]
        while state.phase != "game_over" and state.hand_number <= 2:
            seat = state.current_seat
            view = state.view(seat)
            action = bots[seat].choose(view)
            if action.kind in ("play", "cover") and view.current_trick and view.mode == "normal":
                table = strength_table(view.variant, view.vira)
                opp = max((table[c] for s, c in view.current_trick
                           if c is not None and (s & 1) != (seat & 1)), default=-1)
                mate = max((table[c] for s, c in view.current_trick
                            if c is not None and (s & 1) == (seat & 1)), default=-1)
                held = mate > opp and len(view.current_trick) == 3
                hopeless = all(table[c] < opp for c in view.hand)
                if held or hopeless:
                    advice = advise_card(spot_from_view(view))
                    assert table[advice.card] == table[action.card], (seed, view.current_trick)
                    checked += 1
            state.apply_action(action)
    assert checked >= 5


def advise_card(spot):
    from cartas.coach.truco import advise_card as run
    return run(spot)


# -- 21 ---------------------------------------------------------------------------------

def test_twenty_against_a_bankers_six_stands():
    advice = advise_player(["10♠", "K♥"], ["6♦"])
    assert advice.action == "stand"
    assert advice.options["stand"]["win"] > advice.options["hit"]["win"]
    assert advice.options["stand"]["expected"] > 0


def test_eleven_hits_because_no_card_can_bust_it():
    advice = advise_player(["5♠", "6♥"], ["10♦"], bet=3)
    assert advice.action == "hit"
    assert advice.options["hit"]["expected"] == pytest.approx(3 * (2 * advice.options["hit"]["win"] - 1))


def test_twenty_one_stands():
    assert advise_player(["10♠", "A♥", "K♦"], ["6♦"]).action == "stand"


@pytest.mark.parametrize("hand", [["2♠", "3♥"], ["5♠", "6♥"], ["10♠", "K♥"], ["10♠", "9♥", "2♦"]])
def test_player_advice_agrees_with_the_sensible_bot_where_the_bust_risk_decides(hand):
    risk = bust_probability(hand, ["6♦"])
    if risk not in (0.0, 1.0) and not 0.75 <= risk:
        pytest.skip("the bust risk alone does not decide")
    bot_stands = risk >= SensibleBot().risk
    assert (advise_player(hand, ["6♦"]).action == "stand") == bot_stands


def test_a_banker_who_cannot_bust_draws_against_a_king():
    advice = advise_banker(["5♠", "6♥"], [(["K♦"], 1, 2)])
    assert advice.action == "draw"
    assert advice.options["draw"]["expected"] > advice.options["call"]["expected"]


def test_a_banker_on_twenty_calls():
    advice = advise_banker(["10♠", "K♥"], [(["4♦"], 1, 2), (["7♣"], 1, 1)])
    assert advice.action == "call" and advice.options["call"]["expected"] > 0
    assert "saldo médio" in advice.text("pt") and "average balance" in advice.text("en")


def test_a_banker_with_nobody_left_to_call_is_refused_in_both_languages():
    from cartas.vinte_e_um.errors import VinteEUmError
    with pytest.raises(VinteEUmError) as caught:
        advise_banker(["10♠", "K♥"], [])
    assert caught.value.code == "coach_nobody_to_call"
    assert caught.value.message("pt").startswith("A banca não tem")
    assert caught.value.message("en").startswith("The banker has nobody")


def test_21_advice_texts_follow_the_language():
    advice = advise_player(["10♠", "K♥"], ["6♦"])
    assert advice.text("pt").startswith("Pare") and advice.text("en").startswith("Stand")
    assert "," in advice.text("pt").split("ganha")[1] and "." in advice.text("en").split("wins")[1]


def test_21_advice_from_a_seats_view_uses_only_what_it_sees():
    from cartas.coach.vinte_e_um import advise_view
    from cartas.vinte_e_um import Action, from_deal
    state = from_deal(3, ["10♠", "2♣", "5♦"], upcard="6♦", then=["K♥", "3♣"], banker=2, seed=1)
    assert advise_view(state.view(0)) is None  # a bet: nothing to advise
    state.apply_action(Action.bet(2), 0)
    state.apply_action(Action.bet(1), 1)
    advice = advise_view(state.view(0))
    assert advice.action == "stand"
    assert advice.options == advise_player(["10♠", "K♥"], ["6♦"], hidden=1, bet=2, face_down=1).options


def test_the_learner_answering_for_the_partner_is_coached_from_their_own_cards():
    """Seat 1 calls truco after seat 0 played; the engine's answering seat is seat 2: the
    coach weighs seat 0's cards, the hand played out from where it stands."""
    from cartas.truco import from_deal
    state = from_deal("paulista", [["5♣", "5♥", "4♦"], ["4♣", "6♦", "6♥"], ["7♣", "Q♦", "J♥"],
                                   ["4♥", "7♠", "6♠"]], "4♠", dealer=3, seed=1)
    state.apply_action("play 4♦")
    state.apply_action("raise 3")
    assert state.current_seat == 2
    spot = spot_from_view(state.view(0), legal=state.view(2).legal)
    assert spot.pending == 3 and spot.next_raise == 6 and spot.leader == 0
    advice = advise(spot)
    assert advice.action == "raise" and advice.win > 0.9  # two manilhas still in hand


# -- issue 29, item 12: the raise on offer by its name; one estimate per decision -------------

@pytest.mark.parametrize(("spot", "call", "then"), [
    (TrucoSpot("paulista", ["4♦", "5♠", "6♥"], vira="K♠", seat=3, hand_value=3, next_raise=6), "seis", "nove"),
    (TrucoSpot("paulista", ["4♦", "5♠", "6♥"], vira="K♠", seat=3, hand_value=6, next_raise=9), "nove", "doze"),
    (TrucoSpot("mineiro", ["4♦", "5♠", "6♥"], seat=3, hand_value=6, next_raise=10), "dez", "doze"),
])
def test_the_truco_hint_names_the_raise_on_offer(spot, call, then):
    """"Não peça truco" was said when the raise on offer was seis (or nove, dez...): the hint
    names the engine's raise (`Variant.raise_name`), in both languages."""
    from cartas.coach.truco import advise_play
    advice = advise_truco(spot)
    assert advice.action == "no_truco"
    assert advice.text("pt").startswith(f"Não peça {call}:") and f"pode pedir {then}." in advice.text("pt")
    assert advice.text("en").startswith(f"Do not call {call}:") and f"may call {then}." in advice.text("en")
    assert "truco" not in advice.text("pt") + advice.text("en")
    strong = advise_truco(TrucoSpot(spot.variant, ["4♣", "7♥", "A♠"] if spot.variant == "mineiro"
                                    else ["A♣", "A♥", "A♠"], vira=spot.vira, seat=3,
                                    hand_value=spot.hand_value, next_raise=spot.next_raise))
    assert strong.action == "truco" and strong.text("pt").startswith(f"Peça {call}:")
    assert strong.text("en").startswith(f"Call {call}:")
    assert advise_play(spot)[0].fields["call"] == call


def test_a_top_raise_says_nothing_comes_after_it():
    advice = advise_truco(TrucoSpot("paulista", ["4♦", "5♠", "6♥"], vira="K♠", seat=3, hand_value=9,
                                    next_raise=12))
    assert advice.reason == "no_ask_top" and advice.text("pt").startswith("Não peça doze:")
    assert "pode pedir" not in advice.text("pt") and "may call" not in advice.text("en")


def test_one_decision_has_one_estimate_the_raise_and_the_card_agree():
    """A hint said 31,5% on its truco line and 38% on its card line for the same turn: two
    estimates (the opening odds and the card's play-out). `advise_play` weighs the raise with
    the advised card's numbers, and the review judges with the same."""
    from cartas.coach.truco import advise_play, judge
    from cartas.truco import Action
    for spot in (WEAK, TrucoSpot("paulista", ["7♦", "2♠", "A♥"], vira="K♠", seat=1, next_raise=3),
                 TrucoSpot("mineiro", ["7♦", "2♠", "3♥"], seat=2, hand_value=2, next_raise=4)):
        raise_, card = advise_play(spot)
        assert (raise_.win, raise_.loss, raise_.simulations) == (card.win, card.loss, card.simulations)
        assert raise_.fields["win"] == card.fields["win"]
        miss = judge(spot, Action.raise_to(spot.next_raise))
        if miss is not None:
            assert miss.advice.win == card.win


# -- issue 31, item 2: one brain -----------------------------------------------------------------

def _coach_choice(view, seed):
    """What the coach's hint says is best for the seat's decision, as (kind, card strength)."""
    from cartas.coach.truco import advise_play
    spot = spot_from_view(view)
    if spot.deciding:
        return advise_threshold(spot, seed).action, None
    if spot.pending is not None:
        return advise_answer(spot, seed).action, None
    lines = advise_play(spot, seed)
    if lines[0].action == "truco":
        return "raise", None
    card = lines[-1]
    return card.action, strength_table(view.variant, view.vira)[card.card]


def _bot_choice(view, seed):
    action = StrongBot(seed).choose(view)
    if action.kind in ("play", "cover"):
        return action.kind, strength_table(view.variant, view.vira)[action.card]
    return action.kind, None


@pytest.mark.slow  # a sweep of positions (10 s each): make test runs it, make quick leaves it out
@pytest.mark.parametrize("variant", ["paulista", "mineiro"])
def test_the_coach_and_the_strong_bot_never_disagree_about_what_is_best(variant):
    """One brain: over many seeded positions of real games (the seats played by a mix of
    levels, so raises, answers and mãos de onze come up), the coach's hint and the strong
    bot seeded alike choose the same: the same card (by strength, face up or down), the
    same raise, answer or mão de onze decision."""
    from cartas.truco import EasyBot
    kinds = set()
    positions = 0
    for game in range(12):
        if positions >= 240:
            break
        state = new_game(variant, 100 + game)
        bots = [StrongBot(game), RuleBot(game + 1, bluff=0.2), EasyBot(game + 2, hunch=0.5), RuleBot(game + 3)]
        while not state.is_terminal():
            seat = state.current_seat
            view = state.view(seat)
            if not view.is_mao_de_ferro and len(view.legal) > 1:
                seed = 1000 * game + positions
                bot = _bot_choice(view, seed)
                assert _coach_choice(view, seed) == bot, (variant, game, positions, view.phase)
                kinds.add(bot[0])
                positions += 1
            state.apply_action(bots[seat].choose(view))
    assert positions >= 200
    assert {"play", "raise", "accept"} <= kinds


def test_the_judge_takes_the_seat_count_from_the_spot_mano_a_mano_too():
    """Not four seats hard-coded: with `players=2` the judge deals one hidden hand (the
    opponent's), nobody is a partner, and the tricks go round two seats."""
    from cartas.truco.strong import Judge
    spot = TrucoSpot("paulista", ["3♣", "K♥", "5♦"], vira="6♠", seat=1, mao=0, players=2,
                     table=[(0, "4♦")], next_raise=3)
    judge = Judge(spot, np.random.default_rng(1), 200)
    assert judge.hidden == [(0, 2)] and len(judge.deals[0]) == 2 and judge.next_seat() == 1
    verdict = judge.verdict()
    assert verdict.options["play 5♦"].win > 0 and set(verdict.options) >= {"play 3♣", "play K♥", "ask", "no_ask"}
    advice = advise_card(spot)
    assert advice.action == "play" and advice.simulations == WORLDS
    four = Judge(TrucoSpot("paulista", ["3♣", "K♥", "5♦"], vira="6♠", seat=1, mao=0, table=[(0, "4♦")]),
                 np.random.default_rng(1), 200)
    assert four.hidden == [(0, 2), (2, 3), (3, 3)]


# -- mano a mano: the coach speaks to one player (docs/rules.md#mano-a-mano-players) ---------

TEAM_WORDS = ("dupla", "parceir", "partner", "your team", "the team", "vocês", "adversários",
              "opponents")
ALL_FIELDS = {"card": Card.parse("7♥"), "win": 0.5, "call": "truco", "ask": 1.0, "stay": 0.5, "then": "seis",
              "accept": 0.25, "run": -1.0, "value": 6, "worth": 1.5, "play": 0.5, "expected": 0.5}


def _team_words(text: str) -> list[str]:
    return [word for word in TEAM_WORDS if word in text.lower()]


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_every_coach_sentence_speaks_to_one_player_mano_a_mano(lang):
    """Every sentence of the coach a learner of two seats can read names no pair, team or
    partner; with four seats the sentences that spoke of the pair still do."""
    from cartas.coach.truco import say
    from cartas.truco.catalogue import CATALOGUE
    refusals = ("no_pending", "no_card", "card_twice", "too_few_unseen")  # of a spot, not advice
    keys = [k[len("coach_"):] for k in CATALOGUE.keys()
            if k.startswith("coach_") and not k.endswith("_solo") and k[len("coach_"):] not in refusals]
    fields = {**ALL_FIELDS, "did": "x", "yours": "y", "advice": "z", "hand": 1}
    for key in keys:
        assert _team_words(say(key, lang, fields, players=2)) == [], key
    four = [key for key in keys if _team_words(say(key, lang, fields, players=4))]
    assert {"play_card", "ask", "accept", "run", "play_hand", "yours_card"} <= set(four)


def test_the_advice_of_a_two_seat_spot_says_you_and_the_other_player_in_both_languages():
    """Real advice on two-seat spots (the card, truco, an answer, a mão de onze) and a miss:
    no pair, team nor partner; the same spots with four seats still speak of the pair."""
    from cartas.coach.truco import advise_play, judge
    from cartas.truco import Action
    spots = [TrucoSpot("paulista", ["5♣", "5♥", "5♠"], vira="4♦", next_raise=3),
             TrucoSpot("paulista", ["4♦", "5♠", "6♥"], vira="K♠", seat=1, next_raise=3),
             TrucoSpot("paulista", ["4♦", "5♠", "6♥"], vira="K♠", seat=1, pending=3, next_raise=6),
             TrucoSpot("paulista", ["3♣", "2♦", "K♥"], vira="7♠", deciding=True, threshold=True,
                       score=(11, 4))]
    for players in (2, 4):
        texts = []
        for spot in spots:
            spot = replace(spot, players=players, seat=spot.seat % players)
            if players == 4 and spot.deciding:  # with four seats she sees her partner's cards
                spot = replace(spot, partner=["4♥", "5♦", "6♣"])
            items = [advise(spot)] if spot.deciding or spot.pending else advise_play(spot)
            texts += [item.text(lang) for item in items for lang in ("pt", "en")]
        miss = judge(replace(spots[0], players=players), Action.play("5♠"))
        assert miss is not None
        texts += [miss.text("pt", hand=1), miss.text("en", hand=1)]
        found = sorted({w for text in texts for w in _team_words(text)})
        if players == 2:
            assert found == [], texts
        else:
            assert {"dupla", "your team"} <= set(found)


def test_21_player_advice_weighs_the_rule_banker_who_reckons_her_hidden_card_as_average():
    """A player's first card is face down: the rule-following banker reckons her hand as its
    face-up points plus the average unseen card, draws while below that and while a card
    busts him less often than not (issue 31, item 5: the strong player and the coach weigh the
    banker's rules of the table, not "draw below 17")."""
    from cartas.cards import Card
    from cartas.coach.vinte_e_um import rule_banker_stops
    from cartas.vinte_e_um.odds import BUST, banker_distribution_array, unknown_counts
    hand = [Card.parse("10♠"), Card.parse("3♣")]
    unseen = tuple(int(c) for c in unknown_counts(hand + [Card.parse("9♦")]))
    stops = rule_banker_stops(hand, unseen, 1)
    # her 10 is worth about 3.5 over the average card: 13 looks like 9.5, so he draws below 10;
    # from 15 on a card busts him more often than not, so he never draws there
    assert stops[13] == 10 and stops[20] == 15 and stops[21] == 15
    advice = advise_player(["10♠", "3♣"], ["9♦"], hidden=1, face_down=1)
    vec = banker_distribution_array(["9♦"], hand, 1, 10, given_under_21=True)
    assert advice.options["stand"]["win"] == pytest.approx(vec[BUST] + vec[:13].sum())
    assert advice.options != advise_player(["10♠", "3♣"], ["9♦"], hidden=1).options
