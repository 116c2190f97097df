"""The scenario builder: a teacher sets a truco deal or a 21 table, shares it as a JSON file
or as a link (`cenarios.ipynb?cenario=...`), and every student opens the same position,
ready to step through or to play from. Checking is done by `cartas.scenario`.

Decided rules:

- The link is shown whole and absolute, with a copy button and a QR code (`widgets.components.share`).
- A page opened with `?cenario=` is a learner's: the scenario (its table, "Próximo passo",
  "Jogar a partir daqui") shows, and the builder's controls, the link and the JSON stay folded
  away behind an "Editar" toggle. Without `?cenario=` the builder is open.
- Cards are typed one way in every field: separated by spaces or commas ("7♥ A♠ 3♦" or
  "7♥, A♠, 3♦"; spoken names such as "7 de copas" are separated by commas). In "1ª carta de
  cada um" a "-" marks a seat dealt no card.
- Option names (variant, dealer, tie rule, ace, bank rotation) are shown in the view's language,
  from the games' catalogues where they have them.
- Numbers (score, participants, banker, chips) are taken as typed, never clamped by the field:
  a score of 13 reaches the engine, which refuses it, and the refusal is shown.
- "Jogar a partir daqui" plays from the position on screen (after any "Próximo passo"), on an
  independent copy: stepping the builder afterwards does not move the game.
- A refusal shows beside the button that was used ("Criar cenário", "Abrir cenário" with
  the pasted text, "Próximo passo"/"Jogar a partir daqui", "Sortear cartas") and stays until
  the next action; only a link the page was opened with is refused in the message line
  under the title (no control was used). The live region says it, and says each step's
  events, a line each, cards in words (`widgets.components.announce`).
"""
from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

import ipywidgets as w

from cartas import scenario as sc
from cartas.cards import TRUCO_PACK, Card, lazy_rng, shuffled
from cartas.truco import CATALOGUE as TRUCO_CATALOGUE, SEATS, TIE_LEADS, VARIANTS, deal_hands, get_variant, team_label
from cartas.vinte_e_um import ACE_OPTIONS, ROTATIONS, rotation_label
from widgets.components import params
from widgets.components.base import View, seed_field, variant_toggle
from widgets.components.later import after_paint
from widgets.components.share import ShareLink
from widgets.families import views_of

NOTEBOOK = "cenarios.ipynb"
TEXT = {
    "title": {"pt": "Construtor de cenários", "en": "Scenario builder"},
    "learner_title": {"pt": "Cenário", "en": "Scenario"},
    "edit": {"pt": "Editar", "en": "Edit"},
    "name": {"pt": "Título", "en": "Title"},
    "name_hint": {"pt": "opcional, p. ex. Aula 3", "en": "optional, e.g. Lesson 3"},
    "cards_hint": {"pt": "Cartas separadas por espaço ou vírgula: {example}",
                   "en": "Cards separated by spaces or commas: {example}"},
    "first_hint": {"pt": "uma por assento; - para quem não recebe", "en": "one per seat; - for none"},
    "ace_1": {"pt": "1", "en": "1"},
    "ace_11": {"pt": "11", "en": "11"},
    "ace_flexible": {"pt": "1 ou 11 (flexível)", "en": "1 or 11 (flexible)"},
    "game": {"pt": "Jogo", "en": "Game"},
    "hand": {"pt": "Assento {seat}", "en": "Seat {seat}"},
    "vira": {"pt": "Vira", "en": "Vira"},
    "dealer": {"pt": "Dá as cartas", "en": "Dealer"},
    "score": {"pt": "Placar A x B", "en": "Score A x B"},
    "random": {"pt": "Sortear cartas", "en": "Random deal"},
    "make": {"pt": "Criar cenário", "en": "Make scenario"},
    "players": {"pt": "Participantes", "en": "Participants"},
    "banker": {"pt": "Banca", "en": "Banker"},
    "chips": {"pt": "Fichas", "en": "Chips"},
    "ace": {"pt": "Ás vale", "en": "Ace counts"},
    "rotation": {"pt": "Rodízio da banca", "en": "Bank rotation"},
    "first": {"pt": "1ª carta de cada um", "en": "Each seat's first card"},
    "upcard": {"pt": "2ª carta da banca", "en": "Banker's second card"},
    "then": {"pt": "Próximas cartas", "en": "Next cards"},
    "seed": {"pt": "Semente", "en": "Seed"},
    "load": {"pt": "Abrir cenário", "en": "Open scenario"},
    "paste": {"pt": "Cole aqui o JSON ou o link de um cenário", "en": "Paste a scenario's JSON or link here"},
    "made": {"pt": "Cenário pronto. Compartilhe o link ou o arquivo JSON.",
             "en": "Scenario ready. Share the link or the JSON file."},
    "opened": {"pt": "Cenário aberto.", "en": "Scenario opened."},
    "link": {"pt": "Link para os alunos", "en": "Link for the students"},
    "download": {"pt": "Baixar cenario.json", "en": "Download cenario.json"},
    "step": {"pt": "Próximo passo", "en": "Next step"},
    "play": {"pt": "Jogar a partir daqui", "en": "Play from here"},
    "refused": {"pt": "Cenário recusado: {reason}", "en": "Scenario refused: {reason}"},
    "over": {"pt": "O jogo acabou.", "en": "The game is over."},
    "tie_lead": {"pt": "Após empate abre", "en": "After a tie leads"},
}


class ScenarioBuilder(View):
    """Set a deal, get JSON and a link; open JSON or a link; step through or play."""

    TEXT = TEXT

    def __init__(self, seed=None, lang=None, delay=None, query: bool = True):
        super().__init__(lang=lang)
        self._rng = lazy_rng(seed)  # numpy loads with the first deal, right after the page
        self.delay = delay
        self.scenario: dict | None = None
        self.state: Any = None  # a cartas.contract.GameState once a scenario is made
        self.game = w.ToggleButtons(options=[("Truco", "truco"), ("21", "21")],
                                    value="truco").add_class("cartas-game")
        self.name = w.Text(layout=w.Layout(width="520px")).add_class("cartas-scenario-name")
        self.cards_hint = w.HTML().add_class("cartas-cards-hint")
        # truco fields
        self.variant = variant_toggle()
        self.hands = [w.Text(layout=w.Layout(width="300px")).add_class(f"cartas-hand-{s}")
                      for s in SEATS]
        self.vira = w.Text(layout=w.Layout(width="200px")).add_class("cartas-vira")
        self.dealer = w.Dropdown(options=list(SEATS), value=3,
                                 layout=w.Layout(width="240px")).add_class("cartas-dealer")
        self.tie_lead = w.Dropdown(options=list(TIE_LEADS), value="leader",
                                   layout=w.Layout(width="480px")).add_class("cartas-tie-lead")
        # not bounded: a score the rules forbid (13) must reach the engine and be refused aloud
        self.score = [w.IntText(value=0, layout=w.Layout(width="70px"),
                                _dom_classes=("cartas-sr-label",)).add_class(f"cartas-score-{t}")
                      for t in range(2)]
        self.random_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-random")
        # 21 fields (unbounded too: the scenario check names a number out of range)
        self.players = w.IntText(value=4, layout=w.Layout(width="240px")).add_class("cartas-players")
        self.banker = w.IntText(value=0, layout=w.Layout(width="240px")).add_class("cartas-banker")
        self.chips = w.IntText(value=20, layout=w.Layout(width="240px")).add_class("cartas-chips")
        # the engine's own options: its table decides what each one means
        self.ace = w.Dropdown(options=list(ACE_OPTIONS), value=1,
                              layout=w.Layout(width="320px")).add_class("cartas-ace")
        self.rotation = w.Dropdown(options=list(ROTATIONS),
                                   layout=w.Layout(width="420px")).add_class("cartas-rotation")
        self.first = w.Text(layout=w.Layout(width="420px")).add_class("cartas-first")
        self.upcard = w.Text(layout=w.Layout(width="240px")).add_class("cartas-upcard")
        self.then = w.Text(layout=w.Layout(width="420px")).add_class("cartas-then")
        self.seed = seed_field(self._rng, width="240px")

        self.make_button = w.Button(button_style="primary").add_class("cartas-make")
        self.paste = w.Textarea(layout=w.Layout(width="620px", height="60px"),
                                _dom_classes=("cartas-sr-label",)).add_class("cartas-paste")
        self.load_button = w.Button().add_class("cartas-load")
        self.share = ShareLink(lang=self.lang).add_class("cartas-share-widget")
        self.output = w.HTML().add_class("cartas-share")
        self.table = w.HTML().add_class("cartas-scenario-table")
        self.step_button = w.Button().add_class("cartas-step")
        self.play_button = w.Button(button_style="success", layout=w.Layout(width="auto")).add_class("cartas-play")
        self.narration = w.HTML().add_class("cartas-narration")
        self.game_box = w.VBox().add_class("cartas-game-box")
        self.edit = w.ToggleButton(value=True).add_class("cartas-edit")

        self.score_label = w.HTML()
        self.truco_box = w.VBox([self.variant, *self.hands, w.HBox([self.vira, self.dealer]),
                                 self.tie_lead, w.HBox([self.score_label, *self.score]),
                                 self.beside(self.random_button)])
        self.box21 = w.VBox([self.players, self.banker, self.chips, self.ace, self.rotation,
                             self.first, self.upcard, self.then, self.seed])
        self.editor = w.VBox([self.game, self.name, self.cards_hint, self.truco_box, self.box21,
                              self.beside(self.make_button), self.beside(w.HBox([self.paste, self.load_button])),
                              self.share, self.output]).add_class("cartas-editor")
        self.game.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.variant.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.rotation.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.edit.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.random_button.on_click(self.guarded(lambda _: self.random_deal()))
        self.make_button.on_click(self.guarded(lambda _: self.make()))
        self.load_button.on_click(self.guarded(lambda _: self.load(self.paste.value)))
        self.step_button.on_click(self.guarded(lambda _: self.step()))
        self.play_button.on_click(self.guarded(lambda _: self.play()))
        self.children = [
            self.header(), self.edit, self.editor, self.message, self.table,
            self.beside(w.HBox([self.step_button, self.play_button])), self.narration, self.game_box,
        ]
        link = self.from_url(params.scenario()) if query else None
        if link:
            self.edit.value = False  # a learner's page: the scenario, not the builder
        self.redraw()  # the page now; its deal (and the scenario of a link) right after it
        after_paint(self.guarded(lambda: self._first_deal(link)))

    @property
    def rng(self):
        """The builder's seeded Generator: the 21 seed box, random deals, the bots' seeds."""
        return self._rng()

    def _first_deal(self, link: str | None) -> None:
        """What the page shows once it is sent (`widgets.components.later`): the seed box's draw and a
        random deal, in the order of the seeded stream, then the scenario of the link."""
        self.seed.value = int(self.rng.integers(1000))
        self.random_deal()
        if link:
            self.guarded(self.load)(link)

    @property
    def learner_view(self) -> bool:
        """True while the builder's controls are folded away (a page opened from a link)."""
        return not self.edit.value

    # Building ------------------------------------------------------------------------------
    def random_deal(self, redraw: bool = True) -> None:
        """Fill the truco fields with a random deal (seeded), dealt as the engine deals."""
        hands, vira = deal_hands(shuffled(TRUCO_PACK, self.rng), self.dealer.value, True)
        for field, hand in zip(self.hands, hands):
            field.value = " ".join(str(c) for c in hand)
        self.vira.value = str(vira)
        if redraw:
            self.redraw()

    @staticmethod
    def _cards(text: str, gaps: bool = False) -> list:
        """The cards typed in a field, separated by spaces or commas (commas only between
        spoken names: "7 de copas, ás de espadas"), in "7♥" form; a text that is no card
        is kept as typed, for the scenario check to name it. With `gaps`, "-" is None."""
        folded = f" {text.lower()} "
        spoken = " de " in folded or " of " in folded
        parts = text.split(",") if spoken else text.replace(",", " ").split()
        cards: list = []
        for part in (p.strip() for p in parts):
            if not part:
                continue
            if gaps and part == "-":
                cards.append(None)
                continue
            try:
                cards.append(str(Card.parse(part)))
            except ValueError:
                cards.append(part)
        return cards

    def _card(self, text: str):
        """One card typed in a field (a stray comma or space around it is ignored); None if empty."""
        cards = self._cards(text)
        if not cards:
            return None
        return cards[0] if len(cards) == 1 else text.strip()

    def fields_scenario(self) -> dict:
        """The scenario the fields describe (not yet validated)."""
        data: dict[str, Any] = {"format": sc.FORMAT, "game": self.game.value}
        # the toggle's value is a game family ("truco", "21"): each has its own fields
        {"truco": self._truco_fields, "21": self._fields_21}[self.game.value](data)
        if self.name.value.strip():
            data["title"] = self.name.value.strip()
        return data

    def _truco_fields(self, data: dict) -> None:
        variant = get_variant(self.variant.value)
        data.update(variant=variant.key, hands=[self._cards(f.value) for f in self.hands],
                    dealer=self.dealer.value, score=[s.value for s in self.score],
                    tie_lead=self.tie_lead.value)
        if variant.uses_vira:
            data["vira"] = self._card(self.vira.value)

    def _fields_21(self, data: dict) -> None:
        first = self._cards(self.first.value, gaps=True)
        data.update(players=self.players.value, banker=self.banker.value, chips=self.chips.value,
                    ace=self.ace.value, rotation=self.rotation.value, seed=self.seed.value)
        if first:
            data["deal"] = {"first_cards": first, "upcard": self._card(self.upcard.value),
                            "then": self._cards(self.then.value)}

    def make(self) -> dict:
        """Validate the fields; on success show the table, the JSON and the link."""
        scenario = sc.validate(self.fields_scenario())
        self._use(scenario)
        self.show_message(self.t("made"), "ok")
        return scenario

    def load(self, text: str) -> dict:
        """Open a scenario from JSON text or a link (the whole URL or just its parameter)."""
        text = (text or "").strip()
        if "cenario=" in text:
            text = text.split("cenario=", 1)[1].split("&", 1)[0]
        scenario = sc.from_json(text) if text.startswith("{") else sc.decode_link(text)
        self._use(scenario)
        self._fill(scenario)
        self.show_message(self.t("opened"), "ok")
        return scenario

    def _use(self, scenario: dict) -> None:
        state = sc.build(scenario)  # raises before anything changes
        self.scenario, self.state = scenario, state
        self.game_box.children = []
        self.narration.value = ""
        self.redraw()

    def _fill(self, s: dict) -> None:
        self.game.value = s["game"]
        self.name.value = s.get("title") or ""
        {"truco": self._fill_truco, "21": self._fill_21}[sc.game_of(s).family](s)
        self.redraw()

    def _fill_truco(self, s: dict) -> None:
        self.variant.value = s["variant"]
        for field, hand in zip(self.hands, s["hands"]):
            field.value = " ".join(hand)
        self.vira.value = s["vira"] or ""
        self.dealer.value = s["dealer"]
        self.tie_lead.value = s["tie_lead"]
        for field, points in zip(self.score, s["score"]):
            field.value = points

    def _fill_21(self, s: dict) -> None:
        self.players.value, self.banker.value = s["players"], s["banker"]
        if isinstance(s["chips"], int):
            self.chips.value = s["chips"]
        self.ace.value, self.rotation.value = s["ace"], s["rotation"]
        self.seed.value = s["seed"] or 0
        deal = s["deal"] or {"first_cards": [], "upcard": None, "then": []}
        self.first.value = " ".join(c or "-" for c in deal["first_cards"])
        self.upcard.value = deal["upcard"] or ""
        self.then.value = " ".join(deal["then"])

    def show_error(self, error: BaseException, near=None) -> None:
        if isinstance(error, sc.ScenarioError):  # a RuleError: its message in the view's language
            self.last_error = error
            self.show_refusal(self.t("refused", reason=self._reason(error)), near)
        else:
            super().show_error(error, near)

    # Stepping and playing ------------------------------------------------------------------
    def step(self) -> None:
        """One move by a bot for whoever is to act, narrated (all cards shown)."""
        if self.state is None:
            self.make()
        if self.state.is_terminal():
            self.show_message(self.t("over"))
            return
        state = self.state  # only the contract (cartas.contract.GameState) from here on
        seat = state.current_seat
        assert self.scenario is not None  # make() raised otherwise
        bot = sc.bot(self.scenario, seed=len(state.events))
        events = state.apply_action(bot.choose(state.view(seat)))
        lines = [state.narrate(e, self.lang) for e in events]
        self.narration.value += "".join(f"<div class='cartas-step-line'>{escape(x)}</div>" for x in lines)
        self.announce(lines)  # this step's events, cards in words
        self.redraw()

    def play(self) -> None:
        """Play from the position on screen (the scenario after any steps): you at seat 0, bots
        elsewhere, on a copy, so the builder's own steps no longer move it."""
        if self.scenario is None:
            self.make()
        if self.state.is_terminal():
            self.show_message(self.t("over"))
            return
        assert self.scenario is not None  # make() raised otherwise
        state = self.state.clone()
        seed = int(self.rng.integers(2**31))  # the bots' seeds, from the builder's seeded stream
        play = views_of(sc.game_of(self.scenario).family).play()
        self.game_box.children = [play(state=state, seed=seed, lang=self.lang, delay=self.delay)]

    # Drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        family = self.game.value  # a game family: its own fields, and its own way to write cards
        lang = self.lang
        self.draw_title()
        self.share.lang = lang
        self.edit.description = self.t("edit")
        self.edit.layout.display = None if self.scenario is not None or self.learner_view else "none"
        self.editor.layout.display = "none" if self.learner_view else None
        for pane_family, pane in (("truco", self.truco_box), ("21", self.box21)):
            pane.layout.display = None if pane_family == family else "none"
        self.name.description = self.t("name")
        self.name.placeholder = self.t("name_hint")
        example = views_of(family).card_example
        self.cards_hint.value = f"<span style='color:#424242'>{escape(self.t('cards_hint', example=example))}</span>"
        variant = self.variant.value
        self.variant.options = [(v.label[lang], key) for key, v in VARIANTS.items()]
        self.variant.value = variant
        for s, field in enumerate(self.hands):
            field.description = self.t("hand", seat=s)
            field.placeholder = "7♥ A♠ 3♦"
        self.vira.description = self.t("vira")
        self.vira.layout.display = None if get_variant(self.variant.value).uses_vira else "none"
        self.dealer.description = self.t("dealer")
        dealer = self.dealer.value
        self.dealer.options = [(self.t("hand", seat=s), s) for s in SEATS]
        self.dealer.value = dealer
        self.tie_lead.description = self.t("tie_lead")
        chosen = self.tie_lead.value
        self.tie_lead.options = [(TRUCO_CATALOGUE.template(f"tie_lead_{rule}", lang), rule)
                                 for rule in TIE_LEADS]
        self.tie_lead.value = chosen
        self.tie_lead.style = {"description_width": "130px"}
        self.score_label.value = self.t("score") + ":&nbsp;"
        for team, field in enumerate(self.score):  # named for a screen reader (class cartas-sr-label)
            field.description = team_label(team, lang)
        self.random_button.description = self.t("random")
        ace = self.ace.value
        self.ace.options = [(self.t(f"ace_{a}"), a) for a in ACE_OPTIONS]
        self.ace.value = ace
        rotation = self.rotation.value
        self.rotation.options = [(rotation_label(r, lang), r) for r in ROTATIONS]
        self.rotation.value = rotation
        self.first.placeholder = f"5♥ K♣ - A♠ ({self.t('first_hint')})"
        self.then.placeholder = "2♦, 9♠, 4♣"
        for field, key in ((self.players, "players"), (self.banker, "banker"), (self.chips, "chips"),
                           (self.ace, "ace"), (self.rotation, "rotation"), (self.first, "first"),
                           (self.upcard, "upcard"), (self.then, "then"), (self.seed, "seed"),
                           (self.name, "name")):
            field.description = self.t(key)
            field.style = {"description_width": "150px"}
        self.make_button.description = self.t("make")
        self.load_button.description = self.t("load")
        self.paste.placeholder = self.paste.description = self.t("paste")
        self.step_button.description = self.t("step")
        self.play_button.description = self.t("play")
        ready = self.scenario is not None
        self.step_button.layout.display = self.play_button.layout.display = None if ready else "none"
        self._draw_share()
        self._draw_table()

    def draw_title(self) -> None:
        """The builder's title; a learner's page shows "Cenário" and the scenario's own title."""
        if not self.learner_view:
            return super().draw_title()
        title = self.t("learner_title")
        if self.scenario is not None and self.scenario.get("title"):
            title += ": " + self.scenario["title"]
        self.title.value = f"<h3 style='margin:4px 0'>{escape(title)}</h3>{self.url_notice()}"

    def link(self) -> str:
        """The scenario's link relative to the dashboard ("" before a scenario is made)."""
        return "" if self.scenario is None else f"{NOTEBOOK}?cenario={sc.encode_link(self.scenario)}"

    def _draw_share(self) -> None:
        self.share.path = self.link()
        if self.scenario is None:
            self.output.value = ""
            return
        text = sc.to_json(self.scenario)
        data = "data:application/json;charset=utf-8," + quote(text)
        self.output.value = (
            f"<div><a class='cartas-download' download='cenario.json' href='{escape(data)}'>"
            f"{self.t('download')}</a></div>"
            f"<details><summary>JSON</summary><pre class='cartas-json'>{escape(text)}</pre></details>")

    def _draw_table(self) -> None:
        if self.state is None or self.scenario is None:
            self.table.value = ""
            return
        draw = views_of(sc.game_of(self.scenario).family).draw
        self.table.value = draw(self.state, self.lang, "all")  # the builder sees every card
