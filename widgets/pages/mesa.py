"""Tables (mesas): play truco or 21 with classmates, one table shared by several browsers.

The rules of a table live in `classroom.tables` (seats, bots, the versioned record, who
moves the bots); the game's rules in the engine, reached through `classroom.games`. This view
only draws what this browser's seat may see (`view(seat)`; a spectator sees no hidden card)
and offers the seat's legal moves.

Decided here:

- The dashboard's URL: `?mesa=CODE` opens that table (the link a creator shares); `?ritmo=`
  the bots' pace for a table created here (seconds, default 0.7); `?semente=` the table's
  seed (replays a game, for tests); `?lang=en`.
- Who you are comes from the identity widget (name and class code kept in the browser, see
  widgets.components.learner): a reload finds the same seat. A learner with no name types one here to
  sit down; the table's class is the learner's class code.
- Opening a table by its code is limited like a teacher key (classroom.attempts): ten codes
  with no table in a minute from this browser start a wait for it; the learner's class's count
  only holds back pages the server does not know yet (docs/rules.md#guess-limits).
- Updates: the kernel polls the table's version every POLL_EVERY (0.2 s) on the kernel's own
  asyncio loop (no thread, no busy loop) and redraws when it moved; bots are moved from
  here when this kernel's learner is the table's bot mover. The browser beats every 5 s (a
  hidden timer widget); the beat is the learner's presence at the table, and a kernel whose
  page has not beaten for IDLE_STOP seconds stops polling until the page beats again, so a
  closed tab costs nothing and its learner is counted away after the table's timeout.
  The tables are this kernel's classroom's (`classroom.open().tables()`); under JupyterHub the
  class service's (`classroom.remote_tables`): the page waits on the service's long poll instead
  (one request at a time, bounded) and the service moves the bots; the kernel holds no store,
  so the limit on guessed codes above is not applied there (`code_limiter()` is None).
- Widgets: a page builds its widgets once and updates them in place, whatever the number of
  moves or refreshes: one row per seat, kept and reused; the teacher's list keeps one "Watch"
  button per open table and one spectator view. Only a move's buttons are made anew for each
  drawing (see the next rule), with a layout and a style of that drawing's own; the drawing
  before stays, older ones are closed with their layout and style, so a page holds at most two
  drawings' buttons, in the kernel and in the browser (whose widget manager keeps a view of a
  layout or style for every button view drawn with it, and through it the button's DOM nodes,
  until that layout or style is closed). A row's children never change (new children are new
  views in the browser): a seat's button is hidden, not removed.
- One click, one move: a move names the table version that was on the learner's screen when
  its button or card was drawn, never the table's latest. A second click on the same drawing
  (a double click) is refused by the store's compare-and-swap and shown as "a mesa já mudou";
  a closed button does nothing. The cards carry their drawing's version to the kernel
  (`CardPicker.drawing`). A learner's face-up cards stay clickable (dimmed) while another seat
  is to play: the store answers "não é a sua vez".
- Refusals stay: a refused move (a button or a card) shows beside the move buttons, right
  under the cards, a refused seat beside the seats, a refused start or stand-up beside those
  buttons, a refused new table under "Criar mesa", a refused code beside its field and
  "Abrir mesa"; the message stays until the learner's next action or ERROR_STAYS (8 s),
  whichever comes first. The poll and the beat are not the learner's actions and never clear
  it (the poll only notices that the 8 s are over). Only what no control caused (the store
  out of reach) shows in the message line under the title.
- The table is drawn from the learner's own seat: she is at the bottom and the others round
  the table in play order (the engine's `GameSpec.seats_from`); a spectator sees it from seat
  0 (truco) or the banker's side (21). Each seat is labelled with its player: a learner's name,
  a bot as a bot with the level it plays at ("Assento 2 (robô, Fácil)"), in the page's language.
- The table's creator chooses its bots' level in the lobby ("Nível dos robôs", class
  cartas-level, the engine's levels as in jogar_truco; `?nivel=` sets its starting value, as
  there): "rule" ("Médio") by default. The tables keep it with the table and check it (the
  class service too); the seats list names it beside every bot ("vazio (robô, Fácil)").
- A truco table is for 4 (in pairs) or 2 (mano a mano, docs/rules.md#mano-a-mano-players): the
  creator chooses in the lobby ("Jogadores", class cartas-mesa-players), from the counts the
  engine's spec offers (`classroom.games.seat_counts`); the service checks the count again.
- A homework table (one learner's game of a homework item against the bots, opened under the
  item by `widgets.pages.tarefa`) offers no seat to take: hers is hers from the deal on, the
  others are the bots' (classroom.tables refuses a seat there as well).
- Every move is said by the page's live region (`widgets.components.announce`): each seat's
  move, in the learners' names as in "O que aconteceu", its cards in words, a line per event
  and only what is new since the last drawing (a table opened says nothing of its past).
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from html import escape

import ipywidgets as w

from classroom import attempts, games, open as open_classroom
from classroom.interface import TableRoom
from classroom.tables import (
    DEFAULT_PACE,
    DEFAULT_TIMEOUT,
    IDLE,
    POLL_EVERY,
    TableClient,
    TableError,
    clean_code,
    table_link,
)
from widgets.components import params
from widgets.components.announce import News, bounded
from widgets.components.base import View, close_drawing, html
from widgets.components.log import log_html
from widgets.components.pacing import LEVEL_TEXT, draw_level_chooser, level_chooser, level_from_query
from widgets.components.ticker import Ticker
from widgets.families import views_of

BEAT_SECONDS = 5
IDLE_STOP = 30.0
ERROR_STAYS = 8.0  # seconds a refusal stays when the learner does nothing
LOG_LINES = 80     # the last events narrated in "What happened"

TEXT = {
    "title": {"pt": "Mesas: jogar com a turma", "en": "Tables: play with your class"},
    "your_name": {"pt": "Seu nome na mesa", "en": "Your name at the table"},
    "create_head": {"pt": "Criar uma mesa", "en": "Create a table"},
    "join_head": {"pt": "Entrar numa mesa", "en": "Join a table"},
    "game": {"pt": "Jogo", "en": "Game"},
    "seats": {"pt": "Assentos", "en": "Seats"},
    "players": {"pt": "Jogadores", "en": "Players"},
    "players_4": {"pt": "Em duplas (4)", "en": "In pairs (4)"},
    "players_2": {"pt": "Mano a mano (2)", "en": "One on one (2)"},
    "ace": {"pt": "Ás vale", "en": "Ace counts"},
    "packs": {"pt": "Baralhos", "en": "Packs"},
    "min_bet": {"pt": "Aposta mín.", "en": "Min. bet"},
    "max_bet": {"pt": "Aposta máx.", "en": "Max. bet"},
    "rotation": {"pt": "Banca", "en": "Bank"},
    "rounds": {"pt": "Rodadas", "en": "Rounds"},
    "hands": {"pt": "Duração", "en": "Length"},
    "hands_none": {"pt": "até 12 pontos", "en": "to 12 points"},
    "hands_n": {"pt": "{n} mãos", "en": "{n} hands"},
    "timeout": {"pt": "Ausência (s)", "en": "Away after (s)"},
    "default": {"pt": "padrão", "en": "default"},
    "create": {"pt": "Criar mesa", "en": "Create table"},
    "code": {"pt": "Código da mesa", "en": "Table code"},
    "join": {"pt": "Abrir mesa", "en": "Open table"},
    "table_head": {"pt": "Mesa {code} · {game}", "en": "Table {code} · {game}"},
    "share": {"pt": "Passe o código {code} ou este link aos colegas:",
              "en": "Give your classmates the code {code} or this link:"},
    "seat": {"pt": "Assento {seat}", "en": "Seat {seat}"},
    "team": {"pt": "dupla {team}", "en": "team {team}"},
    "banker": {"pt": "banca", "en": "banker"},
    "bot": {"pt": "robô", "en": "bot"},
    "bot_level": {"pt": "robô, {level}", "en": "bot, {level}"},
    "empty": {"pt": "vazio (robô, {level})", "en": "empty (bot, {level})"},
    "away": {"pt": "ausente: o robô joga ({level})", "en": "away: a bot plays ({level})"},
    "you": {"pt": "você", "en": "you"},
    "sit": {"pt": "Sentar aqui", "en": "Sit here"},
    "back": {"pt": "Voltar ao assento", "en": "Take the seat back"},
    "leave": {"pt": "Levantar", "en": "Stand up"},
    "start": {"pt": "Começar o jogo", "en": "Start the game"},
    "close": {"pt": "Sair da mesa", "en": "Leave the table"},
    "waiting": {"pt": "Esperando o criador começar o jogo.", "en": "Waiting for the creator to start."},
    "waiting_you": {"pt": "Quando todos estiverem sentados, comece o jogo. Assentos vazios são robôs.",
                    "en": "When everyone is seated, start the game. Empty seats are bots."},
    "your_turn": {"pt": "Sua vez.", "en": "Your turn."},
    "answer": {"pt": "Pediram {name}: aceite, corra ou aumente.",
               "en": "They called {name}: accept, run or raise."},
    "turn_of": {"pt": "Vez de {who}.", "en": "{who} to play."},
    "watching": {"pt": "Você assiste: só as cartas abertas aparecem.",
                 "en": "You are watching: only face-up cards are shown."},
    "over": {"pt": "Fim de jogo. {result}", "en": "Game over. {result}"},
    "team_won": {"pt": "Venceu a dupla {team}, {a} x {b}.", "en": "Team {team} won, {a} x {b}."},
    "seat_won": {"pt": "Venceu {who}.", "en": "{who} won."},
    "tie": {"pt": "Empate entre {who}.", "en": "A tie between {who}."},
    "your_cards": {"pt": "Suas cartas (clique para jogar)", "en": "Your cards (click to play)"},
    "cover": {"pt": "Jogar coberta", "en": "Play face down"},
    "why": {"pt": "Por quê?", "en": "Why?"},
    "log": {"pt": "O que aconteceu", "en": "What happened"},
    "name_needed": {"pt": "Escreva seu nome para sentar.", "en": "Type your name to sit down."},
    "identity_wait": {"pt": "Um momento: o navegador ainda não disse quem você é.",
                      "en": "One moment: the browser has not said who you are yet."},
    "no_card": {"pt": "não há carta aí", "en": "there is no card there"},
    "not_now": {"pt": "isso não é possível agora", "en": "that is not possible now"},
    "class_tables": {"pt": "Mesas da turma {code}", "en": "Tables of class {code}"},
    "no_tables": {"pt": "Nenhuma mesa aberta nesta turma.", "en": "No open table in this class."},
    "idle_rule": {"pt": "Mesas terminadas, ou sem jogada nem ninguém há mais de {minutes} minutos, saem desta lista "
                        "(voltam se alguém voltar a elas).",
                  "en": "Finished tables, and tables with no move and nobody there for over {minutes} minutes, "
                        "leave this list (they come back if somebody returns to them)."},
    "watch": {"pt": "Assistir {code}", "en": "Watch {code}"},
    "store_down": {"pt": "As mesas estão sem conexão com o banco de dados; tentando de novo...",
                   "en": "The tables cannot reach the store; trying again..."},
}
TEXT.update({k: LEVEL_TEXT[k] for k in ("level", "bot_seat")})  # the level chooser's, as in jogar_truco
TEAM_LETTERS = ("A", "B")


def _tables() -> TableRoom:
    """This kernel's tables (`classroom.open().tables()`): the store's; under JupyterHub the
    class service's (classroom.remote_tables)."""
    from classroom import open as open_classroom
    return open_classroom().tables()


def _client(tables: TableRoom, code: str, learner: str | None) -> TableClient:
    """The page's client of table `code` (the tables' own: a TableClient, or the class service's)."""
    return tables.client(code, learner)


def _stop_watching(client) -> None:
    """End `client`'s watch of its table, if it has one (the class service's stream)."""
    stop = getattr(client, "stop_watching", None)
    if stop is not None:
        stop()


def _why(state, lang: str) -> str | None:
    told = getattr(state, "told_why", None)  # a seat's view from the class service: its words
    return told(lang) if told is not None else games.why(state, lang)


def learner_of(identity) -> tuple[str, str] | None:
    """(learner key, name) of the browser's learner, or None while unknown; a learner of a
    class is checked against her stored token first (widgets.components.learner)."""
    from classroom.store import StoreError
    verified = getattr(identity, "verified", None)
    try:
        learner = verified() if verified is not None else getattr(identity, "current", None)
    except StoreError:
        return None  # cannot be checked now: nobody, until the store answers
    if learner is None:
        return None
    return learner.key, learner.name


class Mesa(View):
    """The tables dashboard: create or open a table, sit, play, watch."""

    TEXT = TEXT

    def __init__(self, lang=None, code: str | None = None, tables: TableRoom | None = None,
                 identity=None, autopoll: bool = True):
        super().__init__(lang=lang)
        self._tables_obj = tables
        self.autopoll = autopoll
        self.client: TableClient | None = None
        self._task: asyncio.Task | None = None
        self._last_beat = 0.0
        self._store_ok = True
        self._drawn_version: int | None = None
        self.timer = time.monotonic  # times how long a refusal has been shown (tests replace it)
        self._error_at: float | None = None
        self._news = News()  # the events already said by the live region
        # widgets reused by every drawing (see the module's rules)
        self._button_style = w.ButtonStyle()  # the seats' buttons' (see _seat_row)
        self._seat_rows: list[tuple[w.HBox, w.HTML, w.Button]] = []
        self._moves_key: tuple | None = None
        self._move_buttons: list[w.Button] = []      # the drawing on the screen
        self._old_move_buttons: list[w.Button] = []  # the drawing before: a double click's 2nd click
        self.pace = self.from_url(params.pace(DEFAULT_PACE))
        self.seed = self.from_url(params.seed())
        # who
        from widgets.components.learner import attach
        self.identity = identity if identity is not None else attach(self)
        self.identity.on_change(self.guarded(lambda _: self._on_identity()))
        self.name = w.Text(layout=w.Layout(width="240px")).add_class("cartas-mesa-name")
        # lobby
        self.create_head, self.join_head = w.HTML(), w.HTML()
        self.game = w.Dropdown(options=[(games.GAME_LABELS[g]["pt"], g) for g in games.GAMES],
                               value="paulista", layout=w.Layout(width="260px")).add_class("cartas-mesa-game")
        self.seats = w.BoundedIntText(value=4, min=3, max=12,
                                      layout=w.Layout(width="150px")).add_class("cartas-mesa-seats")
        # truco: 4 in pairs, or 2 mano a mano (the counts the engine offers; see the module)
        self.players = w.Dropdown(options=[("4", 4)], value=4, style={"description_width": "initial"},
                                  layout=w.Layout(width="260px", max_width="100%")).add_class("cartas-mesa-players")
        self.ace = w.Dropdown(layout=w.Layout(width="190px")).add_class("cartas-mesa-ace")
        self.packs = w.Dropdown(layout=w.Layout(width="190px")).add_class("cartas-mesa-packs")
        self.min_bet = w.BoundedIntText(value=1, min=1, max=50,
                                        layout=w.Layout(width="150px")).add_class("cartas-mesa-min-bet")
        self.max_bet = w.BoundedIntText(value=5, min=1, max=50,
                                        layout=w.Layout(width="150px")).add_class("cartas-mesa-max-bet")
        self.rotation = w.Dropdown(layout=w.Layout(width="330px")).add_class("cartas-mesa-rotation")
        self.rounds = w.BoundedIntText(value=5, min=1, max=50,
                                       layout=w.Layout(width="150px")).add_class("cartas-mesa-rounds")
        self.timeout = w.BoundedIntText(value=int(DEFAULT_TIMEOUT), min=10, max=600,
                                        style={"description_width": "initial"},
                                        layout=w.Layout(width="200px")).add_class("cartas-mesa-timeout")
        self.level = level_chooser(self.from_url(level_from_query()))  # the bots' level (?nivel=)
        # a short game's number of hands (truco's table option "hands": docs/rules.md#truco-short-game)
        self.hands = w.Dropdown(value=None, options=[("", None)],
                                layout=w.Layout(width="220px")).add_class("cartas-mesa-hands")
        # each table option's widget, by the name `games.table_options` gives it: a game's own are shown
        self.option_widgets = {"ace": self.ace, "packs": self.packs, "min_bet": self.min_bet,
                               "max_bet": self.max_bet, "rotation": self.rotation, "rounds": self.rounds,
                               "hands": self.hands}
        self.options_box = w.VBox([w.HBox([self.seats, self.ace, self.packs, self.hands]),
                                   w.HBox([self.min_bet, self.max_bet, self.rounds]),
                                   self.rotation])
        self.create_button = w.Button(button_style="primary").add_class("cartas-mesa-create")
        self.code = w.Text(layout=w.Layout(width="200px")).add_class("cartas-mesa-code-input")
        self.join_button = w.Button().add_class("cartas-mesa-open")
        # a refused new table shows under its button, a refused code beside the field and its button
        self.lobby = w.VBox([self.create_head, w.HBox([self.game, self.timeout]), self.players, self.level,
                             self.options_box,
                             self.beside(self.create_button), self.join_head,
                             self.beside(w.HBox([self.code, self.join_button]))])
        # table
        self.table_head = w.HTML().add_class("cartas-mesa-head")
        self.seat_box = w.VBox().add_class("cartas-mesa-seats-box")
        self.start_button = w.Button(button_style="success").add_class("cartas-mesa-start")
        self.leave_button = w.Button().add_class("cartas-mesa-leave")
        self.close_button = w.Button().add_class("cartas-mesa-close")
        self.status = w.HTML().add_class("cartas-status")
        self.picture = w.HTML().add_class("cartas-table-box")
        from widgets.components.card_picker import CardPicker
        self.hand_title = w.HTML()
        self.hand_cards = CardPicker().add_class("cartas-hand-cards")
        self.cover = w.ToggleButton(value=False).add_class("cartas-cover")
        self.actions = w.HBox(layout=w.Layout(flex_flow="row wrap")).add_class("cartas-actions")
        self.why = w.HTML().add_class("cartas-why-text")
        self.log_box = w.HTML().add_class("cartas-log")
        self.table_buttons = w.HBox([self.start_button, self.leave_button, self.close_button])
        # where refusals show: beside the seats, the start/stand-up buttons, the moves
        seats_row, buttons_row, moves_row = (self.beside(self.seat_box), self.beside(self.table_buttons),
                                             self.beside(self.actions))
        self.seat_error, self.button_error, self.move_error = (
            seats_row.children[1], buttons_row.children[1], moves_row.children[1])
        self.table_area = w.VBox([
            self.table_head, seats_row, buttons_row, self.status, self.picture, self.hand_title,
            w.HBox([self.hand_cards, self.cover]), moves_row, self.why, self.log_box])
        self.beat = Ticker(seconds=BEAT_SECONDS)
        # events
        self.game.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.rotation.observe(self.guarded(lambda _: self._draw_ace_options()), names="value")
        self.create_button.on_click(self.guarded(lambda _: self.create()))
        self.join_button.on_click(self.guarded(lambda _: self.open_table(self.code.value)))
        self.start_button.on_click(self.guarded(lambda _: self._act(lambda c: c.start()), near=self.table_buttons))
        self.leave_button.on_click(self.guarded(lambda _: self._act(lambda c: c.leave()), near=self.table_buttons))
        self.close_button.on_click(self.guarded(lambda _: self.close_table()))
        self.hand_cards.observe(self.guarded(self._picked, near=self.actions), names="picked")
        self.beat.observe(self.guarded(lambda _: self.browser_beat(), clears=False), names="tick")
        self.children = [self.header(), w.HBox([self.name]), self.message, self.lobby,
                         self.table_area, self.beat]
        self._pending_code = code if code is not None else self.from_url(params.table())
        if self._pending_code:
            self.code.value = self._pending_code
        self._on_identity()
        self.redraw()

    # Who -----------------------------------------------------------------------------------
    @property
    def tables(self) -> TableRoom:
        if self._tables_obj is None:
            self._tables_obj = _tables()
        return self._tables_obj

    def me(self) -> tuple[str, str] | None:
        found = learner_of(self.identity)
        if found is None:
            return None
        key, name = found
        return key, (name or self.name.value)

    def _on_identity(self) -> None:
        found = learner_of(self.identity)
        if found is None:
            return
        if found[1] and not self.name.value:
            self.name.value = found[1]
        if self._pending_code:
            code, self._pending_code = self._pending_code, None
            self.open_table(code)
        elif self.client is not None and self.client.learner != found[0]:
            self.open_table(self.client.code)  # "not me": the table now sees another learner

    def _need_me(self) -> tuple[str, str]:
        me = self.me()
        if me is None:
            raise ValueError(self.t("identity_wait"))
        if not me[1].strip():
            raise ValueError(self.t("name_needed"))
        return me

    # Lobby ---------------------------------------------------------------------------------
    def table_options(self) -> tuple[int | None, dict]:
        """(seats, options) as chosen: the players' count where the game has a few (truco), else
        the seats box; the value of each of the game's table options' widgets."""
        game = self.game.value
        seats = self.players.value if games.seat_counts(game) else self.seats.value
        return seats, {name: self.option_widgets[name].value for name in games.table_options(game)
                       if name in self.option_widgets}

    def create(self) -> str:
        """Create the table chosen in the lobby, sit at seat 0 and open it."""
        key, name = self._need_me()
        seats, options = self.table_options()
        learner = self.identity.current
        code = self._store_call(lambda: self.tables.create(
            self.game.value, key, name, seats=seats, options=options,
            class_code=getattr(learner, "class_code", "") or "", timeout=self.timeout.value,
            pace=self.pace, seed=self.seed, level=self.level.value))
        self.open_table(code)
        return code

    def open_table(self, code: str) -> None:
        """Open the table `code` (sitting where this learner sits, if anywhere)."""
        code = clean_code(code)
        me = self.me()
        # guessing codes is limited (classroom.attempts): per browser and the learner's class
        # this kernel's limiter (None under JupyterHub, where the class service limits guesses)
        limiter = self._store_call(lambda: open_classroom().code_limiter())
        where = attempts.scopes(getattr(self.identity.current, "class_code", "") or "")
        if limiter is not None:
            self._store_call(lambda: limiter.check(attempts.TABLE_CODE, where))
        try:
            self.client = self._store_call(lambda: _client(self.tables, code, me[0] if me else None))
        except TableError as error:
            if error.code == "no_table" and limiter is not None:
                self._store_call(lambda: limiter.failed(attempts.TABLE_CODE, where))
            raise
        self.code.value = code
        self._last_beat = time.time()
        self.beat.active = True
        self._drawn_version = None
        self.redraw()
        self._ensure_polling()

    def close_table(self) -> None:
        self.client = None
        self.beat.active = False
        self.redraw()

    # Polling -------------------------------------------------------------------------------
    def browser_beat(self) -> None:
        """The page is open: record presence and keep (or restart) the polling."""
        self._last_beat = time.time()
        if self.client is not None and self.client.learner is not None:
            self._store_call(self.client.heartbeat)
        self._expire_refusal()  # under the class service a poll may wait 20 s: the beat looks too
        self._ensure_polling()

    def _ensure_polling(self) -> None:
        if not self.autopoll or (self._task is not None and not self._task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no running loop (plain Python): poll() is called by hand
        self._task = loop.create_task(self._poll_loop())

    async def _poll_loop(self) -> None:
        """Wait for changes while a table is open and the browser beats; the class service's
        watch stream of a table no longer watched here is ended (`stop_watching`)."""
        watched = None
        try:
            while self.client is not None and time.time() - self._last_beat < IDLE_STOP:
                if watched is not self.client:
                    _stop_watching(watched)
                    watched = self.client
                watch = getattr(self.client, "wait_for_change", None)  # the class service's watch stream
                await (watch() if watch is not None else asyncio.sleep(POLL_EVERY))
                self.guarded(self.poll, clears=False)()  # not the learner's action: refusals stay
        finally:
            _stop_watching(watched)

    def poll(self) -> bool:
        """One polling step (the loop runs it every POLL_EVERY s): redraw if the table moved."""
        if self.client is None:
            return False
        try:
            changed = self.client.tick()
        except Exception as error:  # the store went away: say so, keep trying
            from classroom.store import StoreError
            if not isinstance(error, (StoreError, OSError)):
                raise
            if self._store_ok:
                self._store_ok = False
                self.show_message(self.t("store_down"), kind="error")
            return False
        if not self._store_ok:
            self._store_ok = True
            self.message.value = ""  # the store notice; a refusal beside a control stays
        self._expire_refusal()
        if changed or self._drawn_version != self.client.snap.version:
            self.redraw()
        return changed

    # Refusals: shown beside their control until the learner acts again, or ERROR_STAYS ------
    def _expire_refusal(self) -> None:
        if self._error_at is not None and self.timer() - self._error_at >= ERROR_STAYS:
            self.clear_message()

    def show_error(self, error: BaseException, near=None) -> None:
        super().show_error(error, near=near)
        self._error_at = self.timer()

    def clear_message(self) -> None:
        super().clear_message()
        self._error_at = None

    def _store_call(self, call):
        from classroom.store import StoreError
        try:
            return call()
        except StoreError as error:
            raise TableError("store_down") from error

    def _open(self) -> TableClient:
        """The open table's client: drawing a table and acting on it need one."""
        client = self.client
        assert client is not None, "no table is open"
        return client

    # Acting --------------------------------------------------------------------------------
    def _act(self, action) -> None:
        """Do something to the table through the client; on "the table moved on", show the
        newest table with the refusal."""
        self.me()  # her token checked again: a removed learner is nobody here from now on
        client = self._open()
        try:
            self._store_call(lambda: action(client))
        except ValueError:
            self._store_call(client.refresh)
            self.redraw()
            raise
        self.redraw()

    def sit(self, seat: int) -> None:
        key, name = self._need_me()
        client = self._open()
        if client.learner != key:
            self.client = _client(self.tables, client.code, key)
        self._act(lambda c: c.join(name, seat))

    def act(self, action, seen_version: int | None = None) -> None:
        """Play `action` (an engine action) from this browser's seat, on the table version
        `seen_version` (the drawing the learner clicked; default: the version on the page).
        The store refuses it with "the table moved on" when the table changed since."""
        self.cover.value = False
        self._act(lambda c: c.move(action, seen_version))

    def _click_sit(self, button: w.Button, seat: int) -> None:
        """A seat's "Sit here" button: a hidden one (the seat is not free) does nothing."""
        if button.layout.display == "none":
            return
        self.sit(seat)

    def _click_move(self, button: w.Button, action, version: int) -> None:
        """A move button of the drawing of table version `version`: a closed one does nothing;
        the others ask the store to play `action` on that version."""
        if button.comm is None:
            return
        self.act(action, version)

    def _picked(self, change) -> None:
        """A card clicked in the browser: {"index", "count", "drawing"}, checked before use."""
        picked = change["new"]
        index = picked.get("index") if isinstance(picked, dict) else None
        drawing = picked.get("drawing") if isinstance(picked, dict) else None
        if not isinstance(index, int) or isinstance(index, bool):
            raise ValueError(self.t("no_card"))
        if not isinstance(drawing, int) or isinstance(drawing, bool):
            raise TableError("moved_on")
        self.play_card(index, drawing)

    def play_card(self, index: int, drawing: int | None = None) -> None:
        """Play the card at `index` of this seat's hand as drawn on table version `drawing`
        (default: the version on the page). A card of an older drawing is refused as "the
        table moved on"; out of turn, the store says whose turn it is."""
        client = self._open()
        snap = client.snap
        if drawing is not None and drawing != snap.version:
            raise TableError("moved_on")  # the cards clicked are no longer the table's
        seat = client.seat
        state = snap.state
        if state is None or seat is None or not games.hand_play(snap.game):
            raise ValueError(self.t("no_card"))  # a 21 seat or a spectator has no cards to pick
        hand = games.view(state, seat).hand
        if not 0 <= index < len(hand):
            raise ValueError(self.t("no_card"))
        chosen = games.card_action(snap.game, games.legal_actions(state, seat), list(hand), index, self.cover.value)
        if chosen is None and state.current_seat != seat and hand[index] is not None:
            chosen = games.parse_action(snap.game, f"play {hand[index]}")  # the store: not your turn
        if chosen is None:
            raise ValueError(self.t("not_now"))
        self.act(chosen, snap.version)

    # Drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        self.name.placeholder = self.t("your_name")
        self.name.description = ""
        me = learner_of(self.identity)
        self.name.layout.display = "none" if me is not None and me[1] else None
        if self.client is None:
            self.lobby.layout.display, self.table_area.layout.display = None, "none"
            self._draw_lobby()
            return
        self.lobby.layout.display, self.table_area.layout.display = "none", None
        self._draw_table()

    def _draw_lobby(self) -> None:
        self.create_head.value = f"<h4 style='margin:6px 0'>{self.t('create_head')}</h4>"
        self.join_head.value = f"<h4 style='margin:6px 0'>{self.t('join_head')}</h4>"
        self.game.description = self.t("game")
        labels = [(games.GAME_LABELS[g][self.lang], g) for g in games.GAMES]
        if list(self.game.options) != labels:
            chosen = self.game.value
            self.game.options = labels
            self.game.value = chosen
        for widget, key in ((self.seats, "seats"), (self.min_bet, "min_bet"), (self.max_bet, "max_bet"),
                            (self.rounds, "rounds"), (self.timeout, "timeout"), (self.ace, "ace"),
                            (self.packs, "packs"), (self.rotation, "rotation")):
            widget.description = self.t(key)
        from cartas.vinte_e_um import ROTATION_LABELS, ROTATIONS
        rotation = self.rotation.value or "rounds"
        self.rotation.options = [(ROTATION_LABELS[self.lang][r], r) for r in ROTATIONS]
        self.rotation.value = rotation
        self._draw_ace_options()
        packs = self.packs.value
        self.packs.options = [(self.t("default"), None), ("1", 1), ("2", 2)]
        self.packs.value = packs
        self._draw_options()
        self._draw_players()
        draw_level_chooser(self.level, self.lang, self.t("level"))
        self.create_button.description = self.t("create")
        self.code.placeholder = self.t("code")
        self.join_button.description = self.t("join")

    def _draw_players(self) -> None:
        """The players' chooser of a game with a few seat counts (truco: 4 or 2), in the page's
        language; hidden for a game without (21 has its seats box)."""
        counts = games.seat_counts(self.game.value)
        self.players.layout.display = None if counts else "none"
        chosen = self.players.value if self.players.value in counts else (counts[0] if counts else 4)
        options = [(self.t(f"players_{n}"), n) for n in counts] or [("4", 4)]
        if list(self.players.options) != options:
            self.players.options = options
        self.players.value = chosen
        self.players.description = self.t("players")

    def _draw_options(self) -> None:
        """Show the game's own table options (and the seats box of a game without a few seat
        counts), hide the others; the short game's lengths from its option's range."""
        game = self.game.value
        names = games.table_options(game)
        for name, widget in self.option_widgets.items():
            widget.layout.display = None if name in names else "none"
        self.seats.layout.display = "none" if games.seat_counts(game) else None
        self.options_box.layout.display = None if names or not games.seat_counts(game) else "none"
        self.hands.description = self.t("hands")
        if "hands" in names:
            low, high = games.option_range(game, "hands")
            lengths = [(self.t("hands_none"), None)] + [(self.t("hands_n", n=n), n) for n in range(low, high + 1)]
            chosen = self.hands.value
            if list(self.hands.options) != lengths:
                self.hands.options = lengths
            self.hands.value = chosen if chosen in [v for _, v in lengths] else None

    def _draw_ace_options(self) -> None:
        ace = self.ace.value
        natural = self.rotation.value == "natural"
        options = [(self.t("default"), None)] + ([] if natural else [("1", 1)]) + [("11", 11), ("1/11", "flexible")]
        self.ace.options = options
        self.ace.value = ace if ace in [v for _, v in options] else None

    def _who(self, snap, seat: int) -> str:
        who = snap.sitters[seat]
        if who is None:
            return self.t("bot_seat", seat=seat, level=self._level(snap))
        return f"{who['name']} ({self.t('seat', seat=seat)})"

    def _level(self, snap) -> str:
        """The level the table's bots play at, named in the page's language ("Fácil")."""
        return games.level_label(games.table_level(snap.record), self.lang)

    def _draw_table(self) -> None:
        client = self._open()
        snap = client.snap
        self._drawn_version = snap.version
        now = client.tables.clock()
        game_label = games.GAME_LABELS[snap.game][self.lang]
        link = table_link(snap.code)
        self.table_head.value = (
            f"<h4 style='margin:6px 0'>{escape(self.t('table_head', code=snap.code, game=game_label))}</h4>"
            f"<div>{escape(self.t('share', code=snap.code))} <a class='cartas-mesa-link' "
            f"href='{escape(link)}' target='_blank'>{escape(link)}</a> "
            f"<span class='cartas-mesa-code' data-code='{escape(snap.code)}' "
            f"style='font-family:monospace;font-size:18px;font-weight:bold'>{escape(snap.code)}</span></div>")
        self._draw_seats(snap, now)
        mine = client.seat
        is_creator = client.learner is not None and snap.record["creator"] == client.learner
        self.start_button.description = self.t("start")
        self.start_button.layout.display = None if is_creator and snap.status == "waiting" else "none"
        self.leave_button.description = self.t("leave")
        self.leave_button.layout.display = None if mine is not None and snap.status != "finished" else "none"
        self.close_button.description = self.t("close")
        state = snap.state
        if state is None:
            text = self.t("waiting_you") if is_creator else self.t("waiting")
            self._status(text, "waiting", snap)
            self._news.new([], key=snap.code, quiet_first=True)  # the game's first events are news
            for box in (self.picture, self.hand_title, self.why, self.log_box):
                box.value = ""
            self.hand_cards.cards = []
            self.cover.layout.display = "none"
            self._draw_move_buttons(snap.version, state, [])
            return
        if snap.status == "finished" and snap.code not in self._homework_sent:
            self._table_homework(snap.code)
        hand_play = games.hand_play(snap.game)
        spec = games.spec_of(snap.game)
        # drawn from her seat: she is at the bottom, the others round the table in play order
        order = None if mine is None else spec.seats_from(mine, len(snap.sitters))
        seat_names = {seat: self._who(snap, seat) for seat, _sitter in enumerate(snap.sitters)}
        self.picture.value = views_of(spec.family).draw(state, self.lang, mine, order=order, names=seat_names)
        self._draw_moves(snap, state, mine, hand_play)
        why = _why(state, self.lang)
        self.why.value = "" if not why else (
            f"<div style='font-size:15px;background:#f3e5f5;padding:6px 10px;border-radius:6px;margin:4px 0'>"
            f"<b>{self.t('why')}</b> {escape(why)}</div>")
        names = {info["seat"]: info["name"] for info in snap.seats(time.time()) if info["name"]}
        events = games.events_for(state, mine)
        lines = [games.narrate(state, e, self.lang, names) for e in events[-LOG_LINES:]]
        self.log_box.value = log_html(self.t('log'), lines)
        self._announce_moves(snap.code, state, events, names)
        # the status last: the page applies the kernel's updates in order, so a new version in it
        # says the picture, moves and log above are drawn too (browser tests wait on it)
        self._draw_status(snap, state, mine)

    def _announce_moves(self, code: str, state, events: list, names: dict) -> None:
        """Say the events new since the last drawing (see the module's rules)."""
        new = self._news.new(events, key=code, quiet_first=True)
        if new:
            self.announce([games.narrate(state, e, self.lang, names) for e in bounded(new)])

    # Homework: a finished table marks its seated learners' table game items done, the store's
    # own record deciding (classroom.homework.table_game_over, docs/rules.md#homework-games).
    # Each kernel asks once per table; the store writes each result once whoever asks.
    _homework_sent: frozenset[str] = frozenset()
    on_homework: Callable[[], None] | None = None  # after a finished table's homework was asked (tarefa's)

    def _table_homework(self, code: str) -> None:
        from classroom.store import StoreError
        from widgets.components.homework import homework_service, t
        self._homework_sent = self._homework_sent | {code}
        try:
            written = homework_service().table_game_over(code)
        except StoreError:
            return  # the homework waits: another seated learner's kernel, or a reload, asks again
        learner = self._open().learner
        if any(result["learner"] == learner for result in written):
            self.show_message(t("game_saved", self.lang), kind="ok")
        if self.on_homework is not None:
            self.on_homework()

    def _draw_seats(self, snap, now: float) -> None:
        client = self._open()
        mine = client.seat
        rows = []
        state = snap.state
        banker = games.banker(games.view(state, mine), snap.game) if state is not None else None
        # at a homework table nobody takes a seat: hers is hers from the deal on (classroom.tables)
        can_sit = (client.learner is not None or self.me() is not None) and not snap.record.get("homework")
        for info in snap.seats(now):
            seat = info["seat"]
            parts = [self.t("seat", seat=seat)]
            if info["team"] is not None:
                parts.append(self.t("team", team=TEAM_LETTERS[info["team"]]))
            if banker == seat:
                parts.append(self.t("banker"))
            label = " · ".join(parts)
            if info["name"] is None:
                who, kind = self.t("empty", level=self._level(snap)), "bot"
            else:
                who, kind = info["name"], "learner"
                if info["away"]:
                    who += f" ({self.t('away', level=self._level(snap))})"
                    kind = "away"
            if seat == mine:
                who += f" ({self.t('you')})"
            row, text, button = self._seat_row(seat)
            text.value = (f"<div class='cartas-mesa-seat' data-seat='{seat}' data-controller='{kind}' "
                          f"data-mine='{str(seat == mine).lower()}' style='font-size:15px;min-width:min(360px, 100%)'>"
                          f"<b>{escape(label)}</b>: <span class='cartas-mesa-sitter'>{escape(who)}</span></div>")
            free = info["name"] is None or info["away"]
            if can_sit and seat != mine and snap.status != "finished" and (free or info["id"] == client.learner):
                button.description = self.t("back") if info["id"] == client.learner else self.t("sit")
                button.layout.display = None
            else:
                button.layout.display = "none"
            rows.append(row)
        self.seat_box.children = tuple(rows)

    def _seat_row(self, seat: int) -> tuple[w.HBox, w.HTML, w.Button]:
        """Seat `seat`'s row (its text and its "Sit here" button), made once and then reused by
        every drawing and every table this page opens. The row's children never change (a
        browser would make the button's view anew each time): the button is hidden instead,
        with a layout of its own, and a hidden button does nothing."""
        while len(self._seat_rows) <= seat:
            n = len(self._seat_rows)
            text = html()
            button = w.Button(layout=w.Layout(width="160px"), style=self._button_style,
                              _dom_classes=("cartas-mesa-sit", f"cartas-mesa-sit-{n}"))
            button.on_click(self.guarded(lambda b, s=n: self._click_sit(b, s), near=self.seat_box))
            self._seat_rows.append((w.HBox([text, button]), text, button))
        return self._seat_rows[seat]

    def _status(self, text: str, turn: str, snap, colour: str = "#0d47a1") -> None:
        # data-turn / data-version let browser tests wait for their turn and for updates
        state = snap.state
        hand = "0" if state is None else games.hand_number(games.view(state, self._open().seat), snap.game)
        self.status.value = (f"<div data-turn='{turn}' data-version='{snap.version}' data-hand='{hand}' "
                             f"data-status='{snap.status}' style='font-size:18px;color:{colour};"
                             f"margin:4px 0'>{escape(text)}</div>")

    def _draw_status(self, snap, state, mine) -> None:
        if state.is_terminal():
            self._status(self.t("over", result=self._result(snap, state)), "over", snap, "#1b5e20")
            return
        seat = state.current_seat
        if mine is None:
            self._status(self.t("watching") + " " + self.t("turn_of", who=self._who(snap, seat)),
                         "watch", snap, "#555")
        elif seat == mine:
            pending = games.raise_to_answer(games.view(state, mine), snap.game)
            if pending:
                self._status(self.t("answer", name=pending["name"]), "you", snap, "#b71c1c")
            else:
                self._status(self.t("your_turn"), "you", snap)
        else:
            self._status(self.t("turn_of", who=self._who(snap, seat)), "other", snap, "#555")

    def _result(self, snap, state) -> str:
        outcome = games.outcome(state)
        if outcome.by == "team" and outcome.winner is not None:
            a, b = outcome.scores
            return self.t("team_won", team=TEAM_LETTERS[outcome.winner], a=a, b=b)
        if outcome.winner is not None:
            return self.t("seat_won", who=self._who(snap, outcome.winner))
        return self.t("tie", who=", ".join(self._who(snap, s) for s in outcome.winners))

    def _draw_moves(self, snap, state, mine, hand_play: bool) -> None:
        legal = games.legal_actions(state, mine) if snap.status == "playing" else []
        if hand_play and mine is not None:
            view = games.view(state, mine)
            playable = {a.card for a in legal if a.kind == "play"}
            blind = games.blind_positions(snap.game, legal)
            from widgets.draw.svg import card_svg
            waiting = snap.status == "playing" and state.current_seat != mine  # a click: "not your turn"
            cards = []
            for i, card in enumerate(view.hand):
                if card is None:
                    cards.append({"svg": card_svg(None, width=84), "label": f"{i + 1}",
                                  "enabled": i in blind})
                else:
                    ring = "manilha" if card in view.manilhas else None
                    cards.append({"svg": card_svg(card, width=84, highlight=ring), "label": str(card),
                                  "enabled": card in playable or waiting, "dim": waiting})
            self.hand_title.value = f"<b>{self.t('your_cards')}</b>"
            with self.hand_cards.hold_sync():  # the cards and the version they show, in one message
                self.hand_cards.cards = cards
                self.hand_cards.drawing = snap.version
            self.cover.description = self.t("cover")
            self.cover.layout.display = None if any(a.kind == "cover" for a in legal) else "none"
            buttons_for = [a for a in legal if a.kind not in ("play", "cover", "blind")]
        else:
            self.hand_title.value = ""
            self.hand_cards.cards = []
            self.cover.layout.display = "none"
            buttons_for = legal
        self._draw_move_buttons(snap.version, state, buttons_for)

    def _draw_move_buttons(self, version: int, state, actions: list) -> None:
        """The move buttons of the drawing of table version `version` (see the module's rules:
        made anew when the version, the language or the moves change; the drawing before is
        kept for a double click's second click, which the store refuses; older ones closed)."""
        key = (version, self.lang, tuple(str(a) for a in actions))
        if key == self._moves_key:
            return
        close_drawing(self._old_move_buttons)
        buttons = []
        # a layout and a style of this drawing's own, closed with it: a browser keeps a view of
        # a shared layout or style for every button view ever drawn with it, and that view holds
        # the button's (removed) view and its DOM nodes for as long as the shared model lives
        layout, style = (w.Layout(width="auto"), w.ButtonStyle()) if actions else (None, None)
        for action in actions:
            button = w.Button(description=games.describe(state, action, self.lang), layout=layout,
                              style=style, _dom_classes=("cartas-act", f"cartas-act-{action.kind}"))
            button.on_click(self.guarded(lambda b, a=action: self._click_move(b, a, version), near=self.actions))
            buttons.append(button)
        self._old_move_buttons, self._move_buttons, self._moves_key = self._move_buttons, buttons, key
        self.actions.children = tuple(buttons)


class ClassTables(View):
    """The teacher's list of a class's open tables, each watchable as a spectator (who sees
    no hidden card). Embedded in the class view (widgets.pages.turma) once a class is opened.

    Refreshed every few seconds, it keeps its widgets: one "Watch" button per open table
    (closed when the table leaves the list) and one spectator view, reused for every table
    watched."""

    TEXT = TEXT

    def __init__(self, class_code: str = "", lang=None, tables: TableRoom | None = None,
                 link_base: str = "mesa.ipynb"):
        super().__init__(lang=lang)
        self.class_code = class_code
        self._tables_obj = tables
        self.link_base = link_base
        self.listing = w.HTML().add_class("cartas-class-tables")
        self.watch_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self._watch_buttons: dict[str, w.Button] = {}
        self.watcher: Mesa | None = None
        self.watch_area = w.VBox()
        self.children = [self.listing, self.watch_box, self.message, self.watch_area]
        self.refresh()

    @property
    def tables(self) -> TableRoom:
        if self._tables_obj is None:
            self._tables_obj = _tables()
        return self._tables_obj

    def refresh(self) -> None:
        self.snaps = self.tables.list_class(self.class_code) if self.class_code else []
        self.redraw()

    def show_class(self, class_code: str) -> None:
        """List the tables of `class_code` (another class: the table watched is closed)."""
        if class_code != self.class_code and self.watcher is not None:
            self.watcher.close_table()
        self.class_code = class_code
        self.refresh()

    def watch(self, code: str) -> Mesa:
        """Watch a table as a spectator, here (in the one spectator view)."""
        if self.watcher is None:
            self.watcher = Mesa(lang=self.lang, tables=self.tables, identity=_Nobody())
            self.watch_area.children = (self.watcher,)
        self.watcher.open_table(code)
        return self.watcher

    def redraw(self) -> None:
        now = self.tables.clock()
        rows = []
        for snap in self.snaps:
            bot = self.t("bot_level", level=games.level_label(games.table_level(snap.record), self.lang))
            seats = ", ".join(f"{s['seat']}: {s['name'] or bot}" for s in snap.seats(now))
            label = games.GAME_LABELS[snap.game][self.lang]
            rows.append(f"<tr data-table='{escape(snap.code)}'><td><b>{escape(snap.code)}</b></td>"
                        f"<td>{escape(label)}</td><td>{escape(snap.status)}</td>"
                        f"<td>{escape(seats)}</td></tr>")
        head = f"<h4>{escape(self.t('class_tables', code=self.class_code))}</h4>"
        rule = (f"<p class='cartas-idle-rule' style='font-size:13px;color:#444'>"
                f"{escape(self.t('idle_rule', minutes=int(IDLE // 60)))}</p>")
        self.listing.value = head + (
            f"<table cellpadding='4' style='font-size:14px'>{''.join(rows)}</table>" if rows
            else f"<p>{self.t('no_tables')}</p>") + rule
        codes = [snap.code for snap in self.snaps]
        for code in [c for c in self._watch_buttons if c not in codes]:
            close_drawing([self._watch_buttons.pop(code)])
        for code in codes:
            button = self._watch_buttons.get(code)
            if button is None:
                button = self._watch_buttons[code] = w.Button(_dom_classes=("cartas-mesa-watch",))
                button.on_click(self.guarded(lambda _, c=code: self.watch(c)))
            button.description = self.t("watch", code=code)
        self.watch_box.children = tuple(self._watch_buttons[c] for c in codes)


class _Nobody:
    """An identity that is nobody: a spectator's."""

    current = None

    def on_change(self, callback) -> None:
        pass
