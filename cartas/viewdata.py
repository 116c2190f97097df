"""Reading a seat view back from its plain data (`SeatView.from_dict`), shared by the games.

A seat view travels (the class service sends it to a learner's kernel) as the dict of its
`to_dict()`: JSON values only, a card as its text ("7♥"), a hidden card None, an action as
its text, every sequence a list. Reading it back is strict: the data must be a dict with
exactly the view's fields, each of its type; a missing, extra or ill-typed field is the
game's `RuleError` naming the field ("view_missing", "view_unknown", "view_field"), never a
default. `ViewData` does that for one dict; the checks below read one value each.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from .cards import Card
from .contract import Event
from .errors import RuleError

T = TypeVar("T")
U = TypeVar("U")
Check = Callable[[object], T]

MAX_ITEMS = 100_000  # the longest list a view's field may hold (a long game's log included)
MAX_DEPTH = 8        # how deeply an event's values may nest


class BadValue(ValueError):
    """One value of a field is not what the field holds (turned into the field's refusal)."""


def _shown(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def whole(value: object) -> int:
    """A whole number (a bool is not one)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadValue(value)
    return value


def whole_in(low: int, high: int) -> Check[int]:
    """A whole number from `low` to `high`."""
    def check(value: object) -> int:
        number = whole(value)
        if not low <= number <= high:
            raise BadValue(value)
        return number
    return check


def flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise BadValue(value)
    return value


def text(value: object) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise BadValue(value)
    return value


def one_of(*choices: str) -> Check[str]:
    """One of `choices` (text)."""
    def check(value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise BadValue(value)
        return value
    return check


def card(value: object) -> Card:
    """A card written as its text ("7♥"), exactly as `str(card)` writes it."""
    if not isinstance(value, str):
        raise BadValue(value)
    try:
        parsed = Card.parse(value)
    except ValueError:
        raise BadValue(value) from None
    if str(parsed) != value:
        raise BadValue(value)
    return parsed


def optional(check: Check[T]) -> Check[T | None]:
    """None, or what `check` reads."""
    def read(value: object) -> T | None:
        return None if value is None else check(value)
    return read


def items(check: Check[T], length: int | None = None) -> Check[tuple[T, ...]]:
    """A list of values `check` reads (of `length` items when given), as a tuple."""
    def read(value: object) -> tuple[T, ...]:
        if not isinstance(value, list) or len(value) > MAX_ITEMS:
            raise BadValue(value)
        if length is not None and len(value) != length:
            raise BadValue(value)
        return tuple(check(v) for v in value)
    return read


def pair(first: Check[T], second: Check[U]) -> Check[tuple[T, U]]:
    """A list of two values, as a tuple."""
    def read(value: object) -> tuple[T, U]:
        if not isinstance(value, list) or len(value) != 2:
            raise BadValue(value)
        return first(value[0]), second(value[1])
    return read


def _plain(value: object, depth: int) -> bool:
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if depth >= MAX_DEPTH:
        return False
    if isinstance(value, list):
        return len(value) <= MAX_ITEMS and all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    return False


def event(value: object) -> Event:
    """An event: a dict of JSON values with a text "type" (a copy: the view owns it)."""
    if not isinstance(value, dict) or not isinstance(value.get("type"), str) or not _plain(value, 0):
        raise BadValue(value)
    return {str(k): v for k, v in value.items()}


class ViewData:
    """One view's data, checked field by field against `fields` (its names, in order).

    `ViewData(data, fields, error)` refuses, with `error` (the game's `RuleError` class),
    anything but a dict ("view_not_dict"), a dict lacking a field ("view_missing") or
    holding another ("view_unknown"); `read(name, check)` gives the field's value as
    `check` reads it, refusing it with "view_field" naming the field; `refuse(name)` is
    that refusal, for a check between fields."""

    def __init__(self, data: object, fields: Sequence[str], error: type[RuleError]):
        self.error = error
        if not isinstance(data, Mapping):
            raise error("view_not_dict", type=type(data).__name__)
        for name in fields:
            if name not in data:
                raise error("view_missing", name=name)
        for key in data:
            if key not in fields:
                raise error("view_unknown", name=_shown(key))
        self.data = data

    def refuse(self, name: str) -> RuleError:
        return self.error("view_field", name=name)

    def read(self, name: str, check: Check[T]) -> T:
        try:
            return check(self.data[name])
        except BadValue:
            raise self.refuse(name) from None
