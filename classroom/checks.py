"""A check before and after (issue 32, item 4): a short test of chosen skills, taken before a
unit and again after it, and the class's normalized gain.

Decided rules (docs/rules.md#check-before-after, docs/rules.md#check-gain):
- A check belongs to one class. Its teacher opens it for 1 or more skills (`classroom.mastery.SKILLS`
  that some question kind of the registry, `cartas.questions`, trains) and MIN_SIZE to MAX_SIZE
  questions. The kinds are those skills' kinds, in turn, the same for both phases; each phase
  has its own seed (a seeded numpy Generator, both stored), from which every question's own seed
  is drawn, so the "after" phase asks the same kinds with different deals.
- Phases: "before" (open when made), then "after" (the teacher opens it; the "before" phase no
  longer takes answers), then "closed". A learner submits her whole phase at once, only her own
  answers, once per phase: the submissions' primary key (check, phase, learner) lets exactly
  one of two submissions sent at once count; the second is refused ("already_done").
- Never trust the page: a check id, a phase or a choice the check did not offer is refused with
  its own code, naming it (`CheckError`, its sentences in `CATALOGUE`, both languages). What is
  right is decided here, from the question remade from its seed; nothing of it is sent back
  while the check is taken (no feedback).
- Each answer is an answer record (`classroom.answers.Answer`, context "check:<id>:before|after").
- Results are matched per learner: only the learners who took both phases count. Per skill and
  for the class: the mean share right before, after, and the normalized gain
  (after - before) / (1 - before); None when before is 1 (nobody can gain: the page says "no
  room to gain"). Misconceptions (the named ones, not slips) shown before by a matched learner:
  "vanished" when none of them shows it after, "stayed" when some still do (how many learners
  each, before and after).
"""
from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from typing import Any, Protocol

from cartas.catalogue import Catalogue
from cartas.errors import RuleError

from . import answers as whole
from .identity import CODE_ALPHABET
from .mastery import BY_KEY
from .store import Migrations, Store

MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 8, 12, 10
ID_LENGTH = 8
PHASES = ("before", "after")
PHASE_NAMES = {"before": {"pt": "antes", "en": "before"}, "after": {"pt": "depois", "en": "after"}}
MAX_SEED = 2 ** 63

MIGRATIONS = Migrations("checks", [
    ("CREATE TABLE checks (id TEXT PRIMARY KEY, class_code TEXT NOT NULL, skills TEXT NOT NULL, "
     "size INTEGER NOT NULL, seed_before BIGINT NOT NULL, seed_after BIGINT NOT NULL, "
     "phase TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL)",
     "CREATE INDEX checks_by_class ON checks (class_code, created_at)",
     "CREATE TABLE check_submissions (check_id TEXT NOT NULL, phase TEXT NOT NULL, learner_id TEXT NOT NULL, "
     "right_count INTEGER NOT NULL, asked_count INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL, "
     "PRIMARY KEY (check_id, phase, learner_id))"),
])

CATALOGUE = Catalogue("checks", {
    "bad_id": ("Não há verificação {id}.", "There is no check {id}."),
    "other_class": ("Esta verificação é de outra turma.", "This check belongs to another class."),
    "bad_skills": ("Escolha de 1 a {most} habilidades com perguntas (recusada: {skill}).",
                   "Choose 1 to {most} skills that have questions (refused: {skill})."),
    "bad_size": ("Uma verificação tem de {low} a {high} perguntas.", "A check has {low} to {high} questions."),
    "bad_phase": ("A fase {phase} não existe: antes (before) ou depois (after).",
                  "There is no phase {phase}: before or after."),
    "phase_closed": ("A fase «{phase_pt}» desta verificação não está aberta.",
                     "The “{phase_en}” phase of this check is not open."),
    "already_done": ("Você já fez a fase «{phase_pt}» desta verificação; vale a primeira.",
                     "You already took the “{phase_en}” phase of this check; the first one counts."),
    "bad_answers": ("Mande uma resposta para cada uma das {n} perguntas.",
                    "Send one answer for each of the {n} questions."),
    "bad_choice": ("A resposta {choice} da pergunta {number} não é uma das opções dela.",
                   "The answer {choice} to question {number} is none of its choices."),
    "not_after": ("A fase depois só abre depois da fase antes.", "The after phase opens only after the before phase."),
    "no_class": ("Entre na sua turma para fazer a verificação.", "Join your class to take the check."),
})


class CheckError(RuleError):
    """A check call refused: `code` names why (the catalogue above, both languages)."""

    catalogue = CATALOGUE


def skill_kinds(skill: str) -> tuple[Any, ...]:
    """The registry's question kinds that train `skill`, in the registry's order."""
    from cartas.questions import all_kinds
    return tuple(k for k in all_kinds() if k.skill == skill)


def checkable_skills() -> tuple[str, ...]:
    """The skills a check can ask: those some question kind trains."""
    from cartas.questions import all_kinds
    trained = {k.skill for k in all_kinds()}
    return tuple(s for s in BY_KEY if s in trained)


def clean_skills(skills: object) -> list[str]:
    """The chosen skills, each a checkable skill, once each, in the given order; CheckError otherwise."""
    allowed = checkable_skills()
    if not isinstance(skills, (list, tuple)) or not 0 < len(skills) <= len(allowed):
        raise CheckError("bad_skills", most=len(allowed), skill=repr(skills)[:40])
    out: list[str] = []
    for skill in skills:
        if not isinstance(skill, str) or skill not in allowed:
            raise CheckError("bad_skills", most=len(allowed), skill=repr(skill)[:40])
        if skill not in out:
            out.append(skill)
    return out


def clean_size(size: object) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise CheckError("bad_size", low=MIN_SIZE, high=MAX_SIZE)
    return size


def clean_phase(phase: object) -> str:
    if phase not in PHASES:
        raise CheckError("bad_phase", phase=repr(phase)[:20])
    return str(phase)


def clean_id(ident: object) -> str:
    if not isinstance(ident, str) or len(ident) != ID_LENGTH or any(c not in CODE_ALPHABET for c in ident):
        raise CheckError("bad_id", id=repr(ident)[:20])
    return ident


def plan(skills: Sequence[str], size: int, seed: int) -> list[dict]:
    """The questions of one phase: [{"kind", "variant", "seed"}] * size. The kinds of `skills`,
    in turn (skill by skill, each skill's kinds in turn), the same for any seed; each question's
    seed drawn from a Generator seeded with `seed`."""
    import numpy as np
    per_skill = [skill_kinds(s) for s in skills]
    rng = np.random.default_rng(seed)
    out = []
    for number in range(size):
        kinds = per_skill[number % len(per_skill)]
        kind = kinds[(number // len(per_skill)) % len(kinds)]
        out.append({"kind": kind.key, "variant": kind.variants[0] if kind.variants else "",
                    "seed": int(rng.integers(0, MAX_SEED))})
    return out


def make_question(item: dict) -> Any:
    """The question a planned item asks (`cartas.questions.Question`), remade from its seed."""
    import numpy as np

    from cartas.questions import find_kind
    return find_kind(item["kind"]).make(np.random.default_rng(item["seed"]), item["variant"] or None)


def _row_check(row: Sequence) -> dict:
    ident, class_code, skills, size, seed_before, seed_after, phase, created = row
    return {"id": str(ident), "class_code": str(class_code), "skills": json.loads(skills), "size": int(size),
            "seeds": {"before": int(seed_before), "after": int(seed_after)}, "phase": str(phase),
            "created_at": float(created)}


_CHECK = "SELECT id, class_code, skills, size, seed_before, seed_after, phase, created_at FROM checks"


def open_check(store: Store, class_code: str, skills: object, size: object = DEFAULT_SIZE,
               seed: int | None = None) -> dict:
    """A new check of class `class_code` (its teacher checked by the caller), its "before"
    phase open; `seed` (tests, a replay) seeds both phases' seeds."""
    import numpy as np
    chosen, size = clean_skills(skills), clean_size(size)
    rng = np.random.default_rng(seed if seed is not None else secrets.randbits(63))
    seeds = [int(rng.integers(0, MAX_SEED)) for _ in PHASES]
    while seeds[1] == seeds[0]:  # different deals after  # pragma: no cover - 1 in 2**63
        seeds[1] = int(rng.integers(0, MAX_SEED))
    for _ in range(20):
        ident = "".join(secrets.choice(CODE_ALPHABET) for _ in range(ID_LENGTH))
        with store.transaction() as tx:
            made = tx.execute("INSERT INTO checks (id, class_code, skills, size, seed_before, seed_after, phase, "
                              "created_at) VALUES (?, ?, ?, ?, ?, ?, 'before', ?) ON CONFLICT (id) DO NOTHING",
                              (ident, class_code, json.dumps(chosen), size, seeds[0], seeds[1], time.time())).rowcount
        if made:
            return find_check(store, ident)
    raise CheckError("bad_id", id="?")  # pragma: no cover - 20 clashes in a row


def find_check(store: Store, ident: object) -> dict:
    ident = clean_id(ident)
    with store.transaction(write=False) as tx:
        row = tx.execute(f"{_CHECK} WHERE id = ?", (ident,)).fetchone()
    if row is None:
        raise CheckError("bad_id", id=ident)
    return _row_check(row)


def class_checks(store: Store, class_code: str) -> list[dict]:
    """The class's checks, newest first."""
    with store.transaction(write=False) as tx:
        rows = tx.execute(f"{_CHECK} WHERE class_code = ? ORDER BY created_at DESC", (class_code,)).fetchall()
    return [_row_check(r) for r in rows]


def teacher_check(store: Store, class_code: str, ident: object) -> dict:
    """Check `ident`, if it is class `class_code`'s (CheckError "other_class" otherwise)."""
    found = find_check(store, ident)
    if found["class_code"] != class_code:
        raise CheckError("other_class")
    return found


def set_phase(store: Store, class_code: str, ident: object, phase: str) -> dict:
    """Open the "after" phase (from "before") or close the check ("closed")."""
    found = teacher_check(store, class_code, ident)
    wanted = {"after": ("before",), "closed": ("before", "after")}[phase]
    with store.transaction() as tx:
        changed = tx.execute("UPDATE checks SET phase = ? WHERE id = ? AND phase IN (" +
                             ", ".join("?" for _ in wanted) + ")", (phase, found["id"], *wanted)).rowcount
    if not changed and phase == "after":
        raise CheckError("not_after")
    return find_check(store, found["id"])


def questions(found: dict, phase: str) -> list[dict]:
    return plan(found["skills"], found["size"], found["seeds"][clean_phase(phase)])


def learner_view(store: Store, learner_id: str, found: dict) -> dict:
    """What her phone is sent: the check's id, open phase, its questions (kind, variant, seed:
    the phone makes them again) and whether she has done each phase; never what is right."""
    with store.transaction(write=False) as tx:
        done = {str(r[0]) for r in tx.execute("SELECT phase FROM check_submissions WHERE check_id = ? "
                                              "AND learner_id = ?", (found["id"], learner_id)).fetchall()}
    phase = found["phase"]
    return {"id": found["id"], "phase": phase, "skills": found["skills"], "size": found["size"],
            "done": {p: p in done for p in PHASES},
            "questions": questions(found, phase) if phase in PHASES and phase not in done else []}


def learner_checks(store: Store, learner_id: str, class_code: str) -> list[dict]:
    """The open checks of her class (newest first), as `learner_view` gives each."""
    return [learner_view(store, learner_id, c) for c in class_checks(store, class_code) if c["phase"] in PHASES]


def submit(store: Store, learner: Any, class_code: str, ident: object, phase: object, chosen: object,
           seconds: object = None) -> dict:
    """Her answers to the open phase `phase` of check `ident` of her class `class_code`
    (`chosen`: each question's chosen value as text, `classroom.answers.value_text`; `seconds`:
    the time taken on each, or None): {"id", "phase", "counted"}; no verdict is sent."""
    found = find_check(store, ident)
    if found["class_code"] != class_code or not class_code:
        raise CheckError("other_class")
    phase = clean_phase(phase)
    if found["phase"] != phase:
        raise CheckError("phase_closed", phase=phase, phase_pt=PHASE_NAMES[phase]["pt"],
                         phase_en=PHASE_NAMES[phase]["en"])
    items = questions(found, phase)
    if not isinstance(chosen, (list, tuple)) or len(chosen) != len(items):
        raise CheckError("bad_answers", n=len(items))
    times: list[Any] = [None] * len(items)
    if isinstance(seconds, (list, tuple)) and len(seconds) == len(items):
        times = [float(s) if isinstance(s, (int, float)) and not isinstance(s, bool) and 0 <= s <= 3600 else None
                 for s in seconds]
    context, now, made = f"check:{found['id']}:{phase}", time.time(), []
    for number, (item, value) in enumerate(zip(items, chosen, strict=True), 1):
        question = make_question(item)
        values = {whole.value_text(c.value): c.value for c in question.choices}
        if not isinstance(value, str) or value not in values:
            raise CheckError("bad_choice", choice=repr(value)[:40], number=number)
        made.append(whole.answer_to(question, values[value], learner_id=learner.key, context=context,
                                    seed=item["seed"], variant=item["variant"], seconds=times[number - 1], at=now))
    right = sum(a.correct for a in made)
    with store.transaction() as tx:  # the claim: of two submissions at once, exactly one counts
        fresh = tx.execute("INSERT INTO check_submissions (check_id, phase, learner_id, right_count, asked_count, at) "
                           "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (check_id, phase, learner_id) DO NOTHING",
                           (found["id"], phase, learner.key, right, len(made), now)).rowcount
    if not fresh:
        raise CheckError("already_done", phase=phase, phase_pt=PHASE_NAMES[phase]["pt"],
                         phase_en=PHASE_NAMES[phase]["en"])
    try:
        whole.record(store, learner, made)
    except BaseException:
        with store.transaction() as tx:  # nothing stored: she may send it again
            tx.execute("DELETE FROM check_submissions WHERE check_id = ? AND phase = ? AND learner_id = ?",
                       (found["id"], phase, learner.key))
        raise
    return {"id": found["id"], "phase": phase, "counted": len(made)}


# Results -----------------------------------------------------------------------------------
def gain(before: float | None, after: float | None) -> float | None:
    """The normalized gain (after - before) / (1 - before) (docs/rules.md#check-gain): None when
    either is unknown or before is 1 (no room to gain)."""
    if before is None or after is None or before >= 1.0:
        return None
    return (after - before) / (1.0 - before)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(found: dict, answers: Sequence[whole.Answer], names: dict[str, str] | None = None) -> dict:
    """The check's results from its answer records (`answers`: the class's, of either phase's
    context): {"id", "phase", "skills", "matched", "learners": [{"id", "name", "before",
    "after"}], "by_skill": {skill: {"before", "after", "gain", "name"}}, "class": {"before",
    "after", "gain"}, "vanished": [...], "stayed": [...]} (a misconception: {"key", "name":
    {"pt", "en"}, "before": learners who showed it before, "after": who still show it})."""
    from cartas.questions import SLIP, misconception
    names = names or {}
    share: dict[str, dict[str, dict[str, list[bool]]]] = {p: {} for p in PHASES}  # phase -> learner -> skill
    shown: dict[str, dict[str, set[str]]] = {p: {} for p in PHASES}  # phase -> misconception -> learners
    for a in answers:
        phase = a.context.rpartition(":")[2]
        if a.context != f"check:{found['id']}:{phase}" or phase not in PHASES:
            continue
        share[phase].setdefault(a.learner_id, {}).setdefault(a.skill, []).append(a.correct)
        if not a.correct and a.misconception not in (None, SLIP):
            shown[phase].setdefault(str(a.misconception), set()).add(a.learner_id)
    matched = sorted(set(share["before"]) & set(share["after"]))

    def learner_mean(phase: str, who: str, skill: str | None = None) -> float | None:
        marks = [m for s, ms in share[phase][who].items() if skill is None or s == skill for m in ms]
        return _mean([float(m) for m in marks])

    def class_mean(phase: str, skill: str | None = None) -> float | None:
        return _mean([v for who in matched if (v := learner_mean(phase, who, skill)) is not None])

    by_skill = {}
    for skill in found["skills"]:
        before, after = class_mean("before", skill), class_mean("after", skill)
        by_skill[skill] = {"before": before, "after": after, "gain": gain(before, after),
                           "name": dict(BY_KEY[skill].name)}
    before, after = class_mean("before"), class_mean("after")
    vanished: list[dict] = []
    stayed: list[dict] = []
    for key in sorted(shown["before"]):
        had = shown["before"][key] & set(matched)
        if not had:
            continue
        still = shown["after"].get(key, set()) & had
        text = misconception(key).text
        entry = {"key": key, "name": {"pt": text.pt, "en": text.en}, "before": len(had), "after": len(still)}
        (stayed if still else vanished).append(entry)
    stayed.sort(key=lambda e: (-e["after"], e["key"]))
    vanished.sort(key=lambda e: (-e["before"], e["key"]))
    return {"id": found["id"], "phase": found["phase"], "skills": found["skills"], "matched": len(matched),
            "learners": [{"id": who, "name": names.get(who, who), "before": learner_mean("before", who),
                          "after": learner_mean("after", who)} for who in matched],
            "by_skill": by_skill, "class": {"before": before, "after": after, "gain": gain(before, after)},
            "vanished": vanished, "stayed": stayed}


def results(store: Store, class_code: str, ident: object, learner_ids: Sequence[str] | None = None,
            names: dict[str, str] | None = None) -> dict:
    """The results of class `class_code`'s check `ident` (see `summarize`); `learner_ids`: the
    class's learners (default: the laptop class's, `classroom.answers.class_answers`)."""
    found = teacher_check(store, class_code, ident)
    rows: list[whole.Answer] = []
    for phase in PHASES:
        context = f"check:{found['id']}:{phase}"
        rows += (whole.class_answers(store, class_code, context=context) if learner_ids is None
                 else whole.answers_of_learners(store, list(learner_ids), context=context))
    if names is None and learner_ids is None:
        with store.transaction(write=False) as tx:
            names = {str(i): str(n) for i, n in tx.execute("SELECT id, name FROM learners WHERE class_code = ?",
                                                           (class_code,)).fetchall()}
    return summarize(found, rows, names)


class CheckService(Protocol):
    """What the check pages ask, in plain values (see the module's rules). Teacher calls name
    the class (the page opened it with its key; under the hub the service checks she teaches
    it); learner calls take the verified learner (`classroom.identity.Learner`), whose class is
    hers (under the hub the service's, from her token)."""

    def open(self, class_code: str, skills: Sequence[str], size: int = DEFAULT_SIZE) -> dict: ...
    def class_checks(self, class_code: str) -> list[dict]: ...
    def open_after(self, class_code: str, check_id: str) -> dict: ...
    def close(self, class_code: str, check_id: str) -> dict: ...
    def results(self, class_code: str, check_id: str) -> dict: ...
    def mine(self, learner: Any) -> list[dict]: ...
    def take(self, learner: Any, check_id: str) -> dict: ...
    def submit(self, learner: Any, check_id: str, phase: str, chosen: Sequence[str],
               seconds: Sequence[float | None] | None = None) -> dict: ...


class StoreChecks:
    """`CheckService` on a store (SQLite or PostgreSQL); migrates the checks' tables.

    The class service answers through this same object (`classroom.interface.StoreClassroom`),
    naming what the hub knows: a learner's `classes` (her hub groups; else her class in this
    store) and a class's `learners` ({id: name}: its hub group's members)."""

    def __init__(self, store: Store, seed: int | None = None):
        self.store = store
        self.seed = seed
        store.migrate(MIGRATIONS)

    def open(self, class_code: str, skills: Sequence[str], size: int = DEFAULT_SIZE) -> dict:
        return open_check(self.store, class_code, skills, size, self.seed)

    def class_checks(self, class_code: str) -> list[dict]:
        return class_checks(self.store, class_code)

    def open_after(self, class_code: str, check_id: str) -> dict:
        return set_phase(self.store, class_code, check_id, "after")

    def close(self, class_code: str, check_id: str) -> dict:
        return set_phase(self.store, class_code, check_id, "closed")

    def results(self, class_code: str, check_id: str, learners: dict[str, str] | None = None) -> dict:
        if learners is None:
            return results(self.store, class_code, check_id)
        return results(self.store, class_code, check_id, list(learners), learners)

    def _class(self, learner: Any) -> str:
        code = getattr(learner, "class_code", "")
        if not code:
            raise CheckError("no_class")
        return str(code)

    def _hers(self, learner: Any, check_id: str, classes: Sequence[str] | None) -> dict:
        """Check `check_id` if it is of one of her classes (CheckError "other_class" otherwise)."""
        found = find_check(self.store, check_id)
        if found["class_code"] not in (classes if classes is not None else [self._class(learner)]):
            raise CheckError("other_class")
        return found

    def mine(self, learner: Any, classes: Sequence[str] | None = None) -> list[dict]:
        if classes is None:
            return learner_checks(self.store, learner.key, self._class(learner))
        return [c for code in classes for c in learner_checks(self.store, learner.key, code)]

    def take(self, learner: Any, check_id: str, classes: Sequence[str] | None = None) -> dict:
        return learner_view(self.store, learner.key, self._hers(learner, check_id, classes))

    def submit(self, learner: Any, check_id: str, phase: object, chosen: object, seconds: object = None,
               classes: Sequence[str] | None = None) -> dict:
        """Her answers (checked by `submit`: the class service passes a request's fields as sent)."""
        if classes is None:
            return submit(self.store, learner, self._class(learner), check_id, phase, chosen, seconds)
        found = self._hers(learner, check_id, classes)
        return submit(self.store, learner, found["class_code"], found["id"], phase, chosen, seconds)
