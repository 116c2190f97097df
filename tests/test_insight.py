"""The teacher's insight (issue 32, item 3; `classroom.insight`): a synthetic class of 30
learners, each with planted misconceptions, answers 20 questions each through the classroom
interface; the report names every planted misconception with the right learners and none that
was not planted; the CSV export; the live-quiz choice distribution."""
from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from synthetic_class import LEARNERS, QUESTIONS, synthetic_class

from cartas.questions import SLIP, find_kind, misconception
from classroom import insight
from classroom.answers import Answer, answer_to
from classroom.interface import StoreClassroom
from classroom.progress import open_store


@pytest.fixture
def synthetic(tmp_path):
    room = StoreClassroom(open_store(str(tmp_path / "class.db")))
    code = room.create_class("8º A").code
    planted, names = synthetic_class(room, code)
    return room, code, planted, names


def test_the_report_names_every_planted_misconception_with_its_learners_and_no_other(synthetic):
    room, code, planted, _ = synthetic
    answers = room.class_answers(code)
    assert len(answers) == LEARNERS * QUESTIONS
    report = insight.class_report(room, code)
    expected: dict[str, set[str]] = {}
    for learner, beliefs in planted.items():
        for key in beliefs:
            expected.setdefault(key, set()).add(learner)
    assert {k: set(v) for k, v in report.held().items()} == expected
    # the slips were there, and were not taken for beliefs
    assert any(a.misconception == SLIP for a in answers)
    assert any(not a.correct and a.misconception not in (SLIP, None)
               and a.misconception not in planted[a.learner_id] for a in answers)
    for person in report.learners:
        assert {key for key, _ in person.holds} == planted[person.learner_id]
        for key, last in person.holds:
            assert last and all(a.misconception == key for a in last)
            q = last[0].question()  # replayed as she saw it
            assert q is not None and q.misconception(next(c.value for c in q.choices
                                                          if c.misconception == key)) == key


def test_per_skill_and_kind_percent_right_median_time_and_holders(synthetic):
    room, code, planted, _ = synthetic
    answers = room.class_answers(code)
    report = insight.report(answers)
    by_skill = {item.key: item for item in report.skills}
    assert sum(item.answered for item in report.skills) == len(answers)
    for item in report.skills + report.kinds:
        mine = [a for a in answers if (a.skill if item in report.skills else a.kind) == item.key]
        assert item.answered == len(mine) and item.right == sum(a.correct for a in mine)
        assert item.median_seconds == float(np.median([a.seconds for a in mine]))
        for held in item.misconceptions:
            assert set(held.learners) <= {lid for lid, b in planted.items() if held.key in b}
    stronger = by_skill["stronger_card"]
    top = stronger.misconceptions[0]
    assert top.key == "manilha_suit_order" and set(top.learners) == {
        lid for lid, b in planted.items() if "manilha_suit_order" in b}
    assert 0 < stronger.percent_right < 100


def test_a_misconception_answered_right_three_times_since_is_let_go():
    kind = find_kind("manilhas.rank_from_vira")
    rng = np.random.default_rng(1)

    def one(seed: int, wrong: bool, at: float) -> Answer:
        q = kind.make(np.random.default_rng(seed))
        value = next(c.value for c in q.choices if c.misconception == "manilha_is_vira") if wrong else q.answer
        return answer_to(q, value, learner_id="browser-ana-01", context="review", seed=seed, at=at)
    del rng
    shown = [one(1, True, 1.0), one(2, True, 2.0)]
    assert insight.report(shown).holders("manilha_is_vira") == ("browser-ana-01",)
    assert insight.report(shown[:1]).holders("manilha_is_vira") == ()  # once is no belief
    better = shown + [one(s, False, 3.0 + s) for s in (3, 4)]
    assert insight.report(better).holders("manilha_is_vira") == ("browser-ana-01",)
    assert insight.report(better + [one(5, False, 9.0)]).holders("manilha_is_vira") == ()


def test_the_csv_exports_one_row_per_answer_and_per_item_and_misconception(synthetic):
    room, code, planted, names = synthetic
    answers = room.class_answers(code)
    text = insight.answers_csv(answers, names)
    assert text.startswith("\ufeff") and text.encode("utf-8").startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(text[1:])))
    assert len(rows) == len(answers) and rows[0]["name"].startswith("Aluna")
    assert {r["misconception"] for r in rows} >= set(planted[rows[0]["learner_id"]])
    report = insight.report(answers)
    items = list(csv.DictReader(io.StringIO(insight.items_csv(report, names)[1:])))
    assert len(items) == sum(max(1, len(i.misconceptions)) for i in report.skills + report.kinds)
    tied = [r for r in items if r["item"] == "kind" and r["misconception"] == "tied_first_goes_to_mao"]
    assert tied and tied[0]["misconception_pt"] == misconception("tied_first_goes_to_mao").text.pt
    assert "Aluna" in tied[0]["learner_names"]


def test_a_formula_in_a_cell_is_kept_as_text():
    a = Answer("browser-x", "review", "", "manilhas_from_vira", "", None, None, (), "=HYPERLINK(1)", False,
               None, None, 1.0)
    rows = list(csv.reader(io.StringIO(insight.answers_csv([a])[1:])))
    assert rows[1][7] == "'=HYPERLINK(1)"


def test_a_live_question_shows_its_choice_distribution_and_the_popular_wrong_choice_named():
    kind = find_kind("truco_rodadas.tied_first")
    seed = next(s for s in range(100) if {c.misconception for c in kind.make(np.random.default_rng(s), "paulista")
                                          .choices} == {None, "tie_cancels_hand", "tied_first_goes_to_mao"})
    q = kind.make(np.random.default_rng(seed), "paulista")
    mao = next(c.value for c in q.choices if c.misconception == "tied_first_goes_to_mao")
    picks = [mao] * 5 + ["-"] * 2 + [q.answer] * 4
    answers = [answer_to(q, v, learner_id=f"browser-l{n}", context="live:ABCD", seed=seed, variant="paulista",
                         at=float(n)) for n, v in enumerate(picks)]
    (live,) = insight.report(answers).live
    assert dict(zip(live.choices, live.counts)) == {mao: 5, "-": 2, q.answer: 4}
    assert live.answer == q.answer and live.popular_wrong == mao
    assert live.popular_misconception == "tied_first_goes_to_mao"
    assert "mão" in misconception(live.popular_misconception).rule.pt


def test_skills_come_in_the_order_of_the_skill_registry_and_any_other_after_them():
    from cartas.questions import all_kinds
    from classroom.mastery import SKILLS
    first_kind = {}
    for kind in all_kinds():
        first_kind.setdefault(kind.skill, kind)
    assert set(first_kind) == {s.key for s in SKILLS}
    answers = []
    for n, skill in enumerate(reversed(SKILLS)):  # answered in the registry's reverse order
        q = first_kind[skill.key].make_seeded(n)
        answers.append(answer_to(q, q.answer, learner_id="browser-ana-01", context="review", at=float(n)))
    older = Answer("browser-ana-01", "lesson:manilhas", "", "", "", None, None, (), "", True, None, None, 0.5)
    report = insight.report([older, *answers])
    assert [item.key for item in report.skills] == [s.key for s in SKILLS] + [""]
    assert [item.key for item in report.skills][:len(SKILLS)] != sorted(s.key for s in SKILLS)  # not by key
    items = list(csv.DictReader(io.StringIO(insight.items_csv(report, {})[1:])))
    assert [r["key"] for r in items if r["item"] == "skill"] == [s.key for s in SKILLS] + [""]
