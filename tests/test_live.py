"""The live class quiz's store (classroom.live) on SQLite and PostgreSQL: sessions, one answer per
learner per question, the store's clock, points (docs/rules.md#live-quiz-points), progress."""
from __future__ import annotations

import threading
import time

import pytest

from classroom import identity as ids, live
from classroom.classes import NotAllowed, create_class
from classroom.live import BASE_POINTS, SPEED_POINTS, STREAK_CAP, STREAK_POINTS, LiveError, points_for
from classroom.progress import class_learners, learner_progress, open_store

import learner_processes

QUESTION = {"lesson": "manilhas",
            "prompt": {"pt": "Vira 6: quais são as manilhas?", "en": "Vira 6: which are the manilhas?"},
            "options": [{"pt": "5", "en": "5"}, {"pt": "7", "en": "7"}, {"pt": "Q", "en": "Q"}],
            "answer": 1,
            "why": {"pt": "Depois do 6 vem o 7.", "en": "After 6 comes 7."}}


class Clock:
    """A clock the test moves by hand (the store's clock stands in for it)."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self, _tx):
        return self.now


def _session(location, clock=None):
    store = open_store(location)
    quiz = live.StoreLiveQuiz(store, clock=clock)
    made = create_class(store, "7º B")
    started = quiz.start(made.code, made.key)
    return quiz, made, started


def test_a_session_starts_only_with_the_classes_teacher_key(store_location):
    store = open_store(store_location)
    quiz = live.StoreLiveQuiz(store)
    made = create_class(store, "7º B")
    with pytest.raises(NotAllowed):
        quiz.start(made.code, "wrong key")
    started = quiz.start(made.code, made.key)
    assert live.clean_code(started["code"].lower()) == started["code"]
    with pytest.raises(LiveError) as refused:
        quiz.ask(started["code"], "not the token", QUESTION, 20)
    assert refused.value.code == "not_host"
    assert "projetor" in refused.value.message("pt") and "projector" in refused.value.message("en")


def test_a_learner_joins_only_a_session_of_her_own_class(store_location):
    quiz, made, started = _session(store_location)
    with pytest.raises(LiveError) as refused:
        quiz.join(started["code"], "learner-1", "Ana", "OTHER1")
    assert refused.value.code == "other_class"
    with pytest.raises(LiveError) as unknown:
        quiz.join("ZZZZ", "learner-1", "Ana", made.code)
    assert unknown.value.code == "no_session"
    with pytest.raises(LiveError) as bad:
        quiz.join("a code that is far too long", "learner-1", "Ana", made.code)
    assert bad.value.code == "bad_code"


def test_a_right_fast_answer_scores_more_than_a_right_slow_one_and_a_wrong_one_nothing(store_location):
    clock = Clock()
    quiz, made, started = _session(store_location, clock)
    code, token = started["code"], started["host_token"]
    for who in ("fast", "slow", "wrong"):
        quiz.join(code, who, who.title(), made.code)
    number = quiz.ask(code, token, QUESTION, 20)
    fast = quiz.answer(code, "fast", number, 1)
    clock.now += 15
    slow = quiz.answer(code, "slow", number, 1)
    wrong = quiz.answer(code, "wrong", number, 0)
    assert fast == {"number": 1, "correct": True, "points": BASE_POINTS + SPEED_POINTS, "total": 1000, "streak": 1}
    assert slow["points"] == BASE_POINTS + round(SPEED_POINTS * 0.25)
    assert wrong["points"] == 0 and not wrong["correct"] and wrong["streak"] == 0


def test_points_follow_the_decided_rule_with_the_streak_bonus_capped():
    # docs/rules.md#live-quiz-points
    assert points_for(False, 0, 20, 9) == 0
    assert points_for(True, 0, 20, 0) == 1000
    assert points_for(True, 10, 20, 0) == 750
    assert points_for(True, 20, 20, 0) == 500
    assert points_for(True, 10, 20, 2) == 750 + 2 * STREAK_POINTS
    assert points_for(True, 20, 20, 50) == 500 + STREAK_CAP


def test_a_streak_grows_with_right_answers_in_a_row_and_a_wrong_or_missed_one_resets_it(store_location):
    clock = Clock()
    quiz, made, started = _session(store_location, clock)
    code, token = started["code"], started["host_token"]
    quiz.join(code, "ana", "Ana", made.code)
    got = []
    for choice in [1, 1, 1, 0, 1, None, 1]:
        number = quiz.ask(code, token, QUESTION, 20)
        clock.now += 10  # half time: 250 speed points
        if choice is not None:
            got.append(quiz.answer(code, "ana", number, choice)["points"])
        clock.now += 11
    assert got == [750, 850, 950, 0, 750, 750]
    assert quiz.board(code)["leaders"] == [{"name": "Ana", "points": sum(got)}]


def test_a_second_answer_is_refused_and_never_counted_twice(store_location):
    quiz, made, started = _session(store_location)
    code = started["code"]
    quiz.join(code, "ana", "Ana", made.code)
    number = quiz.ask(code, started["host_token"], QUESTION, 20)
    first = quiz.answer(code, "ana", number, 0)
    with pytest.raises(LiveError) as refused:
        quiz.answer(code, "ana", number, 1)
    assert refused.value.code == "already_answered"
    board = quiz.board(code)
    assert board["counts"] == [1, 0, 0] and board["answered"] == 1
    assert board["leaders"][0]["points"] == first["points"] == 0
    mine = quiz.question(code, "ana")["mine"]
    assert mine == {"choice": 0, "correct": False, "points": 0}


def test_an_answer_after_the_time_limit_on_the_stores_clock_is_refused(store_location):
    quiz, made, started = _session(store_location)  # the real store clock
    code = started["code"]
    quiz.join(code, "ana", "Ana", made.code)
    with quiz.store.transaction() as tx:  # a question whose limit passed 1 s ago on the store's clock
        now = live._store_clock(tx)
    number = quiz.ask(code, started["host_token"], QUESTION, 5)
    with quiz.store.transaction() as tx:
        tx.execute("UPDATE live_questions SET opened_at = ?, closes_at = ? WHERE session_code = ?",
                   (now - 6, now - 1, code))
    with pytest.raises(LiveError) as late:
        quiz.answer(code, "ana", number, 1)
    assert late.value.code == "closed"
    assert quiz.board(code)["answered"] == 0
    assert learner_progress(quiz.store, "ana") == {}


def test_the_teacher_closes_a_question_early_and_only_then_the_phones_see_the_answer(store_location):
    quiz, made, started = _session(store_location)
    code, token = started["code"], started["host_token"]
    quiz.join(code, "ana", "Ana", made.code)
    number = quiz.ask(code, token, QUESTION, 60)
    shown = quiz.question(code, "ana")
    assert shown["open"] and "answer" not in shown and "why" not in shown and shown["seconds_left"] > 50
    with pytest.raises(LiveError) as busy:
        quiz.ask(code, token, QUESTION, 20)
    assert busy.value.code == "still_open"
    quiz.close(code, token)
    shown = quiz.question(code, "ana")
    assert not shown["open"] and shown["answer"] == 1 and shown["why"]["en"] == "After 6 comes 7."
    with pytest.raises(LiveError) as late:
        quiz.answer(code, "ana", number, 1)
    assert late.value.code == "closed"
    assert quiz.ask(code, token, QUESTION, 20) == 2


def test_a_late_joiner_enters_at_the_next_question(store_location):
    quiz, made, started = _session(store_location)
    code, token = started["code"], started["host_token"]
    first = quiz.ask(code, token, QUESTION, 60)
    joined = quiz.join(code, "late", "Late", made.code)
    assert joined == {"points": 0, "first_number": 2}
    with pytest.raises(LiveError) as wait:
        quiz.answer(code, "late", first, 1)
    assert wait.value.code == "next_question"
    quiz.close(code, token)
    second = quiz.ask(code, token, QUESTION, 60)
    assert quiz.answer(code, "late", second, 1)["correct"]


def test_a_learner_who_reloads_keeps_her_points(store_location):
    quiz, made, started = _session(store_location)
    code, token = started["code"], started["host_token"]
    quiz.join(code, "ana", "Ana", made.code)
    number = quiz.ask(code, token, QUESTION, 60)
    total = quiz.answer(code, "ana", number, 1)["total"]
    # a new kernel (a reload) on the same store joins again
    again = live.StoreLiveQuiz(quiz.store).join(code, "ana", "Ana", made.code)
    assert again == {"points": total, "first_number": 1} and total > 0


def test_the_answers_join_the_learners_progress_under_the_questions_lesson(store_location):
    quiz, made, started = _session(store_location)
    code, token = started["code"], started["host_token"]
    ana = ids.join(quiz.store, made.code, "Ana", "2468", "b-ana-phone-01").learner
    quiz.join(code, ana.key, ana.name, ana.class_code)
    for choice in (1, 0):
        number = quiz.ask(code, token, QUESTION, 60)
        quiz.answer(code, ana.key, number, choice)
        quiz.close(code, token)
    assert learner_progress(quiz.store, ana.key)["manilhas"]["right"] == 1
    row = next(r for r in class_learners(quiz.store, made.code) if r["name"] == "Ana")
    assert row["lessons"]["manilhas"] == {"right": 1, "asked": 2}


def test_a_question_with_a_bad_answer_key_or_time_is_refused(store_location):
    quiz, _made, started = _session(store_location)
    code, token = started["code"], started["host_token"]
    with pytest.raises(LiveError) as bad:
        quiz.ask(code, token, {**QUESTION, "answer": 3}, 20)
    assert bad.value.code == "bad_question" and bad.value.fields["what"] == "answer"
    with pytest.raises(LiveError) as slow:
        quiz.ask(code, token, QUESTION, 100_000)
    assert slow.value.code == "bad_seconds"


def test_an_option_that_does_not_exist_is_refused(store_location):
    quiz, made, started = _session(store_location)
    code = started["code"]
    quiz.join(code, "ana", "Ana", made.code)
    number = quiz.ask(code, started["host_token"], QUESTION, 20)
    for choice in (3, -1):
        with pytest.raises(LiveError) as bad:
            quiz.answer(code, "ana", number, choice)
        assert bad.value.code == "bad_choice"


# Concurrency ------------------------------------------------------------------------------
LEARNERS = [f"learner-{k:02d}" for k in range(40)]


def _forty(store_location):
    quiz, made, started = _session(store_location)
    for learner in LEARNERS:
        quiz.join(started["code"], learner, learner, made.code)
    number = quiz.ask(started["code"], started["host_token"], QUESTION, 60)
    return quiz, started["code"], number


def _check_forty(quiz, code):
    board = quiz.board(code)
    assert board["answered"] == 40 and board["counts"] == [0, 40, 0]
    with quiz.store.transaction(write=False) as tx:
        rows = tx.execute("SELECT COUNT(*), SUM(asked_count) FROM progress WHERE lesson = 'manilhas'").fetchone()
        points = tx.execute("SELECT COUNT(*) FROM live_players WHERE points >= ?", (BASE_POINTS,)).fetchone()
    assert (int(rows[0]), int(rows[1])) == (40, 40)
    assert int(points[0]) == 40


def test_forty_answers_at_once_from_threads_lose_none_and_count_none_twice(store_location):
    quiz, code, number = _forty(store_location)
    barrier = threading.Barrier(40)
    outcomes: list[str] = []

    def send(learner):
        mine = live.StoreLiveQuiz(live.open_quiz(store_location).store)  # one kernel's connection
        barrier.wait()
        for _ in range(2):
            try:
                mine.answer(code, learner, number, 1)
                outcomes.append("ok")
            except LiveError as error:
                outcomes.append(error.code)

    threads = [threading.Thread(target=send, args=(learner,)) for learner in LEARNERS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(set(outcomes)) == ["already_answered", "ok"]
    assert outcomes.count("ok") == 40 and outcomes.count("already_answered") == 40
    _check_forty(quiz, code)


def test_forty_answers_at_once_from_processes_lose_none_and_count_none_twice(store_location):
    quiz, code, number = _forty(store_location)
    context = learner_processes.context()
    start = time.time() + 3.0  # every process started and connected by then
    groups = [LEARNERS[k::8] for k in range(8)]
    with context.Pool(8) as pool:
        from live_workers import answer_at
        results = pool.starmap(answer_at, [(store_location, code, group, number, 1, start) for group in groups])
    assert sum(r["accepted"] for r in results) == 40
    assert sorted(code for r in results for code in r["refused"]) == ["already_answered"] * 40
    _check_forty(quiz, code)


def test_answers_sent_at_once_after_the_limit_are_all_refused(store_location):
    quiz, code, number = _forty(store_location)
    with quiz.store.transaction() as tx:
        now = live._store_clock(tx)
        tx.execute("UPDATE live_questions SET closes_at = ? WHERE session_code = ?", (now - 0.01, code))
    barrier = threading.Barrier(20)
    refused: list[str] = []

    def send(learner):
        barrier.wait()
        try:
            quiz.answer(code, learner, number, 1)
        except LiveError as error:
            refused.append(error.code)

    threads = [threading.Thread(target=send, args=(learner,)) for learner in LEARNERS[:20]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert refused == ["closed"] * 20
    assert quiz.board(code)["answered"] == 0
