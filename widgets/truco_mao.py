"""The deal stepper: one truco hand step by step, from the shuffle to the last trick.

The engine deals and four seeded RuleBots play the first hand of `new_game(variant, seed)`;
the stepper turns the engine's events into steps (the deal card by card, the vira and the
manilhas, every play, raise and trick) and narrates each with the engine's `narrate` and
`explain_trick`. Forward, back and restart only move an index; a seed replays the same deal.
"""
from __future__ import annotations

import ipywidgets as w

from cartas.cards import Card, make_rng
from cartas.truco import (deal_order, explain_trick, get_variant, hand_events, is_manilha,
                          narrate, new_game, pack_left, trick_winning_seat)
from cartas.truco.bots import RuleBot

from .base import View
from .truco_quiz import Exercises, Question, both
from .truco_table import Table, table_html

TEXT = {
    "title": {"pt": "A mão passo a passo", "en": "A hand step by step"},
    "seed": {"pt": "Semente", "en": "Seed"},
    "deal": {"pt": "Dar as cartas", "en": "Deal"},
    "restart": {"pt": "↺ Recomeçar", "en": "↺ Restart"},
    "back": {"pt": "◀ Voltar", "en": "◀ Back"},
    "forward": {"pt": "Avançar ▶", "en": "Forward ▶"},
    "counter": {"pt": "Passo {n} de {total}", "en": "Step {n} of {total}"},
    "history": {"pt": "Até aqui", "en": "So far"},
}


def _seat(seat: int, lang: str) -> str:
    return f"assento {seat}" if lang == "pt" else f"seat {seat}"


def _nth(n: int, lang: str) -> str:
    return f"{n}ª" if lang == "pt" else ("first", "second", "third")[n - 1]


def play_first_hand(variant, seed: int):
    """A new game whose first hand RuleBots have played to the end; returns its events."""
    state = new_game(variant, seed)
    bots = [RuleBot(seed=seed * 4 + s) for s in range(4)]
    while state.last_hand is None:  # the engine keeps the finished hand, then deals on
        state.apply_action(bots[state.current_seat].choose(state))
    return hand_events(state.events, 1)


def _copy(table: Table, **changes) -> Table:
    return table.with_(hands=[list(h) for h in table.hands], trick=list(table.trick),
                       trick_results=list(table.trick_results), **changes)


def build_steps(variant, seed: int) -> list[dict]:
    """Every step of the first hand: {"table": Table, "text": {lang: sentence}, "highlight"}."""
    variant = get_variant(variant)
    events = play_first_hand(variant, seed)
    deal = events[0]
    dealer, mao = deal["dealer"], deal["mao"]  # the engine's facts, not recomputed
    table = Table(variant=variant, dealer=dealer, mao=mao, pack=pack_left(0), hand_number=1,
                  score=tuple(deal["score"]), mode=deal["mode"])
    steps = [{"table": _copy(table), "highlight": {}, "text": both(
        f"O {_seat(dealer, 'pt')} embaralha as {table.pack} cartas (semente {seed}).",
        f"{_seat(dealer, 'en').capitalize()} shuffles the {table.pack} cards (seed {seed}).")}]
    dealt = deal_order(dealer)
    for n, (seat, k) in enumerate(dealt):  # the cards as they leave the pack
        text = deal["hands"][seat][k]
        table = _copy(table, pack=pack_left(n + 1), current_seat=seat)
        table.hands[seat].append(Card.parse(text))
        steps.append({"table": table, "highlight": {text: "selected"}, "text": both(
            f"O {_seat(seat, 'pt')} recebe a {_nth(k + 1, 'pt')} carta: {text}.",
            f"{_seat(seat, 'en').capitalize()} gets the {_nth(k + 1, 'en')} card: {text}.")})
    vira = Card.parse(deal["vira"]) if deal["vira"] else None
    table = _copy(table, vira=vira, manilhas=tuple(Card.parse(c) for c in deal["manilhas"]),
                  pack=pack_left(len(dealt) + (1 if vira else 0)), current_seat=None,
                  hand_value=deal["value"])
    steps.append({"table": table, "highlight": {}, "text": _narrated(deal, variant)})
    new_trick = False
    for event in events[1:]:
        table = _copy(table, pack=0)
        kind = event["type"]
        highlight = {}
        text = _narrated(event, variant)
        if new_trick:
            table.trick, new_trick = [], False
        if kind == "play":
            table.hands[event["seat"]].remove(Card.parse(event["card"]))
            table.trick.append((event["seat"], None if event["covered"] else Card.parse(event["card"])))
            table.current_seat = event["seat"]
            text = _with_lead(text, table.trick, variant, vira)
        elif kind == "trick":
            table.trick_results.append(event["winner_team"])
            table.current_seat = None
            if event["card"]:
                highlight = {event["card"]: "winner"}
            plays = [(s, c) for s, c in event["plays"]]
            text = {lang: text[lang] + " " + explain_trick(plays, variant, vira, lang)
                    for lang in ("pt", "en")}
            new_trick = True
        elif kind == "raise":
            table.pending_raise = {"name": event["name"], "value": event["value"]}
            if event["reraise"]:  # raising again accepts the raise on the table
                table.hand_value = variant.run_pays(event["value"])
            table.current_seat = event["seat"]
        elif kind == "accept":
            table.pending_raise, table.hand_value = None, event["value"]
            table.current_seat = event["seat"]
        elif kind in ("run", "hand"):
            table.pending_raise = None
            table.current_seat = event.get("seat") if kind == "run" else None
            if kind == "hand":
                table.score = tuple(event["score"])
        steps.append({"table": table, "highlight": highlight, "text": text})
    return steps


def _with_lead(text: dict, trick, variant, vira) -> dict:
    """Add who is winning the trick so far, as the engine judges the cards on the table."""
    if len(trick) < 2:
        return text
    leader = trick_winning_seat(trick, variant, vira)
    seat = trick[-1][0]
    if leader == seat:
        note = both("e passa a ganhar a rodada.", "and takes the lead in the trick.")
    elif leader is None:
        note = both("A rodada está empatada até agora.", "The trick is tied so far.")
    else:
        note = both(f"Quem ganha até agora: o {_seat(leader, 'pt')}.",
                    f"Winning so far: {_seat(leader, 'en')}.")
    if leader == seat:  # continue the sentence: "joga 3♥ e passa...", "joga 7♥, a manilha..., e passa..."
        return {lang: text[lang].rstrip(".") + (", " if ", " in text[lang] else " ") + note[lang]
                for lang in text}
    return {lang: text[lang] + " " + note[lang] for lang in text}


def _narrated(event, variant) -> dict:
    return {lang: narrate(event, variant, lang) for lang in ("pt", "en")}


class DealStepper(View):
    """Step through the deal and the tricks of one hand, narrated by the engine."""

    TEXT = TEXT

    def __init__(self, variant="paulista", seed=None, lang=None):
        super().__init__(lang=lang)
        rng = make_rng(seed)
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
            w.HBox([self.variant, self.seed, self.deal_button]),
            w.HBox([self.restart_button, self.back_button, self.forward_button, self.counter]),
            self.message, self.narration, self.table, self.history, self.exercises,
        ]
        self.steps: list[dict] = []
        self.index = 0
        self.deal()

    # Actions ---------------------------------------------------------------------------
    def deal(self) -> None:
        """Build the steps of the hand for the chosen variant and seed, and go to the start."""
        self.steps = build_steps(self.variant.value, self.seed.value)
        self.go(0)

    def go(self, index: int) -> None:
        self.index = max(0, min(index, len(self.steps) - 1))
        self.redraw()

    # Exercises -------------------------------------------------------------------------
    def _question(self, rng) -> Question:
        variant = get_variant(self.variant.value)
        state = new_game(variant, int(rng.integers(1_000_000)))
        deal = state.events[0]
        if rng.random() < 0.5:
            return Question(
                both(f"O assento {state.dealer} dá as cartas. Quem é a mão, o primeiro a jogar?",
                     f"Seat {state.dealer} deals. Which seat leads (is the mão)?"),
                [(s, both(f"Assento {s}", f"Seat {s}")) for s in range(4)], state.mao,
                _narrated(deal, variant))
        cards = [c for h in state.hands for c in h][:4]
        manilha = state.manilhas[int(rng.integers(4))]
        if manilha not in cards:
            cards[int(rng.integers(4))] = manilha
        answers = [c for c in cards if is_manilha(c, variant, state.vira)]
        options = [(str(c), str(c)) for c in cards] + [("none", both("nenhuma", "none"))]
        where = both(f"A vira é {state.vira}.", f"The vira is {state.vira}.") if state.vira \
            else both("Truco Mineiro.", "Truco Mineiro.")
        return Question(
            {lang: f"{where[lang]} " + ("Qual destas cartas é manilha?" if lang == "pt"
                                        else "Which of these cards is a manilha?") for lang in ("pt", "en")},
            options, str(answers[0]) if answers else "none",
            both("As manilhas são " + ", ".join(deal["manilhas"]) + ".",
                 "The manilhas are " + ", ".join(deal["manilhas"]) + "."))

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
        past = [s["text"][self.lang] for s in self.steps[13:self.index]]
        items = "".join(f"<li>{p}</li>" for p in past[-8:])
        self.history.value = (f"<details><summary>{self.t('history')}</summary>"
                              f"<ol style='font-size:14px'>{items}</ol></details>") if past else ""
        self.exercises.redraw()
