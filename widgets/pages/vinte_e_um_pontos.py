"""21 scoring: pick cards, see their total under each ace option, bust and the two-card 21,
then compare a player with the banker and see who takes the bet. Questions answer at once.

Every number comes from `cartas.vinte_e_um`; the comparison is the engine's `judge_call`
(the cards each hand really plays, then `call_winner`, the function its rounds settle every
call with) and `explain_call` says why.

Decided rules for what is shown: a hand's total under each ace option counts only the cards
it really plays (`playable`: none after 21 or a bust), so a total never disagrees with the
comparison; "estourou!" and "21 com duas cartas!" are said for the table's ace only, and the
two-card 21 says what it earns (a player: the bet at even money, and the bank in the "21 com
duas cartas" mode; the banker: every bet at once).

The page opens without numpy: the view is drawn in the cell, and the first question's seeded
cards are drawn right after it (`widgets.components.later.after_paint`), before the learner's browser
shows the widgets.
"""
from __future__ import annotations

import re
from html import escape
from typing import Any

import ipywidgets as w

from cartas.cards import STANDARD_PACK, Card, lazy_rng
from cartas.questions import MAX_SEED, find_kind
from cartas.vinte_e_um import (
    ACE_OPTIONS,
    CATALOGUE,
    VinteEUmError,
    explain_call,
    is_bust,
    is_two_card_21,
    judge_call,
    playable,
    points,
)
from widgets.components.base import View
from widgets.components.exercises import FirstAnswer, NoRepeats, belief_html
from widgets.components.i18n import from_catalogue, translate
from widgets.components.later import after_paint
from widgets.draw.svg import cards_row

TEXT = {
    **from_catalogue(CATALOGUE, player="c_player_seat", banker="c_banker_seat", q_worth="q_worth", q_call="q_call",
                     answer_player="c_player", answer_banker="c_banker", worth_is="r_worth", flexible="c_flexible"),
    "title": {"pt": "21: quanto vale a mão?", "en": "21: what is the hand worth?"},
    "card": {"pt": "Carta", "en": "Card"},
    "to_player": {"pt": "+ jogador", "en": "+ player"},
    "to_banker": {"pt": "+ banca", "en": "+ banker"},
    "undo_player": {"pt": "− jogador", "en": "− player"},
    "undo_banker": {"pt": "− banca", "en": "− banker"},
    "clear": {"pt": "Limpar", "en": "Clear"},
    "no_cards": {"pt": "nenhuma carta", "en": "no cards"},
    "ace_option": {"pt": "Ás vale", "en": "Ace counts"},
    "table_ace": {"pt": "Ás na mesa", "en": "Table's ace"},
    "total": {"pt": "Total", "en": "Total"},
    "bust": {"pt": "estourou!", "en": "bust!"},
    "natural": {"pt": "21 com duas cartas!", "en": "two-card 21!"},
    "natural_player": {
        "pt": "21 com duas cartas: ganha a aposta como qualquer vitória (1 para 1) e, na mesa que passa "
              "a banca pelo 21 com duas cartas, toma a banca no fim da rodada.",
        "en": "Two-card 21: it wins the bet like any win (even money) and, at a table that passes "
              "the bank on a two-card 21, takes the bank after the round."},
    "natural_banker": {
        "pt": "21 com duas cartas na banca: ela mostra as cartas e leva todas as apostas na hora.",
        "en": "Two-card 21 for the banker: the bank shows its cards and takes every bet at once."},
    "other_aces": {"pt": "se o ás valesse", "en": "if the ace counted"},
    "twice": {"pt": "{card} já está na mesa: num baralho cada carta existe uma vez só",
              "en": "{card} is already on the table: a pack holds each card once only"},
    "compare": {"pt": "Quem ganha a aposta?", "en": "Who wins the bet?"},
    "need_two": {"pt": "Para comparar, o jogador e a banca precisam de pelo menos duas cartas.",
                 "en": "To compare, the player and the banker need two cards at least."},
    "winner_player": {"pt": "Ganha o jogador: recebe a aposta de volta e mais o mesmo tanto da banca.",
                      "en": "The player wins: the bet comes back plus as much again from the banker."},
    "winner_banker": {"pt": "Ganha a banca: ela fica com a aposta.",
                      "en": "The banker wins: the bank keeps the bet."},
    "unused": {"pt": "As cartas a partir de {cards} não entram: a mão já tinha terminado.",
               "en": "The cards from {cards} on are not used: the hand was already over."},
    "answer": {"pt": "Responder", "en": "Answer"},
    "worth_hint": {"pt": "pontos", "en": "points"},
    "need_number": {"pt": "Escreva um número, por exemplo 17, e depois clique em Responder.",
                    "en": "Type a number, for example 17, then click Answer."},
}
TYPED = re.compile(r"[+]?\d{1,3}")  # a total as typed: a whole number (a hand is worth at most 31)


def ace_label(ace, lang: str) -> str:
    return TEXT["flexible"][lang] if ace == "flexible" else str(ace)


class HandScorer(View):
    """Pick the player's and the banker's cards; the engine scores and settles them."""

    TEXT = TEXT

    def __init__(self, player=("A♠", "7♥"), banker=("10♦", "7♣"), ace=1, seed=None, lang=None):
        super().__init__(lang=lang)
        self._rng = lazy_rng(seed)  # numpy loads with the first question, right after the page
        self.q_hand: list = []  # the question's cards, from the first question on
        self.block = FirstAnswer(self, "vinte_e_um_pontos")  # the rule, texts and marks of every exercise
        self.draws = NoRepeats(lambda q: q)
        self._call_seeds: dict[tuple, int] = {}  # each question drawn -> its own seed
        self.score = self.block.score
        self.player_cards = [Card.parse(c) for c in player]
        self.banker_cards = [Card.parse(c) for c in banker]
        self._labels_lang = None

        self.card = w.Dropdown(layout=w.Layout(width="300px"),
                               style={"description_width": "initial"}).add_class("cartas-card-pick")
        self.buttons = {key: w.Button(layout=w.Layout(width="110px")).add_class(f"cartas-{key.replace('_', '-')}")
                        for key in ("to_player", "to_banker", "undo_player", "undo_banker", "clear")}
        self.ace = w.ToggleButtons(options=[("1", 1), ("11", 11), ("flex", "flexible")], value=ace,
                                   style={"button_width": "70px"}).add_class("cartas-ace")
        self.player_box = w.HTML().add_class("cartas-player-hand")
        self.banker_box = w.HTML().add_class("cartas-banker-hand")
        self.result = w.HTML().add_class("cartas-result")

        self.quiz_title = w.HTML()
        self.question = w.HTML().add_class("cartas-question")
        self.worth = w.Text(value="", layout=w.Layout(width="80px"),  # empty until the learner types
                            _dom_classes=("cartas-sr-label", "cartas-worth"))
        self.answer_button = w.Button(layout=w.Layout(width="120px")).add_class("cartas-answer")
        self.who_player = w.Button(layout=w.Layout(width="120px")).add_class("cartas-answer-player")
        self.who_banker = w.Button(layout=w.Layout(width="120px")).add_class("cartas-answer-banker")
        self.worth_box = w.HBox([self.worth, self.answer_button])
        self.worth_row = self.beside(self.worth_box)  # "type a number" is said beside the field
        self.who_row = w.HBox([self.who_player, self.who_banker])
        self.feedback = self.block.feedback
        self.score_label = self.block.score_label
        self.next_button = self.block.next_button

        actions = {"to_player": lambda: self.add("player"), "to_banker": lambda: self.add("banker"),
                   "undo_player": lambda: self.remove("player"), "undo_banker": lambda: self.remove("banker"),
                   "clear": self.clear}
        for key, action in actions.items():
            self.buttons[key].on_click(self.guarded(lambda _, action=action: action(), near=self.card))
        self.ace.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.answer_button.on_click(self.guarded(lambda _: self.answer_typed(self.worth.value)))
        self.worth.continuous_update = False  # Enter answers (the value changes on Enter)
        self.worth.observe(self.guarded(self._on_worth), names="value")
        self.who_player.on_click(self.guarded(lambda _: self.answer("player")))
        self.who_banker.on_click(self.guarded(lambda _: self.answer("banker")))
        self.next_button.on_click(self.guarded(lambda _: self.new_question()))

        b = self.buttons
        self.children = [
            self.header(),
            w.HBox([self.beside(self.card), b["to_player"], b["to_banker"]]),
            w.HBox([b["undo_player"], b["undo_banker"], b["clear"]]),
            self.message,
            w.HBox([self.player_box, self.banker_box]),
            w.HBox([w.HTML(), self.ace]), self.result,
            self.quiz_title, self.question, self.worth_row, self.who_row, self.feedback,
            w.HBox([self.score_label, self.next_button]),
        ]
        self.redraw()
        after_paint(self.guarded(self.new_question))

    @property
    def rng(self):
        """The seeded Generator of the questions."""
        return self._rng()

    # Actions ---------------------------------------------------------------------------
    def _hand(self, who: str) -> list:
        return self.player_cards if who == "player" else self.banker_cards

    def add(self, who: str, card=None) -> None:
        """Deal `card` (default: the one picked) to `who`; one pack, so a card already on the
        table is refused with the reason."""
        card = Card.parse(card if card is not None else self.card.value)
        if card in self.player_cards or card in self.banker_cards:
            raise ValueError(self.t("twice", card=card))
        self._hand(who).append(card)
        self.redraw()

    def remove(self, who: str) -> None:
        if self._hand(who):
            self._hand(who).pop()
        self.redraw()

    def clear(self) -> None:
        self.player_cards.clear()
        self.banker_cards.clear()
        self.redraw()

    def _draw(self, count: int, avoid=()) -> list:
        pool = [c for c in STANDARD_PACK if c not in avoid]
        return [pool[i] for i in self.rng.choice(len(pool), size=count, replace=False)]

    @property
    def answered(self) -> bool:
        return self.block.answered

    def _worth_question(self) -> tuple:
        """A hand as it can be dealt: no card after it reached 21 or went over (`playable`;
        "A♠ J♠ J♦" with the ace as 11 stops at the two-card 21, it is never worth 31)."""
        seed = int(self.rng.integers(MAX_SEED))  # the registry's question of a seed of its own
        asked = find_kind("vinte_e_um_pontos.worth").make_seeded(seed)
        facts: dict[str, Any] = dict(asked.facts)
        made = ("worth", facts["ace"], tuple(facts["hand"]), ())
        self._call_seeds[made] = seed
        return made

    def _call_question(self) -> tuple:
        """The registry's "who wins this call" question of a seed of its own (kept whole with
        its answer, classroom.answers): its hands."""
        seed = int(self.rng.integers(MAX_SEED))
        asked = find_kind("vinte_e_um_pontos.call").make_seeded(seed)
        hands: dict[str, Any] = dict(asked.facts)
        made = ("call", 1, tuple(hands["player"]), tuple(hands["banker"]))
        self._call_seeds[made] = seed
        return made

    def new_question(self, redraw: bool = True) -> None:
        """Alternate "what is this hand worth" and "who wins this call", seeded, never the
        question just asked (`widgets.components.exercises.NoRepeats`)."""
        make = self._call_question if getattr(self, "kind", "call") == "worth" else self._worth_question
        self.kind, self.q_ace, hand, banker = self.draws.draw(make)
        self.q_hand, self.q_banker = list(hand), list(banker)
        self.block.ask({"player": self.who_player, "banker": self.who_banker})
        self._resetting = True
        try:
            self.worth.value = ""
        finally:
            self._resetting = False
        if redraw:
            self.redraw()

    def correct_answer(self):
        if self.kind == "worth":
            return points(self.q_hand, self.q_ace)
        return judge_call(self.q_hand, self.q_banker, self.q_ace)[2]

    def answer(self, given) -> bool:
        """The first answer scores, is marked and its verdict stays; later clicks change nothing
        (`widgets.components.exercises.FirstAnswer`)."""
        right = self.correct_answer()
        if self.kind == "worth":
            # kept whole, any total typed: the registry's question judges it (`Question.typed`),
            # one outside its choices named by the same readings
            seed = self._call_seeds.get(("worth", self.q_ace, tuple(self.q_hand), ()))
            worth = None if seed is None else find_kind("vinte_e_um_pontos.worth").make_seeded(seed)

            def worth_is(lang: str) -> str:
                told = escape(translate(TEXT, "worth_is", lang, points=right))
                belief = "" if worth is None else belief_html(worth, given, lang)
                return f"{belief} {told}" if belief else told
            return self.block.answer(given, right, worth_is, widget=self.worth, skill="score_21_hand",
                                     question=worth if worth is not None and worth.answer == right else None)
        player, banker, _ = judge_call(self.q_hand, self.q_banker, self.q_ace)
        seed = self._call_seeds.get(("call", self.q_ace, tuple(self.q_hand), tuple(self.q_banker)))
        asked = None if seed is None else find_kind("vinte_e_um_pontos.call").make_seeded(seed)

        def why(lang: str) -> str:
            told = escape(explain_call(player, banker, self.q_ace, lang))
            belief = "" if asked is None else belief_html(asked, given, lang)
            return f"{belief} {told}" if belief else told
        return self.block.answer(given, right, why, skill="who_wins_21_call",
                                 question=asked if asked is not None and asked.answer == right else None)

    def answer_typed(self, text) -> bool | None:
        """The total the learner typed (the button, or Enter in the field). An empty field or
        anything but a whole number is no answer: a short message beside the field says to
        type a number, nothing is scored and the question stays open (None)."""
        text = text.strip() if isinstance(text, str) else ""
        if not TYPED.fullmatch(text):
            if self.kind == "worth" and not self.answered:
                self.show_refusal(self.t("need_number"), near=self.worth_box)
            return None
        return self.answer(int(text))

    def _on_worth(self, _change) -> None:
        if self.kind == "worth" and not self.answered and not self._resetting:
            self.answer_typed(self.worth.value)

    # Drawing ---------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        if self._labels_lang != self.lang:
            chosen = self.card.value
            self.card.options = [(f"{c}  ({c.name(self.lang)})", c) for c in STANDARD_PACK]
            self.card.value = chosen or STANDARD_PACK[0]
            self._labels_lang = self.lang
        self.card.description = self.t("card")
        for key, button in self.buttons.items():
            button.description = self.t(key)
        self.ace.description = self.t("table_ace")
        self.player_box.value = self._hand_html("player", self.player_cards)
        self.banker_box.value = self._hand_html("banker", self.banker_cards)
        self._draw_comparison()
        self._draw_question()

    def _hand_html(self, who: str, cards) -> str:
        """The hand, and a line per ace option with the total of the cards it really plays;
        bust and two-card 21 are said for the table's ace only (all from the engine)."""
        rows, earns = [], ""
        for ace in ACE_OPTIONS:
            used = playable(cards, ace)
            notes = []
            chosen = ace == self.ace.value
            if chosen and is_bust(used, ace):
                notes.append(f"<span class='cartas-bust' style='color:#b71c1c'>{self.t('bust')}</span>")
            if chosen and is_two_card_21(used, ace):
                notes.append(f"<span class='cartas-natural' style='color:#2e7d32'>{self.t('natural')}</span>")
                earns = self.t("natural_" + who)
            style = "font-weight:bold;background:#fff3c4" if chosen else "color:#757575"
            label = self.t("ace_option") if chosen else self.t("other_aces")
            rows.append(f"<tr data-ace='{ace}' style='{style}'><td>{label} "
                        f"{escape(ace_label(ace, self.lang))}</td><td class='cartas-total'>"
                        f"{points(used, ace)}</td><td>{' '.join(notes)}</td></tr>")
        shown = cards_row(cards, width=64) if cards else f"<i>{self.t('no_cards')}</i>"
        note = f"<div class='cartas-earns' style='font-size:14px;color:#2e7d32'>{earns}</div>" if earns else ""
        return (f"<div style='margin:6px 18px 6px 0;min-width:330px;max-width:420px'><b>{self.t(who)}</b>{shown}"
                f"<table style='font-size:15px;border-spacing:8px 2px'>{''.join(rows)}</table>{note}</div>")

    def _draw_comparison(self) -> None:
        head = f"<h4 style='margin:8px 0 2px'>{self.t('compare')}</h4>"
        if len(self.player_cards) < 2 or len(self.banker_cards) < 2:
            self.result.value = head + f"<p>{self.t('need_two')}</p>"
            return
        try:
            player, banker, winner = judge_call(self.player_cards, self.banker_cards, self.ace.value)
        except VinteEUmError as error:
            reason = error.message(self.lang)
            refused = escape(self.t("not_possible", reason=reason))
            self.result.value = head + f"<p class='cartas-error' style='color:#b71c1c'>{refused}</p>"
            return
        lines = [escape(explain_call(player, banker, self.ace.value, self.lang))]
        for cards, used in ((self.player_cards, len(player)), (self.banker_cards, len(banker))):
            if used < len(cards):
                lines.append(self.t("unused", cards=escape(str(cards[used]))))
        colour = "#2e7d32" if winner == "player" else "#6d4c41"
        self.result.value = (head + f"<div class='cartas-winner' data-winner='{winner}' "
                             f"style='font-size:17px;color:{colour};font-weight:bold'>"
                             f"{self.t('winner_' + winner)}</div>"
                             + "".join(f"<div style='font-size:15px'>{line}</div>" for line in lines))

    def _draw_question(self) -> None:
        self.quiz_title.value = f"<h4 style='margin:12px 0 2px'>{self.block.t('title')}</h4>"
        if not self.q_hand:  # the first question comes right after the page
            return
        ace = ace_label(self.q_ace, self.lang)
        if self.kind == "worth":
            text, cards = self.t("q_worth", ace=ace), cards_row(self.q_hand, width=56)
        else:
            text = self.t("q_call", ace=ace)
            cards = (f"<div style='display:flex;gap:24px'>"
                     f"<div>{self.t('player')}{cards_row(self.q_hand, width=56)}</div>"
                     f"<div>{self.t('banker')}{cards_row(self.q_banker, width=56)}</div></div>")
        self.question.value = f"<div style='font-size:17px' data-kind='{self.kind}'>{text}</div>{cards}"
        self.worth_row.layout.display = None if self.kind == "worth" else "none"
        self.who_row.layout.display = None if self.kind == "call" else "none"
        self.answer_button.description = self.t("answer")
        self.worth.description = self.t("total")  # for a screen reader (class cartas-sr-label)
        self.worth.placeholder = self.t("worth_hint")
        self.who_player.description = self.block.label("player", self.t("answer_player"))
        self.who_banker.description = self.block.label("banker", self.t("answer_banker"))
        self.block.redraw()
