"""Truco odds: how often a hand wins each trick and the hand, by numpy Monte Carlo.

Given your three cards, your position at the table (0 = the mão, who leads the first trick,
3 = the pé, the dealer) and the vira, `hand_odds` deals the unseen cards to the other three
seats many times at once (each deal a row of index arrays) and plays every deal out with a
vectorised copy of the card play of `bots.RuleBot` (no raises, a normal hand):

- leading the first trick: the strongest card that is not a manilha (a manilha only when
  holding nothing else, then the weakest); leading later tricks: the strongest card;
- following: if the partner already holds the trick (and it is the last card, or the
  partner's card is a 3 or better), throw the weakest card (face down from trick 2 on);
  otherwise win as cheaply as possible, except that second to play in the first trick a
  manilha is kept back when a cheaper card exists (the partner may still take it);
  with no winning card, tie when the team already won a trick or in the first trick;
  else throw the weakest (face down from trick 2 on).

Trick winners follow the engine's rule (each team's best card; equal bests tie; a face-down
card is worth nothing) and the hand's result is read from a 27-entry table filled by the
engine's own `rules.hand_winner`, so the simulation never re-derives the hand rules.
`engine_odds` plays the same positions through the engine with RuleBot, as a slow reference.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from ..cards import TRUCO_PACK, Card, make_rng, parse_cards
from .bots import RuleBot
from .errors import TrucoError
from .rules import CARD_INDEX, COVER_FROM_TRICK, SEATS, finished_sequences, hand_winner, strength_list
from .state import from_deal
from .variants import Variant, get_variant

# cards as the odds take them: Cards or texts ("7♥"), or one text ("7♥ A♠ 3♣")
Cards = Sequence[Card | str] | str

GONE = 99        # a card already played (sorts above every real strength)
NONE = -1        # no card yet / a face-down card
MANILHA = 10     # strengths 10..13 are manilhas (variants.strength_table)
THREE = 9
TIE = 2          # trick result code for a tie (0 and 1 are the teams)


@dataclass(frozen=True)
class TrucoOdds:
    """Chances for your team (fractions of `simulations`, in 0..1).

    `trick_win[k]`, `trick_tie[k]`, `trick_loss[k]`: trick k+1 won, tied or lost (a trick
    not played because the hand was already decided counts in none of them);
    `trick_played[k]`; `hand_win`, `hand_loss`, `hand_none` (every trick tied).
    """

    simulations: int
    trick_win: tuple[float, ...]
    trick_tie: tuple[float, ...]
    trick_loss: tuple[float, ...]
    trick_played: tuple[float, ...]
    hand_win: float
    hand_loss: float
    hand_none: float


@lru_cache(maxsize=1)
def hand_tables() -> tuple[np.ndarray, np.ndarray]:
    """(result, third_played) for the 27 sequences of three trick results coded 0, 1, 2 (tie).

    result: 0 or 1 for the team taking the hand, 2 when nobody scores; third_played: whether
    the third trick is played. Both come from the engine's `finished_sequences`/`hand_winner`.
    """
    finished = set(finished_sequences())
    result = np.empty(27, np.int8)
    third = np.empty(27, bool)
    for a, b, c in itertools.product((0, 1, None), repeat=3):
        seq = (a, b) if (a, b) in finished else (a, b, c)
        winner = hand_winner(seq)
        idx = _code(a) * 9 + _code(b) * 3 + _code(c)
        result[idx] = TIE if winner is None else winner
        third[idx] = len(seq) == 3
    return result, third


def _code(result: int | None) -> int:
    return TIE if result is None else result


MAX_SIMULATIONS = 1_000_000  # per call: a dashboard asks for 50,000


def _indexes(cards: object, what: str) -> list[int]:
    """Pack indexes of `cards`; `what` is where they were given ("mine", "vira",
    "partner" or "seen", see the catalogue's places)."""
    if cards is None or isinstance(cards, str):
        cards = parse_cards(cards) if isinstance(cards, str) else cards
    if not isinstance(cards, (list, tuple)):
        raise TrucoError("not_hands", value=repr(cards)[:40])
    if len(cards) > 40:
        raise TrucoError("odds_unseen", left=0, need=len(cards))
    out = []
    for card in cards:
        try:
            card = Card.parse(card)
        except ValueError:
            raise TrucoError("unreadable_card", text=str(card)[:40], place=what) from None
        if card not in CARD_INDEX:
            raise TrucoError("card_not_in_pack", card=str(card), place=what)
        out.append(CARD_INDEX[card])
    return out


def _setup(variant: Variant | str, hand: Cards, vira: Card | str | None, seen: Cards | None,
           partner: Cards | None) -> tuple[Variant, list[int], list[int], int | None, list[int]]:
    variant = get_variant(variant)
    mine = _indexes(hand, "mine")
    if len(mine) != 3:
        raise TrucoError("odds_hand_size", n=len(mine))
    vira_idx = None
    if variant.uses_vira:
        if vira is None:
            raise TrucoError("needs_vira")
        vira_idx = _indexes([vira], "vira")[0]
    elif vira is not None:
        raise TrucoError("mineiro_no_vira")
    mate = _indexes([] if partner is None else partner, "partner")
    if partner is not None and len(mate) != 3:
        raise TrucoError("odds_partner_size", n=len(mate))
    others = _indexes([] if seen is None else seen, "seen")
    _refuse_repeats(mine, mate, vira_idx, others)
    known = mine + mate + ([vira_idx] if vira_idx is not None else [])
    unseen = sorted(set(range(40)) - set(known) - set(others))
    need = 6 if partner is not None else 9
    if len(unseen) < need:
        raise TrucoError("odds_unseen", left=len(unseen), need=need)
    return variant, mine, mate, vira_idx, unseen


def _refuse_repeats(mine: list[int], mate: list[int], vira_idx: int | None, others: list[int]) -> None:
    """Every card is in the pack once: a card twice in one place, the vira in a hand or
    among the cards seen, or a card both held and seen is refused, naming the card and where."""
    places = [("mine", mine), ("partner", mate), ("seen", others)]
    for place, cards in places:
        for k, card in enumerate(cards):
            if card in cards[:k]:
                raise TrucoError("odds_card_twice", card=str(TRUCO_PACK[card]), place=place)
            if card == vira_idx:
                raise TrucoError("odds_vira_held", card=str(TRUCO_PACK[card]), place=place)
    for place, cards in places[:2]:
        for card in cards:
            if card in others:
                raise TrucoError("odds_held_and_seen", card=str(TRUCO_PACK[card]), place=place)
    for card in mate:
        if card in mine:
            raise TrucoError("odds_card_twice", card=str(TRUCO_PACK[card]), place="partner")


def _check_position(position: object) -> int:
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= 3:
        raise TrucoError("odds_position", position=repr(position)[:40])
    return position


def _check_simulations(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_SIMULATIONS:
        raise TrucoError("odds_simulations", top=MAX_SIMULATIONS, value=repr(n)[:40])
    return n


CHUNK = 32_768  # deals simulated together: small enough to stay in the CPU cache


def deal_strengths(variant: Variant | str, hand: Cards, vira: Card | str | None = None, position: int = 0,
                   n: int = 100_000, seed: int | np.random.Generator | None = None,
                   seen: Cards | None = (), partner: Cards | None = None) -> np.ndarray:
    """(n, 12) int8 strengths of random deals: three cards per position from the mão (0) to
    the pé (3). The unseen cards are drawn without replacement by a partial Fisher-Yates
    shuffle of every row at once."""
    position = _check_position(position)
    n = _check_simulations(n)
    variant, mine, mate, vira_idx, unseen = _setup(variant, hand, vira, seen, partner)
    rng = make_rng(seed)
    strength = np.array(strength_list(variant, vira_idx), dtype=np.int8)
    need = 6 if partner is not None else 9
    dealt = np.empty((n, need), np.int8)
    for start in range(0, n, CHUNK):
        stop = min(n, start + CHUNK)
        dealt[start:stop] = _draw(rng, strength[unseen], stop - start, need)
    hands = np.empty((n, 12), np.int8)
    others = [s for s in range(4) if s != position]
    hands[:, 3 * position:3 * position + 3] = strength[mine]
    if partner is not None:
        mate_pos = (position + 2) % 4
        hands[:, 3 * mate_pos:3 * mate_pos + 3] = strength[mate]
        others.remove(mate_pos)
    for k, seat in enumerate(others):
        hands[:, 3 * seat:3 * seat + 3] = dealt[:, 3 * k:3 * k + 3]
    return hands


def _draw(rng: np.random.Generator, pool_values: np.ndarray, n: int, need: int) -> np.ndarray:
    """`need` values drawn without replacement from `pool_values` for each of n rows."""
    size = len(pool_values)
    pool = np.tile(pool_values, n)
    base = np.arange(0, n * size, size, dtype=np.intp)
    steps = rng.random((need, n), dtype=np.float32)
    for k in range(need):
        here = base + k
        j = here + (steps[k] * (size - k)).astype(np.intp)
        picked = pool[j]
        pool[j] = pool[here]
        pool[here] = picked
    return pool.reshape(n, size)[:, :need]


def play_out(hands: np.ndarray) -> np.ndarray:
    """Play every deal of `deal_strengths`; returns (n, 3) trick results coded 0, 1 (the
    team of positions 0/2 or 1/3) or 2 (tie), all three tricks played even when the hand
    is already decided."""
    results = np.empty((hands.shape[0], 3), np.int8)
    for start in range(0, hands.shape[0], CHUNK):
        results[start:start + CHUNK] = _play_chunk(hands[start:start + CHUNK].T.copy())
    return results


_GONE, _NONE = np.int8(GONE), np.int8(NONE)


def _sel(mask: np.ndarray, a: np.ndarray | np.int8, b: np.ndarray | np.int8) -> np.ndarray:
    """np.where(mask, a, b) for int8 values, by bit masks (np.where is far slower here)."""
    return b ^ ((a ^ b) & -mask.view(np.int8))


def _play_chunk(order: np.ndarray) -> np.ndarray:
    """`order` is (12, n) int8: the cards of the seat playing 1st, 2nd, 3rd, 4th in the
    current trick, three rows each. Seats alternate teams, so the j-th to play is on the
    leading team when j is even. Between tricks the rows rotate so the winner plays first."""
    n = order.shape[1]
    zero = np.zeros(n, np.int8)
    leader = zero.copy()  # absolute position (0 = mão) of the seat that leads
    won = [zero.copy(), zero.copy()]
    results = np.empty((n, 3), np.int8)
    for trick in range(3):
        lead_odd = (leader & 1).astype(bool)
        won_by = [_sel(lead_odd, won[1], won[0]), _sel(lead_odd, won[0], won[1])]
        best = [np.full(n, NONE, np.int8), np.full(n, NONE, np.int8)]  # leading, other team
        best_at = [zero, zero]
        for j in range(4):
            side = j & 1
            cols = order[3 * j], order[3 * j + 1], order[3 * j + 2]
            value, covered = _choose(cols, trick, j, best[1 - side], best[side], won_by[side])
            first = cols[0] == value
            second = ~first & (cols[1] == value)
            third = ~(first | second)
            for k, mask in enumerate((first, second, third)):
                order[3 * j + k] = _sel(mask, _GONE, cols[k])
            played = value if covered is False else _sel(covered, _NONE, value)
            better = played > best[side]
            best[side] = _sel(better, played, best[side])
            best_at[side] = _sel(better, np.int8(j), best_at[side])
        lead_wins = best[0] > best[1]
        other_wins = best[1] > best[0]
        shift = _sel(lead_wins, best_at[0], _sel(other_wins, best_at[1], zero))
        leader = (leader + shift) & np.int8(3)
        result = _sel(lead_wins | other_wins, leader & np.int8(1), np.int8(TIE))
        results[:, trick] = result
        won[0] += result == 0
        won[1] += result == 1
        if trick < 2:
            order = _rotate(order, shift)
    return results


def _rotate(order: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """Row block j of the result is row block (j + shift) % 4 of `order`, per column."""
    out = order.copy()
    for d in (1, 2, 3):
        moved = shift == d
        if moved.any():
            for j in range(4):
                src = 3 * ((j + d) & 3)
                out[3 * j:3 * j + 3] = _sel(moved, order[src:src + 3], out[3 * j:3 * j + 3])
    return out


def _choose(cols: tuple[np.ndarray, np.ndarray, np.ndarray], trick: int, j: int, opp: np.ndarray,
            mate: np.ndarray, mine_won: np.ndarray) -> tuple[np.ndarray, np.ndarray | Literal[False]]:
    """The strength each row's seat plays (its cards are `cols`, GONE when played) and
    whether it goes face down; see the module docstring for the policy."""
    c0, c1, c2 = cols
    lowest = np.minimum(c0, np.minimum(c1, c2))
    if j == 0:
        if trick == 0:
            ordinary = [_sel(c < MANILHA, c, _NONE) for c in cols]
            top = np.maximum(ordinary[0], np.maximum(ordinary[1], ordinary[2]))
            return _sel(top >= 0, top, lowest), False
        live = [_sel(c == GONE, _NONE, c) for c in cols]
        return np.maximum(live[0], np.maximum(live[1], live[2])), False
    held = (mate > opp) & ((j == 3) | (mate >= THREE))
    beats = [c > opp for c in cols]  # a GONE card "beats" too, but is worth GONE below
    cheapest = np.minimum(_sel(beats[0], c0, _GONE),
                          np.minimum(_sel(beats[1], c1, _GONE), _sel(beats[2], c2, _GONE)))
    can_win = cheapest != GONE
    if trick == 0 and j == 1:  # keep a manilha back if a cheaper card exists
        keep = (cheapest >= MANILHA) & ~(beats[0] & beats[1] & beats[2])
        cheapest = _sel(keep, lowest, cheapest)
    may_tie = ((c0 == opp) | (c1 == opp) | (c2 == opp)) & ((mine_won > 0) | (trick == 0))
    value = _sel(held, lowest, _sel(can_win, cheapest, _sel(may_tie, opp, lowest)))
    return value, (held | ~(can_win | may_tie)) & (trick + 1 >= COVER_FROM_TRICK)


def summarise(results: np.ndarray, team: int) -> TrucoOdds:
    """Odds for `team` from (n, 3) trick results of `play_out`."""
    table, third = hand_tables()
    idx = results[:, 0].astype(np.int64) * 9 + results[:, 1] * 3 + results[:, 2]
    hand = table[idx]
    played = np.ones_like(results, dtype=bool)
    played[:, 2] = third[idx]
    n = len(results)
    win = tuple(float(np.count_nonzero(played[:, k] & (results[:, k] == team)) / n) for k in range(3))
    tie = tuple(float(np.count_nonzero(played[:, k] & (results[:, k] == TIE)) / n) for k in range(3))
    play = tuple(float(np.count_nonzero(played[:, k]) / n) for k in range(3))
    loss = tuple(p - w - t for p, w, t in zip(play, win, tie))
    return TrucoOdds(n, win, tie, loss, play,
                     float(np.count_nonzero(hand == team) / n),
                     float(np.count_nonzero(hand == 1 - team) / n),
                     float(np.count_nonzero(hand == TIE) / n))


def hand_odds(variant: Variant | str, hand: Cards, vira: Card | str | None = None, position: int = 0,
              simulations: int = 50_000, seed: int | np.random.Generator | None = None,
              seen: Cards | None = (), partner: Cards | None = None) -> TrucoOdds:
    """Chances of your team for `hand` at `position` (0 = mão ... 3 = pé) with this vira.

    `seen`: cards known not to be in anyone's hand (shown, or seen elsewhere);
    `partner`: your partner's three cards when you may see them (mão de onze/dez).
    Deterministic for a given seed.
    """
    hands = deal_strengths(variant, hand, vira, position, simulations, seed, seen, partner)
    return summarise(play_out(hands), position & 1)


# -- the slow reference: the real engine and RuleBot -----------------------------------------

def engine_odds(variant: Variant | str, hand: Cards, vira: Card | str | None = None, position: int = 0,
                simulations: int = 2000, seed: int | np.random.Generator | None = None) -> TrucoOdds:
    """The same odds measured by playing `simulations` hands through the engine
    (`from_deal`, `legal_actions`, `apply_action`) with RuleBot choosing the cards
    (raises taken out of its choices). Slow: for tests and the benchmark."""
    position = _check_position(position)
    simulations = _check_simulations(simulations)
    variant, mine, _, vira_idx, unseen = _setup(variant, hand, vira, (), None)
    rng = make_rng(seed)
    bot = RuleBot(seed=int(rng.integers(2**31)), bluff=0.0)
    results = np.empty((simulations, 3), np.int8)
    for i in range(simulations):
        dealt = rng.permutation(unseen)[:9].tolist()
        others = iter([dealt[0:3], dealt[3:6], dealt[6:9]])
        hands = [mine if seat == position else next(others) for seat in SEATS]
        state = from_deal(variant, [[TRUCO_PACK[c] for c in h] for h in hands],
                          None if vira_idx is None else TRUCO_PACK[vira_idx], dealer=3)
        while state.hand_number == 1:
            view = state.view(state.current_seat)
            view.legal = tuple(a for a in view.legal if a.kind in ("play", "cover"))
            state.apply_action(bot.choose(view))
        seq = next(e for e in state.events if e["type"] == "hand")["results"]
        seq = [_code(r) for r in seq] + [TIE] * (3 - len(seq))
        results[i] = seq
    return summarise(results, position & 1)
