"""Homework, skills and the live quiz through the class service (classroom.service's lessons
block, classroom.remote's clients), on SQLite and on a throwaway PostgreSQL.

The service runs in this process on its own loop and port (tests/school_service.py); the
kernels' client, `RemoteClassroom`, asks it over HTTP with a hub token each, for a school of a
teacher (`prof`), class `turma-a` (ana and bia) and class `turma-b` (caio). No hub here:
tests/hub drives the same service through a real JupyterHub.
"""
from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from school_service import School

from cartas.scenario import encode_link, truco_scenario
from classroom import homework
from classroom.homework import HomeworkError
from classroom.interface import ServiceClassroom
from classroom.live import LiveError
from classroom.remote import ServiceRefused
from classroom.values import NotAllowed

DUE = "2030-12-20"
HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "Q♥", "J♥"], ["2♠", "3♠", "7♠"]]
QUESTION = {"lesson": "manilhas",
            "prompt": {"pt": "Vira 6: quais são as manilhas?", "en": "Vira 6: which are the manilhas?"},
            "options": [{"pt": "5", "en": "5"}, {"pt": "7", "en": "7"}, {"pt": "Q", "en": "Q"}],
            "answer": 1,
            "why": {"pt": "Depois do 6 vem o 7.", "en": "After 6 comes 7."}}


def for_store(client):
    """A hub user's homework, as her kernel's classroom (`classroom.open()`) asks it."""
    return ServiceClassroom(client).homework()


def _refused(call) -> ServiceRefused:
    with pytest.raises(ServiceRefused) as caught:
        call()
    return caught.value


def truco_link() -> str:
    return encode_link(truco_scenario("paulista", HANDS, "K♠"))


def _homework(school: School) -> dict:
    return for_store(school.client("prof")).create(
        "turma-a", "Tarefa 1", DUE, 50,
        [{"kind": "lesson", "lesson": "manilhas", "need": 2}, {"kind": "scenario", "link": truco_link()},
         {"kind": "game", "game": "truco", "where": "bots"}])


# Homework ---------------------------------------------------------------------------------------
def test_a_teacher_composes_homework_for_a_hub_group_and_lists_the_classes_homework(school):
    made = _homework(school)
    teacher = for_store(school.client("prof"))
    assert made["class_code"] == "turma-a" and len(made["items"]) == 3
    assert [t["id"] for t in teacher.class_assignments("turma-a")] == [made["id"]]
    assert teacher.class_assignments("turma-b") == []
    assert teacher.assignment(made["id"])["items"][1]["answer"]  # the teacher sees the key
    assert _refused(lambda: teacher.class_assignments("no-such-group")).status == 404
    assert _refused(lambda: teacher.class_assignments("teachers")).status == 404


def test_a_learner_gets_403_on_the_teachers_homework_endpoints(school):
    made = _homework(school)
    ana = for_store(school.client("ana"))
    for call in (lambda: ana.create("turma-a", "Minha", DUE, 0, [{"kind": "game", "game": "21"}]),
                 lambda: ana.class_assignments("turma-a"),
                 lambda: ana.class_results(made["id"])):
        refused = _refused(call)
        assert (refused.status, refused.code) == (403, "teachers_only")
        assert refused.pt and refused.en
    assert for_store(school.client("prof")).class_assignments("turma-a")[0]["title"] == "Tarefa 1"


def test_a_learner_lists_her_own_classes_homework_without_the_answer_key_until_she_answers(school):
    made = _homework(school)
    ana, caio = for_store(school.client("ana")), for_store(school.client("caio"))
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


def test_the_service_hides_the_figures_until_she_answers_and_counts_a_near_best_card_right(school):
    """docs/rules.md#homework-near-best through the class service: the options' figures and the
    accepted ones stay hidden until she answers; Q♠, within the coach's margin of 7♠, is right,
    K♦ is not (the strong player's figures), and the teacher's results say the same."""
    near_hands = [["6♥", "Q♣", "A♠"], ["Q♠", "7♠", "K♦"], ["Q♥", "4♠", "6♣"], ["6♦", "K♥", "5♣"]]
    made = for_store(school.client("prof")).create(
        "turma-a", "Quase", DUE, 50, [{"kind": "scenario", "link": encode_link(truco_scenario(
            "paulista", near_hands, "A♣"))}])
    ana, bia = for_store(school.client("ana")), for_store(school.client("bia"))
    (mine,) = ana.learner_homework("")
    hidden = mine["items"][0]
    assert not {"answer", "reason", "values", "accepted", "figure"} & set(hidden)
    assert ana.answer(made["id"], 0, "", "Q♠")["correct"] is True
    assert bia.answer(made["id"], 0, "", "K♦")["correct"] is False
    (mine,) = ana.learner_homework("")
    assert mine["items"][0]["accepted"] == ["Q♠", "7♠"] and set(mine["items"][0]["values"]) == {"Q♠", "7♠", "K♦"}
    results = for_store(school.client("prof")).class_results(made["id"])
    rights = {row["name"]: row["states"][0]["right"] for row in results["learners"]}
    assert rights["ana"] is True and rights["bia"] is False


def test_a_learner_records_her_own_item_and_the_teacher_reads_learners_by_items(school):
    made = _homework(school)
    (mine,) = for_store(school.client("ana")).learner_homework("")
    options = mine["items"][1]["options"]
    # Ana's kernel names Bia in the body: the service takes the learner from the token.
    status, verdict = school.raw("ana", "POST", f"api/homework/{made['id']}/answer",
                                 json.dumps({"item": 1, "choice": options[0], "learner": "hub:bia",
                                             "learner_id": "hub:bia"}).encode())
    assert status == 200 and verdict["first"]
    results = for_store(school.client("prof")).class_results(made["id"])
    rows = {row["id"]: row for row in results["learners"]}
    assert sorted(rows) == ["ana", "bia"]  # every member of the group, by hub name
    assert rows["ana"]["states"][1]["done"] and rows["ana"]["states"][1]["right"] == verdict["correct"]
    assert not any(s["done"] for s in rows["bia"]["states"])
    again = for_store(school.client("ana")).answer(made["id"], 1, "hub:ana", options[-1])
    assert not again["first"] and again["correct"] == verdict["correct"]  # only the first counts


def _bot_game(seed: int):
    from cartas.games import find_game
    spec = find_game("paulista")
    state = spec.new_game(seed)
    bots = [spec.bot(seat) for seat in range(state.players)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_seat].choose(state.view(state.current_seat)), state.current_seat)
    return spec, state


def test_a_finished_bot_game_her_kernel_sends_and_her_word_never_count_under_the_service(school):
    """Only a game the service deals counts there (issue 33, item 1: tests/test_service_homework_games.py)."""
    made = _homework(school)
    ana = for_store(school.client("ana"))
    with pytest.raises(HomeworkError) as caught:  # "won" said for a game item: refused
        ana.answer(made["id"], 2, "hub:ana", "won")
    assert caught.value.code == "by_game"
    spec, state = _bot_game(5)
    status, refused = school.raw("ana", "POST", f"api/homework/{made['id']}/game",  # a whole game her kernel played
                                json.dumps({"item": 2, "game": "paulista", "state": state.to_json()}).encode())
    assert (status, refused["error"]) == (409, "service_deals")  # refused, never replayed
    status, refused = school.raw("ana", "POST", f"api/homework/{made['id']}/game",
                                json.dumps({"item": 2, "game": "paulista", "state": "x" * 70_000}).encode())
    assert (status, refused["error"]) == (413, "too_large")  # longer than a game can be: refused unread
    rows = {row["id"]: row for row in for_store(school.client("prof")).class_results(made["id"])["learners"]}
    assert not rows["ana"]["states"][2]["done"]


def test_a_learner_cannot_record_homework_of_another_class(school):
    made = _homework(school)
    with pytest.raises(HomeworkError) as caught:
        for_store(school.client("caio")).answer(made["id"], 2, "hub:ana", "won")
    assert caught.value.code == "not_yours"
    rows = {r["id"]: r for r in for_store(school.client("prof")).class_results(made["id"])["learners"]}
    assert not any(s["done"] for row in rows.values() for s in row["states"])


def test_a_lesson_item_counts_the_right_answers_she_records_through_the_service(school):
    made = _homework(school)
    ana = school.client("ana")
    ana.record("manilhas", [True, False, True], ["manilhas_from_vira"] * 3)
    school.client("bia").record("manilhas", [True], ["manilhas_from_vira"])
    rows = {r["id"]: r for r in for_store(school.client("prof")).class_results(made["id"])["learners"]}
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
    teacher = for_store(school.client("prof"))
    with pytest.raises(HomeworkError) as caught:
        teacher.create("turma-a", "", DUE, 50, [{"kind": "game", "game": "truco"}])
    assert caught.value.code == "bad_title"
    with pytest.raises(HomeworkError) as caught:  # too long: refused with its length, never cut
        teacher.create("turma-a", "x" * (homework.MAX_TITLE + 1), DUE, 50, [{"kind": "game", "game": "truco"}])
    assert caught.value.code == "long_title" and caught.value.fields["count"] == homework.MAX_TITLE + 1
    whole = "Semana 3: manilhas, truco e uma partida de 21 contra os robôs"
    assert teacher.create("turma-a", whole, DUE, 50, [{"kind": "game", "game": "truco"}])["title"] == whole
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
    teacher = school.client("prof").live(LiveError)
    session = teacher.start("turma-a")
    return session, teacher


def test_a_teacher_runs_a_live_question_and_reads_the_histogram_and_leaderboard(school):
    session, teacher = _live(school)
    code, host = session["code"], session["host_token"]
    ana, bia = school.client("ana").live(LiveError), school.client("bia").live(LiveError)
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
    ana = school.client("ana").live(LiveError)
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
    ana, bia, caio = (school.client(n).live(LiveError) for n in ("ana", "bia", "caio"))
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
    school.client("ana").live(LiveError).join(session["code"])
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
        school.client("ana").live(LiveError).join("ZZZZ")
    assert caught.value.code == "no_session"
    for group in ("no-such-group", "teachers", "x" * 200):   # not a class: no session
        with pytest.raises(NotAllowed):
            teacher.start(group)


def test_the_service_stamps_an_answers_time_whatever_time_the_kernel_sends(school):
    session, teacher = _live(school)
    code, host = session["code"], session["host_token"]
    school.client("ana").live(LiveError).join(code)
    number = teacher.ask(code, host, QUESTION, 20)
    opened = time.time()
    teacher.close(code, host)
    status, refused = school.raw("ana", "POST", f"api/live/{code}/answer", json.dumps(
        {"number": number, "choice": 1, "at": opened, "elapsed": 0.1}).encode())
    assert (status, refused["error"]) == (409, "closed")   # too late by the store's clock
    assert teacher.board(code)["answered"] == 0


def test_forty_learners_answering_at_once_through_the_service_lose_none_and_count_none_twice(school):
    teacher = school.client("prof").live(LiveError)
    session = teacher.start("turma-c")
    code, host = session["code"], session["host_token"]
    crowd = [school.client(f"aluno{i:02d}").live(LiveError) for i in range(40)]
    for phone in crowd:
        phone.join(code)
    number = teacher.ask(code, host, QUESTION, 60)

    def answer_twice(k: int) -> tuple[bool, str]:
        phone = crowd[k]
        phone.answer(code, "", number, k % 3)
        try:
            phone.answer(code, "", number, (k + 1) % 3)
            return True, ""
        except LiveError as error:
            return False, error.code
    with ThreadPoolExecutor(40) as pool:
        seconds = list(pool.map(answer_twice, range(40)))
    assert seconds == [(False, "already_answered")] * 40
    board = teacher.board(code)
    assert board["answered"] == 40 and board["counts"] == [14, 13, 13] and board["players"] == 40


def test_a_tables_homework_is_asked_only_by_a_learner_seated_there_and_waits_for_its_end(school):
    made = for_store(school.client("prof")).create("turma-a", "Mesa", DUE, 50,
                                                   [{"kind": "game", "game": "truco", "where": "table"}])
    table = school.client("ana").create_table("paulista", seats=4, **{"class": "turma-a"})
    code = table["code"]
    refused = _refused(lambda: for_store(school.client("bia")).table_game_over(code))
    assert (refused.status, refused.code) == (403, "not_seated")
    assert for_store(school.client("ana")).table_game_over(code) == []  # not finished: nothing written
    rows = {r["id"]: r for r in for_store(school.client("prof")).class_results(made["id"])["learners"]}
    assert not rows["ana"]["states"][0]["done"]
