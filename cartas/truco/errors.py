"""Truco refusals that speak Portuguese as well as English.

`str(error)` is the English reason (as before); `code` and `fields` name the reason so that
`error.message("pt")` can render it in Portuguese (see `text.illegal_message`).
"""
from __future__ import annotations


class TrucoError(ValueError):
    """A truco input the rules refuse (a deal, a trick, a variant...); the message says why."""

    def __init__(self, reason: str, code: str | None = None, **fields):
        super().__init__(reason)
        self.code = code
        self.fields = fields

    def message(self, lang: str = "pt") -> str:
        """The reason in `lang` ("pt" or "en"); English for an unknown code."""
        from .text import illegal_message
        return illegal_message(self.code, self.fields, str(self), lang)


class IllegalActionError(TrucoError):
    """An action that the rules do not allow now; the message says why."""
