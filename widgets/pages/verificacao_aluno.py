"""A check before and after on a learner's phone (issue 32, item 4; classroom.checks).

Decided rules (docs/rules.md#check-before-after):
- The learner is the verified learner of this browser (her device token checked again before
  she submits); one who is not in a class signs in here with the index's form.
- The page finds the open check of her class (the newest she has not taken in its open phase)
  and asks its questions one by one, each made again from its seed by the engine, with one large
  button per choice (at least TAP_PX high, the whole width of a 360-pixel phone).
- No feedback while she takes it: a tap moves to the next question, nothing says right or wrong.
  After the last one her answers are sent at once; the store counts only her first submission
  of a phase, and says so in her language when she sends another.
- "Procurar de novo" reads her class's checks again (the teacher may just have opened the
  "after" phase): no timer, no loop.
"""
from __future__ import annotations

import time
from html import escape
from typing import Any

import ipywidgets as w

from classroom.store import StoreError
from widgets.components import learner as identity
from widgets.components.base import View, close_drawing

TAP_PX = 56

TEXT = {
    "title": {"pt": "Verificação: antes e depois", "en": "Check: before and after"},
    "sign_in": {"pt": "Entre na sua turma (nome, código da turma e PIN) para fazer a verificação.",
                "en": "Sign in to your class (name, class code and PIN) to take the check."},
    "none": {"pt": "Nenhuma verificação aberta para você agora. Espere o professor.",
             "en": "No check is open for you right now. Wait for your teacher."},
    "look": {"pt": "Procurar de novo", "en": "Look again"},
    "phase_before": {"pt": "Antes da unidade", "en": "Before the unit"},
    "phase_after": {"pt": "Depois da unidade", "en": "After the unit"},
    "number": {"pt": "Pergunta {n} de {m}", "en": "Question {n} of {m}"},
    "no_feedback": {"pt": "Responda como achar certo: a verificação não diz se acertou.",
                    "en": "Answer as you think right: the check does not say whether you are right."},
    "sent": {"pt": "Pronto! Suas {n} respostas foram enviadas. O professor verá o resultado da turma.",
             "en": "Done! Your {n} answers were sent. Your teacher will see the class's result."},
    "store_down": {"pt": "O armazenamento não responde agora; tente de novo em instantes.",
                   "en": "The store does not answer right now; try again in a moment."},
}


class CheckPhone(View):
    """A learner's screen for a check (see the module's rules)."""

    TEXT = TEXT

    def __init__(self, lang=None):
        super().__init__(lang=lang)
        self.taking: dict | None = None   # the check as `take` gives it
        self.chosen: list[str] = []
        self.times: list[float] = []
        self.sent: dict | None = None
        self._shown_at = time.monotonic()
        self._question: Any = None
        self._drawn_for: tuple = ()
        self.identity = identity.widget(lang=self.lang, form=True)
        self.identity.on_change(self.guarded(lambda _learner: self.look(), clears=False))
        self.language.observe(lambda change: self.identity.set_language(change["new"]), names="value")
        self.status = w.HTML().add_class("cartas-check-status")
        self.prompt = w.HTML().add_class("cartas-check-prompt")
        self.buttons = w.VBox(layout=w.Layout(width="100%")).add_class("cartas-check-options")
        self.look_button = w.Button(layout=w.Layout(width="100%", height=f"{TAP_PX}px")).add_class("cartas-check-look")
        self.look_button.on_click(self.guarded(lambda _: self.look()))
        self.draw_title()
        switch = [] if self.on_page() else [self.language]
        top = w.HBox([self.title, *switch], layout=w.Layout(justify_content="space-between",
                                                             flex_flow="row wrap", align_items="center"))
        self.children = [top, self.identity, self.message, self.status, self.prompt, self.buttons,
                         self.look_button]
        self.redraw()
        self.look()

    # Actions ----------------------------------------------------------------------------
    def _checks(self):
        from classroom import open as open_classroom
        return open_classroom().checks()

    def _learner(self):
        if not self.identity.reported():
            return None
        learner = self.identity.verified()
        return learner if learner is not None and (learner.class_code or self.identity.hub) else None

    def look(self) -> None:
        """Find the open check she has not taken yet in its phase."""
        learner = self._learner()
        if learner is None:
            self.redraw()
            return
        try:
            found = [c for c in self._checks().mine(learner) if c["questions"]]
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error
        if found and (self.taking is None or (found[0]["id"], found[0]["phase"]) !=
                      (self.taking["id"], self.taking["phase"])):
            self.taking, self.chosen, self.times, self.sent = found[0], [], [], None
            self._shown_at = time.monotonic()
        elif not found and self.sent is None:
            self.taking = None
        self.redraw()

    def choose(self, value: str) -> None:
        """Her answer to the question on screen; after the last, all are sent at once."""
        taking = self.taking
        if taking is None or self.sent is not None or len(self.chosen) >= len(taking["questions"]):
            return
        self.chosen.append(value)
        self.times.append(round(time.monotonic() - self._shown_at, 1))
        self._shown_at = time.monotonic()
        if len(self.chosen) == len(taking["questions"]):
            learner = self._learner()
            if learner is None:
                raise ValueError(self.t("sign_in"))
            try:
                self.sent = self._checks().submit(learner, taking["id"], taking["phase"], self.chosen, self.times)
            except StoreError as error:
                self.chosen.pop()
                self.times.pop()
                raise ValueError(self.t("store_down")) from error
            except ValueError:
                self.chosen, self.times = [], []  # refused (already taken, phase closed): look again
                self.taking = None
                self.redraw()
                raise
        self.redraw()

    # Drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        from classroom.answers import value_text
        from classroom.checks import make_question
        self.draw_title()
        self.look_button.description = self.t("look")
        current = self.identity.current
        in_class = current is not None and (bool(current.class_code) or self.identity.hub)
        self.identity.layout.display = "none" if in_class else ""
        taking, lang = self.taking, self.lang
        if not in_class:
            state, note = "out", self.t("sign_in")
        elif self.sent is not None:
            state, note = "sent", self.t("sent", n=self.sent["counted"])
        elif taking is None:
            state, note = "none", self.t("none")
        else:
            state, note = "asking", self.t("no_feedback")
        number = len(self.chosen)
        asking = state == "asking" and taking is not None
        head = ""
        if asking and taking is not None:
            head = (f"<b>{escape(self.t('phase_' + taking['phase']))}</b> · "
                    f"{escape(self.t('number', n=number + 1, m=len(taking['questions'])))}<br>")
        self.status.value = (f"<div class='cartas-check-phone' data-state='{state}' data-number='{number}' "
                             f"style='font-size:16px'>{head}{escape(note)}</div>")
        self.look_button.layout.display = "" if state in ("none", "sent") else "none"
        if not asking or taking is None:
            self.prompt.value = ""
            self._set_buttons([], ())
            return
        item = taking["questions"][number]
        question = make_question(item)
        self.prompt.value = f"<div style='font-size:19px;margin:8px 0'>{question.prompt[lang]}</div>"
        self._set_buttons([(value_text(c.value), c.label[lang]) for c in question.choices],
                          (taking["id"], taking["phase"], number, lang))

    def _set_buttons(self, options: list[tuple[str, str]], drawn_for: tuple) -> None:
        if drawn_for == self._drawn_for:
            return
        old = self.buttons.children
        buttons = []
        for value, label in options:
            button = w.Button(description=str(label),
                              layout=w.Layout(width="100%", min_height=f"{TAP_PX}px", margin="4px 0")
                              ).add_class("cartas-check-option")
            button.on_click(self.guarded(lambda _, value=value: self.choose(value)))
            buttons.append(button)
        self.buttons.children = buttons
        self._drawn_for = drawn_for
        close_drawing(old)
