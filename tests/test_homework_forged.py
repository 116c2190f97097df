"""Forged games against the bots sent for homework (issue 33, items 1 and 4), on a laptop's
store (the kernel is the server there): a game whose set-up does not start as a new game
does, a game in which her moves were another seat's, and a game longer than a real one are
refused; the item is checked before any replay (docs/rules.md#homework-games)."""
from __future__ import annotations

import json
import time

import pytest

from cartas.games import find_game
from classroom import homework as hw, identity as ids
from classroom.classes import create_class
from classroom.progress import open_store

DUE = "2030-12-20"


def _class(store):
    made = create_class(store, "7º C")
    ana = ids.join(store, made.code, "Ana", "4321", "browser-ana-0001").learner
    return made.code, ana


def forged_truco(seed: int) -> tuple[str, list[int]]:
    """A whole truco game in which she chose every seat's moves: her team raises whenever it
    can, the other team always runs. Returns its save and the indices of every move (all hers)."""
    spec = find_game("paulista")
    state = spec.new_game(seed)
    moves = 0
    while not state.is_terminal():
        seat = state.current_seat
        legal = state.legal_actions()
        ours = spec.team_of(seat) == spec.team_of(0)
        wanted = ("raise",) if ours and state.mode != "threshold" else ("run",) if not ours else ("play_hand", "play")
        state.apply_action(next((a for a in legal if a.kind in wanted), legal[0]))
        moves += 1
    assert state.winner == spec.team_of(0)
    return state.to_json(), list(range(moves))


def honest_truco(seed: int, start: tuple[int, int] = (0, 0)) -> tuple[str, list[int]]:
    """A whole game the bots play, seat 0 (hers) included; her moves are seat 0's and her
    team's answers, as the play page records them. `start`: the score written in its set-up."""
    spec = find_game("paulista")
    saved = json.loads(spec.new_game(seed).to_json())
    saved["setup"]["score"] = list(start)
    state = spec.from_json(json.dumps(saved))
    bots = [spec.bot(seat) for seat in range(4)]
    mine, index = [], 0
    while not state.is_terminal():
        seat = state.current_seat
        if seat == 0 or (state.phase in ("answer", "decide") and spec.team_of(seat) == spec.team_of(0)):
            mine.append(index)
        state.apply_action(bots[seat].choose(state.view(seat)))
        index += 1
    return state.to_json(), mine


def long_21(actions: int) -> str:
    """A 21 game at 12 seats of 1,000 rounds, played by its bots for `actions` actions."""
    spec = find_game("21")
    state = spec.new_game(11, seats=12, rounds=1_000, chips=1_000, min_bet=1, max_bet=1)
    bots = [spec.bot(seat) for seat in range(12)]
    for _ in range(actions):
        seat = state.current_seat
        state.apply_action(bots[seat].choose(state.view(seat)), seat)
    text = state.to_json()
    assert len(json.loads(text)["actions"]) == actions
    return text


def test_a_game_set_up_at_eleven_to_nothing_does_not_count(store_location):
    store = open_store(store_location)
    code, ana = _class(store)
    task = hw.create(store, code, "T", DUE, 100, [{"kind": "game", "game": "truco", "goal": "win"}])
    text, _ = honest_truco(4, start=(11, 0))
    with pytest.raises(hw.HomeworkError) as refused:
        hw.finish_game(store, task["id"], 0, ana.key, "paulista", text)
    assert refused.value.code == "not_fresh"
    assert not hw.learner_homework(store, ana.key)[0]["states"][0]["done"]  # nothing written: she can still play
    text, mine = honest_truco(4)
    assert hw.finish_game(store, task["id"], 0, ana.key, "paulista", text, mine=mine)["first"]


def test_a_game_in_which_she_chose_every_seats_moves_does_not_count(store_location):
    store = open_store(store_location)
    code, ana = _class(store)
    task = hw.create(store, code, "T", DUE, 100, [{"kind": "game", "game": "truco", "goal": "win"}])
    text, every = forged_truco(2)
    with pytest.raises(hw.HomeworkError) as refused:
        hw.finish_game(store, task["id"], 0, ana.key, "paulista", text, mine=every)
    assert refused.value.code == "other_seats" and refused.value.fields["move"] >= 1
    with pytest.raises(hw.HomeworkError) as refused:  # the same game, her moves said to be seat 0's only
        seat_0 = [i for i in every if i % 4 == 0]
        hw.finish_game(store, task["id"], 0, ana.key, "paulista", text, mine=seat_0)
    assert refused.value.code == "other_seats"
    assert not hw.learner_homework(store, ana.key)[0]["states"][0]["done"]
    from widgets.components.homework import Refusal
    said = Refusal(refused.value)
    assert "outro assento" in said.message("pt") and "another seat" in said.message("en")


def test_a_six_thousand_action_game_is_refused_before_any_replay_and_the_item_is_checked_first(store_location):
    store = open_store(store_location)
    code, ana = _class(store)
    task = hw.create(store, code, "T", DUE, 50, [{"kind": "game", "game": "21"}])
    text = long_21(6_000)
    began = time.perf_counter()
    with pytest.raises(hw.HomeworkError) as refused:
        hw.finish_game(store, "ZZZZZZZZ", 0, ana.key, "21", text)   # no such homework: said before anything
    assert refused.value.code == "no_assignment"
    with pytest.raises(hw.HomeworkError) as refused:
        hw.finish_game(store, task["id"], 0, ana.key, "21", text)
    refused_in = time.perf_counter() - began
    assert refused.value.code == "long_game" and refused.value.fields["most"] < 6_000
    began = time.perf_counter()
    find_game("21").from_json(text)   # what a replay of it costs
    replay = time.perf_counter() - began
    assert refused_in < replay  # both refusals together cost less than one replay: none was made


def test_a_homework_tables_seat_is_hers_alone_and_never_a_bots_even_while_she_is_away():
    """classroom.tables: a homework table (the class service's deal of a homework game) waits
    for its learner; nobody else sits there and she cannot hand her seat to a bot."""
    from classroom.tables import MemoryRepository, TableError, Tables
    now = [1000.0]
    tables = Tables(MemoryRepository(), clock=lambda: now[0])
    code = tables.create("paulista", "hub:ana", "ana", timeout=10,
                         homework={"assignment": "ABCD2345", "item": 0, "learner": "hub:ana"})
    tables.start(code, "hub:ana")
    now[0] += 600   # she has been away ten minutes
    snap = tables.snapshot(code)
    assert [snap.controller(seat, now[0]) for seat in range(4)] == ["learner", "bot", "bot", "bot"]
    while snap.state.current_seat != 0:   # the bots play up to her turn, then wait for her
        now[0] += 1
        snap = tables.bot_move(snap)
    now[0] += 60
    assert tables.bot_move(snap) is None and not tables.bot_due(snap, now[0])
    for refused in (lambda: tables.join(code, "hub:bia", "bia", 1), lambda: tables.leave(code, "hub:ana")):
        with pytest.raises(TableError) as caught:
            refused()
        assert caught.value.code == "homework_table" and "robô" in caught.value.message("pt")
