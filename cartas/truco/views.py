"""`SeatView`: what one seat (or a spectator) may see of a truco game, `state.view(seat)`.

It satisfies `cartas.contract.SeatView`. What is visible follows `events.sees_hand`: a seat
sees its own cards (none in a mão de ferro) and its partner's while its team decides a mão
de onze/dez; a spectator (seat None) sees no hand; face-down cards of others stay hidden.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..cards import TRUCO_PACK, Card
from ..contract import Event
from .actions import Action
from .events import PendingRaise, redact_event
from .narration import narrate
from .rules import partner_of, seat_partner, team_of
from .variants import Variant

if TYPE_CHECKING:
    from .state import TrucoState

_COPIED = ("variant", "vira", "manilhas", "dealer", "mao", "hand_number", "score", "phase",
           "current_seat", "mode", "is_mao_de_ferro", "is_threshold_hand", "raise_forbidden",
           "threshold_team", "hand_value", "pending_raise", "run_value", "last_raise_team",
           "trick_number", "trick_results", "current_trick", "tricks", "trick_leader",
           "winner", "tie_lead", "players")


class SeatView:
    """What one seat may see (`state.view(seat)`): the table, the score, its own cards.

    Attributes mirror the state's: seat, variant, vira, manilhas, dealer, mao,
    hand_number, score, phase, current_seat, mode, is_mao_de_ferro, is_threshold_hand,
    raise_forbidden, threshold_team, hand_value, pending_raise, run_value,
    last_raise_team, raise_options, trick_number, trick_results, current_trick, tricks,
    trick_leader, winner, tie_lead, players. Plus:

    - `team` and `partner`: this seat's team and partner (None for a spectator);
      `team_of(seat)` / `partner_of(seat)` for any seat;
    - `hands`: for each seat a tuple with one entry per card still held: the Card if this
      seat may see it, else None; `hand`: `hands[seat]` (() for a spectator);
    - `legal`: the legal actions if it is this seat's turn, else (); `legal_actions()`;
    - `events`: the events so far, with what this seat may not see replaced by None.
    """

    # the attributes copied from the state (`_COPIED`), with the state's types
    variant: Variant
    vira: Card | None
    manilhas: tuple[Card, ...]
    dealer: int
    mao: int
    hand_number: int
    score: tuple[int, int]
    phase: str
    current_seat: int | None
    mode: str
    is_mao_de_ferro: bool
    is_threshold_hand: bool
    raise_forbidden: bool
    threshold_team: int | None
    hand_value: int
    pending_raise: PendingRaise | None
    run_value: int | None
    last_raise_team: int | None
    trick_number: int
    trick_results: list[int | None]
    current_trick: list[tuple[int, Card | None]]
    tricks: list[list[tuple[int, Card | None]]]
    trick_leader: int
    winner: int | None
    tie_lead: str
    players: int

    def __init__(self, state: TrucoState, seat: int | None):
        self.seat = seat
        self.team = None if seat is None else team_of(seat)
        # mano a mano each player is a team of one: no partner (docs/rules.md#mano-a-mano-players)
        self.partner = None if seat is None else seat_partner(seat, state.players)
        for name in _COPIED:
            setattr(self, name, getattr(state, name))
        self.hands: tuple[tuple[Card | None, ...], ...] = tuple(
            tuple(TRUCO_PACK[c] if state.visible(seat, owner) else None for c in h)
            for owner, h in enumerate(state.hands_indexes()))
        self.hand: tuple[Card | None, ...] = () if seat is None else self.hands[seat]
        mine = seat is not None and state.current_seat == seat
        self.legal = tuple(state.legal_actions()) if mine else ()
        self.raise_options = state.raise_options if mine else ()
        self._events, self._n = state.events, len(state.events)

    team_of = staticmethod(team_of)
    partner_of = staticmethod(partner_of)

    def legal_actions(self) -> list[Action]:
        """The legal actions when it is this seat's turn, else []."""
        return list(self.legal)

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.current_seat == self.seat

    @property
    def events(self) -> list[Event]:
        """The events up to this view, as this seat saw them."""
        return [redact_event(e, self.seat) for e in self._events[:self._n]]

    def narrate(self, event: Event, lang: str = "pt", names: Mapping[int, str] | None = None) -> str:
        """One sentence for one event (see `cartas.truco.narrate`); `names`: {seat: name}."""
        return narrate(event, lang, names, self.players)
