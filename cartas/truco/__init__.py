"""Truco Paulista and Truco Mineiro: variants, rules, game state, narration and bots."""
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

from .actions import (
    ACCEPT,
    PLAY_HAND,
    RAISE,
    RUN,
    RUN_HAND,
    Action,
    IllegalActionError,
)
from .errors import TrucoError
from .rules import (
    VIRA_CARD,
    deal_order,
    explain_hand,
    explain_last_hand,
    explain_trick,
    finished_sequences,
    hand_events,
    hand_winner,
    pack_left,
    play_order,
    team_of,
    trick_winner,
    trick_winning_seat,
)
from .state import SeatView, TrucoState, from_deal, from_json, new_game
from .text import narrate
from .odds import TrucoOdds, hand_odds
from . import bots  # noqa: E402  (RandomBot, RuleBot, play_game)
from .bots import RandomBot, RuleBot, play_game

__all__ = [
    "MINEIRO", "NATURAL_ORDER", "PAULISTA", "VARIANTS", "Variant", "get_variant",
    "is_manilha", "manilha_rank", "manilhas", "next_rank", "ranking", "strength_table",
    "ACCEPT", "PLAY_HAND", "RAISE", "RUN", "RUN_HAND", "Action", "IllegalActionError",
    "TrucoError", "explain_hand", "explain_last_hand", "explain_trick", "finished_sequences",
    "hand_winner", "team_of", "VIRA_CARD", "deal_order", "hand_events", "pack_left", "play_order", "trick_winner", "trick_winning_seat", "SeatView", "TrucoState", "from_deal", "from_json", "new_game", "narrate",
    "TrucoOdds", "hand_odds",
    "bots", "RandomBot", "RuleBot", "play_game",
]
