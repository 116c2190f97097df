"""The truco odds explorer: your hand, the vira and your seat; the chance of winning each
trick and the hand against random cards for the others (numpy Monte Carlo in the engine)."""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import parse_cards
from cartas.truco import get_variant, hand_odds

from .base import View, variant_toggle
from .svg import cards_row

TEXT = {
    "title": {"pt": "Chances no truco", "en": "Truco odds"},
    "hand": {"pt": "Sua mão", "en": "Your hand"},
    "vira": {"pt": "Vira", "en": "Vira"},
    "seen": {"pt": "Cartas já vistas", "en": "Cards already seen"},
    "position": {"pt": "Sua posição", "en": "Your position"},
    "positions": {"pt": ["mão (1º a jogar)", "2º", "3º", "pé (último)"],
                  "en": ["mão (leads)", "2nd", "3rd", "pé (last)"]},
    "compute": {"pt": "Calcular", "en": "Compute"},
    "trick": {"pt": "{n}ª rodada", "en": "Trick {n}"},
    "win": {"pt": "ganha", "en": "win"}, "tie": {"pt": "empata", "en": "tie"},
    "loss": {"pt": "perde", "en": "lose"}, "unplayed": {"pt": "não jogada", "en": "not played"},
    "hand_result": {"pt": "A mão", "en": "The hand"},
    "summary": {"pt": "Sua dupla leva a mão em {p}% das {n} simulações ({ms} ms).",
                "en": "Your team takes the hand in {p}% of {n} simulations ({ms} ms)."},
    "policy": {"pt": "Todos jogam como o robô de regras, sem truco; as cartas dos outros são sorteadas.",
               "en": "Everyone plays like the rule bot, without raises; the others' cards are random."},
}


def _bar(parts) -> str:
    return "".join(f"<span title='{escape(label)} {p:.0%}' style='display:inline-block;height:18px;"
                   f"width:{p * 300:.0f}px;background:{colour}'></span>" for label, p, colour in parts)


class TrucoOddsExplorer(View):
    TEXT = TEXT

    def __init__(self, variant="paulista", hand="3♣ 2♦ K♥", vira="7♠", position=0,
                 simulations=50_000, seed=None, lang=None):
        super().__init__(lang=lang)
        self.seed, self.simulations, self.odds, self.elapsed = seed, simulations, None, 0.0
        self.variant = variant_toggle(variant)
        self.hand = w.Text(value=hand).add_class("cartas-hand")
        self.vira = w.Text(value=vira).add_class("cartas-vira")
        self.seen = w.Text(value="").add_class("cartas-seen")
        self.position = w.Dropdown(options=[(str(i), i) for i in range(4)], value=position
                                   ).add_class("cartas-position")
        self.compute_button = w.Button(button_style="primary").add_class("cartas-compute")
        self.cards = w.HTML().add_class("cartas-odds-cards")
        self.result = w.HTML().add_class("cartas-odds")
        self.compute_button.on_click(self.guarded(lambda _: self.compute()))
        self.variant.observe(self.guarded(lambda _: self.compute()), names="value")
        self.position.observe(self.guarded(lambda _: self.compute()), names="value")
        self.children = [
            self.header(),
            self.variant, w.HBox([self.hand, self.vira]), w.HBox([self.seen, self.position]),
            self.compute_button, self.message, self.cards, self.result,
        ]
        self.compute()

    def compute(self):
        """Ask the engine for the odds of the position in the fields."""
        import time
        variant = get_variant(self.variant.value)
        vira = self.vira.value.strip() if variant.uses_vira else None
        start = time.perf_counter()
        odds = hand_odds(variant, parse_cards(self.hand.value), vira or None, self.position.value,
                         self.simulations, self.seed, seen=parse_cards(self.seen.value))
        self.odds, self.elapsed = odds, time.perf_counter() - start
        self.redraw()
        return odds

    def redraw(self) -> None:
        variant = get_variant(self.variant.value)
        self.draw_title()
        for field, key in ((self.hand, "hand"), (self.vira, "vira"), (self.seen, "seen"),
                           (self.position, "position")):
            field.description = self.t(key)
        self.vira.layout.display = None if variant.uses_vira else "none"
        chosen = self.position.value
        self.position.options = [(n, i) for i, n in enumerate(self.t("positions"))]
        self.position.value = chosen
        self.compute_button.description = self.t("compute")
        o = self.odds
        if o is None:
            return
        try:
            self.cards.value = cards_row(parse_cards(self.hand.value), width=70)
        except ValueError:
            self.cards.value = ""
        rows = []
        for k in range(3):
            parts = [(self.t("win"), o.trick_win[k], "#2e7d32"), (self.t("tie"), o.trick_tie[k], "#9e9e9e"),
                     (self.t("loss"), o.trick_loss[k], "#c62828"),
                     (self.t("unplayed"), 1 - o.trick_played[k], "#eeeeee")]
            rows.append(f"<tr class='cartas-odds-trick' data-win='{o.trick_win[k]:.4f}'><td>{self.t('trick', n=k + 1)}</td>"
                        f"<td>{_bar(parts)}</td><td>{self.t('win')} {o.trick_win[k]:.0%} · "
                        f"{self.t('tie')} {o.trick_tie[k]:.0%} · {self.t('loss')} {o.trick_loss[k]:.0%}</td></tr>")
        hand_parts = [(self.t("win"), o.hand_win, "#2e7d32"), (self.t("tie"), o.hand_none, "#9e9e9e"),
                      (self.t("loss"), o.hand_loss, "#c62828")]
        rows.append(f"<tr class='cartas-odds-hand' data-win='{o.hand_win:.4f}'><td><b>{self.t('hand_result')}</b></td>"
                    f"<td>{_bar(hand_parts)}</td><td><b>{self.t('win')} {o.hand_win:.0%}</b></td></tr>")
        summary = self.t("summary", p=f"{o.hand_win * 100:.1f}", n=f"{o.simulations:,}",
                         ms=f"{self.elapsed * 1000:.0f}")
        self.result.value = (f"<table style='font-size:15px;border-spacing:8px 4px'>{''.join(rows)}</table>"
                             f"<p class='cartas-odds-summary' style='font-size:16px'>{escape(summary)}</p>"
                             f"<p style='color:#555'>{self.t('policy')}</p>")
