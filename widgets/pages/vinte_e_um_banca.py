"""Bank rotation in 21: one worked example per mode of docs/rules.md, played by the engine.

Bots play the rounds; the choices about the bank are scripted so each example shows the
mode at work (a refusal before an acceptance, a bid raised, an offer refused then accepted).
The engine decides who may act and who ends up with the bank.

Decided rules for the exercise: it asks its three question kinds in turn (`TURN`). Two play
seeded variations of the examples: "who holds the bank now?" and "how many chips does the
new banker pay for it?" (nothing in the rounds and natural modes, the highest bid at
auction, the accepted offer in a sale); the engine's bank_change event is the answer, and
the story shown stops before it and before the decision that would give it away. The third
is the registry's natural-rotation question ("seat 1 holds 7 7 7, seat 2 A K...: who holds
the bank next round?", `cartas.questions.vinte_e_um.natural_question`), whose wrong answers
name "a two-card 21 is just 21". Each question comes from a seed of its own, and its answer
is kept whole with it (classroom.answers). Only the first answer scores.

The page opens without numpy: the view is drawn in the cell, and the example and the first
question are played right after it (`widgets.components.later.after_paint`), before the learner's browser
shows the widgets.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import lazy_rng, make_rng
from cartas.questions import MAX_SEED, Question, find_kind
from cartas.questions.vinte_e_um import MODES, PRICES, SEATS, rotation_example, rotation_question
from cartas.vinte_e_um import CATALOGUE, narrate, rotation_label
from widgets.components.base import View, close_drawing
from widgets.components.exercises import FirstAnswer, NoRepeats, belief_html
from widgets.components.i18n import from_catalogue, translate
from widgets.components.later import after_paint
from widgets.draw.vinte_e_um_table import table_html

TEXT = {
    **from_catalogue(CATALOGUE, question="q_bank_seat", hint_take="q_hint_take", hint_accept="q_hint_accept",
                     question_price="q_bank_price", seat="c_seat", chips="c_chips", one_chip="c_one_chip",
                     paid="r_paid"),
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
    "change": {"pt": "A banca passou do assento {src} para o assento {dst}.",
               "en": "The bank passed from seat {src} to seat {dst}."},
    "after": {"pt": "A mesa na rodada seguinte", "en": "The table in the next round"},
    "quiz": {"pt": "Exercício", "en": "Exercise"},
}
TURN = ("seat", "price", "natural")  # the exercise's question kinds (vinte_e_um_banca.<kind>), in turn
NATURAL = "vinte_e_um_banca.natural"


class BankRotation(View):
    """Pick a rotation mode; the engine plays an example and shows the bank changing hands."""

    TEXT = TEXT

    def __init__(self, mode: str = "rounds", lang=None, seed=None):
        super().__init__(lang=lang)
        self._rng = lazy_rng(seed)  # numpy loads with the first example, right after the page
        self.played = False  # the example and the first question are there
        self.block = FirstAnswer(self, "vinte_e_um_banca")  # the rule, texts and marks of every exercise
        self.draws = NoRepeats(_same_as)
        self.score = self.block.score
        self.q_kind = TURN[-1]  # the first question asks for the seat (kinds in turn)
        self.q_question: Question | None = None  # the registry's question on screen, once asked
        self.mode = w.ToggleButtons(options=[(m, m) for m in MODES], value=mode,
                                    style={"button_width": "230px"}).add_class("cartas-mode")
        self.explain = w.HTML().add_class("cartas-explain")
        self.story = w.HTML().add_class("cartas-story")
        self.table = w.HTML().add_class("cartas-table-box")
        self.mode.observe(self.guarded(lambda _: self.redraw()), names="value")

        self.quiz_title = w.HTML()
        self.question = w.HTML().add_class("cartas-question")
        self.seat_buttons = [w.Button(layout=w.Layout(width="110px")).add_class(f"cartas-answer-{s}")
                             for s in range(SEATS)]
        self.feedback = self.block.feedback
        self.score_label = self.block.score_label
        self.next_button = self.block.next_button
        for seat, button in enumerate(self.seat_buttons):
            button.on_click(self.guarded(lambda _, seat=seat: self.answer(seat)))
        self.price_buttons: list[w.Button] = []
        self.answers = w.HBox(self.seat_buttons, layout=w.Layout(flex_flow="row wrap"))
        self.next_button.on_click(self.guarded(lambda _: self.new_question()))

        self.children = [
            self.header(),
            self.mode, self.message, self.explain, self.story, self.table,
            self.quiz_title, self.question, self.answers, self.feedback,
            w.HBox([self.score_label, self.next_button]),
        ]
        self.redraw()  # the page: labels now, the example and the question right after
        after_paint(self.guarded(self._first_example))

    @property
    def rng(self):
        """The seeded Generator of the questions."""
        return self._rng()

    def _first_example(self) -> None:
        self.new_question(redraw=False)
        self.played = True
        self.redraw()

    # The exercise ------------------------------------------------------------------------
    def new_question(self, redraw: bool = True) -> None:
        """Another question, of the kind after the last one's (`TURN`): for "seat" and "price"
        a seeded variation of a mode's story up to the change of bank, for "natural" the
        registry's question of the round's last hands; never the question just asked."""
        kind = TURN[(TURN.index(self.q_kind) + 1) % len(TURN)]

        def draw() -> tuple:  # each question from a seed of its own: kept whole with its answer
            seed = int(self.rng.integers(MAX_SEED))
            if kind == "natural":
                question = find_kind(NATURAL).make_seeded(seed)
                return (kind, "natural", None, [], None, seed, question)
            return (kind, *rotation_question(make_rng(seed)), seed, None)
        _, self.q_mode, self.q_state, self.q_story, self.q_change, self.q_seed, made = self.draws.draw(
            draw)  # never the question just asked
        self.q_kind = kind
        # the registry's question of this seed is the one on screen (cartas.questions.vinte_e_um._bank):
        # its answer is kept whole with it, and a wrong one names its misconception
        self.q_question = made if made is not None else find_kind(f"vinte_e_um_banca.{kind}").make_seeded(
            self.q_seed)
        if self.q_kind == "price":
            top = max(PRICES - 1, self.q_change["price"])
            old = self.price_buttons
            self.price_buttons = [w.Button(layout=w.Layout(width="90px")).add_class(f"cartas-price-{n}")
                                  for n in range(top + 1)]
            for n, button in enumerate(self.price_buttons):
                button.on_click(self.guarded(lambda _, n=n: self.answer(n)))
            self.answers.children = self.price_buttons
            close_drawing(old)   # the last price question's: a late click on them answers nothing
        else:
            self.answers.children = self.seat_buttons
        self.block.ask(dict(enumerate(self.answers.children)))
        if redraw:
            self._draw_question()

    def correct_answer(self) -> int:
        """The seat that takes the bank, or the chips it pays (the engine's bank_change); for a
        natural question, the seat that holds the bank next round (the question's answer)."""
        if self.q_kind == "natural":
            assert self.q_question is not None  # a natural question is the registry's
            return int(self.q_question.answer)  # type: ignore[call-overload]  # a seat
        return self.q_change["to"] if self.q_kind == "seat" else self.q_change["price"]

    @property
    def given(self) -> int | None:
        """The answer given to this question, None before."""
        return self.block.chosen if self.block.answered else None

    def answer(self, seat: int) -> bool:
        """Answer at once; only the first answer counts and is marked, and later clicks leave
        its verdict (`widgets.components.exercises.FirstAnswer`)."""
        change = self.q_change
        price = self.correct_answer() if self.q_kind == "price" else None
        asked = self.q_question
        assert asked is not None  # an answer comes to a question on screen

        def why(lang: str) -> str:
            """What happened, and for a price question the number of chips asked for, in words;
            for a natural question, its reason (who made 21 with two cards, if anyone)."""
            if change is None:
                return asked.reason[lang]  # the registry's, escaped
            said = narrate(change, lang)
            if price is not None:
                chips = translate(TEXT, "one_chip", lang) if price == 1 else translate(TEXT, "chips", lang, n=price)
                said = f"{translate(TEXT, 'paid', lang, chips=chips)} {said}"
            return escape(said)

        def said(lang: str) -> str:
            belief = belief_html(asked, seat, lang)
            return f"{belief} {why(lang)}" if belief else why(lang)

        correct = self.block.answer(seat, self.correct_answer(), said,
                                    attrs=f' data-answer="{self.correct_answer()}"', skill="pass_the_bank",
                                    question=asked if asked.answer == self.correct_answer() else None)
        self._draw_question()
        return correct

    def redraw(self) -> None:
        self.draw_title()
        chosen = self.mode.value
        labels = [(rotation_label(m, self.lang), m) for m in MODES]
        if list(self.mode.options) != labels:
            self.mode.options = labels
            self.mode.value = chosen
        self.mode.description = self.t("mode")
        if not self.played:  # not played yet
            return
        state, events = rotation_example(chosen)
        self.explain.value = f"<p style='font-size:17px'>{self.t('explain_' + chosen, n=state.rotation_rounds)}</p>"
        change = events[-1]
        lines = "".join(f"<div class='cartas-line'>{escape(narrate(e, self.lang))}</div>"
                        for e in events if e["type"] not in ("round_start", "deal"))
        self.story.value = (f"<b>{self.t('story')}</b><div style='font-size:16px;background:#f5f5f5;"
                            f"padding:6px 10px;border-radius:6px'>{lines}</div>"
                            f"<p class='cartas-change' data-from='{change['from']}' data-to='{change['to']}' "
                            f"style='font-size:18px;font-weight:bold'>"
                            f"{self.t('change', src=change['from'], dst=change['to'])}</p>")
        self.table.value = f"<b>{self.t('after')}</b>" + table_html(state, self.lang)
        self._draw_question()

    def _draw_question(self) -> None:
        self.quiz_title.value = f"<h4 style='margin:12px 0 2px'>{self.t('quiz')}</h4>"
        if self.q_kind == "natural":
            assert self.q_question is not None  # a natural question is the registry's
            text = self.q_question.prompt[self.lang]  # escaped by the registry
            lines = ""
        else:
            lines = "".join(f"<div class='cartas-line'>{escape(narrate(e, self.lang))}</div>"
                            for e in self.q_story if e["type"] not in ("round_start", "deal"))
            hint = ""
            if self.q_mode in ("rounds", "sale"):
                hint = " " + self.t("hint_take" if self.q_mode == "rounds" else "hint_accept")
            text = escape(self.t("question" if self.q_kind == "seat" else "question_price",
                                 mode=rotation_label(self.q_mode, self.lang), banker=self.q_change["from"],
                                 hint=hint))
            lines = (f"<div style='font-size:15px;background:#f5f5f5;padding:6px 10px;"
                     f"border-radius:6px'>{lines}</div>")
        self.question.value = (f"<div style='font-size:17px' data-mode='{self.q_mode}' data-kind='{self.q_kind}'>"
                               f"{text}</div>{lines}")
        seats = self.q_kind != "price"  # the marked answer is one of the buttons on screen
        for seat, button in enumerate(self.seat_buttons):
            text = self.t("seat", seat=seat)
            button.description = self.block.label(seat, text) if seats else text
        for n, button in enumerate(self.price_buttons):
            text = self.t("one_chip") if n == 1 else self.t("chips", n=n)
            button.description = text if seats else self.block.label(n, text)
        self.block.redraw()


def _same_as(drawn: tuple) -> tuple:
    """When two drawn questions are the same: a natural question by its key, a story by its
    mode, its change of bank and its length."""
    kind, mode, _state, story, change, _seed, question = drawn
    if question is not None:
        return (kind, question.same_as())
    return (kind, mode, change["from"], change["to"], change.get("price"), len(story))
