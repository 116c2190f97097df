"""The state API: construction, actions, errors, views, events, narration, JSON, bots."""
import json

import pytest

from cartas.cards import Card
from cartas.truco import (
    ACCEPT,
    MINEIRO,
    PAULISTA,
    PLAY_HAND,
    RAISE,
    RUN,
    RUN_HAND,
    Action,
    IllegalActionError,
    explain_trick,
    from_deal,
    from_json,
    narrate,
    new_game,
    trick_winner,
)
from cartas.truco.bots import RandomBot, RuleBot, play_game

PLAIN = [["3♦", "K♦", "4♦"], ["2♠", "J♠", "5♠"], ["A♥", "Q♥", "6♥"], ["K♣", "5♣", "6♣"]]


# -- actions --------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [
    Action.play("7♥"), Action.cover("Q♠"), Action.blind(2),
    Action.raise_to(9), RAISE, ACCEPT, RUN, PLAY_HAND, RUN_HAND,
])
def test_action_str_parses_back_and_describes(action):
    assert Action.parse(str(action)) == action
    assert hash(Action.parse(str(action))) == hash(action)
    assert action.describe("pt") != action.describe("en")


def test_action_parse_reads_portuguese_words_and_rejects_nonsense():
    assert Action.parse("truco") == RAISE and Action.parse("seis") == Action.raise_to(6)
    assert Action.parse("aceito") == ACCEPT and Action.parse("corro") == RUN
    assert Action.parse("cobre 7 de copas") == Action.cover("7♥")
    with pytest.raises(IllegalActionError, match="cannot read an action"):
        Action.parse("dance")
    with pytest.raises(ValueError):
        Action.blind(3)


def test_describe_uses_the_variant_shout():
    assert Action.raise_to(10).describe("pt", MINEIRO) == "pedir dez (10)"
    assert Action.raise_to(9).describe("en", PAULISTA) == "call nove (9)"


# -- from_deal validation ------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    (dict(hands=PLAIN[:3]), "four hands"),
    (dict(hands=[PLAIN[0][:2]] + PLAIN[1:]), "seat 0 must hold 3 cards"),
    (dict(hands=[["3♦", "K♦", "2♠"]] + PLAIN[1:]), "2♠ is dealt twice"),
    (dict(hands=PLAIN, vira="3♦"), "vira 3♦ cannot also be in a hand"),
    (dict(hands=PLAIN, vira="7♣", dealer=4), "dealer is a seat from 0 to 3"),
    (dict(hands=PLAIN, vira="7♣", score=(12, 0)), "score is two whole numbers"),
    (dict(hands=PLAIN, vira="7♣", score=(-1, 0)), "score is two whole numbers"),
    (dict(hands=PLAIN, vira="7♣", tie_lead="winner"), "tie_lead must be"),
    (dict(hands=[["X", "K♦", "4♦"]] + PLAIN[1:], vira="7♣"), "cannot read a card"),
])
def test_from_deal_rejects_impossible_deals(kwargs, message):
    with pytest.raises(ValueError, match=message):
        from_deal(PAULISTA, **kwargs)


def test_from_deal_accepts_cards_and_text_and_exposes_the_hand():
    hands = [[Card.parse(c) for c in PLAIN[0]]] + PLAIN[1:]
    s = from_deal("paulista", hands, vira=Card.parse("7♣"), dealer=3)
    assert s.hands[0] == [Card.parse(c) for c in PLAIN[0]]
    s.hands[0].clear()  # a copy: the state keeps its cards
    assert len(s.hands[0]) == 3
    assert s.variant is PAULISTA and s.vira == Card.parse("7♣") and s.dealer == 3 and s.mao == 0
    assert [str(c) for c in s.manilhas] == ["Q♦", "Q♠", "Q♥", "Q♣"]
    assert s.phase == "play" and s.current_seat == 0 and s.hand_number == 1
    assert s.pending_raise is None and s.run_value is None and s.trick_number == 1


# -- illegal actions -----------------------------------------------------------------------

@pytest.mark.parametrize("setup, action, message", [
    ([], "play 2♠", "2♠ is not in seat 0's hand"),
    ([], "play 7♥", "7♥ is not in seat 0's hand"),
    ([], "accept", "there is no raise to accept"),
    ([], "run", "there is no raise to run"),
    ([], "play hand", "no mão de onze decision"),
    ([], "blind 0", "only for a mão de ferro"),
    (["raise 3"], "play 2♠", "must first answer the raise to 3"),
    (["raise 3"], "raise 9", "the next raise is to 6, not 9"),
])
def test_illegal_actions_say_why_and_change_nothing(setup, action, message):
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3)
    for a in setup:
        s.apply_action(a)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=message):
        s.apply_action(action)
    assert s.to_json() == before
    assert issubclass(IllegalActionError, ValueError)


def test_actions_after_the_end_and_unreadable_actions_are_refused():
    s = from_deal(PAULISTA, PLAIN, vira="7♣", dealer=3, score=(11, 3))
    s.apply_action(PLAY_HAND)
    s.apply_action(RAISE)
    with pytest.raises(IllegalActionError, match=r"the game is over: team B \(seats 1 and 3\) won"):
        s.apply_action("play 3♦")
    with pytest.raises(IllegalActionError, match="not an action"):
        from_deal(MINEIRO, PLAIN, dealer=3).apply_action(42)
    with pytest.raises(IllegalActionError, match="must first decide"):
        from_deal(MINEIRO, PLAIN, dealer=3, score=(10, 0)).apply_action("play 3♦")


# -- views ---------------------------------------------------------------------------------

def test_view_shows_own_cards_hides_others_and_covered_cards():
    s = from_deal(MINEIRO, PLAIN, dealer=3)
    for a in ("play 3♦", "play 5♠", "play 6♥", "play 6♣", "cover K♦"):
        s.apply_action(a)
    v1 = s.view(1)
    assert v1.hand == tuple(Card.parse(c) for c in ("2♠", "J♠")) and v1.is_my_turn
    assert v1.hands[0] == (None,) and v1.hands[2] == (None, None)
    assert v1.current_trick == [(0, None)] and v1.legal == tuple(s.legal_actions())
    covered = [e for e in v1.events if e["type"] == "play" and e["covered"]][0]
    assert covered["card"] is None
    assert [e for e in s.view(0).events if e["type"] == "play"][-1]["card"] == "K♦"
    deal = v1.events[0]
    assert deal["hands"][1] == ["2♠", "J♠", "5♠"] and deal["hands"][0] == [None] * 3
    assert s.view(0).legal == () and s.view(0).legal_actions() == []


# -- events and narration -----------------------------------------------------------------

def test_events_record_a_hand_and_narrate_in_both_languages():
    s = from_deal(PAULISTA, PLAIN, vira="6♠", dealer=3, seed=9)
    for a in ("raise 3", "accept", "play 3♦", "play 5♠", "play 6♥", "play 6♣",
              "play K♦", "play J♠", "play Q♥", "play 5♣"):
        s.apply_action(a)
    kinds = [e["type"] for e in s.events]
    assert kinds[:3] == ["deal", "raise", "accept"]
    assert kinds[3:13] == ["play"] * 4 + ["trick"] + ["play"] * 4 + ["trick"]
    assert kinds[13:] == ["hand", "deal"]
    assert s.events[3] == {"type": "play", "variant": "paulista", "seat": 0, "card": "3♦", "covered": False,
                           "blind": False, "position": None, "manilha": None, "trick": 1}
    trick = s.events[7]
    assert trick["winner_team"] == 0 and trick["winning_seat"] == 0 and trick["card"] == "3♦"
    assert trick["plays"] == [[0, "3♦"], [1, "5♠"], [2, "6♥"], [3, "6♣"]]
    assert s.events[13]["points"] == 3 and s.events[13]["score"] == [3, 0]
    json.dumps(s.events)
    for e in s.events:
        pt, en = narrate(e), narrate(e, "en")
        assert pt and en and pt != en
    assert narrate(s.events[1]) == "Assento 0 pede truco: a mão passa a valer 3 se aceitarem."
    assert narrate(s.events[7], "en") == "Seat 0 wins the first trick with 3♦."


def test_narrate_names_a_manilha():
    s = from_deal(PAULISTA, [["7♥", "K♦", "4♦"]] + PLAIN[1:], vira="6♠", dealer=3)
    s.apply_action("play 7♥")
    assert narrate(s.events[-1]) == "Assento 0 joga 7♥, a manilha de copas."
    assert "Seat 0 plays 7♥" in narrate(s.events[-1], "en")


def test_explain_trick_in_both_languages():
    plays = [(0, "K♠"), (1, "7♥"), (2, "3♦"), (3, None)]
    assert trick_winner(plays, PAULISTA, "6♦") == 1
    pt = explain_trick(plays, PAULISTA, "6♦")
    assert "7♥, a manilha de copas (assento 1) vence 3♦ (assento 2)" in pt
    assert "team B (seats 1 and 3) wins the trick" in explain_trick(plays, PAULISTA, "6♦", "en")
    assert "empata" in explain_trick([(0, "K♠"), (1, "K♦")], MINEIRO)
    assert "face down" in explain_trick([(0, None), (1, None)], MINEIRO, lang="en")
    with pytest.raises(ValueError, match="seat 0 plays twice"):
        trick_winner([(0, "K♠"), (0, "K♦")], MINEIRO)


# -- JSON ----------------------------------------------------------------------------------

def test_json_round_trip_then_both_play_on_identically():
    s = new_game(PAULISTA, seed=21)
    for _ in range(15):
        s.apply_action(s.legal_actions()[-1])
    copy = from_json(s.to_json())
    assert copy.to_json() == s.to_json()
    bots_a, bots_b = [RandomBot(k) for k in range(4)], [RandomBot(k) for k in range(4)]
    for state, bots in ((s, bots_a), (copy, bots_b)):
        while not state.is_terminal():
            state.apply_action(bots[state.current_seat].choose(state.view(state.current_seat)))
    assert copy.to_json() == s.to_json() and copy.events == s.events
    with pytest.raises(ValueError, match="not a saved truco game"):
        from_json('{"format": "other"}')


def test_clone_is_independent():
    s = new_game(MINEIRO, seed=2)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.to_json() != c.to_json() and len(s.events) == 1


# -- bots ----------------------------------------------------------------------------------

def test_bots_are_deterministic_given_their_seeds():
    def game(seed):
        return play_game(MINEIRO, [RuleBot(1), RandomBot(2), RuleBot(3), RandomBot(4)], seed)
    assert game(5).events == game(5).events
    assert game(5).events != game(6).events


def test_rule_bot_only_needs_the_view():
    s = new_game(PAULISTA, seed=3)
    for _ in range(40):
        if s.is_terminal():
            break
        seat = s.current_seat
        a, b = RuleBot(7).choose(s.view(seat)), RuleBot(7).choose(s.clone().view(seat))
        assert a == b and a in s.legal_actions()
        s.apply_action(a)
    with pytest.raises(ValueError, match="chooses from state.view"):
        RuleBot(7).choose(s)


def _turn_view(state):
    return state.view(state.current_seat)


def test_rule_bot_wins_cheaply_and_saves_manilhas():
    # Seat 1 beats K♦ with its ace, the cheapest winner, and keeps the pica-fumo (7♦).
    s = from_deal(MINEIRO, [["K♦", "3♦", "4♦"], ["7♦", "A♦", "5♠"], ["A♥", "Q♥", "6♥"],
                            ["K♣", "5♣", "6♣"]], dealer=3)
    s.apply_action("play K♦")
    assert RuleBot(0, bluff=0).choose(_turn_view(s)) == Action.play("A♦")
    # Seat 1 cannot win without its manilha while its partner may still take the trick.
    s = from_deal(MINEIRO, [["3♦", "K♦", "4♦"], ["7♦", "Q♠", "5♠"], ["A♥", "Q♥", "6♥"],
                            ["K♣", "5♣", "6♣"]], dealer=3)
    s.apply_action("play 3♦")
    assert RuleBot(0, bluff=0).choose(_turn_view(s)) == Action.play("5♠")


def test_rule_bot_decides_mao_de_onze_from_both_hands():
    strong = [["4♣", "7♥", "3♦"], ["4♦", "5♠", "6♠"], ["A♠", "3♥", "2♦"], ["Q♣", "5♣", "6♣"]]
    weak = [["4♦", "5♦", "6♦"], ["4♣", "7♥", "3♦"], ["Q♦", "5♥", "6♥"], ["A♠", "3♥", "2♦"]]
    assert RuleBot(0).choose(_turn_view(from_deal(MINEIRO, strong, dealer=3, score=(10, 4)))) == PLAY_HAND
    assert RuleBot(0).choose(_turn_view(from_deal(MINEIRO, weak, dealer=3, score=(10, 4)))) == RUN_HAND


@pytest.mark.parametrize("variant", [PAULISTA, MINEIRO])
def test_rule_bot_team_clearly_beats_random_team(variant):
    games, wins = 200, 0
    for g in range(games):
        rule_team = g % 2
        bots = [RuleBot(g * 4 + s) if s % 2 == rule_team else RandomBot(g * 4 + s) for s in range(4)]
        wins += play_game(variant, bots, seed=g).winner == rule_team
    assert wins / games >= 0.75


def test_from_deal_reads_one_text_per_hand():
    texts = [" ".join(h) for h in PLAIN]
    assert from_deal(MINEIRO, texts).events[0]["hands"] == PLAIN
    mixed = from_deal(PAULISTA, [texts[0]] + PLAIN[1:], "7♣", dealer=2)
    assert mixed.hands[0] == [Card.parse(c) for c in PLAIN[0]]
    with pytest.raises(ValueError, match="seat 1 must hold 3 cards, not 2"):
        from_deal(MINEIRO, [texts[0], "2♠ J♠"] + PLAIN[2:])
    with pytest.raises(ValueError) as err:
        from_deal(MINEIRO, [texts[0], "2♠ Jx 5♠"] + PLAIN[2:])
    assert err.value.code == "unreadable_card"
