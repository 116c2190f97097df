"""The deal stepper: one truco hand step by step, from the shuffle to the last trick.

The engine deals and four seeded RuleBots play the first hand of `new_game(variant, seed)`;
the stepper turns the engine's events into steps (the deal card by card, the vira and the
manilhas, every play, raise and trick) and narrates each with the engine's `narrate` and
`explain_trick`. Forward, back and restart only move an index; a seed replays the same deal.

The page opens without numpy: the view is drawn in the cell, and the first hand is dealt right
after it (`widgets.components.later.after_paint`), before the learner's browser shows the widgets.
"""
from __future__ import annotations

import ipywidgets as w

from cartas.cards import Card, lazy_rng
from cartas.questions import Question, draw_question
from cartas.truco import (
    SEATS,
    deal_order,
    explain_trick,
    get_variant,
    hand_events,
    narrate,
    ordinal,
    pack_left,
    seat_name,
    trick_winning_seat,
)
from widgets.components.announce import text_of
from widgets.components.base import View
from widgets.components.exercises import Exercises
from widgets.components.i18n import LANGUAGES, every_language, translate
from widgets.components.later import after_paint, deal_from_seed
from widgets.draw.truco_table import Table, table_html

TEXT = {
    "title": {"pt": "A mão passo a passo", "en": "A hand step by step"},
    "seed": {"pt": "Semente", "en": "Seed"},
    "deal": {"pt": "Dar as cartas", "en": "Deal"},
    "restart": {"pt": "↺ Recomeçar", "en": "↺ Restart"},
    "back": {"pt": "◀ Voltar", "en": "◀ Back"},
    "forward": {"pt": "Avançar ▶", "en": "Forward ▶"},
    "counter": {"pt": "Passo {n} de {total}", "en": "Step {n} of {total}"},
    "history": {"pt": "Até aqui", "en": "So far"},
    "shuffles": {"pt": "O {seat} embaralha as {n} cartas (semente {seed}).",
                 "en": "{Seat} shuffles the {n} cards (seed {seed})."},
    "gets": {"pt": "O {seat} recebe a {nth} carta: {card}.",
             "en": "{Seat} gets the {nth} card: {card}."},
    "takes_lead": {"pt": "e passa a ganhar a rodada.", "en": "and takes the lead in the trick."},
    "tied_so_far": {"pt": "A rodada está empatada até agora.", "en": "The trick is tied so far."},
    "winning_so_far": {"pt": "Quem ganha até agora: o {seat}.", "en": "Winning so far: {seat}."},
}


def _seats(seat: int) -> dict:
    """The seat's name in each language, in the middle and at the start of a sentence."""
    return {lang: {"seat": seat_name(seat, lang), "Seat": seat_name(seat, lang).capitalize()}
            for lang in LANGUAGES}


def play_first_hand(variant, seed: int):
    """A new game whose first hand RuleBots have played to the end; returns its events."""
    from cartas.truco import new_game  # numpy: with the first deal, not with the page
    from cartas.truco.bots import RuleBot

    state = new_game(variant, seed)
    bots = [RuleBot(seed=seed * 4 + s) for s in SEATS]
    while state.last_hand is None:  # the engine keeps the finished hand, then deals on
        seat = state.current_seat
        assert seat is not None  # a hand that is not over has a seat to act
        state.apply_action(bots[seat].choose(state.view(seat)))
    return hand_events(state.events, 1)


def _copy(table: Table, **changes) -> Table:
    return table.with_(hands=[list(h) for h in table.hands], trick=list(table.trick),
                       trick_results=list(table.trick_results), **changes)


def deal_steps(dealer: int) -> int:
    """How many steps show the deal: the shuffle, then one per card dealt (`deal_order`)."""
    return 1 + len(deal_order(dealer))


def build_steps(variant, seed: int) -> list[dict]:
    """Every step of the first hand: {"table": Table, "text": {lang: sentence}, "highlight"}.

    The first `deal_steps(dealer)` steps are the shuffle and the deal, card by card."""
    variant = get_variant(variant)
    events = play_first_hand(variant, seed)
    deal = events[0]
    dealer, mao = deal["dealer"], deal["mao"]  # the engine's facts, not recomputed
    table = Table(variant=variant, dealer=dealer, mao=mao, pack=pack_left(0), hand_number=1,
                  score=tuple(deal["score"]), mode=deal["mode"])
    names = _seats(dealer)
    steps = [{"table": _copy(table), "highlight": {}, "text": {
        lang: translate(TEXT, "shuffles", lang, n=table.pack, seed=seed, **names[lang])
        for lang in LANGUAGES}}]
    dealt = deal_order(dealer)
    for n, (seat, k) in enumerate(dealt):  # the cards as they leave the pack
        text = deal["hands"][seat][k]
        table = _copy(table, pack=pack_left(n + 1), current_seat=seat)
        table.hands[seat].append(Card.parse(text))
        names = _seats(seat)
        steps.append({"table": table, "highlight": {text: "selected"}, "text": {
            lang: translate(TEXT, "gets", lang, nth=ordinal(k + 1, lang), card=text, **names[lang])
            for lang in LANGUAGES}})
    vira = Card.parse(deal["vira"]) if deal["vira"] else None
    table = _copy(table, vira=vira, manilhas=tuple(Card.parse(c) for c in deal["manilhas"]),
                  pack=pack_left(len(dealt) + (1 if vira else 0)), current_seat=None,
                  hand_value=deal["value"])
    table.current_seat = _next_actor(events, 0)
    steps.append({"table": table, "highlight": {}, "text": _narrated(deal, variant)})
    new_trick = False
    for index, event in enumerate(events[1:], start=1):
        table = _copy(table, pack=0)
        kind = event["type"]
        highlight = {}
        text = _narrated(event, variant)
        if new_trick:
            table.trick, new_trick = [], False
        if kind == "play":
            table.hands[event["seat"]].remove(Card.parse(event["card"]))
            table.trick.append((event["seat"], None if event["covered"] else Card.parse(event["card"])))
            text = _with_lead(text, table.trick, variant, vira)
        elif kind == "trick":
            table.trick_results.append(event["winner_team"])
            if event["card"]:
                highlight = {event["card"]: "winner"}
            plays = [(s, c) for s, c in event["plays"]]
            text = {lang: text[lang] + " " + explain_trick(plays, variant, vira, lang)
                    for lang in ("pt", "en")}
            new_trick = True
        elif kind == "raise":
            table.pending_raise = {"name": event["name"], "value": event["value"]}
            table.hand_value = event["hand_value"]  # a re-raise accepts the raise it answers
        elif kind == "accept":
            table.pending_raise, table.hand_value = None, event["value"]
        elif kind in ("run", "hand"):
            table.pending_raise = None
            if kind == "hand":
                table.score = tuple(event["score"])
        table.current_seat = _next_actor(events, index)
        steps.append({"table": table, "highlight": highlight, "text": text})
    return steps


ACTS = ("play", "raise", "accept", "run")


def _next_actor(events: list[dict], index: int) -> int | None:
    """The seat that acts after `events[index]`: the seat of the next move the engine
    recorded (a play, a raise, an answer), or None once the hand is over. The "a vez" badge
    goes there, never on the seat that just acted."""
    for event in events[index + 1:]:
        if event["type"] == "hand":
            return None
        if event["type"] in ACTS and isinstance(event.get("seat"), int):
            return event["seat"]
    return None


def _with_lead(text: dict, trick, variant, vira) -> dict:
    """Add who is winning the trick so far, as the engine judges the cards on the table."""
    if len(trick) < 2:
        return text
    leader = trick_winning_seat(trick, variant, vira)
    seat = trick[-1][0]
    if leader == seat:
        note = every_language(TEXT, "takes_lead")
    elif leader is None:
        note = every_language(TEXT, "tied_so_far")
    else:
        note = {lang: translate(TEXT, "winning_so_far", lang, seat=seat_name(leader, lang))
                for lang in LANGUAGES}
    if leader == seat:  # continue the sentence: "joga 3♥ e passa...", "joga 7♥, a manilha..., e passa..."
        return {lang: text[lang].rstrip(".") + (", " if ", " in text[lang] else " ") + note[lang]
                for lang in text}
    return {lang: text[lang] + " " + note[lang] for lang in text}


def _narrated(event, variant=None) -> dict:
    return {lang: narrate(event, lang) for lang in LANGUAGES}


class DealStepper(View):
    """Step through the deal and the tricks of one hand, narrated by the engine."""

    TEXT = TEXT
    index: int  # the step shown (set in __init__, read by the buttons' callbacks)

    def __init__(self, variant="paulista", seed=None, lang=None):
        super().__init__(lang=lang)
        rng = self._rng = lazy_rng(seed)
        self.variant, self.seed, self.deal_button = self.deal_controls(
            variant, rng, self.deal, button_class="cartas-deal", width="140px")
        self.restart_button = w.Button(layout=w.Layout(width="130px")).add_class("cartas-restart")
        self.back_button = w.Button(layout=w.Layout(width="110px")).add_class("cartas-back")
        self.forward_button = w.Button(layout=w.Layout(width="110px"),
                                       button_style="primary").add_class("cartas-forward")
        self.counter = w.HTML().add_class("cartas-counter")
        self.narration = w.HTML().add_class("cartas-narration")
        self.table = w.HTML().add_class("cartas-table-box")
        self.history = w.HTML().add_class("cartas-history")

        self.restart_button.on_click(self.guarded(lambda _: self.go(0)))
        self.back_button.on_click(self.guarded(lambda _: self.go(self.index - 1)))
        self.forward_button.on_click(self.guarded(lambda _: self.go(self.index + 1)))

        self.exercises = Exercises(self, "truco_mao", self._question, seed=rng)
        self.children = [
            self.header(),
            w.HBox([self.variant, self.beside(self.seed), self.deal_button]),
            w.HBox([self.restart_button, self.back_button, self.forward_button, self.counter]),
            self.message, self.narration, self.table, self.history, self.exercises,
        ]
        self.steps: list[dict] = []
        self.index = 0
        self.redraw()  # the page: labels now, the hand right after (see the module's docstring)
        after_paint(self.guarded(lambda: deal_from_seed(self.seed, rng, self.deal), near=self.seed))

    # Actions ---------------------------------------------------------------------------
    def deal(self) -> None:
        """Build the steps of the hand for the chosen variant and seed, and go to the start."""
        self.steps = build_steps(self.variant.value, self.seed.value)
        self.go(0)

    def go(self, index: int) -> None:
        """Show step `index`; the live region says its event (cards in words)."""
        self.index = max(0, min(index, len(self.steps) - 1))
        self.redraw()
        if self.steps:
            self.announce(text_of(self.steps[self.index]["text"][self.lang]))

    # Exercises -------------------------------------------------------------------------
    def _question(self, rng) -> Question:
        """Either "who is the mão?" or "which of these cards is a manilha?" (the engine's kinds,
        `cartas.questions`)."""
        return draw_question("truco_mao", rng, variant=self.variant.value)

    # Drawing ---------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        self.seed.description = self.t("seed")
        for key in ("deal", "restart", "back", "forward"):
            getattr(self, f"{key}_button").description = self.t(key)
        if not self.steps:
            return
        step = self.steps[self.index]
        self.back_button.disabled = self.index == 0
        self.forward_button.disabled = self.index == len(self.steps) - 1
        self.counter.value = (f"<span style='font-size:15px;margin-left:8px'>"
                              f"{self.t('counter', n=self.index + 1, total=len(self.steps))}</span>")
        self.narration.value = (f"<div style='font-size:18px;padding:6px 10px;background:#f5f5f5;"
                                f"border-left:5px solid #2e7d32;min-height:48px'>{step['text'][self.lang]}</div>")
        self.table.value = table_html(step["table"], self.lang, highlight=step["highlight"])
        first = deal_steps(self.steps[0]["table"].dealer)  # the history starts after the deal
        past = [s["text"][self.lang] for s in self.steps[first:self.index]]
        items = "".join(f"<li>{p}</li>" for p in past[-8:])
        self.history.value = (f"<details><summary>{self.t('history')}</summary>"
                              f"<ol style='font-size:14px'>{items}</ol></details>") if past else ""
        self.exercises.redraw()
