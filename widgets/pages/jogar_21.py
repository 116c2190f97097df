"""Play 21 with chips against bots: you hold seat 0, as a player or as the banker, with the
bank rotation mode of your choice. Every legal move comes from the engine as a button.

Bounded work (see widgets.components.pacing): each click lets the bots make at most `max_bot_steps`
moves; when they stop there a "Continue" button (class cartas-continue) lets them go on.
When your seat can never act again (`state.seat_is_out(0)`: no chips, no stake, not the
banker) the game is over for you: the bots stop and the status says so (data-turn="out").
The status's data-turn is "you", "bot", "paused", "out" or "over".

Decided here (the view's, not the rules'):

- The table's rules line (class cartas-rules) states the ace rule and the rounds left
  (the round in play counted; "no limit" when the game plays until one seat is left).
- Amounts (a bet, a bid or an offer for the bank) are typed in one number field per kind
  (class cartas-amount-<kind>, bounded by the legal amounts) with its submit button
  (cartas-act-<kind>); every other legal move is a button of its own.
- The coach ("Dica", class cartas-hint-button): hit or stand for a player, draw or call for
  the banker, from `cartas.coach.vinte_e_um.advise_view` (exact odds). Each such decision is
  kept with its view; the review (cartas-review, shown by itself at the end) lists those
  that went against the advice, judged when asked, with the odds of that moment. At most
  `MAX_DECISIONS` are kept.
- `?semente=N` (`widgets.components.params.seed`) seeds the deals and the bots: the same link
  plays the same game as long as the learner makes the same moves. Without it, or refused,
  the seed is drawn at random.
- The bots' level ("Nível dos robôs", class cartas-level: the engine's `LEVELS`, "Médio" by
  default) makes every bot at the table. A change takes effect from the next game ("Jogar de
  novo"), never in the middle of one (the rounds under way go on with the bots they started
  with, as a learner expects); the page says so beside the chooser (class cartas-level-note)
  until the next game starts. The table names each bot with its level ("Assento 1 (robô, Forte)").
- `?nivel=forte` (`widgets.components.params.level`: a level's key or its name in either
  language, any case, accents optional) sets the chooser's starting level, so a teacher's link
  opens with the bots she chose; refused (unknown, too long, control characters, given twice),
  the page says so under its title and the bots play at "Médio".
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import lazy_rng
from cartas.vinte_e_um import ROTATIONS, Action, describe_action, new_game, rotation_label
from widgets.components.base import View
from widgets.components.coaching import REVIEW_TEXT, note_html, review_html
from widgets.components.i18n import HOMEWORK_PARAM, query_parameters
from widgets.components.later import after_paint
from widgets.components.log import log_html
from widgets.components.pacing import (
    HUMAN,
    LEVEL_TEXT,
    BotPacing,
    bot_names,
    draw_level_chooser,
    level_chooser,
    level_from_query,
    make_bots,
    pace_from_query,
)
from widgets.draw.vinte_e_um_table import table_html

TEXT = {
    "title": {"pt": "Jogar 21", "en": "Play 21"},
    "role": {"pt": "Você joga como", "en": "You play as"},
    "player": {"pt": "Jogador", "en": "Player"},
    "banker": {"pt": "Banca", "en": "Banker"},
    "rotation": {"pt": "Rodízio", "en": "Rotation"},
    "players": {"pt": "Participantes", "en": "Participants"},
    "new": {"pt": "Jogar de novo", "en": "Play again"},
    "your_turn": {"pt": "Rodada {round}: sua vez.", "en": "Round {round}: your turn."},
    "waiting": {"pt": "Rodada {round}: assento {seat} pensando...",
                "en": "Round {round}: seat {seat} is thinking..."},
    "over": {"pt": "Fim de jogo. Suas fichas: {chips}. {result}",
             "en": "Game over. Your chips: {chips}. {result}"},
    "you_won": {"pt": "Você venceu!", "en": "You won!"},
    "you_lost": {"pt": "Vencedor: assento {seats}.", "en": "Winner: seat {seats}."},
    "log": {"pt": "O que aconteceu", "en": "What happened"},
    "chips": {"pt": "Suas fichas: {chips}", "en": "Your chips: {chips}"},
    "out": {"pt": "Você ficou sem fichas: o jogo acabou para você. {result}",
            "en": "You have no chips left: the game is over for you. {result}"},
    "leader": {"pt": "Na frente: assento {seats}.", "en": "Leading: seat {seats}."},
    "end_out": {"pt": "Acabou para você: sem fichas, você não joga mais nesta partida (rodada {round}).",
                "en": "It is over for you: with no chips you cannot play on in this game (round {round})."},
    "end_over": {"pt": "A partida terminou.", "en": "The game has ended."},
    "end_chips": {"pt": "Fichas no fim: {chips}.", "en": "Chips at the end: {chips}."},
    "end_seat": {"pt": "assento {seat}: {n}", "en": "seat {seat}: {n}"},
    "paused": {"pt": "Rodada {round}: os outros jogadores fizeram {steps} lances. Continuar?",
               "en": "Round {round}: the other seats made {steps} moves. Go on?"},
    "continue": {"pt": "Continuar", "en": "Continue"},
    "ace_1": {"pt": "Nesta mesa o ás vale 1.", "en": "At this table an ace counts 1."},
    "ace_11": {"pt": "Nesta mesa o ás vale 11.", "en": "At this table an ace counts 11."},
    "ace_flexible": {"pt": "Nesta mesa o ás vale 1 ou 11, o que for melhor.",
                     "en": "At this table an ace counts 1 or 11, whichever is better."},
    "rounds_left": {"pt": "Rodada {round} de {rounds}: {left}.", "en": "Round {round} of {rounds}: {left}."},
    "left_one": {"pt": "esta é a última", "en": "this is the last one"},
    "left_many": {"pt": "faltam {n} rodadas, contando esta", "en": "{n} rounds left, this one included"},
    "rounds_open": {"pt": "Rodada {round}: sem limite de rodadas, até sobrar quem possa apostar.",
                    "en": "Round {round}: no limit of rounds, until nobody can bet against the bank."},
    "amount_bet": {"pt": "Apostar", "en": "Bet"},
    "amount_bid": {"pt": "Dar o lance", "en": "Bid"},
    "amount_offer": {"pt": "Oferecer", "en": "Offer"},
    "chips_field": {"pt": "Fichas ({low} a {high})", "en": "Chips ({low} to {high})"},
    "hint": {"pt": "Dica", "en": "Hint"},
    "hint_wait": {"pt": "A dica é para pedir ou parar, e para a banca comprar ou chamar: ela vem nessa hora.",
                  "en": "The hint is for hitting or standing, and for the banker's draw or call: it comes then."},
    "review_empty": {"pt": "Você ainda não pediu, parou, comprou nem chamou nesta partida.",
                     "en": "You have not hit, stood, drawn or called in this game yet."},
    "miss": {"pt": "Rodada {round}: você {did} com {points}. Dica: {advice}",
             "en": "Round {round}: you {did} on {points}. Hint: {advice}"},
    "did_hit": {"pt": "pediu", "en": "hit"},
    "did_stand": {"pt": "parou", "en": "stood"},
    "did_draw": {"pt": "comprou", "en": "drew"},
    "did_call": {"pt": "chamou", "en": "called"},
}
AMOUNT_KINDS = ("bet", "bid", "offer")  # moves that carry a number of chips
MAX_DECISIONS = 400


class PlayVinteEUm(BotPacing, View):
    """Whole rounds of 21 against SensibleBots; `state` may start it from a scenario."""

    TEXT = {**TEXT, **REVIEW_TEXT, **LEVEL_TEXT}

    def __init__(self, players: int = 4, role: str = "player", rotation: str = "rounds",
                 seed=None, lang=None, delay=None, state=None, rounds: int = 10, level=None):
        super().__init__(lang=lang)
        if seed is None and state is None:  # ?semente=: the same link deals the same game
            from widgets.components.params import seed as seed_param
            seed = self.from_url(seed_param(fallback="game_seed"))
        self._rng = lazy_rng(seed)  # numpy loads with the deal, right after the page (widgets.components.later)
        self.state = None
        self.delay = self.from_url(pace_from_query()) if delay is None else delay
        self.rounds = rounds
        self.role = w.ToggleButtons(options=[("Jogador", "player"), ("Banca", "banker")],
                                    value=role).add_class("cartas-role")
        self.rotation = w.Dropdown(options=self._rotation_options(), value=rotation,
                                   layout=w.Layout(width="360px")).add_class("cartas-rotation")
        self.players = w.BoundedIntText(value=players, min=3, max=12, style={"description_width": "initial"},
                                        layout=w.Layout(width="200px")).add_class("cartas-players")
        self.again = w.Button(button_style="primary").add_class("cartas-again")
        self.level = level_chooser(self.from_url(level_from_query()) if level is None else level)  # ?nivel=
        self.bot_level = self.level.value  # the level of the bots in play
        self.level_note = w.HTML().add_class("cartas-level-note")
        self.level.observe(self.guarded(lambda _: self._draw_level()), names="value")
        self._draw_level()  # labelled at open, before the first deal
        self.go_on = w.Button(layout=w.Layout(width="auto")).add_class("cartas-continue")
        # the end of the game for the learner, in plain view beside a new game's button
        self.end_text = w.HTML().add_class("cartas-end-text")
        self.end_again = w.Button(button_style="primary", layout=w.Layout(width="auto")).add_class("cartas-end-again")
        self.end_again.on_click(self.guarded(lambda _: self.new_game()))
        self.end_box = w.VBox([self.end_text, self.end_again], layout=w.Layout(display="none")).add_class("cartas-end")
        self.go_on.on_click(self.guarded(lambda _: self.continue_bots()))
        self.status = w.HTML().add_class("cartas-status")
        self.table = w.HTML().add_class("cartas-table-box")
        self.rules = w.HTML().add_class("cartas-rules")
        self.actions = w.HBox(layout=w.Layout(flex_flow="row wrap")).add_class("cartas-actions")
        self._amount_rows: dict[str, tuple] = {}
        self._move_buttons: dict[str, w.Button] = {}
        self._amount_row("bet")   # a player's first move: drawn with the page, not after it
        self.hint_button = w.Button(button_style="info", icon="lightbulb-o",
                                    layout=w.Layout(width="auto")).add_class("cartas-hint-button")
        self.review_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-review-button")
        self.hint_box = w.HTML().add_class("cartas-hint")
        self.review_box = w.HTML().add_class("cartas-review")
        self.log_box = w.HTML().add_class("cartas-log")
        self.decisions: list[dict] = []
        self._said = 0  # events already announced (widgets.components.announce)
        self.again.on_click(self.guarded(lambda _: self.new_game()))
        self.hint_button.on_click(self.guarded(lambda _: self.hint()))
        self.review_button.on_click(self.guarded(lambda _: self.review()))
        self.children = [
            self.header(),
            w.HBox([self.role, self.players]), w.HBox([self.rotation, self.again]),
            w.HBox([self.level, self.level_note], layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.rules, self.status, self.end_box, self.message, self.actions,
            w.HBox([self.hint_button, self.review_button]), self.hint_box, self.table,
            self.go_on, self.review_box, self.log_box,
        ]
        # a homework's link of older versions (?tarefa=ID&item=N): its games are played on the
        # homework's page, dealt by the store; the notice says so (widgets.components.params.homework_game)
        if HOMEWORK_PARAM in query_parameters():
            from widgets.components.params import homework_game
            self.from_url(homework_game())
        if state is not None:
            self.start(state)  # a scenario's state: the engine is loaded already
        else:
            after_paint(self.guarded(self.new_game))

    @property
    def rng(self):
        """The seeded Generator of the deals and the bots' seeds."""
        return self._rng()

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
        self.bot_level = self.level.value
        # a seed drawn for every seat, the learner's too, as always: a seeded link deals the same game
        self.bots = make_bots("21", range(state.players), self.bot_level, self.rng)
        self.decisions = []
        self.hint_box.value = self.review_box.value = ""
        self._run_bots(paced=False)

    def act(self, action) -> None:
        """Apply your move (kept for the review when the coach advises it), then let the bots
        play at a pace a person can follow."""
        view = self.state.view(HUMAN)
        self.state.apply_action(action, HUMAN)
        if action.kind in ("hit", "stand", "draw", "call") and len(self.decisions) < MAX_DECISIONS:
            self.decisions.append({"view": view, "kind": action.kind, "judged": False, "miss": None})
        self.hint_box.value = self.review_box.value = ""
        self._run_bots(paced=True, then=self._after_bots)

    def _after_bots(self) -> None:
        """When the bots have moved after the learner's move: the review, once the game is over
        for the learner."""
        if self.state.is_terminal() or self._human_out():
            self.review()

    def act_amount(self, kind: str, field) -> None:
        """Submit the number typed for `kind` ("bet", "bid", "offer"), if it is legal."""
        action = Action(kind, amount=int(field.value))
        if action not in self.legal():
            raise ValueError(self.t("chips_field", low=field.min, high=field.max))
        self.act(action)

    # The coach -----------------------------------------------------------------------------
    def hint(self) -> str:
        """Show the advice for the decision in front of you (hit/stand, draw/call)."""
        from cartas.coach.vinte_e_um import advise_view  # numpy and the odds: with the first hint

        advice = advise_view(self.state.view(HUMAN)) if self.legal() and not self._busy else None
        if advice is None:
            text = self.t("hint_wait")
            self.hint_box.value = self._note(text, "")
            return text
        text = advice.text(self.lang)
        self.hint_box.value = self._note(text, advice.action)
        return text

    @staticmethod
    def _note(text: str, action: str) -> str:
        return note_html(escape(text), action)

    def misses(self) -> list[dict]:
        """The kept decisions that went against the advice (judged now if not yet)."""
        out = []
        for d in self.decisions:
            if not d["judged"]:
                from cartas.coach.vinte_e_um import advise_view

                advice = advise_view(d["view"])
                d["miss"] = None if advice is None or advice.action == d["kind"] else advice
                d["judged"] = True
            if d["miss"] is not None:
                out.append(d)
        return out

    def review(self) -> str:
        """Show your hit/stand/draw/call decisions of this game that went against the advice."""
        items = [self.t("miss", round=d["view"].round_number, did=self.t("did_" + d["kind"]),
                        points=self._points(d["view"].points), advice=d["miss"].text(self.lang))
                 for d in self.misses()]
        self.review_box.value, text = review_html(self.t, len(self.decisions), items)
        return text

    def _points(self, n) -> str:
        from widgets.draw.vinte_e_um_table import points_text
        return points_text(n, self.lang)

    def _bot_move(self, seat: int) -> None:
        self.state.apply_action(self.bots[seat].choose(self.state.view(seat)), seat)

    def _human_out(self) -> bool:
        return self.state.seat_is_out(HUMAN)

    def legal(self):
        if self._human_out():
            return []
        return self.state.view(HUMAN).legal_actions()

    # Drawing -------------------------------------------------------------------------------
    def _draw_level(self) -> None:
        """The level chooser in the page's language, and the note saying when a new level comes."""
        draw_level_chooser(self.level, self.lang, self.t("level"))
        changed = self.level.value != self.bot_level
        self.level_note.value = (f'<span role="status">{escape(self.t("level_next", level=self.level.label))}</span>'
                                 if changed else "")

    def redraw(self) -> None:
        state = self.state
        if state is None:  # not dealt yet (see widgets.components.later)
            return
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
        self.hint_button.description = self.t("hint")
        self.review_button.description = self.t("review")
        self._draw_rules()
        self.table.value = table_html(state, self.lang, viewer=HUMAN,
                                      names=bot_names(self.bots, self.bot_level, self.lang))
        self._draw_level()
        self._draw_actions()
        events = state.view(HUMAN).events
        self._announce_moves(state, events)
        lines = [state.narrate(e, self.lang) for e in events[-120:]]
        self.log_box.value = log_html(self.t('log'), lines)
        self._draw_status()  # last, as in jogar_truco: a new step says all above is drawn

    def _announce_moves(self, state, events) -> None:
        """Say the moves since the last drawing, a line per event (the learner's and the bots':
        at most `announce.MAX_LINES`, the first of them and the latest); a new round or game
        starts again from its first event, a redraw in the other language says nothing."""
        from widgets.components.announce import bounded
        if len(events) < self._said:
            self._said = 0
        if len(events) > self._said:
            self.announce([state.narrate(e, self.lang) for e in bounded(events[self._said:])])
            self._said = len(events)

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
        self._draw_end(turn)
        self.go_on.description = self.t("continue")
        self.go_on.layout.display = None if turn == "paused" else "none"
        # data-turn and data-step let a browser test wait until the bots have finished moving.
        self.status.value = (f"<div data-turn='{turn}' data-step='{len(state.events)}' "
                             f"style='font-size:18px;margin:4px 0'>{escape(text)} "
                             f"<span class='cartas-my-chips' style='color:#555'>{escape(chips)}</span></div>")

    def _draw_end(self, turn: str) -> None:
        """When the game is over, or over for the learner (no chips: `seat_is_out`), a box
        under the status says so, with every seat's chips and a "Jogar de novo" button."""
        ended = turn in ("over", "out")
        self.end_box.layout.display = "" if ended else "none"
        self.end_again.description = self.t("new")
        if not ended:
            self.end_text.value = ""
            return
        state = self.state
        head = self.t("end_out", round=state.round_number) if turn == "out" else self.t("end_over")
        seats = ", ".join(self.t("end_seat", seat=s, n=n) for s, n in enumerate(state.chips))
        self.end_text.value = (f"<div role='status' data-end='{turn}' style='font-size:18px;font-weight:bold;"
                               f"background:#fff3e0;color:#4e342e;padding:8px 12px;border-radius:6px;margin:4px 0'>"
                               f"{escape(head)}<div style='font-size:15px;font-weight:normal'>"
                               f"{escape(self.t('end_chips', chips=seats))}</div></div>")

    def _draw_rules(self) -> None:
        state = self.state
        ace = state.ace if state.ace in (1, 11) else "flexible"
        if state.rounds is None:
            rounds = self.t("rounds_open", round=state.round_number)
        else:
            n = max(0, state.rounds - state.round_number + 1)
            left = self.t("left_one") if n == 1 else self.t("left_many", n=n)
            rounds = self.t("rounds_left", round=state.round_number, rounds=state.rounds, left=left)
        self.rules.value = (f"<div style='font-size:15px;color:#333' data-ace='{state.ace}' "
                            f"data-rounds-left='{'' if state.rounds is None else n}'>"
                            f"{escape(self.t('ace_' + str(ace)))} {escape(rounds)}</div>")

    def _draw_actions(self) -> None:
        """The learner's legal moves: a field and its button per amount kind, a button per other
        move. Each is made the first time it is offered and then kept, updated in place (a
        button's move never changes: "call 2" is always seat 2's call), so a game makes no
        widget after its first moves and a page drops none it would have to close."""
        widgets: list = []
        legal = [] if self._busy else self.legal()
        for kind in AMOUNT_KINDS:
            amounts = [a.amount for a in legal if a.kind == kind]
            if not amounts:
                continue
            field, submit, row = self._amount_row(kind)
            low, high = min(amounts), max(amounts)
            with field.hold_sync():
                field.max = max(high, field.max)   # widen first: min never passes max
                field.min = low
                field.max = high
                field.value = low
                field.description = self.t("chips_field", low=low, high=high)
            submit.description = self.t("amount_" + kind)
            widgets += [row, submit]
        for action in legal:
            if action.kind not in AMOUNT_KINDS:
                widgets.append(self._move_button(action))
        self.actions.children = widgets

    def _amount_row(self, kind: str) -> tuple:
        """The number field of `kind`, its submit button and the field beside its error slot."""
        found = self._amount_rows.get(kind)
        if found is None:
            field = w.BoundedIntText(value=0, min=0, max=0, style={"description_width": "initial"},
                                     layout=w.Layout(width="230px")).add_class(f"cartas-amount-{kind}")
            submit = w.Button(button_style="primary", layout=w.Layout(width="auto")).add_class("cartas-act")
            submit.add_class(f"cartas-act-{kind}")
            submit.on_click(self.guarded(lambda _, k=kind, f=field: self.act_amount(k, f), near=field))
            found = self._amount_rows[kind] = (field, submit, self.beside(field))
        return found

    def _move_button(self, action) -> w.Button:
        """The button of `action` (a move without an amount), in the page's language."""
        key = str(action)
        button = self._move_buttons.get(key)
        if button is None:
            button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-act")
            button.add_class(f"cartas-act-{action.kind}")
            button.on_click(self.guarded(lambda _, a=action: self.act(a)))
            self._move_buttons[key] = button
        button.description = describe_action(action, self.lang)
        return button
