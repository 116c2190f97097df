"""The one exercise block of every lesson: seeded questions that answer at once and keep score.

Decided rules (every lesson, truco and 21 alike; one set of bilingual texts, `TEXT`):

- Only the first answer to a question counts and its verdict stays on screen (a second click
  changes nothing); the score line shows the learner's stored totals (`FirstAnswer`).
- The chosen answer is marked once answered: its button gets the class `cartas-chosen` (and
  `cartas-chosen-right` or `cartas-chosen-wrong`), a sign that is not a colour (✓ right, ✗
  wrong) before its label, and a tooltip saying "your answer, right/wrong" (`FirstAnswer.mark`).
- The verdict of the first answer is said by the page's live region (`View.announce`): right
  or wrong, and the reason, which names the right answer when the learner's was wrong ("Não.
  A resposta é: 7♥..." said "sete de copas"), in the page's language; a language switch
  redraws it and says nothing.
- After a wrong answer with a named misconception (`Question.misconception`, not a slip), the
  verdict says it kindly ("Parece que você pensou que a manilha é a própria carta da vira." /
  "It looks like you thought the manilha is the vira's rank."), then the rule that corrects it
  (the question's reason), in the page's language (`misconception_note`); a slip gets the rule
  alone.
- Every answer is kept whole (classroom.answers: kind, seed, variant, choices, the one chosen,
  its misconception, the seconds from the question shown to the answer), context
  "lesson:<lesson>".
- A new question never repeats the one just asked, and none repeats an earlier one until the
  lesson's pool of questions has been gone through (`NoRepeats`, drawing from the seeded
  generator: a question is the same as another when its `key` is).

`Exercises` is the whole block (title, prompt, answer buttons, verdict, score, "next"), used
by the truco lessons; the 21 lessons draw their own question and answer widgets (a number to
type, seats to pick) and keep the rule, the texts, the marks and the draws through
`FirstAnswer` and `NoRepeats`.

The block opens with its title, the score line and a "Começar" (start) button; the first
question comes when the learner asks for it. So the seeded generator, and numpy with it, is
made only then: a lesson whose own view draws nothing at random (the manilha explorer) opens
without loading numpy, which is most of a lesson kernel's start-up cost when a class opens it
at once. After the first question, the same button asks for another.

A lesson gives `Exercises` a `make_question(rng) -> Question` function, a question kind of
the engine's registry (`cartas.questions`: the prompt, the choices, the answer and the reason,
each in both languages, so the language switch only redraws).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from html import escape
from typing import Any

import ipywidgets as w

from cartas import questions
from cartas.cards import lazy_rng
from cartas.questions import SLIP, Question, Text
from classroom.answers import answer_to
from widgets.components.announce import text_of
from widgets.components.base import html, verdict_html
from widgets.components.i18n import translate
from widgets.components.scores import Score, score_html

TEXT = {
    "title": {"pt": "Exercícios", "en": "Exercises"},
    "next": {"pt": "Outra pergunta", "en": "Another question"},
    "start": {"pt": "Começar", "en": "Start"},
    "invite": {"pt": "Pratique o que viu: uma pergunta de cada vez, e só a primeira resposta conta.",
               "en": "Practise what you saw: one question at a time, and only your first answer counts."},
    "right": {"pt": "Certo!", "en": "Right!"},
    "wrong": {"pt": "Não.", "en": "No."},
    "the_answer": {"pt": "A resposta é: {answer}.", "en": "The answer is: {answer}."},
    "score": {"pt": "Acertos: {right} de {asked}", "en": "Score: {right} of {asked}"},
    "chosen_right": {"pt": "Sua resposta: certa", "en": "Your answer: right"},
    "chosen_wrong": {"pt": "Sua resposta: errada", "en": "Your answer: wrong"},
    # after a wrong answer, the misconception it reveals, said kindly, then the rule (issue 32, item 5)
    "looks_like": {"pt": "Parece que você pensou que {belief}.", "en": "It looks like you thought {belief}."},
    "the_rule": {"pt": "A regra:", "en": "The rule:"},
    "see_lesson": {"pt": "Reveja na lição: {lesson}", "en": "See it again in the lesson: {lesson}"},
}
SIGNS = {True: "✓", False: "✗"}  # the chosen answer's mark, beside its colour
REDRAWS = 100  # questions drawn, at most, to find one not asked yet


def _label(text: str) -> str:
    """A button label without a mark a block put before it."""
    for sign in SIGNS.values():
        if text.startswith(sign + " "):
            return text[len(sign) + 1:]
    return text


class FirstAnswer:
    """The rule every exercise keeps, and its widgets: the verdict (`feedback`), the score line
    (`score_label`, the learner's stored totals for `lesson`) and the "next" button.

    A lesson calls `ask(choices)` with each new question (`choices`: answer value -> the button
    or field that gives it), `answer(value, right, why)` when the learner answers (the first
    answer scores and is marked; later ones change nothing) and `redraw()` after a language
    switch, labelling its own buttons through `label(value, text)` so the mark stays."""

    def __init__(self, view, lesson: str, feedback: bool = True):
        self.view = view
        self.score = Score(lesson)
        # the verdict's box; `feedback=False`: made with the first question (`make_feedback`)
        self.feedback: w.HTML | None = html("cartas-feedback") if feedback else None
        self.score_label = html("cartas-score")
        self.next_button = w.Button(layout=w.Layout(width="170px"), _dom_classes=("cartas-next",))
        self.answered = False
        self.chosen: Any = None
        self.correct: bool | None = None
        self.choices: dict[Any, w.DOMWidget] = {}
        self._why: Callable[[str], str] | None = None
        self._attrs = ""
        self.asked_at = time.monotonic()  # when the question on screen was shown

    def t(self, key, **fields) -> str:
        return translate(TEXT, key, self.view.lang, **fields)

    def make_feedback(self) -> w.HTML:
        if self.feedback is None:
            self.feedback = html("cartas-feedback")
        return self.feedback

    def ask(self, choices: dict | None = None) -> None:
        """A new question: nothing answered, no verdict, the last mark taken off."""
        self._unmark()
        self.answered, self.chosen, self.correct, self._why = False, None, None, None
        self.asked_at = time.monotonic()
        self.choices = dict(choices or {})
        self.make_feedback().value = ""

    def answer(self, value, right, why: Callable[[str], str], widget: w.DOMWidget | None = None,
               attrs: str = "", skill: str = "", question: Question | None = None, context: str = "") -> bool:
        """Answer `value` where `right` is the answer; `why(lang)` is the verdict's reason (html);
        `widget` the one that gave it, when it is no choice of its own (a number typed in a field);
        `attrs` more attributes of the verdict's element (data for the browser tests); `skill`
        the skill the answer counts for (classroom.mastery.SKILLS); `question`, the registry's
        question answered (made from its own seed), so the answer is kept whole in `context`
        (default "lesson:<lesson>"). The first answer scores, is
        marked and its verdict stays; later ones return the first
        one's verdict and change nothing."""
        if self.answered:
            return bool(self.correct)
        if widget is not None:
            self.choices[value] = widget
        self.correct = value == right
        self.answered, self.chosen, self._why, self._attrs = True, value, why, attrs
        whole = None
        if question is not None and question.seed is not None and question.takes(value):
            whole = answer_to(question, value, learner_id="", context=context or f"lesson:{self.score.lesson}",
                              seconds=time.monotonic() - self.asked_at)
        self.score.add(self.correct, skill, whole)
        self.mark()
        self.redraw()
        self._say_verdict()
        return self.correct

    def _say_verdict(self) -> None:
        """The verdict, as the live region says it (see the module's rules)."""
        announce = getattr(self.view, "announce", None)
        if callable(announce) and self._why is not None:
            head = self.t("right" if self.correct else "wrong")
            announce(" ".join(text_of(f"{head} {self._why(self.view.lang)}").split()))

    def label(self, value, text: str) -> str:
        """`text` as the label of the choice `value`: marked if it is the answer given."""
        if self.answered and value == self.chosen and self.correct is not None:
            return f"{SIGNS[self.correct]} {text}"
        return text

    def mark(self) -> None:
        """Mark the chosen answer's widget (class, sign, tooltip) once answered."""
        widget = self.choices.get(self.chosen) if self.answered else None
        if widget is None or self.correct is None:
            return
        widget.add_class("cartas-chosen")
        widget.add_class("cartas-chosen-right" if self.correct else "cartas-chosen-wrong")
        if isinstance(widget, w.Button):
            widget.description = self.label(self.chosen, _label(widget.description))
        widget.tooltip = self.t("chosen_right" if self.correct else "chosen_wrong")

    def _unmark(self) -> None:
        widget = self.choices.get(self.chosen) if self.answered else None
        if widget is None:
            return
        for name in ("cartas-chosen", "cartas-chosen-right", "cartas-chosen-wrong"):
            widget.remove_class(name)
        if isinstance(widget, w.Button):
            widget.description = _label(widget.description)
        widget.tooltip = None

    def redraw(self, next_key: str = "next") -> None:
        if self._why is not None and self.feedback is not None:
            head = self.t("right" if self.correct else "wrong")
            # said by `_say_verdict`: the live region does not say it again (data-announced)
            self.feedback.value = verdict_html(bool(self.correct), f"<b>{head}</b> {self._why(self.view.lang)}",
                                               size=16, attrs=self._attrs + " data-announced='1'")
        if self.answered and self.chosen in self.choices:
            self.choices[self.chosen].tooltip = self.t("chosen_right" if self.correct else "chosen_wrong")
        self.next_button.description = self.t(next_key)
        self.score_label.value = score_html(self.t, self.score)


def belief_html(question: Question, chosen, lang: str) -> str:
    """The misconception the wrong answer `chosen` reveals, said kindly, as html in `lang`
    ("" for the right answer, a slip, or a value that is none of the question's)."""
    try:
        key = question.misconception(chosen)
    except ValueError:
        return ""
    return belief_of(key, lang)


def belief_of(key: object, lang: str) -> str:
    """Misconception `key` said kindly, as html in `lang` ("" for None, a slip or no such key)."""
    if not isinstance(key, str) or key == SLIP:
        return ""
    try:
        named = questions.misconception(key)
    except KeyError:
        return ""
    belief = translate(TEXT, "looks_like", lang, belief=named.text[lang])
    return f"<span class='cartas-misconception' data-misconception='{escape(key)}'>{belief}</span>"


def misconception_note(question: Question, chosen, lang: str, lesson_link: str = "", lesson_title: str = "") -> str:
    """After the wrong answer `chosen`: the misconception it reveals, said kindly, and the rule
    that corrects it (the question's reason), as html in `lang`; the rule alone for a slip.
    `lesson_link`: the lesson's address, linked after the rule by `lesson_title` (a section of
    it when the misconception names one, its `section`)."""
    rule = question.reason[lang]
    belief = belief_html(question, chosen, lang)
    if not belief:
        return rule
    link = ""
    if lesson_link:
        named = questions.misconception(str(question.misconception(chosen)))
        section = getattr(named, "section", "") or ""
        target = lesson_link + (f"#{section}" if section else "")
        words = translate(TEXT, "see_lesson", lang, lesson=lesson_title or question.kind.split(".")[0])
        link = (f" <a class='cartas-misconception-link' href='{escape(target)}' "
                f"style='color:#1565c0;text-decoration:underline'>{escape(words)}</a>")
    return f"{belief} <span class='cartas-rule'>{translate(TEXT, 'the_rule', lang)} {rule}</span>{link}"


@dataclass
class NoRepeats:
    """Draws questions from a seeded generator without repeats: never the question just asked,
    and none asked before until every question the draws can give has come (the pool is taken
    as gone through when REDRAWS draws in a row give only questions asked already; then a new
    round starts, still never with the question just asked). `key(question)` says when two
    questions are the same."""

    key: Callable[[Any], Hashable]
    asked: set = field(default_factory=set)
    last: Hashable | None = None

    def draw(self, make: Callable[[], Any]) -> Any:
        question = make()
        for _ in range(2):  # this round of the pool, then (gone through) a new one
            for _ in range(REDRAWS):
                key = self.key(question)
                if key not in self.asked and key != self.last:
                    self.asked.add(key)
                    self.last = key
                    return question
                question = make()
            self.asked = set()
        self.last = self.key(question)  # a pool of one question: it again
        return question


class Exercises(w.VBox):
    """The exercise block at the end of a lesson view.

    `view` is the owning View (for its language and `guarded`); `lesson` the progress key;
    `make_question(rng) -> Question`; `seed` an int, None, a numpy Generator, or a function
    returning the Generator to share with the view (`cartas.cards.lazy_rng`), called at the
    first question. `question` is None until the learner starts. The rule, the marks and the
    texts are `FirstAnswer`'s (`self.answers`), the draws `NoRepeats`' (`self.draws`).
    """

    def __init__(self, view, lesson: str, make_question, seed=None):
        super().__init__(_dom_classes=("cartas-exercises",))
        self.view = view
        self.make_question = make_question
        self._rng = seed if callable(seed) else lazy_rng(seed)
        self.question: Question | None = None
        self.answers = FirstAnswer(view, lesson, feedback=False)
        self.draws = NoRepeats(Question.same_as)
        self.score = self.answers.score
        self.prompt = html("cartas-exercise-text")  # the block's title, then the invitation or question
        self.score_label = self.answers.score_label
        self.next_button = self.answers.next_button
        self.next_button.on_click(view.guarded(lambda _: self.new_question()))
        self.bottom = w.HBox([self.score_label, self.next_button])
        # The answer row and the verdict come with the first question (fewer widgets to open
        # while a class loads the page); their buttons share one layout and one style.
        self.buttons: w.HBox | None = None
        self._buttons_for: Question | None = None
        self.children = [self.prompt, self.bottom]
        self.redraw()

    @property
    def feedback(self) -> w.HTML | None:
        return self.answers.feedback

    @property
    def answered(self) -> bool:
        return self.answers.answered

    @property
    def chosen(self):
        return self.answers.chosen

    def _start(self) -> None:
        self.buttons = w.HBox(layout=w.Layout(flex_flow="row wrap"), _dom_classes=("cartas-answers",))
        self._answer_layout = w.Layout(width="auto", min_width="60px")
        self._answer_style = w.ButtonStyle()
        self.children = [self.prompt, self.buttons, self.answers.make_feedback(), self.bottom]

    @property
    def rng(self):
        """The seeded Generator the questions are drawn from (made at the first question)."""
        return self._rng()

    @property
    def started(self) -> bool:
        return self.question is not None

    def t(self, key, **fields):
        return translate(TEXT, key, self.view.lang, **fields)

    def new_question(self) -> Question:
        """Ask a new question (the first one starts the exercises): never the one just asked,
        nor an earlier one before the lesson's questions are gone through (`NoRepeats`)."""
        rng = self.rng
        question = self.draws.draw(lambda: self.make_question(rng))
        if self.buttons is None:
            self._start()
        self.question = question
        self._make_buttons(self.question)
        return self.question

    def replace_question(self) -> None:
        """A new question if one is on screen (the lesson's set-up changed); none before the start."""
        if self.started:
            self.new_question()

    def answer(self, value) -> bool:
        """Answer the current question (the buttons call this). The first answer is the one:
        it scores and is marked, and later clicks neither score nor change the verdict shown."""
        q = self.question
        if q is None:
            raise ValueError("no question yet: the exercises have not started")
        return self.answers.answer(value, q.answer, lambda lang: self._why(q, value, lang), skill=q.skill,
                                   question=q)

    def _why(self, q: Question, chosen, lang: str) -> str:
        if self.answers.correct:
            return q.reason[lang]
        return (f"<b>{self.t('the_answer', answer=escape(self._label(q, q.answer)))}</b> "
                f"{misconception_note(q, chosen, lang)}")

    def _make_buttons(self, question: Question) -> None:
        """One labelled button per option of the new question, shown once the prompt is drawn
        (so a browser never shows new answers under the old prompt); the previous question's
        buttons are closed."""
        assert self.buttons is not None
        old = self.buttons.children
        buttons = []
        for value, label in question.options:
            b = w.Button(description=self._text(label), layout=self._answer_layout,
                         style=self._answer_style, _dom_classes=("cartas-answer",))
            b.on_click(self.view.guarded(lambda _, v=value: self.answer(v)))
            buttons.append(b)
        self.answers.ask(dict(zip([value for value, _ in question.options], buttons)))
        self.redraw()
        self.buttons.children = buttons
        self._buttons_for = question
        for b in old:
            b.close()

    def _text(self, label) -> str:
        return label[self.view.lang] if isinstance(label, dict | Text) else str(label)

    def redraw(self) -> None:
        lang = self.view.lang
        q = self.question
        title = f"<h4 style='margin:14px 0 2px'>{self.t('title')}</h4>"
        if q is None or self.buttons is None:
            text = f"<div class='cartas-question cartas-invite' style='font-size:16px'>{self.t('invite')}</div>"
        else:
            text = f"<div class='cartas-question' style='font-size:17px'>{q.prompt[lang]}</div>"
            if self._buttons_for is q:  # this question's buttons, not the last one's
                for b, (value, label) in zip(self.buttons.children, q.options):
                    b.description = self.answers.label(value, self._text(label))
        self.prompt.value = title + text
        self.answers.redraw("next" if self.started else "start")

    def _label(self, question: Question, value) -> str:
        return self._text(dict(question.options)[value])
