"""A round of 21 step by step: bots play a seeded round; forward, back and restart walk
through it with the engine's narration, the table picture, the chips that move and the
odds of whoever is deciding.

Decided rules for the exercise: seeded questions of two kinds, taken in turn from rounds
played by bots: "should the banker draw or call?" and "should this player hit or stand?".
The answer is what the careful bot (`SensibleBot`) does there; only the first answer scores
and its verdict stays; the prompt never says what the bot chose.

The page opens without numpy: the view is drawn in the cell, and the round and the first
question are played right after it (`widgets.components.later.after_paint`), before the learner's browser
shows the widgets.
"""
from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

from cartas.cards import lazy_rng, make_rng
from cartas.questions import MAX_SEED, find_kind
from cartas.questions.vinte_e_um import bots_for, first_decision
from cartas.vinte_e_um import ALL, CATALOGUE, DRAW, HIT, narrate, new_game
from widgets.components.base import View, seed_field
from widgets.components.exercises import FirstAnswer, NoRepeats, belief_html
from widgets.components.i18n import from_catalogue, percent, translate
from widgets.components.later import after_paint, deal_from_seed
from widgets.draw.vinte_e_um_chart import odds_html
from widgets.draw.vinte_e_um_table import chips_svg, table_html

TEXT = {
    **from_catalogue(CATALOGUE, question="q_banker_decides", question_player="q_player_decides", draw="c_draw",
                     call="c_call", hit="c_hit", stand="c_stand", explain_draw="r_draw", explain_call="r_call",
                     explain_hit="r_hit", explain_stand="r_stand"),
    "title": {"pt": "21: a rodada passo a passo", "en": "21: the round step by step"},
    "seats": {"pt": "Participantes", "en": "Participants"},
    "seed": {"pt": "Semente", "en": "Seed"},
    "restart": {"pt": "« Recomeçar", "en": "« Restart"},
    "back": {"pt": "◀ Voltar", "en": "◀ Back"},
    "forward": {"pt": "Avançar ▶", "en": "Forward ▶"},
    "new_seed": {"pt": "Outra rodada", "en": "Another round"},
    "step": {"pt": "Passo {step} de {steps}", "en": "Step {step} of {steps}"},
    "viewer": {"pt": "Ver como", "en": "See as"},
    "view_turn": {"pt": "quem decide", "en": "the seat deciding"},
    "view_none": {"pt": "espectador", "en": "spectator"},
    "view_all": {"pt": "todas as cartas", "en": "every card"},
    "moves": {"pt": "Fichas que mudaram de lugar", "en": "Chips that moved"},
    "move": {"pt": "assento {src} → assento {dst}", "en": "seat {src} → seat {dst}"},
    "quiz": {"pt": "Exercício: comprar ou parar?", "en": "Exercise: one more card or not?"},
}
SKIPPED = ("game_start", "game_over")  # a lesson round is one round, not a game


def play_round(players: int, seed):
    """Bots play one round; returns the state after each action (index 0: the deal)."""
    state = new_game(players, seed=seed, rounds=1, rotation="permanent")
    bots = bots_for(players, seed)
    snapshots = [state.clone()]
    while not state.is_terminal():
        seat = state.current_seat
        assert seat is not None  # a round that is not over has a seat to act
        state.apply_action(bots[seat].choose(state.view(seat)), seat)
        snapshots.append(state.clone())
    return snapshots


class RoundStepper(View):
    """Walk through a seeded round played by bots, from 3 to 12 seats."""

    TEXT = TEXT

    def __init__(self, players: int = 5, seed: int | None = 1, lang=None, chart: bool = True):
        super().__init__(lang=lang)
        self._rng = lazy_rng(seed)  # numpy loads with the first round, right after the page
        self.block = FirstAnswer(self, "vinte_e_um_rodada")  # the rule, texts and marks of every exercise
        self.draws = NoRepeats(lambda q: (q[0], str(q[1].hands), str(q[1].current_seat)))
        self._seeds: dict[tuple, int] = {}  # each question drawn (its NoRepeats key) -> its own seed
        self.score = self.block.score
        self.chart = chart
        self.position = 0
        self.snapshots: list = []
        self.q_kind = "player"  # the first question is the banker's (kinds alternate)
        self.q_state: Any = None  # the question's state (a GameState), from the first question on

        self.seats = w.Dropdown(options=list(range(3, 13)), value=players,
                                layout=w.Layout(width="220px"),
                                style={"description_width": "initial"}).add_class("cartas-seats")
        self.seed = seed_field(self._rng, seed, width="200px", style={"description_width": "initial"})
        self.buttons = {key: w.Button(layout=w.Layout(width="130px")).add_class(f"cartas-{key.replace('_', '-')}")
                        for key in ("restart", "back", "forward", "new_seed")}
        self.step_label = w.HTML().add_class("cartas-step-count")
        self.viewer = w.ToggleButtons(options=[("", "turn"), ("", "none"), ("", "all")], value="turn",
                                      style={"button_width": "130px"}).add_class("cartas-viewer")
        self.table = w.HTML().add_class("cartas-table-box")
        self.narration = w.HTML().add_class("cartas-narration")
        self.moves = w.HTML().add_class("cartas-moves")
        self.odds = w.HTML().add_class("cartas-odds")

        self.quiz_title = w.HTML()
        self.question = w.HTML().add_class("cartas-question")
        self.quiz_table = w.HTML().add_class("cartas-quiz-table")
        self.draw_button = w.Button(layout=w.Layout(width="120px")).add_class("cartas-answer-draw")
        self.call_button = w.Button(layout=w.Layout(width="120px")).add_class("cartas-answer-call")
        self.feedback = self.block.feedback
        self.score_label = self.block.score_label
        self.next_button = self.block.next_button

        moves = {"restart": self.restart, "back": lambda: self.go(-1), "forward": lambda: self.go(1),
                 "new_seed": self.new_seed}
        for key, action in moves.items():
            self.buttons[key].on_click(self.guarded(lambda _, action=action: action()))
        self.seats.observe(self.guarded(lambda _: self.restart()), names="value")
        self.seed.observe(self.guarded(lambda _: self.restart(), near=self.seed), names="value")
        self.viewer.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.draw_button.on_click(self.guarded(lambda _: self.answer(True)))
        self.call_button.on_click(self.guarded(lambda _: self.answer(False)))
        self.next_button.on_click(self.guarded(lambda _: self.new_question()))

        b = self.buttons
        self.children = [
            self.header(),
            w.HBox([self.seats, self.beside(self.seed), b["new_seed"]]),
            w.HBox([b["restart"], b["back"], b["forward"], self.step_label]),
            self.viewer, self.message, self.narration, self.moves, self.table, self.odds,
            self.quiz_title, self.question, self.quiz_table,
            w.HBox([self.draw_button, self.call_button]), self.feedback,
            w.HBox([self.score_label, self.next_button]),
        ]
        self.redraw()  # the page: labels now, the round and the question right after
        after_paint(self.guarded(lambda: self._first_round(drawn_seed=seed is None), near=self.seed))

    @property
    def rng(self):
        """The seeded Generator of new seeds and questions."""
        return self._rng()

    def _first_round(self, drawn_seed: bool) -> None:
        """The round of the seed given, or of one drawn from the seeded rng (as `seed_field`
        would have), then the first question."""
        if drawn_seed:
            deal_from_seed(self.seed, self._rng, lambda: self.restart(redraw=False))
        else:
            self.restart(redraw=False)
        self.new_question(redraw=False)
        self.redraw()

    # Walking the round -------------------------------------------------------------------
    @property
    def state(self):
        return self.snapshots[self.position]

    def restart(self, redraw: bool = True) -> None:
        self.snapshots = play_round(self.seats.value, self.seed.value)
        self.position = 0
        if redraw:
            self.redraw()
            self._say_step()

    def new_seed(self) -> None:
        self.seed.value = int(self.rng.integers(10_000))  # its observer restarts the round

    def go(self, delta: int) -> None:
        self.position = max(0, min(len(self.snapshots) - 1, self.position + delta))
        self.redraw()
        self._say_step()

    def _say_step(self) -> None:
        """The live region says the step's events, as the chosen viewer knows them (cards in words)."""
        self.announce([narrate(e, self.lang) for e in self.step_events()])

    def step_events(self) -> list[dict]:
        """The events the current step produced, as the chosen viewer may know them."""
        state = self.state
        before = len(self.snapshots[self.position - 1].events) if self.position else 0
        log = state.view(self._viewer_seat()).events  # the engine hides what the viewer may not see
        return [e for e in log[before:] if e["type"] not in SKIPPED]

    def _viewer_seat(self):
        """The engine's viewer: a seat, None (a spectator) or ALL (every card)."""
        if self.viewer.value == "all":
            return ALL
        # "the seat deciding": whoever acts next (the odds panel's seat), else who acted last
        if self.viewer.value == "turn":
            seat = self.state.current_seat
            if seat is None and self.position:
                seat = self.snapshots[self.position - 1].current_seat
            return seat
        return None

    # The exercise ------------------------------------------------------------------------
    def new_question(self, redraw: bool = True) -> None:
        """The next question, kinds in turn: a banker choosing between draw and call, then a
        player choosing between hit and stand, each taken from a seeded round of 4 bots."""
        kind = "player" if self.q_kind == "banker" else "banker"
        phase, choice = ("banker", DRAW) if kind == "banker" else ("players", HIT)

        def make() -> tuple:
            """The registry's question of a seed of its own (cartas.questions.vinte_e_um:
            the first decision of a seeded round of 4 careful bots), kept whole when answered."""
            seed = int(self.rng.integers(MAX_SEED))
            rounds = make_rng(seed)
            while True:
                state = first_decision(4, int(rounds.integers(1_000_000)), phase, choice)
                if state is not None:
                    self._seeds[kind, str(state.hands), str(state.current_seat)] = seed
                    return kind, state

        self.q_kind, self.q_state = self.draws.draw(make)  # never the question just asked
        self.block.ask({True: self.draw_button, False: self.call_button})
        if redraw:
            self.redraw()

    @property
    def answered(self) -> bool:
        return self.block.answered

    @property
    def given(self) -> bool | None:
        """The answer given to this question (take a card or not), None before."""
        return self.block.chosen if self.block.answered else None

    def q_seat(self) -> int:
        """The seat the question is about: the banker, or the player whose turn it is."""
        seat = self.q_state.banker if self.q_kind == "banker" else self.q_state.current_seat
        assert seat is not None  # a question is taken where a seat decides
        return seat

    def should_take(self) -> bool:
        """True if the careful bot takes one more card (draws, hits) at the question."""
        from cartas.vinte_e_um import SensibleBot

        chosen = SensibleBot().choose(self.q_state.view(self.q_seat()))
        return chosen in (DRAW, HIT)

    def answer(self, take: bool) -> bool:
        """Answer `take` (draw/hit) or not (call/stand): the first answer scores, is marked and
        its verdict stays; later clicks change nothing (`widgets.components.exercises.FirstAnswer`)."""
        if self.answered:
            return bool(self.block.correct)
        should = self.should_take()
        from cartas.vinte_e_um import odds_for_view

        risk = odds_for_view(self.q_state.view(self.q_seat()))["bust"]
        key = {("banker", True): "explain_draw", ("banker", False): "explain_call",
               ("player", True): "explain_hit", ("player", False): "explain_stand"}[self.q_kind, should]
        seed = self._seeds.get((self.q_kind, str(self.q_state.hands), str(self.q_state.current_seat)))
        asked = None if seed is None else find_kind(f"vinte_e_um_rodada.{self.q_kind}").make_seeded(seed)

        def why(lang: str) -> str:
            told = escape(translate(TEXT, key, lang, p=percent(risk, lang)))
            belief = "" if asked is None else belief_html(asked, take, lang)
            return f"{belief} {told}" if belief else told
        correct = self.block.answer(take, should, why, skill="hit_or_stand",
                                    question=asked if asked is not None and asked.answer == should else None)
        self._draw_question()
        return correct

    # Drawing ---------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        self.seats.description = self.t("seats")
        self.seed.description = self.t("seed")
        for key, button in self.buttons.items():
            button.description = self.t(key)
        self.viewer.options = [(self.t("view_" + key), key) for key in ("turn", "none", "all")]
        self.viewer.description = self.t("viewer")
        if not self.snapshots:  # not dealt yet
            return
        self.step_label.value = (f"<span style='font-size:16px;margin-left:10px'>"
                                 f"{self.t('step', step=self.position + 1, steps=len(self.snapshots))}</span>")
        self.buttons["back"].disabled = self.position == 0
        self.buttons["forward"].disabled = self.position == len(self.snapshots) - 1
        events = self.step_events()
        self.narration.value = ("<div style='font-size:17px;background:#f5f5f5;padding:6px 10px;border-radius:6px'>"
                                + "".join(f"<div class='cartas-line'>{escape(narrate(e, self.lang))}</div>"
                                          for e in events) + "</div>")
        self._draw_moves(events)
        self.table.value = table_html(self.state, self.lang, self._viewer_seat())
        self.odds.value = odds_html(self.state, self.lang, chart=self.chart)[0]
        self._draw_question()

    def _draw_moves(self, events) -> None:
        pays = [e for e in events if e["type"] == "pay" and e["amount"]]
        bets = [e for e in events if e["type"] == "bet"]
        items = [f"<span class='cartas-move' style='margin-right:14px'>{self.t('move', src=e['from'], dst=e['to'])} "
                 f"{chips_svg(e['amount'], per_column=5, scale=0.8, kind='move')}</span>" for e in pays]
        items += [f"<span class='cartas-move' style='margin-right:14px'>{escape(narrate(e, self.lang))} "
                  f"{chips_svg(e['amount'], per_column=5, scale=0.8, kind='move')}</span>" for e in bets]
        self.moves.value = (f"<b>{self.t('moves')}</b><div style='display:flex;flex-wrap:wrap;align-items:flex-end'>"
                            f"{''.join(items)}</div>") if items else ""

    def _draw_question(self) -> None:
        if self.q_state is None:  # the first question comes with the first round
            return
        state, seat = self.q_state, self.q_seat()
        self.quiz_title.value = f"<h4 style='margin:12px 0 2px'>{self.t('quiz')}</h4>"
        if self.q_kind == "banker":
            waiting = ", ".join(str(s) for s in state.uncalled)
            text = self.t("question", banker=seat, points=state.points(seat), waiting=waiting)
            labels = ("draw", "call")
        else:
            text = self.t("question_player", seat=seat, points=state.points(seat),
                          upcard=state.hands[state.banker][1])
            labels = ("hit", "stand")
        self.question.value = f"<div style='font-size:17px' data-kind='{self.q_kind}'>{escape(text)}</div>"
        self.quiz_table.value = table_html(state, self.lang, viewer=seat, card_width=38)
        self.draw_button.description = self.block.label(True, self.t(labels[0]))
        self.call_button.description = self.block.label(False, self.t(labels[1]))
        self.block.redraw()
