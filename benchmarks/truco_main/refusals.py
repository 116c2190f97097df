"""Why an action is refused: the IllegalActionError the state raises, code plus fields.

Called only on the slow path, once `apply_action` has found the action is not legal; the
state is never changed. The sentences are in `cartas.truco.catalogue`.
"""
from __future__ import annotations

from .actions import Action
from .errors import IllegalActionError
from .rules import CARD_INDEX, COVER_FROM_TRICK


def coerce(action) -> Action:
    """An Action from an Action or its text; an IllegalActionError for anything else."""
    if isinstance(action, str):
        return Action.parse(action)
    if isinstance(action, Action):
        return action
    raise IllegalActionError("not_an_action", text=repr(action)[:40])


def over_error(state) -> IllegalActionError:
    return IllegalActionError("game_over", team=state.winner)


def turn_error(state, seat) -> IllegalActionError:
    if state.phase == "game_over":
        return over_error(state)
    return IllegalActionError("not_your_turn", current=state.current_seat, seat=repr(seat)[:40])


def why_illegal(state, action: Action) -> IllegalActionError:
    """The reason `action` is not legal for the current seat of `state`."""
    kind, seat = action.kind, state.current_seat
    phase = state.phase
    err = IllegalActionError
    variant = state.variant
    if phase == "game_over":
        return over_error(state)
    team = seat & 1
    name = variant.threshold_name
    if phase == "decide":
        return err("must_decide", team=state.threshold_team, name=name, seat=seat)
    if kind in ("play_hand", "run_hand"):
        return err("no_decision", name=name)
    if phase == "answer":
        value = state.pending_raise["value"]
        if kind in ("play", "cover", "blind"):
            return err("must_answer", seat=seat, value=value, raise_name=variant.raise_name(value))
        if kind == "raise":
            return _bad_raise_value(variant, action.value, value)
        return _not_legal(action)
    # phase == "play"
    if kind in ("accept", "run"):
        return err("nothing_to_answer", kind=kind)
    if kind == "raise":
        if state.mode == "mao_de_ferro":
            return err("ferro_no_raise")
        if team == state.last_raise_team:
            return err("raised_last", team=team)
        return _bad_raise_value(variant, action.value, state.hand_value)
    hand = state.hand_of(seat)
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


def _bad_raise_value(variant, asked, current) -> IllegalActionError:
    nxt = variant.next_value(current)
    if nxt is None:
        return IllegalActionError("above_top", value=current, top=variant.ladder[-1])
    return IllegalActionError("one_step", next=nxt, asked=asked,
                              raise_name=variant.raise_name(nxt))
