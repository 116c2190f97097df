"""Bank rotation in 21: one worked example per mode of RULES.md, played by the engine.

Bots play the rounds; the choices about the bank are scripted so each example shows the
mode at work (a refusal before an acceptance, a bid raised, an offer refused then accepted).
The engine decides who may act and who ends up with the bank.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.vinte_e_um import PASS, ROTATION_LABELS, from_deal, narrate, new_game

from .base import View
from .vinte_e_um_rodada import bots_for
from .vinte_e_um_table import table_html

MODES = ("rounds", "natural", "auction", "sale")
TEXT = {
    "title": {"pt": "21: quem fica com a banca", "en": "21: who holds the bank"},
    "mode": {"pt": "Modo", "en": "Mode"},
    "explain_rounds": {
        "pt": "Depois de {n} rodadas, a banca é oferecida ao jogador à esquerda do banqueiro e depois "
              "aos outros, em volta da mesa. Se todos recusarem, ela é sorteada.",
        "en": "After {n} rounds the bank is offered to the player at the banker's left, then round "
              "the table. If everyone refuses, it is drawn by lot."},
    "explain_natural": {
        "pt": "Quem faz 21 com as duas primeiras cartas (ás valendo 11) toma a banca no fim da rodada.",
        "en": "A player who makes 21 with his first two cards (ace worth 11) takes the bank after the round."},
    "explain_auction": {
        "pt": "Depois de cada rodada a banca vai a leilão: o maior lance, pago ao banqueiro, leva a banca.",
        "en": "After every round the bank is auctioned: the highest bid, paid to the banker, takes it."},
    "explain_sale": {
        "pt": "Depois de cada rodada um jogador pode oferecer fichas pela banca; o banqueiro aceita ou não.",
        "en": "After every round a player may offer chips for the bank; the banker accepts or not."},
    "story": {"pt": "O que aconteceu", "en": "What happened"},
    "change": {"pt": "A banca passou do jogador {src} para o jogador {dst}.",
               "en": "The bank passed from seat {src} to seat {dst}."},
    "after": {"pt": "A mesa na rodada seguinte", "en": "The table in the next round"},
}
# Scripted answers about the bank, tried in order; an answer the engine refuses becomes "pass".
SCRIPTS = {
    "rounds": ["refuse_bank", "take_bank"],
    "auction": ["bid 2", "bid 3", "pass", "pass"],
    "sale": ["offer 2", "refuse_offer", "offer 4", "accept_offer"],
}


def rotation_example(mode: str, seed: int = 3):
    """Play until the bank changes hands in `mode`; returns (state, events from the round's end)."""
    if mode == "natural":
        state = from_deal(4, {1: "A♠", 2: "9♦", 3: "5♣", 0: "10♦"}, upcard="6♠", then=["K♥"],
                          banker=0, ace=11, rotation="natural", seed=seed)
    else:
        state = new_game(4, seed=seed, banker=0, rotation=mode, rotation_rounds=2)
    bots, script = bots_for(4, seed), list(SCRIPTS.get(mode, []))
    while not any(e["type"] == "bank_change" for e in state.events):
        if state.is_terminal():
            raise ValueError(f"no change of bank in the example for {mode!r}")
        seat = state.current_seat
        if state.phase == "rotation":
            choice = script.pop(0) if script else PASS
            if state.why_illegal(choice) is not None:
                choice = PASS
        else:
            choice = bots[seat].choose(state, seat)
        state.apply_action(choice, seat)
    first = max(i for i, e in enumerate(state.events) if e["type"] == "round_end")
    if mode == "natural":  # start at the face-up card that made the two-card 21
        first = next(i for i, e in enumerate(state.events) if e["type"] == "stand" and e["auto"]) - 1
    return state, state.events[first:]


class BankRotation(View):
    """Pick a rotation mode; the engine plays an example and shows the bank changing hands."""

    TEXT = TEXT

    def __init__(self, mode: str = "rounds", lang=None):
        super().__init__(lang=lang)
        self.title = w.HTML()
        self.mode = w.ToggleButtons(options=[(m, m) for m in MODES], value=mode,
                                    style={"button_width": "230px"}).add_class("cartas-mode")
        self.explain = w.HTML().add_class("cartas-explain")
        self.story = w.HTML().add_class("cartas-story")
        self.table = w.HTML().add_class("cartas-table-box")
        self.mode.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.children = [
            w.HBox([self.title, self.language], layout=w.Layout(justify_content="space-between")),
            self.mode, self.message, self.explain, self.story, self.table,
        ]
        self.redraw()

    def redraw(self) -> None:
        self.title.value = f"<h3 style='margin:4px 0'>{self.t('title')}</h3>"
        chosen = self.mode.value
        labels = [(ROTATION_LABELS[self.lang][m], m) for m in MODES]
        if list(self.mode.options) != labels:
            self.mode.options = labels
            self.mode.value = chosen
        self.mode.description = self.t("mode")
        state, events = rotation_example(chosen)
        self.explain.value = f"<p style='font-size:17px'>{self.t('explain_' + chosen, n=state.rotation_rounds)}</p>"
        change = next(e for e in events if e["type"] == "bank_change")
        lines = "".join(f"<div class='cartas-line'>{escape(narrate(e, self.lang))}</div>"
                        for e in events if e["type"] not in ("round_start", "deal"))
        self.story.value = (f"<b>{self.t('story')}</b><div style='font-size:16px;background:#f5f5f5;"
                            f"padding:6px 10px;border-radius:6px'>{lines}</div>"
                            f"<p class='cartas-change' data-from='{change['from']}' data-to='{change['to']}' "
                            f"style='font-size:18px;font-weight:bold'>"
                            f"{self.t('change', src=change['from'], dst=change['to'])}</p>")
        self.table.value = f"<b>{self.t('after')}</b>" + table_html(state, self.lang)
