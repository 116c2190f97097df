"""The truco odds explorer: your hand, the vira and your seat; the chance of winning each
trick and the hand against random cards for the others (numpy Monte Carlo in the engine).

Decided rules: Enter in a card field computes (as the button does); a card that cannot be
read, a card used twice, the vira in the hand or a card both held and seen is refused by the
engine, and its reason is shown beside the field that holds the card, in the page's
language; the odds shown stay those of the last good question. Numbers are written as the
language writes them (50.000 simulações, 67,6%).

The page opens without numpy: the view is drawn in the cell, and the odds of the position it
opens with are computed right after it (`widgets.components.later.after_paint`), before the learner's
browser shows the widgets.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import Card, CardError, parse_cards
from cartas.truco import TrucoError, get_variant
from widgets.components.base import View, variant_toggle
from widgets.components.i18n import number, percent
from widgets.components.later import after_paint
from widgets.draw.svg import cards_row

TEXT = {
    "title": {"pt": "Chances no truco", "en": "Truco odds"},
    "hand": {"pt": "Sua mão", "en": "Your hand"},
    "vira": {"pt": "Vira", "en": "Vira"},
    "seen": {"pt": "Cartas já vistas", "en": "Cards already seen"},
    "position": {"pt": "Sua posição", "en": "Your position"},
    "positions": {"pt": ["mão (1º a jogar)", "2º", "3º", "pé (último)"],
                  "en": ["first to play", "2nd", "3rd", "last to play"]},
    "compute": {"pt": "Calcular", "en": "Compute"},
    "trick": {"pt": "{n}ª rodada", "en": "Trick {n}"},
    "win": {"pt": "ganha", "en": "win"}, "tie": {"pt": "empata", "en": "tie"},
    "loss": {"pt": "perde", "en": "lose"}, "unplayed": {"pt": "não jogada", "en": "not played"},
    "hand_result": {"pt": "A mão", "en": "The hand"},
    "summary": {"pt": "Sua dupla leva a mão em {p} das {n} simulações ({ms} ms).",
                "en": "Your team takes the hand in {p} of {n} simulations ({ms} ms)."},
    "placeholder_hand": {"pt": "3 cartas, ex.: 3♣ 2♦ K♥", "en": "3 cards, e.g. 3♣ 2♦ K♥"},
    "placeholder_seen": {"pt": "ex.: 7♣ Q♦ (opcional)", "en": "e.g. 7♣ Q♦ (optional)"},
    "policy": {"pt": "Todos jogam como o robô de regras, sem truco; as cartas dos outros são sorteadas.",
               "en": "Everyone plays like the rule bot, without raises; the others' cards are random."},
}


def _cards(text: str, place: str) -> list[Card]:
    """The cards of one field; an unreadable one is refused naming the field (truco's own
    message, with truco cards as examples)."""
    try:
        return parse_cards(text)
    except CardError as error:
        if error.code == "unreadable_card":
            raise TrucoError("unreadable_card", text=str(error.fields.get("text", text))[:40],
                             place=place) from None
        raise


def _bar(parts, lang: str) -> str:
    """A bar 300 px wide on a wide screen, under a third of the screen on a phone."""
    inner = "".join(f"<span title='{escape(label)} {percent(p, lang, 0)}' style='display:inline-block;height:18px;"
                    f"width:{p * 100:.1f}%;background:{colour}'></span>" for label, p, colour in parts)
    return f"<span class='cartas-odds-bar' style='display:inline-flex;width:min(300px, 28vw)'>{inner}</span>"


class TrucoOddsExplorer(View):
    TEXT = TEXT

    def __init__(self, variant="paulista", hand="3♣ 2♦ K♥", vira="7♠", position=0,
                 simulations=50_000, seed=None, lang=None):
        super().__init__(lang=lang)
        self.seed, self.simulations, self.odds, self.elapsed = seed, simulations, None, 0.0
        self.variant = variant_toggle(variant)
        wide = {"description_width": "initial"}
        self.hand = w.Text(value=hand, continuous_update=False, style=wide,
                           layout=w.Layout(width="300px")).add_class("cartas-hand")
        self.vira = w.Text(value=vira, continuous_update=False, style=wide,
                           layout=w.Layout(width="150px")).add_class("cartas-vira")
        self.seen = w.Text(value="", continuous_update=False, style=wide,
                           layout=w.Layout(width="340px")).add_class("cartas-seen")
        self.position = w.Dropdown(options=[(str(i), i) for i in range(4)], value=position, style=wide,
                                   layout=w.Layout(width="280px")).add_class("cartas-position")
        self._asked = None  # the inputs of the odds shown
        self.compute_button = w.Button(button_style="primary").add_class("cartas-compute")
        self.cards = w.HTML().add_class("cartas-odds-cards")
        self.result = w.HTML().add_class("cartas-odds")
        self.compute_button.on_click(self.guarded(lambda _: self.compute()))
        self.variant.observe(self.guarded(lambda _: self.compute()), names="value")
        self.position.observe(self.guarded(lambda _: self.compute()), names="value")
        for field in (self.hand, self.vira, self.seen):  # Enter (or leaving the field) computes
            field.observe(self.guarded(lambda _: self.compute(again=False)), names="value")
        self._fields = {"mine": self.hand, "vira": self.vira, "seen": self.seen}
        self.children = [
            self.header(),
            self.variant, self.beside(self.hand), self.beside(self.vira), self.beside(self.seen),
            self.position, self.compute_button, self.message, self.cards, self.result,
        ]
        self.redraw()  # the page: fields and labels now, the odds right after
        after_paint(self.guarded(self.compute))

    def compute(self, again: bool = True):
        """Ask the engine for the odds of the position in the fields. A refusal is shown
        beside the field it names (the odds shown stay); `again=False` skips a question
        already answered (a field left without a change)."""
        import time

        from cartas.truco import hand_odds  # numpy: with the first odds, not with the page

        variant = get_variant(self.variant.value)
        asked = (variant.key, self.hand.value, self.vira.value if variant.uses_vira else "",
                 self.seen.value, self.position.value)
        if not again and asked == self._asked:
            return self.odds
        try:
            hand = _cards(self.hand.value, "mine")
            vira = _cards(self.vira.value, "vira") if variant.uses_vira else []
            if len(vira) > 1:
                raise TrucoError("unreadable_card", text=self.vira.value.strip()[:40], place="vira")
            seen = _cards(self.seen.value, "seen")
            start = time.perf_counter()
            odds = hand_odds(variant, hand, vira[0] if vira else None, self.position.value,
                             self.simulations, self.seed, seen=seen)
        except ValueError as error:
            place = getattr(error, "fields", {}).get("place")
            code = getattr(error, "code", None)
            place = {"odds_hand_size": "mine", "needs_vira": "vira", "odds_held_and_seen": "seen",
                     "odds_unseen": "seen"}.get(str(code), place)
            self.show_error(error, near=self._fields.get(place) if isinstance(place, str) else None)
            return None
        self.odds, self.elapsed, self._asked = odds, time.perf_counter() - start, asked
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
        self.hand.placeholder = self.t("placeholder_hand")
        self.seen.placeholder = self.t("placeholder_seen")
        o = self.odds
        if o is None:
            return
        try:
            self.cards.value = cards_row(parse_cards(self.hand.value), width=70)
        except ValueError:
            self.cards.value = ""
        rows = []
        lang = self.lang
        for k in range(3):
            parts = [(self.t("win"), o.trick_win[k], "#2e7d32"), (self.t("tie"), o.trick_tie[k], "#9e9e9e"),
                     (self.t("loss"), o.trick_loss[k], "#c62828"),
                     (self.t("unplayed"), 1 - o.trick_played[k], "#eeeeee")]
            rows.append(f"<tr class='cartas-odds-trick' data-win='{o.trick_win[k]:.4f}'>"
                        f"<td>{self.t('trick', n=k + 1)}</td><td>{_bar(parts, lang)}</td>"
                        f"<td>{self.t('win')} {percent(o.trick_win[k], lang, 0)} · "
                        f"{self.t('tie')} {percent(o.trick_tie[k], lang, 0)} · "
                        f"{self.t('loss')} {percent(o.trick_loss[k], lang, 0)}</td></tr>")
        hand_parts = [(self.t("win"), o.hand_win, "#2e7d32"), (self.t("tie"), o.hand_none, "#9e9e9e"),
                      (self.t("loss"), o.hand_loss, "#c62828")]
        rows.append(f"<tr class='cartas-odds-hand' data-win='{o.hand_win:.4f}'><td><b>{self.t('hand_result')}</b></td>"
                    f"<td>{_bar(hand_parts, lang)}</td>"
                    f"<td><b>{self.t('win')} {percent(o.hand_win, lang, 0)}</b></td></tr>")
        summary = self.t("summary", p=percent(o.hand_win, self.lang), n=number(o.simulations, self.lang),
                         ms=number(self.elapsed * 1000, self.lang))
        self.result.value = (f"<table style='font-size:15px;border-spacing:8px 4px'>{''.join(rows)}</table>"
                             f"<p class='cartas-odds-summary' style='font-size:16px'>{escape(summary)}</p>"
                             f"<p style='color:#555'>{self.t('policy')}</p>")
