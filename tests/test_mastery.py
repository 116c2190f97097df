"""Mastery per skill (docs/rules.md#mastery-levels, docs/rules.md#review-boxes): levels from
recent answers, Leitner boxes, the class's hardest skills, and answers recorded with their skill."""
from __future__ import annotations

import time

import pytest

from classroom import mastery
from classroom.classes import create_class
from classroom.identity import Learner
from classroom.mastery import DAY, SKILLS, StoreMastery, box, due_at, level
from classroom.progress import learner_progress, open_store, record

R, W = True, False


def test_every_skill_has_a_name_in_both_languages_and_a_lesson():
    assert len({s.key for s in SKILLS}) == len(SKILLS)
    for skill in SKILLS:
        assert skill.name["pt"] and skill.name["en"] and skill.lesson
    for name in mastery.LEVELS:
        assert set(mastery.LEVEL_NAMES[name]) == {"pt", "en"}


def test_rule_todays_review_mixes_truco_and_21_skills_the_most_overdue_first():
    """docs/rules.md#review-boxes: the next skill is the most overdue one of the other game."""
    due = ["tied_hand", "stronger_card", "mao_de_onze", "score_21_hand", "hit_or_stand"]
    assert mastery.review_queue(due) == ["tied_hand", "score_21_hand", "stronger_card", "hit_or_stand",
                                         "mao_de_onze"]
    assert mastery.review_queue(["hit_or_stand", "pass_the_bank", "trick_winner"]) == [
        "hit_or_stand", "trick_winner", "pass_the_bank"]
    assert mastery.review_queue(due, size=2) == ["tied_hand", "stronger_card"]  # the most overdue, then mixed
    assert mastery.review_queue(["no_such_skill", "pass_the_bank"]) == ["pass_the_bank"]
    assert {s.family for s in SKILLS if s.lesson.startswith("vinte_e_um")} == {"21"}


def test_every_lesson_has_a_review_question_maker_and_each_21_skill_is_asked_by_its_own():
    """docs/rules.md#review-boxes: 21's skills are asked in the review, not only linked."""
    import numpy as np

    from widgets.pages.revisao import MAKERS, Review

    review = Review(lang="en", seed=1)
    assert {s.lesson for s in SKILLS} <= set(MAKERS)
    for skill in [s for s in SKILLS if s.family == "21"]:
        question = review.make_question(skill.key)
        assert question.skill == skill.key, skill.key
        assert question.answer in [value for value, _ in question.options]
    assert isinstance(review._generator, np.random.Generator)  # the seeded one, shared


@pytest.mark.parametrize("recent, expected", [
    ([], None),
    ([W], "attempted"),
    ([R], "attempted"),
    ([R, R], "familiar"),
    ([W, R, W, R, W], "familiar"),
    ([R, R, R, R], "proficient"),
    ([R, R, W, R, R], "proficient"),
    ([R, R, R, R, R], "mastered"),
    ([W, R, R, R, R, R], "proficient"),   # newest first: a wrong answer now counts
    ([R, R, R, R, R, W, W], "mastered"),  # only the last RECENT count
])
def test_a_level_comes_from_the_last_five_answers(recent, expected):
    assert level(recent) == expected


@pytest.mark.parametrize("recent, expected", [
    ([W], 1), ([R], 2), ([R, R, W, R, R, R], 3), ([R] * 9, 5), ([W, R, R, R], 1),
])
def test_a_right_answer_moves_a_skill_up_a_box_and_a_wrong_one_back_to_the_first(recent, expected):
    assert box(recent) == expected


def test_a_skill_comes_back_for_review_after_its_box_interval():
    assert due_at([W], 100.0) == 100.0
    assert due_at([R], 100.0) == 100.0 + DAY
    assert due_at([R, R], 100.0) == 100.0 + 3 * DAY
    assert due_at([R] * 8, 100.0) == 100.0 + 14 * DAY


def test_an_unknown_skill_is_refused_when_recorded(tmp_path):
    store = open_store(str(tmp_path / "s.db"))
    with pytest.raises(ValueError, match="unknown skill"):
        record(store, Learner("browser-ana-01"), "manilhas", [True], skills=["juggling"])
    assert learner_progress(store, Learner("browser-ana-01").key) == {}


def test_levels_and_due_skills_come_from_the_stored_answers(store_location):
    store = open_store(store_location)
    ana = Learner("browser-ana-01", "Ana")
    t0 = time.time() - 10 * DAY
    for i, (skill, correct) in enumerate([("stronger_card", R)] * 5 + [("tied_hand", W), ("tied_hand", R)]):
        record(store, ana, "manilhas" if skill == "stronger_card" else "truco_rodadas", [correct],
               at=t0 + i, skills=[skill])
    record(store, ana, "manilhas", [False], at=t0 + 50)  # no skill: the lesson only
    levels = StoreMastery(store).learner_levels(ana.key)
    assert set(levels) == {"stronger_card", "tied_hand"}
    assert levels["stronger_card"]["level"] == "mastered" and levels["stronger_card"]["box"] == 5
    assert levels["tied_hand"] | {"last_at": 0, "due_at": 0} == {
        "level": "attempted", "box": 2, "right": 1, "recent": 2, "last_at": 0, "times": [t0 + 6, t0 + 5],
        "due_at": 0}
    assert levels["stronger_card"]["times"] == [t0 + 4, t0 + 3, t0 + 2, t0 + 1, t0]
    assert learner_progress(store, ana.key)["manilhas"]["asked"] == 6  # the lesson counts kept
    # ten days later: tied_hand (box 2, one day) is due; stronger_card (box 5, 14 days) is not
    assert StoreMastery(store).due_skills(ana.key) == ["tied_hand"]
    assert mastery.due_skills(store, ana.key, now=t0 + 15 * DAY) == ["tied_hand", "stronger_card"]


def test_the_class_sees_each_learners_levels_and_its_hardest_skills_first(store_location):
    store = open_store(store_location)
    code = create_class(store, "7º B").code
    ana, bia = Learner("browser-ana-01", "Ana", code), Learner("browser-bia-01", "Bia", code)
    outsider = Learner("browser-zeca-1", "Zeca")
    record(store, ana, "truco_rodadas", [R, R, R, R, R], skills=["trick_winner"] * 5)
    record(store, bia, "truco_rodadas", [R, W, R], skills=["trick_winner"] * 3)
    record(store, ana, "truco_rodadas", [W, W], skills=["tied_hand"] * 2)
    record(store, bia, "truco_rodadas", [R, W], skills=["tied_hand"] * 2)
    record(store, outsider, "truco_rodadas", [W] * 5, skills=["trick_winner"] * 5)
    seen = StoreMastery(store).class_levels(code)
    assert seen["learners"] == {ana.key: {"trick_winner": "mastered", "tied_hand": "attempted"},
                                bia.key: {"trick_winner": "familiar", "tied_hand": "attempted"}}
    assert seen["hardest"] == ["tied_hand", "trick_winner"]
    assert seen["skills"]["trick_winner"] | {"rate": 0} == {
        "right": 7, "asked": 8, "rate": 0,
        "levels": {"attempted": 0, "familiar": 1, "proficient": 0, "mastered": 1}}


def test_a_lesson_question_records_the_skill_it_trains():
    from widgets.pages.truco_rodadas import TrickLab
    view = TrickLab(seed=3)
    ex = view.exercises
    ex.next_button.click()
    skill = ex.question.skill
    assert skill in mastery.BY_KEY and mastery.BY_KEY[skill].lesson == "truco_rodadas"
    ex.answer(ex.question.answer)
    with open_store().transaction(write=False) as tx:
        assert tx.execute("SELECT lesson, correct, skill FROM answers").fetchall() == [("truco_rodadas", 1, skill)]


def test_every_exercise_block_question_names_a_skill_of_its_lesson():
    import importlib

    import numpy as np
    pages = {"manilhas": "ManilhaExplorer", "truco_mao": "DealStepper", "truco_rodadas": "TrickLab",
             "truco_apostas": "BettingLab", "truco_mao_de_onze": "ThresholdLab", "truco_mineiro": "VariantComparison"}
    for lesson, name in pages.items():
        view = getattr(importlib.import_module(f"widgets.pages.{lesson}"), name)()
        rng = np.random.default_rng(1)
        skills = {view._question(rng).skill for _ in range(12)}
        assert skills and all(mastery.BY_KEY[s].lesson == lesson for s in skills), lesson
