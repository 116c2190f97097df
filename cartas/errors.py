"""Refusals of the rules, readable in English (`str`) and in Portuguese (`message("pt")`)."""
from __future__ import annotations


class RuleError(ValueError):
    """Input or an action the rules refuse. `str(error)` is the English reason; `code` (None
    for none) and `fields` name the reason so `message(lang)` can render it in Portuguese."""

    def __init__(self, reason: str, code: str | None = None, **fields):
        super().__init__(reason)
        self.code = code
        self.fields = fields

    def message(self, lang: str = "pt") -> str:
        """The reason in `lang` ("pt" or "en"); English for an unknown code."""
        return self.translate(self.code, self.fields, str(self), lang)

    @staticmethod
    def translate(code, fields: dict, english: str, lang: str) -> str:
        """Each game's errors render their codes from that game's text module."""
        return english
