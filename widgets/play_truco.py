"""Play a whole game of truco: you hold seat 0, a rule-based bot is your partner (seat 2),
two bots are the other team. The engine decides everything; this view only draws the table,
offers the legal moves as buttons and narrates the events."""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import Card, make_rng
from cartas.truco import explain_last_hand, explain_trick, new_game, seat_name, team_of
from cartas.truco.bots import RuleBot

from .base import View, variant_toggle
from .clickable import CardPicker
from .pacing import HUMAN, BotPacing, pace_from_query
from .svg import card_svg, cards_row
from .truco_table import table_html

TEXT = {
    "title": {"pt": "Jogar truco", "en": "Play truco"},
    "new": {"pt": "Jogar de novo", "en": "Play again"},
    "why": {"pt": "Por quê?", "en": "Why?"},
    "cover": {"pt": "Jogar coberta", "en": "Play face down"},
    "raise": {"pt": "Pedir {name} ({value})", "en": "Call {name} ({value})"},
    "raise_forbidden": {"pt": "Pedir truco (perde o jogo!)", "en": "Call truco (loses the game!)"},
    "raise_forbidden_tip": {
        "pt": "Na {name} ninguém pode pedir truco: a dupla que pede perde o jogo.",
        "en": "Nobody may call truco in the {name}: the team that calls loses the game."},
    "reraise": {"pt": "Aumentar: {name} ({value})", "en": "Raise: {name} ({value})"},
    "accept": {"pt": "Aceitar", "en": "Accept"},
    "run": {"pt": "Correr", "en": "Run"},
    "play_hand": {"pt": "Jogar a {name}", "en": "Play the {name}"},
    "run_hand": {"pt": "Correr da {name}", "en": "Run from the {name}"},
    "blind": {"pt": "{n}ª carta", "en": "card {n}"},
    "your_turn": {"pt": "Sua vez.", "en": "Your turn."},
    "answer": {"pt": "Pediram {name}: aceite, corra ou aumente.",
               "en": "They called {name}: accept, run or raise."},
    "decide": {"pt": "É {name}: veja as cartas do parceiro e decida se joga ou corre.",
               "en": "It is a {name}: see your partner's cards and decide to play or run."},
    "waiting": {"pt": "Assento {seat} pensando...", "en": "Seat {seat} is thinking..."},
    "won": {"pt": "Fim de jogo: sua dupla venceu, {a} x {b}!", "en": "Game over: your team won, {a} x {b}!"},
    "lost": {"pt": "Fim de jogo: a outra dupla venceu, {a} x {b}.",
             "en": "Game over: the other team won, {a} x {b}."},
    "last_trick": {"pt": "Última rodada", "en": "Last trick"},
    "log": {"pt": "O que aconteceu", "en": "What happened"},
    "nothing_yet": {"pt": "Ainda não houve rodada para explicar.",
                    "en": "There is no trick to explain yet."},
    "your_cards": {"pt": "Suas cartas (clique para jogar)", "en": "Your cards (click to play)"},
    "no_card": {"pt": "não há carta aí", "en": "no card there"},
    "not_your_card_turn": {"pt": "não é a sua vez de jogar uma carta",
                           "en": "it is not your turn to play a card"},
    "not_possible_now": {"pt": "isso não é possível agora", "en": "that is not possible now"},
}


class PlayTruco(BotPacing, View):
    """A whole game to 12 against bots; `state` may start it from a scenario."""

    TEXT = TEXT

    def __init__(self, variant="paulista", seed=None, lang=None, delay=None, state=None):
        super().__init__(lang=lang)
        self.rng = make_rng(seed)
        self.delay = pace_from_query() if delay is None else delay
        self.variant = variant_toggle(variant if state is None else state.variant)
        self.again = w.Button(button_style="primary").add_class("cartas-again")
        self.status = w.HTML().add_class("cartas-status")
        self.table = w.HTML().add_class("cartas-table-box")
        self.last_trick = w.HTML().add_class("cartas-last-trick")
        self.hand_title = w.HTML()
        self.hand_cards = CardPicker().add_class("cartas-hand-cards")
        self.cover = w.ToggleButton(value=False).add_class("cartas-cover")
        self.raise_button = w.Button(button_style="danger").add_class("cartas-raise")
        self.accept_button = w.Button(button_style="success").add_class("cartas-accept")
        self.run_button = w.Button(button_style="warning").add_class("cartas-run")
        self.play_hand_button = w.Button(button_style="success").add_class("cartas-play-hand")
        self.run_hand_button = w.Button(button_style="warning").add_class("cartas-run-hand")
        for b in (self.raise_button, self.accept_button, self.run_button, self.play_hand_button,
                  self.run_hand_button):
            b.layout.width = "210px"
        self.raise_button.layout.width = "240px"  # room for "Pedir truco (perde o jogo!)"
        self.why = w.Button().add_class("cartas-why")
        self.explanation = w.HTML().add_class("cartas-explanation")
        self.log_box = w.HTML().add_class("cartas-log")

        self.again.on_click(self.guarded(lambda _: self.new_game()))
        self.variant.observe(self.guarded(lambda _: self.new_game()), names="value")
        self.hand_cards.on_pick(self.guarded(self.play_card))
        self.raise_button.on_click(self.guarded(lambda _: self.act_kind("raise")))
        self.accept_button.on_click(self.guarded(lambda _: self.act_kind("accept")))
        self.run_button.on_click(self.guarded(lambda _: self.act_kind("run")))
        self.play_hand_button.on_click(self.guarded(lambda _: self.act_kind("play_hand")))
        self.run_hand_button.on_click(self.guarded(lambda _: self.act_kind("run_hand")))
        self.why.on_click(self.guarded(lambda _: self.explain()))

        self.children = [
            self.header(),
            w.HBox([self.variant, self.again]), self.status, self.message,
            w.HBox([self.table, self.last_trick]),
            self.hand_title, w.HBox([self.hand_cards, w.VBox([self.cover])]),
            w.HBox([self.raise_button, self.accept_button, self.run_button,
                    self.play_hand_button, self.run_hand_button]),
            w.HBox([self.why]), self.explanation, self.log_box,
        ]
        if state is not None:
            self.start(state)
        else:
            self.new_game()

    # Game flow ---------------------------------------------------------------------------
    def new_game(self) -> None:
        self.start(new_game(self.variant.value, self.rng))

    def start(self, state) -> None:
        """Play from `state` (a new game, or a scenario's state); bots move up to your turn."""
        self.state = state
        self.bots = {s: RuleBot(seed=int(self.rng.integers(2**31)))
                     for s in range(state.players) if s != HUMAN}
        self.explanation.value = ""
        self._run_bots(paced=False)

    def legal(self):
        return self.state.view(HUMAN).legal_actions()

    def play_card(self, index: int) -> None:
        """Play your index-th card (face down when 'cover' is on and allowed)."""
        legal = self.legal()
        view = self.state.view(HUMAN)
        if self.state.is_mao_de_ferro:
            chosen = next((a for a in legal if a.kind == "blind" and a.position == index), None)
        else:
            if index >= len(view.hand):
                raise ValueError(self.t("no_card"))
            card = view.hand[index]
            kind = "cover" if self.cover.value else "play"
            chosen = next((a for a in legal if a.kind == kind and a.card == card), None)
        if chosen is None:
            raise ValueError(self.t("not_your_card_turn"))
        self.act(chosen)

    def act_kind(self, kind: str) -> None:
        chosen = next((a for a in self.legal() if a.kind == kind), None)
        if chosen is None:
            raise ValueError(self.t("not_possible_now"))
        self.act(chosen)

    def act(self, action) -> None:
        """Apply your action, then let the bots play at a pace a person can follow."""
        self.state.apply_action(action, seat=HUMAN)
        self.cover.value = False
        self._run_bots(paced=True)

    def _bot_move(self, seat: int) -> None:
        self.state.apply_action(self.bots[seat].choose(self.state.view(seat)))

    # Why? ----------------------------------------------------------------------------------
    def explain(self) -> str:
        """Explain what happened last: a finished trick of the hand in play, or else how the
        last hand ended (its deciding trick, or who ran and what it paid)."""
        state = self.state
        tricks = [] if state.is_terminal() else state.tricks
        last = state.last_hand
        if tricks:
            text = explain_trick(tricks[-1], state.variant, state.vira, self.lang)
        elif last is not None:
            text = explain_last_hand(last, state.variant, self.lang)
        else:
            text = self.t("nothing_yet")
        self.explanation.value = (f"<div class='cartas-why-text' style='font-size:16px;background:#f3e5f5;"
                                  f"padding:6px 10px;border-radius:6px'>{escape(text)}</div>")
        return text

    # Drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        state = self.state
        view = state.view(HUMAN)
        variant = state.variant
        self.draw_title()
        self.again.description = self.t("new")
        self.why.description = self.t("why")
        self.cover.description = self.t("cover")
        self.table.value = table_html(view, self.lang)
        self._draw_last_trick()
        self._draw_status(view)
        self._draw_hand(view)
        self._draw_buttons(view, variant)
        lines = [state.narrate(e, self.lang) for e in view.events]
        self.log_box.value = (f"<b>{self.t('log')}</b><div style='max-height:220px;overflow-y:auto;"
                          f"font-size:14px;border:1px solid #ddd;padding:4px 8px'>"
                          + "".join(f"<div class='cartas-log-line'>{escape(x)}</div>"
                                    for x in reversed(lines[-80:])) + "</div>")

    def _draw_last_trick(self) -> None:
        trick = next((e for e in reversed(self.state.events) if e["type"] == "trick"), None)
        if trick is None:
            self.last_trick.value = ""
            return
        parsed = [None if c is None else Card.parse(c) for _, c in trick["plays"]]
        labels = [seat_name(s, self.lang) for s, _ in trick["plays"]]
        highlight = ["winner" if s == trick["winning_seat"] else None for s, _ in trick["plays"]]
        self.last_trick.value = (f"<div style='margin-left:10px'><b>{self.t('last_trick')}</b>"
                                 + cards_row(parsed, width=46, highlights=highlight, labels=labels,
                                             face_up=[c is not None for c in parsed]) + "</div>")

    def _draw_status(self, view) -> None:
        state = self.state
        name = state.variant.threshold_name
        if state.is_terminal():
            a, b = state.score
            key = "won" if state.winner == team_of(HUMAN) else "lost"
            text, colour = self.t(key, a=a, b=b), "#1b5e20" if key == "won" else "#b71c1c"
        elif state.current_seat != HUMAN:
            text, colour = self.t("waiting", seat=state.current_seat), "#555"
        elif state.phase == "answer":
            text, colour = self.t("answer", name=state.pending_raise["name"]), "#b71c1c"
        elif state.phase == "decide":
            text, colour = self.t("decide", name=name), "#0d47a1"
        else:
            text, colour = self.t("your_turn"), "#0d47a1"
        # data-turn and data-step let a browser test wait until the bots have finished moving.
        turn = "over" if state.is_terminal() else "you" if state.current_seat == HUMAN else "bot"
        self.status.value = (f"<div data-turn='{turn}' data-step='{len(state.events)}' "
                             f"style='font-size:18px;color:{colour};margin:4px 0'>{escape(text)}</div>")

    def _draw_hand(self, view) -> None:
        legal = view.legal
        playable = {a.card for a in legal if a.kind == "play"}
        blind = {a.position for a in legal if a.kind == "blind"}
        self.hand_title.value = f"<b>{self.t('your_cards')}</b>"
        cards = []
        for i, card in enumerate(view.hand):
            if card is None:  # mão de ferro: nobody sees their own cards
                cards.append({"svg": card_svg(None, width=84), "label": self.t("blind", n=i + 1),
                              "enabled": i in blind})
            else:
                ring = "manilha" if card in view.manilhas else None
                cards.append({"svg": card_svg(card, width=84, highlight=ring), "label": str(card),
                              "enabled": card in playable})
        self.hand_cards.cards = cards
        self.cover.layout.display = None if any(a.kind == "cover" for a in legal) else "none"

    def _draw_buttons(self, view, variant) -> None:
        legal = {a.kind: a for a in view.legal}
        name = variant.threshold_name
        raise_action = legal.get("raise")
        self.raise_button.tooltip = ""
        if raise_action is not None and self.state.raise_forbidden:  # legal, but it loses
            self.raise_button.description = self.t("raise_forbidden")
            self.raise_button.tooltip = self.t("raise_forbidden_tip", name=name)
        elif raise_action is not None:
            key = "reraise" if view.phase == "answer" else "raise"
            self.raise_button.description = self.t(key, name=variant.raise_name(raise_action.value),
                                                   value=raise_action.value)
        self.accept_button.description = self.t("accept")
        self.run_button.description = self.t("run")
        self.play_hand_button.description = self.t("play_hand", name=name)
        self.run_hand_button.description = self.t("run_hand", name=name)
        for kind, button in (("raise", self.raise_button), ("accept", self.accept_button),
                             ("run", self.run_button), ("play_hand", self.play_hand_button),
                             ("run_hand", self.run_hand_button)):
            button.layout.display = None if kind in legal and not self._busy else "none"
