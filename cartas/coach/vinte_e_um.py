"""The 21 coach: hit or stand for a player, draw or call for the banker, from exact odds.

Every figure is an exhaustive enumeration over the cards the seat has not seen (by value
class, as in `cartas.vinte_e_um.odds`), so the same position always gets the same advice.

Decided rules:

- Player. Standing wins with `odds.win_probability` (the banker draws below `draw_below`,
  17 by default, from his face-up cards and his face-down one; ties go to the bank). Hitting
  is worth the average, over the next card, of the better of standing and hitting again
  (up to `DEPTH` more cards); a bust loses. Expected chips = bet x (2 x chance of winning - 1),
  since a bet is won or lost even money. Advice: hit when hitting wins more often.
- Banker. Calling now wins each uncalled player's bet when the player's total is not above
  his (ties go to the bank); the player's face-down card(s) are the unseen cards, and a player
  still in the round has not gone over 21. Each player is weighed on his own (his hidden card
  drawn from the unseen cards; the other players' hidden cards are not taken out, a small
  approximation). Drawing is worth the average, over the next card, of the better of calling
  and drawing again; a bust pays every uncalled player. Advice: draw when it wins more chips
  on average.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..cards import STANDARD_PACK, Card
from ..vinte_e_um.odds import unknown_counts, win_probability
from ..vinte_e_um.scoring import HARD_VALUES, VALUE_CLASSES, check_ace, points, total, value_class

DEPTH = 3  # further cards looked at after the first hit or draw

TEXT = {
    "stand": {
        "pt": "Pare: parando você ganha {stand} das vezes; pedindo, {hit}.",
        "en": "Stand: standing wins {stand} of the time; hitting, {hit}.",
    },
    "hit": {
        "pt": "Peça: pedindo (e parando na hora certa) você ganha {hit} das vezes; parando agora, {stand}.",
        "en": "Hit: hitting (and stopping at the right time) wins {hit} of the time; standing now, {stand}.",
    },
    "call": {
        "pt": "Chame: chamando agora, o saldo médio da banca é {call} fichas; comprando, {draw}.",
        "en": "Call: calling now, the bank's average balance is {call} chips; drawing, {draw}.",
    },
    "draw": {
        "pt": "Compre: comprando, o saldo médio da banca é {draw} fichas; chamando agora, {call}.",
        "en": "Draw: drawing, the bank's average balance is {draw} chips; calling now, {call}.",
    },
}


@dataclass
class Advice21:
    """action: "hit", "stand", "draw" or "call"; options: {answer: {"win"?, "expected"}}
    (win: the chance of winning the bet, for a player; expected: average chips won);
    reason and fields: the TEXT entry; seconds: time taken."""

    action: str
    options: dict
    reason: str
    fields: dict = field(default_factory=dict)
    seconds: float = 0.0

    def text(self, lang: str = "pt") -> str:
        entry = TEXT[self.reason]
        return (entry.get(lang) or entry["pt"]).format(
            **{k: _fmt(v, lang) for k, v in self.fields.items()})


def _fmt(value, lang):
    kind, number = value
    text = f"{100 * number:.1f}%" if kind == "%" else f"{number:+.2f}"
    return text.replace(".", ",") if lang == "pt" else text


def _card_of(cls: int, exclude: list) -> Card:
    """A card of value class `cls` that is not among `exclude` (suits do not matter in 21)."""
    taken = {str(c) for c in exclude}
    for card in STANDARD_PACK:
        if value_class(card) == cls and str(card) not in taken:
            return card
    return next(card for card in STANDARD_PACK if value_class(card) == cls)


# -- player -----------------------------------------------------------------------------------

def advise_player(hand: Sequence, banker_visible: Sequence = (), seen: Sequence = (),
                  hidden: int = 1, bet: int = 1, ace=1, decks: int = 1,
                  draw_below: int = 17) -> Advice21:
    """Hit or stand for a player holding `hand` (face-down card included).

    banker_visible: the banker's face-up cards; hidden: how many he holds face down;
    seen: every other card this player has seen (not the hand's, not the banker's)."""
    start = time.perf_counter()
    ace = check_ace(ace)
    hand = [Card.parse(c) if isinstance(c, str) else c for c in hand]
    banker_visible = [Card.parse(c) if isinstance(c, str) else c for c in banker_visible]
    seen = [Card.parse(c) if isinstance(c, str) else c for c in seen]
    under = hidden > 0
    memo: dict = {}

    def stand(cards):
        return win_probability(cards, banker_visible, seen, hidden, draw_below, ace, decks, under)

    def hit(cards, depth):
        key = (tuple(sorted(value_class(c) for c in cards)), depth)
        if key in memo:
            return memo[key]
        counts = unknown_counts(cards + banker_visible + seen, decks)
        # the banker's face-down card is unseen too: by symmetry the next card is any unseen one
        n = counts.sum()
        value = 0.0
        for cls in range(VALUE_CLASSES):
            if not counts[cls]:
                continue
            card = _card_of(cls, cards + banker_visible + seen)
            after = cards + [card]
            if points(after, ace) > 21:
                continue
            best = stand(after)
            if depth > 0 and points(after, ace) < 21:
                best = max(best, hit(after, depth - 1))
            value += counts[cls] / n * best
        memo[key] = value
        return value

    p_stand = stand(hand)
    p_hit = hit(hand, DEPTH) if points(hand, ace) < 21 else 0.0
    p_stand, p_hit = float(p_stand), float(p_hit)
    options = {"stand": {"win": p_stand, "expected": bet * (2 * p_stand - 1)},
               "hit": {"win": p_hit, "expected": bet * (2 * p_hit - 1)}}
    action = "hit" if p_hit > p_stand + 1e-12 else "stand"
    return Advice21(action, options, action, {"stand": ("%", p_stand), "hit": ("%", p_hit)},
                    time.perf_counter() - start)


# -- banker -----------------------------------------------------------------------------------

def advise_banker(hand: Sequence, players: Sequence, seen: Sequence = (), ace=1,
                  decks: int = 1) -> Advice21:
    """Draw or call for the banker holding `hand`.

    players: one (face-up cards, face-down count, bet) per player still to be called;
    seen: every other card the banker has seen (not his hand, not those face-up cards)."""
    start = time.perf_counter()
    ace = check_ace(ace)
    hand = [Card.parse(c) if isinstance(c, str) else c for c in hand]
    players = [([Card.parse(c) if isinstance(c, str) else c for c in up], hidden, bet)
               for up, hidden, bet in players]
    if not players:
        raise ValueError("the banker has nobody left to call")
    visible = [c for up, _, _ in players for c in up]
    base = unknown_counts(hand + visible + [Card.parse(c) if isinstance(c, str) else c
                                            for c in seen], decks)
    hard = sum(HARD_VALUES[value_class(c)] for c in hand)
    aces = sum(value_class(c) == 0 for c in hand)
    stake = sum(bet for _, _, bet in players)
    shown = [(sum(HARD_VALUES[value_class(c)] for c in up), sum(value_class(c) == 0 for c in up),
              hidden, bet) for up, hidden, bet in players]

    def player_totals(counts, up_hard, up_aces, hidden):
        """Distribution {total: p} of a player's final total, given he is not over 21."""
        dist = {(up_hard, up_aces): 1.0}
        left = counts.astype(float)
        for _ in range(hidden):
            n = left.sum()
            nxt = {}
            for (h, a), p in dist.items():
                for cls in range(VALUE_CLASSES):
                    if left[cls]:
                        key = (h + HARD_VALUES[cls], a + (cls == 0))
                        nxt[key] = nxt.get(key, 0.0) + p * left[cls] / n
            dist = nxt
        out = {}
        for (h, a), p in dist.items():
            t = total(h, a, ace)
            if t <= 21:
                out[t] = out.get(t, 0.0) + p
        mass = sum(out.values())
        return {t: p / mass for t, p in out.items()} if mass else {}

    def call_value(counts, mine):
        value = 0.0
        for up_hard, up_aces, hidden, bet in shown:
            dist = player_totals(counts, up_hard, up_aces, hidden)
            beat = sum(p for t, p in dist.items() if t <= mine)
            value += bet * (2 * beat - 1)
        return value

    memo: dict = {}

    def draw_value(counts, h, a, depth):
        key = (tuple(counts), h, a, depth)
        if key in memo:
            return memo[key]
        n = counts.sum()
        if n == 0:
            return call_value(counts, total(h, a, ace))
        value = 0.0
        for cls in range(VALUE_CLASSES):
            if not counts[cls]:
                continue
            rest = counts.copy()
            rest[cls] -= 1
            nh, na = h + HARD_VALUES[cls], a + (cls == 0)
            mine = total(nh, na, ace)
            if mine > 21:
                best = -float(stake)
            else:
                best = call_value(rest, mine)
                if depth > 0 and mine < 21:
                    best = max(best, draw_value(rest, nh, na, depth - 1))
            value += counts[cls] / n * best
        memo[key] = value
        return value

    mine = total(hard, aces, ace)
    call = call_value(base, mine) if mine <= 21 else -float(stake)
    draw = draw_value(np.array(base), hard, aces, DEPTH - 1) if mine < 21 else -float(stake)
    call, draw = float(call), float(draw)
    options = {"call": {"expected": call}, "draw": {"expected": draw}}
    action = "draw" if draw > call + 1e-12 else "call"
    return Advice21(action, options, action, {"call": ("chips", call), "draw": ("chips", draw)},
                    time.perf_counter() - start)
