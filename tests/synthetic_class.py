"""A synthetic class for the insight's tests (issue 32): 30 learners, each with one or two
planted misconceptions, answering 20 questions each through a classroom interface."""
from __future__ import annotations

import dataclasses
import functools

import numpy as np

from cartas.questions import all_kinds
from classroom.answers import Answer, answer_to
from classroom.identity import Learner

LEARNERS = 30
QUESTIONS = 20
SLIPS = 0.06  # a wrong choice at random, now and then, whatever she believes
FAST = [k for k in all_kinds() if k.lesson not in ("vinte_e_um_rodada", "vinte_e_um_banca")]
# the beliefs planted, each in a few learners (the six among them)
PLANTED = ("manilha_is_vira", "manilha_suit_order", "tied_first_goes_to_mao", "running_pays_raised",
           "ace_always_11", "two_card_21_is_just_21", "dealer_leads", "threshold_run_pays_hand",
           "tie_goes_to_player", "count_tricks")


def _kinds_of(key: str):
    return [k for k in all_kinds() if key in k.misconceptions]


def _question(kind, rng: np.random.Generator, wanted: str | None):
    """A seed and variant of `kind` (its question offering `wanted`'s choice, when given)."""
    for _ in range(3000):
        seed, variant = int(rng.integers(1_000_000)), (kind.variants[int(rng.integers(len(kind.variants)))]
                                                        if kind.variants else "")
        q = kind.make(np.random.default_rng(seed), variant or None)
        if wanted is None or wanted in {c.misconception for c in q.choices}:
            return seed, variant, q
    raise AssertionError(f"{kind.key} never offers {wanted}")


def _answer(q, beliefs: set[str], rng: np.random.Generator):
    """What a learner holding `beliefs` chooses: the choice a belief gives, else the right one,
    but for a slip now and then (any wrong choice)."""
    believed = [c.value for c in q.choices if c.misconception in beliefs]
    if believed:
        return believed[0]
    if rng.random() < SLIPS:
        wrong = [c.value for c in q.choices if c.value != q.answer]
        return wrong[int(rng.integers(len(wrong)))]
    return q.answer


def synthetic_class(room, code: str, seed: int = 32):
    """30 learners, each with one or two planted beliefs; 20 answers each, recorded by each
    learner through `room`. Returns {learner_id: planted}, {learner_id: name}."""
    planted: dict[str, set[str]] = {}
    names: dict[str, str] = {}
    for browser_id, name, beliefs, answers in _answered(seed):
        learner = Learner(browser_id, name, code)
        planted[learner.key], names[learner.key] = set(beliefs), learner.name
        mine = [dataclasses.replace(a, learner_id=learner.key) for a in answers]
        assert room.record_answers(learner, mine) == QUESTIONS
    return planted, names


@functools.lru_cache(maxsize=2)
def _answered(seed: int) -> tuple[tuple[str, str, frozenset[str], tuple[Answer, ...]], ...]:
    """Each learner's browser id, name, planted beliefs and answers (their learner id left
    blank: it names the class), drawn once per process and seed: drawing the 600 questions
    takes about 5 s of CPU, and every test of the insight asks for the same class."""
    rng = np.random.default_rng(seed)
    out = []
    at = 1_000_000.0
    for n in range(LEARNERS):
        beliefs = {PLANTED[n % len(PLANTED)]}
        if n % 3 == 0:
            beliefs.add(PLANTED[(n * 7 + 3) % len(PLANTED)])
        answers: list[Answer] = []
        for k in range(QUESTIONS):
            if k % 3 == 0 or k % 3 == 1:  # two thirds: questions where a belief of hers can show
                belief = sorted(beliefs)[(k // 3) % len(beliefs)]
                kinds = _kinds_of(belief)
                kind, wanted = kinds[int(rng.integers(len(kinds)))], belief
            else:
                kind, wanted = FAST[int(rng.integers(len(FAST)))], None
            seed_, variant, q = _question(kind, rng, wanted)
            at += 7.0
            answers.append(answer_to(q, _answer(q, beliefs, rng), learner_id="",
                                     context="lesson:" + kind.lesson, seed=seed_, variant=variant,
                                     seconds=float(rng.integers(3, 30)), at=at))
        out.append((f"browser-synth-{n:02d}", f"Aluna {n:02d}", frozenset(beliefs), tuple(answers)))
    return tuple(out)
