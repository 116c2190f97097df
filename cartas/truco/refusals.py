"""Why an action is refused: the IllegalActionError the state raises, code plus fields.

Called only on the slow path, once `apply_action` has found the action is not legal; the
state is never changed. The sentences are in `cartas.truco.catalogue`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action
from .errors import IllegalActionError
from .rules import CARD_INDEX, COVER_FROM_TRICK
from .variants import Variant

if TYPE_CHECKING:
    from .state import TrucoState


def coerce(action: object) -> Action:
    """An Action from an Action or its text; an IllegalActionError for anything else."""
    if isinstance(action, str):
        return Action.parse(action)
    if isinstance(action, Action):
        return action
    raise IllegalActionError("not_an_action", text=repr(action)[:40])


def _solo(state: TrucoState) -> dict[str, int]:
    """The field that makes a refusal name a team as its one player, mano a mano
    (docs/rules.md#mano-a-mano-players); none with four players."""
    return {"players": 2} if state.players == 2 else {}


def over_error(state: TrucoState) -> IllegalActionError:
    return IllegalActionError("game_over", team=state.winner, **_solo(state))


def turn_error(state: TrucoState, seat: object) -> IllegalActionError:
    if state.phase == "game_over":
        return over_error(state)
    return IllegalActionError("not_your_turn", current=state.current_seat, seat=repr(seat)[:40])


def why_illegal(state: TrucoState, action: Action) -> IllegalActionError:
    """The reason `action` is not legal for the current seat of `state`."""
    kind, seat, phase = action.kind, state.current_seat, state.phase
    err = IllegalActionError
    if phase == "game_over":
        return over_error(state)
    name = state.variant.threshold_name
    if phase == "decide":
        return err("must_decide", team=state.threshold_team, name=name, seat=seat, **_solo(state))
    if kind in ("play_hand", "run_hand"):
        return err("no_decision", name=name)
    if phase == "answer":
        return _why_not_an_answer(state, action)
    if kind in ("accept", "run"):  # phase == "play" from here on
        return err("nothing_to_answer", kind=kind)
    if kind == "raise":
        return _why_no_raise(state, action)
    return _why_not_a_play(state, action)


def _why_not_an_answer(state: TrucoState, action: Action) -> IllegalActionError:
    """A seat answering a raise tried something else."""
    value = state.pending_raise["value"]  # type: ignore[index]  # the answer phase has a pending raise
    if action.kind in ("play", "cover", "blind"):
        return IllegalActionError("must_answer", seat=state.current_seat, value=value,
                                  raise_name=state.variant.raise_name(value))
    if action.kind == "raise":
        return _bad_raise_value(state.variant, action.value, value)
    return _not_legal(action)


def _why_no_raise(state: TrucoState, action: Action) -> IllegalActionError:
    """A raise in the play phase the rules refuse."""
    team = state.current_seat & 1  # type: ignore[operator]  # the play phase has a current seat
    if state.mode == "mao_de_ferro":
        return IllegalActionError("ferro_no_raise")
    if team == state.last_raise_team:
        return IllegalActionError("raised_last", team=team, **_solo(state))
    return _bad_raise_value(state.variant, action.value, state.hand_value)


def _why_not_a_play(state: TrucoState, action: Action) -> IllegalActionError:
    """A card played (face up, covered or blind) that the rules refuse."""
    err, kind, seat = IllegalActionError, action.kind, state.current_seat
    hand = state.hand_of(seat)  # type: ignore[arg-type]  # the play phase has a current seat
    if state.mode == "mao_de_ferro":
        if kind != "blind":
            return err("ferro_blind")
        return err("no_position", seat=seat, n=len(hand), position=action.position)
    if kind == "blind":
        return err("blind_only_ferro")
    card = str(action.card)
    if action.card not in CARD_INDEX:
        return err("not_in_pack", card=card)
    if action.card not in hand:
        return err("not_in_hand", card=card, seat=seat)
    if kind == "cover" and state.trick_number < COVER_FROM_TRICK:
        return err("no_cover_first", trick=state.trick_number, **{"from": COVER_FROM_TRICK})
    return _not_legal(action)


def _not_legal(action: Action) -> IllegalActionError:
    return IllegalActionError("not_legal", **action.fields())


def _bad_raise_value(variant: Variant, asked: int | None, current: int) -> IllegalActionError:
    nxt = variant.next_value(current)
    if nxt is None:
        return IllegalActionError("above_top", value=current, top=variant.ladder[-1])
    return IllegalActionError("one_step", next=nxt, asked=asked,
                              raise_name=variant.raise_name(nxt))
