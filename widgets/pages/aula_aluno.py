"""The live class quiz on a learner's phone (aula ao vivo): join with the projector's code, answer.

Decided rules (classroom.live, docs/rules.md#live-quiz-points):
- The code comes from the QR code's link (`?codigo=`, read by `widgets.components.params.live`;
  a malformed one is named in the page's notice and the code is asked for) or is typed. Once she
  has joined, the code is put in the page's address (`?codigo=`, by
  `widgets.components.address.PageAddress`, without a reload), so a reload goes straight back to
  the session, at the question on the projector (her answer to it, if any, counted once).
- The learner is the verified learner of this browser (her device token checked against the
  store again before joining and before every answer); a learner who is not in a class signs
  in here with the same form as on the index.
- The page shows the open question's prompt and one large button per option (at least
  TAP_PX high, the whole width of a 360-pixel phone), and the seconds left. The first answer
  is the one; the store refuses a second one and a late one, and says why in her language.
- Once the question closes: right or wrong, the right answer with its reason, this
  question's points and her total. A reload joins again and keeps her points.
- The sign-in form shows only while she is not a verified class learner: once the browser has
  said who she is, the form goes and the code (or the session) is at the top of the page.
- It refreshes on the browser's timer (`widgets.components.live.LiveTicker`), never in a loop.
- A screen reader hears each question as it opens (the view's live region,
  `widgets.components.announce`: the prompt, once per question) and the verdict when it closes
  (the region says the `.cartas-right`/`.cartas-wrong` line by itself).
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from classroom.store import StoreError
from widgets.components import learner as identity, live as drawing
from widgets.components.address import PageAddress
from widgets.components.announce import Announcer, text_of
from widgets.components.base import View, close_drawing, verdict_html
from widgets.components.exercises import belief_of

TAP_PX = 56

TEXT = {
    "title": {"pt": "Aula ao vivo", "en": "Live class quiz"},
    "code": {"pt": "Código do projetor", "en": "Code on the projector"},
    "join": {"pt": "Entrar na aula", "en": "Join the session"},
    "sign_in": {"pt": "Entre na sua turma (nome, código da turma e PIN) para participar.",
                "en": "Sign in to your class (name, class code and PIN) to take part."},
    "joined": {"pt": "Você está na aula {code} · {points} pontos",
               "en": "You are in session {code} · {points} points"},
    "wait": {"pt": "Espere a próxima pergunta do professor.", "en": "Wait for the teacher's next question."},
    "wait_next": {"pt": "Você entrou durante uma pergunta: participa a partir da próxima.",
                  "en": "You joined during a question: you take part from the next one."},
    "left": {"pt": "Faltam {s} s", "en": "{s} s left"},
    "sent": {"pt": "Resposta enviada. Espere o resultado no projetor.",
             "en": "Answer sent. Wait for the result on the projector."},
    "right": {"pt": "Certo! +{points} pontos.", "en": "Right! +{points} points."},
    "wrong": {"pt": "Não. A resposta é: {answer}.", "en": "No. The answer is: {answer}."},
    "missed": {"pt": "Sem resposta. A resposta é: {answer}.", "en": "No answer. The answer is: {answer}."},
    "ended": {"pt": "A aula terminou. Obrigado!", "en": "The session has ended. Thank you!"},
    "store_down": {"pt": "O armazenamento não responde agora; tente de novo em instantes.",
                   "en": "The store does not answer right now; try again in a moment."},
}


class LivePhone(View):
    """A learner's screen in a live session (see the module's rules)."""

    TEXT = TEXT

    def __init__(self, lang=None, code: str | None = None):
        super().__init__(lang=lang)
        from widgets.components.params import live
        self.code = code if code is not None else self.from_url(live())
        self.joined: dict | None = None
        self.shown: dict = {}
        self._buttons_for = (0, "")  # (question number, language) the buttons were drawn for
        self._said = 0  # the question whose prompt the live region said
        self.identity = identity.widget(lang=self.lang, form=True)
        self.identity.on_change(self.guarded(lambda _learner: self.try_join(), clears=False))
        self.language.observe(lambda change: self.identity.set_language(change["new"]), names="value")
        self.code_input = w.Text(value=self.code or "", layout=w.Layout(width="100%", height=f"{TAP_PX}px")
                                 ).add_class("cartas-live-code")
        self.join_button = w.Button(layout=w.Layout(width="100%", height=f"{TAP_PX}px")).add_class("cartas-live-join")
        self.join_button.on_click(self.guarded(lambda _: self.join(self.code_input.value), near=self.code_input))
        self.ask_code = w.VBox([self.beside(self.code_input, width="100%"), self.join_button])
        self.status = w.HTML().add_class("cartas-live-status")
        self.prompt = w.HTML().add_class("cartas-live-prompt")
        self.buttons = w.VBox(layout=w.Layout(width="100%")).add_class("cartas-live-options")
        self.feedback = w.HTML().add_class("cartas-live-feedback")
        self.ticker = drawing.LiveTicker(seconds=drawing.PHONE_SECONDS)
        self.ticker.observe(self.guarded(lambda _: self.refresh(), clears=False), names="tick")
        self.address = PageAddress()  # ?codigo= in the address bar once she has joined
        self.draw_title()
        self.announcer = Announcer()  # the live region: the question and the verdict said aloud
        switch = [] if self.on_page() else [self.language]  # on a page: the page's switch
        top = w.HBox([self.title, *switch, self.announcer], layout=w.Layout(
            justify_content="space-between", flex_flow="row wrap", align_items="center"))
        self.children = [top, self.identity, self.ask_code, self.message, self.status, self.prompt,
                         self.buttons, self.feedback, self.ticker, self.address]
        self.redraw()
        if self.code:
            self.try_join()

    # Actions ----------------------------------------------------------------------------
    def _quiz(self):
        from classroom import open as open_classroom
        return open_classroom().live()

    def _learner(self):
        """The learner at this browser, her token checked now; None if not in a class."""
        if not self.identity.reported():
            return None
        learner = self.identity.verified()  # under JupyterHub the hub user: the service checks her groups
        return learner if learner is not None and (learner.class_code or self.identity.hub) else None

    def join(self, text: str) -> None:
        from classroom.live import clean_code
        self.code = clean_code(text)  # a LiveError names the code's shape
        self.try_join(explicit=True)

    def try_join(self, explicit: bool = False) -> None:
        """Join the session once both the code and a verified class learner are known."""
        if not self.code:
            self.redraw()  # the learner may just have become known: the form goes
            return
        try:
            learner = self._learner()
            if learner is None:
                if explicit:
                    raise ValueError(self.t("sign_in"))
                self.redraw()
                return
            self.joined = self._quiz().join(self.code, learner.key, learner.name, learner.class_code)
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error
        self.address.query = {"codigo": self.code}
        self.ticker.active = True
        self.refresh()

    def refresh(self) -> None:
        """Read the open question again (the browser's timer calls this)."""
        if self.joined is None or not self.code:
            return
        try:
            learner = self.identity.current
            self.shown = self._quiz().question(self.code, learner.key if learner else None)
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error
        if self.shown.get("ended"):
            self.ticker.active = False
        self.redraw()

    def answer(self, choice: int) -> dict:
        """Send her answer to the question on screen; a LiveError (shown) when refused."""
        number = self.shown.get("number", 0)
        try:
            learner = self._learner()
            if learner is None or self.code is None:
                raise ValueError(self.t("sign_in"))
            result = self._quiz().answer(self.code, learner.key, number, choice)
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error
        self.refresh()
        return result

    # Drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        lang, shown = self.lang, self.shown
        self.code_input.placeholder = self.t("code")
        self.join_button.description = self.t("join")
        in_class = self.identity.current is not None and (bool(self.identity.current.class_code)
                                                          or self.identity.hub)
        self.identity.layout.display = "none" if in_class else ""
        self.ask_code.layout.display = "none" if self.joined is not None else ""
        if self.joined is None:
            text = "" if in_class else self.t("sign_in")
            self.status.value = (f"<div class='cartas-live-phone' data-state='out' style='font-size:16px'>"
                                 f"{escape(text)}</div>")
            self.prompt.value = self.feedback.value = ""
            self._set_buttons([], 0)
            return
        points = shown.get("points", self.joined["points"])
        line = self.t("joined", code=self.code, points=points)
        number = shown.get("number", 0)
        first = shown.get("first_number", self.joined["first_number"])
        if shown.get("ended"):
            state, note = "ended", self.t("ended")
        elif not number or (not shown.get("open") and number < first):
            state, note = "waiting", self.t("wait")
        elif number < first:
            state, note = "next", self.t("wait_next")
        elif shown.get("open"):
            state = "answered" if shown.get("mine") else "open"
            note = self.t("sent") if shown.get("mine") else self.t("left", s=int(shown["seconds_left"] + 0.999))
        else:
            state, note = "closed", ""
        self.status.value = (f"<div class='cartas-live-phone' data-state='{state}' data-number='{number}' "
                             f"data-points='{points}' style='font-size:16px'><b>{escape(line)}</b>"
                             f"<div>{escape(note)}</div></div>")
        asking = state in ("open", "answered", "closed")
        self.prompt.value = (f"<div style='font-size:19px;margin:8px 0'>{shown['prompt'][lang]}</div>"
                             if asking else "")
        self._set_buttons(shown.get("options", []) if state == "open" else [], number)
        if state == "open" and number != self._said:
            self._said = number
            self.announce(text_of(shown["prompt"][lang]))
        self.feedback.value = self._verdict(shown) if state == "closed" else ""

    def _verdict(self, shown: dict) -> str:
        lang, mine = self.lang, shown.get("mine")
        answer = escape(shown["options"][shown["answer"]][lang])
        if mine and mine["correct"]:
            head, correct = self.t("right", points=mine["points"]), True
        else:
            head, correct = self.t("wrong" if mine else "missed", answer=answer), False
        belief = belief_of((mine or {}).get("misconception"), lang) if mine and not correct else ""
        why = f"{belief} {shown['why'][lang]}" if belief else shown["why"][lang]
        return verdict_html(correct, f"<b>{head}</b> {why}", size=16,
                            attrs=f" data-correct='{int(correct)}'")

    def _set_buttons(self, options: list, number: int) -> None:
        wanted = (number, self.lang) if options else (0, "")
        if wanted == self._buttons_for:
            return
        old = self.buttons.children
        buttons = []
        for k, option in enumerate(options):
            button = w.Button(description=option[self.lang],
                              layout=w.Layout(width="100%", min_height=f"{TAP_PX}px", margin="4px 0")
                              ).add_class("cartas-live-option")
            button.on_click(self.guarded(lambda _, k=k: self.answer(k)))
            buttons.append(button)
        self.buttons.children = buttons
        self._buttons_for = wanted
        close_drawing(old)
