"""Truco Mineiro beside Truco Paulista: manilhas, values, and the same trick in both.

Every fact in the comparison is read from the engine's `Variant` objects and states
(`ladder_rows` reads the ladder and `Variant.run_pays`); the trick comparison asks
`trick_winner`/`explain_trick` of each variant.

Decided rules: the vira and the four played cards are truco cards, each used once; a card
that cannot be read, is not in the truco pack, is played twice or is the vira is refused
beside its field with the engine catalogue's message, and the comparison shown stays.
The exercises alternate two kinds: "who wins this duel?" (Mineiro or Paulista) and "a team
asks for this raise and the other runs: how many points does it win?" (the ladders differ).
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import TRUCO_PACK, Card
from cartas.questions import Question, draw_question
from cartas.truco import (
    MINEIRO,
    PAULISTA,
    TEAM_LETTERS,
    TrucoError,
    explain_trick,
    manilha_label,
    manilhas,
    team_label,
    team_of,
    trick_winner,
)
from widgets.components.base import View
from widgets.components.exercises import Exercises
from widgets.draw.svg import card_svg, cards_row
from widgets.draw.truco_table import TEAM_COLOURS
from widgets.pages.truco_apostas import ladder_rows

TEXT = {
    "title": {"pt": "Truco Mineiro e Truco Paulista lado a lado", "en": "Truco Mineiro beside Truco Paulista"},
    "vira": {"pt": "Vira (Paulista)", "en": "Vira (Paulista)"},
    "what": {"pt": "", "en": ""},
    "manilhas": {"pt": "Manilhas (da mais fraca à mais forte)", "en": "Manilhas (weakest first)"},
    "vira_row": {"pt": "Vira", "en": "Vira"},
    "vira_yes": {"pt": "sim: as manilhas são o valor seguinte à vira",
                 "en": "yes: the manilhas are the rank after the vira"},
    "vira_no": {"pt": "não: manilhas fixas", "en": "no: fixed manilhas"},
    "base": {"pt": "Uma mão vale", "en": "A hand is worth"},
    "ladder": {"pt": "Pedidos (valor se aceito / correr paga)", "en": "Calls (value if accepted / running pays)"},
    "threshold": {"pt": "Mão no limite", "en": "Hand at the threshold"},
    "threshold_text": {"pt": "{name} aos {t} pontos: vale {value}; correr dá {run} à outra dupla",
                       "en": "{name} at {t} points: worth {value}; running gives the other team {run}"},
    "ferro": {"pt": "Mão de ferro", "en": "Mão de ferro"},
    "ferro_text": {"pt": "{t} x {t}", "en": "{t} x {t}"},
    "trick": {"pt": "A mesma rodada nas duas variantes", "en": "The same trick in both variants"},
    "seat": {"pt": "Assento {seat}", "en": "Seat {seat}"},
    "winner": {"pt": "Vence: {team}", "en": "Winner: {team}"},
    "tie": {"pt": "empate", "en": "tie"},
}

DEFAULT_TRICK = ("4♣", "A♦", "5♥", "3♣")


class VariantComparison(View):
    """Paulista and Mineiro side by side, plus one trick judged by both."""

    TEXT = TEXT

    def __init__(self, vira="K♠", seed=None, lang=None):
        super().__init__(lang=lang)
        self.vira = w.Text(value=str(vira), layout=w.Layout(width="220px"), style={"description_width": "initial"},
                           continuous_update=False).add_class("cartas-vira")
        self.facts = w.HTML().add_class("cartas-facts")
        self.trick_title = w.HTML()
        self.cards = [w.Text(value=c, layout=w.Layout(width="140px"), continuous_update=False
                             ).add_class(f"cartas-card-{s}") for s, c in enumerate(DEFAULT_TRICK)]
        self.compare = w.HTML().add_class("cartas-compare")
        update = self.guarded(lambda _: self._trick_changed())
        self.vira.observe(update, names="value")
        for box in self.cards:
            box.observe(update, names="value")
        self._kind = 0
        self.exercises = Exercises(self, "truco_mineiro", self._question, seed=seed)
        self.children = [
            self.header(),
            self.beside(self.vira), self.message, self.facts, self.trick_title,
            w.HBox([self.beside(box) for box in self.cards], layout=w.Layout(flex_flow="row wrap")),
            self.compare, self.exercises,
        ]
        self.redraw()

    def plays(self):
        return self.read()[1]

    def read(self) -> tuple[Card, list[tuple[int, Card]]]:
        """(vira, [(seat, card)]) from the fields. A refusal (a TrucoError from the catalogue)
        carries the field it is about as `error.near`."""
        vira = self._card(self.vira, place="vira")
        plays: list[tuple[int, Card]] = []
        for seat, box in enumerate(self.cards):
            card = self._card(box, place="trick", seat=seat)
            if card == vira:
                raise _near(TrucoError("vira_in_hand", card=str(card)), box)
            if any(card == other for _, other in plays):
                raise _near(TrucoError("card_twice", card=str(card)), box)
            plays.append((seat, card))
        return vira, plays

    @staticmethod
    def _card(box, **where) -> Card:
        try:
            card = Card.parse(box.value)
        except ValueError:
            raise _near(TrucoError("unreadable_card", text=box.value.strip()[:40], **where), box) from None
        if card not in TRUCO_PACK:
            raise _near(TrucoError("card_not_in_pack", card=str(card), **where), box)
        return card

    def show_error(self, error: BaseException, near=None) -> None:
        """A refused field shows its error beside it (`read` names the field)."""
        super().show_error(error, near=getattr(error, "near", near))

    def _trick_changed(self) -> None:
        """The learner changed the vira or a card: redraw, and the live region says who wins
        the trick in each variant (a refused field says its refusal instead)."""
        self.redraw()
        vira, plays = self.read()
        self.announce([f"{v.label[self.lang]}: {self._winner(plays, v, vira)}" for v in (PAULISTA, MINEIRO)])

    def _winner(self, plays, variant, vira) -> str:
        team = trick_winner(plays, variant, vira if variant.uses_vira else None)
        return self.t("winner", team=self.t("tie") if team is None else team_label(team, self.lang))

    # Drawing ---------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        self.vira.description = self.t("vira")
        self.trick_title.value = f"<h4 style='margin:12px 0 2px'>{self.t('trick')}</h4>"
        for seat, box in enumerate(self.cards):
            box.description = f"{seat}"
        self.exercises.redraw()
        vira, _ = self.read()  # a refused field stops here, with its message beside it
        self.facts.value = self._facts(vira)
        self.compare.value = self._draw_compare(vira)

    def _variant_column(self, variant, vira) -> list[str]:
        uses = variant.uses_vira
        cards = manilhas(variant, vira if uses else None)
        labels = [manilha_label(name, self.lang) for name in variant.manilha_names]
        row = cards_row(cards, width=46, highlights=["manilha"] * 4, labels=labels)
        steps = " · ".join(f"{name} {worth}/{pays}" for name, worth, pays in ladder_rows(variant.key) if name)
        name = variant.threshold_name
        return [
            (f"{card_svg(vira, width=40, highlight='vira')} " if uses else "")
            + self.t("vira_yes" if uses else "vira_no"),
            f"<div class='cartas-manilhas' data-variant='{variant.key}'>{row}</div>",
            f"<b class='cartas-base' data-variant='{variant.key}'>{variant.base_value}</b>",
            escape(steps),
            escape(self.t("threshold_text", name=name, t=variant.threshold, value=variant.threshold_value,
                          run=variant.threshold_run_value)),
            self.t("ferro_text", t=variant.threshold),
        ]

    def _facts(self, vira) -> str:
        heads = ["vira_row", "manilhas", "base", "ladder", "threshold", "ferro"]
        cols = [self._variant_column(v, vira) for v in (PAULISTA, MINEIRO)]
        rows = "".join(
            f"<tr><th style='text-align:left;vertical-align:top'>{self.t(h)}</th>"
            f"<td style='vertical-align:top'>{a}</td><td style='vertical-align:top'>{b}</td></tr>"
            for h, a, b in zip(heads, cols[0], cols[1]))
        top = (f"<tr><th></th><th>{PAULISTA.label[self.lang]}</th><th>{MINEIRO.label[self.lang]}</th></tr>")
        return f"<table style='font-size:15px;border-spacing:14px 6px'>{top}{rows}</table>"

    def _draw_compare(self, vira) -> str:
        plays = self.plays()
        columns = []
        for variant in (PAULISTA, MINEIRO):
            v = vira if variant.uses_vira else None
            team = trick_winner(plays, variant, v)
            winner = self._winner(plays, variant, vira)
            shown = cards_row([c for _, c in plays], width=50,
                              highlights=["manilha" if c in manilhas(variant, v) else None for _, c in plays],
                              labels=[f"{s} · {TEAM_LETTERS[team_of(s)]}" for s, _ in plays])
            colour = "#555" if team is None else TEAM_COLOURS[team]
            columns.append(
                f"<div class='cartas-verdict' data-variant='{variant.key}' "
                f"data-team='{'-' if team is None else TEAM_LETTERS[team]}' "
                f"style='margin-right:30px;max-width:420px'><b>{variant.label[self.lang]}</b>{shown}"
                f"<div style='font-size:16px;color:{colour}'><b>{escape(winner)}</b></div>"
                f"<div style='font-size:14px'>{escape(explain_trick(plays, variant, v, self.lang))}</div></div>")
        return f"<div style='display:flex'>{''.join(columns)}</div>"

    # Exercises -------------------------------------------------------------------------
    def _question(self, rng) -> Question:
        """Kinds in turn: a duel, then what running from a raise pays (the engine's kinds,
        `cartas.questions`)."""
        self._kind += 1
        return draw_question("truco_mineiro", rng, turn=self._kind - 1)


def _near(error: TrucoError, control) -> TrucoError:
    """`error`, marked as being about `control` (shown beside it)."""
    error.near = control  # type: ignore[attr-defined]
    return error
