"""Play a whole game of truco: you hold seat 0, a rule-based bot is your partner (seat 2),
two bots are the other team; or mano a mano, one against one, you against the bot of seat 1.
The engine decides everything; this view only draws the table, offers the legal moves as
buttons and narrates the events.

Decided here (how the learner plays for a team, not a rule of the game):

- Team decisions are the learner's. When the engine's seat to answer a raise, or to decide
  a mão de onze/dez, is the bot partner (the engine names one seat of the team), the learner
  answers for the team (`apply_action(action, HUMAN)`: the engine takes a partner's answer,
  docs/rules.md#truco-who-answers, and its events name the learner's seat, who answered): the
  team answers as one, and the learner never sees their partner run without being asked.
  Which team decides is the engine's (`team_of(current_seat)` in the "answer"/"decide"
  phases); the partner's own raises and cards stay the bot's.
- The coach ("Dica"): at each of the learner's decisions, the advice of `cartas.coach.truco`
  for it (whether to call truco and which card; accept, run or raise; play or run the mão de
  onze/dez): the strong player's choice (`cartas.truco.strong`, the "Forte" bots' one brain),
  with its reason and, for each option, the chance of taking the hand and the average points.
  Every decision is kept (its spot, what was done);
  the review ("Revisão", shown by itself at the end of the game) judges them with
  `cartas.coach.truco.judge` on demand, the same seed as the hint, so it says what the hint
  said. At most `MAX_DECISIONS` are kept (a game has far fewer).
- The hint, the review and the "why" explanation are cleared at each move of the learner:
  they speak of one moment and never linger into the next hand.
- `?semente=N` (`widgets.components.params.seed`) seeds the deals and the bots: the same link
  plays the same game as long as the learner makes the same moves ("Jogar de novo" goes on
  with the next deals of that seed). Without it, or refused, the seed is drawn at random.
- The bots' level ("Nível dos robôs", class cartas-level: the engine's `LEVELS`, "Médio" by
  default) makes all three bots, partner and opponents alike. A change takes effect from the
  next game ("Jogar de novo"), never in the middle of one: a learner expects the game under
  way to go on with the bots it started with, so the page says so beside the chooser
  (class cartas-level-note) until the next game starts. The table names each bot with the
  level it plays at ("Assento 1 (robô, Forte)").
- `?nivel=forte` (`widgets.components.params.level`: a level's key or its name in either
  language, any case, accents optional) sets the chooser's starting level, so a teacher's link
  opens with the bots she chose; refused (unknown, too long, control characters, given twice),
  the page says so under its title and the bots play at "Médio".
- Players ("Em duplas (4)" / "Mano a mano (2)", class cartas-players): the seat counts the
  engine's spec offers (`GameSpec.seat_counts`, docs/rules.md#mano-a-mano-players). A change
  deals a new game at once, as a change of variant does (a table of four cannot become one of
  two in the middle of a hand). `?jogadores=2` opens mano a mano
  (`widgets.components.params.players`); refused (3, words, too long, given twice) the page
  says so and deals for four. Mano a mano the texts speak of "you" and "the other player", not
  of teams, and the table draws the two face to face.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import Card, lazy_rng
from cartas.coach.truco import Miss, advise_answer, advise_play, advise_threshold, judge, spot_from_view
from cartas.truco import explain_last_hand, explain_trick, seat_name, team_of
from widgets.components.base import View, variant_toggle
from widgets.components.card_picker import CardPicker
from widgets.components.coaching import REVIEW_TEXT, note_html, review_html
from widgets.components.i18n import HOMEWORK_PARAM, number, percent, query_parameters
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
from widgets.draw.svg import card_name, card_svg, cards_row
from widgets.draw.truco_table import table_html

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
    "players_4": {"pt": "Em duplas (4)", "en": "In pairs (4)"},
    "players_2": {"pt": "Mano a mano (2)", "en": "One on one (2)"},
    "players_label": {"pt": "Jogadores", "en": "Players"},
    # mano a mano (two players): "you" and "the other player", never a team
    "decide_solo": {"pt": "É {name}: veja suas cartas e decida se joga ou corre.",
                    "en": "It is a {name}: look at your cards and decide to play or run."},
    "raise_forbidden_tip_solo": {
        "pt": "Na {name} ninguém pode pedir truco: quem pede perde o jogo.",
        "en": "Nobody may call truco in the {name}: whoever calls loses the game."},
    "won_solo": {"pt": "Fim de jogo: você venceu por {a} a {b}!", "en": "Game over: you won {a} to {b}!"},
    "lost_solo": {"pt": "Fim de jogo: o outro jogador venceu por {b} a {a}.",
                  "en": "Game over: the other player won {b} to {a}."},
    "won_over_solo": {"pt": "Fim de jogo: você venceu com {a} pontos contra {b}: a última mão valia {points} "
                            "e quem chega a {target} ou passa vence.",
                      "en": "Game over: you won with {a} points to {b}: the last hand was worth {points}, "
                            "and reaching {target} or more wins."},
    "lost_over_solo": {"pt": "Fim de jogo: o outro jogador venceu com {b} pontos contra {a}: a última mão valia "
                             "{points} e quem chega a {target} ou passa vence.",
                       "en": "Game over: the other player won with {b} points to {a}: the last hand was worth "
                             "{points}, and reaching {target} or more wins."},
    "won_forbidden_solo": {"pt": "Fim de jogo: você venceu porque o outro jogador pediu truco na {name} "
                                 "(placar: você {a}, ele {b}).",
                           "en": "Game over: you won because the other player called truco in the {name} "
                                 "(score: you {a}, them {b})."},
    "lost_forbidden_solo": {"pt": "Fim de jogo: o outro jogador venceu porque você pediu truco na {name} "
                                  "(placar: você {a}, ele {b}).",
                            "en": "Game over: the other player won because you called truco in the {name} "
                                  "(score: you {a}, them {b})."},
    "waiting": {"pt": "Assento {seat} pensando...", "en": "Seat {seat} is thinking..."},
    "won": {"pt": "Fim de jogo: sua dupla venceu por {a} a {b}!", "en": "Game over: your team won {a} to {b}!"},
    "lost": {"pt": "Fim de jogo: a outra dupla venceu por {b} a {a}.",
             "en": "Game over: the other team won {b} to {a}."},
    "won_over": {"pt": "Fim de jogo: sua dupla venceu com {a} pontos contra {b}: a última mão valia {points} "
                       "e quem chega a {target} ou passa vence.",
                 "en": "Game over: your team won with {a} points to {b}: the last hand was worth {points}, "
                       "and reaching {target} or more wins."},
    "lost_over": {"pt": "Fim de jogo: a outra dupla venceu com {b} pontos contra {a}: a última mão valia {points} "
                        "e quem chega a {target} ou passa vence.",
                  "en": "Game over: the other team won with {b} points to {a}: the last hand was worth {points}, "
                        "and reaching {target} or more wins."},
    "won_forbidden": {"pt": "Fim de jogo: sua dupla venceu porque a outra dupla pediu truco na {name} "
                            "(placar: sua dupla {a}, a outra {b}).",
                      "en": "Game over: your team won because the other team called truco in the {name} "
                            "(score: your team {a}, the other {b})."},
    "lost_forbidden": {"pt": "Fim de jogo: a outra dupla venceu porque sua dupla pediu truco na {name} "
                             "(placar: sua dupla {a}, a outra {b}).",
                       "en": "Game over: the other team won because your team called truco in the {name} "
                             "(score: your team {a}, the other {b})."},
    "team_answers": {"pt": "Pediram {name}: sua dupla responde. Aceite, corra ou aumente.",
                     "en": "They called {name}: your team answers. Accept, run or raise."},
    "hint": {"pt": "Dica", "en": "Hint"},
    "review_empty": {"pt": "Você ainda não decidiu nada nesta partida.",
                     "en": "You have not decided anything in this game yet."},
    "hint_wait": {"pt": "A dica vem na sua próxima decisão.", "en": "The hint comes at your next decision."},
    "hint_blind": {"pt": "Mão de ferro: ninguém vê as cartas, então não há dica.",
                   "en": "Mão de ferro: nobody sees the cards, so there is no hint."},
    "chance": {"pt": "Chance de levar a mão", "en": "Chance of taking the hand"},
    "average": {"pt": "pontos em média", "en": "points on average"},
    "opt_truco": {"pt": "pedir {call}", "en": "call {call}"},
    "opt_no_truco": {"pt": "não pedir", "en": "do not call"},
    "opt_accept": {"pt": "aceitar", "en": "accept"},
    "opt_run": {"pt": "correr", "en": "run"},
    "opt_raise": {"pt": "aumentar", "en": "raise again"},
    "opt_play_hand": {"pt": "jogar a mão", "en": "play the hand"},
    "opt_run_hand": {"pt": "correr da mão", "en": "run from the hand"},
    "opt_card": {"pt": "{card}", "en": "{card}"},
    "opt_cover": {"pt": "{card} coberta", "en": "{card} face down"},
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


MAX_DECISIONS = 400  # decisions kept for the review (a whole game has far fewer)


class PlayTruco(BotPacing, View):
    """A whole game to 12 against bots; `state` may start it from a scenario."""

    TEXT = {**TEXT, **REVIEW_TEXT, **LEVEL_TEXT}

    def __init__(self, variant="paulista", seed=None, lang=None, delay=None, state=None, level=None,
                 players=None):
        super().__init__(lang=lang)
        if seed is None and state is None:  # ?semente=: the same link deals the same game
            from widgets.components.params import seed as seed_param
            seed = self.from_url(seed_param(fallback="game_seed"))
        self._rng = lazy_rng(seed)  # numpy loads with the deal, right after the page (widgets.components.later)
        self.state = None
        self.delay = self.from_url(pace_from_query()) if delay is None else delay
        self.variant = variant_toggle(variant if state is None else state.variant)
        self.level = level_chooser(self.from_url(level_from_query()) if level is None else level)  # ?nivel=
        self.bot_level = self.level.value  # the level of the bots in play
        if players is None and state is None:  # ?jogadores=2: mano a mano
            from widgets.components.params import players as players_param
            players = self.from_url(players_param(self._seat_counts()))
        self.players = w.ToggleButtons(options=[("4", 4)], value=4, _dom_classes=("cartas-players",))
        self._draw_players(state.players if state is not None else players or 4)
        self.level_note = w.HTML().add_class("cartas-level-note")
        self._draw_level()  # labelled at open, before the first deal
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
            b.layout.width = "240px"  # room for "Pedir truco (perde o jogo!)"
        self.why = w.Button(layout=w.Layout(width="auto")).add_class("cartas-why")
        self.hint_button = w.Button(button_style="info", icon="lightbulb-o",
                                    layout=w.Layout(width="auto")).add_class("cartas-hint-button")
        self.review_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-review-button")
        self.hint_box = w.HTML().add_class("cartas-hint")
        self.review_box = w.HTML().add_class("cartas-review")
        self.explanation = w.HTML().add_class("cartas-explanation")
        self.log_box = w.HTML().add_class("cartas-log")
        self.decisions: list[dict] = []
        self._said = 0  # narration lines already announced (widgets.components.announce)
        self._hint_cache: tuple | None = None

        self.again.on_click(self.guarded(lambda _: self.new_game()))
        self.variant.observe(self.guarded(lambda _: self.new_game()), names="value")
        self.players.observe(self.guarded(self._players_changed), names="value")
        self.level.observe(self.guarded(lambda _: self._draw_level()), names="value")
        self.moves = w.VBox([self.raise_button, self.accept_button, self.run_button,
                             self.play_hand_button, self.run_hand_button])
        self.hand_cards.on_pick(self.guarded(self.play_card, near=self.moves))  # refusals under the cards
        self.raise_button.on_click(self.guarded(lambda _: self.act_kind("raise")))
        self.accept_button.on_click(self.guarded(lambda _: self.act_kind("accept")))
        self.run_button.on_click(self.guarded(lambda _: self.act_kind("run")))
        self.play_hand_button.on_click(self.guarded(lambda _: self.act_kind("play_hand")))
        self.run_hand_button.on_click(self.guarded(lambda _: self.act_kind("run_hand")))
        self.why.on_click(self.guarded(lambda _: self.explain()))
        self.hint_button.on_click(self.guarded(lambda _: self.hint()))
        self.review_button.on_click(self.guarded(lambda _: self.review()))

        # The learner's cards and buttons stand beside the table (it fits 1024 x 768).
        controls = w.VBox([
            self.hand_title, self.hand_cards, self.cover,
            self.beside(self.moves),
            w.HBox([self.hint_button, self.why, self.review_button],
                   layout=w.Layout(flex_flow="row wrap")),
            self.last_trick,
        ], layout=w.Layout(min_width="280px", margin="0 0 0 8px")).add_class("cartas-controls")
        self.children = [
            self.header(),
            w.HBox([self.variant, self.again]),
            self.players,
            w.HBox([self.level, self.level_note], layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.status, self.message,
            w.HBox([self.table, controls], layout=w.Layout(align_items="flex-start"),
                   _dom_classes=("cartas-table-and-controls",)),
            self.hint_box, self.explanation, self.review_box, self.log_box,
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

    # Game flow ---------------------------------------------------------------------------
    def new_game(self) -> None:
        from cartas.truco import new_game

        self.start(new_game(self.variant.value, self.rng, players=self.players.value))

    def _seat_counts(self) -> tuple[int, ...]:
        """The numbers of players the engine offers for this game (4, then 2 mano a mano)."""
        from cartas.games import find_game
        return find_game(self.variant.value).seat_counts

    def _draw_players(self, value=None) -> None:
        """The players' chooser in the page's language, at `value` (None: as it is); changing
        the labels never deals a new game (`_players_changed` sees no new value)."""
        value = self.players.value if value is None else value
        options = [(self.t(f"players_{n}"), n) for n in self._seat_counts()]
        self._drawing_players = True
        try:
            if list(self.players.options) != options:
                self.players.options = options
            self.players.value = value
        finally:
            self._drawing_players = False
        self.players.tooltips = [self.t("players_label")] * len(options)

    def _players_changed(self, change) -> None:
        """The learner chose another number of players: a new game at once (see the module)."""
        if getattr(self, "_drawing_players", False) or self.state is None:
            return
        if change["new"] != self.state.players:
            self.new_game()

    def _for_players(self, key: str) -> str:
        """The text key `key`, or its mano a mano form ("{key}_solo") in a game of two."""
        solo = f"{key}_solo"
        return solo if self.state is not None and self.state.players == 2 and solo in self.TEXT else key

    def start(self, state) -> None:
        """Play from `state` (a new game, or a scenario's state); bots move up to your turn."""
        self.state = state
        if self.players.value != state.players:  # a scenario's state: the chooser follows it
            self._draw_players(state.players)
        self.bot_level = self.level.value
        self.bots = make_bots(state.variant.key, [s for s in range(state.players) if s != HUMAN],
                              self.bot_level, self.rng)
        self.decisions = []
        self._clear_notes()
        self._run_bots(paced=False)

    def acting_seat(self) -> int | None:
        """The seat whose decision is the learner's now: their own seat on their turn, or the
        partner's seat when the engine asks it to answer a raise or decide a mão de onze/dez
        for the team (see the module docstring); None while the bots move."""
        state = self.state
        seat = state.current_seat
        if seat is None or state.is_terminal():
            return None
        if seat == HUMAN:
            return HUMAN
        if state.phase in ("answer", "decide") and team_of(seat) == team_of(HUMAN):
            return seat
        return None

    def bots_to_move(self) -> bool:
        return not self.state.is_terminal() and self.acting_seat() is None

    def legal(self):
        seat = self.acting_seat()
        return [] if seat is None else self.state.view(seat).legal_actions()

    def play_card(self, index: int) -> None:
        """Play your index-th card (face down when 'cover' is on and allowed)."""
        legal = self.legal()
        view = self.state.view(HUMAN)
        if self.state.is_mao_de_ferro:
            chosen = next((a for a in legal if a.kind == "blind" and a.position == index), None)
        else:
            if index is None or index >= len(view.hand):  # None: no card there (CardPicker.on_pick)
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
        """Apply your action (for the seat whose decision is yours), keep it for the review,
        then let the bots play at a pace a person can follow."""
        seat = self.acting_seat()
        if seat is None:
            raise ValueError(self.t("not_possible_now"))
        spot, hand = self._spot(seat), self.state.hand_number
        self.state.apply_action(action, seat=HUMAN)  # the learner answers, for the partner's seat too
        if len(self.decisions) < MAX_DECISIONS:
            self.decisions.append({"spot": spot, "action": action, "hand": hand,
                                   "judged": False, "miss": None})
        self.cover.value = False
        self._clear_notes()
        self._run_bots(paced=True, then=self._after_bots)

    def _after_bots(self) -> None:
        """When the bots have moved after the learner's action: the review, once the game is over."""
        if self.state.is_terminal():
            self.review()

    def _spot(self, seat: int):
        """The coach's spot for the decision in front of the learner (None in a mão de
        ferro, where nobody sees the cards)."""
        view = self.state.view(HUMAN)
        if self.state.is_mao_de_ferro or any(c is None for c in view.hand):
            return None
        return spot_from_view(view, legal=self.state.view(seat).legal)

    def _bot_move(self, seat: int) -> None:
        self.state.apply_action(self.bots[seat].choose(self.state.view(seat)))

    def _clear_notes(self) -> None:
        self.explanation.value = ""
        self.hint_box.value = ""
        self.review_box.value = ""

    # The coach -----------------------------------------------------------------------------
    def advice(self) -> list:
        """The coach's advice for the learner's decision now: [] when it is not theirs or
        in a mão de ferro; otherwise one Advice, or two in the play phase when calling
        truco is possible (truco first, then the card). Cached for the decision."""
        seat = self.acting_seat()
        if seat is None:
            return []
        key = (id(self.state), len(self.state.events))
        if self._hint_cache is not None and self._hint_cache[0] == key:
            return self._hint_cache[1]
        spot = self._spot(seat)
        if spot is None:
            out: list = []
        elif spot.deciding:
            out = [advise_threshold(spot)]
        elif spot.pending is not None:
            out = [advise_answer(spot)]
        else:
            out = advise_play(spot)  # one estimate for the turn: the raise and the card agree
        self._hint_cache = (key, out)
        return out

    def hint(self) -> str:
        """Show the advice for the decision in front of the learner; returns its text."""
        if self.acting_seat() is None:
            text = self.t("hint_wait")
            self.hint_box.value = note_html(escape(text))
            return text
        advice = self.advice()
        if not advice:
            text = self.t("hint_blind")
            self.hint_box.value = note_html(escape(text))
            return text
        lines = []
        for item in advice:
            chance = f"{self.t('chance')}: {self._percent(item.win)}"
            options = " · ".join(self._option(name, o, item.fields) for name, o in item.options.items())
            lines.append(f"<div class='cartas-hint-line' data-action='{item.action}'>"
                         f"<b>{escape(item.text(self.lang))}</b>"
                         f"<div style='font-size:13px;color:#333'>{escape(chance)} · {escape(options)}</div></div>")
        self.hint_box.value = note_html("".join(lines))
        return " ".join(item.text(self.lang) for item in advice)

    def _option(self, name: str, option: dict, fields: dict) -> str:
        """One weighed answer of the advice; a raise named as the engine names the one on offer
        (`fields["call"]`: truco, seis, nove...)."""
        if name.startswith(("play ", "cover ")):
            kind, card = name.split(" ", 1)
            label = self.t("opt_card" if kind == "play" else "opt_cover", card=card)
            return f"{label}: {self._percent(option['win'])} ({self._points(option['expected'])})"
        label = self.t("opt_" + name, call=fields.get("call", ""))
        return f"{label}: {self._points(option['expected'])} {self.t('average')}"

    def _percent(self, p: float) -> str:
        return percent(p, self.lang)

    def _points(self, x: float) -> str:
        """Average points, signed: "+1,25" in Portuguese, "+1.25" in English."""
        return ("+" if x >= 0 else "") + number(x, self.lang, 2)

    def misses(self) -> list[tuple[int, Miss]]:
        """(hand number, Miss) for each kept decision that went against the advice, judged
        now if it was not yet (the same seed as the hint: the review says what it said)."""
        out = []
        for d in self.decisions:
            if not d["judged"]:
                d["miss"] = None if d["spot"] is None else judge(d["spot"], d["action"])
                d["judged"] = True
            if d["miss"] is not None:
                out.append((d["hand"], d["miss"]))
        return out

    def review(self) -> str:
        """Show the learner's decisions of this game that went against the advice."""
        items = [m.text(self.lang, hand=h) for h, m in self.misses()]
        self.review_box.value, text = review_html(self.t, len(self.decisions), items)
        return text

    # Why? ----------------------------------------------------------------------------------
    def explain(self) -> str:
        """Explain what happened last: a finished trick of the hand in play, or else how the
        last hand ended (its deciding trick, or who ran and what it paid)."""
        state = self.state
        tricks = [] if state.is_terminal() else state.tricks
        last = state.last_hand
        if tricks:
            text = explain_trick(tricks[-1], state.variant, state.vira, self.lang, state.players)
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
        if state is None:  # not dealt yet (see widgets.components.later)
            return
        view = state.view(HUMAN)
        variant = state.variant
        legal = [] if self._busy else self.legal()
        self.draw_title()
        self.again.description = self.t("new")
        self.why.description = self.t("why")
        self.hint_button.description = self.t("hint")
        self.review_button.description = self.t("review")
        self.cover.description = self.t("cover")
        self.table.value = table_html(view, self.lang, compact=True,
                                      names=bot_names(self.bots, self.bot_level, self.lang))
        self._draw_level()
        self._draw_players()
        self._draw_last_trick()
        self._draw_hand(view, legal)
        self._draw_buttons(legal, variant)
        lines = [state.narrate(e, self.lang) for e in view.events]
        self._announce_moves(lines)
        self.log_box.value = log_html(self.t('log'), lines[-80:])
        # the status last: the page applies the kernel's updates in order, so once its step is
        # new, so are the cards, moves and log drawn above (a test waits on it, serving.SETTLED)
        self._draw_status()

    def _draw_level(self) -> None:
        """The level chooser in the page's language, and the note saying when a new level comes."""
        draw_level_chooser(self.level, self.lang, self.t("level"))
        changed = self.level.value != self.bot_level
        self.level_note.value = (f'<span role="status">{escape(self.t("level_next", level=self.level.label))}</span>'
                                 if changed else "")

    def _announce_moves(self, lines: list[str]) -> None:
        """Say the moves narrated since the last drawing (the learner's and the bots'); a new
        game starts again from its first line, and a redraw in the other language says nothing."""
        if len(lines) < self._said:
            self._said = 0
        if len(lines) > self._said:
            new = lines[self._said:]
            self.announce(new)  # a line per event: hers first, then the latest (announce.bounded)
            self._said = len(lines)

    def _draw_last_trick(self) -> None:
        trick = next((e for e in reversed(self.state.events) if e["type"] == "trick"), None)
        if trick is None:
            self.last_trick.value = ""
            return
        parsed = [None if c is None else Card.parse(c) for _, c in trick["plays"]]
        labels = [seat_name(s, self.lang) for s, _ in trick["plays"]]
        highlight = ["winner" if s == trick["winning_seat"] else None for s, _ in trick["plays"]]
        self.last_trick.value = (f"<div><b>{self.t('last_trick')}</b>"
                                 + cards_row(parsed, width=40, highlights=highlight, labels=labels,
                                             face_up=[c is not None for c in parsed], lang=self.lang) + "</div>")

    def final_text(self) -> str:
        """The end of the game as a person says it: who won and by how much, and why when it
        is not plain (a score past the target, or a truco called in a mão de onze/dez)."""
        state = self.state
        mine = team_of(HUMAN)
        a, b = state.score[mine], state.score[1 - mine]
        won = state.winner == mine
        last = state.last_hand or {}
        variant = state.variant
        if last.get("reason") == "forbidden_raise":
            key = "won_forbidden" if won else "lost_forbidden"
            return self.t(self._for_players(key), name=variant.threshold_name, a=a, b=b)
        if max(a, b) > variant.target:
            key = "won_over" if won else "lost_over"
            return self.t(self._for_players(key), a=a, b=b, points=last.get("points"), target=variant.target)
        return self.t(self._for_players("won" if won else "lost"), a=a, b=b)

    def _draw_status(self) -> None:
        state = self.state
        name = state.variant.threshold_name
        acting = self.acting_seat()
        if state.is_terminal():
            won = state.winner == team_of(HUMAN)
            text, colour = self.final_text(), "#1b5e20" if won else "#b71c1c"
        elif acting is None:
            text, colour = self.t("waiting", seat=state.current_seat), "#555"
        elif state.phase == "answer":
            key = "answer" if acting == HUMAN else "team_answers"
            text, colour = self.t(key, name=state.pending_raise["name"]), "#b71c1c"
        elif state.phase == "decide":
            text, colour = self.t(self._for_players("decide"), name=name), "#0d47a1"
        else:
            text, colour = self.t("your_turn"), "#0d47a1"
        # data-turn and data-step let a browser test wait until the bots have finished moving.
        turn = "over" if state.is_terminal() else "you" if acting is not None else "bot"
        self.status.value = (f"<div data-turn='{turn}' data-step='{len(state.events)}' "
                             f"style='font-size:18px;color:{colour};margin:4px 0'>{escape(text)}</div>")

    def _draw_hand(self, view, legal) -> None:
        playable = {a.card for a in legal if a.kind == "play"}
        blind = {a.position for a in legal if a.kind == "blind"}
        self.hand_title.value = f"<b>{self.t('your_cards')}</b>"
        cards = []
        for i, card in enumerate(view.hand):
            if card is None:  # mão de ferro: nobody sees their own cards
                cards.append({"svg": card_svg(None, width=76, lang=self.lang), "label": self.t("blind", n=i + 1),
                              "enabled": i in blind})
            else:
                ring = "manilha" if card in view.manilhas else None
                cards.append({"svg": card_svg(card, width=76, highlight=ring, lang=self.lang),
                              "label": card_name(card, lang=self.lang),
                              "enabled": card in playable})
        self.hand_cards.cards = cards
        self.cover.layout.display = None if any(a.kind == "cover" for a in legal) else "none"

    def _draw_buttons(self, legal_list, variant) -> None:
        legal = {a.kind: a for a in legal_list}
        name = variant.threshold_name
        raise_action = legal.get("raise")
        self.raise_button.tooltip = ""
        if raise_action is not None and self.state.raise_forbidden:  # legal, but it loses
            self.raise_button.description = self.t("raise_forbidden")
            self.raise_button.tooltip = self.t(self._for_players("raise_forbidden_tip"), name=name)
        elif raise_action is not None:
            key = "reraise" if self.state.phase == "answer" else "raise"
            self.raise_button.description = self.t(key, name=variant.raise_name(raise_action.value),
                                                   value=raise_action.value)
        self.accept_button.description = self.t("accept")
        self.run_button.description = self.t("run")
        self.play_hand_button.description = self.t("play_hand", name=name)
        self.run_hand_button.description = self.t("run_hand", name=name)
        for kind, button in (("raise", self.raise_button), ("accept", self.accept_button),
                             ("run", self.run_button), ("play_hand", self.play_hand_button),
                             ("run_hand", self.run_hand_button)):
            button.layout.display = None if kind in legal else "none"
