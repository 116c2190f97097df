"""coach0: a frozen copy of the truco coach's advice (`cartas/coach/truco.py` as of the bot
levels' change), played as a bot, for `benchmarks/bot_strength.py` only (never offered to
learners).

The coach may change (its sentences, its thresholds); this copy keeps the numbers the
levels were first measured against: the same decisions, without the sentences. It decides
from its seat's view alone, as every bot:

- mão de onze/dez: play when `threshold_value x (win - loss)` beats running;
- a raise to answer: raise again from a chance of `ASK_AT`, accept when running hands the
  other team the game or accepting loses less on average than running, else run;
- its turn to play: ask truco (when it may) from a chance of `ASK_AT`; else the card the
  rule-based bot would play, unless another card takes the hand more often by `MARGIN`
  plus two standard errors (`ROLLOUTS` play-outs per card, the same deals for each card).

The chance of taking the hand at the start of a hand is `cartas.truco.odds.hand_odds`
(`START_SIMULATIONS` deals), later it is `ROLLOUTS` play-outs under the rule-based play.
Each decision's seed is drawn from the bot's own seeded numpy Generator.
"""
from __future__ import annotations

import math
from functools import cache

import numpy as np

from cartas.cards import TRUCO_PACK, Card, make_rng
from cartas.truco.actions import ACCEPT, PLAY_HAND, RUN, RUN_HAND, Action
from cartas.truco.odds import hand_odds
from cartas.truco.rules import finished_sequences, hand_winner
from cartas.truco.variants import get_variant, strength_table

ROLLOUTS = 400
START_SIMULATIONS = 20_000
ASK_AT = 0.6
MARGIN = 0.03
MANILHA, THREE = 10, 9
COVERED = -1


class Coach0Bot:
    """Plays what the frozen coach advises (see the module docstring)."""

    def __init__(self, seed=None) -> None:
        self.rng = make_rng(seed)

    def choose(self, view) -> Action:
        legal = list(view.legal)
        seed = int(self.rng.integers(2**31))
        if view.is_mao_de_ferro or len(legal) == 1:
            return legal[int(self.rng.integers(len(legal)))] if len(legal) > 1 else legal[0]
        spot = _Spot(view, legal)
        if view.phase == "decide":
            return PLAY_HAND if _threshold(spot, seed) == "play_hand" else RUN_HAND
        if view.phase == "answer":
            answer = _answer(spot, seed)
            if answer == "raise":
                return next(a for a in legal if a.kind == "raise")
            return ACCEPT if answer == "accept" else RUN
        if spot.next_raise is not None and not spot.threshold:
            win, _, _ = _chance(spot, seed)
            if win >= ASK_AT:
                return next(a for a in legal if a.kind == "raise")
        card, covered = _card(spot, seed)
        strength = spot.strength
        kind = "cover" if covered else "play"
        return next(a for a in legal if a.kind == kind and strength[a.card] == strength[card])


class _Spot:
    """What the seat knows (the coach's `TrucoSpot`, read from a view)."""

    def __init__(self, view, legal):
        self.variant = view.variant
        self.vira = view.vira
        self.seat = view.seat
        self.hand = [c for c in view.hand if c is not None]
        self.mao = view.mao
        self.table = list(view.current_trick)
        self.results = tuple(view.trick_results)
        self.seen = [c for trick in view.tricks for _, c in trick if c is not None]
        partner = view.hands[(self.seat + 2) % 4]
        self.partner = list(partner) if partner and all(c is not None for c in partner) else None
        self.hand_value = view.hand_value
        self.score = tuple(view.score)
        self.pending = view.pending_raise["value"] if view.pending_raise else None
        self.run_value = view.run_value
        raises = [a.value for a in legal if a.kind == "raise"]
        self.next_raise = raises[0] if raises else None
        self.threshold = view.mode == "threshold"
        self.leader = view.trick_leader
        self.strength = strength_table(self.variant, self.vira)


def _chance(spot: _Spot, seed: int) -> tuple[float, float, int]:
    if not spot.table and not spot.results and len(spot.hand) == 3:
        odds = hand_odds(spot.variant, list(spot.hand), spot.vira, (spot.seat - spot.mao) % 4,
                         START_SIMULATIONS, seed, tuple(spot.seen), spot.partner)
        return odds.hand_win, odds.hand_loss, odds.simulations
    return _Game(spot).rollout(seed)


def _threshold(spot: _Spot, seed: int) -> str:
    variant = get_variant(spot.variant)
    win, loss, _ = _chance(spot, seed)
    play = variant.threshold_value * (win - loss)
    return "play_hand" if play > -float(variant.threshold_run_value) else "run_hand"


def _answer(spot: _Spot, seed: int) -> str:
    variant = get_variant(spot.variant)
    assert spot.pending is not None
    win, loss, _ = _chance(spot, seed)
    run_value = spot.hand_value if spot.run_value is None else spot.run_value
    accept = spot.pending * (win - loss)
    team = spot.seat & 1
    if spot.next_raise is not None and win >= ASK_AT:
        return "raise"
    if spot.score[1 - team] + run_value >= variant.target or accept >= -run_value:
        return "accept"
    return "run"


def _card(spot: _Spot, seed: int) -> tuple[Card, bool]:
    game = _Game(spot)
    rule = game.rule_choice()
    outcomes, n = game.candidates(seed)
    best = max(outcomes, key=lambda i: outcomes[i][0] - outcomes[i][1])
    rule_win, rule_loss = outcomes[rule]
    best_win, best_loss = outcomes[best]
    noise = 2 * math.sqrt(max(rule_win * (1 - rule_win), 0.01) * 2 / n)
    chosen = best if (best_win - best_loss) - (rule_win - rule_loss) > MARGIN + noise else rule
    return game.candidate_cards[chosen]


@cache
def _status_table() -> dict:
    finished = {tuple(s): hand_winner(s) for s in finished_sequences()}
    table = {}
    for seq in finished:
        for k in range(len(seq) + 1):
            prefix = seq[:k]
            table[prefix] = (True, finished[prefix]) if prefix in finished else (False, None)
    return table


class _Game:
    def __init__(self, spot: _Spot):
        table = spot.strength
        self.spot, self.strength, self.seat = spot, table, spot.seat
        hand = list(spot.hand)
        known = hand + [c for _, c in spot.table if c is not None] + list(spot.seen)
        known += [spot.vira] if spot.vira is not None else []
        known += spot.partner or []
        self.unseen = [table[c] for c in TRUCO_PACK if c not in set(known)]
        self.hand = hand
        self.trick = [(s, COVERED if c is None else table[c]) for s, c in spot.table]
        self.results = spot.results
        done = len(self.results)
        played = {s for s, _ in spot.table}
        self.counts = {s: 3 - done - (s in played) for s in range(4) if s != self.seat}
        self.partner = None if spot.partner is None else [table[c] for c in spot.partner]
        if self.partner is not None:
            self.counts.pop((self.seat + 2) % 4)
        mine = sorted(hand, key=lambda c: table[c])
        seen_strengths: set[int] = set()
        self.candidate_cards: list[tuple[Card, bool]] = []
        for c in mine:
            if table[c] not in seen_strengths:
                seen_strengths.add(table[c])
                self.candidate_cards.append((c, False))
        if done > 0 and mine:
            self.candidate_cards.append((mine[0], True))

    def rule_choice(self) -> int:
        strengths = [self.strength[c] for c, cov in self.candidate_cards if not cov]
        value, covered = _rule_card(strengths, self.trick, self.results, self.seat, len(self.results) > 0)
        for i, (card, cov) in enumerate(self.candidate_cards):
            if self.strength[card] == value and cov == covered:
                return i
        raise AssertionError("the rule's card is among the candidates")

    def _deals(self, seed) -> list:
        rng = make_rng(seed)
        order = np.argsort(rng.random((ROLLOUTS, len(self.unseen))), axis=1)
        return np.array(self.unseen)[order].tolist()

    def _hands(self, row) -> dict:
        hands, k = {}, 0
        for s, count in self.counts.items():
            hands[s] = row[k:k + count]
            k += count
        if self.partner is not None:
            hands[(self.seat + 2) % 4] = list(self.partner)
        return hands

    def rollout(self, seed) -> tuple[float, float, int]:
        status = _status_table()
        team = self.seat & 1
        mine = [self.strength[c] for c in self.hand]
        leader = self.seat if self.spot.leader is None else self.spot.leader
        wins = losses = 0
        for row in self._deals(seed):
            hands = self._hands(row)
            hands[self.seat] = list(mine)
            winner = _play_rest(hands, list(self.trick), self.results, status, leader)
            wins += winner == team
            losses += winner is not None and winner != team
        return wins / ROLLOUTS, losses / ROLLOUTS, ROLLOUTS

    def candidates(self, seed) -> tuple[dict, int]:
        pool = self._deals(seed)
        status = _status_table()
        team = self.seat & 1
        mine = [self.strength[c] for c in self.hand]
        out = {}
        for i, (card, covered) in enumerate(self.candidate_cards):
            value = self.strength[card]
            wins = losses = 0
            for row in pool:
                hands = self._hands(row)
                rest = list(mine)
                rest.remove(value)
                hands[self.seat] = rest
                winner = _play_rest(hands, self.trick + [(self.seat, COVERED if covered else value)],
                                    self.results, status)
                wins += winner == team
                losses += winner is not None and winner != team
            out[i] = (wins / ROLLOUTS, losses / ROLLOUTS)
        return out, ROLLOUTS


def _rule_card(mine, trick, results, seat, may_cover):
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
    if mate > opp and (len(trick) == 3 or mate >= THREE):
        return lowest, may_cover
    winners = [c for c in mine if c > opp]
    if winners:
        cheapest = winners[0]
        if cheapest >= MANILHA and len(trick) == 1 and not results and mate < 0 and len(winners) < len(mine):
            return lowest, False
        return cheapest, False
    won = sum(1 for r in results if r == team)
    if opp in mine and (won or not results):
        return opp, False
    return lowest, may_cover


def _play_rest(hands, trick, results, status, leader=None):
    results = tuple(results)
    while True:
        while len(trick) < 4:
            seat = (trick[-1][0] + 1) & 3 if trick else leader
            cards = list(hands[seat])
            value, covered = _rule_card(cards, trick, results, seat, len(results) > 0)
            cards.remove(value)
            hands[seat] = cards
            trick = trick + [(seat, COVERED if covered else value)]
        best, best_seat = [-1, -1], [None, None]
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
