"""The live class quiz's projector page (aula ao vivo): the teacher runs the quiz from the front.

Decided rules (classroom.live, docs/rules.md#live-quiz-points):
- The session starts with the class code and its teacher key, as the class view opens
  (`classroom.classes.open_class`, with its limit on wrong keys); under JupyterHub with the
  class's hub group alone (the class service checks that she teaches). The page then shows the join
  code in large letters, the learners' link (`aula_aluno.ipynb?codigo=...`) and its QR code.
- The teacher picks the next question: a lesson, truco's or 21's, whose question kinds (the
  engine's registry, `cartas.questions`, the same kinds as its exercises: scoring a hand, who
  wins a call, hit or stand, draw or call, who takes the bank and for how much) draw it from this
  session's seeded Generator (seed shown; `?semente=` replays a class's questions); or a
  truco position from the scenario builder (its link, or the whole address), asked as "what
  would you play here?", the answer key and its reason taken from the coach
  (`cartas.coach.truco.advise`).
- While a question is open, the projector shows how many have answered; when its time is up
  (or the teacher shows the result), the histogram, the right answer with its reason, and the
  leaderboard. It refreshes on the browser's timer (`widgets.components.live.LiveTicker`).
- Presenting (issue 29 item 5): the class has joined by the time the teacher asks the first
  question, so from then on the page presents (class `cartas-live-presenting`): the QR code
  shrinks to QR_PX beside the join code in big text (still scannable: a link of the projector's
  length is a version 4-5 code, about 3 screen pixels a module; a click still enlarges it), the
  link row and the lesson's introduction are hidden, the controls sit beside the code, and the
  results are two columns (the question and the histogram; the answer and the leaderboard), so
  that the question, the histogram and the leaderboard fit one 1280×800 screen unscrolled.
"""
from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import parse_qs, urlsplit

import ipywidgets as w

from cartas import questions
from classroom import hub_user
from classroom.classes import NotAllowed
from classroom.store import StoreError
from widgets.components import live as drawing
from widgets.components.base import View
from widgets.components.i18n import LANGUAGES, translate
from widgets.families import views_of
from widgets.pages.turma_insight import projector_html

# The lessons whose questions the projector asks: each lesson's question kinds, found in the
# engine's registry (`cartas.questions.draw_question`).
QUESTION_LESSONS = questions.LESSONS
# A scenario question counts in the learner's progress under the live quiz's own key: the
# scenario builder (cenarios) asks no exercises of its own, so its column stays empty.
SCENARIO_LESSON = "aula_cenario"
SECONDS_CHOICES = (10, 20, 30, 60)
QR_PX = 140  # the QR code's width once the page presents
PRESENTING = "cartas-live-presenting"
STYLE = f"""<style>
.{PRESENTING} .cartas-live-share .cartas-share-row, .{PRESENTING} .cartas-live-share .cartas-qr-note {{
  display: none; }}
.{PRESENTING} .cartas-live-share .cartas-qr:not(.cartas-qr-big) {{ width: {QR_PX}px; margin-top: 0; }}
.{PRESENTING} .cartas-live-share {{ margin: 0; }}
body:has(.{PRESENTING}) .jp-RenderedMarkdown {{ display: none; }}
</style>"""

TEXT = {
    "title": {"pt": "Aula ao vivo: o projetor", "en": "Live class quiz: the projector"},
    "intro": {"pt": "Abra a turma com o código e a chave do professor para começar a aula.",
              "en": "Open the class with its code and the teacher key to start the session."},
    "code": {"pt": "Código da turma", "en": "Class code"},
    "key": {"pt": "Chave do professor", "en": "Teacher key"},
    "start": {"pt": "Começar a aula", "en": "Start the session"},
    "refused": {"pt": "Código ou chave do professor errados.", "en": "Wrong class code or teacher key."},
    "hub_intro": {"pt": "Escreva a turma (o grupo do JupyterHub) para começar a aula.",
                  "en": "Type the class (its JupyterHub group) to start the session."},
    "hub_refused": {"pt": "Não há essa turma no JupyterHub, ou você não é professor(a).",
                    "en": "There is no such class on JupyterHub, or you do not teach."},
    "store_down": {"pt": "O armazenamento não responde agora; tente de novo em instantes.",
                   "en": "The store does not answer right now; try again in a moment."},
    "join": {"pt": "Entre pelo celular: código {code}", "en": "Join on your phone: code {code}"},
    "seed": {"pt": "Semente das perguntas: {seed}", "en": "Question seed: {seed}"},
    "lesson": {"pt": "Pergunta de uma lição", "en": "A question from a lesson"},
    "seconds": {"pt": "Tempo", "en": "Time"},
    "ask": {"pt": "Próxima pergunta", "en": "Next question"},
    "scenario": {"pt": "Link de um cenário de truco", "en": "A truco scenario's link"},
    "ask_scenario": {"pt": "Perguntar o cenário", "en": "Ask the scenario"},
    "close": {"pt": "Mostrar o resultado", "en": "Show the result"},
    "end": {"pt": "Encerrar a aula", "en": "End the session"},
    "ended": {"pt": "A aula terminou.", "en": "The session has ended."},
    "waiting": {"pt": "Esperando a primeira pergunta. {n} na aula.",
                "en": "Waiting for the first question. {n} in the session."},
    "question": {"pt": "Pergunta {n}", "en": "Question {n}"},
    "what_play": {"pt": "O que você jogaria aqui? {where}Você é o assento {seat} e tem {hand}.{on_table}",
                  "en": "What would you play here? {where}You are seat {seat} and hold {hand}.{on_table}"},
    "where_vira": {"pt": "Truco Paulista, vira {vira}. ", "en": "Truco Paulista, vira {vira}. "},
    "where_mineiro": {"pt": "Truco Mineiro. ", "en": "Truco Mineiro. "},
    "on_table": {"pt": " Na mesa: {cards}.", "en": " On the table: {cards}."},
    "what_answer": {"pt": "A outra dupla pede {value}. Aceitar, correr ou aumentar? {where}Você tem {hand}.",
                    "en": "The other team asks for {value}. Accept, run or raise? {where}You hold {hand}."},
    "what_decide": {"pt": "Mão de onze/dez: jogar ou correr? {where}Você tem {hand}.",
                    "en": "Threshold hand: play or run? {where}You hold {hand}."},
    "play_card": {"pt": "Jogar {card}", "en": "Play {card}"},
    "accept": {"pt": "Aceitar", "en": "Accept"},
    "run": {"pt": "Correr", "en": "Run"},
    "raise": {"pt": "Aumentar", "en": "Raise"},
    "play_hand": {"pt": "Jogar a mão", "en": "Play the hand"},
    "run_hand": {"pt": "Correr da mão", "en": "Run from the hand"},
    "not_truco": {"pt": "O cenário não é uma posição de truco com uma decisão a tomar.",
                  "en": "The scenario is not a truco position with a decision to make."},
    "no_session": {"pt": "Comece a aula primeiro.", "en": "Start the session first."},
}


def every(key: str, **fields) -> dict:
    return {lang: translate(TEXT, key, lang, **fields) for lang in LANGUAGES}


def scenario_text(text: str) -> str:
    """The `?cenario=` value of a whole dashboard address, or the text itself (a bare link)."""
    text = (text or "").strip()
    if "cenario=" in text:
        values = parse_qs(urlsplit(text).query).get("cenario")
        if values:
            return values[0]
    return text



def scenario_question(text: str) -> dict:
    """A truco scenario's link as a live question: the coached seat's decision, the coach's
    advice as the answer and its reason as the why; ValueError (both languages) otherwise."""
    from cartas import scenario as scenarios
    from cartas.coach.truco import advise, spot_from_view
    from widgets.components.params import scenario_link

    reading = scenario_link("cenario", scenario_text(text))
    if reading.problem is not None:
        raise reading.problem
    data = scenarios.decode_link(reading.value)  # a ScenarioError names what is wrong
    if not views_of(scenarios.game_of(data).family).live_from_scenarios:
        raise NotTruco()
    state = scenarios.build(data)
    seat = state.current_seat
    if seat is None or state.is_terminal():
        raise NotTruco()
    view: Any = state.view(seat)  # a truco SeatView (cartas.truco.views)
    advice = advise(spot_from_view(view))
    hand = [c for c in view.hand if c]
    where = {lang: (translate(TEXT, "where_vira", lang, vira=view.vira) if view.vira
                    else translate(TEXT, "where_mineiro", lang)) for lang in LANGUAGES}
    cards = ", ".join(str(c) for c in hand)
    if advice.action in ("play", "cover"):
        on_table = ", ".join(str(c) if c else "?" for _, c in view.current_trick)
        table = {lang: translate(TEXT, "on_table", lang, cards=on_table) if on_table else "" for lang in LANGUAGES}
        prompt = {lang: escape(translate(TEXT, "what_play", lang, where=where[lang], seat=seat, hand=cards,
                                         on_table=table[lang])) for lang in LANGUAGES}
        options = [every("play_card", card=c) for c in hand]
        answer = [str(c) for c in hand].index(str(advice.card))
    elif advice.action in ("accept", "run", "raise"):
        keys = ["accept", "run"] + (["raise"] if any(a.kind == "raise" for a in view.legal) else [])
        value = view.pending_raise["value"] if getattr(view, "pending_raise", None) else view.hand_value
        prompt = {lang: escape(translate(TEXT, "what_answer", lang, value=value, where=where[lang], hand=cards))
                  for lang in LANGUAGES}
        options, answer = [every(k) for k in keys], keys.index(advice.action)
    elif advice.action in ("play_hand", "run_hand"):
        keys = ["play_hand", "run_hand"]
        prompt = {lang: escape(translate(TEXT, "what_decide", lang, where=where[lang], hand=cards))
                  for lang in LANGUAGES}
        options, answer = [every(k) for k in keys], keys.index(advice.action)
    else:  # pragma: no cover - every advice is one of the above
        raise NotTruco()
    return {"lesson": SCENARIO_LESSON, "prompt": prompt, "options": options, "answer": answer,
            "why": {lang: escape(advice.text(lang)) for lang in LANGUAGES}}


class NotTruco(ValueError):
    def message(self, lang: str = "pt") -> str:
        return translate(TEXT, "not_truco", lang)


class LiveProjector(View):
    """The teacher's projector (see the module's rules)."""

    TEXT = TEXT

    def __init__(self, lang=None, seed=None):
        super().__init__(lang=lang)
        if seed is None:  # ?semente= replays a class's questions
            from widgets.components.params import seed as seed_param
            seed = self.from_url(seed_param())
        self.session: dict | None = None
        self.board: dict = {}
        self._seed = seed
        self._rng = None
        self._turns: dict[str, int] = {}  # lesson -> questions of it asked before
        self._drawn: Any = None  # the last question drawn, and each asked one by its number
        self._asked: dict[int, Any] = {}
        self.intro = w.HTML()
        self.code = w.Text(layout=w.Layout(width="160px")).add_class("cartas-live-class")
        self.key = w.Password(layout=w.Layout(width="240px")).add_class("cartas-live-key")
        self.start_button = w.Button(layout=w.Layout(width="180px")).add_class("cartas-live-start")
        self.join = w.HTML().add_class("cartas-live-join")
        self.share = None  # the learners' link and its QR code, made when the session starts
        self.share_box = w.Box()
        # labelled (an empty description leaves each select with a hidden <label>: axe's select-name)
        self.lesson = w.Dropdown(layout=w.Layout(width="auto"), style={"description_width": "initial"}
                                 ).add_class("cartas-live-lesson")
        self.seconds = w.Dropdown(options=SECONDS_CHOICES, value=20, layout=w.Layout(width="auto"),
                                  style={"description_width": "initial"}).add_class("cartas-live-seconds")
        self.ask_button = w.Button(layout=w.Layout(width="180px")).add_class("cartas-live-ask")
        self.scenario = w.Text(layout=w.Layout(width="360px")).add_class("cartas-live-scenario")
        self.scenario_button = w.Button(layout=w.Layout(width="180px")).add_class("cartas-live-ask-scenario")
        self.close_button = w.Button(layout=w.Layout(width="180px")).add_class("cartas-live-close")
        self.end_button = w.Button(layout=w.Layout(width="180px")).add_class("cartas-live-end")
        self.screen = w.HTML().add_class("cartas-live-board")
        self.ticker = drawing.LiveTicker(seconds=drawing.PROJECTOR_SECONDS)
        self.start_button.on_click(self.guarded(lambda _: self.start(self.code.value, self.key.value)))
        self.ask_button.on_click(self.guarded(lambda _: self.ask_lesson(self.lesson.value)))
        self.scenario_button.on_click(self.guarded(lambda _: self.ask_scenario(self.scenario.value),
                                                   near=self.scenario))
        self.close_button.on_click(self.guarded(lambda _: self.close()))
        self.end_button.on_click(self.guarded(lambda _: self.end()))
        self.ticker.observe(self.guarded(lambda _: self.refresh(), clears=False), names="tick")
        self.controls = w.VBox([
            w.HBox([self.lesson, self.seconds, self.ask_button], layout=w.Layout(flex_flow="row wrap")),
            self.beside(self.scenario),
            w.HBox([self.scenario_button, self.close_button, self.end_button],
                   layout=w.Layout(flex_flow="row wrap")),
        ], layout=w.Layout(display="none"))
        self.opening = w.VBox([self.intro, w.HBox([self.code, self.key, self.start_button],
                                                  layout=w.Layout(flex_flow="row wrap"))])
        self.draw_title()
        self.style = w.HTML(STYLE, layout=w.Layout(display="none"))
        top = w.HBox([self.share_box, w.VBox([self.join, self.controls])],
                     layout=w.Layout(align_items="flex-start", grid_gap="12px"))
        self.children = [self.header(), self.style, self.opening, top, self.message, self.screen, self.ticker]
        self.redraw()

    # Actions ----------------------------------------------------------------------------
    def _quiz(self):
        from classroom import open as open_classroom
        try:
            return open_classroom().live()
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error

    def _call(self, action):
        try:
            return action(self._quiz())
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error

    def start(self, class_code: str, teacher_key: str) -> dict:
        """Start a session of the class with its teacher key; ValueError (shown) otherwise."""
        from cartas.cards import make_rng
        from widgets.components.share import ShareLink
        try:
            self.session = self._call(lambda quiz: quiz.start(class_code, teacher_key))
        except NotAllowed:
            raise ValueError(self.t("hub_refused" if hub_user() else "refused")) from None
        seed = self._seed
        if seed is None:
            import secrets
            seed = secrets.randbelow(1_000_000)
        self._seed, self._rng = seed, make_rng(seed)
        path = f"aula_aluno.ipynb?codigo={self.session['code']}"
        if self.share is None:
            self.share = ShareLink(path=path, lang=self.lang).add_class("cartas-live-share")
            self.share_box.children = (self.share,)
        else:
            self.share.path = path
        self.opening.layout.display = "none"
        self.controls.layout.display = ""
        self.ticker.active = True
        self.refresh()
        return self.session

    def draw_question(self, lesson: str) -> dict:
        """The next question of `lesson`, from the lesson's own generator and this session's
        seeded Generator, as the store keeps it."""
        if self._rng is None:
            raise ValueError(self.t("no_session"))
        if lesson not in QUESTION_LESSONS:
            raise KeyError(lesson)
        turn = self._turns[lesson] = self._turns.get(lesson, -1) + 1  # as the lesson asks them
        self._drawn = questions.draw_question(lesson, self._rng, turn=turn)
        return drawing.stored_question(lesson, self._drawn)

    def ask_lesson(self, lesson: str) -> int:
        stored = self.draw_question(lesson)
        number = self._ask(stored)
        self._asked[number] = self._drawn  # its choices' misconceptions, for the popular wrong one
        self.draw_board()
        return number

    def ask_scenario(self, text: str) -> int:
        if self.session is None:
            raise ValueError(self.t("no_session"))
        return self._ask(scenario_question(text))

    def _ask(self, question: dict) -> int:
        session = self.session
        if session is None:
            raise ValueError(self.t("no_session"))
        number = self._call(lambda quiz: quiz.ask(session["code"], session["host_token"], question,
                                                  int(self.seconds.value)))
        self.refresh()
        return number

    def close(self) -> None:
        session = self.session
        if session is None:
            raise ValueError(self.t("no_session"))
        self._call(lambda quiz: quiz.close(session["code"], session["host_token"]))
        self.refresh()

    def end(self) -> None:
        """End the session: the last results stay on screen; the timer stops."""
        session = self.session
        if session is None:
            raise ValueError(self.t("no_session"))
        self._call(lambda quiz: quiz.end(session["code"], session["host_token"]))
        self.refresh()
        self.ticker.active = False
        self.controls.layout.display = "none"
        self.show_message(self.t("ended"), kind="ok")

    def refresh(self) -> None:
        """Read the board again (the browser's timer calls this)."""
        session = self.session
        if session is None:
            return
        self.board = self._call(lambda quiz: quiz.board(session["code"]))
        self.draw_board()

    # Drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        hub = hub_user() is not None  # under JupyterHub: the hub group alone, no key
        self.intro.value = f"<p style='font-size:16px'>{escape(self.t('hub_intro' if hub else 'intro'))}</p>"
        self.key.layout.display = "none" if hub else ""
        self.code.placeholder, self.key.placeholder = self.t("code"), self.t("key")
        self.start_button.description = self.t("start")
        from widgets.pages.index import LESSONS
        titles = {lesson.key: lesson.title[self.lang] for lesson in LESSONS}
        options = [(titles.get(key, key), key) for key in QUESTION_LESSONS]
        if list(self.lesson.options) != options:
            value = self.lesson.value
            self.lesson.options = options
            self.lesson.value = value if value in QUESTION_LESSONS else next(iter(QUESTION_LESSONS))
        self.lesson.description, self.seconds.description = self.t("lesson"), self.t("seconds")
        self.ask_button.description = self.t("ask")
        self.scenario.placeholder = self.t("scenario")
        self.scenario_button.description = self.t("ask_scenario")
        self.close_button.description = self.t("close")
        self.end_button.description = self.t("end")
        if self.share is not None:
            self.share.lang = self.lang
        self.draw_board()

    def draw_board(self) -> None:
        session, board, lang = self.session, self.board, self.lang
        if session is None:
            self.join.value = self.screen.value = ""
            return
        code = session["code"]
        if board.get("number") and PRESENTING not in self._dom_classes:
            self.add_class(PRESENTING)  # the class has joined: the QR code shrinks, the results fit
        self.join.value = (f"<div data-code='{escape(code)}' style='font-size:34px;font-weight:bold;margin:4px 0'>"
                           f"{escape(self.t('join', code=code))}</div>"
                           f"<div style='font-size:13px;color:#555'>{escape(self.t('seed', seed=self._seed))}</div>")
        if not board or not board.get("number"):
            self.screen.value = (f"<div class='cartas-live-state' data-state='waiting' data-players="
                                 f"'{board.get('players', 0)}' style='font-size:22px'>"
                                 f"{escape(self.t('waiting', n=board.get('players', 0)))}</div>")
            return
        is_open = board["open"]
        head = (f"<h2 style='margin:4px 0'>{escape(self.t('question', n=board['number']))}</h2>"
                f"<div class='cartas-live-prompt' style='font-size:22px'>{board['prompt'][lang]}</div>")
        answered = escape(drawing.say("answered", lang, n=board["answered"], m=board["players"]))
        left = drawing.say("left", lang, s=int(board["seconds_left"] + 0.999))
        state = (f"<div class='cartas-live-state' data-state='{'open' if is_open else 'closed'}' "
                 f"data-number='{board['number']}' data-answered='{board['answered']}' style='font-size:22px'>"
                 f"{answered}"
                 + (f" · <span class='cartas-live-left'>{escape(left)}</span>" if is_open else "") + "</div>")
        if is_open:
            options = "".join(f"<li>{escape(o[lang])}</li>" for o in board["options"])
            self.screen.value = f"{head}{state}<ol style='font-size:20px'>{options}</ol>"
            return
        right = board["options"][board["answer"]][lang]
        verdict = (f"<div class='cartas-live-answer' style='font-size:19px;background:#e8f5e9;padding:8px;"
                   f"border-radius:6px'><b>{escape(drawing.say('right_answer', lang, answer=right))}</b> "
                   f"{board['why'][lang]}</div>")
        self.screen.value = (
            "<div class='cartas-live-results' style='display:grid;grid-template-columns:minmax(0,3fr) "
            "minmax(0,2fr);gap:20px;align-items:start'>"
            f"<div>{head}{state}{drawing.histogram_html(board, lang, reveal=True)}</div>"
            f"<div>{verdict}{projector_html(board, self._asked.get(board['number']), lang)}"
            f"{drawing.leaders_html(board, lang)}</div></div>")
