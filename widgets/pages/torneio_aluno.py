"""A class tournament on a learner's phone (issue 34; classroom.tournament, docs/rules.md#tournament-pages).

Decided rules:
- The learner is the verified learner of this browser (her device token checked again on each
  read); one who is not in a class signs in here with the index's form. Under JupyterHub she is
  her hub user.
- The tournament is the one of the projector's link or QR code (`?torneio=CODE`), or else the
  newest one of her class (`mine`). While this page is open she counts as present: the
  teacher's "enrol those present" enrols her.
- The page reads her table again on the browser's timer (every PHONE_SECONDS, only while the
  page is visible) and shows one of: not enrolled yet; plays from round N (a latecomer); her
  table this round, with one large button that opens the table page at her seat (no code to
  type: `mesa.ipynb?mesa=CODE`, where she is already seated); a bye; her game over, waiting for
  the next round; the tournament over. Between games it shows the standings, read again only
  when the round, her game or the tournament's state changed (not on every tick).
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from classroom.store import StoreError
from widgets.components import learner as identity
from widgets.components.base import View
from widgets.components.live import LiveTicker
from widgets.draw.tournament import my_table_html, standings_html

PHONE_SECONDS = 1.0  # her table is read this often: she sees a new round within a second or so

TEXT = {
    "title": {"pt": "Torneio da turma", "en": "Class tournament"},
    "sign_in": {"pt": "Entre na sua turma (nome, código da turma e PIN) para jogar o torneio.",
                "en": "Sign in to your class (name, class code and PIN) to play the tournament."},
    "none": {"pt": "Sua turma não tem torneio aberto agora. Espere o professor.",
             "en": "Your class has no tournament open right now. Wait for your teacher."},
    "store_down": {"pt": "O armazenamento não responde agora; tente de novo em instantes.",
                   "en": "The store does not answer right now; try again in a moment."},
    "round": {"pt": "Rodada {n}", "en": "Round {n}"},
}


class TournamentPhone(View):
    """A learner's tournament screen (see the module's rules)."""

    TEXT = TEXT

    def __init__(self, lang=None, code: str | None = None):
        super().__init__(lang=lang)
        from widgets.components import params
        self.code: str | None = code if code is not None else self.from_url(params.tournament())
        self._chosen = self.code is not None  # from the link: never replaced by her class's newest
        self.mine: dict | None = None
        self.board: dict | None = None
        self._board_for: tuple = ()
        self.identity = identity.widget(lang=self.lang, form=True)
        self.identity.on_change(self.guarded(lambda _learner: self.refresh(), clears=False))
        self.language.observe(lambda change: self.identity.set_language(change["new"]), names="value")
        self.status = w.HTML().add_class("cartas-tournament-phone")
        self.standings = w.HTML().add_class("cartas-tournament-phone-standings")
        self.ticker = LiveTicker(seconds=PHONE_SECONDS)
        self.ticker.observe(self.guarded(lambda _: self.refresh(), clears=False), names="tick")
        self.draw_title()
        switch = [] if self.on_page() else [self.language]
        top = w.HBox([self.title, *switch], layout=w.Layout(justify_content="space-between",
                                                             flex_flow="row wrap", align_items="center"))
        self.children = [top, self.identity, self.message, self.status, self.standings, self.ticker]
        self.refresh()

    # Reading -------------------------------------------------------------------------------
    def _cup(self):
        from classroom import open as open_classroom
        return open_classroom().tournaments()

    def _learner(self):
        if not self.identity.reported():
            return None
        learner = self.identity.verified()
        return learner if learner is not None and (learner.class_code or self.identity.hub) else None

    def refresh(self) -> None:
        """Read her table of the round again (and the standings when something changed)."""
        learner = self._learner()
        if learner is None:
            self.mine = None
            self.redraw()
            return
        try:
            cup = self._cup()
            if not self._chosen:
                found = cup.mine(learner)
                self.code = found[0]["code"] if found else None
            if self.code is not None:
                self.mine = cup.my_table(self.code, learner.key, learner.name)
                changed = (self.code, self.mine["round"], self.mine["status"], self.mine["done"],
                           self.mine["table_code"])
                if changed != self._board_for and self._between_games():
                    self.board = cup.board(self.code)
                    self._board_for = changed
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error
        self.redraw()

    def _between_games(self) -> bool:
        mine = self.mine
        return bool(mine and mine["round"] and (mine["status"] == "finished" or mine["done"] or mine["bye"]
                                                or not mine["table_code"]))

    # Drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        lang = self.lang
        current = self.identity.current
        in_class = current is not None and (bool(current.class_code) or self.identity.hub)
        self.identity.layout.display = "none" if in_class else ""
        self.ticker.active = in_class and not (self.mine and self.mine["status"] == "finished")
        if not in_class:
            self.status.value = (f"<div class='cartas-tournament-mine' data-state='signin' style='font-size:17px'>"
                                 f"{escape(self.t('sign_in'))}</div>")
            self.standings.value = ""
            return
        if self.mine is None:
            self.status.value = (f"<div class='cartas-tournament-mine' data-state='none' style='font-size:17px'>"
                                 f"{escape(self.t('none'))}</div>")
            self.standings.value = ""
            return
        mine = self.mine
        link = f"mesa.ipynb?mesa={mine['table_code']}&lang={lang}" if mine["table_code"] else ""
        head = f"<p style='margin:4px 0;color:#333'>{escape(self.t('round', n=mine['round']))}</p>" \
            if mine["round"] else ""
        self.status.value = head + my_table_html(mine, lang, link)
        board = self.board
        show = self._between_games() and board is not None and board["standings"]
        self.standings.value = (f"<div style='overflow-x:auto;max-width:100%;font-size:15px'>"
                                f"{standings_html(board, lang, compact=True)}</div>" if show and board else "")
