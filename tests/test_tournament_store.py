"""A class tournament in the store, on SQLite and PostgreSQL (classroom/tournament.py,
docs/rules.md#tournament): enrolment, rounds that open their own tables, results read from the
tables, standings, the race of two starts, saves that replay, CSV."""
from __future__ import annotations

import threading

import pytest

from cartas import tournament as rules
from classroom import classes, games
from classroom.progress import open_store
from classroom.store import connect
from classroom.tournament import PRESENT_WINDOW, StoreTournaments, TournamentRefused


class Clock:
    def __init__(self, t: float = 2_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def setting(store_location):
    clock = Clock()
    store = open_store(store_location)
    made = classes.create_class(store, "7B")
    return StoreTournaments(store, clock=clock), clock, made, store_location


def play_round(room: StoreTournaments, clock: Clock, code: str) -> None:
    """Every learner away past the timeout: the bots play each table of the round to its end."""
    board = room.board(code)
    clock.advance(board["setup"]["timeout"] + 1)
    for game in board["games"]:
        if game["round"] != board["round"] or game["bye"]:
            continue
        snap = room.tables.snapshot(game["table_code"])
        while snap.status != "finished":
            clock.advance(snap.record["pace"])
            snap = room.tables.bot_move(snap) or room.tables.snapshot(snap.code)


def test_present_learners_are_enrolled_the_teacher_adds_and_removes_and_a_latecomer_waits(setting):
    room, clock, made, _ = setting
    opened = room.open(made.code, made.key, {"game": "paulista", "players": "single", "rounds": 2, "seed": 4})
    code, host = opened["code"], opened["host_token"]
    room.seen(code, "old", "Olga")
    clock.advance(PRESENT_WINDOW + 1)  # Olga's page was open long ago: not present
    for who, name in [("ana", "Ana"), ("bia", "Bia"), ("caio", "Caio")]:
        room.my_table(code, who, name)
    assert sorted(room.enrol_present(code, host)) == ["ana", "bia", "caio"]
    assert room.enrol_present(code, host) == []
    assert room.add(code, host, "duda", "Duda") == 1
    room.remove(code, host, "caio")
    with pytest.raises(TournamentRefused) as refused:
        room.add(code, "not-the-token", "eva", "Eva")
    assert refused.value.code == "not_host" and refused.value.message("pt").startswith("só quem abriu")
    started = room.start_round(code, host, 1)
    assert started["round"] == 1 and started["tables"] == 1 and started["bye"] in {"ana", "bia", "duda"}
    assert room.add(code, host, "eva", "Eva") == 2  # a latecomer plays from the next round
    eva = room.my_table(code, "eva", "Eva")
    assert eva["enrolled"] and eva["table"] is None and eva["from_round"] == 2
    seated = {room.my_table(code, w, n)["seat"] for w, n in [("ana", "Ana"), ("bia", "Bia"), ("duda", "Duda")]}
    assert len({s for s in seated if s is not None}) == 2  # two of three at the table, one has the bye
    assert room.my_table(code, started["bye"], "X")["bye"] is True
    assert room.my_table(code, "caio", "Caio")["enrolled"] is False


def test_a_truco_pairs_tournament_opens_tables_records_results_and_pairs_without_rematch(setting):
    room, clock, made, _ = setting
    opened = room.open_for(made.code, {"game": "paulista", "players": "pairs", "partners": "lot",
                                       "rounds": 2, "seed": 9, "level": "easy", "pace": 0.1})
    code, host = opened["code"], opened["host_token"]
    learners = [f"l{i}" for i in range(8)]
    for who in learners:
        room.add(code, host, who, who.upper())
    room.start_round(code, host, 1)
    board = room.board(code)
    assert len(board["games"]) == 2 and board["status"] == "playing"
    first_tables = set()
    for game in board["games"]:
        snap = room.tables.snapshot(game["table_code"])
        assert snap.status == "playing" and snap.record["class_code"] == made.code and snap.level == "easy"
        # partners sit at their team's seats (the engine's team_of)
        for side, unit in enumerate(game["units"]):
            members = [p["id"] for p in board["players"] if p["unit"] == unit]
            seats = [s for s, w in enumerate(snap.sitters) if w and w["id"] in members]
            assert len(members) == 2 and {games.team_of("paulista", s) for s in seats} == {side}
        first_tables.add(frozenset(game["units"]))
    with pytest.raises(TournamentRefused) as early:
        room.start_round(code, host, 2)
    assert early.value.code == "round_open"
    play_round(room, clock, code)
    board = room.board(code)
    assert all(g["scores"] is not None and max(g["scores"]) >= 12 for g in board["games"])
    assert sum(s["points"] for s in board["standings"]) == 2.0
    room.start_round(code, host, 2)
    board = room.board(code)
    second = {frozenset(g["units"]) for g in board["games"] if g["round"] == 2}
    assert not second & first_tables  # no rematch while avoidable
    play_round(room, clock, code)
    board = room.board(code)
    assert board["status"] == "finished" and len(board["podium"]) == 3
    assert [s["rank"] for s in board["standings"]] == sorted(s["rank"] for s in board["standings"])
    with pytest.raises(TournamentRefused) as over:
        room.start_round(code, host, 3)
    assert over.value.code == "finished"
    # every game is a save that replays to the very same game
    save = room.game_save(code, 2, 1)
    again = games.load_state(save["game"], save["state"])
    assert again.is_terminal() and again.to_json() == save["state"]
    text = room.export_csv(code, host, "en")
    assert text.splitlines()[0] == "Place,Player,Points,Buchholz,Head-to-head,Difference,Games"
    assert text.count("\n") == 1 + 4 + 2 + 4 and " & " in text
    assert room.export_csv(code, host, "pt").startswith("Posição,Participante,Pontos")


def test_a_21_tournament_seats_tables_of_three_to_six_and_ranks_by_chips(setting):
    room, clock, made, _ = setting
    opened = room.open_for(made.code, {"game": "21", "rounds": 1, "seed": 3, "options": {"rounds": 1},
                                       "pace": 0.1})
    code, host = opened["code"], opened["host_token"]
    for i in range(7):
        room.add(code, host, f"p{i}", f"P{i}")
    room.start_round(code, host, 1)
    board = room.board(code)
    assert sorted(len(g["units"]) for g in board["games"]) == [3, 4]
    play_round(room, clock, code)
    board = room.board(code)
    assert board["status"] == "finished"
    for game in board["games"]:
        chips = dict(zip(game["units"], game["scores"], strict=True))
        best = max(chips.values())
        top = {s["unit"]: s["points"] for s in board["standings"]}
        assert all(top[u] == 1.0 for u, c in chips.items() if c == best and list(chips.values()).count(best) == 1)


def test_a_learner_who_leaves_mid_game_is_played_by_a_bot_after_the_timeout(setting):
    room, clock, made, _ = setting
    opened = room.open_for(made.code, {"game": "paulista", "players": "single", "rounds": 1, "seed": 2,
                                       "timeout": 30})
    code, host = opened["code"], opened["host_token"]
    room.add(code, host, "ana", "Ana")
    room.add(code, host, "bia", "Bia")
    room.start_round(code, host, 1)
    table = room.my_table(code, "ana", "Ana")["table_code"]
    room.tables.heartbeat(table, "ana")
    room.tables.heartbeat(table, "bia")
    clock.advance(20)
    room.tables.heartbeat(table, "bia")  # Bia stays; Ana has closed her page
    snap = room.tables.snapshot(table)
    ana = snap.seat_of("ana")
    assert snap.controller(ana, clock()) == "learner"
    clock.advance(15)
    snap = room.tables.snapshot(table)
    assert snap.controller(ana, clock()) == "bot" and snap.controller(snap.seat_of("bia"), clock()) == "learner"


def test_two_starts_of_one_round_at_once_exactly_one_wins(setting):
    room, clock, made, location = setting
    opened = room.open_for(made.code, {"game": "mineiro", "players": "single", "rounds": 3, "seed": 1})
    code, host = opened["code"], opened["host_token"]
    for i in range(6):
        room.add(code, host, f"p{i}", f"P{i}")
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def start() -> None:
        store = connect(location)
        try:
            mine = StoreTournaments(store, clock=clock)
            barrier.wait()
            try:
                mine.start_round(code, host, 1)
                outcomes.append("won")
            except TournamentRefused as refused:
                outcomes.append(refused.code)
        finally:
            store.close()

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["round_started"] * 3 + ["won"]
    board = room.board(code)
    assert len([g for g in board["games"] if g["round"] == 1]) == 3
    assert len({g["table_code"] for g in board["games"]}) == 3
    assert len(room.tables.list_class(made.code)) == 3  # one set of tables, not four


def test_a_bad_setup_is_refused_naming_the_field(setting):
    room, _, made, _ = setting
    for setup, field in [({"game": "poker"}, "game"), ({"game": "paulista", "rounds": 0}, "rounds"),
                         ({"game": "21", "table_size": [2, 6]}, "table_size"),
                         ({"game": "paulista", "level": "genius"}, "level"),
                         ({"game": "paulista", "colour": 1}, "colour")]:
        with pytest.raises(TournamentRefused) as refused:
            room.open_for(made.code, setup)
        assert refused.value.fields["field"] == field
        assert field in refused.value.message("en") and field in refused.value.message("pt")
    with pytest.raises(classes.NotAllowed):
        room.open(made.code, "wrong key", {"game": "paulista"})
    assert rules.CATALOGUE.say("bye", "en") == "bye"


def test_a_teacher_finds_her_class_tournaments_and_takes_one_back_with_the_class_key(setting):
    room, clock, made, location = setting
    first = room.open(made.code, made.key, {"game": "paulista", "players": "single", "rounds": 1, "seed": 1})
    clock.advance(5)
    second = room.open(made.code, made.key, {"game": "21", "rounds": 2, "seed": 2})
    listed = room.of_class(made.code)
    assert [t["code"] for t in listed] == [second["code"], first["code"]]
    assert listed[0]["game"] == "21" and listed[0]["status"] == "open" and listed[0]["round"] == 0
    from classroom.identity import Learner
    ana = Learner.make("browser-ana-000001", "Ana", made.code)
    assert [t["code"] for t in room.mine(ana)] == [second["code"], first["code"]]
    assert room.mine(Learner.make("browser-bia-000001", "Bia", "")) == []
    with pytest.raises(classes.NotAllowed):
        room.resume(made.code, "WRONG-KEY", second["code"])
    other = classes.create_class(connect(location), "8C")
    with pytest.raises(TournamentRefused) as refused:
        room.resume(other.code, other.key, second["code"])
    assert refused.value.code == "no_tournament"
    back = room.resume(made.code, made.key, second["code"].lower())
    assert back["code"] == second["code"] and back["setup"] == second["setup"]
    room.seen(second["code"], "ana", "Ana")
    assert room.enrol_present(second["code"], back["host_token"]) == ["ana"]
    with pytest.raises(TournamentRefused) as old:  # the host token given before no longer holds
        room.enrol_present(second["code"], second["host_token"])
    assert old.value.code == "not_host"
