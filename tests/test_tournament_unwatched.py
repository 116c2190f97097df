"""A tournament drives its own tables (docs/rules.md#tournament): a table whose learners all left
is played to its end by its bots as the board is read, its result recorded once and counted in the
standings; a learner back before the timeout keeps her seat. And a tournament of short truco games
(docs/rules.md#truco-short-game). On SQLite and PostgreSQL, with an injected clock."""
from __future__ import annotations

import json

import pytest
from test_tournament_store import Clock

from classroom import classes
from classroom.progress import open_store
from classroom.tables import DRIVE_MOVES, PRESENT
from classroom.tournament import StoreTournaments, TournamentRefused


@pytest.fixture
def setting(store_location):
    clock = Clock()
    store = open_store(store_location)
    return StoreTournaments(store, clock=clock), clock, classes.create_class(store, "7C"), store_location


FOUR = [("ana", "Ana"), ("bia", "Bia"), ("caio", "Caio"), ("duda", "Duda")]


def open_pairs(room: StoreTournaments, class_code: str, **setup) -> tuple[str, str, str]:
    """A one-round truco tournament of one pair against another, its four learners seated
    (each heard at her table): (code, host token, table code)."""
    opened = room.open_for(class_code, {"game": "paulista", "players": "pairs", "partners": "lot", "rounds": 1,
                                        "seed": 5, "timeout": 30, **setup})
    code, host = opened["code"], opened["host_token"]
    for who, name in FOUR:
        room.add(code, host, who, name)
    room.start_round(code, host, 1)
    table = room.my_table(code, "ana", "Ana")["table_code"]
    for who, _ in FOUR:
        room.tables.heartbeat(table, who)
    return code, host, table


def recorded_rows(setting_store, code: str) -> list:
    with setting_store.transaction(write=False) as tx:
        return tx.execute("SELECT result, finished_at FROM tournament_games WHERE code = ?", (code,)).fetchall()


def test_a_table_whose_learners_all_left_ends_as_the_board_is_read_and_counts_once(setting):
    room, clock, made, _ = setting
    code, _, table = open_pairs(room, made.code, level="easy")
    board = room.board(code)
    assert board["games"][0]["live"]["status"] == "playing"
    clock.advance(31)  # all four closed their pages and are past the timeout
    reads, events = 0, [len(room.tables.snapshot(table).state.events)]
    while room.board(code)["status"] != "finished":
        reads += 1
        events.append(len(room.tables.snapshot(table).state.events))
        assert reads < 60, "the board reads never finished the table"
        clock.advance(1)
    snap = room.tables.snapshot(table)
    assert snap.status == "finished" and snap.state.is_terminal()
    assert reads >= 2  # a game to 12 takes more than one read's moves
    assert all(b - a <= 3 * DRIVE_MOVES for a, b in zip(events, events[1:], strict=False))
    board = room.board(code)
    assert board["status"] == "finished" and board["podium"]
    game = board["games"][0]
    assert game["scores"] == list(snap.state.score) and max(game["scores"]) >= 12  # the game as it was
    assert sum(s["games"] for s in board["standings"]) == 2  # each pair played one game
    winner = next(s for s in board["standings"] if s["points"] == 1.0)
    assert winner["rank"] == 1
    # the result is the table's own, recorded once: more reads change nothing
    rows = recorded_rows(room.store, code)
    clock.advance(60)
    room.board(code)
    assert recorded_rows(room.store, code) == rows and len(rows) == 1
    assert json.loads(rows[0][0])["outcome"] == snap.record["outcome"]
    assert room.game_save(code, 1, 1)["state"] == snap.record["state"]


def test_a_learner_back_before_the_timeout_keeps_her_seat_and_her_turn(setting):
    room, clock, made, _ = setting
    code, _, table = open_pairs(room, made.code, level="easy", seed=8)
    clock.advance(PRESENT + 1)  # everyone's page closed, nobody past the timeout (30 s)
    room.board(code)
    snap = room.tables.snapshot(table)
    seat = snap.state.current_seat
    who = snap.sitters[seat]
    assert snap.controller(seat, clock()) == "learner"  # nobody's seat is a bot's: nothing moves
    version = snap.version
    room.board(code)
    assert room.tables.snapshot(table).version == version
    clock.advance(5)
    room.tables.heartbeat(table, who["id"])  # she comes back in time
    clock.advance(20)  # past the timeout of the others, not hers
    room.board(code)  # the others' seats: a bot plays them when their turn comes, hers waits
    snap = room.tables.snapshot(table)
    assert snap.sitters[seat]["id"] == who["id"] and snap.controller(seat, clock()) == "learner"
    mine = room.my_table(code, who["id"], who["name"])
    assert mine["seat"] == seat and mine["table_code"] == table
    legal = snap.state.legal_actions()
    moved = room.tables.move(table, who["id"], legal[0], snap.version)
    assert moved.record["last"]["by"] == "learner"


def test_a_tournament_of_short_truco_games_opens_short_tables(setting):
    room, clock, made, _ = setting
    code, _, table = open_pairs(room, made.code, options={"hands": 3}, level="easy")
    snap = room.tables.snapshot(table)
    assert room.board(code)["setup"]["options"] == {"hands": 3}
    assert snap.record["options"] == {"hands": 3} and snap.state.hand_limit == 3
    clock.advance(31)
    for _ in range(20):
        if room.board(code)["status"] == "finished":
            break
        clock.advance(1)
    final = room.tables.snapshot(table).state
    assert final.is_terminal() and room.board(code)["games"][0]["scores"] is not None
    assert final.hand_number >= 3 or max(final.score) >= 12 or final.events[-2]["reason"] == "forbidden_raise"


@pytest.mark.parametrize("options", [{"hands": 0}, {"hands": 31}, {"hands": "5"}, {"hands": True}, {"rounds": 3}])
def test_a_tournament_of_a_hostile_short_game_length_is_refused_naming_the_options(setting, options):
    room, _, made, _ = setting
    with pytest.raises(TournamentRefused) as refused:
        room.open_for(made.code, {"game": "mineiro", "options": options})
    assert refused.value.fields["field"] == "options"
    assert "options" in refused.value.message("en") and "options" in refused.value.message("pt")
