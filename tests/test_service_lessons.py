"""Homework, skills and the live quiz through the class service (classroom.service's lessons
block, classroom.remote's clients), on SQLite and on a throwaway PostgreSQL.

The service runs in this process on its own loop and port (127.0.0.1); the kernels' client,
`RemoteClassroom`, asks it over HTTP with a hub token each. No hub here: `SchoolHub` answers
what the service asks the hub (whose token, who teaches, the groups), for a school of a
teacher (`prof`, in the teachers group), class `turma-a` (ana and bia) and class `turma-b`
(caio). tests/hub drives the same service through a real JupyterHub.
"""
from __future__ import annotations

import asyncio
import json
import threading
import urllib.request

import pytest

from cartas.scenario import encode_link, truco_scenario
from classroom.homework import HomeworkError
from classroom.live import LiveError
from classroom.remote import RemoteClassroom, ServiceRefused
from classroom.service import Classes, Service, make_app, open_store
from classroom.values import NotAllowed

DUE = "2030-12-20"
HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "Q♥", "J♥"], ["2♠", "3♠", "7♠"]]
QUESTION = {"lesson": "manilhas",
            "prompt": {"pt": "Vira 6: quais são as manilhas?", "en": "Vira 6: which are the manilhas?"},
            "options": [{"pt": "5", "en": "5"}, {"pt": "7", "en": "7"}, {"pt": "Q", "en": "Q"}],
            "answer": 1,
            "why": {"pt": "Depois do 6 vem o 7.", "en": "After 6 comes 7."}}


class SchoolHub:
    """What the hub answers the service about a small school (tokens, teachers, groups)."""

    teachers_group = "teachers"

    def __init__(self):
        self.tokens = {f"token-{name}": name for name in ("prof", "ana", "bia", "caio")}
        self.groups = {"teachers": ["prof"], "turma-a": ["ana", "bia"], "turma-b": ["caio"]}

    async def user_for_token(self, token: str) -> dict | None:
        name = self.tokens.get(token)
        return {"kind": "user", "name": name} if name else None

    async def user(self, name: str) -> dict:
        return {"name": name, "admin": False, "groups": [g for g, who in self.groups.items() if name in who]}

    async def is_teacher(self, name: str) -> bool:
        return name in self.groups[self.teachers_group]

    async def members(self, group: str) -> list[str] | None:
        return sorted(self.groups[group]) if group in self.groups else None

    async def classes(self) -> list[dict]:
        return [{"name": g, "members": sorted(m)} for g, m in self.groups.items() if g != self.teachers_group]


class School:
    """The class service on a thread of its own, and one client per hub user."""

    def __init__(self, location: str):
        self.location = location
        self.ready = threading.Event()
        self.port = 0
        self.failed: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.ready.wait(60) or self.failed is not None:
            raise RuntimeError(f"the service did not start: {self.failed!r}")

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as error:  # reported to the test
            self.failed = error
            self.ready.set()

    async def _serve(self) -> None:
        from tornado.httpserver import HTTPServer
        from tornado.netutil import bind_sockets
        store, listen, workers = open_store(self.location, 3)
        try:
            self.service = Service(Classes(store, workers), SchoolHub(), listen)  # type: ignore[arg-type]
            self.service.start()
            sockets = bind_sockets(0, "127.0.0.1")
            self.port = sockets[0].getsockname()[1]
            server = HTTPServer(make_app(self.service))
            server.add_sockets(sockets)
            self.stopping = asyncio.Event()
            self.loop = asyncio.get_running_loop()
            self.ready.set()
            await self.stopping.wait()
            server.stop()
            await server.close_all_connections()
        finally:
            store.close()

    def client(self, name: str) -> RemoteClassroom:
        return RemoteClassroom(f"http://127.0.0.1:{self.port}/", f"token-{name}", name)

    def raw(self, name: str, method: str, path: str, body: bytes | None = None) -> tuple[int, dict]:
        """A request as any program could send it (not through RemoteClassroom)."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/{path}", data=body, method=method,
                                         headers={"Authorization": f"token token-{name}"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(30)


@pytest.fixture(params=["sqlite", "postgresql"])
def school(request, tmp_path):
    location = (str(tmp_path / "service.db") if request.param == "sqlite"
                else request.getfixturevalue("postgres_url"))
    running = School(location)
    yield running
    running.stop()


def _refused(call) -> ServiceRefused:
    with pytest.raises(ServiceRefused) as caught:
        call()
    return caught.value


def truco_link() -> str:
    return encode_link(truco_scenario("paulista", HANDS, "K♠"))


def _homework(school: School) -> dict:
    return school.client("prof").homework().create(
        "turma-a", "Tarefa 1", DUE, 50,
        [{"kind": "lesson", "lesson": "manilhas", "need": 2}, {"kind": "scenario", "link": truco_link()},
         {"kind": "game", "game": "truco", "where": "bots"}])


# Homework ---------------------------------------------------------------------------------------
def test_a_teacher_composes_homework_for_a_hub_group_and_lists_the_classes_homework(school):
    made = _homework(school)
    teacher = school.client("prof").homework()
    assert made["class_code"] == "turma-a" and len(made["items"]) == 3
    assert [t["id"] for t in teacher.class_assignments("turma-a")] == [made["id"]]
    assert teacher.class_assignments("turma-b") == []
    assert teacher.assignment(made["id"])["items"][1]["answer"]  # the teacher sees the key
    assert _refused(lambda: teacher.class_assignments("no-such-group")).status == 404
    assert _refused(lambda: teacher.class_assignments("teachers")).status == 404


def test_a_learner_gets_403_on_the_teachers_homework_endpoints(school):
    made = _homework(school)
    ana = school.client("ana").homework()
    for call in (lambda: ana.create("turma-a", "Minha", DUE, 0, [{"kind": "game", "game": "21"}]),
                 lambda: ana.class_assignments("turma-a"),
                 lambda: ana.class_results(made["id"])):
        refused = _refused(call)
        assert (refused.status, refused.code) == (403, "teachers_only")
        assert refused.pt and refused.en
    assert school.client("prof").homework().class_assignments("turma-a")[0]["title"] == "Tarefa 1"


def test_a_learner_lists_her_own_classes_homework_without_the_answer_key_until_she_answers(school):
    made = _homework(school)
    ana, caio = school.client("ana").homework(), school.client("caio").homework()
    assert caio.learner_homework("hub:caio") == []
    (mine,) = ana.learner_homework("ignored: the service takes the learner from the token")
    assert mine["id"] == made["id"] and [s["done"] for s in mine["states"]] == [False, False, False]
    scenario = mine["items"][1]
    assert "answer" not in scenario and "reason" not in scenario and scenario["options"]
    verdict = ana.answer(made["id"], 1, "", scenario["options"][0])
    assert verdict["first"] and verdict["reason"]["pt"]
    (mine,) = ana.learner_homework("")
    assert mine["states"][1]["done"] and mine["items"][1]["answer"] == verdict["answer"]
    assert ana.assignment(made["id"])["states"][1]["done"]
    assert caio.assignment(made["id"]) == {"id": made["id"]}  # another class's: no more than it exists
    assert ana.assignment("ZZZZZZZZ") is None


def test_a_learner_records_her_own_item_and_the_teacher_reads_learners_by_items(school):
    made = _homework(school)
    # Ana's kernel names Bia in the body: the service takes the learner from the token.
    status, verdict = school.raw("ana", "POST", f"api/homework/{made['id']}/answer",
                                 json.dumps({"item": 2, "choice": "won", "learner": "hub:bia",
                                             "learner_id": "hub:bia"}).encode())
    assert status == 200 and verdict["correct"]
    results = school.client("prof").homework().class_results(made["id"])
    rows = {row["id"]: row for row in results["learners"]}
    assert sorted(rows) == ["ana", "bia"]  # every member of the group, by hub name
    assert rows["ana"]["states"][2]["done"] and rows["ana"]["states"][2]["right"]
    assert not any(s["done"] for s in rows["bia"]["states"])
    again = school.client("ana").homework().answer(made["id"], 2, "hub:ana", "lost")
    assert not again["first"] and again["correct"]  # only the first counts


def test_a_learner_cannot_record_homework_of_another_class(school):
    made = _homework(school)
    with pytest.raises(HomeworkError) as caught:
        school.client("caio").homework().answer(made["id"], 2, "hub:ana", "won")
    assert caught.value.code == "not_yours"
    rows = {r["id"]: r for r in school.client("prof").homework().class_results(made["id"])["learners"]}
    assert not any(s["done"] for row in rows.values() for s in row["states"])


def test_a_lesson_item_counts_the_right_answers_she_records_through_the_service(school):
    made = _homework(school)
    ana = school.client("ana")
    ana.record("manilhas", [True, False, True], ["manilhas_from_vira"] * 3)
    school.client("bia").record("manilhas", [True], ["manilhas_from_vira"])
    rows = {r["id"]: r for r in school.client("prof").homework().class_results(made["id"])["learners"]}
    assert rows["ana"]["states"][0]["done"] and rows["ana"]["states"][0]["count"] == 2
    assert not rows["bia"]["states"][0]["done"] and rows["bia"]["states"][0]["count"] == 1


@pytest.mark.parametrize("body, why", [
    ({"item": True, "choice": "won"}, "item"),
    ({"item": "2", "choice": "won"}, "item"),
    ({"item": 10 ** 30, "choice": "won"}, "item"),
    ({"item": 2, "choice": "w" * 41}, "choice"),
    ({"item": 2, "choice": ["won"]}, "choice"),
])
def test_a_homework_answer_of_the_wrong_shape_or_size_is_refused_naming_the_field(school, body, why):
    made = _homework(school)
    status, refused = school.raw("ana", "POST", f"api/homework/{made['id']}/answer", json.dumps(body).encode())
    assert status == 400 and refused["error"] == "bad_request" and why in refused["en"] and refused["pt"]


def test_a_malformed_assignment_or_id_is_refused_with_the_homework_code(school):
    teacher = school.client("prof").homework()
    with pytest.raises(HomeworkError) as caught:
        teacher.create("turma-a", "", DUE, 50, [{"kind": "game", "game": "truco"}])
    assert caught.value.code == "bad_title"
    with pytest.raises(HomeworkError) as caught:
        teacher.create("turma-a", "T", "amanhã", 50, [{"kind": "game", "game": "truco"}])
    assert caught.value.code == "bad_due"
    status, refused = school.raw("ana", "POST", "api/homework/not-an-id/answer",
                                 json.dumps({"item": 0, "choice": "won"}).encode())
    assert status == 400 and refused["error"] == "bad_id" and refused["family"] == "homework"
    assert school.raw("prof", "POST", "api/homework", b"[1, 2]")[0] == 400


# Skills ---------------------------------------------------------------------------------------
def test_a_learner_reads_her_own_levels_and_review_the_teacher_her_class(school):
    ana = school.client("ana")
    ana.record("manilhas", [True] * 5, ["manilhas_from_vira"] * 5)
    ana.record("truco_rodadas", [False], ["tied_hand"])
    mine = ana.mastery()
    assert mine.learner_levels("hub:bia")["manilhas_from_vira"]["level"] == "mastered"  # hers, whoever is named
    assert mine.due_skills("hub:bia") == ["tied_hand"]     # box 1: due at once
    assert school.client("bia").mastery().learner_levels("") == {}
    levels = school.client("prof").mastery().class_levels("turma-a")
    assert levels["learners"] == {"ana": {"manilhas_from_vira": "mastered", "tied_hand": "attempted"}}
    assert levels["hardest"][0] == "tied_hand"
    refused = _refused(lambda: mine.class_levels("turma-a"))
    assert (refused.status, refused.code) == (403, "teachers_only")


def test_an_answer_naming_an_unknown_skill_is_refused_and_nothing_is_recorded(school):
    status, refused = school.raw("ana", "POST", "api/progress/ana",
                                 json.dumps({"lesson": "manilhas", "answers": [True],
                                             "skills": ["flying"]}).encode())
    assert status == 400 and "skills" in refused["en"]
    assert school.client("ana").progress() == {}


# The live quiz --------------------------------------------------------------------------------
def _live(school: School) -> tuple[dict, object]:
    teacher = school.client("prof").live()
    session = teacher.start("turma-a")
    return session, teacher


def test_a_teacher_runs_a_live_question_and_reads_the_histogram_and_leaderboard(school):
    session, teacher = _live(school)
    code, host = session["code"], session["host_token"]
    ana, bia = school.client("ana").live(), school.client("bia").live()
    assert ana.join(code)["points"] == 0 and bia.join(code)["first_number"] == 1
    number = teacher.ask(code, host, QUESTION, 20)
    assert ana.question(code)["open"] and "answer" not in ana.question(code)
    right = ana.answer(code, "hub:bia", number, 1)   # as herself, whoever is named
    assert right["correct"] and right["points"] > 500
    assert not bia.answer(code, "", number, 0)["correct"]
    teacher.close(code, host)
    board = teacher.board(code)
    assert board["counts"] == [1, 1, 0] and board["answered"] == 2 and not board["open"]
    assert [(p["name"], p["points"] > 0) for p in board["leaders"]] == [("ana", True), ("bia", False)]
    assert ana.question(code)["mine"]["correct"] and ana.question(code)["answer"] == 1
    assert school.client("ana").progress()["manilhas"]["asked"] == 1   # it joins her progress
    teacher.end(code, host)
    assert ana.question(code)["ended"]


def test_a_learner_gets_403_on_the_projectors_endpoints(school):
    session, teacher = _live(school)
    code, host = session["code"], session["host_token"]
    ana = school.client("ana").live()
    with pytest.raises(NotAllowed):
        ana.start("turma-a")
    for call in (lambda: ana.ask(code, host, QUESTION, 20), lambda: ana.close(code, host),
                 lambda: ana.end(code, host), lambda: ana.board(code)):
        refused = _refused(call)
        assert (refused.status, refused.code) == (403, "teachers_only")
    assert teacher.board(code)["number"] == 0   # nothing was asked
    with pytest.raises(LiveError) as caught:
        teacher.ask(code, "not the host token", QUESTION, 20)
    assert caught.value.code == "not_host"


def test_each_learner_answers_once_as_herself_and_only_in_her_own_class(school):
    session, teacher = _live(school)
    code, host = session["code"], session["host_token"]
    ana, bia, caio = (school.client(n).live() for n in ("ana", "bia", "caio"))
    ana.join(code)
    with pytest.raises(LiveError) as caught:
        caio.join(code)
    assert caught.value.code == "other_class"
    number = teacher.ask(code, host, QUESTION, 20)
    ana.answer(code, "", number, 1)
    with pytest.raises(LiveError) as caught:
        ana.answer(code, "", number, 0)
    assert caught.value.code == "already_answered"
    with pytest.raises(LiveError) as caught:   # Bia has not joined: Ana's answer was not hers
        bia.answer(code, "hub:ana", number, 1)
    assert caught.value.code == "not_joined"
    assert teacher.board(code)["counts"] == [0, 1, 0]


@pytest.mark.parametrize("body, why", [
    ({"number": True, "choice": 1}, "number"),
    ({"number": 1, "choice": 99}, "choice"),
    ({"number": 1, "choice": "1"}, "choice"),
    ({"number": 10 ** 30, "choice": 1}, "number"),
])
def test_a_live_answer_of_the_wrong_shape_is_refused_naming_the_field(school, body, why):
    session, teacher = _live(school)
    school.client("ana").live().join(session["code"])
    teacher.ask(session["code"], session["host_token"], QUESTION, 20)
    status, refused = school.raw("ana", "POST", f"api/live/{session['code']}/answer", json.dumps(body).encode())
    assert status == 400 and why in refused["en"] and refused["pt"]
    assert teacher.board(session["code"])["answered"] == 0


def test_a_bad_session_code_or_question_is_refused_with_the_quizs_code(school):
    session, teacher = _live(school)
    status, refused = school.raw("ana", "POST", "api/live/!!/join", b"{}")
    assert status == 400 and refused["error"] == "bad_code" and refused["family"] == "live"
    with pytest.raises(LiveError) as caught:
        teacher.ask(session["code"], session["host_token"], {**QUESTION, "answer": 7}, 20)
    assert caught.value.code == "bad_question"
    status, refused = school.raw("prof", "POST", f"api/live/{session['code']}/ask",
                                 json.dumps({"host_token": session["host_token"], "question": QUESTION,
                                             "seconds": 10 ** 6}).encode())
    assert status == 400 and "seconds" in refused["en"]
    with pytest.raises(LiveError) as caught:
        school.client("ana").live().join("ZZZZ")
    assert caught.value.code == "no_session"
