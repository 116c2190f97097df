"""Tricks and tie-breaking: who takes a trick, who takes a hand, and the rule that decides.

The learner sets the four cards of a trick (any of them face down) and the rule for who
leads after a tie (`tie_lead`), or the results of up to three tricks; the engine's
`trick_winner`/`explain_trick` and `hand_winner`/`explain_hand` answer, and
`finished_sequences` gives the full table of hand outcomes.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from cartas.cards import Card, CardError
from cartas.questions import Question, draw_question
from cartas.truco import (
    SEATS,
    TEAM_LETTERS,
    TIE_LEADS,
    TrucoError,
    explain_hand,
    explain_next_leader,
    explain_trick,
    finished_sequences,
    get_variant,
    hand_winner,
    play_order,
    team_label,
    team_of,
    trick_next_leader,
    trick_winner,
    trick_winning_seat,
)
from widgets.components.base import View, variant_toggle
from widgets.components.exercises import Exercises
from widgets.components.i18n import translate
from widgets.draw.svg import card_svg
from widgets.draw.truco_table import TEAM_COLOURS

TEXT = {
    "title": {"pt": "Rodadas e desempates", "en": "Tricks and tie-breaking"},
    "trick": {"pt": "Uma rodada", "en": "One trick"},
    "vira": {"pt": "Vira", "en": "Vira"},
    "leader": {"pt": "Quem abre", "en": "Leader"},
    "seat": {"pt": "Assento {seat}", "en": "Seat {seat}"},
    "covered": {"pt": "coberta", "en": "face down"},
    "show": {"pt": "Ver quem vence", "en": "Who wins?"},
    "tie": {"pt": "Empate", "en": "Tie"},
    "nobody": {"pt": "Ninguém", "en": "Nobody"},
    "winner": {"pt": "Vence: {team}", "en": "Winner: {team}"},
    "hand": {"pt": "Quem leva a mão?", "en": "Who takes the hand?"},
    "nth": {"pt": "{n}ª rodada", "en": "Trick {n}"},
    "not_played": {"pt": "não jogada", "en": "not played"},
    "table": {"pt": "Todos os finais de mão possíveis", "en": "Every way a hand can end"},
    "results": {"pt": "Rodadas", "en": "Tricks"},
    "takes": {"pt": "Leva a mão", "en": "Takes the hand"},
    "why": {"pt": "Por quê", "en": "Why"},
    "tie_lead": {"pt": "Após empate abre", "en": "After a tie leads"},
    "tie_lead_leader": {"pt": "quem abriu a rodada", "en": "the trick's leader"},
    "tie_lead_first_tying": {"pt": "quem jogou a 1ª carta empatada",
                             "en": "the first tying card's player"},
    "twice": {"pt": "{card} aparece duas vezes na rodada: cada carta existe uma vez só no baralho",
              "en": "{card} appears twice in the trick: every card is in the pack once only"},
    "is_vira": {"pt": "{card} é a vira: ela fica na mesa e ninguém a joga",
                "en": "{card} is the vira: it stays on the table and nobody plays it"},
    "past_decided": {
        "pt": "Essa sequência não acontece: a mão já acabou na {k}ª rodada ({why}) e a {next}ª rodada "
              "não é jogada. Marque “não jogada” nela.",
        "en": "That cannot happen: the hand was already over after trick {k} ({why}) and trick {next} "
              "is not played. Mark it “not played”."},
    "undecided": {
        "pt": "Com esses resultados a mão ainda não acabou: falta jogar a {next}ª rodada.",
        "en": "With these results the hand is not over yet: trick {next} is still to be played."},
    "gap": {"pt": "Uma rodada não jogada não pode vir antes de uma jogada: as rodadas são jogadas em ordem.",
            "en": "A trick not played cannot come before a played one: tricks are played in order."},
}

_RESULT_KEYS = {**{letter: t for t, letter in enumerate(TEAM_LETTERS)}, "tie": None}
DEFAULT_TRICK = ("7♥", "3♣", "K♦", "3♦")


def winning_seat(plays, variant, vira) -> int | None:
    """The seat whose card takes the trick (None for a tie): the engine's `trick_winning_seat`."""
    return trick_winning_seat(plays, variant, vira)


def _result_name(result, lang: str) -> str:
    return translate(TEXT, "tie", lang).lower() if result is None else team_label(result, lang)


def _winner_name(team, lang: str, tie_key: str = "tie") -> str:
    return translate(TEXT, tie_key, lang) if team is None else team_label(team, lang)


def _decided(results) -> bool:
    """True if these trick results already end a hand."""
    try:
        hand_winner(results)
    except ValueError:
        return False
    return True


def _answer(team) -> str:
    return "-" if team is None else TEAM_LETTERS[team]


class _Beside(Exception):
    """A refusal to show beside `control`."""

    def __init__(self, control, error):
        super().__init__(str(error))
        self.control, self.error = control, error


class TrickLab(View):
    """Set a trick or a hand's trick results; the engine says who wins and why."""

    TEXT = TEXT

    def __init__(self, variant="paulista", vira="6♣", seed=None, lang=None,
                 tie_lead: str = "leader"):
        super().__init__(lang=lang)
        self.variant = variant_toggle(variant)
        wide = {"description_width": "initial"}
        self.tie_lead = w.Dropdown(options=list(TIE_LEADS), value=tie_lead, style=wide,
                                   layout=w.Layout(width="440px")).add_class("cartas-tie-lead")
        self.vira = w.Text(value=str(vira), layout=w.Layout(width="150px"), style=wide,
                           continuous_update=False).add_class("cartas-vira")
        self.leader = w.Dropdown(options=[(str(s), s) for s in SEATS], value=0, style=wide,
                                 layout=w.Layout(width="180px")).add_class("cartas-leader")
        self.cards = [w.Text(value=c, layout=w.Layout(width="150px"), continuous_update=False
                             ).add_class(f"cartas-card-{s}") for s, c in enumerate(DEFAULT_TRICK)]
        self.covers = [w.Checkbox(value=False, indent=False, layout=w.Layout(width="150px")
                                  ).add_class(f"cartas-cover-{s}") for s in SEATS]
        self.show_button = w.Button(button_style="primary", layout=w.Layout(width="160px")
                                    ).add_class("cartas-show")
        self.trick_box = w.HTML().add_class("cartas-trick-result")
        self.results = [w.Dropdown(layout=w.Layout(width="230px"), style=wide).add_class(f"cartas-result-{n}")
                        for n in range(3)]
        self.hand_box = w.HTML().add_class("cartas-hand-result")
        self.outcomes = w.HTML().add_class("cartas-outcomes")

        update = self.guarded(lambda _: self._trick_changed())
        self.trick_said = ""  # the trick's verdict as the live region says it ("" when refused)
        self.variant.observe(self.guarded(lambda _: self.redraw()), names="value")
        self.vira.observe(update, names="value")
        self.leader.observe(update, names="value")
        self.tie_lead.observe(update, names="value")
        for widget in self.cards + self.covers:
            widget.observe(update, names="value")
        self.show_button.on_click(update)
        for dropdown in self.results:
            dropdown.observe(self.guarded(self._on_result), names="value")

        self.exercises = Exercises(self, "truco_rodadas", self._question, seed=seed)
        columns = [w.VBox([w.HTML(), card, cover, self._slot(card)]) for card, cover in zip(self.cards, self.covers)]
        self._seat_labels = [c.children[0] for c in columns]
        self.trick_title, self.hand_title = w.HTML(), w.HTML()
        self.children = [
            self.header(),
            self.variant, self.trick_title,
            w.HBox([self.beside(self.vira), self.leader]), self.tie_lead,
            w.HBox(columns),
            self.show_button, self.message, self.trick_box,
            self.hand_title, w.HBox(self.results), self.hand_box, self.outcomes, self.exercises,
        ]
        self._relabelling = False
        self._relabel_results(("A", "tie", "-"))
        self.redraw()

    def _slot(self, control) -> w.HTML:
        """The error line under a card field (the column's last row)."""
        return self.beside(control).children[1]

    # Reading the controls -----------------------------------------------------------------
    def _card(self, seat: int) -> Card:
        """The card typed for `seat`; an unreadable one is refused in truco's words."""
        try:
            return Card.parse(self.cards[seat].value)
        except CardError:
            raise TrucoError("unreadable_card", text=self.cards[seat].value.strip()[:40],
                             place="trick", seat=seat) from None

    def plays(self) -> list[tuple[int, Card | None]]:
        """The trick in play order from the leader: (seat, card or None if face down)."""
        out = []
        for seat in play_order(self.leader.value):
            card = self._card(seat)
            out.append((seat, None if self.covers[seat].value else card))
        return out

    def _vira(self):
        if not get_variant(self.variant.value).uses_vira:
            return None
        try:
            return Card.parse(self.vira.value)
        except CardError:
            raise TrucoError("unreadable_card", text=self.vira.value.strip()[:40], place="vira") from None

    def _check_cards(self, vira) -> None:
        """A card typed twice, or the vira played, is refused beside its field."""
        seen: list[Card] = []
        for seat in SEATS:
            card = self._card(seat)
            if card == vira:
                raise _Beside(self.cards[seat], ValueError(self.t("is_vira", card=card)))
            if card in seen:  # said beside both fields that hold it
                raise _Beside([self.cards[seen.index(card)], self.cards[seat]],
                              ValueError(self.t("twice", card=card)))
            seen.append(card)

    def chosen_results(self) -> list:
        values = [d.value for d in self.results]
        cut = values.index("-") if "-" in values else 3
        return [_RESULT_KEYS[v] for v in values[:cut]]

    # Updating -------------------------------------------------------------------------------
    def _trick_changed(self) -> None:
        """The learner changed the trick: draw its verdict, and the live region says it."""
        self.update_trick()
        self.announce(self.trick_said)

    def update_trick(self) -> None:
        self.trick_box.value = self.trick_said = ""
        variant = get_variant(self.variant.value)
        try:
            try:
                vira = self._vira()
            except ValueError as error:
                raise _Beside(self.vira, error) from None
            for seat in SEATS:
                try:
                    self._card(seat)
                except ValueError as error:
                    raise _Beside(self.cards[seat], error) from None
            self._check_cards(vira)
        except _Beside as refused:
            controls = refused.control if isinstance(refused.control, list) else [refused.control]
            for control in controls:
                self.show_error(refused.error, near=control)
            return
        plays = self.plays()
        faces = {seat: Card.parse(self.cards[seat].value) for seat, _ in plays}
        team = trick_winner(plays, variant, vira)
        best = winning_seat(plays, variant, vira)
        sentence = explain_trick(plays, variant, vira, self.lang)
        if team is None:  # who leads next follows the chosen rule (the engine's next_leader)
            nxt = trick_next_leader(plays, variant, vira, self.tie_lead.value)
            sentence += " " + explain_next_leader(self.tie_lead.value, nxt, self.lang)
        cells = []
        for seat, card in plays:
            colour = TEAM_COLOURS[team_of(seat)]
            svg = card_svg(faces[seat], face_up=card is not None, width=70,
                           highlight="winner" if seat == best else None)
            cells.append(f"<div class='cartas-played' data-seat='{seat}' style='text-align:center;"
                         f"margin-right:8px'>{svg}<div style='color:{colour};font-weight:bold'>"
                         f"{escape(self.t('seat', seat=seat))} · {escape(team_label(team_of(seat), self.lang))}"
                         f"</div></div>")
        vira_html = (f"<div style='margin-right:18px;text-align:center'>{card_svg(vira, width=60, highlight='vira')}"
                     f"<div>{self.t('vira')}</div></div>") if vira else ""
        winner = self.t("winner", team=_winner_name(team, self.lang))
        self.trick_said = f"{winner}. {sentence}"
        self.trick_box.value = (
            f"<div style='display:flex;flex-wrap:wrap;align-items:flex-end'>{vira_html}{''.join(cells)}</div>"
            f"<div class='cartas-trick-winner' data-team='{_answer(team)}' "
            f"style='font-size:18px;margin-top:6px'><b>{escape(winner)}</b> · {escape(sentence)}</div>")

    def impossible(self, results) -> str | None:
        """Why these trick results cannot end a hand, in plain words (None if they can)."""
        values = [d.value for d in self.results]
        if "-" in values and any(v != "-" for v in values[values.index("-"):]):
            return self.t("gap")
        try:
            hand_winner(results)
        except ValueError as error:
            if getattr(error, "code", None) == "past_decided":
                k = next(k for k in range(1, len(results)) if _decided(results[:k]))
                return self.t("past_decided", k=k, next=k + 1, why=explain_hand(results[:k], self.lang))
            return self.t("undecided", next=len(results) + 1)
        return None

    def update_hand(self) -> None:
        results = self.chosen_results()
        problem = self.impossible(results)
        if problem is not None:
            self.hand_box.value = (f"<div class='cartas-hand-pending' style='font-size:16px;color:#8d6e63'>"
                                   f"{escape(problem)}</div>")
        else:
            team = hand_winner(results)
            name = _winner_name(team, self.lang, "nobody")
            self.hand_box.value = (
                f"<div class='cartas-hand-winner' data-team='{_answer(team)}' "
                f"style='font-size:18px'><b>{escape(self.t('takes'))}: {escape(name)}</b> · "
                f"{escape(explain_hand(results, self.lang))}</div>")
        self._draw_outcomes(tuple(results))

    def _on_result(self, _change) -> None:
        if not self._relabelling:
            self.update_hand()

    def _relabel_results(self, values=None) -> None:
        """Labels follow the language; the chosen results stay."""
        values = values or [d.value for d in self.results]
        self._relabelling = True
        try:
            for n, (dropdown, value) in enumerate(zip(self.results, values), start=1):
                dropdown.options = [(team_label(t, self.lang), letter)
                                    for t, letter in enumerate(TEAM_LETTERS)] + [
                                    (self.t("tie"), "tie"), (self.t("not_played"), "-")]
                dropdown.value = value
                dropdown.description = self.t("nth", n=n)
        finally:
            self._relabelling = False

    # Drawing ----------------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        self.trick_title.value = f"<h4 style='margin:8px 0 2px'>{self.t('trick')}</h4>"
        self.hand_title.value = f"<h4 style='margin:14px 0 2px'>{self.t('hand')}</h4>"
        self.vira.description = self.t("vira")
        self.vira.layout.display = None if get_variant(self.variant.value).uses_vira else "none"
        self.leader.description = self.t("leader")
        self.tie_lead.description = self.t("tie_lead")
        chosen = self.tie_lead.value
        self.tie_lead.options = [(self.t(f"tie_lead_{rule}"), rule) for rule in TIE_LEADS]
        self.tie_lead.value = chosen
        self.show_button.description = self.t("show")
        for seat, label in enumerate(self._seat_labels):
            team = team_of(seat)
            label.value = (f"<b style='color:{TEAM_COLOURS[team]}'>{self.t('seat', seat=seat)} · "
                           f"{team_label(team, self.lang)}</b>")
            self.covers[seat].description = self.t("covered")
        self._relabel_results()
        self.update_trick()
        self.update_hand()
        self.exercises.redraw()

    def _draw_outcomes(self, chosen) -> None:
        rows = []
        for results in finished_sequences():
            team = hand_winner(results)
            mark = "background:#fff9c4;" if tuple(results) == chosen else ""
            shown = " · ".join(_result_name(r, self.lang) for r in results)
            rows.append(f"<tr class='cartas-outcome' style='{mark}'><td>{escape(shown)}</td>"
                        f"<td><b>{escape(_winner_name(team, self.lang, 'nobody'))}</b></td>"
                        f"<td>{escape(explain_hand(results, self.lang))}</td></tr>")
        head = f"<tr><th>{self.t('results')}</th><th>{self.t('takes')}</th><th>{self.t('why')}</th></tr>"
        self.outcomes.value = (f"<details><summary><b>{self.t('table')}</b></summary>"
                               f"<table style='font-size:14px;border-spacing:8px 3px'>{head}{''.join(rows)}"
                               f"</table></details>")

    # Exercises ----------------------------------------------------------------------------------
    def _question(self, rng) -> Question:
        """Who takes a trick (mostly) or a hand: the engine's kinds (`cartas.questions`)."""
        return draw_question("truco_rodadas", rng, variant=self.variant.value)
