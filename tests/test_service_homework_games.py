"""Homework games against the bots through the class service (issue 33, items 1 and 4): the
service deals and plays them on a homework table of its own; a finished game a kernel sends is
refused before it is replayed; one learner's flood of such games does not slow a classmate.

The service runs in this process (tests/school_service.py), on SQLite and on a throwaway
PostgreSQL; a flood comes from other processes, as other kernels' would."""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import urllib.request

import pytest
from school_service import School
from test_homework_forged import forged_truco, long_21

from cartas.games import find_game
from classroom.homework import HomeworkError
from classroom.interface import ServiceClassroom
from classroom.remote import ServiceRefused

DUE = "2030-12-20"


def _refused(call) -> ServiceRefused | HomeworkError:
    with pytest.raises((ServiceRefused, HomeworkError)) as caught:
        call()
    return caught.value


def homework_of(school: School, name: str):
    """`name`'s homework, through the class service (what her kernel's pages call)."""
    return ServiceClassroom(school.client(name)).homework()


def _results(school: School, task: str) -> dict:
    return {row["id"]: row["states"][0] for row in homework_of(school, "prof").class_results(task)["learners"]}


def test_a_finished_game_her_kernel_sends_never_counts_under_the_service(school):
    """Issue 33, item 1: a game where she chose every seat's moves, or set up at 11 to 0, counted."""
    task = homework_of(school, "prof").create("turma-a", "Robôs", DUE, 100,
                                                   [{"kind": "game", "game": "truco", "goal": "win"}])
    ana = homework_of(school, "ana")
    every_seat, _ = forged_truco(2)
    eleven = json.loads(every_seat)
    eleven["setup"]["score"] = [11, 0]
    assert not hasattr(ana, "finish_game")   # the kernel's homework service offers no way to hand a game in
    for text in (every_seat, json.dumps(eleven)):   # as kernels of older versions sent it
        status, body = school.raw("ana", "POST", f"api/homework/{task['id']}/game",
                                  json.dumps({"item": 0, "game": "paulista", "state": text}).encode())
        assert (status, body["error"]) == (409, "service_deals")
        assert "página da tarefa" in body["pt"] and "homework's page" in body["en"]
    assert not _results(school, task["id"])["ana"]["done"]


def test_the_service_deals_her_homework_table_plays_the_bots_and_records_its_end(school):
    """Issue 33, item 1: the service holds the seed and the bots; her kernel sends only her
    moves and gets her seat's view; the table is hers alone; its end records the item."""
    task = homework_of(school, "prof").create("turma-a", "Robôs", DUE, 50,
                                                   [{"kind": "game", "game": "21", "where": "bots"}])
    ana_hw, ana = homework_of(school, "ana"), school.client("ana")
    view = ana_hw.bot_table(task["id"], 0, "hub:ana", seats=3, options={"rounds": 1}, pace=0.2)
    code = view["code"]
    assert (view["seat"], view["status"], view["game"]) == (0, "playing", "21")
    sent = json.dumps(view)
    assert '"seed"' not in sent and '"state"' not in sent and '"deck"' not in sent
    assert ana_hw.bot_table(task["id"], 0, "hub:ana")["code"] == code       # a reload: her open table, no new deal
    refused = _refused(lambda: school.client("bia").join(code, 1))
    assert (refused.status, refused.code) == (409, "homework_table")
    refused = _refused(lambda: ana.leave(code))                 # her seat would be a bot's
    assert (refused.status, refused.code) == (409, "homework_table")
    assert code not in [t["code"] for t in school.client("prof").class_tables("turma-a")]
    status, _ = school.raw("caio", "POST", f"api/homework/{task['id']}/table", json.dumps({"item": 0}).encode())
    assert status == 403                                          # another class's homework
    end = time.monotonic() + 120
    while view["status"] != "finished":
        assert time.monotonic() < end, "the game did not end"
        if view["current_seat"] == 0 and view["legal"]:
            moves = [m["action"] for m in view["legal"]]
            view = ana.move(code, next((m for m in moves if m == "stand"), moves[0]), view["version"])
        else:
            view = ana.watch(code, view["version"], wait=10)
    result = view["result"]
    won = 0 in result["winners"]
    while not _results(school, task["id"])["ana"]["done"]:   # recorded by the service itself, nobody asking
        assert time.monotonic() < end, "the item was not recorded"
        ana.watch(code, view["version"], wait=0.2)
    state = _results(school, task["id"])["ana"]
    assert state["right"] and state["choice"] == ("won" if won else "lost")
    assert not _results(school, task["id"])["bia"]["done"]
    refused = _refused(lambda: ana_hw.bot_table(task["id"], 0, "hub:ana"))  # the first result is final: no new deal
    assert refused.code == "item_done"


def test_a_learners_homework_game_requests_are_limited(school):
    task = homework_of(school, "prof").create("turma-a", "Robôs", DUE, 50, [{"kind": "game", "game": "truco"}])
    statuses = [school.raw("bia", "POST", f"api/homework/{task['id']}/game", b"{}")[0] for _ in range(12)]
    assert statuses[0] == 409 and statuses[-1] == 429
    tables = [school.raw("bia", "POST", f"api/homework/{task['id']}/table", json.dumps({"item": 0}).encode())
              for _ in range(12)]
    assert tables[0][0] == 200 and tables[-1][0] == 429 and tables[-1][1]["error"] == "too_many_requests"
    assert len({body["code"] for status, body in tables if status == 200}) == 1  # one table, given back
    assert school.raw("ana", "POST", f"api/homework/{task['id']}/game", b"{}")[0] == 409  # hers only


FLOOD = """
import sys, threading, urllib.request, urllib.error
port, path, body = int(sys.argv[1]), sys.argv[2], open(sys.argv[3], "rb").read()
def post():
    request = urllib.request.Request(f"http://127.0.0.1:{port}/{path}", data=body, method="POST",
                                     headers={"Authorization": "token token-ana"})
    try:
        urllib.request.urlopen(request, timeout=30).read()
    except urllib.error.HTTPError as error:
        error.read()
    except OSError:   # refused unread: the service closed the connection while the body was sent
        pass
post()
print("flooding", flush=True)
def loop():
    while True:
        post()
for _ in range(4):
    threading.Thread(target=loop, daemon=True).start()
sys.stdin.read()
"""


def _plain(school: School, count: int) -> list[float]:
    """How long each of `count` plain requests of a classmate takes: bia opens her homework
    (`GET api/homework`, answered on the store's threads, as a replay was)."""
    seen = []
    for _ in range(count):
        request = urllib.request.Request(f"http://127.0.0.1:{school.port}/api/homework",
                                         headers={"Authorization": "token token-bia"})
        began = time.perf_counter()
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
        seen.append(time.perf_counter() - began)
    return seen


def test_one_learners_flood_of_long_games_does_not_slow_a_classmate(school, tmp_path):
    """Issue 33, item 4: four connections of one learner sending a 6,000-action game each, again
    and again, raised a classmate's plain request from 7 ms to 475 ms (median)."""
    task = homework_of(school, "prof").create("turma-a", "Robôs", DUE, 50, [{"kind": "game", "game": "21"}])
    payload = tmp_path / "game.json"
    text = long_21(6_000)
    payload.write_text(json.dumps({"item": 0, "game": "21", "state": text}))
    began = time.perf_counter()
    status, body = school.raw("ana", "POST", f"api/homework/{task['id']}/game", payload.read_bytes())
    answered = time.perf_counter() - began
    began = time.perf_counter()
    find_game("21").from_json(text)
    replay = time.perf_counter() - began
    assert (status, body["error"]) == (409, "service_deals") and answered < replay  # refused, not replayed
    before = statistics.median(_plain(school, 40))
    flood = subprocess.Popen([sys.executable, "-c", FLOOD, str(school.port), f"api/homework/{task['id']}/game",
                              str(payload)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert flood.stdout is not None and flood.stdout.readline().strip() == "flooding"
        during = statistics.median(_plain(school, 40))
    finally:
        flood.kill()
        flood.wait(10)
    print(f"a classmate's plain request, median: {1000 * before:.1f} ms, {1000 * during:.1f} ms during the flood")
    assert during < max(5 * before, before + 0.2), (before, during)   # generous: the machine may be loaded
