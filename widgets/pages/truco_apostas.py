"""Betting: play out a truco sequence on a real engine state and watch the hand's value.

Every button is an engine action (RAISE, ACCEPT, RUN, or playing a card); the view shows
what the state says: the hand's value, the pending raise, who acts, what running pays, and
the engine's reason when a move is refused (a team may not raise twice in a row).
Also: both ladders, Paulista 1-3-6-9-12 and Mineiro 2-4-6-10-12, read from the engine.

Decided rule: an exercise's story tells the raises and acceptances by name only ("Assento 1
pede truco. Assento 2 aceita."), never the value they set, since that is what it asks.

The page opens without numpy: the view is drawn in the cell, and its hand is dealt right after
it (`widgets.components.later.after_paint`), before the learner's browser shows the widgets.
"""
from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

from cartas.cards import lazy_rng
from cartas.questions import Question, draw_question
from cartas.questions.truco import ladder_rows
from cartas.truco import ACCEPT, RAISE, RUN, TEAMS, VARIANTS, get_variant, hand_events, narrate, team_label
from widgets.components.announce import News, bounded
from widgets.components.base import View, enable
from widgets.components.exercises import Exercises
from widgets.components.later import after_paint, deal_from_seed
from widgets.draw.truco_table import table_html

TEXT = {
    "title": {"pt": "Apostas: truco, seis, nove, doze", "en": "Betting: truco and raising"},
    "seed": {"pt": "Semente", "en": "Seed"},
    "new": {"pt": "Nova mão", "en": "New hand"},
    "raise": {"pt": "Pedir {name} ({value})", "en": "Call {name} ({value})"},
    "raise_top": {"pt": "Pedir aumento", "en": "Raise"},
    "accept": {"pt": "Aceitar", "en": "Accept"},
    "run": {"pt": "Correr", "en": "Run"},
    "play": {"pt": "Jogar {card}", "en": "Play {card}"},
    "value": {"pt": "A mão vale <b>{value}</b>.", "en": "The hand is worth <b>{value}</b>."},
    "pending": {"pt": "{seat} pediu <b>{name}</b>: se aceitarem, a mão passa a valer {value}.",
                "en": "{seat} called <b>{name}</b>: if accepted, the hand is worth {value}."},
    "acts": {"pt": "Vez de: <b>{seat}</b> ({team}).", "en": "To act: <b>{seat}</b> ({team})."},
    "run_pays": {"pt": "Se {team} correr agora, {other} ganha <b>{points}</b>.",
                 "en": "If {team} runs now, {other} scores <b>{points}</b>."},
    "may_raise": {"pt": "Pode pedir aumento: {teams}.", "en": "May raise: {teams}."},
    "nobody": {"pt": "nenhuma dupla", "en": "no team"},
    "over": {"pt": "A mão terminou. Clique em Nova mão para jogar outra.",
             "en": "The hand is over. Click New hand to play another."},
    "seat": {"pt": "Assento {seat}", "en": "Seat {seat}"},
    "log": {"pt": "O que aconteceu", "en": "What happened"},
    "ladders": {"pt": "As escadas de valores", "en": "The ladders of values"},
    "step": {"pt": "Pedido", "en": "Call"},
    "worth": {"pt": "A mão vale", "en": "Hand worth"},
    "runs": {"pt": "Correr paga", "en": "Running pays"},
    "start": {"pt": "início", "en": "start"},
}

# A deal with no manilha in any hand (kept for older callers; the ladder no longer needs it).
LADDER_DEAL = [["4♦", "5♦", "6♦"], ["4♠", "5♠", "6♠"], ["4♥", "5♥", "6♥"], ["Q♦", "Q♠", "Q♥"]]


class BettingLab(View):
    """Raise, accept, run and play on a real hand; the engine says what each step is worth."""

    TEXT = TEXT

    def __init__(self, variant="paulista", seed=None, lang=None):
        super().__init__(lang=lang)
        self._news = News()  # the moves the live region has said
        rng = lazy_rng(seed)
        self.variant, self.seed, self.new_button = self.deal_controls(variant, rng, self.new_hand, fresh=True)
        self.state: Any = None  # the engine's state, from the first deal on
        self.raise_button = w.Button(button_style="danger", layout=w.Layout(width="190px")
                                     ).add_class("cartas-raise")
        self.accept_button = w.Button(button_style="success", layout=w.Layout(width="110px")
                                      ).add_class("cartas-accept")
        self.run_button = w.Button(button_style="warning", layout=w.Layout(width="110px")
                                   ).add_class("cartas-run")
        self.play_buttons = w.HBox().add_class("cartas-plays")
        self._plays: dict[str, w.Button] = {}
        self.status = w.HTML().add_class("cartas-status")
        self.table = w.HTML().add_class("cartas-table-box")
        self.story = w.HTML().add_class("cartas-log")
        self.ladders = w.HTML().add_class("cartas-ladders")

        self.raise_button.on_click(self.guarded(lambda _: self.act(RAISE)))
        self.accept_button.on_click(self.guarded(lambda _: self.act(ACCEPT)))
        self.run_button.on_click(self.guarded(lambda _: self.act(RUN)))

        self.exercises = Exercises(self, "truco_apostas", self._question, seed=rng)
        self.children = [
            self.header(),
            w.HBox([self.variant, self.beside(self.seed), self.new_button]),
            w.HBox([self.raise_button, self.accept_button, self.run_button]), self.play_buttons,
            self.message, self.status, w.HBox([self.table, self.story]), self.ladders, self.exercises,
        ]
        self.redraw()  # the page: labels now, the hand right after (see the module's docstring)
        after_paint(self.guarded(lambda: deal_from_seed(self.seed, rng, self.new_hand), near=self.seed))

    # Actions ---------------------------------------------------------------------------
    def new_hand(self) -> None:
        from cartas.truco import new_game  # numpy: with the first deal, not with the page

        self.state = new_game(self.variant.value, self.seed.value)
        self.redraw()

    @property
    def hand_over(self) -> bool:
        return self.state.last_hand is not None

    def act(self, action) -> None:
        """Apply an action for the seat to act; the engine refuses illegal ones with a reason."""
        if self.hand_over:
            raise ValueError(self.t("over"))
        try:
            self.state.apply_action(action)
        finally:
            self.redraw()

    # Drawing ---------------------------------------------------------------------------
    def _seat(self, seat) -> str:
        return self.t("seat", seat=seat)

    def _play_button(self, action) -> w.Button:
        """The button that plays `action`'s card: one per card, made the first time it is
        offered and kept (a button's move never changes, so a late second click on it is the
        engine's refusal, never another card), at most one per card of the deck."""
        button = self._plays.get(str(action))
        if button is None:
            button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-play")
            button.on_click(self.guarded(lambda _, a=action: self.act(a)))
            self._plays[str(action)] = button
        button.description = self.t("play", card=action.card)
        return button

    def redraw(self) -> None:
        state, lang = self.state, self.lang
        self.draw_title()
        self.seed.description = self.t("seed")
        self.new_button.description = self.t("new")
        self.accept_button.description = self.t("accept")
        self.run_button.description = self.t("run")
        if state is None:  # not dealt yet
            return
        over = self.hand_over
        legal = [] if over else state.legal_actions()
        kinds = {a.kind for a in legal}
        raise_to = next((a.value for a in legal if a.kind == "raise"), None)
        self.raise_button.description = (self.t("raise", name=state.variant.raise_name(raise_to), value=raise_to)
                                         if raise_to else self.t("raise_top"))
        enable(self.raise_button, not over, "danger")
        enable(self.accept_button, "accept" in kinds, "success")
        enable(self.run_button, "run" in kinds, "warning")
        self.play_buttons.children = [self._play_button(a) for a in legal if a.kind == "play"]
        self._draw_status(over)
        shown = state if not over else None
        self.table.value = table_html(shown, lang) if shown else ""
        told = hand_events(state.events, 1)[1:]
        lines = [narrate(e, lang) for e in told]
        self.announce([narrate(e, lang) for e in bounded(self._news.new(told, key=state, quiet_first=True))])
        items = "".join(f"<li>{escape(x)}</li>" for x in lines)
        self.story.value = f"<div style='font-size:14px;min-width:260px;max-width:360px'><b>{self.t('log')}</b>" \
            f"<ol>{items}</ol></div>"
        self._draw_ladders()
        self.exercises.redraw()

    def _draw_status(self, over: bool) -> None:
        state = self.state
        if over:
            hand = next(e for e in state.events if e["type"] == "hand")
            self.status.value = (f"<div class='cartas-over' style='font-size:18px'>"
                                 f"<b>{escape(narrate(hand, self.lang))}</b> {self.t('over')}</div>")
            return
        seat = state.current_seat
        assert seat is not None  # a hand that is not over has a seat to act
        value_line = (f"<span class='cartas-value' data-value='{state.hand_value}'>"
                      f"{self.t('value', value=state.hand_value)}</span>")
        lines = [value_line]
        pending = state.pending_raise
        if pending:
            lines.append(self.t("pending", seat=self._seat(pending["seat"]), name=pending["name"],
                                value=pending["value"]))
        lines.append(self.t("acts", seat=self._seat(seat),
                            team=team_label(state.team_of(seat), self.lang)))
        if state.run_value is not None:
            team = state.team_of(seat)
            lines.append(f"<span class='cartas-run-value' data-points='{state.run_value}'>" + self.t(
                "run_pays", team=team_label(team, self.lang), other=team_label(1 - team, self.lang),
                points=state.run_value) + "</span>")
        teams = [team_label(t, self.lang) for t in TEAMS if state.may_raise(t)]
        lines.append(self.t("may_raise", teams=", ".join(teams) or self.t("nobody")))
        self.status.value = ("<div style='font-size:17px;line-height:1.6'>"
                             + "<br>".join(lines) + "</div>")

    def _draw_ladders(self) -> None:
        current = get_variant(self.variant.value)
        value = None if self.hand_over else self.state.hand_value
        tables = []
        for variant in VARIANTS.values():
            rows = []
            for name, worth, pays in ladder_rows(variant.key):
                mark = "background:#fff59d;" if variant is current and worth == value else ""
                rows.append(f"<tr style='{mark}'><td>{escape(name or self.t('start'))}</td>"
                            f"<td style='text-align:center'><b>{worth}</b></td>"
                            f"<td style='text-align:center'>{'' if pays is None else pays}</td></tr>")
            head = (f"<tr><th>{self.t('step')}</th><th>{self.t('worth')}</th>"
                    f"<th>{self.t('runs')}</th></tr>")
            values = "-".join(str(r[1]) for r in ladder_rows(variant.key))
            tables.append(f"<div class='cartas-ladder' data-variant='{variant.key}' data-values='{values}' "
                          f"style='margin-right:30px'><b>{variant.label[self.lang]}: {values}</b>"
                          f"<table style='font-size:15px;border-spacing:10px 2px'>{head}{''.join(rows)}</table></div>")
        self.ladders.value = (f"<h4 style='margin:10px 0 2px'>{self.t('ladders')}</h4>"
                              f"<div style='display:flex;flex-wrap:wrap'>{''.join(tables)}</div>")

    # Exercises -------------------------------------------------------------------------
    def _question(self, rng) -> Question:
        """What the hand is worth, or what running pays, after some raises (the engine's kinds,
        `cartas.questions`)."""
        return draw_question("truco_apostas", rng, variant=self.variant.value)
