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
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..cards import Card
from ..contract import Event
from .actions import Action

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
        return hide_events(self._log[:self._log_length], self.seat)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-friendly data (cards and legal actions as their str form)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name.startswith("_"):
                continue
            value = getattr(self, f.name)
            out[f.name] = _plain(value)
        out["legal"] = [str(a) for a in self.legal_actions()]
        return out


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    return value
