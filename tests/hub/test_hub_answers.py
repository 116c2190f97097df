"""Issue 32, item 1 on the real hub of the tests (tests/hub/conftest.py): whole answers go
through the hub's proxy to the class service with each user's own hub token; a learner writes
and reads only her own, a teacher reads only her own classes' (school: tests/hub/hubkit.py)."""
from __future__ import annotations

import pytest
from test_hub_security import ask

from cartas.questions import SLIP, find_kind
from classroom.answers import answer_to

import hubkit

pytestmark = pytest.mark.hub


def _answer(seed: int) -> dict:
    q = find_kind("manilhas.rank_from_vira").make_seeded(seed)
    wrong = next(c.value for c in q.choices if c.misconception not in (None, SLIP))
    made = answer_to(q, wrong, learner_id="", context="lesson:manilhas", seconds=3.0).to_json()
    del made["learner_id"]
    return made


@pytest.fixture(scope="module")
def tokens(hub):
    return {user: hub.token_for(user) for user in ("tereza", "vera", "ana", "duda")}


def test_hub_answers_a_learner_writes_and_reads_only_her_own(hub, tokens):
    assert ask(hub, tokens["ana"], "POST", "api/answers/ana", {"answers": [_answer(1)]}) == (200, {"recorded": 1})
    assert ask(hub, tokens["duda"], "POST", "api/answers/duda", {"answers": [_answer(2)]})[0] == 200
    status, mine = ask(hub, tokens["ana"], "GET", "api/answers/ana")
    assert status == 200 and [(a["learner_id"], a["seed"]) for a in mine][-1:] == [("ana", 1)]
    assert all(a["learner_id"] == "ana" for a in mine)
    for method, path, body in (("GET", "api/answers/duda", None),
                               ("POST", "api/answers/duda", {"answers": [_answer(3)]})):
        status, refused = ask(hub, tokens["ana"], method, path, body)
        assert (status, refused.get("error")) == (403, "not_yours") and refused["pt"] and refused["en"]
    status, refused = ask(hub, tokens["ana"], "GET", f"api/classes/{hubkit.CLASS}/answers")
    assert (status, refused.get("error")) == (403, "teachers_only")
    status, refused = ask(hub, tokens["ana"], "POST", "api/answers/ana", {"answers": [{**_answer(4), "seed": -1}]})
    assert (status, refused.get("error"), refused.get("family")) == (400, "bad_seed", "answers")


def test_hub_answers_a_teacher_reads_only_her_own_classes(hub, tokens):
    ask(hub, tokens["ana"], "POST", "api/answers/ana", {"answers": [_answer(5)]})
    ask(hub, tokens["duda"], "POST", "api/answers/duda", {"answers": [_answer(6)]})
    status, rows = ask(hub, tokens["tereza"], "GET", f"api/classes/{hubkit.CLASS}/answers")
    assert status == 200 and rows and {r["learner_id"] for r in rows} <= set(hubkit.LEARNERS)
    assert "duda" not in {r["learner_id"] for r in rows}
    status, refused = ask(hub, tokens["tereza"], "GET", f"api/classes/{hubkit.OTHER_CLASS}/answers")
    assert (status, refused.get("error")) == (403, "not_your_class") and not isinstance(refused, list)
    assert ask(hub, tokens["tereza"], "GET", "api/answers/ana")[0] == 200
    assert ask(hub, tokens["vera"], "GET", "api/answers/ana")[0] == 403
    status, theirs = ask(hub, tokens["vera"], "GET", f"api/classes/{hubkit.OTHER_CLASS}/answers")
    assert status == 200 and {r["learner_id"] for r in theirs} == {"duda"}
