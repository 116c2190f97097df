"""The teacher's insight (issue 32, item 3): what the class gets wrong, and why.

A pure report over a sequence of whole answers (`classroom.answers.Answer`): `report(answers)`
reads nothing else, so the same report is made in this process and under the hub, from what the
classroom interface gives the class's teacher (`class_report(room, code)`, which asks
`room.class_answers` alone).

Decided rules:
- An item is a skill or a question kind. Per item: how many answers, how many right, the median
  time taken (of the answers that say it), and its misconceptions: each named misconception its
  wrong answers showed, with how many times and which learners hold it.
- A learner *holds* a misconception when she has shown it at least HELD (2) times among her
  last RECENT (10) answers to questions that offered its choice (each question made again from
  its kind, seed and variant): once is a slip of the hand, twice is a belief; and she *still*
  holds it when it is not behind her: answering right LETGO (3) such questions in a row since
  she last showed it lets it go. A slip (`SLIP`) is never held.
- Per learner: the misconceptions she still holds, most shown first, with her last wrong answers
  showing them (at most LAST_WRONG per misconception, newest first), each made again as she saw
  it from its kind, seed and variant (`Answer.question()`).
- Per live-quiz question (answers of context "live:..."; one question is one context, kind,
  seed and variant): how many chose each choice, and the most popular wrong choice with its
  misconception, whose rule (`Misconception.rule`) is the sentence to say to the class.
- CSV (UTF-8 with a byte-order mark, so a spreadsheet reads the accents): one row per answer
  (`answers_csv`), and one per item x misconception (`items_csv`).
- Answers kept before whole answers (kind "") count for their skill's % right and time only.
- Skills come in the order of the registry (classroom.mastery.SKILLS: lesson by lesson, as the
  course goes), any other skill after them; question kinds by key.
"""
from __future__ import annotations

import csv
import io
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .answers import Answer
from .mastery import SKILLS

if TYPE_CHECKING:
    from .interface import Classroom

SLIP = "slip"  # cartas.questions.SLIP: a wrong choice that names no belief
HELD = 2
RECENT = 10
LETGO = 3
LAST_WRONG = 3
BOM = "\ufeff"
SKILL_ORDER = {skill.key: n for n, skill in enumerate(SKILLS)}  # a report lists its skills in this order


@dataclass(frozen=True)
class Held:
    """A misconception shown in an item's answers: `times` shown there, `learners` (their ids,
    sorted) who still hold it."""

    key: str
    times: int
    learners: tuple[str, ...]


@dataclass(frozen=True)
class Item:
    """A skill's or a question kind's figures (see the module's rules)."""

    key: str
    answered: int
    right: int
    median_seconds: float | None
    misconceptions: tuple[Held, ...]  # most learners holding first, then most shown

    @property
    def percent_right(self) -> float:
        return 100.0 * self.right / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class LearnerInsight:
    """One learner: her answers, right ones, and the misconceptions she still holds, each with
    her last wrong answers showing it (newest first)."""

    learner_id: str
    answered: int
    right: int
    holds: tuple[tuple[str, tuple[Answer, ...]], ...]


@dataclass(frozen=True)
class LiveQuestion:
    """One live-quiz question's answers: the choices shown and how many chose each, the right
    one, and the most chosen wrong choice with its misconception (None when nobody was wrong)."""

    context: str
    kind: str
    seed: int | None
    variant: str
    choices: tuple[str, ...]
    counts: tuple[int, ...]
    answer: str | None
    popular_wrong: str | None
    popular_misconception: str | None


@dataclass(frozen=True)
class Insight:
    skills: tuple[Item, ...]
    kinds: tuple[Item, ...]
    learners: tuple[LearnerInsight, ...]
    live: tuple[LiveQuestion, ...]

    def holders(self, misconception: str) -> tuple[str, ...]:
        """The learners who still hold `misconception`."""
        return tuple(sorted(p.learner_id for p in self.learners if misconception in dict(p.holds)))

    def held(self) -> dict[str, tuple[str, ...]]:
        """Every misconception someone still holds -> its learners."""
        keys = {key for p in self.learners for key, _ in p.holds}
        return {key: self.holders(key) for key in sorted(keys)}


def _offered(answer: Answer, cache: dict[tuple[str, int | None, str], frozenset[str]]) -> frozenset[str]:
    """The misconceptions the question answered offered a choice for (made again from its kind,
    seed and variant); for an answer that cannot be made again, the one it showed."""
    key = (answer.kind, answer.seed, answer.variant)
    if key not in cache:
        question = answer.question() if answer.kind and answer.seed is not None else None
        cache[key] = (frozenset(c.misconception for c in question.choices if c.misconception not in (None, SLIP))
                      if question is not None else frozenset())
    found = cache[key]
    return found | {answer.misconception} if answer.misconception not in (None, SLIP) else found


def _still_holds(history: Sequence[Answer], offered: Sequence[frozenset[str]], key: str) -> bool:
    """Whether a learner whose answers are `history` (oldest first; `offered` what each one's
    question offered) still holds `key` (see the module's rules)."""
    asked = [a for a, o in zip(history, offered) if key in o]
    if sum(a.misconception == key for a in asked[-RECENT:]) < HELD:
        return False
    last = max(i for i, a in enumerate(asked) if a.misconception == key)
    since = asked[last + 1:]
    return not (len(since) >= LETGO and all(a.correct for a in since[-LETGO:]))


def _median(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return float(statistics.median(known)) if known else None


def _item(key: str, answers: Sequence[Answer], holders: Mapping[str, set[str]]) -> Item:
    shown = Counter(a.misconception for a in answers
                    if not a.correct and a.misconception is not None and a.misconception != SLIP)
    held = [Held(m, n, tuple(sorted(holders.get(m, set()) & {a.learner_id for a in answers
                                                              if a.misconception == m})))
            for m, n in shown.items()]
    held.sort(key=lambda h: (-len(h.learners), -h.times, h.key))
    return Item(key, len(answers), sum(a.correct for a in answers), _median(a.seconds for a in answers),
                tuple(held))


def _live(answers: Sequence[Answer]) -> tuple[LiveQuestion, ...]:
    groups: dict[tuple[str, str, int | None, str], list[Answer]] = defaultdict(list)
    for a in answers:
        if a.context.startswith("live:") and a.kind:
            groups[(a.context, a.kind, a.seed, a.variant)].append(a)
    out = []
    for (context, kind, seed, variant), group in groups.items():
        choices = group[0].choices
        chosen = Counter(a.chosen for a in group)
        right = next((a.chosen for a in group if a.correct), None)
        if right is None:  # nobody right: the question says which was
            question = group[0].question()
            if question is not None:
                from .answers import value_text
                right = value_text(question.answer)
        wrong = Counter({c: n for c, n in chosen.items() if c != right})
        popular = min(wrong, key=lambda c: (-wrong[c], choices.index(c) if c in choices else len(choices))) \
            if wrong else None
        named = next((a.misconception for a in group if a.chosen == popular), None) if popular else None
        out.append(LiveQuestion(context, kind, seed, variant, choices, tuple(chosen.get(c, 0) for c in choices),
                                right, popular, named))
    return tuple(sorted(out, key=lambda q: (q.context, min(a.at for a in groups[(q.context, q.kind, q.seed,
                                                                                   q.variant)]))))


def popular_wrong(counts: Sequence[int], right: int) -> int | None:
    """The most chosen wrong choice's index (the first of equals), None when nobody was wrong."""
    wrong = [(n, -k) for k, n in enumerate(counts) if k != right and n > 0]
    return -max(wrong)[1] if wrong else None


def report(answers: Iterable[Answer]) -> Insight:
    """The insight over `answers` (any order; see the module's rules)."""
    ordered = sorted(answers, key=lambda a: (a.at, a.learner_id))
    by_learner: dict[str, list[Answer]] = defaultdict(list)
    for a in ordered:
        by_learner[a.learner_id].append(a)
    cache: dict[tuple[str, int | None, str], frozenset[str]] = {}
    holders: dict[str, set[str]] = defaultdict(set)
    learners = []
    for learner_id in sorted(by_learner):
        history = by_learner[learner_id]
        offered = [_offered(a, cache) for a in history]
        shown = Counter(a.misconception for a in history if a.misconception not in (None, SLIP))
        holds = []
        for key, _ in sorted(shown.items(), key=lambda kv: (-kv[1], kv[0])):
            if _still_holds(history, offered, key):
                holders[key].add(learner_id)
                last = tuple(a for a in reversed(history) if a.misconception == key)[:LAST_WRONG]
                holds.append((key, last))
        learners.append(LearnerInsight(learner_id, len(history), sum(a.correct for a in history), tuple(holds)))
    by_skill: dict[str, list[Answer]] = defaultdict(list)
    by_kind: dict[str, list[Answer]] = defaultdict(list)
    for a in ordered:
        by_skill[a.skill or ""].append(a)
        if a.kind:
            by_kind[a.kind].append(a)
    return Insight(tuple(_item(k, by_skill[k], holders) for k in sorted(by_skill, key=_skill_order)),
                   tuple(_item(k, v, holders) for k, v in sorted(by_kind.items())),
                   tuple(learners), _live(ordered))


def _skill_order(key: str) -> tuple[int, str]:
    """Skills in the order of the registry (classroom.mastery.SKILLS, lesson by lesson); any
    other (an older answer's "", a skill no longer registered) after them, by key."""
    return (SKILL_ORDER.get(key, len(SKILL_ORDER)), key)


def class_report(room: Classroom, code: str, since: float | None = None) -> Insight:
    """The insight of class `code` from the classroom interface (its teacher's; the interface
    refuses anyone else)."""
    return report(room.class_answers(code, since=since))


# CSV ----------------------------------------------------------------------------------------
ANSWER_COLUMNS = ("learner_id", "name", "context", "kind", "skill", "variant", "seed", "chosen", "choices",
                  "correct", "misconception", "seconds", "at")
ITEM_COLUMNS = ("item", "key", "answered", "right", "percent_right", "median_seconds", "misconception",
                "misconception_pt", "misconception_en", "times", "learners", "learner_names")


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else _cell(v) for v in row])
    return BOM + out.getvalue()


def _cell(value: object) -> object:
    """A cell a spreadsheet will not run as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@") and not _number(value):
        return "'" + value
    return value


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def answers_csv(answers: Iterable[Answer], names: Mapping[str, str] | None = None) -> str:
    """One row per answer, oldest first (UTF-8 text with its byte-order mark)."""
    names = names or {}
    rows = ((a.learner_id, names.get(a.learner_id, ""), a.context, a.kind, a.skill, a.variant, a.seed, a.chosen,
             " | ".join(a.choices), int(a.correct), a.misconception, a.seconds, a.at)
            for a in sorted(answers, key=lambda a: (a.at, a.learner_id)))
    return _csv(ANSWER_COLUMNS, rows)


def items_csv(insight: Insight, names: Mapping[str, str] | None = None) -> str:
    """One row per item x misconception (an item with none: one row, its misconception empty)."""
    from cartas.questions import misconception

    names = names or {}
    rows: list[tuple[object, ...]] = []
    for what, items in (("skill", insight.skills), ("kind", insight.kinds)):
        for item in items:
            base = (what, item.key, item.answered, item.right, round(item.percent_right, 1),
                    None if item.median_seconds is None else round(item.median_seconds, 1))
            if not item.misconceptions:
                rows.append(base + (None,) * 6)
            for held in item.misconceptions:
                text = misconception(held.key).text
                rows.append(base + (held.key, text.pt, text.en, held.times, len(held.learners),
                                    ", ".join(names.get(k, k) for k in held.learners)))
    return _csv(ITEM_COLUMNS, rows)
