"""What a question is: `Text`, `Choice`, `Question`, `QuestionKind`, `Misconception`, `SLIP`
and the refusals of the registry (`QuestionError`); the registry itself is `cartas.questions`."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..catalogue import Catalogue, check_lang
from ..errors import RuleError

if TYPE_CHECKING:  # numpy loads with the first question, not with the registry
    import numpy as np

SLIP = "slip"  # a wrong choice that reveals no named misconception
MAX_SEED = 2 ** 62  # a question's own seed is below this (drawn from the lesson's Generator)


CATALOGUE = Catalogue("questions", {
    "unknown_kind": ("Não há perguntas do tipo {name}. Tipos: {choices}.",
                     "There is no question kind {name}. Kinds: {choices}."),
    "unknown_lesson": ("A lição {lesson} não faz perguntas. Lições: {choices}.",
                       "The lesson {lesson} asks no questions. Lessons: {choices}."),
    "unknown_variant": ("A lição {lesson} não tem perguntas da variante {variant}.",
                        "The lesson {lesson} has no questions of the variant {variant}."),
})


class QuestionError(RuleError):
    """A question kind, lesson or variant that is not in the registry (its sentence in `CATALOGUE`)."""

    catalogue = CATALOGUE


@dataclass(frozen=True)
class Text:
    """One sentence in Portuguese and English (`text["pt"]`, `text.say("en")`)."""

    pt: str
    en: str

    def __getitem__(self, lang: str) -> str:
        return self.pt if check_lang(lang) == "pt" else self.en

    def say(self, lang: str) -> str:
        return self[lang]

    def map(self, change: Callable[[str], str]) -> Text:
        """Both sentences changed the same way (escaped, joined...)."""
        return Text(change(self.pt), change(self.en))


def same(text: str) -> Text:
    """A text that reads the same in both languages (a card, a number)."""
    return Text(text, text)


def say(catalogue: Catalogue, key: str, **fields: object) -> Text:
    """The catalogue's `key` in both languages, `str.format`-filled with `fields`; a field that
    is a `Text` gives each language its own words."""
    def one(lang: str) -> str:
        values = {name: value[lang] if isinstance(value, Text) else value for name, value in fields.items()}
        template = catalogue.template(key, lang)
        return template.format(**values) if values else template
    return Text(one("pt"), one("en"))


def each(make: Callable[[str], str]) -> Text:
    """A text written by `make(lang)` for each language (the engine's narration, explanations)."""
    return Text(make("pt"), make("en"))


@dataclass(frozen=True)
class Choice:
    """One choice of a question: its value (what the answer is compared with), its label, and,
    for a wrong choice, the misconception it reveals (a key of `MISCONCEPTIONS`) or `SLIP`;
    None for the right one."""

    value: Hashable
    label: Text
    misconception: str | None = None


@dataclass(frozen=True)
class Question:
    """A question as the engine made it (see the module's docstring). `key` says when two
    questions are the same (a lesson never asks one twice in a row); `facts` is what the
    question is about as the engine's inputs (a variant, a vira, a state...), never shown: a
    check of the answer reads them. Exactly one choice is right, `answer`; every other one is
    named."""

    kind: str
    skill: str
    prompt: Text
    choices: tuple[Choice, ...]
    answer: Hashable
    reason: Text
    key: Hashable
    facts: Mapping[str, object] = field(default_factory=dict, compare=False, repr=False)
    # how to make it again: `find_kind(kind).make(np.random.default_rng(seed), variant)` (None:
    # made from a shared Generator, see `QuestionKind.make_seeded`)
    seed: int | None = field(default=None, compare=False)
    variant: str = field(default="", compare=False)
    # A question that may also be answered by typing (a hand's total in a field), not only by
    # its choices: `typed(text)` is the value a typed text answers, None for none (it reads a
    # value as `str(value)` writes it); a typed value outside the choices is named by the first
    # of `readings` that gives it, SLIP for none. None: the choices are the only answers.
    typed: Callable[[str], Hashable | None] | None = field(default=None, compare=False, repr=False)
    readings: tuple[Reading, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        values = [c.value for c in self.choices]
        if len(set(values)) != len(values):
            raise ValueError(f"question {self.kind}: a choice twice in {values}")
        right = [c.value for c in self.choices if c.misconception is None]
        if right != [self.answer]:
            raise ValueError(f"question {self.kind}: the answer {self.answer!r} must be the one unnamed choice, "
                             f"not {right}")
        object.__setattr__(self, "facts", MappingProxyType(dict(self.facts)))

    @property
    def options(self) -> tuple[tuple[Hashable, Text], ...]:
        """(value, label) of each choice, in order."""
        return tuple((c.value, c.label) for c in self.choices)

    def same_as(self) -> Hashable:
        return self.key

    def takes(self, value: object) -> bool:
        """Whether `value` answers this question: one of its choices' values, or for a question
        that may be typed, a value it reads back from `str(value)` (`typed`)."""
        if any(choice.value == value for choice in self.choices):
            return True
        return self.typed is not None and value is not None and not isinstance(value, bool) \
            and self.typed(str(value)) == value

    def misconception(self, value: object) -> str | None:
        """What choosing `value` reveals: a misconception's key, `SLIP`, or None (the answer);
        for a typed value outside the choices, the first of `readings` that gives it (SLIP for
        none). ValueError for a value that does not answer this question (`takes`)."""
        for choice in self.choices:
            if choice.value == value:
                return choice.misconception
        if self.takes(value):
            return next((key for key, gives in self.readings if gives(value)), SLIP)
        raise ValueError(f"question {self.kind}: {value!r} is none of its choices")


Maker = Callable[["np.random.Generator", str], Question]


@dataclass(frozen=True)
class QuestionKind:
    """A kind of question: `key` ("lesson.kind"), the `lesson` that teaches it, the `skill` it
    trains, the `variants` it is asked in (truco's "paulista", "mineiro"; () for any game of
    its family), its `weight` in the lesson's mix, the `misconceptions` its wrong choices can
    reveal, and `make(rng, variant)`."""

    key: str
    lesson: str
    skill: str
    maker: Maker
    misconceptions: tuple[str, ...]
    variants: tuple[str, ...] = ()
    weight: float = 1.0

    def make(self, rng: np.random.Generator, variant: str | None = None) -> Question:
        """A question of this kind, seeded from `rng`; `variant` one of `variants` (default the first)."""
        if variant is None:
            variant = self.variants[0] if self.variants else ""
        elif variant not in self.variants:
            raise QuestionError("unknown_variant", lesson=self.lesson, variant=variant)
        return self.maker(rng, variant)

    def make_seeded(self, seed: int, variant: str | None = None) -> Question:
        """The question of `seed` (0 <= seed < MAX_SEED), which says its seed and variant, so
        that an answer to it can be kept with what shows it again (classroom.answers)."""
        import numpy as np
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
            raise ValueError(f"a question's seed is an integer from 0 to {MAX_SEED - 1}, not {seed!r}")
        if variant is None:
            variant = self.variants[0] if self.variants else ""
        question = self.make(np.random.default_rng(seed), variant or None)
        return replace(question, seed=seed, variant=variant)


# Each lesson's first heading, as its notebook (tools/lessons.py) writes it in each language: a
# dashboard gives a heading the id of its words joined by "-" (nbconvert), the anchor a
# misconception's link points to (tests/test_question_registry.py renders the notebooks to check).
HEADINGS: Mapping[str, Text] = MappingProxyType({
    "manilhas": Text("As manilhas", "The manilhas"),
    "truco_mao": Text("A mão passo a passo", "A hand step by step"),
    "truco_rodadas": Text("Rodadas e desempates", "Tricks and ties"),
    "truco_apostas": Text("Apostas: pedir truco", "Raising: calling truco"),
    "truco_mao_de_onze": Text("Mão de onze, mão de dez e mão de ferro",
                              "The hand of eleven, the hand of ten and the iron hand"),
    "truco_mineiro": Text("Truco Mineiro", "Truco Mineiro, the Minas Gerais game"),
    "vinte_e_um_pontos": Text("21: quanto vale a mão?", "21: what is the hand worth?"),
    "vinte_e_um_rodada": Text("21: a rodada passo a passo", "21: a round step by step"),
    "vinte_e_um_banca": Text("21: quem fica com a banca", "21: who holds the bank"),
})


@dataclass(frozen=True)
class Misconception:
    """A wrong belief a wrong choice reveals, in both languages ("the manilha is the vira's rank"),
    with the rule that corrects it (`rule`) and the lesson that teaches that rule (`lesson`, its
    notebook's name): `link(lang)` is the lesson's section in that language's page."""

    key: str
    text: Text
    rule: Text
    lesson: str

    @property
    def anchor(self) -> Text:
        """The id of the lesson's section in each language's page: the heading's words joined by
        "-", what a URL fragment may not hold percent-encoded, as a dashboard (nbconvert) writes it."""
        from urllib.parse import quote

        return HEADINGS[self.lesson].map(lambda heading: quote(heading.replace(" ", "-"), safe="?/:@!$&'()*+,;="))

    def link(self, lang: str) -> str:
        """The lesson's page and the section that teaches the rule ("truco_rodadas.ipynb#Tricks-and-ties"),
        relative to a page beside it."""
        return f"{self.lesson}.ipynb#{self.anchor[lang]}"


Reading = tuple[str, Callable[[Hashable], bool]]  # a misconception, and which wrong value it gives


def choices(options: Sequence[tuple[Hashable, Text]], answer: Hashable,
            readings: Sequence[Reading]) -> tuple[Choice, ...]:
    """The choices, each wrong one named by its first reading (SLIP for none)."""
    def named(value: Hashable) -> str | None:
        if value == answer:
            return None
        return next((key for key, gives in readings if gives(value)), SLIP)
    return tuple(Choice(value, label, named(value)) for value, label in options)
