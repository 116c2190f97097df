"""The manilha explorer: pick or draw a vira, see the manilhas and the strength of all 40 cards,
and practise with questions that answer at once.

Decided rules for the questions (seeded, alternating two kinds, for the chosen variant):
- Paulista: "the vira is X: which rank is the manilha?"; Mineiro has no vira, so it asks
  "which of these four cards is a manilha?" instead;
- both: "which of these two cards is stronger?" (two cards of different strength; in
  Paulista under a drawn vira that neither card is).
Switching the variant replaces the question on screen.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import TRUCO_PACK, Card, lazy_rng
from cartas.questions import Question, draw_question
from cartas.truco import NATURAL_ORDER, get_variant, manilha_label, manilha_rank, manilhas, ranking
from widgets.components.base import View, html, variant_toggle
from widgets.components.exercises import Exercises
from widgets.draw.svg import card_svg, cards_row

TEXT = {
    "title": {"pt": "Explorador de manilhas", "en": "Manilha explorer"},
    "variant": {"pt": "Variante", "en": "Variant"},
    "vira": {"pt": "Vira", "en": "Vira"},
    "draw": {"pt": "Sortear vira", "en": "Draw a vira"},
    "vira_caption": {"pt": "A vira", "en": "The vira"},
    "step": {
        "pt": "Na ordem natural, depois do <b>{vira}</b> vem o <b>{next}</b>: as manilhas são os <b>{next}</b>.",
        "en": "In the natural order, after <b>{vira}</b> comes <b>{next}</b>: the manilhas are the <b>{next}</b>s.",
    },
    "wrap": {
        "pt": "O 3 é a carta mais alta da ordem, então a contagem dá a volta e recomeça no 4.",
        "en": "3 is the highest rank of the order, so the count wraps around and starts again at 4.",
    },
    "mineiro_fixed": {
        "pt": "No Truco Mineiro não há vira: as manilhas são sempre as mesmas quatro cartas.",
        "en": "Truco Mineiro has no vira: the manilhas are always the same four cards.",
    },
    "manilhas": {"pt": "As manilhas, da mais fraca à mais forte", "en": "The manilhas, weakest to strongest"},
    "suit_order": {
        "pt": "Entre as manilhas vale o naipe: ouros ♦ &lt; espadas ♠ &lt; copas ♥ &lt; paus ♣ (o zap).",
        "en": "Among the manilhas the suit decides: diamonds ♦ &lt; spades ♠ &lt; hearts ♥ &lt; clubs ♣ (the zap).",
    },
    "ranking": {"pt": "Força de todas as 40 cartas (da mais forte para a mais fraca)",
                "en": "Strength of all 40 cards (strongest first)"},
    "ranking_note": {"pt": "Cartas na mesma linha empatam.", "en": "Cards on the same line are equal."},
}


def _rank_box(rank, colour: str | None) -> str:
    style = "display:inline-block;min-width:30px;padding:4px 6px;margin:2px;border-radius:5px;" \
            "text-align:center;font-size:20px;font-weight:bold;border:2px solid "
    style += f"{colour};background:{colour};color:white" if colour else "#999;color:#333"
    return f'<span class="cartas-rank" style="{style}">{rank.value}</span>'


class ManilhaExplorer(View):
    """Learner picks the variant and the vira; the view asks the engine and draws the answer."""

    TEXT = TEXT

    def __init__(self, variant="paulista", vira="K♠", seed=None, lang=None):
        super().__init__(lang=lang)
        self._rng = lazy_rng(seed)  # numpy loads at the first draw, not with the page
        self._relabelling = False

        self.variant = variant_toggle(variant)
        self.vira = w.Dropdown(options=self._vira_options(), value=Card.parse(vira),
                               layout=w.Layout(width="270px"), _dom_classes=("cartas-vira",))
        self.draw_button = w.Button(layout=w.Layout(width="150px"), _dom_classes=("cartas-draw",))
        # The vira, the step, the manilhas and the ranking are drawn together into one box (one
        # widget for the page to open); each part keeps its class inside it.
        self.board = html("cartas-board")
        self.vira_html = self.step_html = self.manilhas_html = self.ranking_html = ""

        self.variant.observe(self.guarded(self._on_variant), names="value")
        self.vira.observe(self.guarded(self._on_vira), names="value")
        self.draw_button.on_click(self.guarded(lambda _: self.draw_vira()))
        self._kind = 0
        self.exercises = Exercises(self, "manilhas", self._question, seed=self._rng)

        self.vira_controls = w.HBox([self.vira, self.draw_button])
        self.children = [
            self.header(),
            self.variant, self.vira_controls, self.message,
            self.board, self.exercises,
        ]
        self.redraw()

    @property
    def rng(self):
        """The seeded Generator of the vira draws and the questions (one stream)."""
        return self._rng()

    def _vira_options(self):
        self._vira_labels = self.lang
        return [(f"{card}  ({card.name(self.lang)})", card) for card in TRUCO_PACK]

    def _relabel_viras(self) -> None:
        """Card names follow the language; the chosen vira stays."""
        chosen = self.vira.value
        self._relabelling = True
        try:
            self.vira.options = self._vira_options()
            self.vira.value = chosen
        finally:
            self._relabelling = False

    def _on_vira(self, _change) -> None:
        if not self._relabelling:
            self.redraw()

    # Actions ---------------------------------------------------------------------------
    def draw_vira(self) -> Card:
        """Turn a random card of the pack as the vira (seeded, so a lesson can replay it)."""
        card = TRUCO_PACK[int(self.rng.integers(len(TRUCO_PACK)))]
        self.vira.value = card
        return card

    def _on_variant(self, _change) -> None:
        self.exercises.replace_question()  # a Mineiro learner is never asked about a vira
        self.redraw()

    # Questions -------------------------------------------------------------------------
    def _question(self, rng) -> Question:
        """Alternate the variant's manilha question and a "which is stronger" question (the
        engine's kinds, `cartas.questions`)."""
        self._kind += 1
        return draw_question("manilhas", rng, variant=self.variant.value, turn=self._kind - 1)

    # Drawing ---------------------------------------------------------------------------
    def redraw(self) -> None:
        variant = get_variant(self.variant.value)
        vira = self.vira.value if variant.uses_vira else None
        self.draw_title()
        self.draw_button.description = self.t("draw")
        self.vira.description = self.t("vira")
        self.vira_controls.layout.display = None if variant.uses_vira else "none"
        if self._vira_labels != self.lang:
            self._relabel_viras()
        self._draw_vira_and_step(variant, vira)
        self._draw_manilhas(variant, vira)
        self._draw_ranking(variant, vira)
        self.board.value = (
            "<div style='display:flex;gap:16px;align-items:flex-start'>"
            f"<div class='cartas-vira-card'>{self.vira_html}</div>"
            f"<div><div class='cartas-step'>{self.step_html}</div>"
            f"<div class='cartas-manilhas'>{self.manilhas_html}</div></div></div>"
            f"<div class='cartas-ranking'>{self.ranking_html}</div>")
        self.exercises.redraw()

    def _draw_vira_and_step(self, variant, vira) -> None:
        if vira is None:
            self.vira_html = ""
            self.step_html = f"<p style='font-size:17px'>{self.t('mineiro_fixed')}</p>"
            return
        self.vira_html = card_svg(vira, width=96, highlight="vira", label=self.t("vira_caption"))
        following = manilha_rank(vira)
        strip = "".join(
            _rank_box(rank, "#1565c0" if rank == vira.rank else "#f9a825" if rank == following else None)
            for rank in NATURAL_ORDER
        )
        text = self.t("step", vira=vira.rank.value, next=following.value)
        wraps = NATURAL_ORDER.index(following) < NATURAL_ORDER.index(vira.rank)
        if wraps:
            text += " " + self.t("wrap")
        self.step_html = f"<div>{strip} ↻</div><p style='font-size:17px'>{text}</p>"

    def _draw_manilhas(self, variant, vira) -> None:
        cards = manilhas(variant, vira)
        labels = [manilha_label(name, self.lang) for name in variant.manilha_names]
        self.manilhas_html = (
            f"<b>{self.t('manilhas')}</b>"
            + cards_row(cards, width=80, highlights=["manilha"] * 4, labels=labels)
            + f"<p>{self.t('suit_order') if variant.uses_vira else ''}</p>"
        )

    def _draw_ranking(self, variant, vira) -> None:
        rows = []
        for place, group in enumerate(reversed(ranking(variant, vira)), start=1):
            cards = cards_row(group, width=34, gap=3)
            names = escape(" ".join(str(c) for c in group))
            rows.append(f"<tr data-cards='{names}'><td style='font-size:16px;padding-right:8px'>{place}º</td>"
                        f"<td>{cards}</td></tr>")
        self.ranking_html = (f"<b>{self.t('ranking')}</b> <i>{self.t('ranking_note')}</i>"
                                  f"<table>{''.join(rows)}</table>")

