"""Every answer kept whole (issue 32, item 1; docs/rules.md#answers-whole): the store on both
back ends, the migration that keeps older answers, the classroom interface in this process and
through the class service, and the checks that refuse what a page forges."""
from __future__ import annotations

import numpy as np
import pytest

from cartas.questions import SLIP, find_kind
from classroom import answers as whole
from classroom.answers import Answer, AnswerError, answer_to, value_text
from classroom.classes import create_class
from classroom.identity import Learner
from classroom.interface import ServiceClassroom, StoreClassroom
from classroom.progress import MIGRATIONS, learner_progress, open_store, record
from classroom.store import connect

KIND = "manilhas.rank_from_vira"


def a_question(seed: int, kind: str = KIND, variant: str | None = None):
    return find_kind(kind).make(np.random.default_rng(seed), variant)


def wrong_and_right(seed: int, kind: str = KIND):
    """(the question, a named wrong value, the right value)."""
    q = a_question(seed, kind)
    wrong = next(c.value for c in q.choices if c.misconception not in (None, SLIP))
    return q, wrong, q.answer


def whole_answer(learner: Learner, seed: int, pick: str = "wrong", context: str = "lesson:manilhas",
                 at: float | None = None, kind: str = KIND) -> Answer:
    q, wrong, right = wrong_and_right(seed, kind)
    return answer_to(q, wrong if pick == "wrong" else right, learner_id=learner.key, context=context, seed=seed,
                     seconds=4.5, at=at)


def test_a_question_made_again_from_its_seed_is_the_one_answered():
    q, wrong, _ = wrong_and_right(11)
    ana = Learner("browser-ana-01", "Ana")
    a = answer_to(q, wrong, learner_id=ana.key, context="lesson:manilhas", seed=11)
    again = a.question()
    assert again == q and a.choices == tuple(value_text(c.value) for c in q.choices)
    assert a.misconception == q.misconception(wrong) and not a.correct and a.skill == q.skill


def test_whole_answers_are_stored_and_read_back_on_both_back_ends(store_location):
    store = open_store(store_location)
    ana, bia = Learner("browser-ana-01", "Ana"), Learner("browser-bia-01", "Bia")
    mine = [whole_answer(ana, 1, "wrong", at=100.0), whole_answer(ana, 2, "right", "review", at=101.0)]
    assert whole.record(store, ana, mine) == 2
    whole.record(store, bia, [whole_answer(bia, 3, at=102.0)])
    back = whole.answers_of(store, ana.key)
    assert back == [whole.check(a) for a in mine]
    assert back[0].misconception not in (None, SLIP) and back[0].seconds == 4.5
    assert back[1].correct and back[1].misconception is None and back[1].context == "review"
    assert whole.answers_of(store, ana.key, context="review") == back[1:]
    assert whole.answers_of(store, ana.key, since=100.5) == back[1:]
    # each answer counts for its kind's lesson, as a lesson's answer always did
    assert learner_progress(store, ana.key)["manilhas"] == {"right": 1, "asked": 2, "last": 101.0}


def test_a_class_reads_its_learners_answers_only(store_location):
    store = open_store(store_location)
    code = create_class(store, "7º B").code
    ana, outsider = Learner("browser-ana-01", "Ana", code), Learner("browser-zeca-1", "Zeca")
    whole.record(store, ana, [whole_answer(ana, 1)])
    whole.record(store, outsider, [whole_answer(outsider, 2)])
    assert [a.learner_id for a in whole.class_answers(store, code)] == [ana.key]


def test_a_learner_writes_only_her_own_answers(store_location):
    store = open_store(store_location)
    ana, bia = Learner("browser-ana-01", "Ana"), Learner("browser-bia-01", "Bia")
    with pytest.raises(AnswerError) as refused:
        whole.record(store, ana, [whole_answer(bia, 1)])
    assert refused.value.code == "not_yours" and "própria" in refused.value.message("pt")
    assert whole.answers_of(store, bia.key) == [] and whole.answers_of(store, ana.key) == []


def _forged(a: Answer, **change) -> Answer:
    from dataclasses import replace
    return replace(a, **change)


@pytest.mark.parametrize("change, code", [
    ({"kind": "manilhas.nothing_like_it"}, "unknown_kind"),
    ({"seed": -1}, "bad_seed"),
    ({"seed": None}, "bad_seed"),
    ({"seed": 2 ** 63}, "bad_seed"),
    ({"chosen": "♛"}, "not_a_choice"),
    ({"choices": ("A", "2", "3")}, "wrong_choices"),
    ({"variant": "mineiro"}, "wrong_variant"),
    ({"skill": "trick_winner"}, "wrong_skill"),
    ({"context": "somewhere"}, "bad_context"),
    ({"seconds": 1e9}, "bad_field"),
])
def test_a_forged_answer_is_refused_naming_the_problem(change, code, tmp_path):
    store = open_store(str(tmp_path / "s.db"))
    ana = Learner("browser-ana-01", "Ana")
    good = whole_answer(ana, 5)
    with pytest.raises(AnswerError) as refused:
        whole.record(store, ana, [_forged(good, **change)])
    assert refused.value.code == code
    assert refused.value.message("pt") != refused.value.message("en")
    assert whole.answers_of(store, ana.key) == []


def test_a_page_that_calls_its_wrong_choice_right_is_corrected_by_the_question(tmp_path):
    store = open_store(str(tmp_path / "s.db"))
    ana = Learner("browser-ana-01", "Ana")
    lie = _forged(whole_answer(ana, 5), correct=True, misconception=None)
    whole.record(store, ana, [lie])
    stored = whole.answers_of(store, ana.key)[0]
    assert not stored.correct and stored.misconception not in (None, SLIP)
    assert learner_progress(store, ana.key)["manilhas"]["right"] == 0


def test_older_answers_keep_what_they_had_after_the_migration(store_location):
    old = connect(store_location)
    old.migrate(MIGRATIONS, upto=5)
    from classroom.homework import MIGRATIONS as HOMEWORK
    old.migrate(HOMEWORK)
    ana = Learner("browser-ana-01", "Ana")
    record(old, ana, "manilhas", [True, False], skills=["manilhas_from_vira"] * 2)
    old.close()
    store = open_store(store_location)
    assert store.version("classroom") == MIGRATIONS.latest == 6
    before = whole.answers_of(store, ana.key)
    assert [(a.kind, a.choices, a.seed, a.correct, a.skill, a.context) for a in before] == [
        ("", (), None, True, "manilhas_from_vira", "lesson:manilhas"),
        ("", (), None, False, "manilhas_from_vira", "lesson:manilhas")]
    whole.record(store, ana, [whole_answer(ana, 9)])
    assert [a.kind for a in whole.answers_of(store, ana.key)] == ["", "", KIND]


def test_the_answer_travels_as_json_and_a_bad_field_is_named():
    ana = Learner("browser-ana-01", "Ana")
    a = whole_answer(ana, 3)
    assert Answer.from_json(a.to_json()) == a
    for bad, field in (({"chosen": 3}, "chosen"), ({"correct": "yes"}, "correct"), ({"seconds": -2}, "seconds"),
                       ({"choices": "AKQ"}, "choices")):
        with pytest.raises(AnswerError) as refused:
            Answer.from_json({**a.to_json(), **bad})
        assert field in refused.value.message("en")
    with pytest.raises(AnswerError) as refused:
        Answer.from_json({**a.to_json(), "sneaky": 1})
    assert "sneaky" in refused.value.message("en")


# The classroom interface ---------------------------------------------------------------------
def test_the_classroom_in_this_process_records_and_reads_whole_answers(store_location):
    room = StoreClassroom(open_store(store_location))
    code = room.create_class("7º A").code
    ana = Learner("browser-ana-01", "Ana", code)
    assert room.record_answers(ana, [whole_answer(ana, 1), whole_answer(ana, 2, "right")]) == 2
    assert room.record_answer(ana, whole_answer(ana, 3)) == 1
    assert len(room.answers_of(ana.key)) == 3
    assert [a.seed for a in room.class_answers(code)] == [1, 2, 3]


def _hub(name: str) -> Learner:
    from classroom.service import HubUser
    return HubUser("hub-learner", name, "")


def test_through_the_service_whole_answers_go_in_and_out_by_the_hub_login(school):
    ana_room, bia_room = ServiceClassroom(school.client("ana")), ServiceClassroom(school.client("bia"))
    ana, bia = _hub("ana"), _hub("bia")
    assert ana.key == "hub:ana"
    assert ana_room.record_answers(ana, [whole_answer(ana, 1), whole_answer(ana, 2, "right")]) == 2
    bia_room.record_answer(bia, whole_answer(bia, 3))
    mine = ana_room.answers_of(ana.key)
    assert [(a.learner_id, a.seed, a.correct) for a in mine] == [("hub:ana", 1, False), ("hub:ana", 2, True)]
    assert mine[0].misconception not in (None, SLIP)
    # she cannot read bia's, nor the class's
    from classroom.remote import ServiceRefused
    with pytest.raises(ServiceRefused) as refused:
        ana_room.answers_of("hub:bia")
    assert (refused.value.status, refused.value.code) == (403, "not_yours")
    with pytest.raises(ServiceRefused) as refused:
        ana_room.class_answers("turma-a")
    assert refused.value.status == 403
    # an answer naming bia is recorded as ana's: the token says who she is
    ana_room.record_answer(ana, _forged(whole_answer(ana, 4), learner_id="hub:bia"))
    assert [a.seed for a in bia_room.answers_of(bia.key)] == [3]
    assert [a.seed for a in ana_room.answers_of(ana.key)] == [1, 2, 4]


def test_through_the_service_a_forged_answer_is_refused_naming_the_problem(school):
    room = ServiceClassroom(school.client("ana"))
    ana = _hub("ana")
    with pytest.raises(AnswerError) as refused:
        room.record_answer(ana, _forged(whole_answer(ana, 1), choices=("A", "2", "3")))
    assert refused.value.code == "wrong_choices" and "semente" in refused.value.message("pt")
    with pytest.raises(AnswerError) as refused:
        room.record_answer(ana, _forged(whole_answer(ana, 1), kind="x.y"))
    assert refused.value.code == "unknown_kind"
    assert room.answers_of(ana.key) == []


def test_through_the_service_a_teacher_reads_only_her_classes_answers(school):
    ServiceClassroom(school.client("ana")).record_answer(_hub("ana"), whole_answer(_hub("ana"), 1))
    ServiceClassroom(school.client("caio")).record_answer(_hub("caio"), whole_answer(_hub("caio"), 2))
    prof = ServiceClassroom(school.client("prof"))
    assert [(a.learner_id, a.seed) for a in prof.class_answers("turma-a")] == [("hub:ana", 1)]
    assert [(a.learner_id, a.seed) for a in prof.class_answers("turma-b")] == [("hub:caio", 2)]
    assert [a.seed for a in prof.answers_of("hub:ana")] == [1]
    # a learner of another class reads none of turma-a's
    from classroom.remote import ServiceRefused
    with pytest.raises(ServiceRefused) as refused:
        ServiceClassroom(school.client("caio")).class_answers("turma-a")
    assert refused.value.code == "teachers_only"


# The live quiz -------------------------------------------------------------------------------
def test_a_live_quiz_answer_to_a_registry_question_is_kept_whole(store_location):
    from classroom import live
    from widgets.components.live import stored_question
    store = open_store(store_location)
    quiz = live.StoreLiveQuiz(store)
    made = create_class(store, "7º B")
    started = quiz.start(made.code, made.key)
    code, token = started["code"], started["host_token"]
    q = find_kind(KIND).make_seeded(21)
    quiz.join(code, "learner-ana", "Ana", made.code)
    number = quiz.ask(code, token, stored_question("manilhas", q), 20)
    values = [c.value for c in q.choices]
    wrong = next(c.value for c in q.choices if c.misconception not in (None, SLIP))
    quiz.answer(code, "learner-ana", number, values.index(wrong))
    [kept] = whole.answers_of(store, "learner-ana")
    assert (kept.context, kept.kind, kept.seed, kept.chosen) == (f"live:{code}", KIND, 21, value_text(wrong))
    assert kept.misconception == q.misconception(wrong) and not kept.correct and kept.question() == q
    assert kept.seconds is not None and kept.seconds >= 0
    board = quiz.board(code)
    assert board["kind"] == KIND and board["misconceptions"][values.index(wrong)] == kept.misconception


def test_a_live_question_whose_seed_does_not_make_it_is_refused(tmp_path):
    from classroom import live
    from widgets.components.live import stored_question
    store = open_store(str(tmp_path / "s.db"))
    quiz = live.StoreLiveQuiz(store)
    made = create_class(store, "7º B")
    started = quiz.start(made.code, made.key)
    asked = stored_question("manilhas", find_kind(KIND).make_seeded(21))
    for forged, what in (({**asked, "kind": "x.y"}, "kind"), ({**asked, "seed": -4}, "seed"),
                         ({**asked, "answer": (asked["answer"] + 1) % len(asked["options"])}, "kind, seed")):
        with pytest.raises(live.LiveError) as refused:
            quiz.ask(started["code"], started["host_token"], forged, 20)
        assert refused.value.code == "bad_question" and what in refused.value.message("en")


# Homework ------------------------------------------------------------------------------------
def test_a_homework_scenario_answer_is_kept_whole_with_its_scenario(store_location):
    from cartas.scenario import encode_link, vinte_e_um_scenario
    from classroom import homework as hw
    store = open_store(store_location)
    code = create_class(store, "7º B").code
    ana = Learner("browser-ana-01", "Ana", code)
    whole.record(store, ana, [whole_answer(ana, 1)])  # she is a learner of the class
    link = encode_link(vinte_e_um_scenario(3, 0, deal={"first_cards": ["5♥", "K♣", "9♦"], "upcard": "7♣",
                                                       "then": ["2♦", "3♣", "4♠"]}))
    task = hw.create(store, code, "T", "2030-12-20", 100, [{"kind": "scenario", "link": link}])
    item = task["items"][0]
    wrong = next(o for o in item["options"] if o != item["answer"])
    hw.answer(store, task["id"], 0, ana.key, wrong)
    hw.answer(store, task["id"], 0, ana.key, item["answer"])  # only the first counts, and is kept
    kept = whole.answers_of(store, ana.key, context=f"homework:{task['id']}")
    assert [(a.scenario, a.choices, a.chosen, a.correct, a.kind) for a in kept] == [
        (link, tuple(item["options"]), wrong, False, "")]
    assert [a.learner_id for a in whole.class_answers(store, code, context=f"homework:{task['id']}")] == [ana.key]


def test_through_the_service_a_live_quiz_answer_is_kept_whole_for_the_learner_and_her_teacher(school):
    from classroom.live import LiveError
    from widgets.components.live import stored_question
    teacher = school.client("prof").live(LiveError)
    session = teacher.start("turma-a")
    code, host = session["code"], session["host_token"]
    ana = school.client("ana").live(LiveError)
    ana.join(code)
    q = find_kind(KIND).make_seeded(33)
    number = teacher.ask(code, host, stored_question("manilhas", q), 20)
    wrong = next(c.value for c in q.choices if c.misconception not in (None, SLIP))
    ana.answer(code, "", number, [c.value for c in q.choices].index(wrong))
    [kept] = ServiceClassroom(school.client("ana")).answers_of("hub:ana")
    assert (kept.context, kept.kind, kept.misconception) == (f"live:{code}", KIND, q.misconception(wrong))
    assert [a.seed for a in ServiceClassroom(school.client("prof")).class_answers("turma-a")] == [33]
    with pytest.raises(LiveError) as refused:  # a forged seed is refused by the service too
        teacher.ask(code, host, {**stored_question("manilhas", q), "seed": "x"}, 20)
    assert refused.value.code == "bad_question"


def _typed_outside(reading: str):
    """(seed, the worth question of that seed, a total outside its choices that `reading` names:
    a misconception's key, or SLIP)."""
    kind = find_kind("vinte_e_um_pontos.worth")
    for seed in range(500):
        q = kind.make_seeded(seed)
        shown = {c.value for c in q.choices}
        for total in range(40):
            if total not in shown and q.misconception(total) == reading:
                return seed, q, total
    raise AssertionError(f"no worth question gives {reading} outside its choices")


@pytest.mark.parametrize("reading", ["face_cards_by_rank", SLIP])
def test_a_21_worth_typed_outside_the_choices_is_kept_whole_and_judged_by_its_question(store_location, reading):
    """A hand's total is typed in the lesson, so any number answers: it is stored as the choice
    made, with the question's choices, and the question itself says what it reveals."""
    store = open_store(store_location)
    ana = Learner("browser-ana-01", "Ana")
    seed, q, typed = _typed_outside(reading)
    assert typed not in [c.value for c in q.choices] and q.takes(typed)
    sent = answer_to(q, typed, learner_id=ana.key, context="lesson:vinte_e_um_pontos", seconds=3.0, at=50.0)
    assert (sent.chosen, sent.correct, sent.misconception) == (str(typed), False, reading)
    lie = _forged(sent, correct=True, misconception=None)  # the store judges it again, from the question
    assert whole.record(store, ana, [lie]) == 1
    [kept] = whole.answers_of(store, ana.key)
    assert kept == sent and kept.choices == tuple(value_text(c.value) for c in q.choices)
    assert kept.question() == q and kept.seed == seed and kept.kind == "vinte_e_um_pontos.worth"
    assert learner_progress(store, ana.key)["vinte_e_um_pontos"] == {"right": 0, "asked": 1, "last": 50.0}


@pytest.mark.parametrize("chosen", ["017", "-3", "1000", "2.5", "vinte", "", "true"])
def test_a_typed_total_the_question_does_not_read_is_refused(chosen, tmp_path):
    store = open_store(str(tmp_path / "s.db"))
    ana = Learner("browser-ana-01", "Ana")
    _, q, typed = _typed_outside("face_cards_by_rank")
    good = answer_to(q, typed, learner_id=ana.key, context="lesson:vinte_e_um_pontos")
    with pytest.raises(AnswerError) as refused:
        whole.record(store, ana, [_forged(good, chosen=chosen)])
    assert refused.value.code == "not_a_choice"
    assert whole.answers_of(store, ana.key) == []


def test_a_question_answered_only_by_its_choices_takes_no_typed_value(tmp_path):
    store = open_store(str(tmp_path / "s.db"))
    ana = Learner("browser-ana-01", "Ana")
    q, wrong, _ = wrong_and_right(5)
    assert q.typed is None and not q.takes("Z") and not q.takes(99)
    with pytest.raises(ValueError):
        q.misconception(99)
    with pytest.raises(AnswerError) as refused:
        whole.record(store, ana, [_forged(whole_answer(ana, 5), chosen="99")])
    assert refused.value.code == "not_a_choice"
