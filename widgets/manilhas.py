"""The manilha explorer: pick or draw a vira, see the manilhas and the strength of all 40 cards,
and practise with questions that answer at once."""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import TRUCO_PACK, Card, make_rng
from cartas.truco import NATURAL_ORDER, get_variant, manilha_rank, manilhas, ranking

from .base import View, score_html, variant_toggle, verdict_html
from .progress import Score
from .svg import card_svg, cards_row

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
        "en": "Among the manilhas the suit decides: ouros ♦ &lt; espadas ♠ &lt; copas ♥ &lt; paus ♣ (the zap).",
    },
    "ranking": {"pt": "Força de todas as 40 cartas (da mais forte para a mais fraca)",
                "en": "Strength of all 40 cards (strongest first)"},
    "ranking_note": {"pt": "Cartas na mesma linha empatam.", "en": "Cards on the same line are equal."},
    "quiz": {"pt": "Pergunta", "en": "Question"},
    "question": {"pt": "A vira é {vira}. Qual é a manilha?", "en": "The vira is {vira}. Which rank is the manilha?"},
    "next_question": {"pt": "Outra pergunta", "en": "Another question"},
    "right": {"pt": "Certo! Depois do {vira} vem o {next}.", "en": "Right! After {vira} comes {next}."},
    "wrong": {"pt": "Não: depois do {vira} vem o {next}, então a manilha é {next}, não {answer}.",
              "en": "No: after {vira} comes {next}, so the manilha is {next}, not {answer}."},
    "score": {"pt": "Acertos: {right} de {asked}", "en": "Score: {right} of {asked}"},
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
        self.rng = make_rng(seed)
        self.score = Score("manilhas")
        self.question_vira: Card | None = None
        self._relabelling = False

        self.variant = variant_toggle(variant)
        self.vira = w.Dropdown(options=self._vira_options(), value=Card.parse(vira),
                               layout=w.Layout(width="270px")).add_class("cartas-vira")
        self.draw_button = w.Button(layout=w.Layout(width="150px")).add_class("cartas-draw")
        self.vira_box = w.HTML().add_class("cartas-vira-card")
        self.step = w.HTML().add_class("cartas-step")
        self.manilhas_box = w.HTML().add_class("cartas-manilhas")
        self.ranking_box = w.HTML().add_class("cartas-ranking")

        self.quiz_title = w.HTML()
        self.question = w.HTML().add_class("cartas-question")
        self.answer_buttons = [
            w.Button(description=rank.value, layout=w.Layout(width="48px")).add_class("cartas-answer")
            for rank in NATURAL_ORDER
        ]
        self.feedback = w.HTML().add_class("cartas-feedback")
        self.score_label = w.HTML().add_class("cartas-score")
        self.next_button = w.Button(layout=w.Layout(width="170px")).add_class("cartas-next")

        self.variant.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.vira.observe(self.guarded(self._on_vira), names="value")
        self.draw_button.on_click(self.guarded(lambda _: self.draw_vira()))
        for rank, button in zip(NATURAL_ORDER, self.answer_buttons):
            button.on_click(self.guarded(lambda _, rank=rank: self.answer(rank)))
        self.next_button.on_click(self.guarded(lambda _: self.new_question()))

        self.vira_controls = w.HBox([self.vira, self.draw_button])
        self.children = [
            self.header(),
            self.variant, self.vira_controls, self.message,
            w.HBox([self.vira_box, w.VBox([self.step, self.manilhas_box])]),
            self.ranking_box,
            self.quiz_title, self.question, w.HBox(self.answer_buttons), self.feedback,
            w.HBox([self.score_label, self.next_button]),
        ]
        self.new_question(redraw=False)
        self.redraw()

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

    def new_question(self, redraw: bool = True) -> None:
        self.question_vira = TRUCO_PACK[int(self.rng.integers(len(TRUCO_PACK)))]
        self.answered = False
        self.feedback.value = ""
        if redraw:
            self.redraw()

    def answer(self, rank) -> bool:
        vira = self.question_vira
        correct_rank = manilha_rank(vira)
        correct = rank == correct_rank
        if not self.answered:
            self.score.add(correct)
            self.answered = True
        fields = {"vira": vira.rank.value, "next": correct_rank.value, "answer": rank.value}
        self.feedback.value = verdict_html(correct, self.t("right" if correct else "wrong", **fields))
        self._draw_score()
        return correct

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
        self.quiz_title.value = f"<h4 style='margin:12px 0 2px'>{self.t('quiz')}</h4>"
        self.question.value = (f"<div style='font-size:18px'>{self.t('question', vira=self.question_vira)}</div>")
        self.next_button.description = self.t("next_question")
        self._draw_score()

    def _draw_vira_and_step(self, variant, vira) -> None:
        if vira is None:
            self.vira_box.value = ""
            self.step.value = f"<p style='font-size:17px'>{self.t('mineiro_fixed')}</p>"
            return
        self.vira_box.value = card_svg(vira, width=96, highlight="vira", label=self.t("vira_caption"))
        following = manilha_rank(vira)
        strip = "".join(
            _rank_box(rank, "#1565c0" if rank == vira.rank else "#f9a825" if rank == following else None)
            for rank in NATURAL_ORDER
        )
        text = self.t("step", vira=vira.rank.value, next=following.value)
        wraps = NATURAL_ORDER.index(following) < NATURAL_ORDER.index(vira.rank)
        if wraps:
            text += " " + self.t("wrap")
        self.step.value = f"<div>{strip} ↻</div><p style='font-size:17px'>{text}</p>"

    def _draw_manilhas(self, variant, vira) -> None:
        cards = manilhas(variant, vira)
        labels = list(variant.manilha_names)
        self.manilhas_box.value = (
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
        self.ranking_box.value = (f"<b>{self.t('ranking')}</b> <i>{self.t('ranking_note')}</i>"
                                  f"<table>{''.join(rows)}</table>")

    def _draw_score(self) -> None:
        self.score_label.value = score_html(self.t, self.score)
