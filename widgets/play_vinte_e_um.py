"""Play 21 with chips against bots: you hold seat 0, as a player or as the banker, with the
bank rotation mode of your choice. Every legal move comes from the engine as a button.

Bounded work (see widgets.pacing): each click lets the bots make at most `max_bot_steps`
moves; when they stop there a "Continue" button (class cartas-continue) lets them go on.
When your seat can never act again (`state.seat_is_out(0)`: no chips, no stake, not the
banker) the game is over for you: the bots stop and the status says so (data-turn="out").
The status's data-turn is "you", "bot", "paused", "out" or "over"."""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import make_rng
from cartas.vinte_e_um import ROTATIONS, SensibleBot, describe_action, new_game, rotation_label

from .base import View
from .pacing import HUMAN, BotPacing, pace_from_query
from .vinte_e_um_table import table_html

TEXT = {
    "title": {"pt": "Jogar 21", "en": "Play 21"},
    "role": {"pt": "Você joga como", "en": "You play as"},
    "player": {"pt": "Jogador", "en": "Player"},
    "banker": {"pt": "Banca", "en": "Banker"},
    "rotation": {"pt": "Rodízio", "en": "Rotation"},
    "players": {"pt": "Participantes", "en": "Participants"},
    "new": {"pt": "Jogar de novo", "en": "Play again"},
    "your_turn": {"pt": "Rodada {round}: sua vez.", "en": "Round {round}: your turn."},
    "waiting": {"pt": "Rodada {round}: jogador {seat} pensando...",
                "en": "Round {round}: seat {seat} is thinking..."},
    "over": {"pt": "Fim de jogo. Suas fichas: {chips}. {result}",
             "en": "Game over. Your chips: {chips}. {result}"},
    "you_won": {"pt": "Você venceu!", "en": "You won!"},
    "you_lost": {"pt": "Vencedor: jogador {seats}.", "en": "Winner: seat {seats}."},
    "log": {"pt": "O que aconteceu", "en": "What happened"},
    "chips": {"pt": "Suas fichas: {chips}", "en": "Your chips: {chips}"},
    "out": {"pt": "Você ficou sem fichas: o jogo acabou para você. {result}",
            "en": "You have no chips left: the game is over for you. {result}"},
    "leader": {"pt": "Na frente: jogador {seats}.", "en": "Leading: seat {seats}."},
    "paused": {"pt": "Rodada {round}: os outros jogadores fizeram {steps} lances. Continuar?",
               "en": "Round {round}: the other seats made {steps} moves. Go on?"},
    "continue": {"pt": "Continuar", "en": "Continue"},
}


class PlayVinteEUm(BotPacing, View):
    """Whole rounds of 21 against SensibleBots; `state` may start it from a scenario."""

    TEXT = TEXT

    def __init__(self, players: int = 4, role: str = "player", rotation: str = "rounds",
                 seed=None, lang=None, delay=None, state=None, rounds: int = 10):
        super().__init__(lang=lang)
        self.rng = make_rng(seed)
        self.delay = pace_from_query() if delay is None else delay
        self.rounds = rounds
        self.role = w.ToggleButtons(options=[("Jogador", "player"), ("Banca", "banker")],
                                    value=role).add_class("cartas-role")
        self.rotation = w.Dropdown(options=self._rotation_options(), value=rotation,
                                   layout=w.Layout(width="360px")).add_class("cartas-rotation")
        self.players = w.BoundedIntText(value=players, min=3, max=12,
                                        layout=w.Layout(width="200px")).add_class("cartas-players")
        self.again = w.Button(button_style="primary").add_class("cartas-again")
        self.go_on = w.Button(layout=w.Layout(width="auto")).add_class("cartas-continue")
        self.go_on.on_click(self.guarded(lambda _: self.continue_bots()))
        self.status = w.HTML().add_class("cartas-status")
        self.table = w.HTML().add_class("cartas-table-box")
        self.actions = w.HBox(layout=w.Layout(flex_flow="row wrap")).add_class("cartas-actions")
        self.log_box = w.HTML().add_class("cartas-log")
        self.again.on_click(self.guarded(lambda _: self.new_game()))
        self.children = [
            self.header(),
            w.HBox([self.role, self.players]), w.HBox([self.rotation, self.again]),
            self.status, self.message, self.table, self.actions, self.go_on, self.log_box,
        ]
        if state is not None:
            self.start(state)
        else:
            self.new_game()

    def _rotation_options(self):
        return [(rotation_label(r, self.lang), r) for r in ROTATIONS]

    # Game flow ---------------------------------------------------------------------------
    def new_game(self) -> None:
        """A new game with the chosen role, rotation and number of participants."""
        players = self.players.value
        banker = HUMAN if self.role.value == "banker" else 1
        self.start(new_game(players, seed=self.rng, banker=banker, rotation=self.rotation.value,
                            rounds=self.rounds))  # the engine picks the table's ace for the rotation

    def start(self, state) -> None:
        self.state = state
        self.bots = {s: SensibleBot(seed=int(self.rng.integers(2**31))) for s in range(state.players)}
        self._run_bots(paced=False)

    def act(self, action) -> None:
        """Apply your move, then let the bots play at a pace a person can follow."""
        self.state.apply_action(action, HUMAN)
        self._run_bots(paced=True)

    def _bot_move(self, seat: int) -> None:
        self.state.apply_action(self.bots[seat].choose(self.state.view(seat)), seat)

    def _human_out(self) -> bool:
        return self.state.seat_is_out(HUMAN)

    def legal(self):
        if self._human_out():
            return []
        return self.state.view(HUMAN).legal_actions()

    # Drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        state = self.state
        self.draw_title()
        self.role.description = self.t("role")
        self.players.description = self.t("players")
        self.rotation.description = self.t("rotation")
        labels = {"player": self.t("player"), "banker": self.t("banker")}
        self.role.options = [(labels[k], k) for k in ("player", "banker")]
        current = self.rotation.value
        self.rotation.options = self._rotation_options()
        self.rotation.value = current
        self.again.description = self.t("new")
        self.table.value = table_html(state, self.lang, viewer=HUMAN)
        self._draw_status()
        self._draw_actions()
        lines = [state.narrate(e, self.lang) for e in state.view(HUMAN).events[-120:]]
        self.log_box.value = (f"<b>{self.t('log')}</b><div style='max-height:220px;overflow-y:auto;"
                              f"font-size:14px;border:1px solid #ddd;padding:4px 8px'>"
                              + "".join(f"<div class='cartas-log-line'>{escape(x)}</div>"
                                        for x in reversed(lines)) + "</div>")

    def _draw_status(self) -> None:
        state = self.state
        if state.is_terminal():
            result = (self.t("you_won") if state.winner == HUMAN
                      else self.t("you_lost", seats=", ".join(map(str, state.winners or [state.winner]))))
            text, turn = self.t("over", chips=state.chips[HUMAN], result=result), "over"
        elif self._human_out():
            best = max(state.chips)
            leaders = ", ".join(str(s) for s in range(state.players) if state.chips[s] == best)
            text, turn = self.t("out", result=self.t("leader", seats=leaders)), "out"
        elif state.current_seat == HUMAN:
            text, turn = self.t("your_turn", round=state.round_number), "you"
        elif self.bots_paused and not self._busy:
            text = self.t("paused", round=state.round_number, steps=self.bot_steps)
            turn = "paused"
        else:
            text, turn = self.t("waiting", round=state.round_number, seat=state.current_seat), "bot"
        chips = self.t("chips", chips=state.chips[HUMAN])
        self.go_on.description = self.t("continue")
        self.go_on.layout.display = None if turn == "paused" else "none"
        # data-turn and data-step let a browser test wait until the bots have finished moving.
        self.status.value = (f"<div data-turn='{turn}' data-step='{len(state.events)}' "
                             f"style='font-size:18px;margin:4px 0'>{escape(text)} "
                             f"<span class='cartas-my-chips' style='color:#555'>{escape(chips)}</span></div>")

    def _draw_actions(self) -> None:
        buttons = []
        for action in ([] if self._busy else self.legal()):
            button = w.Button(description=describe_action(action, self.lang),
                              layout=w.Layout(width="auto")).add_class("cartas-act")
            button.add_class(f"cartas-act-{action.kind}")
            button.on_click(self.guarded(lambda _, a=action: self.act(a)))
            buttons.append(button)
        self.actions.children = buttons
