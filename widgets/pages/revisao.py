"""Today's review (revisao.ipynb): questions from the learner's skills due for review, mixed.

Decided rules (docs/rules.md#review-boxes):
- The skills due now (classroom.mastery.due_skills, the most overdue first) are asked in
  turn, one question each, for at most ROUND questions, mixed across truco and 21
  (classroom.mastery.review_queue); then the due skills are read again.
- A question comes from the lesson that trains the skill (its question kinds training the
  skill, from the engine's registry `cartas.questions`, seeded from a `numpy.random.Generator`),
  so it reads as in the lesson; its answer is recorded for that
  lesson and that skill, like an answer in the lesson. Only the first answer counts.
- Every lesson with exercises has its question kinds in the registry, truco's and 21's alike
  (`cartas.questions.LESSONS`); a due skill of a lesson without one would be listed with a
  link to its lesson instead.
- "Ver de novo o que falta" reads the due skills again and asks the first of them at once: a
  fresh question, unanswered; it never shows again the question just answered with its verdict.
  When nothing is left, the question goes and the page says so.
- Her persisting misconceptions come first (issue 32, item 5): the kinds where she showed a
  named misconception at least twice recently (`classroom.answers.persisting`) put their skill
  at the head of the round, due or not (once a session each), and that skill's question is
  of those kinds, in the variant she last answered them in.
- After a wrong answer the verdict names the misconception kindly, then the rule that corrects
  it, with a link to the lesson (`widgets.components.exercises.misconception_note`). Every
  answer is kept whole, context "review" (classroom.answers).
- No question is asked twice in a session (its `Question.same_as` key), and a new session does
  not start with the questions of the last one. Without a `seed`, a skill's questions come
  from a Generator seeded from the learner, the skill and the time of her newest answer to it
  (`skill_seed`, with a fresh question maker): the same store replays a session, and each
  answer starts a new stream. What she answered of the skill in the last two sessions is left
  out; so, where the skill has questions enough, is what those sessions drew, drawn again from
  the times of her earlier answers (each session's own draw, leaving out what the two before it
  asked, back to her oldest recent answer): a session whose answer was not kept whole.
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Collection
from html import escape
from typing import Any

import ipywidgets as w

from cartas import questions
from cartas.cards import lazy_rng, make_rng
from cartas.questions import Question, Text
from classroom import answers as whole, mastery
from classroom.store import StoreError
from widgets.components import homework as panel, learner as identity
from widgets.components.base import View, close_drawing, verdict_html
from widgets.components.exercises import misconception_note
from widgets.components.scores import Score
from widgets.pages.index import LESSONS

ROUND = mastery.ROUND
TRIES = 24  # questions drawn from a lesson until one trains the skill asked

# The lessons whose skills are reviewed here: each lesson's question kinds, found in the
# engine's registry (`cartas.questions`).
MAKERS = questions.LESSONS
NOTEBOOKS = {lesson.key: lesson.notebook for lesson in LESSONS}
TITLES = {lesson.key: lesson.title for lesson in LESSONS}

TEXT = {
    "title": {"pt": "Revisão do dia", "en": "Today's review"},
    "waiting": {"pt": "Um momento: o navegador ainda não disse quem você é.",
                "en": "One moment: the browser has not said who you are yet."},
    "store_down": {"pt": "O armazenamento não responde agora; tente de novo em instantes.",
                   "en": "The store does not answer right now; try again in a moment."},
    "nothing": {"pt": "Nada para revisar hoje. Pratique nas lições e volte amanhã.",
                "en": "Nothing to review today. Practise in the lessons and come back tomorrow."},
    "due": {"pt": "Para revisar hoje: {skills}.", "en": "To review today: {skills}."},
    "count": {"pt": "Pergunta {n} de {total} · acertos: {right}", "en": "Question {n} of {total} · right: {right}"},
    "skill": {"pt": "Habilidade: {skill}", "en": "Skill: {skill}"},
    "next": {"pt": "Próxima pergunta", "en": "Next question"},
    "start": {"pt": "Começar a revisão", "en": "Start the review"},
    "again": {"pt": "Ver de novo o que falta", "en": "See what is left again"},
    "right": {"pt": "Certo!", "en": "Right!"},
    "wrong": {"pt": "Não. A resposta é: {answer}.", "en": "No. The answer is: {answer}."},
    "done": {"pt": "Revisão feita: {right} de {total} certas.", "en": "Review done: {right} of {total} right."},
    "in_lesson": {"pt": "Revise na lição:", "en": "Review in the lesson:"},
}


def skill_seed(learner: str, skill: str, since: float | None) -> int:
    """The seed of the questions of `skill` for `learner` after her answer at `since` (the
    time of her newest answer to it; None for none)."""
    digest = hashlib.sha256(f"{learner}\n{skill}\n{since!r}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


class Review(View):
    """The review page (see the module's rules); `seed` seeds every question from one
    Generator (default: per skill, `skill_seed`); `now` is the time the due skills are read at."""

    TEXT = TEXT

    def __init__(self, lang=None, seed=None, now: float | None = None):
        super().__init__(lang=lang)
        self._seeded = None if seed is None else lazy_rng(seed)  # a bad seed is refused now
        self._generator: Any = None  # numpy only at the first question: the page opens light
        self.learner_key = ""
        self.levels: dict[str, dict] = {}  # her skills' stored answers (classroom.mastery.learner_levels)
        self.asked_keys: set = set()  # the questions of this session (`Question.same_as`)
        self._streams: dict[tuple, tuple] = {}  # (skill, last_at) -> (its maker, its Generator)
        self.now = now
        self.due: list[str] = []
        self.queue: list[str] = []
        self.asked = self.right = 0
        self.skill: str | None = None
        self.question: Question | None = None
        self.chosen = None
        self._makers: dict[str, Callable] = {}
        # her persisting misconceptions' kinds: {skill: [(kind, variant), ...]} (classroom.answers.persisting)
        self.favoured: dict[str, list[tuple[str, str]]] = {}
        self._favoured_asked: set[str] = set()  # the favoured skills this session put first already
        self._answered_before: dict[str, list] = {}  # {skill: her last two reviewed questions' keys}
        self.asked_at = time.monotonic()
        self.status = w.HTML().add_class("cartas-review-status")
        self.prompt = w.HTML().add_class("cartas-review-question")
        self.buttons = w.HBox(layout=w.Layout(flex_flow="row wrap")).add_class("cartas-review-answers")
        self.feedback = w.HTML().add_class("cartas-review-feedback")
        self.next_button = w.Button(button_style="primary", layout=w.Layout(width="220px"))
        self.next_button.add_class("cartas-review-next")
        self.next_button.on_click(self.guarded(lambda _: self.next_question()))
        self.identity = identity.widget(lang=self.lang)
        self.identity.on_change(self.guarded(lambda _: self.load(), clears=False))
        self.draw_title()
        self.children = [self.header(), self.status, self.message, self.prompt, self.buttons, self.feedback,
                         self.next_button]
        self.load()

    def load(self) -> None:
        """Read the skills due now for the learner at this browser."""
        self.due = []
        if identity.current() is not None:
            try:
                learner = self.identity.verified()
                if learner:
                    service = panel.mastery_service()
                    self.learner_key = learner.key
                    self.levels = service.learner_levels(learner.key)
                    self.due = service.due_skills(learner.key, self.now)
                    self.favoured = self._persisting(learner.key)
            except StoreError:
                self.show_message(self.t("store_down"), kind="error")
        first = [s for s in self.favoured if s not in self._favoured_asked and mastery.BY_KEY[s].lesson in MAKERS]
        self._favoured_asked.update(first)
        self.due = first + [s for s in self.due if s not in first]
        rest = mastery.review_queue([s for s in self.due if mastery.BY_KEY[s].lesson in MAKERS and s not in first],
                                    ROUND)
        self.queue = (first + rest)[:ROUND]
        self.redraw()

    def _persisting(self, learner_key: str) -> dict[str, list[tuple[str, str]]]:
        """{skill: [(kind, variant)]}: the kinds of her persisting misconceptions, the most
        shown first, each in the variant she last answered it in."""
        from classroom import open as open_classroom
        now = time.time() if self.now is None else self.now
        mine = open_classroom().answers_of(learner_key, since=now - whole.RECENT_DAYS * 86400)
        self._answered_before = {}  # her last two reviewed questions of each skill, as she saw them
        for answer in sorted((a for a in mine if a.context == "review" and a.kind), key=lambda a: a.at):
            try:
                key = answer.question().same_as()
            except Exception:  # an answer the registry no longer makes
                continue
            self._answered_before[answer.skill] = [*self._answered_before.get(answer.skill, [])[-1:], key]
        found = whole.persisting(mine, now)
        variants = {a.kind: a.variant for a in mine}
        out: dict[str, list[tuple[str, str]]] = {}
        for kind in found:
            try:
                skill = questions.find_kind(kind).skill
            except questions.QuestionError:
                continue
            if skill in mastery.BY_KEY:
                out.setdefault(skill, []).append((kind, variants.get(kind, "")))
        return out

    def _new_maker(self, skill: str) -> Callable:
        """The question maker of `skill`: its lesson's kinds that train it, from the engine's
        registry (a pure function of the Generator, so a stream replays); the kinds of her
        persisting misconceptions when the skill has some."""
        lesson = mastery.BY_KEY[skill].lesson
        favoured = list(self.favoured.get(skill) or [])
        if favoured:
            def of_her_misconceptions(rng) -> Question:
                key, variant = favoured[int(rng.integers(len(favoured)))]
                kind = questions.find_kind(key)
                seed = int(rng.integers(questions.MAX_SEED))
                return kind.make_seeded(seed, variant if variant in kind.variants else None)
            return of_her_misconceptions
        return lambda rng: questions.draw_question(lesson, rng, skill=skill)

    def _maker(self, skill: str) -> Callable:
        """The question maker of `skill` shared by the questions of a given `seed`, made once."""
        if skill not in self._makers:
            self._makers[skill] = self._new_maker(skill)
        return self._makers[skill]

    @staticmethod
    def _draw(maker: Callable, rng, skill: str, avoid: set, rather: Collection = ()) -> Question:
        """The first question of `skill` the maker draws that is in neither `avoid` nor `rather`
        (TRIES + 1 draws); failing that, the first of them not in `avoid`; failing that, the
        last one drawn (the lesson's other kind: still a review of that lesson)."""
        fallback = None
        for _ in range(TRIES + 1):
            question = maker(rng)
            if question.skill == skill and question.same_as() not in avoid:
                if question.same_as() not in rather:
                    return question
                fallback = fallback or question
        return fallback or question

    def _stream(self, skill: str, since: float | None) -> tuple:
        """(maker, Generator) of the questions of `skill` after her answer at `since`."""
        if (skill, since) not in self._streams:
            self._streams[skill, since] = (self._new_maker(skill),
                                           make_rng(skill_seed(self.learner_key, skill, since)))
        return self._streams[skill, since]

    def _asked_last_time(self, skill: str) -> tuple[set, set]:
        """(what she answered of `skill` in the last two sessions, what they drew of it by the
        replay; see the module's rules). The replay draws the stream after each earlier answer,
        from the oldest recent one, with today's maker: once her misconceptions are favoured
        it differs from what the sessions asked, so her answers are what must be left out
        and the replayed draws only what had rather be (a skill of four questions would have
        none left)."""
        times = list((self.levels.get(skill) or {}).get("times") or [])[1:]  # before her newest
        asked: list = []  # the replayed draws, newest first
        for since in reversed(times):
            maker = self._new_maker(skill)
            rng = make_rng(skill_seed(self.learner_key, skill, since))
            asked.insert(0, self._draw(maker, rng, skill, set(asked[:2])).same_as())
        return set(self._answered_before.get(skill, [])), set(asked[:2])

    def make_question(self, skill: str) -> Question:
        """A question of `skill`, drawn by its lesson's own question maker: neither one asked
        already in this session nor one the last session drew (see the module's rules)."""
        if self._seeded is not None:
            if self._generator is None:
                self._generator = self._seeded()
            question = self._draw(self._maker(skill), self._generator, skill,
                                  self.asked_keys)
        else:
            maker, rng = self._stream(skill, (self.levels.get(skill) or {}).get("last_at"))
            answered, replayed = self._asked_last_time(skill)
            question = self._draw(maker, rng, skill, self.asked_keys | answered, replayed)
        self.asked_keys.add(question.same_as())
        return question

    def next_question(self) -> None:
        """The next due skill's question; when the round is through ("see what is left
        again"), the due skills are read again and the first is asked at once, or, with
        none left, the answered question goes (never shown again with its old verdict)."""
        if not self.queue:
            self.load()
            if not self.queue:
                self._show_no_question()
                return
        self.skill = self.queue.pop(0)
        question = self.question = self.make_question(self.skill)
        self.chosen = None
        self.asked_at = time.monotonic()
        buttons = []
        for value, label in question.options:
            b = w.Button(description=self._text(label), layout=w.Layout(width="auto", min_width="60px"))
            b.add_class("cartas-review-answer")
            b.on_click(self.guarded(lambda _, v=value: self.answer(v)))
            buttons.append(b)
        old = self.buttons.children
        self.buttons.children = buttons
        close_drawing(old)
        self.redraw()

    def _show_no_question(self) -> None:
        old = self.buttons.children
        self.question = self.chosen = self.skill = None
        self.buttons.children = []
        close_drawing(old)
        self.redraw()

    def answer(self, value) -> bool:
        """The first answer counts: recorded for the skill's lesson and the skill."""
        q = self.question
        if q is None:
            raise ValueError(self.t("waiting"))
        if self.chosen is not None:
            return self.chosen == q.answer
        self.chosen = value
        correct = value == q.answer
        self.asked += 1
        self.right += correct
        lesson = mastery.BY_KEY[q.skill or self.skill or ""].lesson
        kept = None if q.seed is None else whole.answer_to(q, value, learner_id="", context="review",
                                                            seconds=time.monotonic() - self.asked_at)
        Score(lesson).add(correct, q.skill, kept)  # in its lesson, as if answered there
        self.redraw()
        return correct

    def _text(self, label) -> str:
        return label[self.lang] if isinstance(label, dict | Text) else str(label)

    def redraw(self) -> None:
        self.draw_title()
        lang = self.lang
        self.identity.set_language(lang)
        if identity.current() is None:
            self.status.value = f"<p>{self.t('waiting')}</p>"
        elif not self.due:
            self.status.value = f"<p class='cartas-review-empty' data-due='0'>{self.t('nothing')}</p>"
        else:
            names = ", ".join(mastery.BY_KEY[s].name[lang] for s in self.due)
            others = [s for s in self.due if mastery.BY_KEY[s].lesson not in MAKERS]
            links = "".join(
                f" <a href='{escape(NOTEBOOKS.get(mastery.BY_KEY[s].lesson, 'index.ipynb'))}?lang={lang}' "
                f"style='color:#1565c0;text-decoration:underline'>{escape(mastery.BY_KEY[s].name[lang])}</a>"
                for s in others)
            lesson_line = f"<br>{self.t('in_lesson')}{links}" if others else ""
            self.status.value = (f"<p class='cartas-review-due' data-due='{len(self.due)}'>"
                                 f"{escape(self.t('due', skills=names))}{lesson_line}</p>")
        q = self.question
        if q is None:
            self.prompt.value = self.feedback.value = ""
        else:
            skill = mastery.BY_KEY[q.skill].name[lang] if q.skill in mastery.BY_KEY else ""
            waiting = self.chosen is None
            count = self.t("count", n=self.asked + waiting, total=self.asked + len(self.queue) + waiting,
                           right=self.right)
            self.prompt.value = (f"<div style='font-size:14px;color:#555'>{escape(self.t('skill', skill=skill))} · "
                                 f"{escape(count)}</div><div style='font-size:17px'>{q.prompt[lang]}</div>")
            for b, (_value, label) in zip(self.buttons.children, q.options):
                b.description = self._text(label)
            if self.chosen is None:
                self.feedback.value = ""
            else:
                correct = self.chosen == q.answer
                answer = escape(self._text(dict(q.options)[q.answer]))
                head = self.t("right") if correct else self.t("wrong", answer=answer)
                lesson = q.kind.split(".")[0]
                why = q.reason[lang] if correct else misconception_note(
                    q, self.chosen, lang, f"{NOTEBOOKS.get(lesson, 'index.ipynb')}?lang={lang}",
                    (TITLES.get(lesson) or {}).get(lang, ""))
                self.feedback.value = verdict_html(correct, f"<b>{head}</b> {why}", size=16)
        if q is not None and not self.queue and self.chosen is not None:
            done = self.t("done", right=self.right, total=self.asked)
            self.feedback.value += f"<p class='cartas-review-done'>{escape(done)}</p>"
        self.next_button.description = self.t("start" if q is None else "next" if self.queue else "again")
        self.next_button.layout.display = "" if (self.queue or q is not None) else "none"
