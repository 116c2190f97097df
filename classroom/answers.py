"""Every answer kept whole (issue 32, item 1): the question as it was asked, the choice made.

An `Answer` says who answered (`learner_id`), where (`context`: "lesson:<lesson>", "review",
"homework:<id>", "live:<session>", "check:<id>:before|after"), which question (its registry
`kind`, `skill`, `variant` and `seed`, so `find_kind(kind).make(np.random.default_rng(seed),
variant)` makes it again; or the `scenario` link it was asked from), the `choices` shown (their
values, as text), the one `chosen`, whether it was `correct`, the `misconception` the chosen
choice reveals (the kind's key, `SLIP`, or None when right), the `seconds` taken and when (`at`).
Answers stored before this module keep what they had: kind "", no choices.

Decided rules (docs/rules.md#answers-whole):
- Never trust the page. `check(answer)` remakes a question from its kind, variant and seed and
  refuses (`AnswerError`, its sentence in `CATALOGUE`, naming the problem) an unknown kind, a
  variant the kind is not asked in, a seed out of range, choices other than the question's,
  a chosen value that is none of them (but for a question that may be typed, `Question.typed`,
  a value it reads, as `value_text` writes it: the typed total of a 21 hand is kept whole with
  the question's choices); `correct` and `misconception` are then the question's
  own, whatever the page said (`checked` returns the answer so corrected, and refuses one that
  disagrees only when asked to be strict). A scenario answer (no kind) is kept as sent, its
  texts bounded.
- A learner writes only her own answers: `record(store, learner, answers)` refuses an answer
  whose `learner_id` is not hers. Each answer also counts for its lesson's progress and its
  skill's mastery (the lesson is the kind's; a scenario answer counts for no lesson), in one
  transaction with the answer rows.
- A learner reads her own answers (`answers_of`); a class's teacher reads her class's
  (`class_answers`, the learners of a laptop class or, under the hub, the members the service
  names after checking she teaches the class).
"""
from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from cartas.catalogue import Catalogue
from cartas.errors import RuleError

from .store import Store

MAX_SEED = 2 ** 63          # seeds 0 .. MAX_SEED - 1 (a BIGINT on PostgreSQL)
MAX_CHOICES = 12
MAX_TEXT = 200              # a choice's value, a context, a variant, at most
MAX_SCENARIO = 4000         # a scenario link, at most
MAX_SECONDS = 24 * 3600.0
MAX_BATCH = 200             # answers in one record, at most
CONTEXTS = ("lesson", "review", "homework", "live", "check")

CATALOGUE = Catalogue("answers", {
    "bad_answer": ("Resposta inválida: {why}.", "Bad answer: {why}."),
    "bad_field": ("Resposta inválida: o campo {field} {why_pt}.", "Bad answer: the field {field} {why_en}."),
    "bad_context": ("Resposta inválida: o contexto {context} não é lesson:…, review, homework:…, live:… ou check:….",
                    "Bad answer: the context {context} is not lesson:…, review, homework:…, live:… or check:…."),
    "unknown_kind": ("Resposta inválida: não há perguntas do tipo {kind}.",
                     "Bad answer: there is no question kind {kind}."),
    "wrong_skill": ("Resposta inválida: o tipo {kind} treina {want}, não {got}.",
                    "Bad answer: the kind {kind} trains {want}, not {got}."),
    "wrong_variant": ("Resposta inválida: o tipo {kind} não é perguntado na variante {variant}.",
                      "Bad answer: the kind {kind} is not asked in the variant {variant}."),
    "bad_seed": ("Resposta inválida: a semente {seed} não é um inteiro de 0 a 2^63 - 1.",
                 "Bad answer: the seed {seed} is not an integer from 0 to 2^63 - 1."),
    "wrong_choices": ("Resposta inválida: as opções mostradas não são as da pergunta {kind} dessa semente.",
                      "Bad answer: the choices shown are not those of the {kind} question of that seed."),
    "not_a_choice": ("Resposta inválida: {chosen} não é uma das opções mostradas.",
                     "Bad answer: {chosen} is none of the choices shown."),
    "not_yours": ("Você só pode gravar as suas próprias respostas.", "You can only record your own answers."),
    "too_many": ("Respostas demais de uma vez: no máximo {most}.", "Too many answers at once: {most} at most."),
})


class AnswerError(RuleError):
    """An answer refused (its sentence in `CATALOGUE`, naming the problem)."""

    catalogue = CATALOGUE


@dataclass(frozen=True)
class Answer:
    """One answer, whole (see the module's docstring)."""

    learner_id: str
    context: str
    kind: str
    skill: str
    variant: str
    seed: int | None
    scenario: str | None
    choices: tuple[str, ...]
    chosen: str
    correct: bool
    misconception: str | None
    seconds: float | None
    at: float

    @property
    def lesson(self) -> str:
        """The lesson this answer counts for: its kind's ("" for a scenario or an older answer
        without a kind; `answers_of` fills it from the stored row then)."""
        if not self.kind:
            return ""
        from cartas.questions import find_kind
        return find_kind(self.kind).lesson

    def question(self) -> Any:
        """The question as it was asked (`cartas.questions.Question`), made again from its seed;
        None for an answer without kind or seed."""
        if not self.kind or self.seed is None:
            return None
        import numpy as np

        from cartas.questions import find_kind
        return find_kind(self.kind).make(np.random.default_rng(self.seed), self.variant or None)

    def to_json(self) -> dict[str, Any]:
        return {"learner_id": self.learner_id, "context": self.context, "kind": self.kind, "skill": self.skill,
                "variant": self.variant, "seed": self.seed, "scenario": self.scenario,
                "choices": list(self.choices), "chosen": self.chosen, "correct": self.correct,
                "misconception": self.misconception, "seconds": self.seconds, "at": self.at}

    @classmethod
    def from_json(cls, data: object, learner_id: str | None = None) -> Answer:
        """An answer from its JSON (as `to_json` gives it), every field's type checked
        (AnswerError naming the field); `learner_id`, when given, replaces the one sent (the
        service's, from the hub token). Not yet `check`ed against its question."""
        if not isinstance(data, dict):
            raise AnswerError("bad_answer", why="not a JSON object")
        known = set(cls.__dataclass_fields__)
        extra = set(data) - known
        if extra:
            raise AnswerError("bad_answer", why="unknown field " + ", ".join(sorted(map(str, extra)))[:80])
        get = data.get
        if learner_id is None:
            learner_id = _text(get("learner_id"), "learner_id")
        choices = get("choices", [])
        if not isinstance(choices, list) or len(choices) > MAX_CHOICES:
            raise _field("choices", "não é uma lista de no máximo 12 textos",
                         "is not a list of at most 12 texts")
        seed = get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise AnswerError("bad_seed", seed=repr(seed)[:40])
        correct = get("correct", False)
        if not isinstance(correct, bool):
            raise _field("correct", "não é verdadeiro nem falso", "is not true or false")
        return cls(learner_id=learner_id, context=_text(get("context"), "context"),
                   kind=_text(get("kind", ""), "kind"), skill=_text(get("skill", ""), "skill"),
                   variant=_text(get("variant", ""), "variant"), seed=seed,
                   scenario=_text(get("scenario"), "scenario", MAX_SCENARIO, optional=True),
                   choices=tuple(_text(c, "choices") for c in choices), chosen=_text(get("chosen"), "chosen"),
                   correct=correct, misconception=_text(get("misconception"), "misconception", optional=True),
                   seconds=_number(get("seconds"), "seconds", optional=True),
                   at=_number(get("at", time.time()), "at") or 0.0)


def _field(name: str, pt: str, en: str) -> AnswerError:
    return AnswerError("bad_field", field=name, why_pt=pt, why_en=en)


def _text(value: object, name: str, most: int = MAX_TEXT, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > most or "\x00" in value:
        raise _field(name, f"não é um texto de no máximo {most} caracteres",
                     f"is not a text of at most {most} characters")
    return value


def _number(value: object, name: str, optional: bool = False) -> float | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise _field(name, "não é um número finito e não negativo", "is not a finite, non-negative number")
    return float(value)


def value_text(value: object) -> str:
    """A choice's value as it is stored and compared, its one spelling: a text as it is, a
    rank by its symbol ("4"), a card as written ("7♦"), a number or true/false as in JSON."""
    if isinstance(value, Enum):
        return value_text(value.value)
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int, float)) or value is None:
        return json.dumps(value)
    if isinstance(value, tuple):
        return json.dumps([value_text(v) for v in value], ensure_ascii=False, separators=(",", ":"))
    return str(value)


def answer_to(question: Any, chosen: object, *, learner_id: str, context: str, seed: int | None = None,
              variant: str | None = None, seconds: float | None = None, at: float | None = None,
              scenario: str | None = None) -> Answer:
    """The whole answer to `question` (a `cartas.questions.Question`) made from `seed` in
    `variant` (default: the question's own, `Question.seed` and `.variant`), `chosen` one of
    its values or, for a question that may be typed, a value it takes (`Question.takes`;
    ValueError otherwise)."""
    seed = getattr(question, "seed", None) if seed is None else seed
    variant = getattr(question, "variant", "") if variant is None else variant
    return Answer(learner_id=learner_id, context=context, kind=question.kind, skill=question.skill,
                  variant=variant or "", seed=seed, scenario=scenario,
                  choices=tuple(value_text(c.value) for c in question.choices), chosen=value_text(chosen),
                  correct=chosen == question.answer, misconception=question.misconception(chosen),
                  seconds=None if seconds is None else max(0.0, float(seconds)),
                  at=time.time() if at is None else float(at))


def check_context(context: object) -> str:
    """`context` if it is one of CONTEXTS' shapes (AnswerError "bad_context" otherwise)."""
    if isinstance(context, str) and 0 < len(context) <= MAX_TEXT and "\x00" not in context:
        head, _, rest = context.partition(":")
        if head == "review" and not rest:
            return context
        if head in ("lesson", "homework", "live") and rest:
            return context
        if head == "check":
            ident, _, phase = rest.rpartition(":")
            if ident and phase in ("before", "after"):
                return context
    raise AnswerError("bad_context", context=repr(context)[:60])


def check(answer: Answer) -> Answer:
    """The answer as its question says it is: kind, variant and seed checked, its choices and
    the chosen one compared with the question's, `skill`, `correct` and `misconception` the
    question's own (whatever was sent). AnswerError naming the problem otherwise."""
    check_context(answer.context)
    if answer.seconds is not None and not 0 <= answer.seconds <= MAX_SECONDS:
        raise _field("seconds", "está fora de 0 a 86400", "is outside 0 to 86400")
    if not answer.kind:  # a scenario's answer, or an older one: kept as sent
        if answer.seed is not None and not 0 <= answer.seed < MAX_SEED:
            raise AnswerError("bad_seed", seed=answer.seed)
        if answer.choices and answer.chosen not in answer.choices:
            raise AnswerError("not_a_choice", chosen=repr(answer.chosen)[:60])
        from .mastery import BY_KEY
        if answer.skill and answer.skill not in BY_KEY:
            raise _field("skill", "não é uma habilidade", "is not a skill")
        return answer
    import numpy as np

    from cartas.questions import QuestionError, find_kind
    try:
        kind = find_kind(answer.kind)
    except QuestionError:
        raise AnswerError("unknown_kind", kind=repr(answer.kind)[:60]) from None
    if answer.variant and answer.variant not in kind.variants:
        raise AnswerError("wrong_variant", kind=kind.key, variant=repr(answer.variant)[:40])
    if answer.skill and answer.skill != kind.skill:
        raise AnswerError("wrong_skill", kind=kind.key, want=kind.skill, got=repr(answer.skill)[:40])
    if answer.seed is None or not 0 <= answer.seed < MAX_SEED:
        raise AnswerError("bad_seed", seed=repr(answer.seed))
    question = kind.make(np.random.default_rng(answer.seed), answer.variant or None)
    values = {value_text(c.value): c.value for c in question.choices}
    if tuple(values) != answer.choices:
        raise AnswerError("wrong_choices", kind=kind.key)
    if answer.chosen in values:
        chosen = values[answer.chosen]
    else:  # a value typed (a hand's total): the question reads it, written as it is stored
        chosen = question.typed(answer.chosen) if question.typed is not None else None
        if chosen is None or value_text(chosen) != answer.chosen or not question.takes(chosen):
            raise AnswerError("not_a_choice", chosen=repr(answer.chosen)[:60])
    return replace(answer, skill=kind.skill, variant=answer.variant or (kind.variants[0] if kind.variants else ""),
                   correct=chosen == question.answer, misconception=question.misconception(chosen))


# The store -----------------------------------------------------------------------------------
# Migration 6 of the "classroom" component (classroom.progress.MIGRATIONS): the answers table's
# new columns; older rows keep what they had (kind "", no choices).
STEP = (
    "ALTER TABLE answers ADD COLUMN context TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE answers ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE answers ADD COLUMN variant TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE answers ADD COLUMN seed BIGINT",
    "ALTER TABLE answers ADD COLUMN scenario TEXT",
    "ALTER TABLE answers ADD COLUMN choices TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE answers ADD COLUMN chosen TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE answers ADD COLUMN misconception TEXT",
    "ALTER TABLE answers ADD COLUMN seconds DOUBLE PRECISION",
    "CREATE INDEX answers_by_time ON answers (learner_id, at)",
)

_COLUMNS = ("learner_id, lesson, correct, at, skill, context, kind, variant, seed, scenario, choices, chosen, "
            "misconception, seconds")


def record(store: Store, learner: Any, answers: Iterable[Answer]) -> int:
    """Store `answers` of `learner` (a `classroom.identity.Learner`), each `check`ed, with her
    row, her lessons' counters and her skills' answers, in one transaction; return how many.
    AnswerError for an answer that is not hers or that its question refutes (nothing stored)."""
    rows = [check(a) for a in answers]
    if len(rows) > MAX_BATCH:
        raise AnswerError("too_many", most=MAX_BATCH)
    if any(a.learner_id != learner.key for a in rows):
        raise AnswerError("not_yours")
    if not rows:
        return 0
    now = max(a.at for a in rows)
    counts: dict[str, list[int]] = {}
    for a in rows:
        if a.lesson:
            entry = counts.setdefault(a.lesson, [0, 0])
            entry[0] += a.correct
            entry[1] += 1
    with store.transaction(batch=True) as tx:
        tx.execute("INSERT INTO learners (id, name, class_code, created_at, last_seen) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
                   "name = CASE WHEN learners.class_code = '' THEN excluded.name ELSE learners.name END, "
                   "last_seen = excluded.last_seen",
                   (learner.key, learner.name, learner.class_code, now, now))
        tx.executemany(f"INSERT INTO answers ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [_row(a) for a in rows])
        for lesson, (right, asked) in counts.items():
            tx.execute("INSERT INTO progress (learner_id, lesson, right_count, asked_count, last_at) "
                       "VALUES (?, ?, ?, ?, ?) ON CONFLICT (learner_id, lesson) DO UPDATE SET "
                       "right_count = progress.right_count + excluded.right_count, "
                       "asked_count = progress.asked_count + excluded.asked_count, "
                       "last_at = excluded.last_at", (learner.key, lesson, right, asked, now))
    return len(rows)


def _row(a: Answer) -> tuple:
    lesson = a.lesson or (a.context.partition(":")[2] if a.context.startswith("lesson:") else "")
    return (a.learner_id, lesson or a.context, int(a.correct), a.at, a.skill, a.context, a.kind, a.variant, a.seed,
            a.scenario, json.dumps(list(a.choices), ensure_ascii=False), a.chosen, a.misconception, a.seconds)


_SELECT = ("SELECT learner_id, context, kind, skill, variant, seed, scenario, choices, chosen, correct, "
           "misconception, seconds, at, lesson FROM answers")


def _answer(row: Sequence) -> Answer:
    (learner_id, context, kind, skill, variant, seed, scenario, choices, chosen, correct, misconception,
     seconds, at, lesson) = row
    try:
        shown = tuple(str(c) for c in json.loads(choices or "[]"))
    except ValueError:
        shown = ()
    return Answer(learner_id=str(learner_id), context=str(context or (f"lesson:{lesson}" if lesson else "")),
                  kind=str(kind or ""), skill=str(skill or ""), variant=str(variant or ""),
                  seed=None if seed is None else int(seed), scenario=scenario, choices=shown, chosen=str(chosen or ""),
                  correct=bool(correct), misconception=misconception,
                  seconds=None if seconds is None else float(seconds), at=float(at))


def answers_of(store: Store, learner_id: str, since: float | None = None, context: str | None = None,
               limit: int | None = None) -> list[Answer]:
    """`learner_id`'s answers, oldest first (since `since`, of `context` when given; the last
    `limit` when given). Older answers come with kind "" and no choices."""
    return _select(store, "learner_id = ?", [learner_id], since, context, limit)


def answers_of_learners(store: Store, learner_ids: Sequence[str], since: float | None = None,
                        context: str | None = None) -> list[Answer]:
    """The answers of these learners (a class's), oldest first."""
    if not learner_ids:
        return []
    marks = ", ".join("?" for _ in learner_ids)
    return _select(store, f"learner_id IN ({marks})", list(learner_ids), since, context, None)


def class_answers(store: Store, code: str, since: float | None = None, context: str | None = None) -> list[Answer]:
    """The answers of the learners of laptop class `code`, oldest first."""
    return _select(store, "learner_id IN (SELECT id FROM learners WHERE class_code = ?)", [code], since, context,
                   None)


def _select(store: Store, where: str, params: list, since: float | None, context: str | None,
            limit: int | None) -> list[Answer]:
    if since is not None:
        where += " AND at >= ?"
        params.append(float(since))
    if context is not None:
        where += " AND context = ?"
        params.append(context)
    order = "ORDER BY at DESC, id DESC" + (f" LIMIT {int(limit)}" if limit is not None else "")
    with store.transaction(write=False) as tx:
        rows = tx.execute(f"{_SELECT} WHERE {where} {order}", params).fetchall()
    return [_answer(r) for r in reversed(rows)]


# What persists (issue 32, item 5) ----------------------------------------------------------------
RECENT_ANSWERS = 40         # a learner's last answers that say what she still believes
RECENT_DAYS = 30.0          # ... given within this many days
PERSISTS = 2                # a misconception shown this many times among them persists


def persisting(answers: Sequence[Answer], now: float | None = None) -> dict[str, dict[str, int]]:
    """{kind: {misconception: times}} of the named misconceptions (not slips) a learner showed
    at least PERSISTS times among her last RECENT_ANSWERS answers of the last RECENT_DAYS days
    (`answers`: hers, oldest first, as `answers_of` gives them), most shown first."""
    from cartas.questions import SLIP
    now = time.time() if now is None else now
    recent = [a for a in answers if a.at >= now - RECENT_DAYS * 86400][-RECENT_ANSWERS:]
    shown: dict[str, int] = {}
    kinds: dict[str, dict[str, int]] = {}
    for a in recent:
        if a.kind and not a.correct and a.misconception not in (None, SLIP):
            key = str(a.misconception)
            shown[key] = shown.get(key, 0) + 1
            per = kinds.setdefault(a.kind, {})
            per[key] = per.get(key, 0) + 1
    out = {kind: {m: shown[m] for m in sorted(per, key=lambda m: -shown[m]) if shown[m] >= PERSISTS}
           for kind, per in kinds.items()}
    return {k: v for k, v in sorted(out.items(), key=lambda kv: -max(kv[1].values(), default=0)) if v}
