"""The truco coach: the strong player's choice for the seat whose turn it is, with the numbers
behind it and one sentence of reason (pt, en).

One brain: the coach does not judge for itself. It asks the judge of the strong player
(`cartas.truco.strong.Judge`, which `StrongBot` plays) and reports its choice: the strong
bot and the coach never disagree about what is best. For each option of the decision the
hint shows the judge's chance of taking the hand (and of losing it) and its expected points
for the coached team (counted up to what each team lacks to win the game). How the judge
weighs and chooses is in `cartas.truco.strong`'s docstring.

`advise(spot)` answers the decision the spot is about; `advise_play(spot)` gives both parts
of a turn to play (whether to raise first, then the card), from one verdict. A `TrucoSpot`
(`cartas.truco.spot`) holds only plain facts: the variant and vira, the seat and its cards,
the cards on the table, the trick results so far, the hand's value and the score.
`spot_from_view(view)` reads them from a seat's view of the game.

Every draw comes from a numpy Generator seeded with `seed`: the same spot gets the same
advice, and the strong bot seeded alike makes the same choice. This module imports no numpy
itself: the judge loads with the first advice, not with the page.
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeAlias

from ..cards import Card
from ..truco.catalogue import CATALOGUE
from ..truco.errors import TrucoError
from ..truco.spot import TrucoSpot, spot_from_view
from ..truco.variants import get_variant, strength_table

if TYPE_CHECKING:
    import numpy as np

    from ..truco.actions import Action
    from ..truco.strong import Verdict

# what seeds the coach's draws (see `cartas.cards.make_rng`)
Seed: TypeAlias = "int | np.random.Generator | None"

MARGIN = 0.03        # a card whose win - loss is this close to the advised card's is as good

__all__ = ["MARGIN", "Advice", "Miss", "Percent", "TrucoSpot", "advise", "advise_answer", "advise_card",
           "advise_play", "advise_threshold", "advise_truco", "call_name", "card_figures", "chance",
           "decision_question", "judge", "say", "spot_from_view", "verdict"]


@dataclass
class Advice:
    """The coach's answer.

    action: "play", "cover", "truco", "no_truco", "accept", "run", "raise", "play_hand" or
    "run_hand"; card: the card to play (for "play"/"cover"); win, loss: the chances of taking
    and of losing the hand under the advice; options: {answer: {"win", "loss", "expected"}}
    for every answer weighed (expected = average points for the team); reason: the key of
    the sentence saying why in `cartas.truco.catalogue.CATALOGUE` less its "coach_" prefix,
    and fields its values; simulations: hands played out per answer; seconds: time taken;
    players: the seats at the table (4, or 2 mano a mano, where the sentence speaks of "you"
    and "the other player", never of a team: docs/rules.md#mano-a-mano-players).
    """

    action: str
    card: Card | None
    win: float
    loss: float
    options: dict[str, dict[str, float]]
    reason: str
    fields: dict[str, object] = field(default_factory=dict)
    simulations: int = 0
    seconds: float = 0.0
    players: int = 4

    def text(self, lang: str = "pt") -> str:
        """The reason in one sentence, numbers written the way `lang` writes them."""
        return say(self.reason, lang, self.fields, self.players)


def say(key: str, lang: str, fields: Mapping[str, object], players: int = 4) -> str:
    """The coach's sentence `key` (its catalogue key less "coach_") in `lang`, its fields
    written the way `lang` writes them (`_fmt`); with `players` 2 (mano a mano) its form for
    one against one, "coach_{key}_solo", when it has one."""
    name = f"coach_{key}"
    if players == 2 and f"{name}_solo" in CATALOGUE:
        name = f"{name}_solo"
    return CATALOGUE.say(name, lang, **{k: _fmt(v, lang) for k, v in fields.items()})


def _fmt(value: object, lang: str) -> str:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Percent):
        text = f"{100 * value.p:.1f}%"
        return text.replace(".", ",") if lang == "pt" else text
    if isinstance(value, float):
        text = f"{value:+.2f}"
        return text.replace(".", ",") if lang == "pt" else text
    return str(value)


@dataclass(frozen=True)
class Percent:
    p: float


# -- entry points ----------------------------------------------------------------------------

def verdict(spot: TrucoSpot, seed: Seed = 0) -> Verdict:
    """The strong player's verdict on the spot (`cartas.truco.strong.judge`): every option
    weighed, and its choice."""
    from ..truco import strong  # numpy: with the first advice, not with the page

    return strong.judge(spot, seed)


def advise(spot: TrucoSpot, seed: Seed = 0) -> Advice:
    """The advice for the decision the spot is about: the mão de onze/dez when `deciding`,
    the answer when a raise is `pending`, else the card to play (`advise_play` says whether
    to raise first too)."""
    if spot.deciding:
        return advise_threshold(spot, seed)
    if spot.pending is not None:
        return advise_answer(spot, seed)
    return advise_card(spot, seed)


def advise_card(spot: TrucoSpot, seed: Seed = 0) -> Advice:
    """The card to play: the strong player's (the card it plays now, or once its raise is
    answered), with every card's figures."""
    start = time.perf_counter()
    return _card_advice(_play_verdict(spot, seed), start, spot.players)


def advise_play(spot: TrucoSpot, seed: Seed = 0) -> list[Advice]:
    """The advice for a turn to play: whether to raise first (when a raise is on offer) and
    the card. One decision, one verdict: both lines show the same numbers, and the first line
    says "call" exactly when the strong player raises here."""
    start = time.perf_counter()
    found = _play_verdict(spot, seed)
    card = _card_advice(found, start, spot.players)
    if spot.next_raise is None:
        return [card]
    return [_truco_advice(spot, found, start), card]


def advise_truco(spot: TrucoSpot, seed: Seed = 0) -> Advice:
    """Whether to raise now (truco, or the raise on offer: seis, nove...), before playing a
    card: the strong player's choice."""
    start = time.perf_counter()
    return _truco_advice(spot, _play_verdict(spot, seed), start)


def call_name(spot: TrucoSpot) -> str:
    """The name of the raise on offer (`Variant.raise_name`: truco, seis, nove, dez, doze); in a
    mão de onze/dez, or with none on offer, the first step's, truco (docs/rules.md#threshold-any-raise)."""
    variant = get_variant(spot.variant)
    value = spot.next_raise if spot.next_raise is not None and not spot.threshold else variant.ladder[0]
    return variant.raise_name(value)


def advise_answer(spot: TrucoSpot, seed: Seed = 0) -> Advice:
    """Accept, run or raise again when the other team has asked for `spot.pending`."""
    if spot.pending is None:
        raise TrucoError("coach_no_pending")
    start = time.perf_counter()
    found = verdict(spot, seed)
    accept, run = found.options["accept"], found.options["run"]
    options = {"accept": _figures(accept), "run": _figures(run)}
    fields: dict[str, object] = {"win": Percent(accept.win), "accept": accept.expected, "run": run.expected}
    if "raise" in found.options:
        options["raise"] = {**_figures(found.options["raise"]), "if_they_run": float(spot.pending)}
    action = found.choice
    if action == "raise":
        reason = "reraise"
        fields.update(value=spot.next_raise, worth=found.options["raise"].expected)
    elif action == "accept" and found.forced:
        reason = "accept_forced"
    elif action == "accept" and found.won:
        reason = "accept_won"
    else:
        reason = action
    return Advice(action, None, accept.win, accept.loss, options, reason, fields, found.worlds,
                  time.perf_counter() - start, spot.players)


def advise_threshold(spot: TrucoSpot, seed: Seed = 0) -> Advice:
    """Play or run a mão de onze/dez, from both partners' cards."""
    start = time.perf_counter()
    found = verdict(spot, seed)
    play, run = found.options["play_hand"], found.options["run_hand"]
    return Advice(found.choice, None, play.win, play.loss,
                  {"play_hand": _figures(play), "run_hand": _figures(run)}, found.choice,
                  {"win": Percent(play.win), "play": play.expected, "run": run.expected}, found.worlds,
                  time.perf_counter() - start, spot.players)


def chance(spot: TrucoSpot, seed: Seed = 0) -> tuple[float, float, int]:
    """(win, loss, worlds): the chance that the seat's team takes / loses the hand under the
    strong player's choice (playing the hand, accepting, or its card), over the worlds the
    judge weighed."""
    found = verdict(spot, seed)
    label = {"decide": "play_hand", "answer": "accept"}.get(found.phase, found.card or "")
    option = found.options[label]
    return option.win, option.loss, found.worlds


def _play_verdict(spot: TrucoSpot, seed: Seed) -> Verdict:
    if spot.deciding or spot.pending is not None:
        return verdict(replace(spot, deciding=False, pending=None), seed)
    return verdict(spot, seed)


def _figures(option: object) -> dict[str, float]:
    return {"win": float(option.win), "loss": float(option.loss),  # type: ignore[attr-defined]
            "expected": float(option.expected)}  # type: ignore[attr-defined]


def _card_advice(found: Verdict, start: float, players: int = 4) -> Advice:
    assert found.card is not None  # a play verdict always names its card
    card, covered = found.cards[found.card]
    chosen = found.options[found.card]
    options = {label: _figures(found.options[label]) for label in found.cards}
    reason = "cover_card" if covered else ("play_card_rules" if found.card == found.rule_card else "play_card")
    return Advice("cover" if covered else "play", card, chosen.win, chosen.loss, options, reason,
                  {"card": card, "win": Percent(chosen.win)}, found.worlds, time.perf_counter() - start,
                  players)


def _truco_advice(spot: TrucoSpot, found: Verdict, start: float) -> Advice:
    assert found.card is not None  # a play verdict always names its card
    card = found.options[found.card]
    stay = found.options.get("no_ask", card)
    options = {"no_truco": _figures(stay)}
    fields: dict[str, object] = {"win": Percent(card.win), "call": call_name(spot), "stay": stay.expected}
    asking = found.options.get("ask")
    if asking is not None:
        options["truco"] = {**_figures(asking), "if_they_run": float(spot.hand_value)}
        fields["ask"] = asking.expected
    if spot.threshold:
        action, reason = "no_truco", "no_ask_threshold"
    elif spot.next_raise is None:
        action, reason = "no_truco", "no_ask_not_allowed"
    elif found.choice == "ask":
        action, reason = "truco", "ask_won" if found.won else "ask"
    else:
        action, reason = "no_truco", "no_ask"
        variant = get_variant(spot.variant)
        later = [value for value in variant.ladder if value > spot.next_raise]
        if later:
            fields["then"] = variant.raise_name(later[0])
        else:
            reason = "no_ask_top"
    return Advice(action, None, card.win, card.loss, options, reason, fields, found.worlds,
                  time.perf_counter() - start, spot.players)


@dataclass
class Miss:
    """A decision that went against the advice: what was done (`did`: a catalogue key less
    "coach_", and its fields), what it was worth (`yours`: likewise) and the advice."""

    did: str
    did_fields: Mapping[str, object]
    yours: str | None
    yours_fields: Mapping[str, object]
    advice: Advice

    def text(self, lang: str = "pt", hand: int | str = "") -> str:
        players = self.advice.players
        text = say("miss", lang, {"hand": hand, "did": say(self.did, lang, self.did_fields, players),
                                  "yours": (say(self.yours, lang, self.yours_fields, players)
                                            if self.yours else ""),
                                  "advice": self.advice.text(lang)})
        return text.replace(" ()", "")


def judge(spot: TrucoSpot, action: Action, seed: Seed = 0) -> Miss | None:
    """Whether `action` (anything with .kind and .card, as `cartas.truco.Action`) went
    against the advice for `spot`; None when it followed it (or there was no advice: a
    mão de ferro's blind card). Decided rules:

    - Playing a card when raising was possible is two decisions: not calling truco (judged
      by `advise_truco`) and the card (by `advise_card`); the first miss found is returned.
      A card of the same strength as the advised one follows the advice; so does playing it
      face up when the advice covers it (nothing is lost), not the other way round; so does
      any card whose play-out does as well (win - loss no more than `MARGIN` below).
    - Calling truco is judged by `advise_truco` (in a mão de onze/dez it always misses);
      answering a raise by `advise_answer`; the mão de onze/dez by `advise_threshold`.
    """
    kind = action.kind
    if kind == "blind":
        return None
    if spot.deciding:
        advice = advise_threshold(spot, seed)
        return None if advice.action == kind else _miss(kind, {}, advice, kind)
    if spot.pending is not None:
        advice = advise_answer(spot, seed)
        return None if advice.action == kind else _miss(kind, {}, advice, kind)
    turn = advise_play(spot, seed)  # what the hint said for this turn, its numbers included
    advice = turn[-1]
    if kind == "raise" or spot.next_raise is not None:
        asked = turn[0] if len(turn) > 1 else advise_truco(spot, seed)
        done = "truco" if kind == "raise" else "no_truco"
        if asked.action != done:
            return _miss(done, {"call": call_name(spot)}, asked, done)
    if kind not in ("play", "cover"):
        return None
    strength = _strength(spot)
    mine = strength[Card.parse(action.card)]
    assert advice.card is not None  # a card advice always names its card
    same = strength[advice.card] == mine and not (kind == "cover" and advice.action == "play")
    if same:
        return None
    option = next((o for c, cov, o in _card_options(advice)
                   if strength[c] == mine and cov == (kind == "cover")), None)
    if option is not None and (advice.win - advice.loss) - (option["win"] - option["loss"]) <= MARGIN:
        return None  # as good as the advised card, within MARGIN
    # A card covered that is not the lowest was not weighed: its numbers are left out.
    yours = ("yours_card", {"win": Percent(option["win"])}) if option else (None, {})
    return Miss(f"did_{kind}", {"card": Card.parse(action.card)}, yours[0], yours[1], advice)


def card_figures(spot: TrucoSpot, cards: Sequence[Card | str], advice: Advice | None = None,
                 seed: int = 0) -> dict[str, dict[str, float | bool]]:
    """For each card of `cards` (the seat's, played face up), the figures the card advice
    (`advise_card(spot, seed)`, or `advice` when given) weighed for a card of its strength:
    {"win", "loss", "as_good"}. Every candidate is played out on the same deals, so the
    figures compare. `as_good` is this coach's notion of an answer as good as its advice (the
    one `judge` follows, docs/rules.md#homework-near-best): a card of the advised card's
    strength, or one whose win - loss is no more than `MARGIN` below the advised card's."""
    advice = advise_card(spot, seed) if advice is None else advice
    assert advice.card is not None  # a card advice always names its card
    strength = _strength(spot)
    advised = advice.options[_label(advice.card, advice.action == "cover")]
    by_strength = {strength[c]: o for c, cov, o in _card_options(advice) if not cov}
    out: dict[str, dict[str, float | bool]] = {}
    for text in cards:
        card = Card.parse(text) if isinstance(text, str) else text
        option = by_strength[strength[card]]
        same = strength[card] == strength[advice.card]
        near = (advised["win"] - advised["loss"]) - (option["win"] - option["loss"]) <= MARGIN
        out[str(text)] = {"win": float(option["win"]), "loss": float(option["loss"]), "as_good": same or near}
    return out


def _miss(done: str, fields: Mapping[str, object], advice: Advice, option: str) -> Miss:
    expected = advice.options.get(option, {}).get("expected", 0.0)
    return Miss(f"did_{done}", fields, "yours_points", {"expected": float(expected)}, advice)


def _strength(spot: TrucoSpot) -> Mapping[Card, int]:
    return strength_table(get_variant(spot.variant), None if spot.vira is None else Card.parse(spot.vira))


def _card_options(advice: Advice) -> list[tuple[Card, bool, dict[str, float]]]:
    """(card, face down?, figures) for every card an advice weighed ("play 7♦", "cover 4♠")."""
    out = []
    for label, option in advice.options.items():
        kind, _, card = label.partition(" ")
        if kind in ("play", "cover"):
            out.append((Card.parse(card), kind == "cover", option))
    return out


def _label(card: Card, covered: bool) -> str:
    return f"{'cover' if covered else 'play'} {card}"




def decision_question(view: object, seed: Seed = 0) -> dict[str, object] | None:
    """The coach's question at a truco seat's `view` (`GameSpec.coach_question`): the card to
    play, where every card as good as the coach's counts as right, or the answer to a raise,
    where the coach's answer alone does (the answers' average points for the team); None
    when the seat decides nothing the coach asks here (no card to play nor raise to answer, or
    a mão de onze/dez/ferro decision)."""
    legal = list(view.legal)  # type: ignore[attr-defined]
    if not any(a.kind in ("play", "accept") for a in legal):
        return None
    spot = spot_from_view(view)
    if spot.deciding:
        return None
    advice = advise(spot, seed)
    seen = {"seat": spot.seat, "hand": [str(c) for c in spot.hand],
            "vira": None if spot.vira is None else str(spot.vira),
            "table": [[s, None if c is None else str(c)] for s, c in spot.table], "value": spot.hand_value,
            "score": list(spot.score)}
    reason = {lang: advice.text(lang) for lang in ("pt", "en")}
    if spot.pending is not None:
        kinds = [k for k in ("accept", "run", "raise") if any(a.kind == k for a in legal)]
        return {"question": "answer", "options": kinds, "answer": advice.action, "seen": seen,
                "reason": reason, "figure": "points",
                "values": {k: float(advice.options[k]["expected"]) for k in kinds}, "accepted": [advice.action]}
    cards = [str(a.card) for a in legal if a.kind == "play"]
    if advice.action not in ("play", "cover") or not cards or str(advice.card) not in cards:
        return None
    figures = card_figures(spot, cards, advice)  # the same deals for every card: they compare
    return {"question": "play", "options": cards, "answer": str(advice.card), "seen": seen,
            "reason": reason, "figure": "win", "values": {c: figures[c]["win"] for c in cards},
            "accepted": [c for c in cards if figures[c]["as_good"]]}
