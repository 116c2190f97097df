"""`TrucoSpot`: what one seat knows at one of its decisions, in plain facts; the position the
strong player (`cartas.truco.strong`) judges and the coach (`cartas.coach.truco`) explains.

`spot_from_view(view)` reads it from a seat's view of the game (`TrucoState.view(seat)`),
and from nothing else: a spot never holds a card its seat may not see. It imports no numpy,
so a page may build spots before the engine's numpy parts load.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import Card
from .variants import Variant

if TYPE_CHECKING:
    from .actions import Action


@dataclass(frozen=True)
class TrucoSpot:
    """What the coached seat knows when it is its turn.

    variant: "paulista"/"mineiro" (or a Variant); vira: the vira (Paulista) or None.
    seat: the coached seat (0..players - 1; teams are seat % 2); hand: its cards still held.
    players: the seats at the table (4, or 2 mano a mano).
    mao: the seat that led the first trick of this hand.
    table: the cards already played in this trick, in order, as (seat, card), card None when
        face down; results: each finished trick's winning team (0/1) or None for a tie.
    seen: every other face-up card out of play (the earlier tricks' cards).
    partner: the partner's cards when the seat may see them (mão de onze/dez), else None.
    hand_value: what the hand is worth now; score: (team 0, team 1).
    pending: the value the other team asks for when this seat must answer a raise, else None;
        raiser: the seat that asked it (None: the seat before the coached one).
    run_value: what the other team scores if this seat runs (default: hand_value).
    next_raise: the value a raise of this seat would ask, None when raising is not allowed.
    threshold: True in a mão de onze/dez (nobody may ask truco).
    deciding: True when the seat decides whether to play a mão de onze/dez.
    leader: the seat leading the trick in play (None: the coached seat plays next). The seat
        may be coached when another seat is to act: it answers a raise for its team after it
        has played its card, or its partner is the engine's answering seat.
    tie_lead: who leads after a tied trick ("leader" or "first_tying", `rules.TIE_LEADS`).
    """

    variant: Variant | str
    hand: Sequence[Card | str]
    seat: int = 0
    vira: Card | str | None = None
    mao: int = 0
    table: Sequence[tuple[int, Card | str | None]] = ()
    results: Sequence[int | None] = ()
    seen: Sequence[Card | str] = ()
    partner: Sequence[Card | str] | None = None
    hand_value: int = 1
    score: tuple[int, ...] = (0, 0)
    pending: int | None = None
    run_value: int | None = None
    next_raise: int | None = None
    threshold: bool = False
    deciding: bool = False
    leader: int | None = None
    players: int = 4
    raiser: int | None = None
    tie_lead: str = "leader"


def partner_seat(seat: int, players: int) -> int | None:
    """The seat across the table (None mano a mano, where nobody has a partner)."""
    return (seat + 2) % players if players > 2 else None


# view: Any, as the docstring says it is read duck-typed (a seat's `SeatView`, or anything with
# its attributes), for a seat, never a spectator
def spot_from_view(view: Any, legal: Sequence[Action] | None = None) -> TrucoSpot:
    """A TrucoSpot from a seat's view (`TrucoState.view(seat)`: seat, variant, vira, hand,
    hands, mao, current_trick, trick_leader, trick_results, tricks, hand_value, score,
    pending_raise, run_value, legal, mode, phase, players, tie_lead). Only reads; duck-typed.

    legal: the legal actions of the decision (default: the view's own). A seat that decides
    for its team while the engine's acting seat is its partner (see `widgets.pages.jogar_truco`)
    passes the acting seat's legal actions with its own view."""
    seat = view.seat
    players = int(getattr(view, "players", 4))
    legal = view.legal if legal is None else legal
    across = partner_seat(seat, players)
    partner = None if across is None else view.hands[across]
    partner = list(partner) if partner and all(c is not None for c in partner) else None
    seen = [card for trick in getattr(view, "tricks", ()) for _, card, *rest in _plays(trick)
            if card is not None and not (rest and rest[0])]
    raise_ = getattr(view, "pending_raise", None)
    pending = raise_["value"] if raise_ else None
    raiser = raise_.get("seat") if raise_ else None
    raise_values = [a.value for a in legal if a.kind == "raise"]
    next_raise = raise_values[0] if raise_values else None
    return TrucoSpot(
        variant=view.variant, vira=view.vira, seat=seat, hand=[c for c in view.hand if c],
        mao=view.mao, table=[(s, c) for s, c in view.current_trick],
        results=list(view.trick_results), seen=seen, partner=partner,
        hand_value=view.hand_value, score=tuple(view.score), pending=pending,
        run_value=getattr(view, "run_value", None), next_raise=next_raise,
        threshold=view.mode == "threshold", deciding=view.phase == "decide",
        leader=getattr(view, "trick_leader", None), players=players,
        raiser=None if raiser is None else int(raiser), tie_lead=getattr(view, "tie_lead", "leader"))


def _plays(trick: Any) -> Any:
    return trick["plays"] if isinstance(trick, dict) else trick
