"""Mastery per skill: the named skills each lesson's questions train, a level per learner and
skill from her recent answers, and a Leitner box saying when a skill is due for review.

Decided rules (docs/rules.md#mastery-levels, docs/rules.md#review-boxes):
- Every question kind of a lesson names one skill of SKILLS (its key is stored with the
  answer, in the `answers.skill` column); an answer without a skill only counts for its
  lesson, as before.
- A learner's level in a skill comes from her last RECENT (5) answers in it, newest first:
  no answer: no level; all RECENT right: "mastered"; at least 4 of them right:
  "proficient"; at least 2 right: "familiar"; otherwise "attempted".
- Leitner boxes 1..BOXES (5): a skill's box is one more than the number of right answers
  that end its history (a wrong answer puts it back in box 1, each right one after moves it
  up a box), at most BOXES. So the last BOXES - 1 answers decide it, and nothing but the
  answers is stored: concurrent kernels cannot lose a box move.
- A skill is due for review when REVIEW_DAYS[box] days have passed since its last answer
  (box 1: at once, 2: one day, 3: three, 4: seven, 5: fourteen); the most overdue first.
- Today's review asks at most ROUND of the due skills, truco's and 21's alike, mixed: the
  next skill is the most overdue one of the other game family, while there is one
  (`review_queue`).
- Levels, boxes and the class's hardest skills are read with plain values in and out, behind
  `MasteryService` (`StoreMastery` over this store), so a class service can answer instead.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the store is passed in; only its type is named here
    from .store import Store

RECENT = 5
BOXES = 5
DAY = 86_400.0
REVIEW_DAYS = {1: 0, 2: 1, 3: 3, 4: 7, 5: 14}
LEVELS = ("attempted", "familiar", "proficient", "mastered")
ROUND = 10  # questions in one round of today's review, at most


@dataclass(frozen=True)
class Skill:
    key: str
    lesson: str   # the lesson whose exercises ask it (its progress key)
    name: dict    # {"pt": ..., "en": ...}
    family: str   # the game family it belongs to (cartas.games.GameSpec.family): "truco" or "21"


SKILLS: tuple[Skill, ...] = (
    Skill("manilhas_from_vira", "manilhas",
          {"pt": "Achar as manilhas pela vira", "en": "Find the manilhas from the vira"}, "truco"),
    Skill("fixed_manilhas", "manilhas",
          {"pt": "Reconhecer as manilhas fixas", "en": "Know the fixed manilhas"}, "truco"),
    Skill("stronger_card", "manilhas",
          {"pt": "Dizer qual carta é mais forte", "en": "Tell which card is stronger"}, "truco"),
    Skill("who_is_mao", "truco_mao",
          {"pt": "Saber quem é a mão", "en": "Know who leads the hand"}, "truco"),
    Skill("manilha_in_hand", "truco_mao",
          {"pt": "Ver a manilha numa mão", "en": "Spot a manilha in a hand"}, "truco"),
    Skill("trick_winner", "truco_rodadas",
          {"pt": "Quem leva a rodada", "en": "Who takes a trick"}, "truco"),
    Skill("tied_hand", "truco_rodadas",
          {"pt": "Quem leva uma mão empatada", "en": "Who takes a tied hand"}, "truco"),
    Skill("value_after_raise", "truco_apostas",
          {"pt": "Quanto vale a mão depois de um pedido", "en": "What the hand is worth after a raise"}, "truco"),
    Skill("points_for_running", "truco_apostas",
          {"pt": "Quanto ganha quem pediu se o outro corre", "en": "What running from a raise gives away"}, "truco"),
    Skill("mao_de_onze", "truco_mao_de_onze",
          {"pt": "Jogar ou correr na mão de onze", "en": "Play or run at the mão de onze"}, "truco"),
    Skill("mineiro_ladder", "truco_mineiro",
          {"pt": "A escada do Truco Mineiro", "en": "The Truco Mineiro ladder"}, "truco"),
    Skill("mineiro_duel", "truco_mineiro",
          {"pt": "Duelo de cartas no Mineiro e no Paulista", "en": "Card duels in Mineiro and Paulista"}, "truco"),
    Skill("score_21_hand", "vinte_e_um_pontos",
          {"pt": "Contar os pontos de uma mão de 21", "en": "Score a 21 hand"}, "21"),
    Skill("who_wins_21_call", "vinte_e_um_pontos",
          {"pt": "Quem ganha a chamada no 21", "en": "Who wins a call at 21"}, "21"),
    Skill("hit_or_stand", "vinte_e_um_rodada",
          {"pt": "Pedir ou parar no 21", "en": "Hit or stand at 21"}, "21"),
    Skill("pass_the_bank", "vinte_e_um_banca",
          {"pt": "Para quem vai a banca", "en": "Who takes the bank"}, "21"),
)
BY_KEY = {skill.key: skill for skill in SKILLS}

LEVEL_NAMES = {
    "attempted": {"pt": "Tentou", "en": "Attempted"},
    "familiar": {"pt": "Familiar", "en": "Familiar"},
    "proficient": {"pt": "Proficiente", "en": "Proficient"},
    "mastered": {"pt": "Domina", "en": "Mastered"},
}


def check_skill(skill) -> str:
    """`skill` if it names a skill of SKILLS, "" for none; ValueError for any other text."""
    if skill in (None, ""):
        return ""
    if not isinstance(skill, str) or skill not in BY_KEY:
        raise ValueError(f"unknown skill {str(skill)[:40]!r}: see classroom.mastery.SKILLS")
    return skill


# The rules, on a list of answers (newest first) ---------------------------------------------
def level(recent: list[bool]) -> str | None:
    """The level from a skill's answers, newest first (docs/rules.md#mastery-levels)."""
    recent = list(recent)[:RECENT]
    if not recent:
        return None
    right = sum(bool(a) for a in recent)
    if len(recent) == RECENT and right == RECENT:
        return "mastered"
    if right >= 4:
        return "proficient"
    if right >= 2:
        return "familiar"
    return "attempted"


def box(recent: list[bool]) -> int:
    """The Leitner box from a skill's answers, newest first (docs/rules.md#review-boxes)."""
    streak = 0
    for correct in recent:
        if not correct:
            break
        streak += 1
    return min(BOXES, 1 + streak)


def due_at(recent: list[bool], last_at: float) -> float:
    """When a skill answered last at `last_at` comes back for review."""
    return last_at + REVIEW_DAYS[box(recent)] * DAY


def review_queue(due: list[str], size: int = ROUND) -> list[str]:
    """The skills today's review asks, in turn (docs/rules.md#review-boxes): at most `size` of
    the due skills `due` (the most overdue first, as `due_skills` gives them), truco's and 21's
    alike, mixed: each next skill is the most overdue one of another game family than the skill
    just before it, while one is left; then the most overdue one left."""
    left = [skill for skill in due if skill in BY_KEY][:size]
    queue: list[str] = []
    while left:
        last = BY_KEY[queue[-1]].family if queue else None
        chosen = next((skill for skill in left if BY_KEY[skill].family != last), left[0])
        queue.append(chosen)
        left.remove(chosen)
    return queue


# The store -------------------------------------------------------------------------------------
_RECENT_SQL = (
    "SELECT learner_id, skill, correct, at FROM ("
    " SELECT a.learner_id, a.skill, a.correct, a.at, ROW_NUMBER() OVER ("
    "  PARTITION BY a.learner_id, a.skill ORDER BY a.at DESC, a.id DESC) AS n"
    " FROM answers a {join} WHERE a.skill <> '' AND {where}) recent "
    "WHERE n <= ? ORDER BY learner_id, skill, n")


def _recent(store: Store, where: str, params: tuple, join: str = "") -> dict[str, dict[str, tuple]]:
    """{learner: {skill: (answers newest first, time of the newest, their times newest first)}}."""
    sql = _RECENT_SQL.format(join=join, where=where)
    with store.transaction(write=False) as tx:
        rows = tx.execute(sql, (*params, RECENT)).fetchall()
    out: dict[str, dict[str, tuple]] = {}
    for learner_id, skill, correct, at in rows:
        if skill not in BY_KEY:
            continue  # a skill this code no longer knows
        answers, _newest, times = out.setdefault(learner_id, {}).setdefault(skill, ([], float(at), []))
        answers.append(bool(correct))
        times.append(float(at))
    return out


def _describe(answers: list[bool], newest: float, times: list[float]) -> dict:
    """times: when the recent answers were given, newest first: today's review seeds a skill's
    questions from them (widgets.pages.revisao)."""
    return {"level": level(answers), "box": box(answers), "right": sum(answers), "recent": len(answers),
            "last_at": newest, "times": list(times), "due_at": due_at(answers, newest)}


def learner_levels(store: Store, learner_id: str) -> dict[str, dict]:
    """{skill: {"level", "box", "right", "recent", "last_at", "times", "due_at"}} for the skills
    she has answered."""
    mine = _recent(store, "a.learner_id = ?", (learner_id,)).get(learner_id, {})
    return {skill: _describe(*mine[skill]) for skill in mine}


def due_skills(store: Store, learner_id: str, now: float | None = None) -> list[str]:
    """The skills due for review now, the most overdue first (docs/rules.md#review-boxes)."""
    now = time.time() if now is None else now
    levels = learner_levels(store, learner_id)
    due = [(info["due_at"], skill) for skill, info in levels.items() if info["due_at"] <= now]
    return [skill for _, skill in sorted(due)]


def class_levels(store: Store, class_code: str, learner_ids: list[str] | None = None) -> dict:
    """The class's levels: {"learners": {learner: {skill: level}}, "skills": {skill: {"right",
    "asked", "rate", "levels": {level: count}}}, "hardest": skills answered, the lowest share
    of right recent answers first}. `learner_ids`: the class's when the caller knows them (the
    class service: the hub group's members), else the class's in this store."""
    if learner_ids is not None:
        recent = _recent(store, f"a.learner_id IN ({', '.join('?' for _ in learner_ids) or 'NULL'})",
                         tuple(learner_ids))
    else:
        recent = _recent(store, "l.class_code = ?", (class_code,),
                         join="JOIN learners l ON l.id = a.learner_id")
    learners = {pid: {skill: level(answers) for skill, (answers, *_) in skills.items()}
                for pid, skills in recent.items()}
    per_skill: dict[str, dict] = {}
    for skills in recent.values():
        for skill, (answers, *_) in skills.items():
            entry = per_skill.setdefault(skill, {"right": 0, "asked": 0,
                                                 "levels": dict.fromkeys(LEVELS, 0)})
            entry["right"] += sum(answers)
            entry["asked"] += len(answers)
            entry["levels"][level(answers)] += 1
    for entry in per_skill.values():
        entry["rate"] = entry["right"] / entry["asked"]
    order = [s.key for s in SKILLS]
    hardest = sorted(per_skill, key=lambda s: (per_skill[s]["rate"], order.index(s)))
    return {"learners": learners, "skills": per_skill, "hardest": hardest}


class MasteryService(Protocol):
    """What the dashboards ask about skills, in plain values (see the module's rules)."""

    def learner_levels(self, learner_id: str) -> dict[str, dict]: ...
    def due_skills(self, learner_id: str, now: float | None = None) -> list[str]: ...
    def class_levels(self, class_code: str) -> dict: ...


class StoreMastery:
    """MasteryService over a store opened with the progress tables (classroom.progress)."""

    def __init__(self, store: Store):
        self.store = store

    def learner_levels(self, learner_id: str) -> dict[str, dict]:
        return learner_levels(self.store, learner_id)

    def due_skills(self, learner_id: str, now: float | None = None) -> list[str]:
        return due_skills(self.store, learner_id, now)

    def class_levels(self, class_code: str, learner_ids: list[str] | None = None) -> dict:
        """`learner_ids`: the class's learners when the caller knows them (the class service:
        its hub group's members), else the class's learners in this store."""
        return class_levels(self.store, class_code, learner_ids)


def for_store(store: Store) -> MasteryService:
    """The MasteryService of `store` (under JupyterHub, `classroom.open().mastery()` is the
    class service's)."""
    return StoreMastery(store)
