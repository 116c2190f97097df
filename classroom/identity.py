"""Who is answering: a learner's name, optional class code and anonymous browser id.

Decided rules:
- A name is plain text: control and bidi-override characters are dropped, runs of white space
  become one space, and it is cut to MAX_NAME (40) characters. Whoever shows it escapes it.
- A class code is letters and digits from CODE_ALPHABET (no 0/O, 1/I/L), upper-cased, with
  spaces and dashes ignored; it is CODE_LENGTH (6) characters long.
- A browser id is 8 to 64 letters, digits or dashes, drawn at random by the browser.
- A learner's key: with a name, the class code plus the case-folded name (the same name in the
  same class is the same learner, on any computer); without a name, the browser id (progress
  for that browser only, as a learner alone on Binder).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_NAME = 40
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}
_BROWSER_ID = re.compile(r"[A-Za-z0-9-]{8,64}")


def clean_name(text) -> str:
    """The name as it will be stored and shown (before HTML escaping)."""
    if not isinstance(text, str):
        return ""
    kept = "".join(" " if ch.isspace() else ch for ch in unicodedata.normalize("NFC", text)
                   if ch.isspace() or (unicodedata.category(ch)[0] != "C" and ch not in _BIDI))
    return " ".join(kept.split())[:MAX_NAME].strip()


def clean_code(text) -> str:
    """The class code typed by a learner, normalised; "" for none. ValueError if malformed."""
    if not isinstance(text, str):
        return ""
    code = re.sub(r"[\s-]", "", text).upper()
    if not code:
        return ""
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise ValueError(f"a class code has {CODE_LENGTH} letters and digits, not {text[:20]!r}")
    return code


def clean_browser_id(text) -> str:
    if isinstance(text, str) and _BROWSER_ID.fullmatch(text):
        return text
    raise ValueError("a browser id is 8 to 64 letters, digits or dashes")


def fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


@dataclass(frozen=True)
class Learner:
    browser_id: str
    name: str = ""
    class_code: str = ""

    @classmethod
    def make(cls, browser_id, name="", class_code="") -> Learner:
        """A learner from untrusted input: cleaned, ValueError for a bad id or code."""
        return cls(clean_browser_id(browser_id), clean_name(name), clean_code(class_code))

    @property
    def key(self) -> str:
        if self.name:
            return f"n:{self.class_code}:{fold(self.name)}"
        return f"b:{self.browser_id}"
