"""What differs between games is asked of the game's spec (`cartas.games.GameSpec`), and the
tables' refusals are one more `RuleError` family with a catalogue (issue 19)."""
from __future__ import annotations

import pickle

import pytest

from cartas.errors import RuleError
from cartas.games import all_games, find_game
from classroom import games
from classroom.games import CATALOGUE, TableError


def test_each_spec_says_its_family_teams_hand_play_and_table_options():
    said = {s.key: (s.family, s.hand_play, [s.team_of(seat) for seat in range(4)],
                    [o.name for o in s.table_options]) for s in all_games()}
    assert said == {
        "paulista": ("truco", True, [0, 1, 0, 1], ["hands"]),
        "mineiro": ("truco", True, [0, 1, 0, 1], ["hands"]),
        "21": ("21", False, [None] * 4, ["ace", "decks", "min_bet", "max_bet", "rotation", "rounds"]),
    }
    assert games.table_options("21") == ("ace", "packs", "min_bet", "max_bet", "rotation", "rounds")
    assert games.table_options("mineiro") == ("hands",)  # docs/rules.md#truco-short-game
    assert games.option_range("paulista", "hands") == (1, 30)


def test_the_spec_tells_the_hand_or_round_in_play_the_banker_and_why():
    truco = find_game("paulista").new_game(seed=3)
    spec = find_game("paulista")
    assert (spec.deal_number(truco), spec.banker(truco), spec.why(truco, "en")) == (1, None, None)
    while truco.hand_number == 1:
        truco.apply_action(truco.legal_actions()[0])
    assert spec.deal_number(truco) == 2 and spec.why(truco, "pt")  # how the last hand ended
    assert spec.raise_to_answer(truco) is None
    truco.apply_action(next(a for a in truco.legal_actions() if a.kind == "raise"))
    assert spec.raise_to_answer(truco) == truco.pending_raise and truco.pending_raise["value"] == 3
    spec21 = find_game("21")
    state = spec21.new_game(seed=5, seats=4, banker=2)
    assert (spec21.deal_number(state), spec21.banker(state), spec21.why(state, "en")) == (1, 2, None)
    assert spec21.raise_to_answer(state) is None
    bot = spec21.bot(1)
    while not any(e["type"] == "call" for e in state.events):
        state.apply_action(bot.choose(state.view(state.current_seat)))
    call = [e for e in state.events if e["type"] == "call"][-1]
    assert spec21.why(state, "en") == state.narrate(call, "en")
    with pytest.raises(ValueError):
        spec21.why(state, "fr")


def test_a_table_refusal_is_a_rule_error_with_the_tables_catalogue_in_both_languages():
    with pytest.raises(RuleError) as info:
        games.check_setup("poker", None, None)
    error = info.value
    assert isinstance(error, TableError) and error.code == "bad_game"
    assert error.message("pt") == "jogo desconhecido 'poker': escolha paulista, mineiro, 21"
    assert str(error) == error.message("en") == "unknown game 'poker': choose paulista, mineiro, 21"
    assert pickle.loads(pickle.dumps(error)).message("pt") == error.message("pt")
    with pytest.raises(TableError) as info:
        games.check_setup("mineiro", 6, None)
    assert info.value.message("en") == "a Truco Mineiro table has 2 or 4 seats, not 6"
    with pytest.raises(TableError) as info:
        games.check_setup("paulista", 3, None)  # 2 (mano a mano) or 4, never 3
    assert info.value.message("pt") == "uma mesa de Truco Paulista tem 2 ou 4 assentos, não 3"
    with pytest.raises(TableError) as info:
        games.check_setup("21", 13, None)
    assert info.value.message("pt") == "uma mesa de 21 (vinte e um) tem de 3 a 12 assentos, não 13"
    with pytest.raises(KeyError):
        TableError("no_such_code")
    for key in CATALOGUE.keys():
        assert CATALOGUE.template(key, "pt") != CATALOGUE.template(key, "en")


def test_rule_a_table_goes_round_in_play_order_from_any_seat():
    """Seats are numbered in play order (truco's `play_order`; docs/rules.md#21-seats): the spec
    says every seat in play order from one seat, the order a table is drawn round from hers."""
    from cartas.truco import play_order

    for key in ("paulista", "mineiro"):
        assert [find_game(key).seats_from(seat) for seat in range(4)] == [play_order(seat) for seat in range(4)]
    assert find_game("21").seats_from(3, 5) == [3, 4, 0, 1, 2]
    assert find_game("21").seats_from(0, 3) == [0, 1, 2]
    assert find_game("21").seats_from(11, 12)[:3] == [11, 0, 1]


@pytest.mark.parametrize("seat, seats", [(4, None), (-1, 5), (5, 5), ("1", 4), (True, 4), (1.5, 4)])
def test_a_seat_not_at_the_table_is_refused_by_the_spec_in_both_languages(seat, seats):
    spec = find_game("paulista" if seats is None else "21")
    with pytest.raises(RuleError) as refused:
        spec.seats_from(seat, seats)
    assert refused.value.code == "bad_seat"
    assert "os assentos vão de 0 a" in refused.value.message("pt")
    assert "the seats go from 0 to" in refused.value.message("en")


@pytest.mark.parametrize("key", ["paulista", "mineiro"])
def test_rule_ferro_blind_a_picked_card_is_played_by_its_position_unseen(key):
    """Docs: docs/rules.md#ferro-blind. The engine says what a pick of a card of the hand does
    (`GameSpec.card_action`, asked by the tables page): in a mão de ferro the seat's cards are
    unseen and the pick plays blind the card at that position; in any other hand it plays that
    card, face down when covering is asked and allowed; 21 has no hand to pick from."""
    from cartas.cards import TRUCO_PACK, make_rng, shuffled
    from cartas.truco import deal_hands, from_deal, get_variant

    variant, spec = get_variant(key), find_game(key)
    hands, vira = deal_hands(shuffled(TRUCO_PACK, make_rng(5)), 0, variant.uses_vira)
    t = variant.threshold
    ferro = from_deal(variant, hands, vira, dealer=0, score=(t, t), seed=1)
    seat = ferro.current_seat
    legal, hand = ferro.legal_actions(), list(ferro.view(seat).hand)
    assert spec.blind_positions(legal) == frozenset({0, 1, 2})
    for index in range(3):
        action = spec.card_action(legal, hand, index)
        assert action is not None and action.kind == "blind" and action.position == index
    ferro.apply_action(spec.card_action(legal, hand, 1))
    assert ferro.events[-1]["type"] == "play"  # the card at position 1 is turned on the table

    plain = from_deal(variant, hands, vira, dealer=0, score=(0, 0), seed=1)
    seat = plain.current_seat
    legal, hand = plain.legal_actions(), list(plain.view(seat).hand)
    assert spec.blind_positions(legal) == frozenset()
    picked = spec.card_action(legal, hand, 2)
    assert picked is not None and picked.kind == "play" and picked.card == hand[2]
    assert spec.card_action(legal, hand, 2, covered=True) is None  # no card face down in the first trick
    assert spec.card_action(legal, hand, 3) is None
    assert games.card_action(key, legal, hand, 0) == spec.card_action(legal, hand, 0)
    assert find_game("21").card_action(legal, hand, 0) is None and not find_game("21").blind_positions(legal)


def test_the_spec_tells_who_may_still_act_and_who_answers_for_whom():
    """21: a seat without chips is out before the game ends (docs/rules.md#21-seat-out); truco:
    a seat's partner answers the raise her team is asked (docs/rules.md#truco-who-answers)."""
    spec21 = find_game("21")
    state = spec21.new_game(seed=5, seats=3, chips=[0, 20, 20], banker=1)
    assert spec21.seat_out(state, 0) and not spec21.seat_out(state, 2)
    assert not spec21.answers_for(state, 0)
    spec = find_game("paulista")
    truco = spec.new_game(seed=3)
    while not any(a.kind == "raise" for a in truco.legal_actions()):
        truco.apply_action(truco.legal_actions()[0])
    raiser = truco.current_seat
    truco.apply_action(next(a for a in truco.legal_actions() if a.kind == "raise"))
    answering = truco.current_seat
    assert spec.team_of(answering) != spec.team_of(raiser)
    partner = next(s for s in range(4) if s != answering and spec.team_of(s) == spec.team_of(answering))
    assert spec.answers_for(truco, partner) and not spec.answers_for(truco, raiser)
    assert not spec.seat_out(truco, partner)


@pytest.mark.parametrize("setup, most", [
    ({"players": 4, "options": {"rounds": 10}}, 4 * 10 * 6),
    ({"players": 3, "options": {"rounds": None}}, 3 * 50 * 6),      # until one holds every chip: 50 counted
    ({"players": 10**9, "options": {"rounds": 10**9}}, 12 * 50 * 6),  # a forged save: the bound holds
    ({"players": True, "options": "x"}, 12 * 50 * 6),
])
def test_a_saved_21_set_up_bounds_the_actions_a_page_may_send(setup, most):
    assert find_game("21").most_actions(setup) == most


def test_a_saved_set_up_says_whether_it_starts_as_a_new_game():
    paulista, spec21 = find_game("paulista"), find_game("21")
    assert paulista.fresh_start({"score": [0, 0]}) and not paulista.fresh_start({"score": [11, 0]})
    assert paulista.most_actions({"score": [0, 0]}) == 1_000
    fresh = spec21.new_game(seed=2, seats=4)
    import json
    setup = json.loads(fresh.to_json())["setup"]
    assert spec21.fresh_start(setup)
    assert not spec21.fresh_start({**setup, "options": {**setup["options"], "chips": [20, 20, 20, 99]}})
    assert not spec21.fresh_start({**setup, "deal": {"first_cards": ["A♠"] * 4}})


@pytest.mark.parametrize("key", ["paulista", "21"])
def test_the_coach_asks_its_question_at_a_seats_decision(key):
    """The question a scenario's position asks is the coach's: its answer is among the options
    and among the answers counted right, with the reason in both languages."""
    spec = find_game(key)
    state = spec.new_game(seed=11)
    bot = spec.bot(1)
    asked = None
    for _ in range(40):
        view = state.view(state.current_seat)
        asked = spec.coach_question(view, 0)
        if asked is not None:
            break
        state.apply_action(bot.choose(view))
    assert asked is not None
    assert asked["answer"] in asked["options"] and asked["answer"] in asked["accepted"]
    assert set(asked["reason"]) == {"pt", "en"} and all(asked["reason"].values())
    assert set(asked["values"]) == set(asked["options"])
