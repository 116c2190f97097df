"""Bots for every seat: `RandomBot` and `SensibleBot`, plus `play_game`.

A bot's `choose(view)` reads only a `SeatView` (`state.view(seat)`: what that seat can
see, its legal actions included) and returns one of the legal actions; given its seed it
always makes the same choices.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .actions import ACCEPT_OFFER, DRAW, HIT, PASS, REFUSE_BANK, REFUSE_OFFER, STAND, TAKE_BANK, Action
from .config import check_seed
from .errors import VinteEUmError, shown
from .odds import _others, bust_probability, unknown_list
from .scoring import HARD_VALUES, card_value, check_ace, points
from .state import VinteEUmState, new_game
from .views import SeatView

if TYPE_CHECKING:
    from ..contract import Bot

# The view a bot's helpers read: its own seat's SeatView, whose `seat` is a seat number and
# whose hands hold that seat's cards. `SeatView` types `seat` for spectators and "all" too,
# and pinning it down here would take code changes in this module, which others are
# editing, so the helpers take it as Any (the entry point, `choose`, takes a SeatView).
BotView = Any


def _legal(view: SeatView) -> list[Action]:
    legal = view.legal_actions()
    if not legal:
        raise VinteEUmError("no_move", seat=shown(view.seat), current=shown(view.current_seat))
    return legal


class RandomBot:
    """Picks uniformly among the legal actions."""

    def __init__(self, seed: object = None) -> None:
        self.rng = check_seed(seed)

    def choose(self, view: SeatView) -> Action:
        legal = _legal(view)
        return legal[int(self.rng.integers(len(legal)))]


class SensibleBot:
    """Plays like a careful table regular.

    Player: bets by its first card (ten-valued cards and an ace worth 11 bet the maximum,
    8s and 9s the middle, the rest the minimum) and stands once the chance that the next
    card busts it reaches `risk`. Banker: calls the weakest-looking hand first (face-up
    points plus the average unseen card) and draws while behind that hand, unless a draw
    would bust more often than not. Bank: takes or buys it only with chips to back it.
    """

    def __init__(self, seed: object = None, risk: float = 0.5) -> None:
        self.rng = check_seed(seed)
        self.risk = risk

    def choose(self, view: SeatView) -> Action:
        legal = _legal(view)
        kinds = {a.kind for a in legal}
        if "bet" in kinds:
            return self._bet(view, legal)
        if "hit" in kinds or "stand" in kinds:
            return self._play(view, legal)
        if "call" in kinds or "draw" in kinds:
            return self._bank(view, legal)
        return self._rotation(view, legal, kinds)

    def _bet(self, view: BotView, legal: list[Action]) -> Action:
        value = card_value(view.hands[view.seat][0], view.ace)
        lo, hi = legal[0].amount, legal[-1].amount
        want = view.max_bet if value >= 10 else (view.min_bet + view.max_bet) // 2 if value >= 8 else lo
        return Action.bet(max(lo, min(hi, want)))  # type: ignore[type-var, arg-type]  # bets have amounts

    def _play(self, view: BotView, legal: list[Action]) -> Action:
        if HIT not in legal:
            return STAND
        hand = view.hands[view.seat]
        risk = bust_probability(hand, _others(view, view.seat), view.ace, view.decks)
        return STAND if risk >= self.risk else HIT

    def _bank(self, view: BotView, legal: list[Action]) -> Action:
        seat, ace = view.seat, check_ace(view.ace)
        unseen = unknown_list(view.seen, view.decks)
        values = HARD_VALUES if ace == 1 else (11, *HARD_VALUES[1:])  # an unseen ace looks like 11 to a wary banker
        left = sum(unseen)
        # whole numbers summed exactly, then one division: the same float as numpy's dot product gave
        average = sum(n * v for n, v in zip(unseen, values)) / left if left else 6.5
        calls = [a for a in legal if a.kind == "call"]

        def looks(action: Action) -> float:
            faces = [c for c in view.hands[action.seat] if c is not None]
            hidden = len(view.hands[action.seat]) - len(faces)
            return points(faces, ace) + hidden * average

        weakest = min(calls, key=looks)
        mine = points(view.hands[seat], ace)
        if DRAW in legal and mine < looks(weakest):
            risk = bust_probability(view.hands[seat], _others(view, seat), ace, view.decks)
            if risk < 0.5:
                return DRAW
        return weakest

    def _rotation(self, view: BotView, legal: list[Action], kinds: set[str]) -> Action:
        chips, stake = view.chips[view.seat], view.max_bet
        if "take_bank" in kinds:
            return TAKE_BANK if chips >= 3 * stake else REFUSE_BANK
        if "accept_offer" in kinds:
            return ACCEPT_OFFER if view.pending_offer[1] >= stake else REFUSE_OFFER
        if "bid" in kinds:
            bid = view.high_bid + 1
            return Action.bid(bid) if bid <= min(stake, chips // 4) else PASS
        if "offer" in kinds and chips >= 4 * stake and self.rng.random() < 0.3:
            return Action.offer(stake)
        return PASS


def play_game(players: int = 4, bots: Sequence[Bot] | type[RandomBot | SensibleBot] | None = None,
              seed: int | np.random.Generator | None = None, **options: Any) -> VinteEUmState:
    """Play a whole game with bots and return the final state.

    bots: one bot per seat, or a bot class (built once per seat with a seed derived from
    `seed`); None means SensibleBot everywhere. Other options go to `new_game`.
    """
    state = new_game(players, seed=seed, **options)
    if bots is None or isinstance(bots, type):
        kind = bots or SensibleBot
        if isinstance(seed, np.random.Generator):
            seed = int(seed.integers(2 ** 63))
        seeds = np.random.SeedSequence(seed).spawn(state.players)
        bots = [kind(np.random.default_rng(s)) for s in seeds]
    if len(bots) != state.players:
        raise VinteEUmError("bots_count", players=state.players, count=len(bots))
    while not state.is_terminal():
        seat = state.current_seat
        state.apply_action(bots[seat].choose(state.view(seat)), seat)  # type: ignore[index]  # not over: a seat acts
    return state
