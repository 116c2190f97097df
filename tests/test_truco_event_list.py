"""What `apply_action` returns: the new events, a read-only sequence of copies of the dicts
that end `state.events`, built only when read (`cartas.truco.events.NewEvents`); changing
them never changes the history."""
import copy
import json
import pickle
import random
from collections.abc import Sequence

from cartas.truco import MINEIRO, PAULISTA, new_game
from cartas.truco.events import NewEvents


def _first_trick_end(variant=MINEIRO, seed=3):
    """A game just after the action that finished the first trick (several events)."""
    state = new_game(variant, seed)
    rng = random.Random(seed)
    while True:
        legal = [a for a in state.legal_actions() if a.kind in ("play", "blind", "play_hand")]
        events = state.apply_action(legal[rng.randrange(len(legal))])
        if any(e["type"] == "trick" for e in state.events[-len(events):]):
            return state, events


def test_the_events_returned_are_copies_of_the_dicts_that_end_state_events():
    state, events = _first_trick_end()
    assert isinstance(events, NewEvents) and isinstance(events, Sequence) and len(events) >= 2
    tail = state.events[-len(events):]
    assert list(events) == tail and all(a is not b for a, b in zip(events, tail))
    assert [e["type"] for e in events][:2] == ["play", "trick"]


def test_changing_a_returned_event_never_changes_the_history():
    state, events = _first_trick_end()
    saved = json.dumps(state.events)
    trick = events[1]
    trick["winner_team"] = "changed"
    trick["plays"].append(["x"])
    trick["plays"][0][1] = "changed"
    events[0]["card"] = None
    assert json.dumps(state.events) == saved
    assert events[1] is trick  # read once: the same copies from then on
    assert state.apply_action(state.legal_actions()[0]) is not None  # the state plays on


def test_events_read_after_more_actions_are_still_this_actions_events():
    state, events = _first_trick_end()
    at = len(state.events) - len(events)
    for _ in range(5):
        if not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
    assert list(events) == state.events[at:at + len(events)]


def test_unread_events_compare_equal_to_plain_lists_both_ways():
    state, events = _first_trick_end()
    plain = [dict(e) for e in state.events[-len(events):]]
    again, events2 = _first_trick_end()
    assert events2 == plain and plain == list(events)  # each compared before any other read
    assert not events != plain
    assert _first_trick_end()[1] == _first_trick_end()[1]  # neither read before
    assert events != plain[:-1] and events != "play"


def test_unread_events_read_as_a_sequence_everywhere():
    state, events = _first_trick_end()
    n = len(events)
    tail = state.events[-n:]
    fresh = [_first_trick_end()[1] for _ in range(6)]
    assert fresh[0][0] == tail[0] and fresh[1][-1] == tail[-1]
    assert fresh[2][:] == tail and list(reversed(fresh[3])) == tail[::-1]
    assert [e for e in fresh[4]] == tail and tail[0] in fresh[5]
    assert json.loads(json.dumps(list(_first_trick_end()[1]))) == tail
    assert repr(_first_trick_end()[1]) == repr(tail)
    assert _first_trick_end()[1].index(tail[1]) == 1 and _first_trick_end()[1].count(tail[0]) == 1
    for copied in (copy.copy(_first_trick_end()[1]), copy.deepcopy(_first_trick_end()[1]),
                   pickle.loads(pickle.dumps(_first_trick_end()[1]))):
        assert copied.__class__ is list and copied == tail


def test_a_read_builds_the_dicts_once():
    state, events = _first_trick_end(PAULISTA, 5)
    first = events[0]
    assert events[0] is first and state.events[-len(events)] == first


def test_a_clone_returns_the_same_events_as_the_original_and_its_own_dicts():
    state = new_game(PAULISTA, 11)
    for _ in range(9):
        state.apply_action(state.legal_actions()[0])
    clone = state.clone()
    for _ in range(12):
        if state.is_terminal():
            break
        mine, theirs = state.apply_action(state.legal_actions()[-1]), \
            clone.apply_action(clone.legal_actions()[-1])
        assert mine == theirs and mine == state.events[-len(mine):]
        assert theirs == clone.events[-len(theirs):]
    assert clone.events == state.events


def test_a_card_is_played_from_where_it_sits_in_the_hand_whatever_order_legal_lists():
    """`apply_action` finds the card of a play in the seat's hand, not by the action's place
    in the legal list: an equal action built anew plays the same card."""
    from cartas.truco import Action

    for seed in range(20):
        state, copy_ = new_game(PAULISTA, seed), new_game(PAULISTA, seed)
        for step in range(12):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            chosen = legal[(seed + step) % len(legal)]
            rebuilt = Action.parse(str(chosen))
            state.apply_action(chosen)
            copy_.apply_action(rebuilt, seat=copy_.current_seat)
            assert copy_.to_json() == state.to_json()


def test_narration_calls_a_named_seat_by_its_name_and_the_others_by_number():
    from cartas.truco import narrate, new_game
    state = new_game("paulista", 4)
    deal = state.events[0]
    names = {deal["dealer"]: "Ana", deal["mao"]: "<Bia>"}
    assert "Ana" in narrate(deal, "pt", names) and "<Bia>" in narrate(deal, "en", names)
    seat = state.current_seat
    played = state.apply_action(state.legal_actions()[0])[0]
    assert narrate(played, "pt", {seat: "Cida"}).startswith("Cida joga")
    assert narrate(played, "en", {seat: "Cida"}).startswith("Cida plays")
    assert narrate(played, "pt", {seat: "  "}) == narrate(played, "pt") == state.narrate(played, "pt")
    assert narrate(played, "pt", {(seat + 1) % 4: "Dora"}).startswith("Assento")
