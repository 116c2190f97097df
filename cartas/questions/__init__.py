"""The lessons' questions, one registry: a `QuestionKind` per kind of question, found by its key.

Every question a lesson, the live quiz, the daily review or a homework asks is made here, in
the engine, by a pure function of a seeded `numpy.random.Generator` (and, for a truco lesson,
the variant asked about): `find_kind(key).make(rng, variant)`. It returns a `Question`, typed
and immutable: its kind's key, the skill it trains (`classroom.mastery.SKILLS`), the prompt,
the choices, the answer, the reason, and for every wrong choice the misconception it reveals
(a key of `MISCONCEPTIONS`, named in both languages) or `SLIP` (a choice no rule of thumb
explains). Each sentence is a `Text` holding both languages, written in the game's catalogue
(`cartas.truco.catalogue`, `cartas.vinte_e_um.catalogue`): one draw serves a page in either
language, and a language switch only redraws.

- `find_kind(key)`: the kind, or a `QuestionError` ("unknown_kind") naming the key;
- `all_kinds()`: every kind, lesson by lesson;
- `lesson_kinds(lesson, variant=None)`: the kinds a lesson asks (of that variant);
- `draw_question(lesson, rng, variant=None, turn=None)`: one of them, drawn by its weight from
  `rng`, or, given `turn`, the kinds in turn for a lesson that alternates them (`IN_TURN`),
  and made from a seed of its own drawn from `rng` (`Question.seed`, `Question.variant`: so
  an answer keeps what makes the question again, classroom.answers);
- `LESSONS`: the lessons with questions.

Importing this module is cheap: numpy and a game's engine load with the first question.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..catalogue import LANGS
from .kinds import (
    CATALOGUE,
    HEADINGS,
    MAX_SEED,
    SLIP,
    Choice,
    Misconception,
    Question,
    QuestionError,
    QuestionKind,
    Text,
    each,
    same,
    say,
)

if TYPE_CHECKING:  # numpy loads with the first question, not with the registry
    import numpy as np


def _registry() -> tuple[dict[str, QuestionKind], dict[str, Misconception]]:
    if not _KINDS:
        from . import truco, vinte_e_um

        for module in (truco, vinte_e_um):
            for kind in module.KINDS:
                _KINDS[kind.key] = kind
            for key, lesson in module.MISCONCEPTIONS.items():
                _MISCONCEPTIONS[key] = Misconception(key, say(module.CATALOGUE, "mis_" + key),
                                                     say(module.CATALOGUE, "rule_" + key), lesson)
    return _KINDS, _MISCONCEPTIONS


_KINDS: dict[str, QuestionKind] = {}
_MISCONCEPTIONS: dict[str, Misconception] = {}

# The lessons that ask their kinds in turn (the others draw one by its weight).
IN_TURN: frozenset[str] = frozenset({"manilhas", "truco_mineiro"})
LESSONS: tuple[str, ...] = ("manilhas", "truco_mao", "truco_rodadas", "truco_apostas", "truco_mao_de_onze",
                            "truco_mineiro", "vinte_e_um_pontos", "vinte_e_um_rodada", "vinte_e_um_banca")


def all_kinds() -> tuple[QuestionKind, ...]:
    return tuple(_registry()[0].values())


def find_kind(key: object) -> QuestionKind:
    kinds = _registry()[0]
    if not isinstance(key, str) or key not in kinds:
        raise QuestionError("unknown_kind", name=repr(key), choices=", ".join(kinds))
    return kinds[key]


def misconception(key: str) -> Misconception:
    """The misconception `key` names (a KeyError for one that is not named)."""
    return _registry()[1][key]


def all_misconceptions() -> tuple[Misconception, ...]:
    """Every named misconception, truco's then 21's."""
    return tuple(_registry()[1].values())


def lesson_kinds(lesson: object, variant: str | None = None, skill: str | None = None) -> tuple[QuestionKind, ...]:
    """The kinds `lesson` asks, in the lesson's order; of `variant` and training `skill` when
    given (the kinds of any variant when none trains the skill in `variant`)."""
    if lesson not in LESSONS:
        raise QuestionError("unknown_lesson", lesson=repr(lesson), choices=", ".join(LESSONS))
    found = tuple(k for k in all_kinds() if k.lesson == lesson
                  and (variant is None or not k.variants or variant in k.variants))
    if not found:
        raise QuestionError("unknown_variant", lesson=lesson, variant=variant)
    if skill is not None:
        found = (tuple(k for k in found if k.skill == skill)
                 or tuple(k for k in all_kinds() if k.lesson == lesson and k.skill == skill) or found)
    return found


def draw_question(lesson: str, rng: np.random.Generator, variant: str | None = None,
                  turn: int | None = None, skill: str | None = None) -> Question:
    """A question of `lesson` (see the module's docstring), of a kind training `skill` if given;
    `turn` (the number of questions of the lesson asked before) is heeded by the lessons that
    ask their kinds in turn (`IN_TURN`)."""
    kinds = lesson_kinds(lesson, variant, skill)
    if turn is not None and lesson in IN_TURN:
        kind = kinds[turn % len(kinds)]
    else:
        total = sum(k.weight for k in kinds)
        pick, kind = float(rng.random()) * total, kinds[-1]
        for candidate in kinds:
            pick -= candidate.weight
            if pick < 0:
                kind = candidate
                break
    seed = int(rng.integers(MAX_SEED))  # the question's own seed: it can be made again from it
    return kind.make_seeded(seed, variant if variant in kind.variants else None)


__all__ = ["CATALOGUE", "HEADINGS", "IN_TURN", "LANGS", "LESSONS", "MAX_SEED", "SLIP", "Choice", "Misconception",
           "Question", "QuestionError", "QuestionKind", "Text", "all_kinds", "all_misconceptions", "draw_question",
           "each", "find_kind", "lesson_kinds", "misconception", "same", "say"]
