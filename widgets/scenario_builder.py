"""The scenario builder: a teacher sets a truco deal or a 21 table, shares it as a JSON file
or as a link (`cenarios.ipynb?cenario=...`), and every student opens the same position,
ready to step through or to play from. Checking is done by `cartas.scenario`."""
from __future__ import annotations

import json
from html import escape
from urllib.parse import quote

import ipywidgets as w

from cartas import scenario as sc
from cartas.cards import TRUCO_PACK, make_rng, parse_cards
from cartas.truco import get_variant
from cartas.vinte_e_um import ACE_OPTIONS, ROTATIONS

from .base import View, seed_field, variant_toggle
from .i18n import query_parameters

NOTEBOOK = "cenarios.ipynb"
TEXT = {
    "title": {"pt": "Construtor de cenários", "en": "Scenario builder"},
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
}


class ScenarioBuilder(View):
    """Set a deal, get JSON and a link; open JSON or a link; step through or play."""

    TEXT = TEXT

    def __init__(self, seed=None, lang=None, delay=None, query: bool = True):
        super().__init__(lang=lang)
        self.rng = make_rng(seed)
        self.delay = delay
        self.scenario: dict | None = None
        self.state = None
        self.game = w.ToggleButtons(options=[("Truco", "truco"), ("21", "21")],
                                    value="truco").add_class("cartas-game")
        # truco fields
        self.variant = variant_toggle()
        self.hands = [w.Text(layout=w.Layout(width="260px")).add_class(f"cartas-hand-{s}")
                      for s in range(4)]
        self.vira = w.Text(layout=w.Layout(width="160px")).add_class("cartas-vira")
        self.dealer = w.Dropdown(options=[0, 1, 2, 3], value=3,
                                 layout=w.Layout(width="200px")).add_class("cartas-dealer")
        self.score = [w.BoundedIntText(min=0, max=11, layout=w.Layout(width="70px")) for _ in range(2)]
        self.random_button = w.Button().add_class("cartas-random")
        # 21 fields
        self.players = w.BoundedIntText(value=4, min=3, max=12, layout=w.Layout(width="200px"))
        self.banker = w.BoundedIntText(value=0, min=0, max=11, layout=w.Layout(width="200px"))
        self.chips = w.BoundedIntText(value=20, min=1, max=1000, layout=w.Layout(width="200px"))
        # the engine's own options: its table decides what each one means
        self.ace = w.Dropdown(options=[("1/11" if a == "flexible" else str(a), a) for a in ACE_OPTIONS],
                              value=1, layout=w.Layout(width="200px"))
        self.rotation = w.Dropdown(options=list(ROTATIONS),
                                   layout=w.Layout(width="260px")).add_class("cartas-rotation")
        self.first = w.Text(layout=w.Layout(width="360px")).add_class("cartas-first")
        self.upcard = w.Text(layout=w.Layout(width="160px")).add_class("cartas-upcard")
        self.then = w.Text(layout=w.Layout(width="360px")).add_class("cartas-then")
        self.seed = seed_field(self.rng, width="200px")

        self.make_button = w.Button(button_style="primary").add_class("cartas-make")
        self.paste = w.Textarea(layout=w.Layout(width="620px", height="60px")).add_class("cartas-paste")
        self.load_button = w.Button().add_class("cartas-load")
        self.output = w.HTML().add_class("cartas-share")
        self.table = w.HTML().add_class("cartas-scenario-table")
        self.step_button = w.Button().add_class("cartas-step")
        self.play_button = w.Button(button_style="success").add_class("cartas-play")
        self.narration = w.HTML().add_class("cartas-narration")
        self.game_box = w.VBox().add_class("cartas-game-box")

        self.truco_box = w.VBox([self.variant, *self.hands, w.HBox([self.vira, self.dealer]),
                                 w.HBox([w.HTML(), *self.score]), self.random_button])
        self.box21 = w.VBox([self.players, self.banker, self.chips, self.ace, self.rotation,
                             self.first, self.upcard, self.then, self.seed])
        self.game.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.variant.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.random_button.on_click(self.guarded(lambda _: self.random_deal()))
        self.make_button.on_click(self.guarded(lambda _: self.make()))
        self.load_button.on_click(self.guarded(lambda _: self.load(self.paste.value)))
        self.step_button.on_click(self.guarded(lambda _: self.step()))
        self.play_button.on_click(self.guarded(lambda _: self.play()))
        self.children = [
            self.header(),
            self.game, self.truco_box, self.box21, self.make_button,
            w.HBox([self.paste, self.load_button]), self.message, self.output, self.table,
            w.HBox([self.step_button, self.play_button]), self.narration, self.game_box,
        ]
        self.random_deal(redraw=False)
        self.redraw()
        link = query_parameters().get("cenario") if query else None
        if link:
            self.guarded(self.load)(link)

    # Building ------------------------------------------------------------------------------
    def random_deal(self, redraw: bool = True) -> None:
        """Fill the truco fields with a random deal (seeded)."""
        order = self.rng.permutation(40)
        for s, field in enumerate(self.hands):
            field.value = " ".join(str(TRUCO_PACK[i]) for i in order[3 * s:3 * s + 3])
        self.vira.value = str(TRUCO_PACK[order[12]])
        if redraw:
            self.redraw()

    def _cards(self, text: str) -> list[str]:
        try:
            return [str(c) for c in parse_cards(text)]
        except ValueError:
            return text.replace(",", " ").split()  # the scenario check names the bad card

    def fields_scenario(self) -> dict:
        """The scenario the fields describe (not yet validated)."""
        data = {"format": sc.FORMAT, "game": self.game.value}
        if self.game.value == "truco":
            variant = get_variant(self.variant.value)
            data.update(variant=variant.key, hands=[self._cards(f.value) for f in self.hands],
                        dealer=self.dealer.value, score=[s.value for s in self.score])
            if variant.uses_vira:
                data["vira"] = self.vira.value.strip() or None
            return data
        first = [c.strip() or None for c in self.first.value.split(",")] if self.first.value.strip() else None
        data.update(players=self.players.value, banker=self.banker.value, chips=self.chips.value,
                    ace=self.ace.value, rotation=self.rotation.value, seed=self.seed.value)
        if first:
            data["deal"] = {"first_cards": [None if c in (None, "-") else c for c in first],
                            "upcard": self.upcard.value.strip() or None,
                            "then": self._cards(self.then.value)}
        return data

    def make(self) -> dict:
        """Validate the fields; on success show the table, the JSON and the link."""
        self._use(sc.validate(self.fields_scenario()))
        self.show_message(self.t("made"), "ok")
        return self.scenario

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
        if s["game"] == "truco":
            self.variant.value = s["variant"]
            for field, hand in zip(self.hands, s["hands"]):
                field.value = " ".join(hand)
            self.vira.value = s["vira"] or ""
            self.dealer.value = s["dealer"]
            for field, points in zip(self.score, s["score"]):
                field.value = points
        else:
            self.players.value, self.banker.value = s["players"], s["banker"]
            if isinstance(s["chips"], int):
                self.chips.value = s["chips"]
            self.ace.value, self.rotation.value = s["ace"], s["rotation"]
            self.seed.value = s["seed"] or 0
            deal = s["deal"] or {"first_cards": [], "upcard": None, "then": []}
            self.first.value = ", ".join(c or "-" for c in deal["first_cards"])
            self.upcard.value = deal["upcard"] or ""
            self.then.value = " ".join(deal["then"])
        self.redraw()

    def show_error(self, error: BaseException) -> None:
        if isinstance(error, sc.ScenarioError):
            self.last_error = error
            self.show_message(self.t("refused", reason=error.message(self.lang)), "error")
        else:
            super().show_error(error)

    # Stepping and playing ------------------------------------------------------------------
    def step(self) -> None:
        """One move by a bot for whoever is to act, narrated (all cards shown)."""
        if self.state is None:
            self.make()
        if self.state.is_terminal():
            self.show_message(self.t("over"))
            return
        seat = self.state.current_seat
        start = len(self.state.events)
        if self.scenario["game"] == "truco":
            from cartas.truco import narrate
            from cartas.truco.bots import RuleBot
            self.state.apply_action(RuleBot(seed=len(self.state.events)).choose(self.state.view(seat)))
            lines = [narrate(e, self.state.variant, self.lang) for e in self.state.events[start:]]
        else:
            from cartas.vinte_e_um import SensibleBot, narrate
            self.state.apply_action(SensibleBot(seed=start).choose(self.state.view(seat)), seat)
            lines = [narrate(e, self.lang) for e in self.state.events[start:]]
        self.narration.value += "".join(f"<div class='cartas-step-line'>{escape(x)}</div>" for x in lines)
        self.redraw()

    def play(self) -> None:
        """Play from the scenario: you at seat 0, bots elsewhere (a fresh copy of the deal)."""
        if self.scenario is None:
            self.make()
        state = sc.build(self.scenario)
        if self.scenario["game"] == "truco":
            from .play_truco import PlayTruco
            game = PlayTruco(state=state, lang=self.lang, delay=self.delay)
        else:
            from .play_vinte_e_um import PlayVinteEUm
            game = PlayVinteEUm(state=state, lang=self.lang, delay=self.delay)
        self.game_box.children = [game]

    # Drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        is_truco = self.game.value == "truco"
        self.draw_title()
        self.truco_box.layout.display = None if is_truco else "none"
        self.box21.layout.display = "none" if is_truco else None
        for s, field in enumerate(self.hands):
            field.description = self.t("hand", seat=s)
        self.vira.description = self.t("vira")
        self.vira.layout.display = None if get_variant(self.variant.value).uses_vira else "none"
        self.dealer.description = self.t("dealer")
        self.truco_box.children[-2].children[0].value = self.t("score") + ":&nbsp;"
        self.random_button.description = self.t("random")
        for field, key in ((self.players, "players"), (self.banker, "banker"), (self.chips, "chips"),
                           (self.ace, "ace"), (self.rotation, "rotation"), (self.first, "first"),
                           (self.upcard, "upcard"), (self.then, "then"), (self.seed, "seed")):
            field.description = self.t(key)
            field.style = {"description_width": "150px"}
        self.make_button.description = self.t("make")
        self.load_button.description = self.t("load")
        self.paste.placeholder = self.t("paste")
        self.step_button.description = self.t("step")
        self.play_button.description = self.t("play")
        ready = self.scenario is not None
        self.step_button.layout.display = self.play_button.layout.display = None if ready else "none"
        self._draw_share()
        self._draw_table()

    def _draw_share(self) -> None:
        if self.scenario is None:
            self.output.value = ""
            return
        text = sc.to_json(self.scenario)
        link = f"{NOTEBOOK}?cenario={sc.encode_link(self.scenario)}"
        data = "data:application/json;charset=utf-8," + quote(text)
        self.output.value = (
            f"<div><b>{self.t('link')}</b>: <a class='cartas-link' href='{escape(link)}' target='_blank'>"
            f"<code style='word-break:break-all'>{escape(link)}</code></a></div>"
            f"<div><a class='cartas-download' download='cenario.json' href='{escape(data)}'>"
            f"{self.t('download')}</a></div>"
            f"<details><summary>JSON</summary><pre class='cartas-json'>{escape(text)}</pre></details>")

    def _draw_table(self) -> None:
        if self.state is None:
            self.table.value = ""
            return
        if self.scenario["game"] == "truco":
            from .truco_table import table_html
            self.table.value = table_html(self.state, self.lang)
        else:
            from .vinte_e_um_table import table_html
            self.table.value = table_html(self.state, self.lang, viewer="all")


def scenario_json(scenario: dict) -> str:
    """Pretty JSON of a scenario (for the notebook)."""
    return json.dumps(scenario, ensure_ascii=False, indent=1)
