"""Truco actions: small immutable values a seat hands to `state.apply_action`.

An `Action` has a `kind` and at most one argument:

=============  ===================  ==============  =========================================
kind           constructor          str()           meaning
=============  ===================  ==============  =========================================
"play"         Action.play(card)    "play 7♥"       play a card face up
"cover"        Action.cover(card)   "cover 7♥"      play it face down (carta coberta)
"blind"        Action.blind(pos)    "blind 0"       mão de ferro: play the card at position
                                                    0, 1 or 2 of the seat's remaining cards
"raise"        Action.raise_to(v)   "raise 3"       truco / seis / nove / dez / doze; also
               RAISE                "raise"         re-raise while a raise is pending;
                                                    RAISE means "the next step"
"accept"       ACCEPT               "accept"        accept the pending raise
"run"          RUN                  "run"           run from the pending raise (fold)
"play_hand"    PLAY_HAND            "play hand"     mão de onze/dez: the team plays the hand
"run_hand"     RUN_HAND             "run hand"      mão de onze/dez: the team runs
=============  ===================  ==============  =========================================

`Action.parse(text)` reads every str() form back (and a few Portuguese words: "truco",
"seis", "aceito", "corro", "cobre 7♥"...).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import TRUCO_PACK, Card
from .catalogue import describe_action
from .errors import IllegalActionError, TrucoError
from .variants import Variant

KINDS = ("play", "cover", "blind", "raise", "accept", "run", "play_hand", "run_hand")


@dataclass(frozen=True, slots=True)
class Action:
    """One move. Immutable and hashable; build it with the constructors below."""

    kind: str
    card: Card | None = None
    position: int | None = None
    value: int | None = None

    # -- constructors -------------------------------------------------------------------
    @staticmethod
    def play(card: Card | str) -> Action:
        """Play `card` (a Card or text such as "7♥") face up."""
        return _cached(_PLAY, card) or Action("play", card=Card.parse(card))

    @staticmethod
    def cover(card: Card | str) -> Action:
        """Play `card` face down (carta coberta): it is worth nothing."""
        return _cached(_COVER, card) or Action("cover", card=Card.parse(card))

    @staticmethod
    def blind(position: int) -> Action:
        """Mão de ferro: play the card at `position` (0 = first remaining card) unseen."""
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= 2:
            raise TrucoError("bad_position", position=repr(position)[:40])
        return _BLIND[position]

    @staticmethod
    def raise_to(value: int | None = None) -> Action:
        """Raise the hand to `value` (None: the next step of the ladder)."""
        if value is None:
            return RAISE
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_RAISE:
            raise TrucoError("bad_raise_value", value=repr(value)[:40])
        return Action("raise", value=value)

    @classmethod
    def parse(cls, text: object) -> Action:
        """Read an action from its str() form, e.g. "play 7♥", "raise 3", "accept"."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise IllegalActionError("not_an_action", text=repr(text)[:40])
        words = text.strip().lower().replace("_", " ").split(None, 1)
        if not words:
            raise IllegalActionError("empty_action")
        head, rest = words[0], (words[1].strip() if len(words) > 1 else "")
        try:
            action = _decision(head, rest) or _card_move(head, rest) or _call(head, rest)
        except ValueError:
            action = None
        if action is None:
            raise IllegalActionError("unreadable_action", text=text[:40])
        return action

    # -- text ----------------------------------------------------------------------------
    def __str__(self) -> str:
        if self.card is not None:
            return f"{self.kind} {self.card}"
        if self.position is not None:
            return f"blind {self.position}"
        if self.kind == "raise":
            return "raise" if self.value is None else f"raise {self.value}"
        return self.kind.replace("_", " ")

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def describe(self, lang: str = "pt", variant: Variant | None = None) -> str:
        """A short phrase: "jogar 7♥", "pedir truco (3)", "aceitar"...

        With the variant, raises are named by their shout (truco, seis, nove, dez, doze).
        """
        word = None
        if self.kind == "raise" and variant is not None and self.value in variant.ladder:
            word = variant.raise_name(self.value)
        return describe_action(self.kind, lang, self.card, self.position, self.value, word)

    def fields(self) -> dict[str, Any]:
        """The neutral fields a refusal needs to name this action in either language."""
        return {"action_kind": self.kind, "card": None if self.card is None else str(self.card),
                "position": self.position, "value": self.value}


_PLAY_WORDS = ("play", "joga", "jogo")
_RUN_WORDS = ("run", "corre", "corro", "fujo")
_HAND_WORDS = ("hand", "mao", "mão")
_ASK_WORDS = ("raise", "pede", "peço")


def _decision(head: str, rest: str) -> Action | None:
    """A mão de onze/dez decision: "play hand" / "joga mão", "run hand" / "corre mão"."""
    if rest in _HAND_WORDS:
        if head in _PLAY_WORDS:
            return PLAY_HAND
        if head in _RUN_WORDS:
            return RUN_HAND
    return None


def _card_move(head: str, rest: str) -> Action | None:
    """A card played face up, covered, or blind: "play 7♥", "cobre 7♥", "blind 0"."""
    if not rest:
        return None
    if head in _PLAY_WORDS:
        return Action.play(rest)
    if head in ("cover", "cobre", "cubro", "coberta"):
        return Action.cover(rest)
    if head in ("blind", "cega"):
        return Action.blind(int(rest))
    return None


def _call(head: str, rest: str) -> Action | None:
    """A raise ("raise", "raise 6", "seis", "pede nove"), an acceptance or a run."""
    if head in _ASK_WORDS:
        if not rest:
            return RAISE
        head, rest = rest, ""
    if rest:
        return None
    if head.isdigit() and len(head) <= 3:
        return Action.raise_to(int(head))
    if head in _RAISE_WORDS:
        return Action.raise_to(_RAISE_WORDS[head])
    if head in ("accept", "aceito", "aceita", "desce"):
        return ACCEPT
    if head in _RUN_WORDS:
        return RUN
    return None


def _cached(table: dict[Card | str | None, Action], card: object) -> Action | None:
    return table.get(card) if isinstance(card, (str, Card)) else None


MAX_RAISE = 12  # no ladder goes above 12
_RAISE_WORDS = {"truco": None, "seis": 6, "nove": 9, "dez": 10, "doze": 12}

RAISE = Action("raise")
ACCEPT = Action("accept")
RUN = Action("run")
PLAY_HAND = Action("play_hand")
RUN_HAND = Action("run_hand")

# One shared instance per card and position keeps legal-action lists cheap to build.
PLAY_ACTIONS: tuple[Action, ...] = tuple(Action("play", card=c) for c in TRUCO_PACK)
COVER_ACTIONS: tuple[Action, ...] = tuple(Action("cover", card=c) for c in TRUCO_PACK)
_BLIND: tuple[Action, ...] = tuple(Action("blind", position=p) for p in range(3))
# keyed by the Card and by its text
_PLAY: dict[Card | str | None, Action] = {a.card: a for a in PLAY_ACTIONS}
_COVER: dict[Card | str | None, Action] = {a.card: a for a in COVER_ACTIONS}
_PLAY.update({str(a.card): a for a in PLAY_ACTIONS})
_COVER.update({str(a.card): a for a in COVER_ACTIONS})
BLIND_ACTIONS = _BLIND


def card_action(legal: Iterable[Action], hand: Sequence[Card | None], index: int,
                covered: bool = False) -> Action | None:
    """The action a pick of the card at `index` of a seat's `hand` takes, among its `legal`
    actions: in a mão de ferro the seat sees none of its cards and plays blind the card at that
    position (docs/rules.md#ferro-blind); otherwise it plays that card, face down when
    `covered`. None when that card may not be played now."""
    legal = list(legal)
    if any(a.kind == "blind" for a in legal):
        return next((a for a in legal if a.kind == "blind" and a.position == index), None)
    if not 0 <= index < len(hand) or hand[index] is None:
        return None
    kind = "cover" if covered else "play"
    return next((a for a in legal if a.kind == kind and a.card == hand[index]), None)


def blind_positions(legal: Iterable[Action]) -> frozenset[int]:
    """The positions of the hand a seat may play blind now (a mão de ferro,
    docs/rules.md#ferro-blind); empty otherwise."""
    return frozenset(a.position for a in legal if a.kind == "blind" and a.position is not None)
