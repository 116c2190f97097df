"""Exercises shared by the truco lessons: seeded questions that answer at once and keep score.

Decided rules: only the first answer to a question counts and its verdict stays on screen
(a second click changes nothing); the score line shows the learner's stored totals.

A lesson gives `Exercises` a `make_question(rng) -> Question` function; the answer and the
"why" in each Question come from the engine. Both languages are prepared up front, so the
language switch only redraws.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

import ipywidgets as w

from cartas.cards import make_rng

from .base import score_html, verdict_html
from .i18n import translate
from .progress import Score

TEXT = {
    "title": {"pt": "Exercícios", "en": "Exercises"},
    "next": {"pt": "Outra pergunta", "en": "Another question"},
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

    `view` is the owning View (for its language and `guarded`); `lesson` the progress key.
    """

    def __init__(self, view, lesson: str, make_question, seed=None):
        super().__init__()
        self.view = view
        self.make_question = make_question
        self.rng = make_rng(seed)
        self.score = Score(lesson)
        self.title = w.HTML()
        self.prompt = w.HTML().add_class("cartas-question")
        self.buttons = w.HBox(layout=w.Layout(flex_flow="row wrap")).add_class("cartas-answers")
        self.feedback = w.HTML().add_class("cartas-feedback")
        self.score_label = w.HTML().add_class("cartas-score")
        self.next_button = w.Button(layout=w.Layout(width="170px")).add_class("cartas-next")
        self.next_button.on_click(view.guarded(lambda _: self.new_question()))
        self.children = [self.title, self.prompt, self.buttons, self.feedback,
                         w.HBox([self.score_label, self.next_button])]
        self.add_class("cartas-exercises")
        self.new_question()

    def t(self, key, **fields):
        return translate(TEXT, key, self.view.lang, **fields)

    def new_question(self) -> Question:
        self.question = self.make_question(self.rng)
        self.answered = False
        self.chosen = None
        self.feedback.value = ""
        self.redraw()
        return self.question

    def answer(self, value) -> bool:
        """Answer the current question (the buttons call this). The first answer is the one:
        it scores, and later clicks neither score nor change the verdict shown."""
        if self.answered:
            return self.chosen == self.question.answer
        correct = value == self.question.answer
        self.score.add(correct)
        self.answered = True
        self.chosen = value
        self._draw_feedback()
        self._draw_score()
        return correct

    def redraw(self) -> None:
        lang = self.view.lang
        q = self.question
        self.title.value = f"<h4 style='margin:14px 0 2px'>{self.t('title')}</h4>"
        self.prompt.value = f"<div style='font-size:17px'>{q.prompt[lang]}</div>"
        buttons = []
        for value, label in q.options:
            b = w.Button(description=label[lang] if isinstance(label, dict) else str(label),
                         layout=w.Layout(width="auto", min_width="60px")).add_class("cartas-answer")
            b.on_click(self.view.guarded(lambda _, v=value: self.answer(v)))
            buttons.append(b)
        self.buttons.children = buttons
        self.next_button.description = self.t("next")
        self._draw_feedback()
        self._draw_score()

    def _label(self, value) -> str:
        label = dict(self.question.options)[value]
        return label[self.view.lang] if isinstance(label, dict) else str(label)

    def _draw_feedback(self) -> None:
        if self.chosen is None and not self.answered:
            self.feedback.value = ""
            return
        lang = self.view.lang
        correct = self.chosen == self.question.answer
        head = self.t("right") if correct else self.t("wrong", answer=escape(self._label(self.question.answer)))
        self.feedback.value = verdict_html(correct, f"<b>{head}</b> {self.question.why[lang]}", size=16)

    def _draw_score(self) -> None:
        self.score_label.value = score_html(self.t, self.score)
