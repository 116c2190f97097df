"""The strong truco player, `StrongBot`: determinized Monte Carlo from its seat's view.

It decides from `state.view(seat)` alone, never from a hidden card. At each decision it
deals the cards it has not seen (the pack less its own hand, its partner's when it may see
them, every face-up card played and the vira) to the other seats, as many as each still
holds, `worlds` times over (a fixed number, drawn from its seeded numpy Generator: the same
view and seed give the same choice, whatever the hidden cards are). In each such world it
plays the rest of the hand out with the rule-based card play of `bots.RuleBot` (on
strengths, fast) for every seat, and weighs its options by the points they bring:

- a card: each distinct card it may play (and the lowest face down, where allowed) is
  played out in the same worlds; it plays the card taking the hand most often (net of
  losses), the cheaper on a tie, unless that card does no better than the rule-based
  card by more than `CARD_MARGIN` of the worlds (then the rule's card, which saves the
  good ones: a few dozen worlds are noisy);
- truco (or a raise): the other team's answer is modelled in each world from the cards that
  world gives the answering seat, twice: as the rule-based bot answers (it runs with weak
  cards, so a bluff may pay) and as a bold player who never runs; it asks when asking is
  worth more than not (by `MARGIN` points) under both, so a raise pays whether or not the
  other team calls it, and always when its team has already won the hand; a raise again
  is answered on the average of those worlds;
- answering a raise: the worlds are weighed by how likely the raising seat was to ask with
  the cards each gives it (the rule-based reason to ask, or a bluff), then it accepts,
  runs or raises again by the expected points; it never runs when running hands the other
  team the game, nor from a hand its team has already won (`bots.hand_is_won`);
- mão de onze/dez: it plays the hand (seeing its partner's cards) when playing is worth
  more on average than running; in a mão de onze/dez it never asks truco (that loses the
  game), and in a mão de ferro, where nothing is seen, any card does.

Points are weighed near the end of the game: a team needs only what it lacks to reach the
target (`_Judge.utility`), so it does not risk a won game for points it does not need.
The number of worlds bounds the work, not the clock (a few milliseconds per decision on
average on one core; `benchmarks/bot_strength.py` prints the mean and p95).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import TRUCO_PACK, make_rng
from .actions import ACCEPT, PLAY_HAND, RUN, RUN_HAND, Action
from .bots import THREE, _as_view, hand_is_won
from .rules import hand_status
from .variants import strength_table
from .views import SeatView

WORLDS = 96          # deals of the unseen cards per decision
MANILHA = 10
COVERED = -1
BLUFF_WEIGHT = 0.2   # how likely a world is where the raising seat had no reason to ask
MARGIN = 0.3         # how much more (in points) a raise must be worth to be asked
CARD_MARGIN = 0.04   # how much more often another card must take the hand than the rule's

Results = tuple[int | None, ...]  # each trick's winning team so far (None: tied)
_STATUS: dict[Results, tuple[bool, int | None]] = {}


def _status(results: Results) -> tuple[bool, int | None]:
    found = _STATUS.get(results)
    if found is None:
        found = _STATUS[results] = hand_status(results)
    return found


def rule_card(mine: list[int], trick: list[tuple[int, int]], results: Results, seat: int,
              players: int = 4) -> tuple[int, bool]:
    """`bots.RuleBot`'s card, on strengths: (the strength played, face down?). `mine` is the
    seat's hand, `trick` the (seat, strength or COVERED) played so far in this trick;
    `players` 4, or 2 mano a mano (no partner to play after this seat)."""
    mine = sorted(mine)
    lowest = mine[0]
    may_cover = bool(results)
    if not trick:
        if not results:
            ordinary = [c for c in mine if c < MANILHA]
            return (ordinary[-1] if ordinary else lowest), False
        return mine[-1], False
    team = seat & 1
    opp = mate = -1
    for s, c in trick:
        if (s & 1) == team:
            mate = max(mate, c)
        else:
            opp = max(opp, c)
    if mate > opp and (len(trick) == players - 1 or mate >= THREE):
        return lowest, may_cover
    winners = [c for c in mine if c > opp]
    if winners:
        cheapest = winners[0]
        if (cheapest >= MANILHA and len(trick) == 1 and players == 4 and not results and mate < 0
                and len(winners) < len(mine)):
            return lowest, False
        return cheapest, False
    won = sum(1 for r in results if r == team)
    if opp in mine and (won or not results):
        return opp, False
    return lowest, may_cover


def play_rest(hands: list[list[int]], trick: list[tuple[int, int]], results: Results, nxt: int,
              first_tying: bool, players: int = 4) -> int | None:
    """Play the hand out under the rule-based card play; `hands` (seat -> strengths, changed
    in place), `trick` (changed too), `nxt` the seat to play next. The winning team, or None
    when nobody scores. `players`: 4, or 2 mano a mano."""
    mask = players - 1
    while True:
        while len(trick) < players:
            seat = nxt
            value, covered = rule_card(hands[seat], trick, results, seat, players)
            hands[seat].remove(value)
            trick.append((seat, COVERED if covered else value))
            nxt = (seat + 1) & mask
        best0 = best1 = -2
        seat0 = seat1 = 0
        for s, c in trick:
            if s & 1:
                if c > best1:
                    best1, seat1 = c, s
            elif c > best0:
                best0, seat0 = c, s
        if best0 > best1:
            result: int | None = 0
            nxt = seat0
        elif best1 > best0:
            result, nxt = 1, seat1
        else:
            result, nxt = None, trick[0][0]
            if first_tying and best0 != COVERED:
                nxt = next(s for s, c in trick if c == best0)
        results = results + (result,)
        finished, winner = _status(results)
        if finished:
            return winner
        trick = []


def rule_confidence(hand: list[int], results: Results, team: int, trick: list[tuple[int, int]], seat: int) -> int:
    """`bots.RuleBot._confidence` on strengths, for a seat holding `hand`."""
    score = sum(max(0, c - 6) for c in hand)
    won = sum(1 for r in results if r == team)
    lost = sum(1 for r in results if r is not None and r != team)
    score += 5 * (won - lost)
    if results and results[0] is None and hand:
        score += 3 if max(hand) >= THREE else 0
    for s, c in trick:
        if c >= 0 and (s & 1) == team and s != seat:
            score += max(0, c - 7)
    return score


class _Judge:
    """One decision's position in strengths, and the worlds dealt for it."""

    def __init__(self, v: SeatView, rng: np.random.Generator, worlds: int):
        table = strength_table(v.variant, v.vira)
        self.v = v
        self.seat = seat = v.seat if v.seat is not None else 0
        self.team = seat & 1
        self.players = v.players
        self.mask = v.players - 1  # the next seat is (seat + 1) & mask (4 or 2 players)
        self.first_tying = v.tie_lead == "first_tying"
        known = {c for h in v.hands for c in h if c is not None}
        known.update(c for t in v.tricks for _, c in t if c is not None)
        known.update(c for _, c in v.current_trick if c is not None)
        if v.vira is not None:
            known.add(v.vira)
        unseen = [table[c] for c in TRUCO_PACK if c not in known]
        self.trick = [(s, COVERED if c is None else table[c]) for s, c in v.current_trick]
        self.results = tuple(v.trick_results)
        self.hands = [[table[c] for c in h if c is not None] for h in v.hands]
        self.hidden = [(s, len(h)) for s, h in enumerate(v.hands) if h and h[0] is None]
        need = sum(n for _, n in self.hidden)
        order = np.argsort(rng.random((worlds, len(unseen))), axis=1)[:, :need]
        self.deals = np.array(unseen, dtype=np.int64)[order].tolist() if need else [[]] * worlds
        target = v.variant.target
        self.need = (target - v.score[self.team], target - v.score[1 - self.team])

    def world(self, k: int) -> list[list[int]]:
        hands = [list(h) for h in self.hands]
        row, at = self.deals[k], 0
        for s, n in self.hidden:
            hands[s] = row[at:at + n]
            at += n
        return hands

    def next_seat(self) -> int:
        """The seat to play the next card of the trick (once the raise is answered)."""
        return (self.trick[-1][0] + 1) & self.mask if self.trick else self.v.trick_leader

    def utility(self, points: float) -> float:
        """Points for the seat's team (negative: for the other), capped at what each lacks."""
        return min(points, self.need[0]) if points >= 0 else -min(-points, self.need[1])

    def outcomes(self, card: int | None, covered: bool = False, nxt: int | None = None) -> list[int]:
        """+1 / 0 / -1 per world: the team takes the hand / nobody does / the other team, when
        the seat plays `card` now (None: the hand goes on from seat `nxt`)."""
        out = []
        team, results, seat = self.team, self.results, self.seat
        for k in range(len(self.deals)):
            hands = self.world(k)
            trick = list(self.trick)
            start = nxt
            if card is not None:
                hands[seat].remove(card)
                trick.append((seat, COVERED if covered else card))
                start = (seat + 1) & self.mask
            assert start is not None
            if len(trick) == self.players:
                start = 0  # the trick is resolved before anyone plays
            winner = play_rest(hands, trick, results, start, self.first_tying, self.players)
            out.append(0 if winner is None else 1 if winner == team else -1)
        return out

    def answer_model(self, k: int, answering: int, value: int, raised_value: int, bold: bool) -> str:
        """How seat `answering` answers a raise to `raised_value` (the hand worth `value`
        before it) in world `k`: "accept", "run" or "raise": as the rule-based bot does, or
        (`bold`) never running."""
        v = self.v
        hands = self.world(k)
        their = answering & 1
        if v.score[1 - their] + value >= v.variant.target:
            return "accept"
        step = v.variant.ladder.index(raised_value)
        conf = rule_confidence(hands[answering], self.results, their, self.trick, answering)
        if v.variant.next_value(raised_value) is not None and conf >= 13 + 2 * step:
            return "raise"
        return "accept" if bold or conf >= 5 + 2 * step else "run"

    def raise_worth(self, outcomes: list[int], value: int, raised: int, answering: int,
                    weights: list[float] | None = None) -> float:
        """Expected utility of raising a hand worth `value` to `raised` when the play then
        gives `outcomes`: the lesser of two models of the other team's answer, the
        rule-based one (which runs with weak cards) and a bold one that never runs, so a
        raise must pay whether or not they call it."""
        return min(self._raise_worth(outcomes, value, raised, answering, weights, bold)
                   for bold in (False, True))

    def _raise_worth(self, outcomes: list[int], value: int, raised: int, answering: int,
                     weights: list[float] | None, bold: bool) -> float:
        weights = weights or [1.0] * len(outcomes)
        total = run = 0.0
        again: list[tuple[float, int]] = []
        nxt = self.v.variant.next_value(raised)
        for k, r in enumerate(outcomes):
            w = weights[k]
            total += w
            answer = self.answer_model(k, answering, value, raised, bold)
            if answer == "run":
                run += w * self.utility(value)
            elif answer == "accept" or nxt is None:
                run += w * self.utility(raised * r)
            else:
                again.append((w, r))
        if again:
            mass = sum(w for w, _ in again)
            accept = sum(w * self.utility(nxt * r) for w, r in again) if nxt else 0.0
            fold = mass * self.utility(-raised)
            run += max(accept, fold)
        return run / total


class StrongBot:
    """The strongest truco level: determinized Monte Carlo over `worlds` deals of the
    unseen cards per decision (see the module docstring). Deterministic given `seed`."""

    def __init__(self, seed: int | np.random.Generator | None = None, worlds: int = WORLDS) -> None:
        self.rng = make_rng(seed)
        self.worlds = worlds

    def choose(self, view: object) -> Action:
        v = _as_view(view)
        legal = v.legal
        if v.is_mao_de_ferro:
            return legal[int(self.rng.integers(len(legal)))]
        if len(legal) == 1:
            return legal[0]
        judge = _Judge(v, self.rng, self.worlds)
        if v.phase == "decide":
            return self._decide(judge)
        if v.phase == "answer":
            return self._answer(judge, legal)
        return self._play(judge, legal)

    def _decide(self, judge: _Judge) -> Action:
        variant = judge.v.variant
        outcomes = judge.outcomes(None, nxt=judge.next_seat())
        play = sum(judge.utility(variant.threshold_value * r) for r in outcomes) / len(outcomes)
        return PLAY_HAND if play > judge.utility(-variant.threshold_run_value) else RUN_HAND

    def _answer(self, judge: _Judge, legal: Sequence[Action]) -> Action:
        v = judge.v
        pending = v.pending_raise
        assert pending is not None  # the answer phase has a raise pending
        raised, raiser = int(pending["value"]), int(pending["seat"])
        outcomes = judge.outcomes(None, nxt=judge.next_seat())
        step = v.variant.ladder.index(raised)
        weights = []
        for k in range(len(outcomes)):
            hand = judge.world(k)[raiser]
            conf = rule_confidence(hand, judge.results, raiser & 1, judge.trick, raiser)
            weights.append(1.0 if conf >= 9 + 2 * step else BLUFF_WEIGHT)
        mass = sum(weights)
        accept = sum(w * judge.utility(raised * r) for w, r in zip(weights, outcomes)) / mass
        run = judge.utility(-v.hand_value)
        if v.score[1 - judge.team] + v.hand_value >= v.variant.target or hand_is_won(
                v, strength_table(v.variant, v.vira)):
            run = -float("inf")
        best, choice = accept, ACCEPT
        reraise = next((a for a in legal if a.kind == "raise"), None)
        if reraise is not None and reraise.value is not None:
            worth = judge.raise_worth(outcomes, raised, reraise.value, (judge.seat + 1) & judge.mask,
                                      weights)
            if worth > best + MARGIN:
                best, choice = worth, reraise
        return RUN if run > best else choice

    def _play(self, judge: _Judge, legal: Sequence[Action]) -> Action:
        v = judge.v
        cards: dict[tuple[int, bool], Action] = {}
        for a in legal:
            if a.kind in ("play", "cover"):
                strength = judge.hands[judge.seat][v.hand.index(a.card)]
                key = (strength, a.kind == "cover")
                if key not in cards and (not key[1] or strength == min(judge.hands[judge.seat])):
                    cards[key] = a
        mine = judge.hands[judge.seat]
        rule = rule_card(mine, judge.trick, judge.results, judge.seat, judge.players)
        if rule not in cards:
            rule = (rule[0], False)
        scored: dict[tuple[int, bool], tuple[int, list[int], Action]] = {}
        for key, action in cards.items():
            out = judge.outcomes(*key)
            scored[key] = (sum(out), out, action)
        best = max(scored, key=lambda key: (scored[key][0], -key[0], key[1]))
        if scored[best][0] - scored[rule][0] <= CARD_MARGIN * len(judge.deals):
            best = rule  # no clearly better card: the rule's, which saves the good ones
        _, outcomes, action = scored[best]
        raise_action = next((a for a in legal if a.kind == "raise"), None)
        if raise_action is not None and v.mode == "normal" and raise_action.value is not None:
            if hand_is_won(v, strength_table(v.variant, v.vira)):
                return raise_action  # nothing to lose: more points if they accept
            value = v.hand_value
            stay = sum(judge.utility(value * r) for r in outcomes) / len(outcomes)
            worth = judge.raise_worth(outcomes, value, raise_action.value, (judge.seat + 1) & judge.mask)
            if worth > stay + MARGIN:
                return raise_action
        return action
