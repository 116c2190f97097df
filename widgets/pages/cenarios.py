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
from cartas.cards import lazy_rng
from widgets.components import params
from widgets.components.base import View, seed_field
from widgets.components.later import after_paint
from widgets.components.share import ShareLink
from widgets.families import FAMILIES, views_of

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
        # the game families of widgets.families, the first one shown
        self.game = w.ToggleButtons(options=[(views.label, family) for family, views in FAMILIES.items()],
                                    value=next(iter(FAMILIES))).add_class("cartas-game")
        self.name = w.Text(layout=w.Layout(width="520px")).add_class("cartas-scenario-name")
        self.cards_hint = w.HTML().add_class("cartas-cards-hint")
        self.seed = seed_field(self._rng, width="240px")  # a 21 table's seed; drawn first, then the deal
        # each family's fields (widgets.components.scenario_fields), answered as the builder's
        # own too (b.hands, b.players: the tests and the notebook's readers use them)
        self.panes = {family: views.scenario_fields()(self) for family, views in FAMILIES.items()}
        for pane in self.panes.values():
            for field_name, field in pane.fields().items():
                setattr(self, field_name, field)

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

        self.editor = w.VBox([self.game, self.name, self.cards_hint, *(p.box for p in self.panes.values()),
                              self.beside(self.make_button), self.beside(w.HBox([self.paste, self.load_button])),
                              self.share, self.output]).add_class("cartas-editor")
        self.game.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.edit.observe(self.guarded(lambda _: self.redraw()), names="value")
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
        """The builder's seeded Generator: the seed box, the panes' first deals, the bots' seeds."""
        return self._rng()

    def _first_deal(self, link: str | None) -> None:
        """What the page shows once it is sent (`widgets.components.later`): the seed box's draw and
        each pane's first deal (truco's random deal), in the order of the seeded stream, then the
        scenario of the link."""
        self.seed.value = int(self.rng.integers(1000))
        for pane in self.panes.values():
            pane.first_deal()
        if link:
            self.guarded(self.load)(link)

    @property
    def learner_view(self) -> bool:
        """True while the builder's controls are folded away (a page opened from a link)."""
        return not self.edit.value

    # Building ------------------------------------------------------------------------------
    def fields_scenario(self) -> dict:
        """The scenario the fields describe (not yet validated): the toggle's family's pane reads its own."""
        data: dict[str, Any] = {"format": sc.FORMAT, "game": self.game.value}
        self.panes[self.game.value].read(data)
        if self.name.value.strip():
            data["title"] = self.name.value.strip()
        return data

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
        self.panes[sc.game_of(s).family].fill(s)
        self.redraw()

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
        for pane_family, pane in self.panes.items():
            pane.box.layout.display = None if pane_family == family else "none"
        self.name.description = self.t("name")
        self.name.placeholder = self.t("name_hint")
        example = views_of(family).card_example
        self.cards_hint.value = f"<span style='color:#424242'>{escape(self.t('cards_hint', example=example))}</span>"
        for pane in self.panes.values():
            pane.redraw()
        for field, key in ((self.seed, "seed"), (self.name, "name")):
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
