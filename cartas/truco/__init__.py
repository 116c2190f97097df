"""Truco Paulista and Truco Mineiro."""
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

__all__ = [
    "MINEIRO", "NATURAL_ORDER", "PAULISTA", "VARIANTS", "Variant", "get_variant",
    "is_manilha", "manilha_rank", "manilhas", "next_rank", "ranking", "strength_table",
]
