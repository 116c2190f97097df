"""Forged games against the bots for homework (issue 33, items 1 and 4), on a laptop's store
(the kernel is the server there): the only way a bot game counts is her homework table, dealt
by the store's tables from their own seed, the bots moved by the tables' code, her page sending
only her moves, the table's own record deciding (docs/rules.md#homework-games). Nothing a
kernel or a page sends is taken as a game: a hand-dealt, won position at 0 to 0 in which she
chose the opponents' moves passes no item."""
from __future__ import annotations

import contextlib
import json

import pytest

from cartas.games import find_game
from cartas.truco import from_deal
from classroom import games, homework as hw, identity as ids
from classroom.classes import create_class
from classroom.interface import StoreClassroom
from classroom.progress import open_store
from classroom.tables import StoreRepository, TableError, Tables

DUE = "2030-12-20"
# her team holds the four manilhas (vira 4♣: the 5s), dealt by hand
DEAL = {"hands": [["5♣", "5♥", "3♠"], ["4♦", "4♥", "6♠"], ["5♠", "5♦", "3♥"], ["6♦", "6♥", "7♠"]], "vira": "4♣"}


def _class(store):
    made = create_class(store, "7º C")
    ana = ids.join(store, made.code, "Ana", "4321", "browser-ana-0001").learner
    return made.code, ana


def hand_dealt_won_truco() -> tuple[str, list[int]]:
    """A whole Paulista game from 0 to 0 whose first deal she made by hand (her team holds the
    manilhas) and in which she chose every seat's moves: her team raises whenever it can, the
    other team always runs. Returns its save and the indices of her seat's moves."""
    spec = find_game("paulista")
    state = from_deal("paulista", DEAL["hands"], DEAL["vira"], dealer=3, score=(0, 0), seed=7)
    mine, index = [], 0
    while not state.is_terminal():
        seat = state.current_seat
        legal = state.legal_actions()
        ours = spec.team_of(seat) == spec.team_of(0)
        wanted = ("raise",) if ours and state.mode != "threshold" else ("run",) if not ours else ("play_hand", "play")
        if seat == 0:
            mine.append(index)
        state.apply_action(next((a for a in legal if a.kind in wanted), legal[0]))
        index += 1
    assert state.winner == spec.team_of(0) and tuple(json.loads(state.to_json())["setup"]["score"]) == (0, 0)
    return state.to_json(), mine


def forged_truco(seed: int) -> tuple[str, list[int]]:
    """A whole truco game from the game's own deal in which she chose every seat's moves: her
    team raises whenever it can, the other team always runs. Returns its save and the indices of
    every move (all hers). (tests/test_service_homework_games.py sends it to the class service.)"""
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


def test_a_hand_dealt_won_game_sent_from_the_kernel_no_longer_passes_a_homework_item_on_a_laptop(store_location):
    """Issue 33, item 1: the laptop's homework service took a finished game from the kernel
    (`finish_game`); this one, dealt by hand at 0 to 0, the opponents' moves hers, passed every
    check. No way of handing a game in is left: the item stays undone."""
    store = open_store(store_location)
    code, ana = _class(store)
    task = hw.create(store, code, "T", DUE, 100, [{"kind": "game", "game": "truco", "goal": "win"}])
    text, mine = hand_dealt_won_truco()
    service = StoreClassroom(store).homework()
    for send in (getattr(service, "finish_game", None),):   # what a kernel could call to hand a game in
        if send is not None:
            with contextlib.suppress(hw.HomeworkError):
                send(task["id"], 0, ana.key, "paulista", text, 0, False, mine=mine)
    [homework] = hw.learner_homework(store, ana.key)
    assert not homework["states"][0]["done"] and not homework["summary"]["passed"]


def test_on_a_laptop_a_homework_bot_game_is_a_table_the_store_deals_and_only_her_moves_reach_it(store_location):
    """Issue 33, item 1 on a laptop, as under the hub: her homework table is made and dealt by
    the store (its seed the tables' own draw), her seat hers alone; a move at a bot's turn is
    refused, the bots move by the tables' code, and the table's record decides the item."""
    store = open_store(store_location)
    code, ana = _class(store)
    task = hw.create(store, code, "T", DUE, 100, [{"kind": "game", "game": "truco"}])
    room = StoreClassroom(store)
    made = room.homework().bot_table(task["id"], 0, ana.key, pace=0.0)
    tables = Tables(StoreRepository(store))
    snap = tables.snapshot(made["code"])
    assert snap.status == "playing" and snap.record["homework"] == {"assignment": task["id"], "item": 0,
                                                                    "learner": ana.key}
    assert [who and who["id"] for who in snap.sitters] == [ana.key, None, None, None]
    assert snap.record["class_code"] == hw.bot_table_class(task["id"], 0, ana.key)  # no class lists it
    assert room.homework().bot_table(task["id"], 0, ana.key)["code"] == made["code"]  # a reload: her table back
    for seat in (1, 2):   # she cannot move to a bot's seat (an opponent's about to win, her partner's)
        with pytest.raises(TableError) as refused:
            tables.join(made["code"], ana.key, "Ana", seat)
        assert refused.value.code == "homework_table"
    refused_at_bots_turn = 0
    while snap.status == "playing":
        seat = snap.state.current_seat
        if seat == 0:
            snap = tables.move(made["code"], ana.key, str(snap.state.view(0).legal_actions()[0]), snap.version)
            continue
        legal = snap.state.view(seat).legal_actions()
        with pytest.raises(TableError) as refused:   # the opponents' (and her partner's) moves are never hers
            tables.move(made["code"], ana.key, str(legal[0]), snap.version)
        assert refused.value.code == "not_your_turn"
        refused_at_bots_turn += 1
        snap = tables.bot_move(snap) or tables.snapshot(made["code"])
    assert refused_at_bots_turn > 0
    written = room.homework().table_game_over(made["code"])
    result = hw.game_result(snap.state, 0)
    assert written == [{"learner": ana.key, "assignment": task["id"], "item": 0, "correct": True}]
    state = hw.learner_homework(store, ana.key)[0]["states"][0]
    assert state["done"] and state["choice"] == result and state["score"] == hw.final_score(snap.state, 0)
    with pytest.raises(hw.HomeworkError, match="item_done"):   # done: no new table for it
        room.homework().bot_table(task["id"], 0, ana.key)


def test_each_homework_table_is_dealt_from_a_seed_the_store_draws(store_location):
    """The seed is the tables' own draw: never the caller's, and not the same for two tables."""
    store = open_store(store_location)
    code, ana = _class(store)
    task = hw.create(store, code, "T", DUE, 100, [{"kind": "game", "game": "21"}, {"kind": "game", "game": "21"}])
    service = StoreClassroom(store).homework()
    with pytest.raises(TypeError):
        service.bot_table(task["id"], 0, ana.key, seed=1)  # type: ignore[call-arg]
    tables = Tables(StoreRepository(store))
    seeds = {tables.snapshot(service.bot_table(task["id"], item, ana.key)["code"]).record["seed"] for item in (0, 1)}
    assert len(seeds) == 2
    assert games  # the tables' adapter deals from that seed (classroom.games.new_state)


def test_a_homework_tables_seat_is_hers_alone_and_never_a_bots_even_while_she_is_away():
    """classroom.tables: a homework table (the store's deal of a homework game) waits for its
    learner; nobody else sits there, she cannot hand her seat to a bot nor move to another seat
    (the seat of the side about to win: she could do that before, as the table's creator)."""
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
    for refused in (lambda: tables.join(code, "hub:bia", "bia", 1), lambda: tables.leave(code, "hub:ana"),
                    lambda: tables.join(code, "hub:ana", "ana", 1),    # nor she to an opponent's seat
                    lambda: tables.join(code, "hub:ana", "ana", 2)):   # nor to her partner's
        with pytest.raises(TableError) as caught:
            refused()
        assert caught.value.code == "homework_table" and "robô" in caught.value.message("pt")
