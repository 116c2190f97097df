"""The truco game state: deal, bet, play tricks, score hands, until a team has 12.

Start a game with `new_game(variant, seed)` or from a chosen deal with `from_deal(...)`;
drive it with `state.legal_actions()` and `events = state.apply_action(action)`. Hands are
dealt automatically until the game ends. Everything that happened is in `state.events`.
The state follows `cartas.contract.GameState`.

This module is the fast path only. Events are built by `events`, JSON by `serialization`,
refusals by `refusals`, views by `views`, sentences by `narration`/`explain`; the rules
(trick, deal, teams, carta coberta) live in `rules`.

Inside, cards are indexes into `TRUCO_PACK`, and everything the hot path looks up (card
strengths and manilha names for every vira, raise steps, the answer phase's actions) is
precomputed once per variant in `_Tables`, and the outcome of every sequence of trick
results in `_HAND_STATUS`, so `legal_actions` and `apply_action` never hash a Card, call an
lru_cache or copy the state. Legal actions are shared objects, so `apply_action` finds the
chosen one by identity, and a shared play or cover action knows its card's pack index
(`_CARD_OF`), which `apply_action` finds in the seat's hand.

Events are logged as records, `(builder, *args)` with the builders of `events` (a loaded
game replays its actions, so its records are the engine's own), and built into dicts only
when read: `state.events` builds the history, and `apply_action` returns an
`events.NewEvents`, a sequence that builds copies of its own events when first read. A save
is the game's setup plus the actions read back from those records (`serialization`).
"""
from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np

from ..cards import TRUCO_PACK, Card, make_rng, parse_cards
from ..contract import Event, Outcome
from . import events as ev, serialization
from .actions import ACCEPT, BLIND_ACTIONS, COVER_ACTIONS, PLAY_ACTIONS, PLAY_HAND, RUN, RUN_HAND, Action
from .errors import TrucoError
from .events import LastHand, PendingRaise, Record
from .narration import narrate
from .refusals import coerce, turn_error, why_illegal
from .rules import (
    CARD_INDEX,
    CARD_TEXT,
    COVER_FROM_TRICK,
    TIE_LEADS,
    check_hands,
    check_players,
    deal_order,
    hand_status,
    next_leader,
    partner_of,
    resolve_trick,
    seat_partner,
    short_game_winner,
    strength_list,
    team_of,
    vira_card,
)
from .variants import Variant, get_variant, manilhas
from .views import SeatView

_BUILDING = threading.Lock()  # `TrucoState.events`: one thread builds a state's new events

_BLIND_LEGAL = tuple(BLIND_ACTIONS[:n] for n in range(4))
_DECIDE_LEGAL = (PLAY_HAND, RUN_HAND)
_PACK_ORDER = list(range(len(TRUCO_PACK)))  # copied, then shuffled, for each deal
_DEAL_STARTS = ev.DEAL_STARTS
_DEAL_STARTS_BY = ev.DEAL_STARTS_BY  # players -> dealer -> where each seat's cards start
_VIRA_AT = {players: vira_card(players) for players in _DEAL_STARTS_BY}
# The event builders, bound here for the hot path: it logs each event as a record
# (builder, its arguments...) that `TrucoState.events` builds into a dict when read.
_deal_event, _play_event, _trick_event = ev.deal_event, ev.play_event, ev.trick_event
_raise_event, _accept_event, _run_event = ev.raise_event, ev.accept_event, ev.run_event
_decide_event, _hand_event, _game_event = ev.decide_event, ev.hand_event, ev.game_event
_NewEvents = ev.NewEvents
# a shared play or cover action -> the pack index of its card (looked up by identity: the
# hot path never hashes a Card)
_CARD_OF: dict[int, int] = {id(a): c for actions in (PLAY_ACTIONS, COVER_ACTIONS)
                            for c, a in enumerate(actions)}
# (finished, winning team or None) for every sequence of trick results (see `hand_status`)
_HAND_STATUS = {results: hand_status(results) for n in (1, 2, 3)
                for results in itertools.product((0, 1, None), repeat=n)}
PHASES = ("decide", "play", "answer", "game_over")
# `legal_actions` offers carta coberta once a trick is finished, which is the rule
# (`rules.may_cover`) as long as it allows it from the second trick on: checked here.
_COVER_FROM_SECOND = COVER_FROM_TRICK == 2
if not _COVER_FROM_SECOND:
    raise ImportError("legal_actions assumes carta coberta from trick 2 (COVER_FROM_TRICK)")
MODES = ("normal", "threshold", "mao_de_ferro")
_TEXT_INDEX = {text: i for i, text in enumerate(CARD_TEXT)}
_ID_INDEX = {id(card): i for i, card in enumerate(TRUCO_PACK)}  # the pack's own cards live for ever
_SAVED_GENERATORS = tuple(serialization.BIT_GENERATORS.values())

_RAISES: dict[int, Action] = {}


def _raise_action(value: int) -> Action:
    """One shared raise action per value."""
    action = _RAISES.get(value)
    if action is None:
        action = _RAISES[value] = Action("raise", value=value)
    return action


# (strength of each pack index, manilha nickname or None per pack index, manilha texts)
_ViraTables = tuple[tuple[int, ...], tuple[str | None, ...], tuple[str, ...]]


class _Tables:
    """What the hot path looks up for one variant, computed once (see `_tables`)."""

    def __init__(self, variant: Variant):
        self.variant = variant
        values = set(variant.values) | {variant.threshold_value}
        steps = {v: n for v in values if (n := variant.next_value(v)) is not None}
        # hand value (or pending raise) -> the shared action raising it one step
        self.next_raise: dict[int, Action] = {v: _raise_action(n) for v, n in steps.items()}
        # in a mão de onze/dez the only raise is a call for truco (and it loses the game)
        self.truco = _raise_action(variant.ladder[0])
        self.raise_name: dict[int, str] = {v: variant.raise_name(v) for v in variant.ladder}
        # pending raise value -> the answers: accept, run, and re-raise if there is a step left
        self.answers: dict[int, tuple[Action, ...]] = {
            v: (ACCEPT, RUN) + ((self.next_raise[v],) if v in steps else ()) for v in values}
        # vira (a pack index, None in Mineiro) -> what the hand needs from it, see `_for_vira`
        viras = range(len(TRUCO_PACK)) if variant.uses_vira else (None,)
        self.by_vira: dict[int | None, _ViraTables] = {vira: self._for_vira(vira) for vira in viras}
        # vira -> the four manilhas, weakest first (`variants.manilhas`' own tuple)
        self.manilhas: dict[int | None, tuple[Card, ...]] = {
            vira: manilhas(variant, None if vira is None else TRUCO_PACK[vira]) for vira in viras}

    def _for_vira(self, vira: int | None) -> _ViraTables:
        """(strength of each pack index, manilha nickname or None per pack index,
        manilha texts weakest first) for a hand with this vira."""
        v = self.variant
        cards = manilhas(v, None if vira is None else TRUCO_PACK[vira])
        names = dict(zip(cards, v.manilha_names))
        return (strength_list(v, vira), tuple(names.get(c) for c in TRUCO_PACK),
                tuple(str(c) for c in cards))


@cache
def _tables(variant: Variant) -> _Tables:
    return _Tables(variant)


def check_tie_lead(tie_lead: object) -> str:
    """`tie_lead` itself if it is "leader" or "first_tying"; a TrucoError otherwise."""
    if not isinstance(tie_lead, str) or tie_lead not in TIE_LEADS:
        raise TrucoError("bad_tie_lead", value=repr(tie_lead)[:40])
    return tie_lead


class TrucoState:
    """A truco game in progress. Build it with `new_game`, `from_deal` or `from_json`.

    Reading the state (all read-only; lists returned are copies):

    - `variant`: PAULISTA or MINEIRO; `tie_lead`: "leader" or "first_tying"; `players`: 4,
      or 2 mano a mano (docs/rules.md#mano-a-mano-players).
    - `score`: (team 0, team 1); team 0 = seats 0 and 2, team 1 = seats 1 and 3
      (`team_of(seat)`, `partner_of(seat)`); mano a mano seat 0 is team 0 and seat 1 team 1,
      and `partner_of` is None.
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
      (at most one); `raise_forbidden`: True in a mão de onze/dez, where any raise, by any
      name or value, is a call for truco and loses the game at once.
    - `trick_number` (1..3), `trick_results` (0, 1 or None per finished trick),
      `current_trick` [(seat, Card or None if covered)], `tricks` (finished tricks of this
      hand, same shape), `trick_leader`.
    - `events`: list of plain dicts (see `cartas.truco.events`); `narrate(event, lang)`.
    - `last_hand`: the last finished hand as a dict (None before the first ends).
    """

    # The slots' types (annotations only: a slot cannot also be a class attribute).
    _legal: list[Action] | tuple[Action, ...] | None
    _deal: Record | None
    _last_hand: tuple[Any, ...] | None  # the arguments of `events.last_hand_dict`
    _last_hand_built: LastHand | None
    _hands: list[list[int]]
    _vira: int | None
    _leader: int
    _turn: int
    _play_turn: int | None
    _trick: list[tuple[int, int, bool]]
    _tricks: list[list[tuple[int, int, bool]]]
    _results: list[int | None]
    _pending: tuple[int, int, int] | None
    _last_raise_team: int | None
    threshold_team: int | None

    # -- construction ---------------------------------------------------------------------
    # Every attribute is a slot: compact, quick to read on the hot path, and listed here for
    # `clone`, which copies them by name.
    __slots__ = (
        "variant", "tie_lead", "winner", "hand_number", "dealer", "threshold_team", "mode",
        "hand_value", "phase", "_tables", "_key", "_rng", "_score", "_events", "_log", "_legal",
        "_deal", "_last_hand", "_last_hand_built", "_last_hand_whys", "_hands", "_vira", "_strength", "_mnames",
        "_leader", "_turn",
        "_play_turn", "_trick", "_tricks", "_results", "_pending", "_last_raise_team",
        "_setup", "_forced", "players", "_mask", "_starts", "hand_limit",
    )

    def __init__(self, variant: Variant | str, rng: np.random.Generator, tie_lead: str = "leader",
                 score: Sequence[int] = (0, 0), players: int = 4, hand_limit: int | None = None):
        self.variant: Variant = get_variant(variant)
        # a short game's number of hands, None to 12 (Decided: docs/rules.md#truco-short-game)
        self.hand_limit: int | None = check_hands(hand_limit)
        # 4, or 2 mano a mano (Decided: docs/rules.md#mano-a-mano-players); both are powers of
        # two, so the next seat is `(seat + 1) & _mask` on the hot path
        self.players: int = check_players(players)
        self._mask = players - 1
        self._starts = _DEAL_STARTS_BY[players]
        self._key = self.variant.key
        self._tables = _tables(self.variant)
        self.tie_lead = check_tie_lead(tie_lead)
        self._rng = rng
        self._score = [int(score[0]), int(score[1])]
        self.winner: int | None = None
        self._events: list[Event] = []  # the events built as dicts so far
        self._log: list[Record] = []  # every event's record, in order (see `events`)
        self.hand_number = 0
        self.dealer = 0
        self._legal = None  # cached legal actions (see `_legal_list`), None when stale
        self._deal = None       # this hand's deal record, for `last_hand`
        self._last_hand = None  # the last finished hand's record (see `last_hand`)
        self._last_hand_built = None  # ... and its dict, once read
        self._last_hand_whys: dict[str, str] = {}  # ... and why it ended, per language (`last_hand_why`)
        self._setup: dict[str, Any] = {}  # how the game began, as saved (see `serialization`)
        # the hands dealt by hand: (hands, vira) as pack indexes
        self._forced: list[tuple[list[list[int]], int | None]] = []

    def _deal_random(self, dealer: int) -> None:
        """Shuffle the 40 cards, deal them as `deal_order` says, turn the vira; or deal the
        next hands dealt by hand, while the setup has some left."""
        forced = self._forced
        if self.hand_number < len(forced):
            hands, vira = forced[self.hand_number]
            self._start_hand(dealer, [hands[seat][k] for seat, k in deal_order(dealer, self.players)],
                             vira)
            return
        order = _PACK_ORDER[:]
        self._rng.shuffle(order)  # the same draws and order as rng.permutation(40)
        self._start_hand(dealer, order, order[_VIRA_AT[self.players]] if self.variant.uses_vira else None)

    def _start_hand(self, dealer: int, order: list[int], vira: int | None) -> None:
        """Start a hand whose first 12 cards (6 mano a mano) in `order` go to the seats as
        `deal_order` says."""
        v = self.variant
        self.hand_number += 1
        self.dealer = dealer
        mask = self._mask
        mao = (dealer + 1) & mask
        if mask == 3:
            a, b, c, d = _DEAL_STARTS[dealer]  # where each seat's three cards start
            self._hands = [order[a:a + 3], order[b:b + 3], order[c:c + 3], order[d:d + 3]]
        else:  # mano a mano (docs/rules.md#mano-a-mano-deal)
            a, b = self._starts[dealer]
            self._hands = [order[a:a + 3], order[b:b + 3]]
        self._vira = vira
        self._strength, self._mnames, manilha_texts = self._tables.by_vira[vira]
        self._leader = self._turn = mao
        self._play_turn = None
        self._trick = []   # (seat, card, covered)
        self._tricks = []  # finished `_trick`s
        self._results = []
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
            # The team's first seat in play order decides for it (seeing both hands; mano a
            # mano the player at the threshold, seeing her own: docs/rules.md#mano-a-mano-threshold).
            self._turn = mao if (mao & 1) == self.threshold_team else (mao + 1) & mask
        else:
            self.mode, self.hand_value, self.phase = "normal", v.base_value, "play"
        self._legal = None
        self._deal = deal = (_deal_event, self._key, self.hand_number, dealer, mao, order, vira,
                             manilha_texts, (score[0], score[1]), self.mode,
                             self.threshold_team, self.hand_value, self.players, self.hand_limit)
        self._log.append(deal)

    # -- events ---------------------------------------------------------------------------
    @property
    def events(self) -> list[Event]:
        """Everything that happened, as plain dicts (see `cartas.truco.events`). Always the
        same list object, which grows as the game goes on: read it, never change it.

        The hot path logs each event as a record (a tuple: its builder in `events`, then the
        builder's arguments) in `_log`, so random play builds no dicts; reading this
        property builds the records logged since the last read into `_events`, which is
        always as long as `_log` or shorter. A record's values never change once logged
        (the dealt order, a finished trick and a hand's results are lists the engine no
        longer mutates; scores are copied). Two threads reading it at once (a seat view is read
        where it is sent, `SeatView.events`) build each record once: the build holds a lock."""
        events, log = self._events, self._log
        if len(log) > len(events):
            with _BUILDING:
                if len(log) > len(events):
                    events += [ev.build(record) for record in log[len(events):]]
        return events

    def narrate(self, event: Event, lang: str = "pt", names: Mapping[int, str] | None = None) -> str:
        """One sentence for one event (see `cartas.truco.narrate`); `names`: {seat: name}."""
        return narrate(event, lang, names, self.players)

    def describe(self, action: object, lang: str = "pt") -> str:
        """The action's name in `lang`, a raise named by this variant's shout ("pedir
        seis"); see `Action.describe`."""
        return coerce(action).describe(lang, self.variant)

    def outcome(self) -> Outcome:
        """Each team's score, and the team that won once the game is over."""
        over = self.phase == "game_over"
        winners = () if self.winner is None else (self.winner,)
        return Outcome("team", (self._score[0], self._score[1]), self.winner, winners, over)

    @property
    def last_hand(self) -> LastHand | None:
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
        built = self._last_hand_built
        if built is None and self._last_hand is not None:
            built = self._last_hand_built = ev.last_hand_dict(*self._last_hand)
        return None if built is None else json.loads(json.dumps(built))

    def last_hand_why(self, lang: str = "pt") -> str | None:
        """Why the last finished hand ended as it did (`explain.explain_last_hand` of
        `last_hand`; None before a hand ends), worked out once per hand and language: copies
        of this state (`clone`) made during the next hand share it."""
        said = self._last_hand_whys.get(lang)
        if said is None:
            last = None if self._last_hand is None else self.last_hand
            if last is None:
                return None
            from .explain import explain_last_hand
            said = self._last_hand_whys[lang] = str(explain_last_hand(last, self.variant, lang))
        return said

    @property
    def logged(self) -> int:
        """How many events have happened (`len(state.events)`, without building them)."""
        return len(self._log)

    # -- reading ----------------------------------------------------------------------------
    @property
    def game(self) -> str:
        """The game's key in `cartas.games`: the variant's, "paulista" or "mineiro"."""
        return self._key

    @property
    def score(self) -> tuple[int, int]:
        return (self._score[0], self._score[1])

    @property
    def current_seat(self) -> int | None:
        return None if self.phase == "game_over" else self._turn

    @property
    def mao(self) -> int:
        return (self.dealer + 1) & self._mask

    @property
    def vira(self) -> Card | None:
        return None if self._vira is None else TRUCO_PACK[self._vira]

    @property
    def manilhas(self) -> tuple[Card, ...]:
        return self._tables.manilhas[self._vira]

    @property
    def is_mao_de_ferro(self) -> bool:
        return self.mode == "mao_de_ferro"

    @property
    def is_threshold_hand(self) -> bool:
        """True in a mão de onze (Paulista) / mão de dez (Mineiro)."""
        return self.mode == "threshold"

    @property
    def raise_forbidden(self) -> bool:
        """True when a raise would lose the game (mão de onze / mão de dez).
        Decided: docs/rules.md#threshold-any-raise."""
        return self.mode == "threshold"

    @property
    def hands(self) -> list[list[Card]]:
        return [[TRUCO_PACK[c] for c in h] for h in self._hands]

    def hands_indexes(self) -> list[list[int]]:
        """The hands as pack indexes (the engine's own lists: read, never change them)."""
        return self._hands

    def hand_of(self, seat: int) -> list[Card]:
        return [TRUCO_PACK[c] for c in self._hands[seat]]

    @staticmethod
    def team_of(seat: int) -> int:
        """The team of `seat` (see `rules.team_of`)."""
        return team_of(seat)

    def partner_of(self, seat: int) -> int | None:
        """The partner of `seat` (see `rules.partner_of`); None mano a mano, where each player
        is a team of one (`rules.seat_partner`)."""
        return seat_partner(seat, self.players)

    @property
    def pending_raise(self) -> PendingRaise | None:
        if self._pending is None:
            return None
        value, team, seat = self._pending
        return {"value": value, "name": self.variant.raise_name(value), "team": team,
                "seat": seat, "answer_seat": self._turn}

    @property
    def run_value(self) -> int | None:
        # Decided: docs/rules.md#threshold-run-value
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
        return tuple(a.value for a in self._legal_list() if a.kind == "raise" and a.value is not None)

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
        """The actions the current seat may take now (empty when the game is over).
        Decided: docs/rules.md#ferro-blind."""
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
                    plays = [PLAY_ACTIONS[c] for c in hand]
                    if self._results:  # a trick is finished: see _COVER_FROM_SECOND
                        plays += [COVER_ACTIONS[c] for c in hand]
                    if mode == "threshold":  # offered, but it loses the game
                        plays.append(self._tables.truco)
                    elif (turn & 1) != self._last_raise_team:
                        raise_action = self._tables.next_raise.get(self.hand_value)
                        if raise_action is not None:
                            plays.append(raise_action)
                    legal = plays
            elif phase == "answer" and self._pending is not None:
                legal = self._tables.answers[self._pending[0]]
            elif phase == "decide":
                legal = _DECIDE_LEGAL
            else:
                legal = ()
            self._legal = legal
        return list(legal)

    def _legal_list(self) -> list[Action] | tuple[Action, ...]:
        """The legal actions as cached by `legal_actions` (shared: never mutate it): in the
        play phase the plays (or the blind plays) in hand order, then the covers, then the
        raise if there is one."""
        legal = self._legal
        if legal is None:
            self.legal_actions()
            legal = self._legal
        return () if legal is None else legal

    # -- acting -----------------------------------------------------------------------------
    def apply_action(self, action: object, seat: int | None = None) -> ev.NewEvents:
        """Apply a legal action (an Action or its str() form) for the current seat and
        return the events it caused: a sequence of copies of the dicts that end
        `state.events` (changing them never changes the history). It is an
        `events.NewEvents`, which builds them when first read, so a caller that ignores it
        (random play, bots, odds) pays for no dict; `list(events)` is a plain list.

        Pass `seat` to check that it is that seat's turn. An answer for a team (to a raise,
        or the play-or-run of a mão de onze/dez) may be given by the partner of the seat the
        engine asks (docs/rules.md#truco-who-answers: the team answers as one); its events then
        name that partner, the seat that answered. An illegal action raises IllegalActionError
        (a TrucoError) saying why, and leaves the state unchanged.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal_list()
        # Fast path: one of the shared legal action objects, found by identity.
        for candidate in legal:
            if candidate is action:
                break
        else:
            candidate = None
        act = candidate if candidate is not None and seat is None else self._check(action, seat, legal)
        by = self._turn if seat is None else seat  # the seat that acts (a partner may answer)
        self._legal = None
        log = self._log
        n = len(log)
        kind = act.kind
        if kind == "play" or kind == "cover":
            self._play(self._hands[self._turn].index(_CARD_OF[id(act)]), kind == "cover", False)
        elif kind == "raise":
            self._raise(act.value, by)  # type: ignore[arg-type]  # a legal raise always has a value
        elif kind == "run":
            self._run(by)
        elif kind == "accept":
            self._accept(by)
        elif kind == "blind":
            self._play(act.position, False, True)  # type: ignore[arg-type]  # a blind play has one
        else:
            self._decide(kind == "play_hand", by)
        return _NewEvents(self, n, len(log))

    def _answers_for_team(self, seat: object) -> bool:
        """Whether `seat` may give the answer the engine asks of its partner: in the answer
        and decide phases the team answers as one (docs/rules.md#truco-who-answers); mano a
        mano there is no partner, so only the seat asked answers
        (docs/rules.md#mano-a-mano-answers)."""
        return (self.phase in ("answer", "decide") and self.players == 4 and type(seat) is int
                and seat in range(4) and partner_of(seat) == self._turn)

    def _check(self, action: object, seat: int | None, legal: Sequence[Action]) -> Action:
        """The slow path of `apply_action`: read text, check the seat, resolve raises and
        equal copies of legal actions; returns the shared legal action meant, or raises."""
        if not isinstance(action, Action):
            action = coerce(action)
        if seat is not None and seat != self.current_seat and not self._answers_for_team(seat):
            raise turn_error(self, seat)
        if action.kind == "raise":
            offered = next((a for a in legal if a.kind == "raise"), None)
            # RAISE = the next step; in a mão de onze/dez any raise, by any value, is truco
            if offered is not None and (action.value is None or self.mode == "threshold"):
                action = offered
        for candidate in legal:  # identity first: legal actions are shared
            if candidate is action:
                return candidate
        for candidate in legal:
            if candidate == action:
                return candidate
        raise why_illegal(self, action)

    def _play(self, pos: int, covered: bool, blind: bool) -> None:
        seat = self._turn
        card = self._hands[seat].pop(pos)
        trick = self._trick
        trick.append((seat, card, covered))
        self._log.append((_play_event, self._key, seat, card, covered, blind, pos, self._mnames,
                          len(self._results) + 1))
        if len(trick) == self.players:
            self._finish_trick()
        else:
            self._turn = (seat + 1) & self._mask

    def _finish_trick(self) -> None:
        """Score the trick just completed by `rules.resolve_trick`, then lead the next one
        (`rules.next_leader`) or end the hand."""
        trick = self._trick
        team, win, tie = resolve_trick(trick, self._strength)
        seat: int | None
        card: int | None
        if win is not None:  # a winning card exactly when a team took the trick
            seat, card, _ = trick[win]
            leader = seat
        else:
            seat = card = None
            leader = next_leader(self.tie_lead, self._leader, [t[0] for t in trick], None, tie)
        results = self._results
        results.append(team)
        self._tricks.append(trick)
        self._log.append((_trick_event, self._key, len(results), team, seat, card, self._mnames,
                          trick, leader))
        finished, winner = _HAND_STATUS[tuple(results)]
        if finished:
            if winner is None:
                self._end_hand(None, 0, "all_tied")
            else:
                self._end_hand(winner, self.hand_value, "tricks")
        else:
            self._trick = []
            self._leader = self._turn = leader

    def _raise(self, value: int, by: int) -> None:
        # Decided: docs/rules.md#truco-who-answers (`by`: the seat raising; the partner of the
        # seat asked to answer may raise again for the team, and the next opponent answers it)
        seat = by
        team = seat & 1
        forbidden = self.mode == "threshold"
        pending = self._pending
        if forbidden:  # a call for truco in a mão de onze/dez, whatever the value: it loses
            self._log.append((_raise_event, self._key, seat, value, "truco", False, True,
                                               self.hand_value))
            self._end_hand(1 - team, 0, "forbidden_raise", seat, value)
            return
        if pending is not None:
            self.hand_value = pending[0]  # raising again accepts the raise on the table
        else:
            self._play_turn = seat
        self._log.append((_raise_event, self._key, seat, value, self._tables.raise_name[value],
                                           pending is not None, False, self.hand_value))
        self._pending = (value, team, seat)
        self._last_raise_team = team
        self.phase = "answer"
        self._turn = (seat + 1) & self._mask  # the next opponent answers for the team

    def _accept(self, by: int) -> None:
        # only in the answer phase: a raise is pending and the seat that raised first is known
        assert self._pending is not None and self._play_turn is not None
        value = self._pending[0]
        self._log.append((_accept_event, self._key, by, value))
        self.hand_value = value
        self._pending = None
        self.phase = "play"
        self._turn = self._play_turn

    def _run(self, by: int) -> None:
        assert self._pending is not None  # only in the answer phase
        refused, winner = self._pending[0], self._pending[1]
        self._log.append((_run_event, self._key, by, self.hand_value))  # the seat that ran
        self._pending = None
        self._end_hand(winner, self.hand_value, "run", by, refused)

    def _decide(self, play: bool, by: int) -> None:
        # Decided: docs/rules.md#threshold-decision
        team = self.threshold_team
        assert team is not None  # only in a mão de onze/dez, which has a threshold team
        self._log.append((_decide_event, self._key, by, team, play))
        if play:
            self.phase = "play"
            self._turn = self._leader
        else:
            self._end_hand(1 - team, self.variant.threshold_run_value, "ran_hand", by)

    def _end_hand(self, winner: int | None, points: int, reason: str, seat: int | None = None,
                  refused: int | None = None) -> None:
        """Score the hand; `seat` ran or raised when forbidden, `refused` is the raise run from."""
        score = self._score
        if winner is not None:
            score[winner] += points
        final = (score[0], score[1])
        # Kept as a record; `last_hand` builds the dict when read. These lists are never
        # mutated again: the next hand starts fresh ones. A trick of fewer cards than players
        # is one the hand ended before finishing.
        trick = self._trick
        self._last_hand = (self.variant, self._deal, self._tricks,
                           trick if len(trick) < self.players else [],
                           self._results, winner, points, reason, self.hand_value, final, seat,
                           refused)
        self._last_hand_built = None
        self._last_hand_whys = {}   # a new dict: copies made before keep the last one's
        self._log.append((_hand_event, self._key, self.hand_number, winner, points, reason,
                                          self._results, final))
        target = self.variant.target
        # a short game also ends once its hands are played with a team ahead (short_game_winner)
        ahead = short_game_winner(final, self.hand_number, self.hand_limit)
        if reason == "forbidden_raise" or final[0] >= target or final[1] >= target or ahead is not None:
            by_hands = None
            if reason == "forbidden_raise":
                self.winner = winner
            elif final[0] >= target or final[1] >= target:
                self.winner = 0 if final[0] >= target else 1
            else:
                self.winner, by_hands = ahead, self.hand_number
            self.phase = "game_over"
            self._pending = None
            self._legal = None
            self._log.append((_game_event, self._key, self.winner, final, by_hands))
        else:
            self._deal_random((self.dealer + 1) & self._mask)

    # -- views, copies, JSON ----------------------------------------------------------------
    def view(self, seat: int | None) -> SeatView:
        """What `seat` may see now (None: a spectator, who sees no hand): its own cards
        (not in a mão de ferro), the table, the score, and its partner's cards while its
        team decides a mão de onze/dez. See `cartas.truco.views.SeatView`."""
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                                 or not 0 <= seat < self.players):
            raise TrucoError("bad_seat", seat=repr(seat)[:40], top=self.players - 1)
        return SeatView(self, seat)

    def visible(self, seat: int | None, owner: int) -> bool:
        """Whether `seat` may now see the cards in `owner`'s hand (see `events.sees_hand`)."""
        return ev.sees_hand(self.mode, self.phase == "decide", self.threshold_team, seat, owner)

    def clone(self) -> TrucoState:
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
        new._rng = serialization.rng_copy(self._rng)
        new._legal = None
        return new

    def to_dict(self) -> dict[str, Any]:
        """The whole state as a JSON-friendly dict (see `cartas.truco.serialization`)."""
        return serialization.to_dict(self)

    def to_json(self) -> str:
        """The whole state, random generator included, as JSON text (see `from_json`)."""
        return json.dumps(self.to_dict(), ensure_ascii=False)


def from_json(text: str | dict[str, Any]) -> TrucoState:
    """Rebuild a state from `to_json()` (text, or the dict of `to_dict()`): its setup starts
    the game and its actions are replayed through `apply_action`, so it then behaves exactly
    like the original (docs/rules.md#saved-game-replays). A setup out of range or an action
    the rules refuse raises TrucoError naming it (see `cartas.truco.serialization`)."""
    return serialization.load(text, _start, _check_deal, _check_score)


def _start(setup: dict[str, Any], rng: np.random.Generator | None = None) -> TrucoState:
    """The game a checked setup (`serialization.check_setup`) begins: its first hand dealt
    by hand, or shuffled from the generator (the first dealer drawn by lot when not given).
    `rng`: the generator to use, when the caller shares one (its state is the setup's)."""
    state = TrucoState(setup["variant"], setup["generator"] if rng is None else rng,
                       setup["tie_lead"], setup["score"], setup["players"], setup["hands"])
    state._setup = setup["saved"]
    state._forced = setup["forced"]
    dealer = setup["dealer"]
    state._deal_random(int(state._rng.integers(state.players)) if dealer is None else dealer)
    return state


def _setup_of(variant: Variant, tie_lead: str, seed: int | np.random.Generator | None,
              score: tuple[int, int] = (0, 0), dealer: int | None = None,
              deals: tuple[tuple[list[list[int]], int | None], ...] = (), players: int = 4,
              hands: int | None = None) -> tuple[dict[str, Any], np.random.Generator | None]:
    """The setup of a game begun by `new_game` or `from_deal` (already checked), and the
    caller's own Generator when `seed` is one (see `serialization.to_dict`). A seed None
    draws a fresh 128-bit seed, which the setup keeps, so every game can be replayed. A game
    mano a mano keeps "players": 2 in its setup (four players need no such field), a short
    game "hands", its number of hands (docs/rules.md#truco-short-game; a game to 12 has none)."""
    shared = seed if isinstance(seed, np.random.Generator) else None
    if shared is not None and type(shared.bit_generator) not in _SAVED_GENERATORS:
        # not one a save names: a seed from it (`seed` is that Generator here)
        shared, seed = None, int(seed.integers(2 ** 63))  # type: ignore[union-attr]
    if shared is None and seed is None:
        seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    generator = shared if shared is not None else make_rng(seed)  # checks the seed
    saved = {"variant": variant.key, "tie_lead": tie_lead, "score": [score[0], score[1]],
             "dealer": dealer, "deals": [{"hands": [[CARD_TEXT[c] for c in h] for h in hands],
                                          "vira": None if vira is None else CARD_TEXT[vira]}
                                         for hands, vira in deals],
             # without a shared Generator, `seed` is a whole number here (make_rng checked it)
             "seed": None if shared is not None else int(seed), "rng": None}  # type: ignore[arg-type]
    if players != 4:
        saved["players"] = players
    if hands is not None:
        saved["hands"] = hands
    return {"variant": variant, "tie_lead": tie_lead, "score": tuple(score), "dealer": dealer,
            "forced": list(deals), "generator": generator, "saved": saved,
            "players": players, "hands": hands}, shared


def new_game(variant: Variant | str, seed: int | np.random.Generator | None = None, *,
             tie_lead: str = "leader", players: int = 4, hand_limit: int | None = None) -> TrucoState:
    """A new game to 12 (or, with `hand_limit`, a short game of that many hands, 1..MAX_HANDS:
    docs/rules.md#truco-short-game): the first dealer is drawn by lot, then the first hand is dealt.

    `seed` (None, a whole number or a numpy Generator; see `cartas.cards.make_rng`) drives
    every shuffle, so a seed replays a game. `tie_lead`: who leads after a tied trick,
    "leader" (of the tied trick, the default) or "first_tying" (the player who played the
    first of the tying cards). `players`: 4 (two pairs, the default) or 2 (mano a mano,
    docs/rules.md#mano-a-mano-players); anything else is a TrucoError "bad_players".
    Decided: docs/rules.md#truco-dealer.
    """
    variant = get_variant(variant)
    check_tie_lead(tie_lead)
    players = check_players(players)
    setup, shared = _setup_of(variant, tie_lead, seed, players=players, hands=check_hands(hand_limit))
    return _start(setup, shared)


def _card_index(card: object, seat: int | None = None) -> int:
    """The pack index of a card given in `seat`'s hand (or as the vira if seat is None)."""
    index = _TEXT_INDEX.get(card) if isinstance(card, str) else _ID_INDEX.get(id(card))
    if index is not None:  # the exact text ("7♥"), as saved games write it, or the pack's own card
        return index
    place = "vira" if seat is None else "hand"
    try:
        card = Card.parse(card)
    except ValueError:
        raise TrucoError("unreadable_card", text=str(card)[:40], seat=seat, place=place) from None
    if card not in CARD_INDEX:
        raise TrucoError("card_not_in_pack", card=str(card), seat=seat, place=place)
    return CARD_INDEX[card]


def _check_score(score: object, variant: Variant) -> tuple[int, int]:
    top = variant.target - 1
    ok = isinstance(score, (tuple, list)) and len(score) == 2 and all(
        isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= top for p in score)
    if not ok:
        raise TrucoError("bad_score", top=top, score=repr(score)[:40])
    return (score[0], score[1])  # type: ignore[index]  # ok: a list or tuple of two


def from_deal(variant: Variant | str, hands: Sequence[Sequence[Card | str] | str], vira: Card | str | None = None,
              dealer: int = 0, score: Sequence[int] = (0, 0), *,
              seed: int | np.random.Generator | None = None,
              tie_lead: str = "leader", players: int = 4, hand_limit: int | None = None) -> TrucoState:
    """A game that starts from a chosen hand, e.g. for a lesson scenario.

    `hands`: four hands of three cards in seat order (two mano a mano, `players` 2) (Card or
    text such as "7♥"), or a text per hand such as "3♦ 4♠ 5♥" (read by
    `cartas.cards.parse_cards`); `vira`: required for Paulista, not allowed for Mineiro;
    `dealer`: 0..3 (0..1 mano a mano); `score`: the points of team 0 and team 1 before the
    hand (11 x 5 makes a mão de onze, 11 x 11 a mão de ferro). `hand_limit`: a short game's
    number of hands (as `new_game`), this hand the first of them.
    Later hands are dealt from `seed`. Raises TrucoError for an impossible deal.
    """
    variant = get_variant(variant)
    players = check_players(players)
    idx_hands, vira_idx = _check_deal(variant, hands, vira, players)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise TrucoError("bad_dealer", dealer=repr(dealer)[:40], top=players - 1)
    score = _check_score(score, variant)
    check_tie_lead(tie_lead)
    setup, shared = _setup_of(variant, tie_lead, seed, score, dealer, ((idx_hands, vira_idx),),
                              players, check_hands(hand_limit))
    return _start(setup, shared)


def _check_deal(variant: Variant, hands: object, vira: object,
                players: int = 4) -> tuple[list[list[int]], int | None]:
    """One hand of three cards per player (four; two mano a mano) and the vira (Paulista
    only) as `from_deal` takes them, as pack indexes; TrucoError for an impossible deal."""
    if not isinstance(hands, (list, tuple)):
        raise TrucoError("not_hands", value=repr(hands)[:40])
    if len(hands) != players:
        raise TrucoError("four_hands" if players == 4 else "two_hands", n=len(hands))
    idx_hands = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, str):  # one text per hand, e.g. "3♦ 4♠ 5♥"
            try:
                hand = parse_cards(hand)
            except ValueError:
                raise TrucoError("unreadable_card", text=hand[:40], seat=seat,
                                 place="hand") from None
        elif isinstance(hand, Card):
            hand = [hand]
        elif not isinstance(hand, (list, tuple)):
            raise TrucoError("not_hands", value=repr(hand)[:40])
        if len(hand) != 3:
            raise TrucoError("three_cards", seat=seat, n=len(hand))
        idx_hands.append([_card_index(c, seat) for c in hand])
    flat = [c for h in idx_hands for c in h]
    if len(set(flat)) != len(flat):
        dup = next(CARD_TEXT[c] for c in flat if flat.count(c) > 1)
        raise TrucoError("dealt_twice", card=dup, n=len(flat))
    vira_idx = None
    if variant.uses_vira:
        if vira is None:
            raise TrucoError("needs_vira")
        vira_idx = _card_index(vira)
        if vira_idx in flat:
            raise TrucoError("vira_in_hand", card=CARD_TEXT[vira_idx])
    elif vira is not None:
        raise TrucoError("mineiro_no_vira")
    return idx_hands, vira_idx
