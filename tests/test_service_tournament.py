"""A class tournament through the class service (classroom.service's tournament block,
classroom.remote.RemoteTournaments, ServiceClassroom.tournaments), on SQLite and PostgreSQL:
the class's teacher runs it, her learners see their tables; a learner cannot start a round nor
report a result (docs/rules.md#tournament)."""
from __future__ import annotations

import pytest
from school_service import School

from classroom import games
from classroom.interface import ServiceClassroom
from classroom.remote import ServiceRefused
from classroom.store import connect
from classroom.tables import StoreRepository, Tables
from classroom.tournament import TournamentRefused
from classroom.values import NotAllowed


def cup(school: School, who: str):
    return ServiceClassroom(school.client(who)).tournaments()


def play_out(location: str, table_code: str, learners: list[str]) -> None:
    """Her learners give their seats up (their pages closed): the bots play the table to its end."""
    store = connect(location)
    try:
        tables = Tables(StoreRepository(store))
        for learner in learners:
            tables.leave(table_code, learner)
        snap = tables.snapshot(table_code)
        while snap.status != "finished":
            snap = tables.bot_move(snap) or tables.snapshot(table_code)
    finally:
        store.close()


def test_a_teacher_runs_a_one_round_tournament_for_two_hub_learners(school):
    prof, ana, bia = cup(school, "prof"), cup(school, "ana"), cup(school, "bia")
    with pytest.raises(NotAllowed):
        ana.open("turma-a", "", {"game": "paulista"})
    opened = prof.open("turma-a", "", {"game": "paulista", "players": "single", "rounds": 1, "seed": 5,
                                       "pace": 0.0, "level": "easy"})
    code, host = opened["code"], opened["host_token"]
    assert ana.my_table(code)["enrolled"] is False
    bia.my_table(code)
    assert sorted(prof.enrol_present(code, host)) == ["hub:ana", "hub:bia"]
    # a learner cannot start a round, even holding the host token
    for attempt in (lambda: ana.start_round(code, host, 1), lambda: ana.enrol_present(code, host)):
        with pytest.raises(Exception) as refused:
            attempt()
        assert getattr(refused.value, "status", None) == 403
    with pytest.raises(ServiceRefused) as no_route:  # no way to report a result: it is read from the table
        school.client("ana").call("POST", f"api/tournaments/{code}/result", {"scores": [12, 0]})
    assert no_route.value.status == 404
    with pytest.raises(TournamentRefused) as wrong:
        prof.start_round(code, "guessed", 1)
    assert wrong.value.code == "not_host"
    assert prof.start_round(code, host, 1)["tables"] == 1
    mine = ana.my_table(code)
    assert mine["table"] == 1 and mine["table_code"] and mine["seat"] in (0, 1)
    assert bia.my_table(code)["table_code"] == mine["table_code"]
    with pytest.raises(TournamentRefused) as again:
        prof.start_round(code, host, 1)
    assert again.value.code == "round_started" and "1" in again.value.message("pt")
    board = prof.board(code)
    assert board["games"][0]["live"]["status"] == "playing"
    play_out(school.location, mine["table_code"], ["hub:ana", "hub:bia"])
    board = bia.board(code)
    assert board["status"] == "finished" and max(board["games"][0]["scores"]) >= 12
    assert [s["name"] for s in board["podium"]] and {s["unit"] for s in board["standings"]} == {"hub:ana", "hub:bia"}
    save = ana.game_save(code, 1, 1)
    assert games.load_state(save["game"], save["state"]).is_terminal()
    assert prof.export_csv(code, host, "en").startswith("Place,Player,Points")
    # another class's learner sees nothing of it
    status, _ = school.raw("caio", "GET", f"api/tournaments/{code}/board")
    assert status == 403


def test_learners_find_their_class_tournament_and_only_its_teacher_takes_it_back(school):
    prof, ana, caio = cup(school, "prof"), cup(school, "ana"), cup(school, "caio")
    opened = prof.open("turma-a", "", {"game": "mineiro", "players": "pairs", "rounds": 2, "seed": 8})
    code = opened["code"]
    assert [t["code"] for t in ana.mine()] == [code] and ana.mine()[0]["game"] == "mineiro"
    assert caio.mine() == []  # another class's learner
    assert [t["code"] for t in prof.of_class("turma-a")] == [code]
    with pytest.raises(ServiceRefused) as listing:  # a learner does not list them as its teacher does
        ana.of_class("turma-a")
    assert listing.value.status == 403
    with pytest.raises(NotAllowed):
        ana.resume("turma-a", "", code)
    back = prof.resume("turma-a", "", code)
    assert back["code"] == code and back["host_token"] != opened["host_token"]
    ana.my_table(code)
    assert prof.enrol_present(code, back["host_token"]) == ["hub:ana"]
    with pytest.raises(TournamentRefused) as old:
        prof.enrol_present(code, opened["host_token"])
    assert old.value.code == "not_host"
    with pytest.raises(Exception) as elsewhere:  # a tournament of turma-a is not turma-b's
        prof.resume("turma-b", "", code)
    assert getattr(elsewhere.value, "code", None) == "no_tournament" or isinstance(elsewhere.value, NotAllowed)
