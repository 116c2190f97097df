"""Exercises shared by the truco lessons: seeded questions that answer at once and keep score.

Decided rules: only the first answer to a question counts and its verdict stays on screen
(a second click changes nothing); the score line shows the learner's stored totals.

The block opens with its title, the score line and a "Começar" (start) button; the first
question comes when the learner asks for it. So the seeded generator, and numpy with it, is
made only then: a lesson whose own view draws nothing at random (the manilha explorer) opens
without loading numpy, which is most of a lesson kernel's start-up cost when a class opens it
at once. After the first question, the same button asks for another.

A lesson gives `Exercises` a `make_question(rng) -> Question` function; the answer and the
"why" in each Question come from the engine. Both languages are prepared up front, so the
language switch only redraws.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

import ipywidgets as w

from cartas.cards import lazy_rng
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
    "wrong": {"pt": "Não. A resposta é: {answer}.", "en": "No. The answer is: {answer}."},
    "score": {"pt": "Acertos: {right} de {asked}", "en": "Score: {right} of {asked}"},
}


@dataclass
class Question:
    """prompt/why: {"pt": html, "en": html}; options: [(value, {"pt": label, "en": label})]."""

    prompt: dict
    options: list
    answer: object
    why: dict


class Exercises(w.VBox):
    """The exercise block at the end of a lesson view.

    `view` is the owning View (for its language and `guarded`); `lesson` the progress key;
    `make_question(rng) -> Question`; `seed` an int, None, a numpy Generator, or a function
    returning the Generator to share with the view (`cartas.cards.lazy_rng`), called at the
    first question. `question` is None until the learner starts.
    """

    def __init__(self, view, lesson: str, make_question, seed=None):
        super().__init__(_dom_classes=("cartas-exercises",))
        self.view = view
        self.make_question = make_question
        self._rng = seed if callable(seed) else lazy_rng(seed)
        self.question: Question | None = None
        self.answered = False
        self.chosen = None
        self.score = Score(lesson)
        self.prompt = html("cartas-exercise-text")  # the block's title, then the invitation or question
        self.score_label = html("cartas-score")
        self.next_button = w.Button(layout=w.Layout(width="170px"), _dom_classes=("cartas-next",))
        self.next_button.on_click(view.guarded(lambda _: self.new_question()))
        self.bottom = w.HBox([self.score_label, self.next_button])
        # The answer row and the verdict come with the first question (fewer widgets to open
        # while a class loads the page); their buttons share one layout and one style.
        self.buttons: w.HBox | None = None
        self._buttons_for: Question | None = None
        self.feedback: w.HTML | None = None
        self.children = [self.prompt, self.bottom]
        self.redraw()

    def _start(self) -> None:
        self.buttons = w.HBox(layout=w.Layout(flex_flow="row wrap"), _dom_classes=("cartas-answers",))
        self._answer_layout = w.Layout(width="auto", min_width="60px")
        self._answer_style = w.ButtonStyle()
        self.feedback = html("cartas-feedback")
        self.children = [self.prompt, self.buttons, self.feedback, self.bottom]

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
        """Ask a new question (the first one starts the exercises)."""
        question = self.make_question(self.rng)
        if self.buttons is None:
            self._start()
        self.question = question
        self.answered = False
        self.chosen = None
        self._make_buttons(self.question)
        return self.question

    def replace_question(self) -> None:
        """A new question if one is on screen (the lesson's set-up changed); none before the start."""
        if self.started:
            self.new_question()

    def answer(self, value) -> bool:
        """Answer the current question (the buttons call this). The first answer is the one:
        it scores, and later clicks neither score nor change the verdict shown."""
        if self.question is None:
            raise ValueError("no question yet: the exercises have not started")
        if self.answered:
            return self.chosen == self.question.answer
        correct = value == self.question.answer
        self.score.add(correct)
        self.answered = True
        self.chosen = value
        self._draw_feedback()
        self._draw_score()
        return correct

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
        self.redraw()
        self.buttons.children = buttons
        self._buttons_for = question
        for b in old:
            b.close()

    def _text(self, label) -> str:
        return label[self.view.lang] if isinstance(label, dict) else str(label)

    def redraw(self) -> None:
        lang = self.view.lang
        q = self.question
        title = f"<h4 style='margin:14px 0 2px'>{self.t('title')}</h4>"
        if q is None or self.buttons is None:
            text = f"<div class='cartas-question cartas-invite' style='font-size:16px'>{self.t('invite')}</div>"
        else:
            text = f"<div class='cartas-question' style='font-size:17px'>{q.prompt[lang]}</div>"
            if self._buttons_for is q:  # this question's buttons, not the last one's
                for b, (_value, label) in zip(self.buttons.children, q.options):
                    b.description = self._text(label)
        self.prompt.value = title + text
        self.next_button.description = self.t("next" if self.started else "start")
        self._draw_feedback()
        self._draw_score()

    def _label(self, question: Question, value) -> str:
        return self._text(dict(question.options)[value])

    def _draw_feedback(self) -> None:
        if self.feedback is None:
            return
        if self.question is None or (self.chosen is None and not self.answered):
            self.feedback.value = ""
            return
        lang, q = self.view.lang, self.question
        correct = self.chosen == q.answer
        head = self.t("right") if correct else self.t("wrong", answer=escape(self._label(q, q.answer)))
        self.feedback.value = verdict_html(correct, f"<b>{head}</b> {q.why[lang]}", size=16)

    def _draw_score(self) -> None:
        self.score_label.value = score_html(self.t, self.score)
