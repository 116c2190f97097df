"""Message catalogues: every sentence a learner can read, in Portuguese and English.

Each game keeps one `Catalogue` (`cartas.truco.catalogue`, `cartas.vinte_e_um.catalogue`,
`cartas.scenario`'s own) of entries `key -> (portuguese, english)`, written as
`str.format` templates. `catalogue.say(key, lang, **fields)` renders one; errors carry a
key (their `code`) and its fields and render through the catalogue of their family, so a
refusal is never written twice nor half in one language.
"""
from __future__ import annotations

from collections.abc import Mapping

LANGS = ("pt", "en")
DEFAULT_LANG = "pt"


def check_lang(lang: object) -> str:
    """`lang` itself if it is "pt" or "en"; a ValueError naming it otherwise."""
    if lang not in LANGS:
        raise ValueError(f"language must be 'pt' or 'en', not {lang!r}")
    return lang


class Catalogue:
    """One game's sentences: `{key: (pt, en)}` templates, rendered by `say`."""

    def __init__(self, name: str, entries: Mapping[str, tuple[str, str]]):
        self.name = name
        self._entries = dict(entries)
        for key, pair in self._entries.items():
            if not (isinstance(pair, tuple) and len(pair) == 2
                    and all(isinstance(t, str) for t in pair)):
                raise TypeError(f"catalogue {name}: entry {key!r} is not a (pt, en) pair")

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def keys(self) -> list[str]:
        return list(self._entries)

    def template(self, key: str, lang: str = DEFAULT_LANG) -> str:
        pt, en = self._entries[key]
        return pt if check_lang(lang) == "pt" else en

    def say(self, key: str, lang: str = DEFAULT_LANG, **fields: object) -> str:
        """The sentence `key` in `lang`, its `{fields}` filled in."""
        text = self.template(key, lang)
        return text.format(**fields) if fields else text

    def update(self, entries: Mapping[str, tuple[str, str]]) -> None:
        """Add entries (a key may be written once only)."""
        clash = set(entries) & set(self._entries)
        if clash:
            raise KeyError(f"catalogue {self.name}: {sorted(clash)} written twice")
        self._entries.update(entries)
