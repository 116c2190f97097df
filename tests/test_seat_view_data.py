"""A seat view travels as plain data (`SeatView.to_dict` / `from_dict`, issue 30 item 2).

Property tests over seeded random play in both games: every view taken survives the round
trip through JSON as the engine's own view type, and a seat's dict never holds a card that
seat may not see. Then the refusals: a missing, extra or ill-typed field is the game's
RuleError naming the field, never a default.
"""
import json

import numpy as np
import pytest

from cartas.games import find_game
from cartas.truco import TrucoError
from cartas.truco.views import SeatView as TrucoView
from cartas.vinte_e_um import VinteEUmError
from cartas.vinte_e_um.views import ALL, SeatView as View21

TRUCO_GAMES = 60    # per variant: a truco game is long (every step's view is checked)
GAMES_21 = 120


def travelled(view):
    """The view sent as JSON text and read back as its game's own view type."""
    data = view.to_dict()
    text = json.dumps(data, ensure_ascii=False)
    back = type(view).from_dict(json.loads(text))
    assert type(back) is type(view)
    assert back.to_dict() == data
    return data, back


def same_truco_view(a, b):
    for name in ("seat", "team", "partner", "variant", "vira", "manilhas", "dealer", "mao", "hand_number",
                 "score", "phase", "current_seat", "mode", "is_mao_de_ferro", "is_threshold_hand",
                 "raise_forbidden", "threshold_team", "hand_value", "pending_raise", "run_value",
                 "last_raise_team", "trick_number", "trick_results", "current_trick", "tricks",
                 "trick_leader", "winner", "tie_lead", "players", "hands", "hand", "raise_options"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.legal_actions() == b.legal_actions() and a.is_my_turn == b.is_my_turn
    assert a.events == b.events


def words(data, skip=("events",)):
    """The dict's text as JSON, but for the fields in `skip`."""
    return json.dumps({k: v for k, v in data.items() if k not in skip}, ensure_ascii=False)


def may_see(state, seat, owner):
    """The rule (docs/rules.md), written out again: a seat sees its own cards but in a mão de
    ferro, and its partner's in a mão de onze/dez its team decides; a spectator none."""
    if seat is None or state.mode == "mao_de_ferro":
        return False
    return owner == seat or (state.mode == "threshold" and owner == (seat + 2) % 4
                             and seat % 2 == state.threshold_team)


def truco_hidden(state, seat):
    """The cards of the hand in play that `seat` may not see: the others' cards it may not
    see, and the cards they played face down (read from the engine's own log)."""
    hidden = {str(c) for owner in range(state.players) if not may_see(state, seat, owner) for c in state.hand_of(owner)}
    start = max(i for i, e in enumerate(state.events) if e["type"] == "deal")
    hidden |= {e["card"] for e in state.events[start:]
               if e["type"] == "play" and e["covered"] and not may_see(state, seat, e["seat"])}
    return hidden, start


def check_truco_seat(state, seat):
    view = state.view(seat)
    data, back = travelled(view)
    same_truco_view(view, back)
    hidden, start = truco_hidden(state, seat)
    # the manilhas are a rule's fact (which cards win), not a card seen: they are left out
    events = [{k: v for k, v in e.items() if k != "manilhas"} for e in data["events"][start:]]
    shown_now = words(data, skip=("events", "manilhas")) + json.dumps(events, ensure_ascii=False)
    leaked = {card for card in hidden if card in shown_now}
    assert not leaked, f"seat {seat} is sent {leaked}"


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("key", ["paulista", "mineiro"])
def test_truco_seat_views_travel_and_hide_what_a_seat_may_not_see(key, players):
    rng = np.random.default_rng(3030)
    spec = find_game(key)
    seats = [None, *range(players)]
    for _ in range(TRUCO_GAMES):
        state = spec.new_game(int(rng.integers(2**31)), seats=players)
        while not state.is_terminal():
            check_truco_seat(state, seats[int(rng.integers(len(seats)))])
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        for seat in seats:
            check_truco_seat(state, seat)


def test_a_truco_view_of_two_players_travels_and_refuses_a_seat_off_its_table():
    """Mano a mano (docs/rules.md#mano-a-mano-players): the view says two players, a hand each,
    no partner; a seat, dealer or hand beyond the two is refused, naming the field."""
    state = find_game("paulista").new_game(5, seats=2)
    data = state.view(0).to_dict()
    back = TrucoView.from_dict(data)
    assert back.players == 2 and len(back.hands) == 2 and back.partner is None
    for name, value in (("dealer", 3), ("hands", data["hands"] + [[None]]), ("players", 3)):
        with pytest.raises(TrucoError) as refused:
            TrucoView.from_dict({**data, name: value})
        assert refused.value.fields["name"] == name


def check_21_seat(state, seat):
    view = state.view(seat)
    data, back = travelled(view)
    assert back == view and back.events == view.events and back.legal_actions() == view.legal_actions()
    if seat == ALL:
        return
    hidden = {str(state.hands[o][0]) for o in range(state.players)
              if state.hands[o] and state.covered[o] and o != seat}
    # since the round began or the stock was last reshuffled, every card on the table is one card
    start = max(i for i, e in enumerate(state.events) if e["type"] in ("round_start", "reshuffle", "game_start"))
    shown_now = words(data) + json.dumps(data["events"][start:], ensure_ascii=False)
    leaked = {card for card in hidden if card in shown_now}
    assert not leaked, f"seat {seat} is sent {leaked}"


def test_21_seat_views_travel_and_hide_what_a_seat_may_not_see():
    rng = np.random.default_rng(2121)
    spec = find_game("21")
    rotations = ("rounds", "natural", "auction", "sale", "permanent")
    for _ in range(GAMES_21):
        seats = int(rng.integers(3, 8))
        state = spec.new_game(int(rng.integers(2**31)), seats=seats, decks=1, rounds=int(rng.integers(1, 4)),
                              rotation=rotations[int(rng.integers(len(rotations)))])
        while not state.is_terminal():
            viewers = [None, ALL, *range(seats)]
            check_21_seat(state, viewers[int(rng.integers(len(viewers)))])
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        for seat in (None, ALL, *range(seats)):
            check_21_seat(state, seat)


# refusals ---------------------------------------------------------------------------------
def truco_data():
    state = find_game("paulista").new_game(7)
    return state.view(state.current_seat).to_dict()


def data_21():
    state = find_game("21").new_game(7, seats=4)
    return state.view(state.current_seat).to_dict()


@pytest.mark.parametrize("make, view, error", [(truco_data, TrucoView, TrucoError), (data_21, View21, VinteEUmError)])
@pytest.mark.parametrize("change, code, name", [
    (lambda d: d.pop("hands"), "view_missing", "hands"),
    (lambda d: d.pop("current_seat"), "view_missing", "current_seat"),
    (lambda d: d.__setitem__("spare", 1), "view_unknown", "'spare'"),
    (lambda d: d.__setitem__("seat", "0"), "view_field", "seat"),
    (lambda d: d.__setitem__("seat", True), "view_field", "seat"),
    (lambda d: d.__setitem__("current_seat", 99), "view_field", "current_seat"),
    (lambda d: d.__setitem__("hands", [["7 de copas"]] * len(d["hands"])), "view_field", "hands"),
    (lambda d: d.__setitem__("hands", [["X♥"]] * len(d["hands"])), "view_field", "hands"),
    (lambda d: d.__setitem__("legal", ["fly away"]), "view_field", "legal"),
    (lambda d: d.__setitem__("events", [{"no": "type"}]), "view_field", "events"),
    (lambda d: d.__setitem__("events", "all of them"), "view_field", "events"),
    (lambda d: d.__setitem__("phase", 3), "view_field", "phase"),
])
def test_a_seat_view_with_a_missing_extra_or_ill_typed_field_is_refused_naming_it(make, view, error, change, code,
                                                                                   name):
    data = make()
    view.from_dict(data)  # the view as written is read back
    change(data)
    with pytest.raises(error) as refused:
        view.from_dict(data)
    assert refused.value.code == code and refused.value.fields["name"] == name
    assert name.strip("'") in refused.value.message("pt") and name.strip("'") in refused.value.message("en")


@pytest.mark.parametrize("view, error", [(TrucoView, TrucoError), (View21, VinteEUmError)])
def test_a_seat_view_that_is_no_dict_is_refused(view, error):
    with pytest.raises(error) as refused:
        view.from_dict(["seat", 0])
    assert refused.value.code == "view_not_dict"


def test_legal_moves_off_the_seats_turn_are_refused():
    state = find_game("paulista").new_game(7)
    other = (state.current_seat + 1) % 4
    data = state.view(other).to_dict()
    data["legal"] = [str(a) for a in state.legal_actions()]
    with pytest.raises(TrucoError) as refused:
        TrucoView.from_dict(data)
    assert refused.value.fields["name"] == "legal"


def test_a_21_field_per_seat_must_have_one_entry_per_seat():
    data = data_21()
    data["chips"] = data["chips"][:-1]
    with pytest.raises(VinteEUmError) as refused:
        View21.from_dict(data)
    assert refused.value.fields["name"] == "chips"


def test_a_truco_view_names_its_variant_and_describes_raises_by_it():
    state = find_game("mineiro").new_game(11)
    back = TrucoView.from_dict(state.view(state.current_seat).to_dict())
    assert back.variant.key == "mineiro"
    for action in state.legal_actions():
        assert back.describe(action, "pt") == state.describe(action, "pt")
        assert back.describe(str(action), "en") == state.describe(action, "en")
