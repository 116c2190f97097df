"""The truco game state: deal, bet, play tricks, score hands, until a team has 12.

Start a game with `new_game(variant, seed)` or from a chosen deal with `from_deal(...)`;
drive it with `state.legal_actions()` and `state.apply_action(action)`. Hands are dealt
automatically until the game ends. Everything that happened is in `state.events`.

Inside, cards are indexes into `TRUCO_PACK`, and everything the hot path looks up (card
strengths and manilha names for every vira, raise steps, the answer phase's actions) is
precomputed once per variant in `_Tables`, and the outcome of every sequence of trick
results in `_HAND_STATUS`, so `legal_actions` and `apply_action` never hash a Card, call an
lru_cache or copy the state. Legal actions are shared objects, so `apply_action` finds the
chosen one by identity, and events are kept as small tuples until `state.events` is read.
"""
from __future__ import annotations

import itertools
import json
from functools import lru_cache

import numpy as np

from ..cards import TRUCO_PACK, Card, make_rng, parse_cards
from .actions import (
    ACCEPT,
    BLIND_ACTIONS,
    COVER_ACTIONS,
    PLAY_ACTIONS,
    PLAY_HAND,
    RUN,
    RUN_HAND,
    Action,
    IllegalActionError,
)
from .errors import TrucoError
from .rules import (CARD_INDEX, CARD_TEXT, COVERED, VIRA_CARD, deal_order, hand_status,
                    resolve_trick, strength_list)
from .variants import Variant, get_variant, manilhas

TIE_LEADS = ("leader", "first_tying")
_BLIND_LEGAL = tuple(BLIND_ACTIONS[:n] for n in range(4))
_DECIDE_LEGAL = (PLAY_HAND, RUN_HAND)
_PACK_ORDER = list(range(len(TRUCO_PACK)))  # copied, then shuffled, for each deal


def _deal_starts(dealer: int) -> tuple[int, ...]:
    """Per seat, the pack position of its first card in `deal_order(dealer)`; each seat's
    three cards are consecutive there, so the hot path deals them as slices."""
    where = {(seat, k): n for n, (seat, k) in enumerate(deal_order(dealer))}
    starts = tuple(where[seat, 0] for seat in range(4))
    assert all(where[seat, k] == starts[seat] + k for seat in range(4) for k in (1, 2))
    return starts


_DEAL_STARTS = tuple(_deal_starts(dealer) for dealer in range(4))
# (finished, winning team or None) for every sequence of trick results (see `hand_status`)
_HAND_STATUS = {results: hand_status(results) for n in (1, 2, 3)
                for results in itertools.product((0, 1, None), repeat=n)}
PHASES = ("decide", "play", "answer", "game_over")
MODES = ("normal", "threshold", "mao_de_ferro")
JSON_FORMAT = "cartas.truco/1"


_RAISES: dict[int, Action] = {}


def _raise_action(value: int) -> Action:
    """One shared raise action per value."""
    action = _RAISES.get(value)
    if action is None:
        action = _RAISES[value] = Action("raise", value=value)
    return action


class _Tables:
    """What the hot path looks up for one variant, computed once (see `_tables`)."""

    def __init__(self, variant: Variant):
        self.variant = variant
        values = set(variant.values) | {variant.threshold_value}
        steps = {v: n for v in values if (n := variant.next_value(v)) is not None}
        # hand value (or pending raise) -> the shared action raising it one step
        self.next_raise: dict[int, Action] = {v: _raise_action(n) for v, n in steps.items()}
        self.raise_name: dict[int, str] = {v: variant.raise_name(v) for v in variant.ladder}
        # pending raise value -> the answers: accept, run, and re-raise if there is a step left
        self.answers: dict[int, tuple[Action, ...]] = {
            v: (ACCEPT, RUN) + ((self.next_raise[v],) if v in steps else ()) for v in values}
        # vira (a pack index, None in Mineiro) -> what the hand needs from it, see `_for_vira`
        viras = range(len(TRUCO_PACK)) if variant.uses_vira else (None,)
        self.by_vira: dict[int | None, tuple] = {vira: self._for_vira(vira) for vira in viras}

    def _for_vira(self, vira: int | None) -> tuple[tuple[int, ...], tuple, tuple[str, ...]]:
        """(strength of each pack index, manilha nickname or None per pack index,
        manilha texts weakest first) for a hand with this vira."""
        v = self.variant
        cards = manilhas(v, None if vira is None else TRUCO_PACK[vira])
        names = dict(zip(cards, v.manilha_names))
        return (strength_list(v, vira), tuple(names.get(c) for c in TRUCO_PACK),
                tuple(str(c) for c in cards))


@lru_cache(maxsize=None)
def _tables(variant: Variant) -> _Tables:
    return _Tables(variant)


def _card_index(card, what: str, seat: int | None = None) -> int:
    """The pack index of a card given in `what` (`seat`'s hand, or the vira if seat is None)."""
    place = "vira" if seat is None else "hand"
    try:
        card = Card.parse(card)
    except ValueError as err:
        raise TrucoError(str(err), "unreadable_card", text=str(card), seat=seat,
                         place=place) from None
    if card not in CARD_INDEX:
        raise TrucoError(f"{card} in {what} is not in the truco pack (no 8s, 9s or 10s)",
                         "card_not_in_pack", card=str(card), seat=seat, place=place)
    return CARD_INDEX[card]


def _check_tie_lead(tie_lead: str) -> str:
    if tie_lead not in TIE_LEADS:
        raise TrucoError(f"tie_lead must be 'leader' or 'first_tying', not {tie_lead!r}",
                         "bad_tie_lead", value=repr(tie_lead))
    return tie_lead


# -- events -------------------------------------------------------------------------------
# The hot path records each event as a tuple (builder, values...); `TrucoState.events` turns
# the records into the documented dicts when it is read, so random play builds no dicts and
# readers still get one plain list of JSON-friendly dicts. A record's values never change
# after it is made: the dealt order, a finished trick and a hand's results are fresh lists
# that the engine no longer mutates, and scores are copied.

def _deal_event(hand_number, dealer, mao, order, vira, manilha_texts, score, mode,
                threshold_team, value) -> dict:
    text = CARD_TEXT
    return {
        "type": "deal", "hand_number": hand_number, "dealer": dealer, "mao": mao,
        "hands": [[text[c] for c in order[i:i + 3]] for i in _DEAL_STARTS[dealer]],
        "vira": None if vira is None else text[vira],
        "manilhas": list(manilha_texts), "score": list(score), "mode": mode,
        "threshold_team": threshold_team, "value": value,
    }


def _play_event(seat, card, covered, blind, pos, manilha_names, trick) -> dict:
    return {
        "type": "play", "seat": seat, "card": CARD_TEXT[card], "covered": covered,
        "blind": blind, "position": pos if blind else None,
        "manilha": None if covered else manilha_names[card], "trick": trick,
    }


def _trick_event(number, team, seat, card, manilha_names, trick, leader) -> dict:
    text = CARD_TEXT
    return {
        "type": "trick", "number": number, "winner_team": team,
        "winning_seat": seat, "card": None if card is None else text[card],
        "manilha": None if card is None else manilha_names[card],
        "plays": [[s, None if cov else text[c]] for s, c, cov in trick],
        "next_leader": leader,
    }


def _raise_event(seat, value, name, reraise, forbidden) -> dict:
    return {"type": "raise", "seat": seat, "team": seat & 1, "value": value, "name": name,
            "reraise": reraise, "forbidden": forbidden}


def _accept_event(seat, value) -> dict:
    return {"type": "accept", "seat": seat, "team": seat & 1, "value": value}


def _run_event(seat, points) -> dict:
    return {"type": "run", "seat": seat, "team": seat & 1, "points": points}


def _decide_event(seat, team, play) -> dict:
    return {"type": "decide", "seat": seat, "team": team, "play": play}


def _hand_event(hand_number, winner, points, reason, results, score) -> dict:
    return {"type": "hand", "hand_number": hand_number, "winner_team": winner,
            "points": points, "reason": reason, "results": list(results),
            "score": list(score)}


def _game_event(winner, score) -> dict:
    return {"type": "game", "winner_team": winner, "score": list(score)}


def _last_hand_dict(variant, deal, tricks, trick, results, winner, points, reason, value,
                    score, seat, refused) -> dict:
    """`TrucoState.last_hand` from the record `_end_hand` keeps."""
    if deal.__class__ is tuple:
        deal = deal[0](*deal[1:])
    text = CARD_TEXT
    strength = strength_list(variant, None if deal["vira"] is None else _IDX[deal["vira"]])
    unfinished = trick if trick and not (tricks and trick is tricks[-1]) else []
    return {
        "hand_number": deal["hand_number"], "dealer": deal["dealer"], "mao": deal["mao"],
        "mode": deal["mode"], "threshold_team": deal["threshold_team"], "vira": deal["vira"],
        "manilhas": list(deal["manilhas"]), "score_before": list(deal["score"]),
        "hands": [list(h) for h in deal["hands"]],
        "tricks": [[[s, None if cov else text[c]] for s, c, cov in t] for t in tricks],
        "trick_results": list(results),
        "winning_seats": [resolve_trick([(s, COVERED if cov else strength[c])
                                         for s, c, cov in t])[1] for t in tricks],
        "unfinished_trick": [[s, None if cov else text[c]] for s, c, cov in unfinished],
        "value": value, "winner_team": winner, "points": points, "reason": reason,
        "score": list(score), "seat": seat, "refused_value": refused,
    }


class TrucoState:
    """A truco game in progress. Build it with `new_game`, `from_deal` or `from_json`.

    Reading the state (all read-only; lists returned are copies):

    - `variant`: PAULISTA or MINEIRO; `tie_lead`: "leader" or "first_tying".
    - `score`: (team 0, team 1); team 0 = seats 0 and 2, team 1 = seats 1 and 3.
    - `winner`: team that won the game, None until the end.
    - `phase`: "decide" (the team at 11/10 chooses to play or run the mão de onze/dez),
      "play" (the current seat plays a card or raises), "answer" (the current seat answers a
      raise), "game_over".
    - `current_seat`: the seat to act (None when the game is over).
    - `hand_number` (1 for the first hand), `dealer`, `mao` (the seat after the dealer, who
      leads the first trick), `vira` (Card or None), `manilhas` (weakest first).
    - `mode`: "normal", "threshold" (mão de onze / mão de dez) or "mao_de_ferro";
      `is_mao_de_ferro`, `is_threshold_hand`, `threshold_team`.
    - `hands`: the cards each seat still holds, in dealt order (mão de ferro positions).
    - `hand_value`: what the hand is worth now (accepted value).
    - `pending_raise`: None, or {"value", "name", "team", "seat", "answer_seat"}.
    - `run_value`: what running would give the other team now, or None if nobody may run.
    - `last_raise_team`: the team that raised last this hand (it may not raise again until
      the other team raises); `raise_options`: values the current seat may raise to
      (at most one); `raise_forbidden`: True in a mão de onze/dez, where a raise loses.
    - `trick_number` (1..3), `trick_results` (0, 1 or None per finished trick),
      `current_trick` [(seat, Card or None if covered)], `tricks` (finished tricks of this
      hand, same shape), `trick_leader`.
    - `events`: list of plain dicts (see `cartas.truco.narrate`).
    - `last_hand`: the last finished hand as a dict (None before the first ends).
    """

    # -- construction ---------------------------------------------------------------------
    # Every attribute is a slot: compact, quick to read on the hot path, and listed here for
    # `clone`, which copies them by name.
    __slots__ = (
        "variant", "tie_lead", "winner", "hand_number", "dealer", "threshold_team", "mode",
        "hand_value", "phase", "_tables", "_rng", "_score", "_events", "_log", "_legal",
        "_deal", "_last_hand", "_hands", "_vira", "_strength", "_mnames", "_leader", "_turn",
        "_play_turn", "_trick", "_tricks", "_results", "_pending", "_last_raise_team",
    )

    def __init__(self, variant, rng: np.random.Generator, tie_lead: str = "leader",
                 score=(0, 0)):
        self.variant: Variant = get_variant(variant)
        self._tables = _tables(self.variant)
        self.tie_lead = _check_tie_lead(tie_lead)
        self._rng = rng
        self._score = [int(score[0]), int(score[1])]
        self.winner: int | None = None
        self._events: list[dict] = []   # events already built as dicts
        self._log: list[tuple] = []     # newer events, still records (see `events`)
        self.hand_number = 0
        self.dealer = 0
        self._legal = None  # cached legal actions (see `_legal_list`), None when stale
        self._deal = None       # this hand's deal record (or event dict), for `last_hand`
        self._last_hand = None  # the last finished hand: a record until read (see `last_hand`)

    def _deal_random(self, dealer: int) -> None:
        """Shuffle the 40 cards, deal them as `deal_order` says, turn the vira."""
        order = _PACK_ORDER[:]
        self._rng.shuffle(order)  # the same draws and order as rng.permutation(40)
        self._start_hand(dealer, order, order[VIRA_CARD] if self.variant.uses_vira else None)

    def _start_hand(self, dealer: int, order: list[int], vira: int | None) -> None:
        """Start a hand whose first 12 cards in `order` go to the seats as `deal_order`
        says (the list is kept, unchanged, for the deal event)."""
        v = self.variant
        self.hand_number += 1
        self.dealer = dealer
        mao = (dealer + 1) & 3
        a, b, c, d = _DEAL_STARTS[dealer]  # where each seat's three cards start
        self._hands = [order[a:a + 3], order[b:b + 3], order[c:c + 3], order[d:d + 3]]
        self._vira = vira
        self._strength, self._mnames, manilha_texts = self._tables.by_vira[vira]
        self._leader = self._turn = mao
        self._play_turn = None
        self._trick: list[tuple[int, int, bool]] = []   # (seat, card, covered)
        self._tricks: list[list[tuple[int, int | None, bool]]] = []  # finished `_trick`s
        self._results: list[int | None] = []
        self._pending = None            # (value, team, seat) of the raise awaiting an answer
        self._last_raise_team = None
        score = self._score
        at0, at1 = score[0] >= v.threshold, score[1] >= v.threshold
        self.threshold_team = None
        if at0 and at1:
            self.mode, self.hand_value, self.phase = "mao_de_ferro", v.base_value, "play"
        elif at0 or at1:
            self.threshold_team = 0 if at0 else 1
            self.mode, self.hand_value, self.phase = "threshold", v.threshold_value, "decide"
            # The team's first seat in play order decides for it (seeing both hands).
            self._turn = mao if (mao & 1) == self.threshold_team else (mao + 1) & 3
        else:
            self.mode, self.hand_value, self.phase = "normal", v.base_value, "play"
        self._legal = None
        self._deal = deal = (_deal_event, self.hand_number, dealer, mao, order, vira,
                             manilha_texts, (score[0], score[1]), self.mode,
                             self.threshold_team, self.hand_value)
        self._log.append(deal)

    # -- events ---------------------------------------------------------------------------
    @property
    def events(self) -> list[dict]:
        """Everything that happened, as plain dicts (see `cartas.truco.narrate`).

        Always the same list object; read `state.events` again after acting to see the
        new events (they are built from compact records when it is read)."""
        log = self._log
        if log:
            self._events += [record[0](*record[1:]) for record in log]
            log.clear()
        return self._events

    @events.setter
    def events(self, events: list[dict]) -> None:
        self._events = events
        self._log = []

    @property
    def last_hand(self) -> dict | None:
        """The last finished hand (None until a hand ends), as a JSON-friendly dict:

        hand_number, dealer, mao, mode, threshold_team, vira (text or None), manilhas,
        score_before, hands (the 3 cards each seat was dealt, in seat order), tricks (each
        finished trick as [seat, card or None if face down] pairs in play order),
        trick_results, winning_seats (None for a tie), unfinished_trick (cards played in a
        trick the hand ended before finishing), value (accepted value at the end),
        winner_team, points, reason ("tricks", "all_tied", "run", "ran_hand",
        "forbidden_raise"), score (after the hand), seat (who ran, or raised when it was
        forbidden; None otherwise), refused_value (the raise run from, or the forbidden one).

        The engine deals the next hand at once; this keeps the finished one. A fresh copy."""
        found = self._last_hand
        if found.__class__ is tuple:
            found = self._last_hand = _last_hand_dict(*found)
        return None if found is None else json.loads(json.dumps(found))

    # -- reading ----------------------------------------------------------------------------
    @property
    def score(self) -> tuple[int, int]:
        return (self._score[0], self._score[1])

    @property
    def current_seat(self) -> int | None:
        return None if self.phase == "game_over" else self._turn

    @property
    def mao(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def vira(self) -> Card | None:
        return None if self._vira is None else TRUCO_PACK[self._vira]

    @property
    def manilhas(self) -> tuple[Card, ...]:
        return manilhas(self.variant, self.vira)

    @property
    def is_mao_de_ferro(self) -> bool:
        return self.mode == "mao_de_ferro"

    @property
    def is_threshold_hand(self) -> bool:
        """True in a mão de onze (Paulista) / mão de dez (Mineiro)."""
        return self.mode == "threshold"

    @property
    def raise_forbidden(self) -> bool:
        """True when a raise would lose the game (mão de onze / mão de dez)."""
        return self.mode == "threshold"

    @property
    def hands(self) -> list[list[Card]]:
        return [[TRUCO_PACK[c] for c in h] for h in self._hands]

    def hand_of(self, seat: int) -> list[Card]:
        return [TRUCO_PACK[c] for c in self._hands[seat]]

    @property
    def pending_raise(self) -> dict | None:
        if self._pending is None:
            return None
        value, team, seat = self._pending
        return {"value": value, "name": self.variant.raise_name(value), "team": team,
                "seat": seat, "answer_seat": self._turn}

    @property
    def run_value(self) -> int | None:
        if self.phase == "answer":
            return self.hand_value
        if self.phase == "decide":
            return self.variant.threshold_run_value
        return None

    @property
    def last_raise_team(self) -> int | None:
        return self._last_raise_team

    @property
    def raise_options(self) -> tuple[int, ...]:
        return tuple(a.value for a in self._legal_list() if a.kind == "raise")

    def may_raise(self, team: int) -> bool:
        """Whether `team` could raise when it next acts in this hand (ignoring whose turn)."""
        if self.phase == "game_over" or self.mode != "normal" or team == self._last_raise_team:
            return False
        top = self._pending[0] if self._pending else self.hand_value
        return self.variant.next_value(top) is not None

    @property
    def trick_number(self) -> int:
        return len(self._results) + 1

    @property
    def trick_results(self) -> list[int | None]:
        return list(self._results)

    @property
    def trick_leader(self) -> int:
        return self._leader

    @property
    def current_trick(self) -> list[tuple[int, Card | None]]:
        return [(s, None if cov else TRUCO_PACK[c]) for s, c, cov in self._trick]

    @property
    def tricks(self) -> list[list[tuple[int, Card | None]]]:
        return [[(s, None if cov else TRUCO_PACK[c]) for s, c, cov in t] for t in self._tricks]

    def is_terminal(self) -> bool:
        return self.phase == "game_over"

    def __repr__(self) -> str:
        return (f"<TrucoState {self.variant.key} hand {self.hand_number} score "
                f"{self._score[0]}x{self._score[1]} phase {self.phase} seat {self.current_seat}>")

    # -- legal actions ----------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The actions the current seat may take now (empty when the game is over)."""
        legal = self._legal
        if legal is None:  # not computed yet in this position
            phase = self.phase
            if phase == "play":
                turn = self._turn
                hand = self._hands[turn]
                mode = self.mode
                if mode == "mao_de_ferro":  # blind plays only, no raises
                    legal = _BLIND_LEGAL[len(hand)]
                else:
                    legal = [PLAY_ACTIONS[c] for c in hand]
                    if self._results:  # carta coberta only from the second trick on
                        legal += [COVER_ACTIONS[c] for c in hand]
                    if (turn & 1) != self._last_raise_team or mode == "threshold":
                        raise_action = self._tables.next_raise.get(self.hand_value)
                        if raise_action is not None:
                            legal.append(raise_action)
            elif phase == "answer":
                legal = self._tables.answers[self._pending[0]]
            elif phase == "decide":
                legal = _DECIDE_LEGAL
            else:
                legal = ()
            self._legal = legal
        return list(legal)

    def _legal_list(self) -> list[Action] | tuple[Action, ...]:
        """The legal actions as cached by `legal_actions` (shared: never mutate it). In the
        play phase they come in hand order, so `apply_action` reads a card's position from
        the action's index: the plays (or the blind plays) first, then the covers, then the
        raise if there is one."""
        if self._legal is None:
            self.legal_actions()
        return self._legal

    # -- acting -----------------------------------------------------------------------------
    def apply_action(self, action: Action | str, seat: int | None = None) -> None:
        """Apply a legal action (an Action or its str() form) for the current seat.

        Pass `seat` to check that it is that seat's turn. An illegal action raises
        IllegalActionError (a ValueError) saying why, and leaves the state unchanged.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal_list()
        # Fast path: one of the shared legal action objects, found by identity.
        k = 0
        for candidate in legal:
            if candidate is action:
                break
            k += 1
        else:
            k = -1
        if k < 0 or seat is not None:
            action, k = self._check(action, seat, legal)
        self._legal = None
        kind = action.kind
        if kind == "play":
            self._play(k, False, False)
        elif kind == "raise":
            self._raise(action.value)
        elif kind == "run":
            self._run()
        elif kind == "accept":
            self._accept()
        elif kind == "cover":  # after the seat's plays
            self._play(k - len(self._hands[self._turn]), True, False)
        elif kind == "blind":
            self._play(k, False, True)
        else:
            self._decide(kind == "play_hand")

    def _check(self, action, seat: int | None, legal) -> tuple[Action, int]:
        """The slow path of `apply_action`: read text, check the seat, resolve RAISE and
        equal copies of legal actions; returns (the legal action, its index) or raises."""
        if action.__class__ is not Action:
            action = self._coerce(action)
        if seat is not None and seat != self.current_seat:
            raise self._turn_error(seat)
        if action.kind == "raise" and action.value is None:  # RAISE = the next step
            action = next((a for a in legal if a.kind == "raise"), action)
        for k, candidate in enumerate(legal):  # identity first: legal actions are shared
            if candidate is action:
                return action, k
        try:
            return action, legal.index(action)
        except ValueError:
            raise self._why_illegal(action) from None

    def _coerce(self, action) -> Action:
        if isinstance(action, str):
            return Action.parse(action)
        if isinstance(action, Action):
            return action
        raise IllegalActionError(
            f"{action!r} is not an action: pass an Action (e.g. Action.play('7♥')) or its text",
            "not_an_action", text=repr(action))

    def _play(self, pos: int, covered: bool, blind: bool) -> None:
        seat = self._turn
        card = self._hands[seat].pop(pos)
        trick = self._trick
        trick.append((seat, card, covered))
        self._log.append((_play_event, seat, card, covered, blind, pos, self._mnames,
                          len(self._results) + 1))
        if len(trick) == 4:
            self._finish_trick()
        else:
            self._turn = (seat + 1) & 3

    def _finish_trick(self) -> None:
        """Score the trick just completed, then lead the next one or end the hand.

        The same rule as `rules.resolve_trick`, written for a whole trick in play order:
        the leader's team played positions 0 and 2, the other team 1 and 3; the higher
        best card takes the trick, equal best cards tie it, and between partners with equal
        cards the first played counts."""
        trick = self._trick
        strength = self._strength
        s0, s1, s2, s3 = [COVERED if covered else strength[card] for _, card, covered in trick]
        best_a, pos_a = (s0, 0) if s0 >= s2 else (s2, 2)  # the leader's team
        best_b, pos_b = (s1, 1) if s1 >= s3 else (s3, 3)  # the other team
        if best_a != best_b:
            seat, card, _ = trick[pos_a if best_a > best_b else pos_b]
            team, leader = seat & 1, seat
        else:  # a tie: the trick's leader leads again, or the first tying card's player
            team = seat = card = None
            if self.tie_lead == "first_tying" and best_a != COVERED:
                leader = trick[min(pos_a, pos_b)][0]
            else:
                leader = self._leader
        results = self._results
        results.append(team)
        self._tricks.append(trick)
        self._log.append((_trick_event, len(results), team, seat, card, self._mnames, trick,
                          leader))
        finished, winner = _HAND_STATUS[tuple(results)]
        if finished:
            if winner is None:
                self._end_hand(None, 0, "all_tied")
            else:
                self._end_hand(winner, self.hand_value, "tricks")
        else:
            self._trick = []
            self._leader = self._turn = leader

    def _raise(self, value: int) -> None:
        seat = self._turn
        team = seat & 1
        forbidden = self.mode == "threshold"
        pending = self._pending
        # In a mão de onze/dez the player is calling truco, whatever the next step's name.
        self._log.append((_raise_event, seat, value,
                          "truco" if forbidden else self._tables.raise_name[value],
                          pending is not None, forbidden))
        if forbidden:
            self._end_hand(1 - team, 0, "forbidden_raise", seat, value)
            return
        if pending is not None:
            self.hand_value = pending[0]  # raising again accepts the raise on the table
        else:
            self._play_turn = seat
        self._pending = (value, team, seat)
        self._last_raise_team = team
        self.phase = "answer"
        self._turn = (seat + 1) & 3  # the next opponent answers for the team

    def _accept(self) -> None:
        value = self._pending[0]
        self._log.append((_accept_event, self._turn, value))
        self.hand_value = value
        self._pending = None
        self.phase = "play"
        self._turn = self._play_turn

    def _run(self) -> None:
        refused, winner = self._pending[0], self._pending[1]
        self._log.append((_run_event, self._turn, self.hand_value))
        self._pending = None
        self._end_hand(winner, self.hand_value, "run", self._turn, refused)

    def _decide(self, play: bool) -> None:
        team = self.threshold_team
        self._log.append((_decide_event, self._turn, team, play))
        if play:
            self.phase = "play"
            self._turn = self._leader
        else:
            self._end_hand(1 - team, self.variant.threshold_run_value, "ran_hand", self._turn)

    def _end_hand(self, winner: int | None, points: int, reason: str, seat: int | None = None,
                  refused: int | None = None) -> None:
        """Score the hand; `seat` ran or raised when forbidden, `refused` is the raise run from."""
        score = self._score
        if winner is not None:
            score[winner] += points
        final = (score[0], score[1])
        # Kept as a record; `last_hand` builds the dict when read. These lists are never
        # mutated again: the next hand starts fresh ones.
        self._last_hand = (self.variant, self._deal, self._tricks, self._trick, self._results,
                           winner, points, reason, self.hand_value, final, seat, refused)
        self._log.append((_hand_event, self.hand_number, winner, points, reason,
                          self._results, final))
        target = self.variant.target
        if reason == "forbidden_raise" or final[0] >= target or final[1] >= target:
            self.winner = winner if reason == "forbidden_raise" else \
                (0 if final[0] >= target else 1)
            self.phase = "game_over"
            self._pending = None
            self._legal = None
            self._log.append((_game_event, self.winner, final))
        else:
            self._deal_random((self.dealer + 1) & 3)

    # -- explaining an illegal action -----------------------------------------------------
    # Each reason is an IllegalActionError: English text, plus a code and fields for
    # `error.message("pt")` (see `text.illegal_message`).
    def _turn_error(self, seat) -> IllegalActionError:
        if self.phase == "game_over":
            return self._over_error()
        return IllegalActionError(f"it is seat {self._turn}'s turn, not seat {seat}'s",
                                  "not_your_turn", current=self._turn, seat=seat)

    def _over_error(self) -> IllegalActionError:
        return IllegalActionError(f"the game is over: team {self.winner} won", "game_over",
                                  team=self.winner)

    def _why_illegal(self, action: Action) -> IllegalActionError:
        kind, seat, team = action.kind, self._turn, self._turn & 1
        phase = self.phase
        err = IllegalActionError
        if phase == "game_over":
            return self._over_error()
        name = "mão de onze" if self.variant.threshold == 11 else "mão de dez"
        if phase == "decide":
            return err(f"team {self.threshold_team} must first decide whether to play the {name} "
                       f"or run from it ('play hand' / 'run hand'); seat {seat} decides",
                       "must_decide", team=self.threshold_team, name=name, seat=seat)
        if kind in ("play_hand", "run_hand"):
            return err(f"there is no {name} decision to make now", "no_decision", name=name)
        if phase == "answer":
            value = self._pending[0]
            if kind in ("play", "cover", "blind"):
                return err(f"seat {seat} must first answer the raise to {value}: "
                           f"accept, run or raise", "must_answer", seat=seat, value=value,
                           raise_name=self.variant.raise_name(value))
            if kind == "raise":
                return self._bad_raise_value(action.value, value)
            return self._not_legal(action)
        # phase == "play"
        if kind in ("accept", "run"):
            return err(f"there is no raise to {kind}", "nothing_to_answer", kind=kind)
        if kind == "raise":
            if self.mode == "mao_de_ferro":
                return err("nobody may raise in a mão de ferro", "ferro_no_raise")
            if team == self._last_raise_team:
                return err(f"team {team} raised last and cannot raise again", "raised_last",
                           team=team)
            return self._bad_raise_value(action.value, self.hand_value)
        if self.mode == "mao_de_ferro":
            if kind != "blind":
                return err("in a mão de ferro nobody sees their cards: play blind by position "
                           "('blind 0', 'blind 1', ...)", "ferro_blind")
            n = len(self._hands[seat])
            return err(f"seat {seat} has {n} card{'s' if n != 1 else ''} left: position "
                       f"{action.position} does not exist", "no_position", seat=seat, n=n,
                       position=action.position)
        if kind == "blind":
            return err("blind play by position is only for a mão de ferro", "blind_only_ferro")
        card = str(action.card)
        if action.card not in CARD_INDEX:
            return err(f"{card} is not in the truco pack", "not_in_pack", card=card)
        if CARD_INDEX[action.card] not in self._hands[seat]:
            return err(f"{card} is not in seat {seat}'s hand", "not_in_hand", card=card, seat=seat)
        if kind == "cover" and not self._results:
            return err("carta coberta is not allowed in the first trick", "no_cover_first")
        return self._not_legal(action)

    def _not_legal(self, action: Action) -> IllegalActionError:
        return IllegalActionError(f"{action} is not legal now", "not_legal", action=str(action))

    def _bad_raise_value(self, asked, current) -> IllegalActionError:
        nxt = self.variant.next_value(current)
        if nxt is None:
            top = self.variant.ladder[-1]
            return IllegalActionError(
                f"the hand is already at {current}: nothing goes above {top}", "above_top",
                value=current, top=top)
        return IllegalActionError(
            f"values rise one step at a time: the next raise is to {nxt}, not {asked}",
            "one_step", next=nxt, asked=asked, raise_name=self.variant.raise_name(nxt))

    # -- views --------------------------------------------------------------------------------
    def view(self, seat: int) -> "SeatView":
        """What `seat` may see now: its own cards (not in a mão de ferro), the table, the
        score, and its partner's cards while its team decides a mão de onze/dez."""
        if seat not in (0, 1, 2, 3):
            raise TrucoError(f"seats are 0 to 3, not {seat!r}", "bad_seat", seat=repr(seat))
        return SeatView(self, seat)

    def visible(self, seat: int, owner: int) -> bool:
        """Whether `seat` may now see the cards in `owner`'s hand."""
        if self.mode == "mao_de_ferro":
            return False
        if owner == seat:
            return True
        return (self.phase == "decide" and owner == (seat + 2) % 4
                and (seat & 1) == self.threshold_team)

    # -- copying and JSON -----------------------------------------------------------------
    def clone(self) -> "TrucoState":
        """An independent copy (shallow copies of the small lists; events are never mutated)."""
        new = object.__new__(TrucoState)
        for name in TrucoState.__slots__:
            setattr(new, name, getattr(self, name))
        new._score = list(self._score)
        new._events = list(self._events)
        new._log = list(self._log)
        new._hands = [list(h) for h in self._hands]
        new._trick = list(self._trick)
        new._tricks = list(self._tricks)
        new._results = list(self._results)
        new._rng = _rng_from_state(self._rng.bit_generator.state)
        new._legal = None
        return new

    def to_dict(self) -> dict:
        return {
            "format": JSON_FORMAT, "variant": self.variant.key, "tie_lead": self.tie_lead,
            "rng": self._rng.bit_generator.state, "score": list(self._score),
            "winner": self.winner, "hand_number": self.hand_number, "dealer": self.dealer,
            "hands": [[CARD_TEXT[c] for c in h] for h in self._hands],
            "vira": None if self._vira is None else CARD_TEXT[self._vira],
            "mode": self.mode, "threshold_team": self.threshold_team, "phase": self.phase,
            "turn": self._turn, "play_turn": self._play_turn, "leader": self._leader,
            "hand_value": self.hand_value,
            "pending": None if self._pending is None else list(self._pending),
            "last_raise_team": self._last_raise_team,
            "trick": [[s, CARD_TEXT[c], cov] for s, c, cov in self._trick],
            "tricks": [[[s, None if cov else CARD_TEXT[c]] for s, c, cov in t]
                       for t in self._tricks],
            "results": list(self._results),
            "last_hand": self.last_hand,
            "events": self.events,
        }

    def to_json(self) -> str:
        """The whole state, random generator included, as JSON text (see `from_json`)."""
        return json.dumps(self.to_dict(), ensure_ascii=False)


def _rng_from_state(state: dict) -> np.random.Generator:
    bit_gen = getattr(np.random, state["bit_generator"])()
    bit_gen.state = state
    return np.random.Generator(bit_gen)


_IDX = {text: i for i, text in enumerate(CARD_TEXT)}


def from_json(text: str) -> TrucoState:
    """Rebuild a state from `to_json()`; it then behaves exactly like the original."""
    d = json.loads(text) if isinstance(text, str) else text
    if d.get("format") != JSON_FORMAT:
        raise TrucoError(f"not a saved truco game (format {d.get('format')!r})", "bad_format",
                         format=repr(d.get("format")))
    s = TrucoState(d["variant"], _rng_from_state(d["rng"]), d["tie_lead"], d["score"])
    s.winner, s.hand_number, s.dealer = d["winner"], d["hand_number"], d["dealer"]
    s._hands = [[_IDX[c] for c in h] for h in d["hands"]]
    s._vira = None if d["vira"] is None else _IDX[d["vira"]]
    s._strength, s._mnames, _ = s._tables.by_vira[s._vira]
    s.mode, s.threshold_team, s.phase = d["mode"], d["threshold_team"], d["phase"]
    s._turn, s._play_turn, s._leader = d["turn"], d["play_turn"], d["leader"]
    s.hand_value = d["hand_value"]
    s._pending = None if d["pending"] is None else tuple(d["pending"])
    s._last_raise_team = d["last_raise_team"]
    s._trick = [(seat, _IDX[c], cov) for seat, c, cov in d["trick"]]
    s._tricks = [[(seat, None, True) if c is None else (seat, _IDX[c], False) for seat, c in t]
                 for t in d["tricks"]]
    s._results = list(d["results"])
    s.events = d["events"]
    s._last_hand = d.get("last_hand")
    s._deal = next((e for e in reversed(s._events) if e["type"] == "deal"), None)
    return s


def new_game(variant, seed=None, *, tie_lead: str = "leader") -> TrucoState:
    """A new game to 12: the first dealer is drawn by lot, then the first hand is dealt.

    `seed` (int, numpy Generator or None) drives every shuffle, so a seed replays a game.
    `tie_lead`: who leads after a tied trick, "leader" (of the tied trick, the default) or
    "first_tying" (the player who played the first of the tying cards).
    """
    rng = make_rng(seed)
    state = TrucoState(variant, rng, tie_lead)
    state._deal_random(int(rng.integers(4)))
    return state


def from_deal(variant, hands, vira=None, dealer: int = 0, score=(0, 0), *, seed=None,
              tie_lead: str = "leader") -> TrucoState:
    """A game that starts from a chosen hand, e.g. for a lesson scenario.

    `hands`: four hands of three cards in seat order (Card or text such as "7♥"), or a
    text per hand such as "3♦ 4♠ 5♥" (read by `cartas.cards.parse_cards`); `vira`:
    required for Paulista, not allowed for Mineiro; `dealer`: 0..3; `score`: the points of
    team 0 and team 1 before the hand (11 x 5 makes a mão de onze, 11 x 11 a mão de ferro).
    Later hands are dealt from `seed`. Raises ValueError for an impossible deal.
    """
    variant = get_variant(variant)
    hands = list(hands)
    if len(hands) != 4:
        raise TrucoError(f"a deal has four hands (one per seat), not {len(hands)}", "four_hands",
                         n=len(hands))
    idx_hands = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, str):  # one text per hand, e.g. "3♦ 4♠ 5♥"
            try:
                hand = parse_cards(hand)
            except ValueError as err:
                raise TrucoError(str(err), "unreadable_card", text=hand, seat=seat,
                                 place="hand") from None
        hand = [hand] if isinstance(hand, Card) else list(hand)
        if len(hand) != 3:
            raise TrucoError(f"seat {seat} must hold 3 cards, not {len(hand)}", "three_cards",
                             seat=seat, n=len(hand))
        idx_hands.append([_card_index(c, f"seat {seat}'s hand", seat) for c in hand])
    flat = [c for h in idx_hands for c in h]
    if len(set(flat)) != 12:
        dup = next(CARD_TEXT[c] for c in flat if flat.count(c) > 1)
        raise TrucoError(f"{dup} is dealt twice: the 12 cards must be distinct", "dealt_twice",
                         card=dup)
    vira_idx = None
    if variant.uses_vira:
        if vira is None:
            raise TrucoError("Truco Paulista needs a vira to know its manilhas", "needs_vira")
        vira_idx = _card_index(vira, "the vira")
        if vira_idx in flat:
            raise TrucoError(f"the vira {CARD_TEXT[vira_idx]} cannot also be in a hand",
                             "vira_in_hand", card=CARD_TEXT[vira_idx])
    elif vira is not None:
        raise TrucoError("Truco Mineiro has no vira: its manilhas are fixed", "mineiro_no_vira")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        raise TrucoError(f"the dealer is a seat from 0 to 3, not {dealer!r}", "bad_dealer",
                         dealer=repr(dealer))
    score = tuple(score)
    if len(score) != 2 or any(not isinstance(p, int) or isinstance(p, bool)
                               or not 0 <= p < variant.target for p in score):
        raise TrucoError(f"the score is two whole numbers from 0 to {variant.target - 1}, "
                         f"not {score!r}", "bad_score", top=variant.target - 1,
                         score=repr(score))
    state = TrucoState(variant, make_rng(seed), tie_lead, score)
    order = [idx_hands[seat][k] for seat, k in deal_order(dealer)]  # as the pack dealt them
    state._start_hand(dealer, order, vira_idx)
    return state


class SeatView:
    """What one seat may see (`state.view(seat)`): the table, the score, its own cards.

    Attributes mirror the state's: seat, team, variant, vira, manilhas, dealer, mao,
    hand_number, score, phase, current_seat, mode, is_mao_de_ferro, threshold_team,
    hand_value, pending_raise, run_value, last_raise_team, raise_options, trick_number,
    trick_results, current_trick, tricks, trick_leader, winner, tie_lead. Plus:

    - `hands`: for each seat a tuple with one entry per card still held: the Card if this
      seat may see it, else None (own cards are hidden in a mão de ferro; the partner's
      cards are shown while the team decides a mão de onze/dez).
    - `hand`: `hands[seat]`.
    - `legal`: the legal actions if it is this seat's turn, else (); `legal_actions()`.
    - `events`: the events so far, with other seats' face-down cards and unseen hands
      replaced by None.
    """

    def __init__(self, state: TrucoState, seat: int):
        self.seat, self.team = seat, seat & 1
        for name in ("variant", "vira", "manilhas", "dealer", "mao", "hand_number", "score",
                     "phase", "current_seat", "mode", "is_mao_de_ferro", "threshold_team",
                     "hand_value", "pending_raise", "run_value", "last_raise_team",
                     "trick_number", "trick_results", "current_trick", "tricks",
                     "trick_leader", "winner", "tie_lead"):
            setattr(self, name, getattr(state, name))
        self.hands = tuple(
            tuple(TRUCO_PACK[c] if state.visible(seat, owner) else None for c in h)
            for owner, h in enumerate(state._hands))
        self.hand = self.hands[seat]
        mine = state.current_seat == seat
        self.legal = tuple(state._legal_list()) if mine else ()
        self.raise_options = state.raise_options if mine else ()
        self._events, self._n = state.events, len(state.events)

    def legal_actions(self) -> list[Action]:
        return list(self.legal)

    @property
    def is_my_turn(self) -> bool:
        return self.current_seat == self.seat

    @property
    def events(self) -> list[dict]:
        return [redact_event(e, self.seat) for e in self._events[:self._n]]


def redact_event(event: dict, seat: int) -> dict:
    """The event as `seat` saw it: hidden cards become None."""
    kind = event["type"]
    if kind == "play" and event["covered"] and event["seat"] != seat:
        return {**event, "card": None}
    if kind == "deal":
        shown = {seat} if event["mode"] != "mao_de_ferro" else set()
        if event["mode"] == "threshold" and (seat & 1) == event["threshold_team"]:
            shown.add((seat + 2) % 4)
        hands = [h if s in shown else [None] * len(h) for s, h in enumerate(event["hands"])]
        return {**event, "hands": hands}
    return event
