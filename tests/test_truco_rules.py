"""One test per truco rule of docs/rules.md, named after the rule."""
import pytest

from cartas.cards import TRUCO_PACK, Card
from cartas.truco import (
    ACCEPT,
    MINEIRO,
    PAULISTA,
    PLAY_HAND,
    RUN,
    RUN_HAND,
    Action,
    IllegalActionError,
    from_deal,
    hand_winner,
    new_game,
    strength_table,
    trick_winner,
)

# Mineiro deal without manilhas (4♣ 7♥ A♠ 7♦) so tricks are easy to read. Dealer 3: seat 0 leads.
PLAIN = [["3♦", "K♦", "4♦"], ["2♠", "J♠", "5♠"], ["A♥", "Q♥", "6♥"], ["K♣", "5♣", "6♣"]]


def apply_all(state, *actions):
    for action in actions:
        state.apply_action(action)
    return state


def last(state, kind):
    return [e for e in state.events if e["type"] == kind][-1]


# -- shared rules ------------------------------------------------------------------------

def test_rule_players_four_in_two_teams_seated_alternately():
    s = from_deal(MINEIRO, PLAIN, dealer=3)
    order = []
    for _ in range(4):
        order.append(s.current_seat)
        s.apply_action(s.legal_actions()[0])
    assert order == [0, 1, 2, 3]
    # 3♦ (seat 0) beats 2♠ (seat 1): the trick goes to team 0, which holds seats 0 and 2.
    assert last(s, "trick")["winner_team"] == 0
    assert trick_winner([(2, "3♦"), (3, "2♠")], MINEIRO) == 0
    assert trick_winner([(1, "3♦"), (2, "2♠")], MINEIRO) == 1


def test_rule_deck_forty_cards_without_8_9_10():
    assert len(TRUCO_PACK) == 40 and len(set(TRUCO_PACK)) == 40
    assert not {c.rank.value for c in TRUCO_PACK} & {"8", "9", "10"}
    with pytest.raises(ValueError, match="not in the truco pack"):
        from_deal(MINEIRO, [["8♦", "K♦", "4♦"]] + PLAIN[1:], dealer=3)


def test_rule_natural_order_q_below_j_and_suits_equal_outside_manilhas():
    table = strength_table(MINEIRO)
    order = ["4♥", "5♥", "6♥", "Q♥", "J♥", "K♥", "A♥", "2♥", "3♥"]  # 7♥ is a Mineiro manilha
    values = [table[Card.parse(c)] for c in order]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert trick_winner([(0, "Q♠"), (1, "J♦")], MINEIRO) == 1
    assert trick_winner([(0, "K♠"), (1, "K♦")], MINEIRO) is None


def test_rule_deal_three_each_dealer_rotates_mao_leads_dealer_last():
    s = new_game(PAULISTA, seed=7)
    deal = s.events[0]
    cards = [c for h in deal["hands"] for c in h]
    assert all(len(h) == 3 for h in deal["hands"]) and len(set(cards + [deal["vira"]])) == 13
    first_dealer = s.dealer
    assert s.current_seat == (first_dealer + 1) % 4 == deal["mao"]
    for _ in range(4):
        s.apply_action(s.legal_actions()[0])
    plays = [e["seat"] for e in s.events if e["type"] == "play"]
    assert plays[-1] == first_dealer  # the dealer plays last in the first trick
    while s.hand_number == 1:
        s.apply_action(s.legal_actions()[0])
    assert s.dealer == (first_dealer + 1) % 4


def test_rule_first_dealer_drawn_by_lot_seeded():
    """Decided: docs/rules.md#truco-dealer."""
    dealers = {new_game(MINEIRO, seed=k).dealer for k in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert new_game(MINEIRO, seed=3).to_json() == new_game(MINEIRO, seed=3).to_json()


def test_rule_trick_highest_card_wins_and_winner_leads_next():
    s = apply_all(from_deal(MINEIRO, PLAIN, dealer=3), "play K♦", "play J♠", "play A♥", "play 5♣")
    assert last(s, "trick")["winning_seat"] == 2
    assert s.current_seat == 2 and s.trick_results == [0]


def test_rule_trick_tied_only_when_each_teams_best_is_equal():
    """Decided: docs/rules.md#truco-tie."""
    assert trick_winner([(0, "3♦"), (1, "3♠"), (2, "4♦"), (3, "5♠")], MINEIRO) is None
    assert trick_winner([(0, "3♦"), (1, "3♠"), (2, "4♦"), (3, "5♣")], MINEIRO) is None
    assert trick_winner([(0, "3♦"), (1, "2♠"), (2, "3♥"), (3, "5♣")], MINEIRO) == 0


def test_rule_trick_partners_with_equal_best_cards_win_for_their_team():
    """Decided: docs/rules.md#truco-tied-partners."""
    s = apply_all(from_deal(MINEIRO, [["K♦", "3♦", "4♦"], ["J♠", "2♠", "5♠"],
                                      ["K♥", "Q♥", "6♥"], ["Q♣", "5♣", "6♣"]], dealer=3),
                  "play K♦", "play J♠", "play K♥", "play Q♣")
    trick = last(s, "trick")
    assert trick["winner_team"] == 0 and trick["winning_seat"] == 0  # first of the partners
    assert trick_winner([(0, "K♦"), (1, "J♠"), (2, "K♥"), (3, "Q♣")], MINEIRO) == 0


TIE_DEAL = [["4♦", "3♦", "Q♦"], ["K♠", "2♠", "5♠"], ["K♦", "Q♥", "6♥"], ["5♣", "J♣", "6♣"]]


def test_rule_option_after_tie_leader_of_tied_trick_leads_by_default():
    s = apply_all(from_deal(MINEIRO, TIE_DEAL, dealer=3), "play 4♦", "play K♠", "play K♦", "play 5♣")
    assert s.trick_results == [None] and s.tie_lead == "leader"
    assert s.current_seat == 0


def test_rule_option_after_tie_first_tying_card_leads():
    s = from_deal(MINEIRO, TIE_DEAL, dealer=3, tie_lead="first_tying")
    apply_all(s, "play 4♦", "play K♠", "play K♦", "play 5♣")
    assert s.current_seat == 1 and last(s, "trick")["next_leader"] == 1


def test_rule_hand_two_tricks_win_and_hand_ends_as_soon_as_certain():
    s = apply_all(from_deal(MINEIRO, PLAIN, dealer=3, seed=1),
                  "play 3♦", "play 5♠", "play 6♥", "play 6♣",
                  "play K♦", "play J♠", "play Q♥", "play 5♣")
    hand = last(s, "hand")
    assert hand["winner_team"] == 0 and hand["results"] == [0, 0] and hand["points"] == 2
    assert s.score == (2, 0) and s.hand_number == 2


def test_rule_hand_first_trick_tied_first_untied_trick_decides():
    assert hand_winner([None, 1]) == 1
    assert hand_winner([None, None, 0]) == 0


def test_rule_hand_first_won_second_tied_winner_of_first_takes_it():
    assert hand_winner([0, None]) == 0
    # In the engine trick 3 is not played.
    s = apply_all(from_deal(MINEIRO, TIE_DEAL, dealer=3),
                  "play 3♦", "play K♠", "play K♦", "play 5♣",   # team 0 wins trick 1
                  "play 4♦", "play 5♠", "play 6♥", "play 6♣")   # 6♥ = 6♣: tied
    assert last(s, "hand")["results"] == [0, None] and s.score == (2, 0)


def test_rule_hand_one_each_and_third_tied_winner_of_first_trick_takes_it():
    assert hand_winner([1, 0, None]) == 1
    assert hand_winner([0, 1, None]) == 0


def test_rule_hand_all_three_tied_nobody_scores():
    assert hand_winner([None, None, None]) is None
    s = from_deal(MINEIRO, [["K♦", "J♦", "Q♦"], ["K♠", "J♠", "Q♠"],
                            ["4♦", "5♦", "6♦"], ["4♠", "5♠", "6♠"]], dealer=3, seed=2)
    apply_all(s, "play K♦", "play K♠", "play 4♦", "play 4♠",
              "play J♦", "play J♠", "play 5♦", "play 5♠",
              "play Q♦", "play Q♠", "play 6♦", "play 6♠")
    assert last(s, "hand")["winner_team"] is None and s.score == (0, 0) and s.hand_number == 2


def test_rule_carta_coberta_worth_nothing_never_wins_never_ties():
    """Decided: docs/rules.md#truco-covered."""
    assert trick_winner([(0, None), (1, "4♦"), (2, None), (3, "5♠")], MINEIRO) == 1
    assert trick_winner([(0, "K♦"), (1, None), (2, "4♥"), (3, "4♠")], MINEIRO) == 0
    assert trick_winner([(0, None), (1, None), (2, None), (3, None)], MINEIRO) is None


def test_rule_carta_coberta_not_allowed_in_first_trick():
    s = from_deal(MINEIRO, PLAIN, dealer=3)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="carta coberta is not allowed in the first trick"):
        s.apply_action(Action.cover("3♦"))
    assert s.to_json() == before
    apply_all(s, "play 3♦", "play 5♠", "play 6♥", "play 6♣")
    assert Action.cover("K♦") in s.legal_actions()
    s.apply_action(Action.cover("K♦"))
    assert s.current_trick == [(0, None)]


def test_rule_betting_raise_on_own_turn_before_playing():
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3)
    with pytest.raises(IllegalActionError, match="it is seat 0's turn"):
        s.apply_action(Action.raise_to(3), seat=1)
    s.apply_action(Action.raise_to(3), seat=0)
    assert s.phase == "answer" and s.pending_raise["value"] == 3 and s.pending_raise["team"] == 0


def test_rule_betting_accept_sets_value_and_play_goes_on():
    s = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3), "raise 3", ACCEPT)
    assert s.hand_value == 3 and s.phase == "play" and s.current_seat == 0
    assert last(s, "accept") == {"type": "accept", "variant": "paulista", "seat": 1, "team": 1,
                                 "value": 3}


def test_rule_betting_run_pays_value_before_refused_raise():
    s = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, seed=1), "raise 3", RUN)
    assert s.score == (1, 0) and last(s, "hand")["reason"] == "run"


def test_rule_betting_reraise_accepts_raise_on_table_then_run_pays_it():
    s = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, seed=1), "raise 3", "raise 6")
    assert s.hand_value == 3 and s.run_value == 3 and s.current_seat == 2
    s.apply_action(RUN)
    assert s.score == (0, 3)


def test_rule_betting_answer_made_by_next_opponent_in_play_order():
    """Decided: docs/rules.md#truco-who-answers."""
    s = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3), "play 3♦", "play 5♠",
                  "play 6♥")
    s.apply_action("raise 3")   # seat 3 raises
    assert s.current_seat == 0 and s.pending_raise["answer_seat"] == 0


def test_rule_betting_answer_may_come_from_the_asked_seats_partner_and_names_who_answered():
    """Decided: docs/rules.md#truco-who-answers. The team answers as one: the partner of the seat
    asked may run, accept or raise again in its place, and the event says who did (issue 29,
    item 12: a learner at seat 0 who ran for the team was logged as "Assento 2 corre")."""
    from cartas.truco import narrate
    dealt = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=0, seed=1), "raise 3")  # seat 1 raises
    assert dealt.current_seat == 2
    s = dealt.clone()
    for seat in (1, 3):  # the other team never answers its own raise
        with pytest.raises(IllegalActionError):
            s.apply_action(RUN, seat=seat)
    assert s.to_json() == dealt.to_json()
    run = [e for e in s.apply_action(RUN, seat=0) if e["type"] == "run"][0]
    assert run["seat"] == 0 and s.last_hand["seat"] == 0 and s.score == (0, 1)
    assert narrate(run, "pt").startswith("Assento 0 corre") and narrate(run, "en").startswith("Seat 0 runs")
    s = dealt.clone()
    assert [e["seat"] for e in s.apply_action(ACCEPT, seat=0)] == [0]
    assert s.hand_value == 3 and s.current_seat == 1  # play goes back to the seat whose turn it was
    s = dealt.clone()
    s.apply_action("raise 6", seat=0)  # raising again for the team: the next opponent answers
    assert s.pending_raise["seat"] == 0 and s.current_seat == 1


def test_rule_betting_values_rise_one_step_at_a_time():
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3)
    with pytest.raises(IllegalActionError, match="one step at a time: the next raise is to 3, not 6"):
        s.apply_action(Action.raise_to(6))


def test_rule_betting_team_may_not_raise_twice_in_a_row():
    s = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3), "raise 3", ACCEPT,
                  "play 3♦", "play 5♠")
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=r"team A \(seats 0 and 2\) raised last and cannot raise again"):
        s.apply_action("raise 6")
    assert s.to_json() == before and not s.raise_options
    s.apply_action("play 6♥")
    assert s.raise_options == (6,)  # seat 3, of the other team, may


def test_rule_betting_nothing_goes_above_12():
    s = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3),
                  "raise 3", "raise 6", "raise 9", "raise 12")
    assert [a.kind for a in s.legal_actions()] == ["accept", "run"]
    with pytest.raises(IllegalActionError, match="nothing goes above 12"):
        s.apply_action(Action.raise_to(12))
    s.apply_action(ACCEPT)
    assert s.hand_value == 12 and not s.may_raise(1)


def test_rule_game_ends_when_a_team_has_12_or_more():
    s = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, score=(10, 4)), "raise 3", ACCEPT,
                  "play 3♦", "play 5♠", "play 6♥", "play 6♣",
                  "play K♦", "play J♠", "play Q♥", "play 5♣")
    assert s.is_terminal() and s.winner == 0 and s.score == (13, 4)
    assert s.events[-1] == {"type": "game", "variant": "paulista", "winner_team": 0,
                            "score": [13, 4]}
    assert s.legal_actions() == [] and s.current_seat is None


def test_rule_mao_de_onze_team_at_threshold_sees_partner_cards_and_decides():
    """Decided: docs/rules.md#threshold-decision."""
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, score=(11, 5))
    assert s.phase == "decide" and s.is_threshold_hand and s.hand_value == 3
    assert s.current_seat == 0 and s.legal_actions() == [PLAY_HAND, RUN_HAND]
    assert s.view(0).hands[2] == tuple(Card.parse(c) for c in PLAIN[2])
    assert s.view(1).hands[3] == (None, None, None) and s.view(1).hands[0] == (None,) * 3
    s.apply_action(PLAY_HAND)
    assert s.phase == "play" and s.view(0).hands[2] == (None,) * 3


def test_rule_mao_de_onze_run_gives_other_team_1():
    """Decided: docs/rules.md#threshold-run-value."""
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, score=(11, 5), seed=4)
    s.apply_action(RUN_HAND)
    assert s.score == (11, 6) and last(s, "hand")["reason"] == "ran_hand"


def test_rule_mao_de_onze_hand_worth_3():
    s = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, score=(5, 11)), PLAY_HAND,
                  "play 3♦", "play 5♠", "play 6♥", "play 6♣",
                  "play K♦", "play J♠", "play Q♥", "play 5♣")
    assert s.score == (8, 11)


@pytest.mark.parametrize("raiser_team", [0, 1])
def test_rule_mao_de_onze_raise_loses_the_game(raiser_team):
    s = apply_all(from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, score=(11, 5)), PLAY_HAND)
    if raiser_team == 1:
        s.apply_action("play 3♦")
    assert s.raise_forbidden and s.raise_options == (3,)  # a call for truco
    s.apply_action("raise")
    assert s.is_terminal() and s.winner == 1 - raiser_team and s.score == (11, 5)
    assert last(s, "raise")["forbidden"] and last(s, "hand")["reason"] == "forbidden_raise"


def test_rule_mao_de_ferro_nobody_sees_own_cards_and_plays_blind_by_position():
    """Decided: docs/rules.md#ferro-blind."""
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, score=(11, 11))
    assert s.is_mao_de_ferro and s.phase == "play"
    assert all(h == (None,) * 3 for h in s.view(0).hands)
    assert s.legal_actions() == [Action.blind(0), Action.blind(1), Action.blind(2)]
    with pytest.raises(IllegalActionError, match="blind by position"):
        s.apply_action("play 3♦")
    with pytest.raises(IllegalActionError, match="nobody may raise in a mão de ferro"):
        s.apply_action("raise 3")
    s.apply_action(Action.blind(1))  # seat 0's second card, K♦, is turned up
    assert s.current_trick == [(0, Card.parse("K♦"))]
    assert last(s, "play")["blind"] and last(s, "play")["position"] == 1


def test_rule_mao_de_ferro_winner_of_the_hand_wins_the_game():
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, score=(11, 11))
    for _ in range(8):
        s.apply_action(Action.blind(0))
    assert s.is_terminal() and s.winner == 0 and s.score == (12, 11)


def test_rule_mao_de_ferro_all_tied_means_another_mao_de_ferro():
    s = from_deal(MINEIRO, [["K♦", "J♦", "Q♦"], ["K♠", "J♠", "Q♠"],
                            ["4♦", "5♦", "6♦"], ["4♠", "5♠", "6♠"]], dealer=3, score=(10, 10), seed=5)
    for _ in range(12):
        s.apply_action(Action.blind(0))
    assert last(s, "hand")["winner_team"] is None and s.score == (10, 10)
    assert s.hand_number == 2 and s.is_mao_de_ferro and not s.is_terminal()


# -- Truco Paulista ------------------------------------------------------------------------

def test_rule_paulista_vira_turned_from_rest_of_pack():
    s = new_game(PAULISTA, seed=11)
    dealt = {c for h in s.hands for c in h}
    assert s.vira is not None and s.vira not in dealt
    with pytest.raises(ValueError, match="needs a vira"):
        from_deal(PAULISTA, PLAIN, dealer=3)


@pytest.mark.parametrize("vira, rank", [("6♠", "7"), ("7♠", "Q"), ("3♣", "4")])
def test_rule_paulista_manilhas_follow_the_vira_and_beat_everything(vira, rank):
    s = from_deal(PAULISTA, PLAIN, vira=vira, dealer=3)
    assert [str(c) for c in s.manilhas] == [f"{rank}♦", f"{rank}♠", f"{rank}♥", f"{rank}♣"]
    assert trick_winner([(0, "3♦"), (1, f"{rank}♦")], PAULISTA, vira) == 1


def test_rule_paulista_manilha_suit_order_ouros_espadas_copas_paus():
    order = ["7♦", "7♠", "7♥", "7♣"]
    for low, high in zip(order, order[1:]):
        assert trick_winner([(0, low), (1, high)], PAULISTA, "6♥") == 1
        assert trick_winner([(0, high), (1, low)], PAULISTA, "6♥") == 0


def test_rule_paulista_values_1_then_3_6_9_12():
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3)
    assert s.hand_value == 1
    seen = []
    for _ in range(4):
        seen.append(s.raise_options[0])
        s.apply_action("raise")
    assert seen == [3, 6, 9, 12]


# -- Truco Mineiro -------------------------------------------------------------------------

def test_rule_mineiro_fixed_manilhas_zap_copas_espadilha_pica_fumo():
    best_first = ["4♣", "7♥", "A♠", "7♦", "3♠"]
    for high, low in zip(best_first, best_first[1:]):
        assert trick_winner([(0, low), (1, high)], MINEIRO) == 1
    with pytest.raises(ValueError, match="no vira"):
        from_deal(MINEIRO, PLAIN, vira="7♣", dealer=3)


def test_rule_mineiro_values_2_then_4_6_10_12_and_run_pays_previous():
    s = from_deal(MINEIRO, PLAIN, dealer=3, seed=2)
    assert s.hand_value == 2
    seen = []
    for _ in range(4):
        seen.append(s.raise_options[0])
        s.apply_action("raise")
    assert seen == [4, 6, 10, 12]
    s.apply_action(RUN)       # running from doze pays dez to the team that asked
    assert s.score == (0, 10)


def test_rule_mineiro_mao_de_dez_worth_4_and_run_gives_2():
    s = from_deal(MINEIRO, PLAIN, dealer=3, score=(4, 10), seed=3)
    assert s.is_threshold_hand and s.threshold_team == 1 and s.hand_value == 4 and s.current_seat == 1
    s.apply_action(RUN_HAND)
    assert s.score == (6, 10)


def test_rule_mineiro_mao_de_ferro_at_10_x_10():
    assert from_deal(MINEIRO, PLAIN, dealer=3, score=(10, 10)).is_mao_de_ferro
    assert not from_deal(MINEIRO, PLAIN, dealer=3, score=(10, 9)).is_mao_de_ferro


# -- public helpers added for the lessons ------------------------------------------------

def test_trick_winning_seat_names_the_seat_and_agrees_with_the_engine():
    from cartas.truco import trick_winning_seat
    assert trick_winning_seat([(0, "3♦"), (1, "2♠"), (2, "3♥"), (3, "K♣")], MINEIRO) == 0
    assert trick_winning_seat([(1, "3♥"), (2, "2♠"), (3, "3♦"), (0, "K♣")], MINEIRO) == 1
    assert trick_winning_seat([(0, "3♦"), (1, "3♥")], MINEIRO) is None           # a tie
    assert trick_winning_seat([(0, None), (1, "4♦")], MINEIRO) == 1              # covered
    assert trick_winning_seat([(0, "4♦"), (1, "5♠")], PAULISTA, vira="3♣") == 0  # 4s manilhas
    for seed in range(30):  # the seat the engine recorded for every trick of random games
        s = new_game(PAULISTA if seed % 2 else MINEIRO, seed)
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[seed % len(s.legal_actions())])
        vira = None
        for event in s.events:
            if event["type"] == "deal":
                vira = event["vira"]
            elif event["type"] == "trick":
                assert trick_winning_seat(event["plays"], s.variant, vira) == event["winning_seat"]


@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
def test_forbidden_raise_is_named_truco_and_narrated_once(variant):
    from cartas.truco import narrate
    vira = "7♣" if variant.uses_vira else None
    s = from_deal(variant, PLAIN, vira=vira, dealer=3, score=(variant.threshold, 5))
    s.apply_action(PLAY_HAND)
    assert s.raise_options == (variant.ladder[0],)  # the only raise offered is truco
    s.apply_action("raise")
    raise_, hand, game = s.events[-3:]
    assert raise_["name"] == "truco" and raise_["value"] == variant.ladder[0]
    assert raise_["forbidden"]
    name = "mão de onze" if variant.threshold == 11 else "mão de dez"
    said = [narrate(e) for e in (raise_, hand, game)]
    assert said[0] == f"Assento 0 pede truco na {name}, o que é proibido."
    assert said[1].startswith(f"A dupla A (assentos 0 e 2) pediu truco na {name} e perde o jogo")
    assert said[2] == f"A dupla B (assentos 1 e 3) vence o jogo, {variant.threshold} x 5."
    assert "vence" not in said[1] and "seis" not in " ".join(said)
    english = [narrate(e, "en") for e in (raise_, hand, game)]
    assert "calls truco" in english[0] and "loses the game" in english[1]
    assert "wins the game" in english[2] and "wins" not in english[1]


@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
def test_run_pays_matches_the_engine_run_value_on_real_states(variant):
    import random
    assert [variant.run_pays(v) for v in variant.ladder] == list(variant.values[:-1])
    pick = random.Random(variant.key)
    checked = set()
    for seed in range(300):
        s = new_game(variant, seed)
        for _ in range(60):
            if s.is_terminal():
                break
            if s.phase == "answer" and not s.raise_forbidden:
                asked = s.pending_raise["value"]
                assert s.run_value == variant.run_pays(asked), (seed, asked)
                checked.add((asked, s.events[-1]["reraise"]))
            legal = s.legal_actions()
            raises = [a for a in legal if a.kind in ("raise", "accept")]
            s.apply_action(pick.choice(raises if raises and pick.random() < 0.7 else legal))
    # every ladder step was met, both as a first raise and as a re-raise over a pending one
    assert {v for v, _ in checked} == set(variant.ladder)
    assert {r for _, r in checked} == {True, False}


# -- deal order, play order and the events of one hand ----------------------------------

def test_deal_gives_three_consecutive_cards_from_the_mao_and_turns_the_13th():
    """Decided: docs/rules.md#truco-deal-order."""
    from cartas.cards import make_rng
    from cartas.truco import VIRA_CARD, deal_order, pack_left
    assert deal_order(0)[:4] == [(1, 0), (1, 1), (1, 2), (2, 0)]
    assert deal_order(3)[-1] == (3, 2) and len(deal_order(3)) == 12
    for seed in range(6):  # the engine deals the shuffle exactly as deal_order says
        rng = make_rng(seed)
        dealer = int(rng.integers(4))
        shuffle = [str(TRUCO_PACK[i]) for i in rng.permutation(40)]
        deal = new_game(PAULISTA, seed).events[0]
        assert deal["dealer"] == dealer
        assert [deal["hands"][s][k] for s, k in deal_order(dealer)] == shuffle[:12]
        assert deal["vira"] == shuffle[VIRA_CARD]
    assert (pack_left(0), pack_left(12), pack_left(13)) == (40, 28, 27)


def test_from_deal_puts_the_cards_in_the_pack_in_deal_order():
    state = from_deal(MINEIRO, PLAIN, dealer=1)
    assert state.events[0]["hands"] == PLAIN and state.mao == 2


def test_play_order_goes_round_from_the_leader():
    from cartas.truco import play_order
    assert play_order(0) == [0, 1, 2, 3] and play_order(2) == [2, 3, 0, 1]
    with pytest.raises(ValueError, match="seats are 0 to 3, not 4"):
        play_order(4)


def test_hand_events_split_a_game_into_its_hands():
    from cartas.truco import hand_events
    from cartas.truco.bots import RuleBot, play_game
    state = play_game(PAULISTA, [RuleBot(seed=s) for s in range(4)], seed=5)
    events = state.events
    hands = [hand_events(events, n) for n in range(1, state.hand_number + 1)]
    assert [e for h in hands for e in h] == events   # every event in exactly one hand
    for n, hand in enumerate(hands, start=1):
        assert hand[0]["type"] == "deal" and hand[0]["hand_number"] == n
        assert [e["type"] for e in hand].count("hand") == 1
    assert hands[-1][-1]["type"] == "game" and hands[0][-1]["type"] == "hand"
    assert hand_events(events, state.hand_number + 1) == []


def test_hand_events_of_a_hand_in_progress_are_the_events_so_far():
    from cartas.truco import hand_events
    state = apply_all(from_deal(MINEIRO, PLAIN, dealer=3), "play 3♦", "raise")
    assert [e["type"] for e in hand_events(state.events, 1)] == ["deal", "play", "raise"]


@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO], ids=["paulista", "mineiro"])
@pytest.mark.parametrize("asked", ["raise", "raise 3", "raise 4", "raise 6", "raise 9",
                                   "raise 12", "truco", "seis", "pede dez"])
def test_rule_mao_de_onze_asking_truco_by_any_name_or_value_loses_the_game(variant, asked):
    """Decided: docs/rules.md#threshold-any-raise."""
    vira = "7♣" if variant.uses_vira else None
    s = apply_all(from_deal(variant, PLAIN, vira=vira, dealer=3, score=(variant.threshold, 5)),
                  PLAY_HAND, "play 3♦")
    events = s.apply_action(asked)  # seat 1, of the team not at the threshold
    assert [e["type"] for e in events] == ["raise", "hand", "game"]
    raise_ = events[0]
    assert raise_["name"] == "truco" and raise_["forbidden"] and raise_["seat"] == 1
    assert s.is_terminal() and s.winner == 0 and s.score == (variant.threshold, 5)
    assert "truco" in s.narrate(raise_, "pt") and "truco" in s.narrate(raise_, "en")


def test_rule_mao_de_onze_offers_truco_as_the_only_raise():
    s = apply_all(from_deal(MINEIRO, PLAIN, dealer=3, score=(2, 10)), PLAY_HAND)
    raises = [a for a in s.legal_actions() if a.kind == "raise"]
    assert raises == [Action.raise_to(MINEIRO.ladder[0])]
    assert raises[0].describe("pt", MINEIRO) == "pedir truco (4)"


def test_rule_a_re_raise_event_says_what_the_hand_is_worth_now():
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3)
    first = s.apply_action("raise 3")[0]
    again = s.apply_action("raise 6")[0]
    assert (first["hand_value"], again["hand_value"]) == (1, 3) and s.hand_value == 3


def test_rule_carta_coberta_is_allowed_from_the_second_trick_only():
    """Decided: docs/rules.md#truco-no-cover-first."""
    from cartas.truco import COVER_FROM_TRICK, may_cover
    assert COVER_FROM_TRICK == 2
    assert [may_cover(n) for n in (1, 2, 3)] == [False, True, True]


def test_rule_teams_and_partners_come_from_the_engine():
    from cartas.truco import partner_of, team_of, team_seats
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert team_seats(1) == (1, 3)
    view = from_deal(MINEIRO, PLAIN, dealer=3).view(3)
    assert (view.team, view.partner, view.team_of(2)) == (1, 1, 0)
    with pytest.raises(ValueError):
        team_of(4)


def test_rule_deal_hands_lays_out_a_shuffle_as_the_engine_deals_it():
    from cartas.truco import VIRA_CARD, deal_hands, deal_order
    pack = list(TRUCO_PACK)
    hands, vira = deal_hands(pack, 2, uses_vira=True)
    assert vira == pack[VIRA_CARD]
    for n, (seat, k) in enumerate(deal_order(2)):
        assert hands[seat][k] == pack[n]


@pytest.mark.parametrize("tie_lead, leader", [("leader", 0), ("first_tying", 1)])
def test_rule_after_a_tied_trick_the_tie_lead_option_says_who_leads(tie_lead, leader):
    """Decided: docs/rules.md#truco-tie-lead."""
    from cartas.truco import trick_next_leader
    trick = [(0, "4♦"), (1, "K♠"), (2, "K♦"), (3, "5♣")]
    assert trick_winner(trick, MINEIRO) is None
    assert trick_next_leader(trick, MINEIRO, None, tie_lead) == leader
