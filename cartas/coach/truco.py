"""The truco coach: odds-backed advice for the seat whose turn it is.

`advise(spot)` answers the decision the spot is about, with one sentence of reason (pt, en)
and the numbers behind it: the chance of taking the hand and what each answer wins or loses
on average (expected points for the coached team: +value when it takes the hand, -value when
the other team does, 0 when nobody scores).

A `TrucoSpot` holds only plain facts: the variant and vira, the seat and its cards, the cards
on the table, the trick results so far, the hand's value and the score. `spot_from_view(view)`
reads them from a seat's view of the game.

How the chance of taking the hand is measured (decided rules):

- At the start of a hand (no card played yet) it is the engine's Monte Carlo,
  `cartas.truco.odds.hand_odds`, under the rule-based play, with the partner's cards when the
  seat may see them (mão de onze/dez).
- Later in the hand, and for each card the seat could play now, the coach plays the rest of the
  hand out `ROLLOUTS` times: the cards nobody has seen are dealt at random to the other seats
  (as many as each still holds) and every seat then plays like `bots.RuleBot` (no raises).
  The same deals serve every candidate card, so the comparison is fair.
- Every draw comes from a numpy Generator seeded with `seed`: the same spot gets the same
  advice.

How the advice is decided:

- Card: the card the rule-based bot would play, unless another card takes the hand clearly
  more often (by more than `MARGIN` plus two standard errors). Where the rules decide (the
  partner already holds the trick, no card can win it...) the bot's card is the advice.
- Truco: ask when the chance of taking the hand is at least `ASK_AT` (then the hand is worth
  more whether they accept or run). Never in a mão de onze/dez (asking loses the game) or
  when asking is not allowed. The expected points shown for asking assume the other team
  accepts; below `ASK_AT` they would not be earned, because the other team accepts (or raises
  again) mostly when its cards are good, which is what the sentence tells the learner.
- Answering a raise: never run when running hands the other team the game; raise again when
  the chance is at least `ASK_AT` and raising is allowed; otherwise accept when accepting
  loses less on average than running (value x (win - loss) > -run value), else run.
- Mão de onze/dez: play when playing wins more on average than running.
"""
from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeAlias

from ..cards import TRUCO_PACK, Card, make_rng
from ..truco.catalogue import CATALOGUE
from ..truco.errors import TrucoError
from ..truco.rules import finished_sequences, hand_winner
from ..truco.variants import Variant, get_variant, strength_table

if TYPE_CHECKING:
    import numpy as np

    from ..truco.actions import Action

# what seeds the coach's draws (see `cartas.cards.make_rng`)
Seed: TypeAlias = "int | np.random.Generator | None"
# (finished, winning team or None) for every prefix of trick results (`_status_table`)
StatusTable = dict[tuple[int | None, ...], tuple[bool, int | None]]

ROLLOUTS = 400       # hands played out per candidate card (the whole advice stays under 300 ms)
START_SIMULATIONS = 20_000   # hand_odds deals at the start of a hand
ASK_AT = 0.6         # ask or raise truco from this chance of taking the hand
MARGIN = 0.03        # how much better another card must be than the rule bot's
MANILHA, THREE = 10, 9
COVERED = -1

# -- the position --------------------------------------------------------------------------

@dataclass(frozen=True)
class TrucoSpot:
    """What the coached seat knows when it is its turn.

    variant: "paulista"/"mineiro" (or a Variant); vira: the vira (Paulista) or None.
    seat: the coached seat (0..3; teams are seat % 2); hand: its cards still held.
    mao: the seat that led the first trick of this hand.
    table: the cards already played in this trick, in order, as (seat, card), card None when
        face down; results: each finished trick's winning team (0/1) or None for a tie.
    seen: every other face-up card out of play (the earlier tricks' cards).
    partner: the partner's cards when the seat may see them (mão de onze/dez), else None.
    hand_value: what the hand is worth now; score: (team 0, team 1).
    pending: the value the other team asks for when this seat must answer a raise, else None.
    run_value: what the other team scores if this seat runs (default: hand_value).
    next_raise: the value a raise of this seat would ask, None when raising is not allowed.
    threshold: True in a mão de onze/dez (nobody may ask truco).
    deciding: True when the seat decides whether to play a mão de onze/dez.
    leader: the seat leading the trick in play (None: the coached seat plays next). The seat
        may be coached when another seat is to act: it answers a raise for its team after it
        has played its card, or its partner is the engine's answering seat.
    players: 4, or 2 mano a mano (docs/rules.md#mano-a-mano-players: no partner, a trick of
        two cards).
    """

    variant: Variant | str
    hand: Sequence[Card | str]
    seat: int = 0
    vira: Card | str | None = None
    mao: int = 0
    table: Sequence[tuple[int, Card | str | None]] = ()
    results: Sequence[int | None] = ()
    seen: Sequence[Card | str] = ()
    partner: Sequence[Card | str] | None = None
    hand_value: int = 1
    score: tuple[int, ...] = (0, 0)
    pending: int | None = None
    run_value: int | None = None
    next_raise: int | None = None
    threshold: bool = False
    deciding: bool = False
    leader: int | None = None
    players: int = 4


@dataclass
class Advice:
    """The coach's answer.

    action: "play", "cover", "truco", "no_truco", "accept", "run", "raise", "play_hand" or
    "run_hand"; card: the card to play (for "play"/"cover"); win, loss: the chances of taking
    and of losing the hand under the advice; options: {answer: {"win", "loss", "expected"}}
    for every answer weighed (expected = average points for the team); reason: the key of
    the sentence saying why in `cartas.truco.catalogue.CATALOGUE` less its "coach_" prefix,
    and fields its values; simulations: hands played out per answer; seconds: time taken.
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

    def text(self, lang: str = "pt") -> str:
        """The reason in one sentence, numbers written the way `lang` writes them."""
        return say(self.reason, lang, self.fields)


def say(key: str, lang: str, fields: Mapping[str, object]) -> str:
    """The coach's sentence `key` (its catalogue key less "coach_") in `lang`, its fields
    written the way `lang` writes them (`_fmt`)."""
    return CATALOGUE.say(f"coach_{key}", lang, **{k: _fmt(v, lang) for k, v in fields.items()})


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

def advise(spot: TrucoSpot, seed: Seed = 0) -> Advice:
    """The advice for the decision the spot is about: the mão de onze/dez when `deciding`,
    the answer when a raise is `pending`, else the card to play (`advise_truco` says whether
    to ask truco first)."""
    if spot.deciding:
        return advise_threshold(spot, seed)
    if spot.pending is not None:
        return advise_answer(spot, seed)
    return advise_card(spot, seed)


def advise_card(spot: TrucoSpot, seed: Seed = 0) -> Advice:
    start = time.perf_counter()
    game = _Game(spot)
    rule_index = game.rule_choice()
    outcomes, n = game.candidates(seed)
    chosen = rule_index
    best = max(outcomes, key=lambda i: outcomes[i][0] - outcomes[i][1])
    rule_win, rule_loss = outcomes[rule_index]
    best_win, best_loss = outcomes[best]
    noise = 2 * math.sqrt(max(rule_win * (1 - rule_win), 0.01) * 2 / n)
    if (best_win - best_loss) - (rule_win - rule_loss) > MARGIN + noise:
        chosen = best
    card, covered = game.candidate_cards[chosen]
    win, loss = outcomes[chosen]
    options = {_label(c, cov): {"win": w, "loss": lose,
                                "expected": float(spot.hand_value * (w - lose))}
               for (c, cov), (w, lose) in ((game.candidate_cards[i], outcomes[i])
                                           for i in outcomes)}
    reason = "cover_card" if covered else ("play_card_rules" if chosen == rule_index else "play_card")
    return Advice("cover" if covered else "play", card, win, loss, options, reason,
                  {"card": card, "win": Percent(win)}, n, time.perf_counter() - start)


def advise_play(spot: TrucoSpot, seed: Seed = 0) -> list[Advice]:
    """The advice for a turn to play: whether to raise first (`advise_truco`, when a raise is
    on offer) and the card (`advise_card`). One decision, one estimate: the raise is weighed
    with the chances of the advised card's play-out, so both lines show the same numbers."""
    card = advise_card(spot, seed)
    if spot.next_raise is None:
        return [card]
    return [advise_truco(spot, seed, chances=(card.win, card.loss, card.simulations)), card]


def call_name(spot: TrucoSpot) -> str:
    """The name of the raise on offer (`Variant.raise_name`: truco, seis, nove, dez, doze); in a
    mão de onze/dez, or with none on offer, the first step's, truco (docs/rules.md#threshold-any-raise)."""
    variant = get_variant(spot.variant)
    value = spot.next_raise if spot.next_raise is not None and not spot.threshold else variant.ladder[0]
    return variant.raise_name(value)


def advise_truco(spot: TrucoSpot, seed: Seed = 0, chances: tuple[float, float, int] | None = None) -> Advice:
    """Whether to raise now (truco, or the raise on offer: seis, nove...), before playing a
    card. `chances` (win, loss, simulations): the estimate of the turn already made (see
    `advise_play`); by default `chance(spot, seed)`."""
    start = time.perf_counter()
    win, loss, n = chance(spot, seed) if chances is None else chances
    v, nxt = spot.hand_value, spot.next_raise
    options = {"no_truco": {"win": win, "loss": loss, "expected": v * (win - loss)}}
    if nxt is not None and not spot.threshold:
        options["truco"] = {"win": win, "loss": loss, "expected": nxt * (win - loss),
                            "if_they_run": float(v)}
    if spot.threshold:
        action, reason = "no_truco", "no_ask_threshold"
    elif nxt is None:
        action, reason = "no_truco", "no_ask_not_allowed"
    elif win >= ASK_AT:
        action, reason = "truco", "ask"
    else:
        action, reason = "no_truco", "no_ask"
    fields: dict[str, object] = {"win": Percent(win), "at": Percent(ASK_AT), "call": call_name(spot)}
    if reason == "no_ask":
        variant = get_variant(spot.variant)
        later = [value for value in variant.ladder if nxt is not None and value > nxt]
        if later:
            fields["then"] = variant.raise_name(later[0])
        else:
            reason = "no_ask_top"
    return Advice(action, None, win, loss, options, reason, fields, n, time.perf_counter() - start)


def advise_answer(spot: TrucoSpot, seed: Seed = 0) -> Advice:
    """Accept, run or raise again when the other team has asked for `spot.pending`."""
    if spot.pending is None:
        raise TrucoError("coach_no_pending")
    start = time.perf_counter()
    variant = get_variant(spot.variant)
    win, loss, n = chance(spot, seed)
    run_value = spot.hand_value if spot.run_value is None else spot.run_value
    accept = spot.pending * (win - loss)
    options = {"accept": {"win": win, "loss": loss, "expected": accept},
               "run": {"win": 0.0, "loss": 1.0, "expected": -float(run_value)}}
    if spot.next_raise is not None:
        options["raise"] = {"win": win, "loss": loss, "expected": spot.next_raise * (win - loss),
                            "if_they_run": float(spot.pending)}
    team = spot.seat & 1
    running_loses_game = spot.score[1 - team] + run_value >= variant.target
    fields = {"win": Percent(win), "accept": accept, "run": -float(run_value)}
    if spot.next_raise is not None and win >= ASK_AT:
        action, reason = "raise", "reraise"
        fields["value"] = spot.next_raise
    elif running_loses_game:
        action, reason = "accept", "accept_forced"
    elif accept >= -run_value:
        action, reason = "accept", "accept"
    else:
        action, reason = "run", "run"
    return Advice(action, None, win, loss, options, reason, fields, n,
                  time.perf_counter() - start)


def advise_threshold(spot: TrucoSpot, seed: Seed = 0) -> Advice:
    """Play or run a mão de onze/dez, from both partners' cards."""
    start = time.perf_counter()
    variant = get_variant(spot.variant)
    win, loss, n = chance(spot, seed)
    play = variant.threshold_value * (win - loss)
    run = -float(variant.threshold_run_value)
    options = {"play_hand": {"win": win, "loss": loss, "expected": play},
               "run_hand": {"win": 0.0, "loss": 1.0, "expected": run}}
    action = "play_hand" if play > run else "run_hand"
    return Advice(action, None, win, loss, options, action,
                  {"win": Percent(win), "play": play, "run": run}, n,
                  time.perf_counter() - start)


def chance(spot: TrucoSpot, seed: Seed = 0) -> tuple[float, float, int]:
    """(win, loss, simulations): the chance that the seat's team takes / loses the hand, every
    seat (the coached one too) playing the rest of the hand under the rule policy."""
    if not spot.table and not spot.results and len(spot.hand) == 3 and spot.players == 4:
        from ..truco.odds import hand_odds  # numpy: with the first advice, not with the page

        odds = hand_odds(spot.variant, list(spot.hand), spot.vira, (spot.seat - spot.mao) % 4,
                         START_SIMULATIONS, seed, tuple(spot.seen),
                         None if spot.partner is None else list(spot.partner))
        return odds.hand_win, odds.hand_loss, odds.simulations
    return _Game(spot).rollout(seed)


# view: Any, as the docstring says it is read duck-typed (a seat's `SeatView`, or anything with
# its attributes), for a seat, never a spectator
def spot_from_view(view: Any, legal: Sequence[Action] | None = None) -> TrucoSpot:
    """A TrucoSpot from a seat's view (`TrucoState.view(seat)`: seat, variant, vira, hand,
    hands, mao, current_trick, trick_leader, trick_results, tricks, hand_value, score,
    pending_raise, run_value, legal, mode, phase). Only reads; duck-typed.

    legal: the legal actions of the decision (default: the view's own). A seat that decides
    for its team while the engine's acting seat is its partner (see `widgets.pages.jogar_truco`)
    passes the acting seat's legal actions with its own view."""
    seat = view.seat
    legal = view.legal if legal is None else legal
    players = getattr(view, "players", 4)
    mate = getattr(view, "partner", (seat + 2) % 4) if players == 4 else None
    partner = None if mate is None else view.hands[mate]
    partner = list(partner) if partner and all(c is not None for c in partner) else None
    seen = [card for trick in getattr(view, "tricks", ()) for _, card, *rest in _plays(trick)
            if card is not None and not (rest and rest[0])]
    pending = view.pending_raise["value"] if getattr(view, "pending_raise", None) else None
    raise_values = [a.value for a in legal if a.kind == "raise"]
    next_raise = raise_values[0] if raise_values else None
    return TrucoSpot(
        variant=view.variant, vira=view.vira, seat=seat, hand=[c for c in view.hand if c],
        mao=view.mao, table=[(s, c) for s, c in view.current_trick],
        results=list(view.trick_results), seen=seen, partner=partner,
        hand_value=view.hand_value, score=tuple(view.score), pending=pending,
        run_value=getattr(view, "run_value", None), next_raise=next_raise,
        threshold=view.mode == "threshold", deciding=view.phase == "decide",
        leader=getattr(view, "trick_leader", None), players=players)


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
        text = say("miss", lang, {"hand": hand, "did": say(self.did, lang, self.did_fields),
                                  "yours": (say(self.yours, lang, self.yours_fields)
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
    game = _Game(spot)
    mine = game.strength[Card.parse(action.card)]
    assert advice.card is not None  # a card advice always names its card
    same = game.strength[advice.card] == mine and not (kind == "cover" and advice.action == "play")
    if same:
        return None
    option = next((advice.options[_label(c, cov)] for c, cov in game.candidate_cards
                   if game.strength[c] == mine and cov == (kind == "cover")), None)
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
    game = _Game(spot)
    advised = advice.options[_label(advice.card, advice.action == "cover")]
    by_strength = {game.strength[c]: advice.options[_label(c, False)] for c, cov in game.candidate_cards
                   if not cov}
    out: dict[str, dict[str, float | bool]] = {}
    for text in cards:
        card = Card.parse(text) if isinstance(text, str) else text
        option = by_strength[game.strength[card]]
        same = game.strength[card] == game.strength[advice.card]
        near = (advised["win"] - advised["loss"]) - (option["win"] - option["loss"]) <= MARGIN
        out[str(text)] = {"win": float(option["win"]), "loss": float(option["loss"]), "as_good": same or near}
    return out


def _miss(done: str, fields: Mapping[str, object], advice: Advice, option: str) -> Miss:
    expected = advice.options.get(option, {}).get("expected", 0.0)
    return Miss(f"did_{done}", fields, "yours_points", {"expected": float(expected)}, advice)


def _plays(trick: Any) -> Any:
    return trick["plays"] if isinstance(trick, dict) else trick


def _label(card: Card, covered: bool) -> str:
    return f"{'cover' if covered else 'play'} {card}"


# -- the play-out ------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _status_table() -> StatusTable:
    """(finished, winner) for every prefix of trick results, from the engine's rules."""
    finished = {tuple(s): hand_winner(s) for s in finished_sequences()}
    table = {}
    for seq in finished:
        for k in range(len(seq) + 1):
            prefix = seq[:k]
            table[prefix] = (True, finished[prefix]) if prefix in finished else (False, None)
    return table


class _Game:
    """The spot in strengths, ready to be played out many times."""

    def __init__(self, spot: TrucoSpot):
        variant = get_variant(spot.variant)
        vira = None if spot.vira is None else Card.parse(spot.vira)
        table = strength_table(variant, vira)
        self.spot, self.variant, self.strength = spot, variant, table
        self.seat = spot.seat
        hand = [Card.parse(c) for c in spot.hand]
        if not hand:
            raise TrucoError("coach_no_card")
        on_table = [(s, None if c is None else Card.parse(c)) for s, c in spot.table]
        known = hand + [c for _, c in on_table if c is not None] + [Card.parse(c) for c in spot.seen]
        known += [vira] if vira is not None else []
        partner = None if spot.partner is None else [Card.parse(c) for c in spot.partner]
        known += partner or []
        twice = next((c for i, c in enumerate(known) if c in known[:i]), None)
        if twice is not None:
            raise TrucoError("coach_card_twice", card=str(twice))
        self.unseen = [table[c] for c in TRUCO_PACK if c not in set(known)]
        self.hand = hand
        self.trick = [(s, COVERED if c is None else table[c]) for s, c in on_table]
        self.results = tuple(spot.results)
        done = len(self.results)
        played = {s for s, _ in on_table}
        self.players = spot.players
        self.counts = {s: 3 - done - (s in played) for s in range(spot.players) if s != self.seat}
        self.partner = None if partner is None or spot.players != 4 else [table[c] for c in partner]
        if self.partner is not None:
            self.counts.pop((self.seat + 2) % 4)
        need = sum(self.counts.values())
        if need > len(self.unseen):
            raise TrucoError("coach_too_few_unseen", unseen=len(self.unseen), need=need)
        may_cover = done > 0
        mine = sorted(hand, key=lambda c: table[c])
        self.candidate_cards = [(c, False) for c in _distinct(mine, table)]
        if may_cover:
            self.candidate_cards.append((mine[0], True))

    def rule_choice(self) -> int:
        """Index in candidate_cards of the card RuleBot plays here."""
        strengths = [self.strength[c] for c, cov in self.candidate_cards if not cov]
        value, covered = _rule_card(strengths, self.trick, self.results, self.seat,
                                    may_cover=len(self.results) > 0, players=self.players)
        for i, (card, cov) in enumerate(self.candidate_cards):
            if self.strength[card] == value and cov == covered:
                return i
        raise AssertionError("the rule's card is among the candidates")

    def _deals(self, seed: Seed) -> list[list[int]]:
        import numpy as np  # not at the top: a play page opens without numpy

        rng = make_rng(seed)
        order = np.argsort(rng.random((ROLLOUTS, len(self.unseen))), axis=1)
        return np.array(self.unseen)[order].tolist()  # type: ignore[no-any-return]  # a 2-D array of ints

    def _hands(self, row: list[int]) -> dict[int, list[int]]:
        hands, k = {}, 0
        for s, count in self.counts.items():
            hands[s] = row[k:k + count]
            k += count
        if self.partner is not None:
            hands[(self.seat + 2) % 4] = list(self.partner)
        return hands

    def rollout(self, seed: Seed) -> tuple[float, float, int]:
        """(win, loss, n): the hand played out from where it stands, every seat (the coached
        one too) under the rule policy, over ROLLOUTS deals of the unseen cards."""
        status = _status_table()
        team = self.seat & 1
        mine = [self.strength[c] for c in self.hand]
        leader = self.seat if self.spot.leader is None else self.spot.leader
        wins = losses = 0
        for row in self._deals(seed):
            hands = self._hands(row)
            hands[self.seat] = list(mine)
            winner = _play_rest(hands, list(self.trick), self.results, status, leader, self.players)
            if winner == team:
                wins += 1
            elif winner is not None:
                losses += 1
        return wins / ROLLOUTS, losses / ROLLOUTS, ROLLOUTS

    def candidates(self, seed: Seed, only: int | None = None) -> tuple[dict[int, tuple[float, float]], int]:
        """{candidate index: (win, loss)} over ROLLOUTS deals shared by every candidate."""
        n = ROLLOUTS
        pool = self._deals(seed)
        status = _status_table()
        team = self.seat & 1
        mine = [self.strength[c] for c in self.hand]
        picks = range(len(self.candidate_cards)) if only is None else [only]
        out = {}
        for i in picks:
            card, covered = self.candidate_cards[i]
            value = self.strength[card]
            wins = losses = 0
            for row in pool:
                hands = self._hands(row)
                rest = list(mine)
                rest.remove(value)
                hands[self.seat] = rest
                winner = _play_rest(hands, self.trick + [(self.seat, COVERED if covered else value)],
                                    self.results, status, players=self.players)
                if winner == team:
                    wins += 1
                elif winner is not None:
                    losses += 1
            out[i] = (wins / n, losses / n)
        return out, n


def _distinct(cards: list[Card], table: Mapping[Card, int]) -> list[Card]:
    seen, out = set(), []
    for c in cards:
        if table[c] not in seen:
            seen.add(table[c])
            out.append(c)
    return out


def _rule_card(mine: Sequence[int], trick: Sequence[tuple[int, int]], results: Sequence[int | None], seat: int,
               may_cover: bool, players: int = 4) -> tuple[int, bool]:
    """RuleBot's card choice on strengths: (strength, face down?); `players` 4, or 2 mano a
    mano (no partner)."""
    mine = sorted(mine)
    lowest, highest = mine[0], mine[-1]
    team = seat & 1
    if not trick:
        if not results:
            ordinary = [c for c in mine if c < MANILHA]
            return (ordinary[-1] if ordinary else lowest), False
        return highest, False
    opp = max((c for s, c in trick if c != COVERED and (s & 1) != team), default=-1)
    mate = max((c for s, c in trick if c != COVERED and (s & 1) == team), default=-1)
    if mate > opp and (len(trick) == players - 1 or mate >= THREE):
        return lowest, may_cover
    winners = [c for c in mine if c > opp]
    if winners:
        cheapest = winners[0]
        if cheapest >= MANILHA and len(trick) == 1 and players == 4 and not results and mate < 0 \
                and len(winners) < len(mine):
            return lowest, False
        return cheapest, False
    won = sum(1 for r in results if r == team)
    if opp in mine and (won or not results):
        return opp, False
    return lowest, may_cover


def _play_rest(hands: dict[int, list[int]], trick: list[tuple[int, int]], results: Sequence[int | None],
               status: StatusTable, leader: int | None = None, players: int = 4) -> int | None:
    """Play the hand out under the rule policy (`leader` leads when the trick is empty);
    returns the winning team or None. `players`: 4, or 2 mano a mano."""
    results = tuple(results)
    mask = players - 1  # 4 or 2 players: the next seat is (seat + 1) & mask
    while True:
        while len(trick) < players:
            seat: int = (trick[-1][0] + 1) & mask if trick else leader  # type: ignore[assignment]  # given when no card is down
            cards = hands[seat]
            value, covered = _rule_card(cards, trick, results, seat, may_cover=len(results) > 0,
                                        players=players)
            cards = list(cards)
            cards.remove(value)
            hands[seat] = cards
            trick = trick + [(seat, COVERED if covered else value)]
        best = [-1, -1]
        best_seat: list[int | None] = [None, None]
        for s, c in trick:
            if c > best[s & 1]:
                best[s & 1], best_seat[s & 1] = c, s
        if best[0] == best[1]:
            result, leader = None, trick[0][0]
        else:
            result = 0 if best[0] > best[1] else 1
            leader = best_seat[result]
        results = results + (result,)
        finished, winner = status[results]
        if finished:
            return winner
        trick = []
