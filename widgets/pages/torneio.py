"""The teacher's class tournament (issue 34; classroom.tournament, docs/rules.md#tournament-pages).

Decided rules:
- The class opens with its code and teacher key, as the class view opens; under JupyterHub with
  the class's hub group alone (the class service checks that she teaches it). The page takes
  the class's newest tournament back (`resume`: a new host token; a reloaded page, another
  computer): one still running goes on from here, a finished one shows its podium, CSV and
  games, with "Novo torneio" for the next one; a class without one gets the setup form.
- Setting up: the game (Paulista, Mineiro, 21); the format (Swiss with N rounds, or a round
  robin, truco only); for truco, pairs (partners drawn by lot, or chosen here) or one against
  one (mano a mano), and the game's length (to 12 points, or a short game of N hands: the
  tables' own option `hands`); for 21, tables of LOW to HIGH players and the rounds of a
  game (the tables' option `rounds`); the bots' level in empty seats. Every choice is a list
  the store checks again (`classroom.tournament.check_setup`): nothing typed.
- Running it: the learners' link and QR code (`torneio_aluno.ipynb?torneio=CODE`); "Inscrever
  os presentes" enrols whoever had the learners' page open in the last five minutes; she adds a
  learner of the class from a list and removes one with the button beside her name; with chosen
  partners she forms the pairs, two names at a time, before the first round. "Começar a rodada
  N" pairs and opens the tables (the store refuses while a game of the round is in play).
- The board (pairings with table numbers, each table's hand and score, standings with the
  stated tie-breaks, the podium at the end: `widgets.draw.tournament.board_html`) is read again
  on the browser's timer while the tournament runs; each read also moves the tables nobody
  watches. "Modo projetor" hides the controls and enlarges the board for the class.
- The CSV (standings, then every game) downloads from a link; any finished game is shown from
  its save, which replays (`game_save`): the final table as a spectator sees it and its log.
"""
from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

import ipywidgets as w

from classroom import games, hub_user
from classroom.classes import NotAllowed
from classroom.store import StoreError
from classroom.tournament import FORMATS, MAX_ROUNDS, TournamentRefused
from widgets.components.base import View, close_drawing
from widgets.components.live import LiveTicker
from widgets.components.opening import OPENING_TEXT, draw_opening
from widgets.components.pacing import LEVEL_TEXT, draw_level_chooser, level_chooser
from widgets.draw.tournament import board_html
from widgets.families import views_of

BOARD_SECONDS = 1.0  # the board is read again this often while the tournament runs (benchmarks/tournament.py --poll 1)
TRUCO_LENGTHS = (0, 1, 2, 3, 4, 6, 8, 10)  # 0: to 12 points; otherwise a short game of N hands
TWENTY_ONE_ROUNDS = (3, 5, 8, 10, 15, 20)
LOG_LINES = 400  # a shown game's log, at most
PROJECTING = "cartas-tournament-projecting"
STYLE = f"""<style>
.{PROJECTING} .cartas-tournament-controls, .{PROJECTING} .cartas-tournament-share {{ display: none !important; }}
.{PROJECTING} .cartas-tournament-board {{ font-size: 1.35em; }}
.cartas-tournament-board table {{ border-collapse: collapse; max-width: 100%; }}
.cartas-tournament-board th, .cartas-tournament-board td {{ padding: 2px 8px; text-align: left; }}
.cartas-tournament-scroll {{ overflow-x: auto; max-width: 100%; }}
body:has(.{PROJECTING}) .jp-RenderedMarkdown {{ display: none; }}
</style>"""

TEXT = {
    "title": {"pt": "Torneio da turma (professor)", "en": "Class tournament (teacher)"},
    **OPENING_TEXT,
    "game": {"pt": "Jogo", "en": "Game"},
    "format": {"pt": "Formato", "en": "Format"},
    "format_swiss": {"pt": "Suíço (rodadas por pontuação)", "en": "Swiss (rounds by score)"},
    "format_round_robin": {"pt": "Rodízio (todos contra todos)", "en": "Round robin (everyone meets everyone)"},
    "rounds": {"pt": "Rodadas", "en": "Rounds"},
    "players": {"pt": "Quem joga", "en": "Who plays"},
    "players_pairs": {"pt": "Em duplas", "en": "In pairs"},
    "players_single": {"pt": "Mano a mano (um contra um)", "en": "One against one (mano a mano)"},
    "partners": {"pt": "Parceiros", "en": "Partners"},
    "partners_lot": {"pt": "Sorteados", "en": "Drawn by lot"},
    "partners_chosen": {"pt": "Escolhidos pelo professor", "en": "Chosen by the teacher"},
    "length": {"pt": "Duração da partida", "en": "Length of a game"},
    "length_full": {"pt": "Até 12 pontos", "en": "To 12 points"},
    "length_hands": {"pt": "{n} mão(s)", "en": "{n} hand(s)"},
    "table_low": {"pt": "Mesas de, no mínimo", "en": "Tables of at least"},
    "table_high": {"pt": "no máximo", "en": "at most"},
    "round_count": {"pt": "Rodadas de 21 por partida", "en": "Rounds of 21 per game"},
    "open": {"pt": "Abrir o torneio", "en": "Open the tournament"},
    "opened": {"pt": "Torneio {code} da turma {klass}: {game}. Os alunos abrem o link abaixo no celular.",
               "en": "Tournament {code} of class {klass}: {game}. Learners open the link below on their phones."},
    "taken_back": {"pt": "Torneio {code} retomado.", "en": "Tournament {code} taken back."},
    "new": {"pt": "Novo torneio", "en": "New tournament"},
    "still_running": {"pt": "Este torneio ainda não terminou.", "en": "This tournament is not over yet."},
    "taken_elsewhere": {"pt": "Este torneio foi retomado em outra página: recarregue esta para conduzi-lo daqui.",
                        "en": "This tournament was taken back on another page: reload this one to run it from here."},
    "enrol": {"pt": "Inscrever os presentes", "en": "Enrol those present"},
    "enrolled": {"pt": "{n} aluno(s) inscrito(s) agora.", "en": "{n} learner(s) enrolled now."},
    "enrolled_none": {"pt": "Ninguém novo na página dos alunos nos últimos 5 minutos.",
                      "en": "Nobody new on the learners' page in the last 5 minutes."},
    "add_who": {"pt": "Aluno da turma", "en": "Learner of the class"},
    "add": {"pt": "Inscrever", "en": "Enrol"},
    "no_one_to_add": {"pt": "Escolha um aluno da lista.", "en": "Choose a learner from the list."},
    "remove": {"pt": "Tirar {name}", "en": "Remove {name}"},
    "players_head": {"pt": "Inscritos ({n})", "en": "Enrolled ({n})"},
    "from_round": {"pt": "joga a partir da rodada {n}", "en": "plays from round {n}"},
    "pair_first": {"pt": "Parceiro 1", "en": "Partner 1"},
    "pair_second": {"pt": "Parceiro 2", "en": "Partner 2"},
    "bot": {"pt": "(robô)", "en": "(bot)"},
    "make_pair": {"pt": "Formar a dupla", "en": "Make the pair"},
    "pairs_head": {"pt": "Duplas escolhidas", "en": "Chosen pairs"},
    "pair_twice": {"pt": "Escolha dois alunos diferentes, sem dupla ainda.",
                   "en": "Choose two different learners without a pair yet."},
    "start": {"pt": "Começar a rodada {n}", "en": "Start round {n}"},
    "started": {"pt": "Rodada {n}: {tables} mesa(s) abertas.", "en": "Round {n}: {tables} table(s) opened."},
    "over": {"pt": "O torneio terminou.", "en": "The tournament is over."},
    "project": {"pt": "Modo projetor", "en": "Projector mode"},
    "unproject": {"pt": "Voltar aos controles", "en": "Back to the controls"},
    "csv": {"pt": "Baixar a classificação e as partidas (CSV)", "en": "Download the standings and games (CSV)"},
    "show_which": {"pt": "Partida terminada", "en": "Finished game"},
    "show": {"pt": "Mostrar a partida", "en": "Show the game"},
    "game_of": {"pt": "Rodada {round} · Mesa {at}: {names}", "en": "Round {round} · Table {at}: {names}"},
    "shown": {"pt": "Rodada {round}, mesa {at}: como terminou", "en": "Round {round}, table {at}: how it ended"},
    "log": {"pt": "O que aconteceu", "en": "What happened"},
    "level": LEVEL_TEXT["level"],
}


def close_rows(rows) -> None:
    """Close rows a view no longer shows: their widgets (`close_drawing`), then each row and its
    layout."""
    close_drawing([part for row in rows for part in row.children])
    for row in rows:
        layout = row.layout
        row.close()
        layout.close()


class TournamentTeacher(View):
    """The teacher's tournament page (see the module's rules). `pace` (seconds between bot moves
    at the tournament's tables) comes from `?ritmo=` when not given."""

    TEXT = TEXT

    def __init__(self, lang=None, pace: float | None = None):
        super().__init__(lang=lang)
        from classroom.tables import DEFAULT_PACE
        from widgets.components import params
        self.pace = pace if pace is not None else self.from_url(params.pace(DEFAULT_PACE))
        self.class_code: str | None = None
        self.opened: dict | None = None   # {"code", "host_token", "class_code", "setup"}
        self.board: dict | None = None
        self.class_list: list[dict] = []  # the class's learners, for "add"
        self.pairs: list[list[str]] = []  # chosen partners not yet sent
        self.projecting = False
        self._drawn_players: tuple = ()
        self._csv_for: tuple = ()
        self.share: Any = None  # the learners' link and QR code (ShareLink), made once a tournament is open
        named = {"description_width": "initial"}
        # opening the class
        self.intro = w.HTML()
        self.code = w.Text(layout=w.Layout(width="160px")).add_class("cartas-tournament-class")
        self.key = w.Password(layout=w.Layout(width="200px")).add_class("cartas-tournament-key")
        self.open_class_button = w.Button(layout=w.Layout(width="160px")).add_class("cartas-tournament-open-class")
        self.opening = w.VBox([self.intro, w.HBox([self.code, self.key, self.open_class_button],
                                                  layout=w.Layout(flex_flow="row wrap"))])
        # setting up
        self.game = w.Dropdown(options=[(games.GAME_LABELS[g]["pt"], g) for g in games.GAMES],
                               value=games.GAMES[0], style=named, layout=w.Layout(width="auto")
                               ).add_class("cartas-tournament-game")
        self.format = w.Dropdown(style=named, layout=w.Layout(width="auto")).add_class("cartas-tournament-format")
        self.rounds = w.Dropdown(options=list(range(1, MAX_ROUNDS + 1)), value=3, style=named,
                                 layout=w.Layout(width="auto")).add_class("cartas-tournament-rounds")
        self.players = w.Dropdown(style=named, layout=w.Layout(width="auto")).add_class("cartas-tournament-players")
        self.partners = w.Dropdown(style=named, layout=w.Layout(width="auto")).add_class("cartas-tournament-partners")
        self.length = w.Dropdown(style=named, layout=w.Layout(width="auto")).add_class("cartas-tournament-length")
        self.table_low = w.Dropdown(options=list(range(3, 7)), value=3, style=named,
                                    layout=w.Layout(width="auto")).add_class("cartas-tournament-low")
        self.table_high = w.Dropdown(options=list(range(3, 7)), value=6, style=named,
                                     layout=w.Layout(width="auto")).add_class("cartas-tournament-high")
        self.round_count = w.Dropdown(options=list(TWENTY_ONE_ROUNDS), value=5, style=named,
                                      layout=w.Layout(width="auto")).add_class("cartas-tournament-21-rounds")
        self.level = level_chooser()
        self.open_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-tournament-open")
        def wrap() -> w.Layout:  # each row its own layout (one shown, another hidden)
            return w.Layout(flex_flow="row wrap", grid_gap="4px 12px")
        self.truco_box = w.HBox([self.players, self.partners, self.length], layout=wrap())
        self.twenty_one_box = w.HBox([self.table_low, self.table_high, self.round_count], layout=wrap())
        self.compose = w.VBox([w.HBox([self.game, self.format, self.rounds], layout=wrap()), self.truco_box,
                               self.twenty_one_box, self.level, self.open_button],
                              layout=w.Layout(display="none")).add_class("cartas-tournament-setup")
        # running it
        self.state = w.HTML().add_class("cartas-tournament-status")
        self.share_box = w.Box().add_class("cartas-tournament-share")
        self.enrol_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-tournament-enrol")
        self.add_who = w.Dropdown(style=named, layout=w.Layout(width="auto")).add_class("cartas-tournament-add-who")
        self.add_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-tournament-add")
        self.players_head = w.HTML()
        self.player_rows = w.VBox().add_class("cartas-tournament-players-list")
        self.pair_first = w.Dropdown(style=named, layout=w.Layout(width="auto")).add_class("cartas-tournament-pair-1")
        self.pair_second = w.Dropdown(style=named, layout=w.Layout(width="auto")).add_class("cartas-tournament-pair-2")
        self.pair_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-tournament-pair")
        self.pairs_html = w.HTML().add_class("cartas-tournament-pairs")
        self.pair_box = w.VBox([w.HBox([self.pair_first, self.pair_second, self.pair_button], layout=wrap()),
                                self.pairs_html])
        self.start_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-tournament-start")
        self.project_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-tournament-project")
        self.new_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-tournament-new")
        self.download = w.HTML().add_class("cartas-tournament-csv")
        self.show_which = w.Dropdown(style=named, layout=w.Layout(width="auto")).add_class("cartas-tournament-which")
        self.show_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-tournament-show")
        self.shown = w.HTML().add_class("cartas-tournament-shown")
        self.controls = w.VBox([
            w.HBox([self.enrol_button, self.add_who, self.add_button], layout=wrap()),
            self.players_head, self.player_rows, self.pair_box,
            w.HBox([self.start_button], layout=wrap()),
        ], layout=w.Layout(display="none")).add_class("cartas-tournament-controls")
        self.after = w.VBox([self.new_button, self.download,
                             w.HBox([self.show_which, self.show_button], layout=wrap()), self.shown],
                            layout=w.Layout(display="none")).add_class("cartas-tournament-controls")
        self.screen = w.HTML().add_class("cartas-tournament-screen")
        self.ticker = LiveTicker(seconds=BOARD_SECONDS)
        # events
        self.open_class_button.on_click(self.guarded(lambda _: self.open_class(self.code.value, self.key.value)))
        self.game.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.players.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.format.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.open_button.on_click(self.guarded(lambda _: self.open_tournament(self.setup())))
        self.enrol_button.on_click(self.guarded(lambda _: self.enrol_present()))
        self.add_button.on_click(self.guarded(lambda _: self.add(self.add_who.value)))
        self.pair_button.on_click(self.guarded(lambda _: self.make_pair(self.pair_first.value, self.pair_second.value)))
        self.start_button.on_click(self.guarded(lambda _: self.start_round()))
        self.project_button.on_click(self.guarded(lambda _: self.set_projecting(not self.projecting)))
        self.show_button.on_click(self.guarded(lambda _: self.show_game(self.show_which.value)))
        self.new_button.on_click(self.guarded(lambda _: self.new_tournament()))
        self.ticker.observe(self.guarded(lambda _: self.refresh(), clears=False), names="tick")
        self.draw_title()
        self.style = w.HTML(STYLE, layout=w.Layout(display="none"))
        self.children = [self.header(), self.style, self.opening, self.compose, self.message, self.state,
                         self.share_box, self.controls, self.project_button, self.screen, self.after, self.ticker]
        self.redraw()

    # The class's tournament service -------------------------------------------------------
    def _room(self):
        from classroom import open as open_classroom
        return open_classroom()

    def _cup(self):
        return self._room().tournaments()

    def _call(self, action):
        try:
            return action(self._cup())
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error
        except TournamentRefused as refused:
            if refused.code == "not_host":  # another page took the tournament back since
                raise ValueError(self.t("taken_elsewhere")) from None
            raise

    def _host(self) -> tuple[str, str]:
        if self.opened is None:
            raise ValueError(self.t("intro"))
        return self.opened["code"], self.opened["host_token"]

    # Actions --------------------------------------------------------------------------------
    def open_class(self, code: str, key: str) -> None:
        """Open the class; take its tournament back if one is not finished."""
        room = self._room()
        try:
            made = room.open_class(code, key)
            found = room.tournaments().of_class(made.code)
            learners = self._class_learners(room, made.code)
        except NotAllowed:
            raise ValueError(self.t("hub_refused" if hub_user() else "refused")) from None
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error
        self.class_code, self.class_list = made.code, learners
        self.opening.layout.display = "none"
        running = found[0] if found else None  # the newest: running, or finished to look back at
        if running is not None:
            try:
                self.opened = self._call(lambda cup: cup.resume(made.code, key, running["code"]))
            except NotAllowed:
                raise ValueError(self.t("hub_refused" if hub_user() else "refused")) from None
            self.show_message(self.t("taken_back", code=running["code"]), kind="ok")
            self._opened()
            return
        self.redraw()

    @staticmethod
    def _class_learners(room, code: str) -> list[dict]:
        """The class's learners for "add" ([] where the class cannot list them)."""
        try:
            return [{"id": str(p["id"]), "name": str(p["name"])} for p in room.class_learners(code)]
        except (StoreError, ValueError, LookupError, TypeError):
            return []

    def setup(self) -> dict:
        """The tournament the form describes (checked again by the store)."""
        game = self.game.value
        setup: dict = {"game": game, "level": self.level.value, "pace": self.pace}
        if games.team_of(game, 0) is not None:
            setup["format"] = self.format.value
            setup["players"] = self.players.value
            if self.players.value == "pairs":
                setup["partners"] = self.partners.value
            if self.length.value:
                setup["options"] = {"hands": int(self.length.value)}
        else:
            setup["format"] = "swiss"
            setup["table_size"] = [int(self.table_low.value), int(self.table_high.value)]
            setup["options"] = {"rounds": int(self.round_count.value)}
        if setup["format"] == "swiss":
            setup["rounds"] = int(self.rounds.value)
        return setup

    def open_tournament(self, setup: dict) -> dict:
        if self.class_code is None:
            raise ValueError(self.t("intro"))
        klass = self.class_code
        try:
            self.opened = self._call(lambda cup: cup.open(klass, self.key.value, setup))
        except NotAllowed:
            raise ValueError(self.t("hub_refused" if hub_user() else "refused")) from None
        self._opened()
        assert self.opened is not None
        return self.opened

    def _opened(self) -> None:
        from widgets.components.share import ShareLink
        assert self.opened is not None
        path = f"torneio_aluno.ipynb?torneio={self.opened['code']}"
        if self.share is None:
            self.share = ShareLink(path=path, lang=self.lang)
            self.share_box.children = (self.share,)
        else:
            self.share.path = path
        self.refresh()

    def enrol_present(self) -> list[str]:
        code, host = self._host()
        added = self._call(lambda cup: cup.enrol_present(code, host))
        self.refresh()
        self.show_message(self.t("enrolled", n=len(added)) if added else self.t("enrolled_none"), kind="ok")
        return added

    def add(self, learner_id: object) -> int:
        """Enrol a learner of the class (from the list; under JupyterHub her hub name)."""
        code, host = self._host()
        names = {p["id"]: p["name"] for p in self.class_list}
        if not isinstance(learner_id, str) or learner_id not in names:
            raise ValueError(self.t("no_one_to_add"))
        start = self._call(lambda cup: cup.add(code, host, learner_id, names[learner_id]))
        self.refresh()
        return start

    def remove(self, learner_id: str) -> None:
        code, host = self._host()
        self._call(lambda cup: cup.remove(code, host, learner_id))
        self.pairs = [p for p in self.pairs if learner_id not in p]
        self.refresh()

    def make_pair(self, first: object, second: object) -> None:
        """Two enrolled learners without a pair become partners ("" for a bot partner); the
        pairs chosen so far are sent at once (the store checks them)."""
        code, host = self._host()
        loose = self._loose()
        chosen = [v for v in (first, second) if v]
        if (not chosen or any(not isinstance(v, str) or v not in loose for v in chosen)
                or len(set(chosen)) != len(chosen)):
            raise ValueError(self.t("pair_twice"))
        pairs = [*self.pairs, [str(v) for v in chosen]]
        self._call(lambda cup: cup.set_partners(code, host, pairs))
        self.pairs = pairs
        self.refresh()

    def start_round(self) -> dict:
        code, host = self._host()
        number = (self.board or {}).get("round", 0) + 1
        try:
            started = self._call(lambda cup: cup.start_round(code, host, number))
        except TournamentRefused as refused:
            self.refresh()
            raise refused
        self.refresh()
        self.show_message(self.t("started", n=started["round"], tables=started["tables"]), kind="ok")
        return started

    def refresh(self) -> None:
        """Read the board again (which also moves the tables nobody watches)."""
        if self.opened is not None:
            code = self.opened["code"]
            self.board = self._call(lambda cup: cup.board(code))
        self.redraw()

    def new_tournament(self) -> None:
        """Back to the setup form, for the class's next tournament (once this one is over)."""
        if self.board is not None and self.board["status"] != "finished":
            raise ValueError(self.t("still_running"))
        self.opened, self.board, self.pairs, self._csv_for = None, None, [], ()
        self.shown.value = ""
        self.set_projecting(False)

    def set_projecting(self, on: bool) -> None:
        self.projecting = bool(on)
        if self.projecting:
            self.add_class(PROJECTING)
        else:
            self.remove_class(PROJECTING)
        self.redraw()

    def show_game(self, which: object) -> None:
        """Show a finished game from its save: the table as a spectator sees it, and its log."""
        finished = {f"{g['round']}:{g['table']}": g for g in self._finished()}
        if not isinstance(which, str) or which not in finished:
            raise ValueError(self.t("show_which"))
        game = finished[which]
        code = self._host()[0]
        save = self._call(lambda cup: cup.game_save(code, game["round"], game["table"]))
        state = games.load_state(save["game"], save["state"])
        names = {seat: who["name"] for seat, who in enumerate(game["seats"]) if who}
        picture = views_of(games.spec_of(save["game"]).family).draw(state, self.lang, None, names=names)
        lines = [games.narrate(state, e, self.lang, names) for e in games.events_for(state, None)[-LOG_LINES:]]
        log = "".join(f"<li>{escape(line)}</li>" for line in lines)
        self.shown.value = (
            f"<div data-round='{game['round']}' data-table='{game['table']}'>"
            f"<h3>{escape(self.t('shown', round=game['round'], at=game['table']))}</h3>"
            f"<div class='cartas-tournament-scroll'>{picture}</div>"
            f"<details><summary>{escape(self.t('log'))}</summary><ol style='max-height:320px;overflow:auto'>"
            f"{log}</ol></details></div>")

    # What the board says ---------------------------------------------------------------------
    def _enrolled(self) -> list[dict]:
        return [p for p in (self.board or {}).get("players", []) if not p["removed"]]

    def _loose(self) -> set[str]:
        """Enrolled learners who have no partner yet (chosen pairs only)."""
        paired = {who for pair in self.pairs for who in pair}
        return {p["id"] for p in self._enrolled() if p["unit"] == p["id"] and p["id"] not in paired}

    def _finished(self) -> list[dict]:
        return [g for g in (self.board or {}).get("games", []) if g["scores"] is not None and not g["bye"]]

    # Drawing ----------------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        lang, hub = self.lang, hub_user() is not None
        draw_opening(self, hub)
        self._draw_setup(lang)
        board, opened = self.board, self.opened
        self.compose.layout.display = "" if self.class_code is not None and opened is None else "none"
        running = opened is not None and board is not None
        finished = running and board is not None and board["status"] == "finished"
        self.ticker.active = bool(running and not finished)
        self.controls.layout.display = "" if running and not finished and not self.projecting else "none"
        self.project_button.layout.display = "" if running else "none"
        self.project_button.description = self.t("unproject" if self.projecting else "project")
        self.after.layout.display = "" if running and not self.projecting and board and board["round"] else "none"
        if self.share is not None:
            self.share.lang = lang
        if not running or board is None or opened is None:
            self.state.value = self.screen.value = ""
            return
        label = games.GAME_LABELS[board["setup"]["game"]][lang]
        self.state.value = (f"<div data-code='{escape(board['code'])}' data-round='{board['round']}' "
                            f"data-status='{escape(board['status'])}' style='font-size:16px;margin:6px 0'>"
                            f"{escape(self.t('opened', code=board['code'], klass=board['class_code'], game=label))}"
                            + (f" <b>{escape(self.t('over'))}</b>" if finished else "") + "</div>")
        self.screen.value = f"<div class='cartas-tournament-scroll'>{board_html(board, lang)}</div>"
        self._draw_controls(board, lang)
        self._draw_after(board, lang)

    def _draw_setup(self, lang: str) -> None:
        game = self.game.value
        labels = [(games.GAME_LABELS[g][lang], g) for g in games.GAMES]
        if list(self.game.options) != labels:
            self.game.options = labels
            self.game.value = game
        teams = games.team_of(game, 0) is not None
        self.game.description = self.t("game")
        self._choices(self.format, [(self.t(f"format_{f}"), f) for f in (FORMATS if teams else ("swiss",))])
        self.format.description = self.t("format")
        self.rounds.description = self.t("rounds")
        self.rounds.layout.display = "" if self.format.value == "swiss" else "none"
        self._choices(self.players, [(self.t("players_pairs"), "pairs"), (self.t("players_single"), "single")])
        self.players.description = self.t("players")
        self._choices(self.partners, [(self.t("partners_lot"), "lot"), (self.t("partners_chosen"), "chosen")])
        self.partners.description = self.t("partners")
        self.partners.layout.display = "" if self.players.value == "pairs" else "none"
        low, high = games.option_range(game, "hands") if teams else (1, 30)
        self._choices(self.length, [(self.t("length_full"), 0)] + [(self.t("length_hands", n=n), n)
                                                                   for n in TRUCO_LENGTHS if n and low <= n <= high])
        self.length.description = self.t("length")
        self.truco_box.layout.display = "" if teams else "none"
        self.twenty_one_box.layout.display = "none" if teams else ""
        self.table_low.description, self.table_high.description = self.t("table_low"), self.t("table_high")
        self.round_count.description = self.t("round_count")
        draw_level_chooser(self.level, lang, self.t("level"))
        self.open_button.description = self.t("open")

    @staticmethod
    def _choices(dropdown: w.Dropdown, options: list) -> None:
        """Set a dropdown's options in the page's language, keeping its value where it still is one."""
        if list(dropdown.options) == options:
            return
        current = dropdown.value
        dropdown.options = options
        values = [v for _, v in options]
        dropdown.value = current if current in values else values[0]

    def _draw_controls(self, board: dict, lang: str) -> None:
        enrolled = self._enrolled()
        self.enrol_button.description = self.t("enrol")
        self.add_button.description = self.t("add")
        self.add_who.description = self.t("add_who")
        inside = {p["id"] for p in enrolled}
        self._choices(self.add_who, [("—", "")] + [(p["name"], p["id"]) for p in self.class_list
                                                   if p["id"] not in inside])
        self.add_who.layout.display = self.add_button.layout.display = "" if self.class_list else "none"
        self.players_head.value = f"<b>{escape(self.t('players_head', n=len(enrolled)))}</b>"
        drawn = tuple((p["id"], p["name"], p["from_round"], lang, board["round"]) for p in enrolled)
        if drawn != self._drawn_players:
            old = self.player_rows.children
            rows = []
            for player in enrolled:
                later = (f" <span style='color:#555'>({escape(self.t('from_round', n=player['from_round']))})</span>"
                         if player["from_round"] > max(1, board["round"]) else "")
                button = w.Button(description=self.t("remove", name=player["name"]),
                                  layout=w.Layout(width="auto", min_height="36px")
                                  ).add_class("cartas-tournament-remove")
                button.on_click(self.guarded(lambda _, who=player["id"]: self.remove(who)))
                rows.append(w.HBox([w.HTML(f"<span data-player='{escape(player['id'])}' style='font-size:16px'>"
                                           f"{escape(player['name'])}</span>{later}"), button],
                                   layout=w.Layout(align_items="center", grid_gap="8px",
                                                   flex_flow="row wrap")))
            self.player_rows.children = rows
            self._drawn_players = drawn
            close_rows(old)
        chosen = board["setup"].get("partners") == "chosen" and board["round"] == 0
        self.pair_box.layout.display = "" if chosen else "none"
        if chosen:
            loose = sorted(self._loose())
            names = {p["id"]: p["name"] for p in enrolled}
            self._choices(self.pair_first, [("—", "")] + [(names[i], i) for i in loose])
            self._choices(self.pair_second, [(self.t("bot"), "")] + [(names[i], i) for i in loose])
            self.pair_first.description, self.pair_second.description = self.t("pair_first"), self.t("pair_second")
            self.pair_button.description = self.t("make_pair")
            listed = "".join(f"<li>{escape(' & '.join(names.get(i, i) for i in pair))}</li>" for pair in self.pairs)
            self.pairs_html.value = (f"<b>{escape(self.t('pairs_head'))}</b><ul>{listed}</ul>" if listed else "")
        rounds = board["rounds"] or 0
        number = board["round"] + 1
        self.start_button.description = self.t("start", n=number)
        self.start_button.layout.display = "" if not rounds or number <= rounds else "none"

    def _draw_after(self, board: dict, lang: str) -> None:
        code = escape(board["code"])
        # the CSV is made again only when a result, the round or the language changed
        made_for = (board["round"], board["status"], len(self._finished()), lang)
        if self.opened is not None and made_for != self._csv_for:
            host = self.opened["host_token"]
            text = self._call(lambda cup: cup.export_csv(board["code"], host, lang))
            self._csv_for = made_for
            self.download.value = (f"<a class='cartas-tournament-csv-link' download='torneio-{code}.csv' "
                                   f"href='data:text/csv;charset=utf-8,{quote(chr(0xFEFF) + text)}'>"
                                   f"{escape(self.t('csv'))}</a>")
        finished = self._finished()
        self._choices(self.show_which, [("—", "")] + [
            (self.t("game_of", round=g["round"], at=g["table"], names=" × ".join(g["names"])),
             f"{g['round']}:{g['table']}") for g in finished])
        self.show_which.description = self.t("show_which")
        self.new_button.description = self.t("new")
        self.new_button.layout.display = "" if board["status"] == "finished" else "none"
        self.show_button.description = self.t("show")
