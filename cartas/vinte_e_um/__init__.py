"""21 (vinte e um), the banker game: scoring, game state, bots, exact odds and narration.

Rules: docs/rules.md#vinte-e-um. Where the sources are silent this engine settles:

- Seats 0..players-1 in play order; the banker's left is the next seat up. The first banker
  is drawn by lot with the game's seeded rng (`banker=` fixes it).
- The ace: `ace=None` (the default of `new_game` and `from_deal`) is the table's default,
  `default_ace(rotation)`: 1, as in the source's examples, except 11 under the "natural"
  rotation, which needs two cards making 21. An explicit ace=1 with "natural" is refused.
- The contract (`cartas.contract`): `apply_action(action)` returns the new events,
  `view(seat)` is an immutable `SeatView` (with its legal actions and its events), bots
  `choose(view)`, `narrate(event, lang)`, `to_json()`/`from_json(text)`. Every refusal is a
  `VinteEUmError` (`IllegalAction` for actions) with a code and fields, rendered in "pt" or
  "en" from the 21 catalogue (`cartas.vinte_e_um.catalogue`), which holds every sentence.
- Who sees what: `state.view(seat)` and `state.events_for(seat)` hide the face-down cards
  that seat may not see: its own first card it sees, others' only once turned up (shown on
  a bust or a call, or at the round's end). `view(None)` is a spectator's (face-up and
  shown cards only), `view(ALL)` ("all") the teacher's (every card). A settled player's
  collected hand stays on the table as the cards he showed (the view's "cards"/"settled").
- Bets go on the table when made: `chips` are stacks, `bets` are stakes, and
  `sum(chips) + pot` never changes. A win returns the bet plus what the banker can pay.
- A player with fewer chips than `min_bet` sits the round out (no cards, no bet).
- A hand at 21 takes no more cards: a player reaching 21 stands by himself, and the banker
  at 21 may only call. With the ace worth 11 two aces make 22: a player busts at once; a
  banker whose two cards are aces (docs/rules.md#21-banker-two-aces) does not show it: the
  players take their turns first (their busts paid to him as usual), and when his turn
  comes his bust is revealed and he pays the uncalled players, in play order from his
  left, until empty.
- The banker's face-down card is turned at his first call (or when he busts or the round ends).
- A banker who busts pays the uncalled players in play order from his left until empty; at a
  call he pays what he has left. Settled players' cards are collected (`collected`), and
  only those are reshuffled when the stock runs out; with none, hit/draw are not legal.
- Rotation modes (`ROTATIONS`, default "rounds"): "rounds" (after `rotation_rounds` rounds,
  default 3, the bank is offered from the banker's left to every seat with chips; if all
  refuse, one of them is drawn by lot), "natural" (after the round, the first player from
  the banker's left who made 21 with his first two cards takes the bank; it needs ace=11 or
  "flexible": with the ace worth 1 no two cards make 21, so `new_game` refuses an explicit
  ace=1, and its default ace is 11),
  "auction" (after every round each seat with chips, from the banker's left, bids more than
  the best bid or passes for good, until one bidder is left; he pays his bid to the banker),
  "sale" (after every round each seat with chips, in turn, may offer chips and the banker
  accepts or refuses; the first accepted offer buys the bank), "permanent" (the seed's fixed
  bank). In every mode a banker left with no chips hands the bank to the next seat on his
  left that has chips, before the next round.
- Set-up: every option is type-checked (a bool is not a number) with sane upper limits
  (`config`); a table where nobody could bet (every other stack below min_bet, or only the
  banker with chips) is refused, and the first banker must hold chips (by lot: drawn among
  the seats holding chips).
- End: after `rounds` rounds (default 10), or when no player can bet against the bank
  (with `rounds=None` that is when one participant holds every chip, at min_bet=1, but
  never after more than UNTIL_ONE_CAP = 200 rounds, so every game ends). Most chips wins;
  `winner` is None on a shared top and `winners` lists the tied seats. A seat with no
  chips and no stake that is not the banker can never act again (`state.seat_is_out`);
  the play view ends the game for a learner whose seat is out.

The modules that need numpy (`bots`, `players`: the easy and strong levels, `odds`) load on
first use of one of their names (`SensibleBot`, `StrongBot`, `bust_probability`...),
`serialization` on the first `from_json` or `to_json`; the state, the scoring and the
narration do not load numpy until a game deals (its seeded Generator).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .actions import ACCEPT_OFFER, DRAW, HIT, KINDS, PASS, REFUSE_BANK, REFUSE_OFFER, STAND, TAKE_BANK, Action
from .catalogue import CATALOGUE
from .config import MAX_BET, MAX_CHIPS, MAX_PACKS, MAX_ROUNDS, UNTIL_ONE_CAP, check_seed
from .errors import IllegalAction, VinteEUmError
from .narration import ROTATION_LABELS, describe_action, explain_call, narrate, rotation_label
from .scoring import (
    ACE_OPTIONS,
    beats,
    call_reason,
    call_winner,
    card_value,
    is_bust,
    is_two_card_21,
    judge_call,
    playable,
    points,
)
from .state import (
    ALL,
    DEFAULT_ROTATION,
    PHASES,
    ROTATIONS,
    VinteEUmState,
    default_ace,
    default_packs,
    from_deal,
    from_json,
    new_game,
)
from .views import SeatView

if TYPE_CHECKING:
    from . import bots, odds
    from .bots import RandomBot, SensibleBot, play_game
    from .odds import (
        banker_distribution_array,
        banker_final_distribution,
        bust_for_view,
        bust_probability,
        odds_for_view,
        unknown_counts,
        win_probability,
    )
    from .players import EasyBot, StrongBot

# name -> the module that needs numpy and defines it, loaded when the name is first asked for
_LAZY = {"bots": "bots", "RandomBot": "bots", "SensibleBot": "bots", "play_game": "bots",
         "EasyBot": "players", "StrongBot": "players",
         "odds": "odds", "banker_distribution_array": "odds", "banker_final_distribution": "odds",
         "bust_for_view": "odds", "bust_probability": "odds", "odds_for_view": "odds", "unknown_counts": "odds",
         "win_probability": "odds"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        module = importlib.import_module(f".{_LAZY[name]}", __name__)
        value = module if name == _LAZY[name] else getattr(module, name)
        globals()[name] = value
        return value
    if name == "GameState":  # 21's state class's old name (the protocol's own): renamed VinteEUmState
        import warnings
        warnings.warn("cartas.vinte_e_um.GameState is now VinteEUmState", DeprecationWarning, stacklevel=2)
        return VinteEUmState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ACCEPT_OFFER", "ACE_OPTIONS", "ALL", "CATALOGUE", "DEFAULT_ROTATION", "DRAW", "HIT",
    "KINDS", "MAX_BET", "MAX_CHIPS", "MAX_PACKS", "MAX_ROUNDS", "PASS", "PHASES",
    "REFUSE_BANK", "REFUSE_OFFER", "ROTATIONS", "ROTATION_LABELS", "STAND", "TAKE_BANK",
    "UNTIL_ONE_CAP", "Action", "IllegalAction", "RandomBot", "SeatView",
    "SensibleBot", "EasyBot", "StrongBot", "VinteEUmError", "VinteEUmState",
    "banker_distribution_array", "banker_final_distribution", "beats", "bots",
    "bust_for_view", "bust_probability", "call_reason", "call_winner", "card_value", "check_seed", "default_ace",
    "default_packs", "describe_action", "explain_call", "from_deal", "from_json", "is_bust",
    "is_two_card_21", "judge_call", "narrate", "new_game", "odds", "odds_for_view",
    "play_game", "playable", "points", "rotation_label", "unknown_counts", "win_probability",
]

