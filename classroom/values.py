"""Values both classroom implementations give: the store in this process (`classroom.classes`)
and the class service's client under JupyterHub (`classroom.remote`). Kept apart so that the
client needs nothing of the store's code."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

__all__ = ["NewClass", "NotAllowed", "control_character", "name_key"]


def name_key(name: str) -> str:
    """What two learners' names are compared by, in a class: one learner per key
    (classroom.identity). Compatibility forms folded (NFKC: "ﬁ" is "fi", a full-width "Ａ" is
    "A"), case folded, accents dropped ("Ana Luísa" is "ana luisa"), runs of white space one
    space, none at either end. The one place the comparison lives: confusable letters or edge
    punctuation would be added here, with a store migration recomputing the stored keys
    (learners.name_key, classroom.progress)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    return " ".join(unicodedata.normalize("NFC", bare).split())


def control_character(text: str) -> str | None:
    """The first control character of `text` (Unicode category Cc: NUL, a tab, a newline, ...)
    as "U+0000", or None if it has none. No learner's name, class name or code holds one: a
    request naming one with such a character is refused as such (400), before it reaches the
    store (PostgreSQL holds no NUL in a text)."""
    found = next((ch for ch in text if unicodedata.category(ch) == "Cc"), None)
    return None if found is None else f"U+{ord(found):04X}"


class NotAllowed(PermissionError):
    """Wrong class code or teacher key."""


@dataclass(frozen=True)
class NewClass:
    code: str
    key: str
    title: str
