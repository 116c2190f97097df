"""Mão de onze / mão de dez and mão de ferro, on real engine states.

Mão de onze (Paulista, 11 points) / mão de dez (Mineiro, 10): the team at the threshold sees
both partners' cards and decides to play or run; the engine says what each choice scores,
and a raise there loses the game. Mão de ferro (both teams at the threshold): every card is
played blind, by position. Everything shown is read from the state or its events.

The page opens without numpy: the view is drawn in the cell, and its two hands are dealt right
after it (`widgets.components.later.after_paint`), before the learner's browser shows the widgets.
"""
from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

from cartas.cards import TRUCO_PACK, lazy_rng, make_rng, shuffled
from cartas.questions import Question, draw_question
from cartas.questions.truco import threshold_state
from cartas.truco import (
    PLAY_HAND,
    RAISE,
    RUN_HAND,
    SEATS,
    Action,
    deal_hands,
    get_variant,
    hand_events,
    narrate,
    team_label,
)
from widgets.components.announce import News, bounded
from widgets.components.base import View, enable
from widgets.components.exercises import Exercises
from widgets.components.later import after_paint, deal_from_seed
from widgets.draw.truco_table import table_html

TEXT = {
    "title": {"pt": "Mão de onze, mão de dez e mão de ferro", "en": "Mão de onze, mão de dez and mão de ferro"},
    "seed": {"pt": "Semente", "en": "Seed"},
    "new": {"pt": "Nova mão", "en": "New hand"},
    "threshold": {"pt": "{name}: decidir com as cartas do parceiro",
                  "en": "{name}: deciding with the partner's cards"},
    "who": {"pt": "É {name} para a {team} ({a} x {b}). O assento {seat} decide pela dupla, vendo as "
                  "próprias cartas e as do parceiro.",
            "en": "It is a {name} for {team} ({a} x {b}). Seat {seat} decides for the team, seeing "
                  "its own cards and its partner's."},
    "play_scores": {"pt": "Jogar: a mão vale <b>{value}</b>.", "en": "Play: the hand is worth <b>{value}</b>."},
    "run_scores": {"pt": "Correr: a {other} ganha <b>{points}</b>.",
                   "en": "Run: {other} scores <b>{points}</b>."},
    "play_hand": {"pt": "Jogar a mão", "en": "Play the hand"},
    "run_hand": {"pt": "Correr", "en": "Run"},
    "call": {"pt": "Pedir truco", "en": "Call truco"},
    "finish": {"pt": "Jogar até o fim", "en": "Play to the end"},
    "ferro": {"pt": "Mão de ferro: jogar no escuro", "en": "Mão de ferro: playing in the dark"},
    "ferro_who": {"pt": "Placar {a} x {b}: as duas duplas estão em {t}. Ninguém vê as próprias cartas; "
                        "a vez é do assento {seat}, que escolhe uma posição.",
                  "en": "Score {a} x {b}: both teams are at {t}. Nobody sees their own cards; seat "
                        "{seat} plays and picks a position."},
    "blind": {"pt": "{n}ª carta", "en": "Card {n}"},
}


def ferro_state(variant, rng):
    """A mão de ferro: both teams at the threshold."""
    pack = shuffled(TRUCO_PACK, rng)
    dealer = int(rng.integers(len(SEATS)))
    hands, vira = deal_hands(pack, dealer, variant.uses_vira)
    t = variant.threshold
    from cartas.truco import from_deal

    return from_deal(variant, hands, vira, dealer=dealer, score=(t, t),
                     seed=int(rng.integers(1_000_000)))


def _over(state) -> bool:
    return state.last_hand is not None


class ThresholdLab(View):
    """Decide a mão de onze/dez with the partner's cards; play a mão de ferro blind."""

    TEXT = TEXT

    def __init__(self, variant="paulista", seed=None, lang=None):
        super().__init__(lang=lang)
        self._onze_news, self._ferro_news = News(), News()  # the moves the live region has said, per part
        rng = lazy_rng(seed)
        self.variant, self.seed, self.new_button = self.deal_controls(variant, rng, self.new_hands, fresh=True)
        self.onze: Any = None  # the engine's states, from the first deal on
        self.ferro: Any = None
        self.onze_title, self.ferro_title = w.HTML(), w.HTML()
        self.onze_info = w.HTML().add_class("cartas-onze-info")
        self.play_hand_button = w.Button(button_style="success").add_class("cartas-play-hand")
        self.run_hand_button = w.Button(button_style="warning").add_class("cartas-run-hand")
        self.call_button = w.Button(button_style="danger").add_class("cartas-call")
        self.finish_button = w.Button().add_class("cartas-finish")
        self.onze_table = w.HTML().add_class("cartas-onze-table")
        self.onze_story = w.HTML().add_class("cartas-onze-story")
        self.ferro_info = w.HTML().add_class("cartas-ferro-info")
        self.blind_buttons = [w.Button(layout=w.Layout(width="110px")).add_class(f"cartas-blind-{p}")
                              for p in range(3)]
        self.ferro_call = w.Button(button_style="danger").add_class("cartas-ferro-call")
        self.ferro_table = w.HTML().add_class("cartas-ferro-table")
        self.ferro_story = w.HTML().add_class("cartas-ferro-story")

        self.play_hand_button.on_click(self.guarded(lambda _: self.act_onze(PLAY_HAND)))
        self.run_hand_button.on_click(self.guarded(lambda _: self.act_onze(RUN_HAND)))
        self.call_button.on_click(self.guarded(lambda _: self.act_onze(RAISE)))
        self.finish_button.on_click(self.guarded(lambda _: self.finish()))
        for p, button in enumerate(self.blind_buttons):
            button.on_click(self.guarded(lambda _, p=p: self.act_ferro(Action.blind(p))))
        self.ferro_call.on_click(self.guarded(lambda _: self.act_ferro(RAISE)))

        self.exercises = Exercises(self, "truco_mao_de_onze", self._question, seed=rng)
        self.children = [
            self.header(),
            w.HBox([self.variant, self.beside(self.seed), self.new_button]), self.message,
            self.onze_title, self.onze_info,
            self.beside(w.HBox([self.play_hand_button, self.run_hand_button, self.call_button, self.finish_button])),
            w.HBox([self.onze_table, self.onze_story]),
            self.ferro_title, self.ferro_info, self.beside(w.HBox(self.blind_buttons + [self.ferro_call])),
            w.HBox([self.ferro_table, self.ferro_story]), self.exercises,
        ]
        self.redraw()  # the page: labels now, the hands right after (see the module's docstring)
        after_paint(self.guarded(lambda: deal_from_seed(self.seed, rng, self.new_hands), near=self.seed))

    # Actions ---------------------------------------------------------------------------
    def new_hands(self) -> None:
        variant = get_variant(self.variant.value)
        rng = make_rng(self.seed.value)
        self.onze = threshold_state(variant, rng)
        self.decider = self.onze.current_seat
        self.ferro = ferro_state(variant, rng)
        self.redraw()

    def _apply(self, state, action) -> None:
        if _over(state):
            raise ValueError(self.t("new"))
        try:
            state.apply_action(action)
        finally:
            self.redraw()

    def act_onze(self, action) -> None:
        self._apply(self.onze, action)

    def act_ferro(self, action) -> None:
        self._apply(self.ferro, action)

    def finish(self) -> None:
        """Seeded RuleBots play the rest of the mão de onze/dez."""
        from cartas.truco import RuleBot

        bots = [RuleBot(seed=self.seed.value * 4 + s) for s in SEATS]
        while not _over(self.onze):
            seat = self.onze.current_seat
            self.onze.apply_action(bots[seat].choose(self.onze.view(seat)))
        self.redraw()

    # Drawing ---------------------------------------------------------------------------
    def _announce_moves(self, news: News, state) -> None:
        """Say the moves of `state` new since its last drawing (a new deal says nothing)."""
        new = news.new(hand_events(state.events, 1), key=state, quiet_first=True)
        self.announce([narrate(e, self.lang) for e in bounded(new)])

    def _story(self, state) -> str:
        items = "".join(f"<li>{escape(narrate(e, self.lang))}</li>"
                        for e in hand_events(state.events, 1))
        return f"<ol style='font-size:14px;max-width:380px'>{items}</ol>"

    def redraw(self) -> None:
        variant = get_variant(self.variant.value)
        name = variant.threshold_name
        self.draw_title()
        self.seed.description = self.t("seed")
        self.new_button.description = self.t("new")
        for key in ("play_hand", "run_hand", "call", "finish"):
            getattr(self, f"{key}_button").description = self.t(key)
        if self.onze is None:  # not dealt yet
            return
        self._draw_onze(name)
        self._draw_ferro(variant)
        self.exercises.redraw()

    def _draw_onze(self, name: str) -> None:
        state, lang = self.onze, self.lang
        self.onze_title.value = f"<h4 style='margin:10px 0 2px'>{self.t('threshold', name=name.capitalize())}</h4>"
        team = state.threshold_team
        over = _over(state)
        lines = [self.t("who", name=name, team=team_label(team, lang), a=state.score[0],
                        b=state.score[1], seat=self.decider)]
        if state.phase == "decide":
            lines.append(f"<span class='cartas-play-scores' data-value='{state.hand_value}'>"
                         f"{self.t('play_scores', value=state.hand_value)}</span> · "
                         f"<span class='cartas-run-scores' data-points='{state.run_value}'>"
                         f"{self.t('run_scores', other=team_label(1 - team, lang), points=state.run_value)}"
                         "</span>")
        self.onze_info.value = "<div style='font-size:17px;line-height:1.6'>" + "<br>".join(lines) + "</div>"
        deciding = state.phase == "decide"
        enable(self.play_hand_button, deciding, "success")
        enable(self.run_hand_button, deciding, "warning")
        enable(self.call_button, not (deciding or over), "danger")
        enable(self.finish_button, not (deciding or over))
        if over:
            self.onze_table.value = ""
        else:  # the decider's view: its own and its partner's cards while deciding
            self.onze_table.value = table_html(state.view(self.decider) if deciding else state, lang)
        self.onze_story.value = self._story(state)
        self._announce_moves(self._onze_news, state)

    def _draw_ferro(self, variant) -> None:
        state, lang = self.ferro, self.lang
        t = variant.threshold
        self.ferro_title.value = f"<h4 style='margin:14px 0 2px'>{self.t('ferro')}</h4>"
        over = _over(state)
        self.ferro_info.value = ("<div style='font-size:17px'>" + self.t(
            "ferro_who", a=t, b=t, t=t, seat=state.current_seat if not over else "-") + "</div>")
        positions = {a.position for a in ([] if over else state.legal_actions()) if a.kind == "blind"}
        for p, button in enumerate(self.blind_buttons):
            button.description = self.t("blind", n=p + 1)
            button.disabled = p not in positions
        self.ferro_call.description = self.t("call")
        enable(self.ferro_call, not over, "danger")
        self.ferro_table.value = "" if over else table_html(state, lang, reveal=False)
        self.ferro_story.value = self._story(state)
        self._announce_moves(self._ferro_news, state)

    # Exercises -------------------------------------------------------------------------
    def _question(self, rng) -> Question:
        """What running pays, what playing is worth, or what a raise does, in the threshold
        hand (the engine's kinds, `cartas.questions`)."""
        return draw_question("truco_mao_de_onze", rng, variant=self.variant.value)
