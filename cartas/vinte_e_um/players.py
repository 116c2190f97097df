"""The other levels of 21 players: `EasyBot` (a beginner) and `StrongBot` (from exact odds).

Like every bot (`bots`), each `choose(view)` reads only its seat's `SeatView` and returns
one of its legal actions, and is deterministic given its seed (a seeded numpy Generator,
`config.check_seed`). The rule-following level is `bots.SensibleBot`.
"""
from __future__ import annotations

from functools import lru_cache

from ..cards import STANDARD_PACK
from ..coach.vinte_e_um import advise_player as _advise_player, advise_view
from .actions import DRAW, HIT, STAND, TAKE_BANK, Action
from .bots import BotView, SensibleBot, _legal
from .odds import unknown_counts
from .scoring import check_ace, points, value_class

EASY_STANDS_ON = 18   # the beginner hits on 17 and stands from 18
BET_EDGE = 0.05       # how much better than the average first card a card must be to bet the most


class EasyBot(SensibleBot):
    """A beginner a learner can beat and learn from. It follows the rules and never plays
    an absurd move, but:

    - bets: the most it may, whatever its first card;
    - as a player: hits on 17 (hits up to 17, stands from 18), whatever the banker shows;
    - as the banker: draws up to 17 as well, then calls the players in the order the
      table lists them, not the weakest-looking first;
    - never takes a card at 21 (the engine offers none), and takes or refuses the bank and
      bids like the rule-following `SensibleBot`.
    """

    def _bet(self, view: BotView, legal: list[Action]) -> Action:
        return legal[-1]

    def _play(self, view: BotView, legal: list[Action]) -> Action:
        if HIT in legal and points(view.hands[view.seat], view.ace) < EASY_STANDS_ON:
            return HIT
        return STAND

    def _bank(self, view: BotView, legal: list[Action]) -> Action:
        if DRAW in legal and points(view.hands[view.seat], view.ace) < EASY_STANDS_ON:
            return DRAW
        return next(a for a in legal if a.kind == "call")


@lru_cache(maxsize=256)
def first_card_chance(value_class_of_card: int, ace: int | str, decks: int) -> float:
    """The chance that a player whose first card is of `value_class_of_card` (0 ace, 1..8
    for 2..9, 9 ten-valued) beats the banker, from a full pack: the exact odds of
    `cartas.coach.vinte_e_um.advise_player` (the better of standing and hitting) averaged
    over its second card, the banker's two cards unseen."""
    first = next(c for c in STANDARD_PACK if value_class(c) == value_class_of_card)
    counts = unknown_counts([first], decks)
    chance = 0.0
    for cls, count in enumerate(counts):
        if not count:
            continue
        second = next(c for c in STANDARD_PACK if value_class(c) == cls and c != first)
        advice = _advise_player([first, second], [], [], hidden=2, ace=ace, decks=decks, face_down=1)
        chance += count * max(advice.options["stand"]["win"], advice.options["hit"]["win"])
    return float(chance / counts.sum())


@lru_cache(maxsize=16)
def average_chance(ace: int | str, decks: int) -> float:
    """`first_card_chance` averaged over the first card, from a full pack."""
    counts = unknown_counts([], decks)
    return float(sum(count * first_card_chance(cls, ace, decks) for cls, count in enumerate(counts) if count)
                 / counts.sum())


class StrongBot(SensibleBot):
    """The strongest 21 level: every choice from the exact odds of what its seat has seen.

    - bets: the most it may when its first card gives a clearly better chance of beating the
      bank than the average first card does (by `BET_EDGE`: `first_card_chance`, against a
      banker drawing below 17; a bet is won or lost even money, so the stake goes where the
      chance is best: a ten-valued card, and an ace worth 11), else the least. Measured
      against the rule-following banker, a first ace worth 1 or a 9 loses more at the most
      stake than at the least (`benchmarks/bot_strength.py`), so "better than the average"
      alone was not enough;
    - as a player: hits or stands as the exact odds say (the better chance of winning,
      `cartas.coach.vinte_e_um.advise_player`, from its cards, the banker's face-up ones and
      every other card it has seen);
    - as the banker: draws or calls as the expected chips say (`advise_banker`), calling
      the weakest-looking player first;
    - the bank: it takes it whenever it is offered (the bank wins ties and two-card 21s,
      and a banker pays no more than the chips he holds); buying, bidding and selling as
      `SensibleBot`.
    """

    def choose(self, view: BotView) -> Action:
        legal = _legal(view)
        kinds = {a.kind for a in legal}
        if kinds & {"hit", "stand", "draw", "call"}:
            advice = advise_view(view)
            if advice is not None:
                if advice.action == "hit" and HIT in legal:
                    return HIT
                if advice.action == "stand" and STAND in legal:
                    return STAND
                if advice.action == "draw" and DRAW in legal:
                    return DRAW
        return super().choose(view)

    def _bet(self, view: BotView, legal: list[Action]) -> Action:
        card = view.hands[view.seat][0]
        ace = check_ace(view.ace)
        cls = value_class(card) if card is not None else 9
        chance = first_card_chance(cls, ace, view.decks)
        return legal[-1] if chance > average_chance(ace, view.decks) + BET_EDGE else legal[0]

    def _rotation(self, view: BotView, legal: list[Action], kinds: set[str]) -> Action:
        if "take_bank" in kinds:
            return TAKE_BANK
        return super()._rotation(view, legal, kinds)

    def _bank(self, view: BotView, legal: list[Action]) -> Action:
        # reached only when the advice is to call (or there is none): call the weakest
        calls = [a for a in legal if a.kind == "call"]
        if not calls:
            return legal[0]
        return super()._bank(view, [a for a in legal if a.kind == "call"])
