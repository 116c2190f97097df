"""A check before and after (issue 32, item 4; classroom.checks): the store on both back ends,
the question selection, the normalized gain, matched results, the misconceptions that vanished
and stayed, and the refusals of what a page forges."""
from __future__ import annotations

import threading

import pytest

from cartas.questions import SLIP, find_kind
from classroom import checks
from classroom.answers import value_text
from classroom.checks import CheckError, StoreChecks, gain, make_question
from classroom.identity import Learner
from classroom.interface import StoreClassroom
from classroom.progress import open_store

CLASS = "AB23CD"
SKILLS = ["manilhas_from_vira", "score_21_hand"]


def pick(item: dict, how: str) -> str:
    """The value (as text) to choose: "right", a named misconception ("wrong"), or a slip."""
    q = make_question(item)
    if how == "right":
        return value_text(q.answer)
    named = [c for c in q.choices if c.misconception not in (None, SLIP)]
    wrong = [c for c in q.choices if c.misconception is not None]
    return value_text((named or wrong)[0].value)


def find(question, text: str):
    return next(c.value for c in question.choices if value_text(c.value) == text)


def test_rule_check_gain_is_normalized_and_none_when_before_is_all_right():
    """docs/rules.md#check-gain"""
    assert gain(0.5, 0.75) == pytest.approx(0.5)
    assert gain(0.2, 0.2) == 0.0
    assert gain(0.6, 0.4) == pytest.approx(-0.5)
    assert gain(1.0, 1.0) is None and gain(1.0, 0.5) is None
    assert gain(None, 0.5) is None


def test_rule_check_asks_the_same_kinds_with_other_deals_after():
    """docs/rules.md#check-before-after"""
    before, after = checks.plan(SKILLS, 10, 1), checks.plan(SKILLS, 10, 2)
    assert [i["kind"] for i in before] == [i["kind"] for i in after]
    assert {find_kind(i["kind"]).skill for i in before} == set(SKILLS)
    assert [i["seed"] for i in before] != [i["seed"] for i in after]
    assert checks.plan(SKILLS, 10, 1) == before  # seeded: made again the same


def test_a_check_is_opened_taken_and_matched_on_both_back_ends(store_location):
    store = open_store(store_location)
    service = StoreChecks(store, seed=5)
    made = service.open(CLASS, SKILLS, 8)
    assert made["phase"] == "before" and made["size"] == 8 and made["seeds"]["before"] != made["seeds"]["after"]
    ana, bia, caio = (Learner(f"browser-{n}-01", n.title(), CLASS) for n in ("ana", "bia", "caio"))
    take = service.take(ana, made["id"])
    assert len(take["questions"]) == 8 and not take["done"]["before"]
    assert all(set(q) == {"kind", "variant", "seed"} for q in take["questions"])  # nothing of what is right
    # before: ana all wrong (named misconceptions), bia half right, caio right but never comes back
    items = take["questions"]
    sent = service.submit(ana, made["id"], "before", [pick(i, "wrong") for i in items])
    assert sent == {"id": made["id"], "phase": "before", "counted": 8}  # no verdict
    service.submit(bia, made["id"], "before", [pick(i, "right" if n % 2 else "wrong") for n, i in enumerate(items)])
    service.submit(caio, made["id"], "before", [pick(i, "right") for i in items])
    with pytest.raises(CheckError) as refused:
        service.submit(ana, made["id"], "before", [pick(i, "right") for i in items])
    assert refused.value.code == "already_done"
    with pytest.raises(CheckError) as refused:
        service.submit(ana, made["id"], "after", [pick(i, "right") for i in items])
    assert refused.value.code == "phase_closed"
    assert service.take(ana, made["id"])["questions"] == []
    # after: other deals of the same kinds
    service.open_after(CLASS, made["id"])
    later = service.take(ana, made["id"])["questions"]
    assert [i["kind"] for i in later] == [i["kind"] for i in items] and later != items
    with pytest.raises(CheckError) as refused:
        service.submit(bia, made["id"], "before", [pick(i, "right") for i in items])
    assert refused.value.code == "phase_closed"
    service.submit(ana, made["id"], "after", [pick(i, "right") for i in later])
    service.submit(bia, made["id"], "after", [pick(i, "right" if n % 2 else "wrong") for n, i in enumerate(later)])
    found = service.results(CLASS, made["id"])
    assert found["matched"] == 2  # caio took only the before phase
    assert found["class"]["before"] == pytest.approx(0.25) and found["class"]["after"] == pytest.approx(0.75)
    assert found["class"]["gain"] == pytest.approx((0.75 - 0.25) / 0.75)
    first, second = (found["by_skill"][s] for s in SKILLS)  # bia: the first skill wrong both times
    assert (first["before"], first["after"], first["gain"]) == (0.0, 0.5, 0.5)
    assert (second["before"], second["after"], second["gain"]) == (0.5, 1.0, 1.0)
    for skill in SKILLS:
        assert found["by_skill"][skill]["name"]["pt"] and found["by_skill"][skill]["name"]["en"]
    # ana's misconceptions vanished unless bia still shows them
    bia_after = {make_question(i).misconception(find(make_question(i), pick(i, "wrong")))
                 for n, i in enumerate(later) if not n % 2}
    stayed = {e["key"] for e in found["stayed"]}
    vanished = {e["key"] for e in found["vanished"]}
    assert stayed and vanished and not stayed & vanished
    assert stayed <= bia_after
    twenty_one = set(find_kind("vinte_e_um_pontos.worth").misconceptions)
    assert vanished & twenty_one and not stayed & twenty_one  # the second skill's: only ana had them
    for entry in found["vanished"] + found["stayed"]:
        assert entry["name"]["pt"] != entry["name"]["en"] and entry["before"] >= 1
    assert {row["name"] for row in found["learners"]} == {"Ana", "Bia"}


def test_forged_ids_phases_and_choices_are_refused_naming_them(tmp_path):
    store = open_store(str(tmp_path / "c.db"))
    service = StoreChecks(store, seed=1)
    made = service.open(CLASS, SKILLS, 8)
    ana = Learner("browser-ana-01", "Ana", CLASS)
    items = service.take(ana, made["id"])["questions"]
    good = [pick(i, "right") for i in items]
    cases = [
        (lambda: service.submit(ana, "ZZZZZZZZ", "before", good), "bad_id"),
        (lambda: service.submit(ana, "x'; DROP", "before", good), "bad_id"),
        (lambda: service.submit(ana, made["id"], "during", good), "bad_phase"),
        (lambda: service.submit(ana, made["id"], "before", good[:-1]), "bad_answers"),
        (lambda: service.submit(ana, made["id"], "before", [*good[:-1], "no such card"]), "bad_choice"),
        (lambda: service.submit(ana, made["id"], "before", [*good[:-1], 3]), "bad_choice"),
        (lambda: service.submit(Learner("browser-zoe-01", "Zoe", "ZZ99ZZ"), made["id"], "before", good),
         "other_class"),
        (lambda: service.submit(Learner("browser-zoe-01", "Zoe"), made["id"], "before", good), "no_class"),
        (lambda: service.results("ZZ99ZZ", made["id"]), "other_class"),
        (lambda: service.open(CLASS, ["no_such_skill"], 8), "bad_skills"),
        (lambda: service.open(CLASS, SKILLS, 7), "bad_size"),
        (lambda: service.open(CLASS, SKILLS, 13), "bad_size"),
    ]
    for call, code in cases:
        with pytest.raises(CheckError) as refused:
            call()
        assert refused.value.code == code
        assert refused.value.message("pt") and refused.value.message("en")
    assert "no such card" in CheckError("bad_choice", choice="'no such card'", number=8).message("en")
    assert service.results(CLASS, made["id"])["matched"] == 0


def test_two_submissions_at_once_count_exactly_once(store_location):
    store = open_store(store_location)
    service = StoreChecks(store, seed=3)
    made = service.open(CLASS, SKILLS, 8)
    ana = Learner("browser-ana-01", "Ana", CLASS)
    items = service.take(ana, made["id"])["questions"]
    chosen = [pick(i, "right") for i in items]
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def send():
        barrier.wait()
        try:
            service.submit(ana, made["id"], "before", chosen)
            outcomes.append("counted")
        except CheckError as error:
            outcomes.append(error.code)
    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["already_done", "counted"]
    from classroom.answers import answers_of
    assert len(answers_of(store, ana.key, context=f"check:{made['id']}:before")) == 8


def test_the_classroom_in_this_process_gives_its_checks(store_location):
    room = StoreClassroom(open_store(store_location))
    made = room.checks().open(CLASS, SKILLS, 10)
    assert [c["id"] for c in room.checks().class_checks(CLASS)] == [made["id"]]
    assert [c["id"] for c in room.checks().mine(Learner("browser-ana-01", "Ana", CLASS))] == [made["id"]]
    room.checks().close(CLASS, made["id"])
    assert room.checks().mine(Learner("browser-ana-01", "Ana", CLASS)) == []


def _hub(name: str) -> Learner:
    from classroom.service import HubUser
    return HubUser("hub-learner", name, "")


def test_through_the_service_the_teacher_runs_the_check_and_each_learner_answers_as_herself(school):
    from classroom.interface import ServiceClassroom
    from classroom.remote import ServiceRefused
    prof = ServiceClassroom(school.client("prof")).checks()
    ana, bia, caio = (ServiceClassroom(school.client(n)).checks() for n in ("ana", "bia", "caio"))
    made = prof.open("turma-a", SKILLS, 8)
    assert [c["id"] for c in prof.class_checks("turma-a")] == [made["id"]]
    assert [c["id"] for c in ana.mine(_hub("ana"))] == [made["id"]] and caio.mine(_hub("caio")) == []
    items = ana.take(_hub("ana"), made["id"])["questions"]
    assert len(items) == 8 and all(set(q) == {"kind", "variant", "seed"} for q in items)
    assert ana.submit(_hub("ana"), made["id"], "before", [pick(i, "wrong") for i in items])["counted"] == 8
    with pytest.raises(CheckError) as refused:
        ana.submit(_hub("ana"), made["id"], "before", [pick(i, "right") for i in items])
    assert refused.value.code == "already_done"
    bia.submit(_hub("bia"), made["id"], "before", [pick(i, "wrong") for i in items])
    with pytest.raises(CheckError) as refused:  # another class's check
        caio.take(_hub("caio"), made["id"])
    assert refused.value.code == "other_class"
    with pytest.raises(CheckError) as refused:
        ana.submit(_hub("ana"), made["id"], "before", [*[pick(i, "right") for i in items[:-1]], "forged"])
    assert refused.value.code in ("already_done", "bad_choice")
    with pytest.raises(CheckError) as refused:
        bia.submit(_hub("bia"), "ZZZZZZZZ", "before", [])
    assert refused.value.code == "bad_id"
    for call in (lambda: ana.results("turma-a", made["id"]), lambda: ana.open_after("turma-a", made["id"]),
                 lambda: prof.results("turma-b", made["id"])):
        with pytest.raises((ServiceRefused, CheckError)):
            call()
    prof.open_after("turma-a", made["id"])
    later = ana.take(_hub("ana"), made["id"])["questions"]
    ana.submit(_hub("ana"), made["id"], "after", [pick(i, "right") for i in later])
    bia.submit(_hub("bia"), made["id"], "after", [pick(i, "wrong") for i in later])
    found = prof.results("turma-a", made["id"])
    assert found["matched"] == 2 and {r["name"] for r in found["learners"]} == {"ana", "bia"}
    assert found["class"]["before"] == 0.0 and found["class"]["after"] == 0.5 and found["class"]["gain"] == 0.5
    assert found["vanished"] == [] or all(e["after"] == 0 for e in found["vanished"])
    assert found["stayed"] and all(e["after"] >= 1 for e in found["stayed"])
