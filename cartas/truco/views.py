"""`SeatView`: what one seat (or a spectator) may see of a truco game, `state.view(seat)`.

It satisfies `cartas.contract.SeatView`. What is visible follows `events.sees_hand`: a seat
sees its own cards (none in a mão de ferro) and its partner's while its team decides a mão
de onze/dez; a spectator (seat None) sees no hand; face-down cards of others stay hidden.

A view travels as `view.to_dict()` (`FIELDS`, in order: plain JSON values, a card as its
text, a hidden card None, the variant as its key, the legal actions as their text, the log
as this seat saw it) and is read back by `SeatView.from_dict(data)`, which refuses a
missing, extra or ill-typed field with a `TrucoError` naming it (`cartas.viewdata`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import viewdata as vd
from ..cards import TRUCO_PACK, Card
from ..contract import Event
from .actions import Action
from .errors import TrucoError
from .events import PendingRaise, redact_event
from .narration import narrate
from .refusals import coerce
from .rules import PLAYER_COUNTS, SEATS, TIE_LEADS, partner_of, seat_partner, team_of
from .variants import VARIANTS, Variant, get_variant

if TYPE_CHECKING:
    from .state import TrucoState

_COPIED = ("variant", "vira", "manilhas", "dealer", "mao", "hand_number", "score", "phase",
           "current_seat", "mode", "is_mao_de_ferro", "is_threshold_hand", "raise_forbidden",
           "threshold_team", "hand_value", "pending_raise", "run_value", "last_raise_team",
           "trick_number", "trick_results", "current_trick", "tricks", "trick_leader",
           "winner", "tie_lead", "players")
# what `to_dict` writes and `from_dict` reads, in order (`team`, `partner` and `hand` follow from them)
FIELDS = ("seat", *_COPIED, "hands", "legal", "raise_options", "events")

_seat = vd.whole_in(0, len(SEATS) - 1)
_team = vd.whole_in(0, 1)
_played = vd.items(vd.pair(_seat, vd.optional(vd.card)))
_RAISE_KEYS = ("value", "name", "team", "seat", "answer_seat")


def _pending(value: object) -> PendingRaise:
    if not isinstance(value, dict) or set(value) != set(_RAISE_KEYS):
        raise vd.BadValue(value)
    return {"value": vd.whole(value["value"]), "name": vd.text(value["name"]), "team": _team(value["team"]),
            "seat": _seat(value["seat"]), "answer_seat": _seat(value["answer_seat"])}


def _action(value: object) -> Action:
    if not isinstance(value, str):
        raise vd.BadValue(value)
    try:
        return Action.parse(value)
    except TrucoError:
        raise vd.BadValue(value) from None


# each field's check, as `from_dict` reads it (the attribute's own type)
_READ: dict[str, vd.Check[Any]] = {
    "seat": vd.optional(_seat), "variant": vd.one_of(*VARIANTS), "vira": vd.optional(vd.card),
    "manilhas": vd.items(vd.card), "dealer": _seat, "mao": _seat, "hand_number": vd.whole,
    "score": vd.pair(vd.whole, vd.whole), "phase": vd.text, "current_seat": vd.optional(_seat),
    "mode": vd.text, "is_mao_de_ferro": vd.flag, "is_threshold_hand": vd.flag, "raise_forbidden": vd.flag,
    "threshold_team": vd.optional(_team), "hand_value": vd.whole, "pending_raise": vd.optional(_pending),
    "run_value": vd.optional(vd.whole), "last_raise_team": vd.optional(_team), "trick_number": vd.whole,
    "trick_results": vd.items(vd.optional(_team)), "current_trick": _played, "tricks": vd.items(_played),
    "trick_leader": _seat, "winner": vd.optional(_team), "tie_lead": vd.one_of(*TIE_LEADS),
    "players": vd.whole_in(min(PLAYER_COUNTS), max(PLAYER_COUNTS)),
    "hands": vd.items(vd.items(vd.optional(vd.card))),
    "legal": vd.items(_action), "raise_options": vd.items(vd.whole), "events": vd.items(vd.event),
}
_LISTS = ("trick_results", "current_trick")  # list attributes of the state (a tuple elsewhere)


def _plain(value: object) -> object:
    """A view's value as JSON: a card as its text, a tuple as a list."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


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
        players = state.players
        self.team = None if seat is None else team_of(seat)
        # mano a mano each player is a team of one: no partner (docs/rules.md#mano-a-mano-players)
        self.partner = None if seat is None else seat_partner(seat, players)
        # the state's values (`_COPIED`), each read once: its properties build fresh lists
        self.variant, self.vira, self.manilhas = state.variant, state.vira, state.manilhas
        self.dealer, self.mao, self.hand_number = state.dealer, state.mao, state.hand_number
        self.score, self.phase, self.current_seat = state.score, state.phase, state.current_seat
        self.mode, self.is_mao_de_ferro = state.mode, state.is_mao_de_ferro
        self.is_threshold_hand, self.raise_forbidden = state.is_threshold_hand, state.raise_forbidden
        self.threshold_team, self.hand_value = state.threshold_team, state.hand_value
        self.pending_raise, self.run_value = state.pending_raise, state.run_value
        self.last_raise_team, self.trick_number = state.last_raise_team, state.trick_number
        self.trick_results, self.current_trick = state.trick_results, state.current_trick
        self.tricks, self.trick_leader = state.tricks, state.trick_leader
        self.winner, self.tie_lead, self.players = state.winner, state.tie_lead, players
        # a hand is seen whole or not at all (`events.sees_hand`)
        self.hands: tuple[tuple[Card | None, ...], ...] = tuple(
            tuple([TRUCO_PACK[c] for c in h]) if state.visible(seat, owner) else (None,) * len(h)
            for owner, h in enumerate(state.hands_indexes()))
        self.hand: tuple[Card | None, ...] = () if seat is None else self.hands[seat]
        mine = seat is not None and self.current_seat == seat
        self.legal = tuple(state.legal_actions()) if mine else ()
        self.raise_options = state.raise_options if mine else ()
        # the events are built when read (`events`): the state's log only grows, and a record
        # never changes once logged, so its first `_n` events are this view's for ever
        self._source: TrucoState | None = state
        self._events: list[Event] = []
        self._n = state.logged

    team_of = staticmethod(team_of)
    partner_of = staticmethod(partner_of)

    def to_dict(self, events_from: int = 0) -> dict[str, Any]:
        """The view as plain JSON values, field by field (`FIELDS`; see the module docstring);
        its `events` from index `events_from` on (`events_from`)."""
        out: dict[str, Any] = {}
        for name in FIELDS:
            if name == "variant":
                out[name] = self.variant.key
            elif name == "legal":
                out[name] = [str(a) for a in self.legal]
            elif name == "events":
                out[name] = self.events_from(events_from)
            else:
                out[name] = _plain(getattr(self, name))
        return out

    @classmethod
    def from_dict(cls, data: object) -> SeatView:
        """The view `to_dict()` wrote; TrucoError "view_missing", "view_unknown" or
        "view_field" naming the first field that is not there, not the view's, or not of
        its type (or disagreeing with the others: legal moves off this seat's turn, a seat's
        hand it may not hold)."""
        read = vd.ViewData(data, FIELDS, TrucoError)
        values = {name: read.read(name, _READ[name]) for name in FIELDS}
        seat, players = values["seat"], values["players"]
        if players not in PLAYER_COUNTS:
            raise read.refuse("players")
        if len(values["hands"]) != players:  # a hand per seat at the table
            raise read.refuse("hands")
        for name in ("seat", "dealer", "mao", "current_seat", "trick_leader"):
            if values[name] is not None and values[name] >= players:  # a seat at this table
                raise read.refuse(name)
        if values["legal"] and (seat is None or values["current_seat"] != seat):
            raise read.refuse("legal")
        view = cls.__new__(cls)
        view.seat = seat
        view.team = None if seat is None else team_of(seat)
        view.partner = None if seat is None else seat_partner(seat, players)
        for name in _COPIED:
            value = values[name]
            if name in _LISTS:
                value = list(value)
            elif name == "tricks":
                value = [list(t) for t in value]
            setattr(view, name, value)
        view.variant = get_variant(values["variant"])
        view.hands = values["hands"]
        view.hand = () if seat is None else view.hands[seat]
        view.legal = values["legal"]
        view.raise_options = values["raise_options"]
        view._source = None
        view._events = list(values["events"])
        view._n = len(view._events)
        return view

    def legal_actions(self) -> list[Action]:
        """The legal actions when it is this seat's turn, else []."""
        return list(self.legal)

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.current_seat == self.seat

    @property
    def events(self) -> list[Event]:
        """The events up to this view, as this seat saw them."""
        return self.events_from(0)

    def events_from(self, first: int) -> list[Event]:
        """`events[first:]` (`first` >= 0), only those redacted: a page that holds the first
        events of the log is sent the rest without the whole log being redacted again."""
        events = self._events if self._source is None else self._source.events
        return [redact_event(e, self.seat) for e in events[max(0, first):self._n]]

    def narrate(self, event: Event, lang: str = "pt", names: Mapping[int, str] | None = None) -> str:
        """One sentence for one event (see `cartas.truco.narrate`); `names`: {seat: name}."""
        return narrate(event, lang, names, self.players)

    def describe(self, action: object, lang: str = "pt") -> str:
        """The action's name in `lang`, a raise named by this game's variant (as the state's)."""
        return coerce(action).describe(lang, self.variant)
