"""What `apply_action` returns: the new events, a list of copies of the dicts that end
`state.events`, built only when read (`cartas.truco.events.EventList`); changing them never
changes the history."""
import copy
import json
import pickle
import random

from cartas.truco import MINEIRO, PAULISTA, new_game
from cartas.truco.events import EventList


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
    assert isinstance(events, EventList) and isinstance(events, list) and len(events) >= 2
    tail = state.events[-len(events):]
    assert events == tail and all(a is not b for a, b in zip(events, tail))
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
    assert events2 == plain and plain == events  # each compared before any other read
    assert not events != plain and not plain != events
    assert _first_trick_end()[1] == _first_trick_end()[1]  # neither read before


def test_unread_events_behave_as_a_list_everywhere():
    state, events = _first_trick_end()
    n = len(events)
    tail = state.events[-n:]
    fresh = [_first_trick_end()[1] for _ in range(8)]
    assert fresh[0][0] == tail[0] and fresh[1][-1] == tail[-1]
    assert fresh[2][:] == tail and list(reversed(fresh[3])) == tail[::-1]
    assert [e for e in fresh[4]] == tail and tail[0] in fresh[5]
    assert [] + fresh[6] == tail and fresh[7] + [] == tail
    assert json.loads(json.dumps(_first_trick_end()[1])) == tail
    assert repr(_first_trick_end()[1]) == repr(tail)
    assert _first_trick_end()[1].index(tail[1]) == 1
    for copied in (copy.copy(_first_trick_end()[1]), copy.deepcopy(_first_trick_end()[1]),
                   pickle.loads(pickle.dumps(_first_trick_end()[1]))):
        assert copied.__class__ is list and copied == tail


def test_a_read_builds_the_dicts_once():
    state, events = _first_trick_end(PAULISTA, 5)
    first = events[0]
    assert events[0] is first and state.events[-len(events)] == first


def test_changing_the_returned_list_leaves_state_events_alone():
    state, events = _first_trick_end()
    before = list(state.events)
    events.append({"type": "note"})
    events.pop(0)
    assert state.events == before


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
