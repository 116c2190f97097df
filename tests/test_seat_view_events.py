"""A seat's view sends the events its page lacks, redacting only those (issue 35, item 5).

`seat_view(..., since=K)` builds its events with `SeatView.events_from(first)` instead of
redacting the whole log and cutting it: over seeded random play in both games, at every step,
for every seat and a spectator, and for every `since` a page may send (none, 0, some, all,
more than the log holds), the view equals the one cut from the whole redacted log.
"""
import time

import numpy as np
import pytest

from classroom import games
from classroom.service import LOG_LINES, MAX_EVENTS_SENT, Texts, seat_view
from classroom.tables import Snapshot

CASES = [("paulista", 4, {}), ("mineiro", 2, {}), ("21", 3, {})]


def record(game: str, seats: int, state) -> dict:
    now = time.time()
    return {"game": game, "status": "playing", "state": state.to_json(), "level": "rule",
            "sitters": [{"id": f"hub:l{s}", "name": f"l{s}", "since": now} for s in range(seats)],
            "timeout": 60.0, "creator": "hub:l0", "class_code": "turma", "last": None, "outcome": None,
            "pace": 0.7, "moved_at": now}


def cut_from_whole_log(state, seat, since):
    """The events a page holding `since` of them is sent, cut from the whole redacted log."""
    whole = games.view(state, seat).to_dict()["events"]
    total = len(whole)
    first = max(0, total - LOG_LINES) if since is None or not 0 <= since <= total else max(
        since, total - MAX_EVENTS_SENT)
    return whole[first:], first, total


@pytest.mark.parametrize("game,seats,options", CASES)
def test_a_seat_view_built_from_the_events_a_page_lacks_equals_the_one_cut_from_the_whole_log(
        game, seats, options):
    rng = np.random.default_rng(35)
    texts = Texts()
    checked = 0
    for seed in range(3):
        state = games.new_state(game, seats, options, seed=seed)
        for step in range(400):
            if state.is_terminal():
                break
            if step % 3 == 0:
                snap = Snapshot("ABCDE", step + 1, record(game, seats, state), {}, state)
                total = games.step_count(state)
                for seat in [None, *range(seats)]:
                    view = games.view(state, seat)
                    assert view.events_from(0) == view.events
                    for since in {None, 0, int(rng.integers(0, total + 1)), total, total + 1, -1}:
                        got = seat_view(snap, seat, None if seat is None else f"l{seat}", time.time(), texts, since)
                        events, first, count = cut_from_whole_log(state, seat, since)
                        assert (got["events"], got["events_from"], got["events_total"]) == (events, first, count)
                        whole = view.to_dict()
                        assert got["view"] == {k: v for k, v in whole.items() if k != "events"}
                        checked += 1
            seat = state.current_seat
            legal = games.legal_actions(state, seat)
            games.apply(state, legal[int(rng.integers(len(legal)))], seat)
    assert checked > 100


def test_the_why_of_the_last_hand_is_worked_out_once_per_hand_and_is_the_explained_one():
    """Every seat's view of every version says why the last hand ended (`games.why`): truco
    works it out once per hand and language (`TrucoState.last_hand_why`, shared by the copies a
    service makes of the state, one per move), and it is always `explain_last_hand`'s text."""
    from cartas.truco.explain import explain_last_hand
    for key, seats in (("paulista", 4), ("mineiro", 2)):
        for seed in range(3):
            state = games.new_state(key, seats, {}, seed=seed)
            rng = np.random.default_rng(seed)
            copies = []
            while not state.is_terminal():
                legal = games.legal_actions(state, state.current_seat)
                games.apply(state, legal[int(rng.integers(len(legal)))], state.current_seat)
                copies.append(state.clone())
                for lang in ("pt", "en"):
                    said = None if state.last_hand is None else str(explain_last_hand(state.last_hand,
                                                                                      state.variant, lang))
                    assert state.last_hand_why(lang) == said
            for copy in copies[::7]:   # a copy made during an earlier hand keeps that hand's
                for lang in ("pt", "en"):
                    said = None if copy.last_hand is None else str(explain_last_hand(copy.last_hand,
                                                                                     copy.variant, lang))
                    assert copy.last_hand_why(lang) == said
