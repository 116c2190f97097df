"""Truco bots: `RandomBot`, the rule-based `RuleBot` and the beginner `EasyBot`, plus
`play_game` (the strong player is `cartas.truco.strong.StrongBot`).

A bot's `choose(view)` gets `state.view(seat)` and returns one of the view's legal actions
(`cartas.contract.Bot`). Bots see only what their seat may see, and a bot is deterministic
given its seed: every draw comes from its own seeded `numpy.random.Generator`
(`cartas.cards.make_rng`: a seed is None, a whole number or a Generator to share).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..cards import TRUCO_PACK, Card, make_rng
from .actions import ACCEPT, PLAY_HAND, RUN, RUN_HAND, Action
from .errors import TrucoError
from .rules import hand_status
from .state import TrucoState, new_game
from .variants import Variant, strength_table
from .views import SeatView

if TYPE_CHECKING:
    import numpy as np

    from ..contract import Bot

    # one bot per seat: a list of four, or {seat: bot}
    BotsBySeat = Sequence[Bot] | Mapping[int, Bot]

MANILHA = 10   # strengths 10..13 are the manilhas (see variants.strength_table)
THREE = 9      # a 3, the best ordinary card
ACE = 7


def _as_view(obj: object) -> SeatView:
    if not isinstance(obj, SeatView):
        raise TrucoError("bot_input", value=type(obj).__name__)
    if not obj.legal:
        raise TrucoError("no_legal_action")
    return obj


class RandomBot:
    """Picks uniformly among the legal actions."""

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self.rng = make_rng(seed)

    def choose(self, view: object) -> Action:
        legal = _as_view(view).legal
        return legal[int(self.rng.integers(len(legal)))]


class RuleBot:
    """Plays sensibly: wins a trick as cheaply as it can, saves its manilhas, raises and
    accepts by the strength of its hand, and decides a mão de onze/dez from both partners'
    cards. `bluff` is the chance of raising on a weak hand."""

    def __init__(self, seed: int | np.random.Generator | None = None, bluff: float = 0.05) -> None:
        self.rng = make_rng(seed)
        self.bluff = bluff

    # -- entry point ----------------------------------------------------------------------
    def choose(self, view: object) -> Action:
        v = _as_view(view)
        legal = v.legal
        table = strength_table(v.variant, v.vira)
        if v.phase == "decide":
            return self._decide(v, table)
        if v.phase == "answer":
            return self._answer(v, table, legal)
        if v.is_mao_de_ferro:  # nothing to see: any position is as good as another
            return legal[int(self.rng.integers(len(legal)))]
        raise_action = next((a for a in legal if a.kind == "raise"), None)
        if raise_action is not None and v.mode == "normal" and self._wants_raise(v, table):
            return raise_action
        return self._play_card(v, table, legal)

    # -- judging the hand ---------------------------------------------------------------
    @staticmethod
    def _power(cards: Iterable[Card | None], table: Mapping[Card, int]) -> int:
        """Rough worth of some cards: only an ace or better counts; manilhas count most."""
        return sum(max(0, table[c] - 6) for c in cards if c is not None)

    def _tricks(self, v: SeatView) -> tuple[int, int]:
        won = sum(1 for r in v.trick_results if r == v.team)
        lost = sum(1 for r in v.trick_results if r is not None and r != v.team)
        return won, lost

    def _confidence(self, v: SeatView, table: Mapping[Card, int]) -> int:
        """A score of how likely this team takes the hand, from own cards and tricks so far."""
        mine = [c for c in v.hand if c is not None]
        strengths = sorted((table[c] for c in mine), reverse=True)
        won, lost = self._tricks(v)
        score = self._power(mine, table) + 5 * (won - lost)
        if v.trick_results and v.trick_results[0] is None and strengths:
            score += 3 if strengths[0] >= THREE else 0  # after a tie the best card decides
        # The card already on the table for this trick counts too.
        for seat, card in v.current_trick:
            if card is not None and v.team_of(seat) == v.team and seat != v.seat:
                score += max(0, table[card] - 7)
        return score

    def _wants_raise(self, v: SeatView, table: Mapping[Card, int]) -> bool:
        need = 9 + 2 * v.variant.ladder.index(v.variant.next_value(v.hand_value))
        if self._confidence(v, table) >= need:
            return True
        return bool(self.rng.random() < self.bluff)

    def _answer(self, v: SeatView, table: Mapping[Card, int], legal: Sequence[Action]) -> Action:
        pending = v.pending_raise
        # answering: this seat's team has a raise to answer
        assert pending is not None and v.team is not None
        opponents = 1 - v.team
        # Running would hand them the game anyway: accept.
        if v.score[opponents] + v.hand_value >= v.variant.target:
            return ACCEPT
        step = v.variant.ladder.index(pending["value"])
        confidence = self._confidence(v, table)
        reraise = next((a for a in legal if a.kind == "raise"), None)
        if reraise is not None and confidence >= 13 + 2 * step:
            return reraise
        if confidence >= 5 + 2 * step:
            return ACCEPT
        return RUN

    def _decide(self, v: SeatView, table: Mapping[Card, int]) -> Action:
        assert v.team is not None  # a bot sits at a seat
        cards = [c for c in v.hand + _partner_hand(v) if c is not None]
        manilhas = sum(1 for c in cards if table[c] >= MANILHA)
        strong = sum(1 for c in cards if table[c] >= ACE)
        # Running gives them little; play with two strong cards per trick to win.
        behind = v.score[1 - v.team]
        if manilhas >= 2 or strong >= 4 or (manilhas and strong >= 3) or behind <= 3 and strong >= 3:
            return PLAY_HAND
        return RUN_HAND

    # -- playing a card -----------------------------------------------------------------
    def _play_card(self, v: SeatView, table: Mapping[Card, int], legal: Sequence[Action]) -> Action:
        # a play or cover action always holds its card (never None)
        plays: dict[Card, Action] = {a.card: a for a in legal if a.kind == "play"}  # type: ignore[misc]
        covers: dict[Card, Action] = {a.card: a for a in legal if a.kind == "cover"}  # type: ignore[misc]
        mine = sorted(plays, key=lambda c: table[c])
        lowest, highest = mine[0], mine[-1]
        trick = v.current_trick
        if not trick:
            if not v.trick_results:
                ordinary = [c for c in mine if table[c] < MANILHA]
                return plays[ordinary[-1] if ordinary else lowest]
            return plays[highest]
        opp_best = max((table[c] for s, c in trick if c is not None and v.team_of(s) != v.team),
                       default=-1)
        mate_best = max((table[c] for s, c in trick if c is not None and v.team_of(s) == v.team),
                        default=-1)
        last = len(trick) == v.players - 1
        if mate_best > opp_best and (last or mate_best >= THREE):
            return covers.get(lowest) or plays[lowest]  # partner holds it: hide a throwaway
        winners = [c for c in mine if table[c] > opp_best]
        partner_to_play = len(trick) == 1 and v.partner is not None  # none mano a mano
        if winners:
            cheapest = winners[0]
            if (table[cheapest] >= MANILHA and partner_to_play and not v.trick_results
                    and mate_best < 0 and len(winners) < len(mine)):
                return plays[lowest]  # save the manilha: the partner may still take it
            return plays[cheapest]
        won, _ = self._tricks(v)
        tying = [c for c in mine if table[c] == opp_best]
        if tying and (won or not v.trick_results):
            return plays[tying[0]]  # a tie after winning a trick takes the hand
        return covers.get(lowest) or plays[lowest]


def _partner_hand(v: SeatView) -> tuple[Card | None, ...]:
    """The partner's hand as the seat sees it; () mano a mano, where nobody has a partner
    (docs/rules.md#mano-a-mano-threshold: the player at 11/10 decides from her own cards)."""
    return () if v.partner is None else v.hands[v.partner]


def hand_is_won(v: SeatView, table: Mapping[Card, int]) -> bool:
    """Whether the seat's team takes the hand whatever the cards it has not seen: its best
    card in this trick (on the table, or still in the seat's hand when it has yet to play)
    beats every card an opponent still to play could hold and every opponent's card on the
    table, and taking this trick ends the hand for its team (`rules.hand_status`)."""
    if v.team is None or v.is_mao_de_ferro or not v.hand and not v.current_trick:
        return False
    team = v.team
    known = {c for c in v.hand if c is not None}
    known.update(c for h in v.hands for c in h if c is not None)
    known.update(c for trick in v.tricks for _, c in trick if c is not None)
    known.update(c for _, c in v.current_trick if c is not None)
    if v.vira is not None:
        known.add(v.vira)
    trick = v.current_trick
    played = {s for s, _ in trick}
    theirs = [table[c] for s, c in trick if c is not None and v.team_of(s) != team]
    ours = [table[c] for s, c in trick if c is not None and v.team_of(s) == team]
    if v.seat not in played:
        ours += [table[c] for c in v.hand if c is not None]
    if any(s not in played and v.team_of(s) != team for s in range(v.players)):
        theirs += [table[c] for c in TRUCO_PACK if c not in known]
    if not ours or max(ours) <= max(theirs, default=-1):
        return False
    finished, winner = hand_status([*v.trick_results, team])
    return finished and winner == team


class EasyBot(RuleBot):
    """A beginner a learner can beat and learn from. It follows the rules and never plays
    an absurd move, but it makes a beginner's mistakes:

    - cards: it plays its strongest card early: it leads with it, and whenever its strongest
      card beats the other team's best on the table it plays that one, even over its
      partner's winning card and rather than the cheapest card that would do (so it never
      saves its manilhas); it throws its lowest card when it cannot beat them, or when it
      plays last and its partner already holds the trick; it never plays face down;
    - truco: it calls on a hunch: whenever it may raise and holds a manilha or a 3 (however
      weak the rest), one time in ten (`hunch`, drawn from its seeded generator);
    - answering a raise: it accepts every raise, whatever its cards (it never runs, so it
      never runs from a hand its team has already won, nor when running would hand the other
      team the game), and it never raises again;
    - mão de onze/dez: it plays the hand whenever the two hands hold a manilha or three
      cards of an ace or better between them (too eagerly), and otherwise runs;
    - mão de ferro: any card, as every card is unseen.
    """

    def __init__(self, seed: int | np.random.Generator | None = None, hunch: float = 0.1) -> None:
        super().__init__(seed, bluff=0.0)
        self.hunch = hunch

    def _wants_raise(self, v: SeatView, table: Mapping[Card, int]) -> bool:
        if not any(table[c] >= THREE for c in v.hand if c is not None):
            return False
        return bool(self.rng.random() < self.hunch)

    def _answer(self, v: SeatView, table: Mapping[Card, int], legal: Sequence[Action]) -> Action:
        return ACCEPT

    def _decide(self, v: SeatView, table: Mapping[Card, int]) -> Action:
        cards = [table[c] for c in v.hand + _partner_hand(v) if c is not None]
        if any(s >= MANILHA for s in cards) or sum(1 for s in cards if s >= ACE) >= 3:
            return PLAY_HAND
        return RUN_HAND

    def _play_card(self, v: SeatView, table: Mapping[Card, int], legal: Sequence[Action]) -> Action:
        plays: dict[Card, Action] = {a.card: a for a in legal if a.kind == "play" and a.card is not None}
        mine = sorted(plays, key=lambda c: table[c])
        lowest, highest = mine[0], mine[-1]
        trick = v.current_trick
        if not trick:
            return plays[highest]
        opp_best = max((table[c] for s, c in trick if c is not None and v.team_of(s) != v.team),
                       default=-1)
        mate_best = max((table[c] for s, c in trick if c is not None and v.team_of(s) == v.team),
                        default=-1)
        if mate_best > opp_best and len(trick) == v.players - 1:
            return plays[lowest]
        return plays[highest] if table[highest] > opp_best else plays[lowest]


def play_game(variant: Variant | str, bots_by_seat: BotsBySeat, seed: int | np.random.Generator | None = None,
              **options: Any) -> TrucoState:
    """Play a whole game with one bot per seat (a list of four, or a dict seat -> bot);
    returns the final state. `options` go to `new_game` (e.g. tie_lead, players)."""
    state = new_game(variant, seed, **options)
    return play_out(state, bots_by_seat)


def play_out(state: TrucoState, bots_by_seat: BotsBySeat) -> TrucoState:
    """Let the bots play `state` to the end (in place) and return it."""
    bots = [bots_by_seat[s] for s in range(state.players)]
    while not state.is_terminal():
        seat = state.current_seat
        assert seat is not None  # a game not over has a seat to act
        state.apply_action(bots[seat].choose(state.view(seat)))
    return state
