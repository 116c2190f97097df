"""Values both classroom implementations give: the store in this process (`classroom.classes`)
and the class service's client under JupyterHub (`classroom.remote`). Kept apart so that the
client needs nothing of the store's code."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

__all__ = ["NewClass", "NotAllowed", "control_character", "name_key"]


# Letters of other scripts drawn like a Latin one ("а" of Cyrillic, "ο" of Greek), as the
# Latin letter they pass for; a name written with them compares as the Latin name.
_LOOKALIKES = str.maketrans(
    "АВЕЅІЈКМНОРСТХУасеіјорѕхуԁԛԝһӏ"        # Cyrillic
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαοιρυχνκτ",            # Greek
    "ABESIJKMHOPCTXYaceijopsxydqwhl"
    "ABEZHIKMNOPTYXaoipuxvkt")


def _edges_trimmed(text: str) -> str:
    """`text` without punctuation or symbols at either end (categories P and S), unless that
    leaves nothing ("..." stays "...")."""
    start, end = 0, len(text)
    while start < end and (text[start].isspace() or unicodedata.category(text[start])[0] in "PS"):
        start += 1
    while end > start and (text[end - 1].isspace() or unicodedata.category(text[end - 1])[0] in "PS"):
        end -= 1
    return text[start:end] if start < end else text


def name_key(name: str) -> str:
    """What two learners' names are compared by, in a class: one learner per key
    (classroom.identity). Compatibility forms folded (NFKC: "ﬁ" is "fi", a full-width "Ａ" is
    "A"), letters of other scripts that look like a Latin one folded to it (a Cyrillic "а" is
    "a", a Greek "Ο" is "O"), case folded, accents dropped ("Ana Luísa" is "ana luisa"), runs
    of white space one space, and no punctuation or symbol at either end ("Maria Silva." is
    "Maria Silva"). The one place the comparison lives; the stored keys (learners.name_key)
    are recomputed by a store migration whenever it changes (classroom.progress)."""
    text = unicodedata.normalize("NFKC", name).translate(_LOOKALIKES).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    return " ".join(_edges_trimmed(unicodedata.normalize("NFC", bare)).split())


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
