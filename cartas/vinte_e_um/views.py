"""What one seat of a 21 table may see: `SeatView`, a small immutable snapshot.

`VinteEUmState.view(seat)` builds one; it satisfies `cartas.contract.SeatView` and carries
everything a bot or a widget needs, as plain values (cards as `Card` values, hidden
cards None; `to_dict()` writes them as text):

- `seat`: the viewer: a seat number, None (a spectator: face-up and shown cards only) or
  `ALL` ("all", the teacher: every card face up);
- the table: `players`, `phase`, `round_number`, `rounds`, `banker`, `current_seat`,
  `chips`, `bets`, `in_round`, `sitting_out`, `left_of_banker`, `called`, `uncalled`,
  `outcome`, `winner`, `winners`, and the rules: `ace`, `decks`, `min_bet`, `max_bet`,
  `rotation`, `rotation_rounds`, `bank_rounds`, `high_bid`, `high_bidder`, `pending_offer`;
- cards: `hands` (per seat, None for a face-down card this viewer may not see),
  `face_down` (per seat, whether its first card is still face down), `points` (the
  viewer's own total; None for a spectator or "all"), `seen` (every card the viewer can
  see), `stock` (cards left in the stock), `collected`, `shown`; for drawing the table,
  per seat `cards` (the cards lying in front of it as this viewer sees them: its hand, or
  the cards a settled player showed), `settled` (the latter) and `visible_points` (the
  total of the cards of `cards` this viewer sees, None when it sees none);
- `is_my_turn`, `legal_actions()` (the legal actions when it is this seat's turn, else
  []) and `events` (the log, with face-down deals this viewer did not see hidden).

Every sequence is a tuple, so a view never changes once taken.

A view travels as `view.to_dict()` (every field above in order, then `legal` and `events`:
plain JSON values, a card as its text, a hidden card None, an action as its text) and is
read back by `SeatView.from_dict(data)`, which refuses a missing, extra or ill-typed field
with a `VinteEUmError` naming it (`cartas.viewdata`).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .. import viewdata as vd
from ..cards import Card
from ..contract import Event
from .actions import Action
from .config import MAX_PLAYERS, MIN_PLAYERS, ROTATIONS
from .errors import VinteEUmError
from .narration import narrate
from .scoring import ACE_OPTIONS

ALL = "all"   # the viewer who sees every card (the teacher); None is a spectator


def hide_events(events: list[Event], viewer: int | str | None) -> list[Event]:
    """`events` with the face-down deals `viewer` did not see hidden (card None)."""
    if viewer == ALL:
        return list(events)
    return [dict(e, card=None) if e["type"] == "deal" and not e["face_up"]
            and e["seat"] != viewer else e for e in events]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view of a 21 table (see the module docstring for every field)."""

    seat: int | str | None
    players: int
    phase: str
    round_number: int
    rounds: int | None
    banker: int
    current_seat: int | None
    chips: tuple[int, ...]
    bets: tuple[int, ...]
    hands: tuple[tuple[Card | None, ...], ...]
    face_down: tuple[bool, ...]
    points: int | None
    in_round: tuple[int, ...]
    sitting_out: tuple[int, ...]
    left_of_banker: tuple[int, ...]
    called: tuple[int, ...]
    uncalled: tuple[int, ...]
    outcome: tuple[str | None, ...]
    seen: tuple[Card, ...]
    stock: int
    collected: tuple[Card, ...]
    shown: tuple[tuple[Card, ...], ...]
    cards: tuple[tuple[Card | None, ...], ...]
    settled: tuple[bool, ...]
    visible_points: tuple[int | None, ...]
    ace: int | str
    decks: int
    min_bet: int
    max_bet: int
    rotation: str
    rotation_rounds: int
    bank_rounds: int
    high_bid: int
    high_bidder: int | None
    pending_offer: tuple[int, int] | None
    winner: int | None
    winners: tuple[int, ...]
    legal: tuple[Action, ...] = ()
    _log: list[Event] = field(default_factory=list, repr=False, compare=False)
    _log_length: int = field(default=0, repr=False, compare=False)

    @property
    def is_my_turn(self) -> bool:
        return isinstance(self.seat, int) and self.seat == self.current_seat

    def legal_actions(self) -> list[Action]:
        """The legal actions (Action values) when it is this seat's turn, else []."""
        return list(self.legal) if self.is_my_turn else []

    @property
    def events(self) -> list[Event]:
        """Every event up to this view, with what this seat may not see replaced by None."""
        return self.events_from(0)

    def events_from(self, first: int) -> list[Event]:
        """`events[first:]` (`first` >= 0), only those hidden where this seat may not see: a
        page that holds the first events of the log is sent the rest without the whole log."""
        return hide_events(self._log[max(0, first):self._log_length], self.seat)

    def narrate(self, event: Event, lang: str = "pt", names: Mapping[int, str] | None = None) -> str:
        """One sentence for one event (see `cartas.vinte_e_um.narrate`); `names`: {seat: name}."""
        return narrate(event, lang, names)

    def describe(self, action: object, lang: str = "pt") -> str:
        """The action's name in `lang` ("apostar 3 fichas"); see `Action.describe`."""
        return Action.parse(action).describe(lang)

    def to_dict(self, events_from: int = 0) -> dict[str, Any]:
        """The view as plain JSON values, field by field (`FIELDS`; see the module docstring);
        its `events` from index `events_from` on (`events_from`)."""
        out: dict[str, Any] = {name: _plain(getattr(self, name)) for name in FIELDS[:-2]}
        out["legal"] = [str(a) for a in self.legal_actions()]
        out["events"] = self.events_from(events_from)
        return out

    @classmethod
    def from_dict(cls, data: object) -> SeatView:
        """The view `to_dict()` wrote; VinteEUmError "view_missing", "view_unknown" or
        "view_field" naming the first field that is not there, not the view's, or not of
        its type (or disagreeing with the others: a per-seat field of another length than
        the seats, a seat not at the table, legal moves off this seat's turn)."""
        read = vd.ViewData(data, FIELDS, VinteEUmError)
        values = {name: read.read(name, _READ[name]) for name in FIELDS}
        players = values["players"]
        for name in _PER_SEAT:
            if len(values[name]) != players:
                raise read.refuse(name)
        for name in _SEATS:
            seats = values[name]
            if any(s >= players for s in (seats if isinstance(seats, tuple) else (seats,)) if isinstance(s, int)):
                raise read.refuse(name)
        seat = values["seat"]
        if values["legal"] and (not isinstance(seat, int) or values["current_seat"] != seat):
            raise read.refuse("legal")
        events = list(values.pop("events"))
        return cls(**values, _log=events, _log_length=len(events))


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    return value


# what `to_dict` writes and `from_dict` reads, in order
FIELDS: tuple[str, ...] = (*(f.name for f in fields(SeatView) if not f.name.startswith("_")), "events")


def _viewer(value: object) -> int | str | None:
    if value is None or value == ALL:
        return None if value is None else ALL
    return _seat(value)


def _ace(value: object) -> int | str:
    if isinstance(value, bool) or value not in ACE_OPTIONS or not isinstance(value, (int, str)):
        raise vd.BadValue(value)
    return value


def _action(value: object) -> Action:
    if not isinstance(value, str):
        raise vd.BadValue(value)
    try:
        return Action.parse(value)
    except VinteEUmError:
        raise vd.BadValue(value) from None


_seat = vd.whole_in(0, MAX_PLAYERS - 1)
_seats = vd.items(_seat)
_hands = vd.items(vd.items(vd.optional(vd.card)))
# each field's check, as `from_dict` reads it (the dataclass's own types: tuples, Cards, Actions)
_READ: dict[str, vd.Check[Any]] = {
    "seat": _viewer, "players": vd.whole_in(MIN_PLAYERS, MAX_PLAYERS), "phase": vd.text,
    "round_number": vd.whole, "rounds": vd.optional(vd.whole), "banker": _seat,
    "current_seat": vd.optional(_seat), "chips": vd.items(vd.whole), "bets": vd.items(vd.whole),
    "hands": _hands, "face_down": vd.items(vd.flag), "points": vd.optional(vd.whole),
    "in_round": _seats, "sitting_out": _seats, "left_of_banker": _seats, "called": _seats, "uncalled": _seats,
    "outcome": vd.items(vd.optional(vd.one_of("won", "lost", "bust"))), "seen": vd.items(vd.card),
    "stock": vd.whole, "collected": vd.items(vd.card), "shown": vd.items(vd.items(vd.card)), "cards": _hands,
    "settled": vd.items(vd.flag), "visible_points": vd.items(vd.optional(vd.whole)), "ace": _ace,
    "decks": vd.whole, "min_bet": vd.whole, "max_bet": vd.whole, "rotation": vd.one_of(*ROTATIONS),
    "rotation_rounds": vd.whole, "bank_rounds": vd.whole, "high_bid": vd.whole,
    "high_bidder": vd.optional(_seat), "pending_offer": vd.optional(vd.pair(vd.whole, vd.whole)),
    "winner": vd.optional(_seat), "winners": _seats, "legal": vd.items(_action), "events": vd.items(vd.event),
}
# the fields holding one entry per seat, and those naming seats (which must be at the table)
_PER_SEAT = ("chips", "bets", "hands", "face_down", "outcome", "shown", "cards", "settled", "visible_points")
_SEATS = ("seat", "banker", "current_seat", "in_round", "sitting_out", "left_of_banker", "called", "uncalled",
          "high_bidder", "winner", "winners")
