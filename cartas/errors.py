"""One family of refusals for every game: `RuleError`, a ValueError with a code and fields.

A refusal names its reason by a catalogue key (`code`) plus the values it needs (`fields`);
`error.message(lang)` renders it in Portuguese ("pt") or English ("en") from the catalogue
of its family, and `str(error)` is the English text. Raising one never changes a game's
state. Each game subclasses it once (`TrucoError`, `VinteEUmError`, `ScenarioError`) and
points `catalogue` at its own `Catalogue`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from .catalogue import Catalogue

_GENERIC = Catalogue("errors", {
    "bad_language": ("O idioma é 'pt' ou 'en', não {value}.",
                     "The language is 'pt' or 'en', not {value}."),
})


class RuleError(ValueError):
    """Input or an action the rules refuse. `code` is the catalogue key, `fields` its values."""

    catalogue: ClassVar[Catalogue] = _GENERIC

    def __init__(self, code: str, /, **fields: object):
        if code not in self.catalogue:
            raise KeyError(f"{type(self).__name__}: no message {code!r} in catalogue "
                           f"{self.catalogue.name}")
        self.code = code
        self.fields = fields
        super().__init__(self.message("en"))

    def message(self, lang: str = "pt") -> str:
        """The reason in `lang` ("pt" or "en"). A field that is itself a RuleError (a
        refusal wrapped by another family, e.g. a scenario wrapping the engine's) is
        rendered in the same language."""
        fields = {k: v.message(lang) if isinstance(v, RuleError) else v
                  for k, v in self.fields.items()}
        return self.catalogue.say(self.code, lang, **fields)

    def __reduce__(self) -> tuple[Callable[..., RuleError], tuple[object, ...]]:  # picklable
        return (_rebuild, (type(self), self.code, self.fields))


def _rebuild(cls: type[RuleError], code: str, fields: dict[str, object]) -> RuleError:
    return cls(code, **fields)
