"""Truco Paulista and Truco Mineiro: variants, rules, game state, narration and bots.

Modules: `catalogue` (every sentence, both languages), `errors` (TrucoError),
`variants`, `rules` (each rule once), `actions`, `state` (the fast path), `events`,
`views` (SeatView), `serialization` (saves: setup plus actions), `legacy` (first-format
saves), `refusals`, `narration`, `explain`, `odds`, `bots` (RandomBot, RuleBot, EasyBot), `strong`
(StrongBot and its judge, the coach's brain too), `spot` (TrucoSpot: what a seat knows).
The state follows `cartas.contract.GameState`.

The modules that need numpy (`state`, `serialization`, `odds`, `bots`) load on first use of
one of their names (`new_game`, `RuleBot`...): a lesson about manilhas or tricks imports the
rules without numpy.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .actions import ACCEPT, PLAY_HAND, RAISE, RUN, RUN_HAND, Action
from .catalogue import CATALOGUE, TEAM_LETTERS, manilha_label, ordinal, seat_name, team_label, team_phrase
from .errors import IllegalActionError, TrucoError
from .explain import explain_hand, explain_last_hand, explain_next_leader, explain_trick
from .narration import narrate
from .rules import (
    COVER_FROM_TRICK,
    PLAYER_COUNTS,
    SEATS,
    TEAMS,
    TIE_LEADS,
    VIRA_CARD,
    check_players,
    deal_hands,
    deal_order,
    finished_sequences,
    hand_events,
    hand_winner,
    may_cover,
    pack_left,
    partner_of,
    play_order,
    seat_partner,
    team_of,
    team_seats,
    trick_next_leader,
    trick_winner,
    trick_winning_seat,
    vira_card,
)
from .variants import (
    MINEIRO,
    NATURAL_ORDER,
    PAULISTA,
    VARIANTS,
    Variant,
    get_variant,
    is_manilha,
    manilha_rank,
    manilhas,
    next_rank,
    ranking,
    strength_table,
)
from .views import SeatView

if TYPE_CHECKING:
    from . import bots
    from .bots import EasyBot, RandomBot, RuleBot, play_game
    from .odds import TrucoOdds, hand_odds
    from .state import TrucoState, from_deal, from_json, new_game
    from .strong import StrongBot

# name -> the module that defines it, loaded when the name is first asked for
_LAZY = {"bots": "bots", "RandomBot": "bots", "RuleBot": "bots", "play_game": "bots",
         "EasyBot": "bots", "StrongBot": "strong",
         "TrucoOdds": "odds", "hand_odds": "odds",
         "TrucoState": "state", "from_deal": "state", "from_json": "state", "new_game": "state"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        module = importlib.import_module(f".{_LAZY[name]}", __name__)
        value = module if name == _LAZY[name] else getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CATALOGUE", "TEAM_LETTERS", "manilha_label", "ordinal", "seat_name", "team_label", "team_phrase",
    "MINEIRO", "NATURAL_ORDER", "PAULISTA", "VARIANTS", "Variant", "get_variant",
    "is_manilha", "manilha_rank", "manilhas", "next_rank", "ranking", "strength_table",
    "ACCEPT", "PLAY_HAND", "RAISE", "RUN", "RUN_HAND", "Action", "IllegalActionError",
    "TrucoError", "COVER_FROM_TRICK", "PLAYER_COUNTS", "SEATS", "TEAMS", "TIE_LEADS", "VIRA_CARD",
    "check_players", "deal_hands", "deal_order", "finished_sequences", "hand_events", "hand_winner",
    "may_cover", "pack_left", "partner_of", "play_order", "seat_partner", "team_of", "team_seats",
    "trick_next_leader", "trick_winner", "trick_winning_seat", "vira_card", "explain_hand", "explain_last_hand",
    "explain_next_leader", "explain_trick", "narrate", "SeatView", "TrucoState", "from_deal",
    "from_json", "new_game", "TrucoOdds", "hand_odds", "bots", "RandomBot", "RuleBot",
    "EasyBot", "StrongBot", "play_game",
]
