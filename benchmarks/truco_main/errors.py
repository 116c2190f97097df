"""Truco refusals: `TrucoError`, a `cartas.errors.RuleError` rendered from the truco catalogue.

A refusal carries a code (its key in `cartas.truco.catalogue.CATALOGUE`) and the neutral
fields the sentence needs; `error.message("pt")` / `error.message("en")` render it and
`str(error)` is the English text. No sentence is written where a refusal is raised.
"""
from __future__ import annotations

from cartas.errors import RuleError
from .catalogue import CATALOGUE


class TrucoError(RuleError):
    """A truco input the rules refuse (a deal, a trick, a variant, a saved game...)."""

    catalogue = CATALOGUE


class IllegalActionError(TrucoError):
    """An action that the rules do not allow now; the message says why."""
