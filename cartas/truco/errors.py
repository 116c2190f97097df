"""Truco refusals that speak Portuguese as well as English.

`str(error)` is the English reason (as before); `code` and `fields` name the reason so that
`error.message("pt")` can render it in Portuguese (see `text.illegal_message`).
"""
from __future__ import annotations

from ..errors import RuleError


class TrucoError(RuleError):
    """A truco input the rules refuse (a deal, a trick, a variant...); the message says why."""

    @staticmethod
    def translate(code, fields: dict, english: str, lang: str) -> str:
        from .text import illegal_message
        return illegal_message(code, fields, english, lang)


class IllegalActionError(TrucoError):
    """An action that the rules do not allow now; the message says why."""
