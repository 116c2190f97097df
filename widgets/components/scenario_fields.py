"""The scenario builder's fields of each game family (issue 30, item 3): what a teacher types to
set a truco deal or a 21 table, how the fields become a scenario's data, and how a scenario
fills them back. `widgets.families` names each family's pane once (`FamilyViews.scenario_fields`);
the builder (`widgets.pages.cenarios`) asks the pane of the family its toggle shows and never
names a family.

A pane is made with the builder it serves (`view`): its `t` (the builder's texts, both
languages), `beside` (a control with its error slot), `rng` (the builder's seeded stream) and
`seed` (the builder's seed box, which the 21 pane shows and reads). Each pane has:

- `box`: its fields, shown while the toggle is on its family;
- `fields()`: its widgets by name (the builder answers them as its own: `builder.hands`);
- `read(data)`: the scenario data its fields describe, added to `data` (not yet validated);
- `fill(scenario)`: its fields set from a checked scenario of its family;
- `first_deal()`: what it draws once the page is sent (truco: a random deal; 21: nothing);
- `redraw()`: its labels and options in the view's language.

Decided rules (those of `widgets.pages.cenarios`): cards are typed one way in every field
(`read_cards`), numbers are taken as typed (never clamped: the scenario check refuses them
aloud), and option names come from the games' catalogues where they have them.
"""
from __future__ import annotations

from typing import Any

import ipywidgets as w

from cartas.cards import TRUCO_PACK, Card, shuffled
from cartas.truco import CATALOGUE as TRUCO_CATALOGUE, SEATS, TIE_LEADS, VARIANTS, deal_hands, get_variant, team_label
from cartas.vinte_e_um import ACE_OPTIONS, ROTATIONS, rotation_label
from widgets.components.base import variant_toggle


def read_cards(text: str, gaps: bool = False) -> list:
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


def read_card(text: str):
    """One card typed in a field (a stray comma or space around it is ignored); None if empty."""
    cards = read_cards(text)
    if not cards:
        return None
    return cards[0] if len(cards) == 1 else text.strip()


class TrucoFields:
    """A truco deal: variant, each seat's hand, the vira, the dealer, the tie rule, the score,
    and a seeded random deal dealt as the engine deals."""

    def __init__(self, view: Any):
        self.view = view
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
        self.score_label = w.HTML()
        self.box = w.VBox([self.variant, *self.hands, w.HBox([self.vira, self.dealer]),
                           self.tie_lead, w.HBox([self.score_label, *self.score]),
                           view.beside(self.random_button)])
        self.variant.observe(view.guarded(lambda _: view.redraw()), names="value")
        self.random_button.on_click(view.guarded(lambda _: self.random_deal()))

    def fields(self) -> dict[str, Any]:
        return {"variant": self.variant, "hands": self.hands, "vira": self.vira, "dealer": self.dealer,
                "tie_lead": self.tie_lead, "score": self.score, "random_button": self.random_button,
                "random_deal": self.random_deal}

    def random_deal(self, redraw: bool = True) -> None:
        """Fill the fields with a random deal (the builder's seeded stream), dealt as the engine deals."""
        hands, vira = deal_hands(shuffled(TRUCO_PACK, self.view.rng), self.dealer.value, True)
        for field, hand in zip(self.hands, hands):
            field.value = " ".join(str(c) for c in hand)
        self.vira.value = str(vira)
        if redraw:
            self.view.redraw()

    def first_deal(self) -> None:
        self.random_deal()

    def read(self, data: dict) -> None:
        variant = get_variant(self.variant.value)
        data.update(variant=variant.key, hands=[read_cards(f.value) for f in self.hands],
                    dealer=self.dealer.value, score=[s.value for s in self.score],
                    tie_lead=self.tie_lead.value)
        if variant.uses_vira:
            data["vira"] = read_card(self.vira.value)

    def fill(self, s: dict) -> None:
        self.variant.value = s["variant"]
        for field, hand in zip(self.hands, s["hands"]):
            field.value = " ".join(hand)
        self.vira.value = s["vira"] or ""
        self.dealer.value = s["dealer"]
        self.tie_lead.value = s["tie_lead"]
        for field, points in zip(self.score, s["score"]):
            field.value = points

    def redraw(self) -> None:
        view, lang = self.view, self.view.lang
        variant = self.variant.value
        self.variant.options = [(v.label[lang], key) for key, v in VARIANTS.items()]
        self.variant.value = variant
        for s, field in enumerate(self.hands):
            field.description = view.t("hand", seat=s)
            field.placeholder = "7♥ A♠ 3♦"
        self.vira.description = view.t("vira")
        self.vira.layout.display = None if get_variant(self.variant.value).uses_vira else "none"
        self.dealer.description = view.t("dealer")
        dealer = self.dealer.value
        self.dealer.options = [(view.t("hand", seat=s), s) for s in SEATS]
        self.dealer.value = dealer
        self.tie_lead.description = view.t("tie_lead")
        chosen = self.tie_lead.value
        self.tie_lead.options = [(TRUCO_CATALOGUE.template(f"tie_lead_{rule}", lang), rule)
                                 for rule in TIE_LEADS]
        self.tie_lead.value = chosen
        self.tie_lead.style = {"description_width": "130px"}
        self.score_label.value = view.t("score") + ":&nbsp;"
        for team, field in enumerate(self.score):  # named for a screen reader (class cartas-sr-label)
            field.description = team_label(team, lang)
        self.random_button.description = view.t("random")


class Fields21:
    """A 21 table: participants, banker, chips, the ace's value, the bank's rotation, the seed
    (the builder's seed box) and, optionally, the first cards of the deal."""

    def __init__(self, view: Any):
        self.view = view
        # unbounded too: the scenario check names a number out of range
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
        self.box = w.VBox([self.players, self.banker, self.chips, self.ace, self.rotation,
                           self.first, self.upcard, self.then, view.seed])
        self.rotation.observe(view.guarded(lambda _: view.redraw()), names="value")

    def fields(self) -> dict[str, Any]:
        return {"players": self.players, "banker": self.banker, "chips": self.chips, "ace": self.ace,
                "rotation": self.rotation, "first": self.first, "upcard": self.upcard, "then": self.then}

    def first_deal(self) -> None:
        """Nothing: the seed box the table is dealt from is drawn by the builder."""

    def read(self, data: dict) -> None:
        first = read_cards(self.first.value, gaps=True)
        data.update(players=self.players.value, banker=self.banker.value, chips=self.chips.value,
                    ace=self.ace.value, rotation=self.rotation.value, seed=self.view.seed.value)
        if first:
            data["deal"] = {"first_cards": first, "upcard": read_card(self.upcard.value),
                            "then": read_cards(self.then.value)}

    def fill(self, s: dict) -> None:
        self.players.value, self.banker.value = s["players"], s["banker"]
        if isinstance(s["chips"], int):
            self.chips.value = s["chips"]
        self.ace.value, self.rotation.value = s["ace"], s["rotation"]
        self.view.seed.value = s["seed"] or 0
        deal = s["deal"] or {"first_cards": [], "upcard": None, "then": []}
        self.first.value = " ".join(c or "-" for c in deal["first_cards"])
        self.upcard.value = deal["upcard"] or ""
        self.then.value = " ".join(deal["then"])

    def redraw(self) -> None:
        view, lang = self.view, self.view.lang
        ace = self.ace.value
        self.ace.options = [(view.t(f"ace_{a}"), a) for a in ACE_OPTIONS]
        self.ace.value = ace
        rotation = self.rotation.value
        self.rotation.options = [(rotation_label(r, lang), r) for r in ROTATIONS]
        self.rotation.value = rotation
        self.first.placeholder = f"5♥ K♣ - A♠ ({view.t('first_hint')})"
        self.then.placeholder = "2♦, 9♠, 4♣"
        for key, field in self.fields().items():
            field.description = view.t(key)
            field.style = {"description_width": "150px"}
