"""The 21 coach: hit or stand for a player, draw or call for the banker, from exact odds.

Every figure is an exhaustive enumeration over the cards the seat has not seen (by value
class, as in `cartas.vinte_e_um.odds`), so the same position always gets the same advice.

Decided rules:

- Player. Standing wins with `odds.win_probability` (the banker draws below `draw_below`,
  17 by default, from his face-up cards and his face-down one; ties go to the bank). Hitting
  is worth the average, over the next card, of the better of standing and hitting again,
  card after card (a bust loses). For the cards after standing now, the banker's final
  totals are taken as the player sees them now: the player's own later cards change the
  unseen cards the banker draws from only slightly, and following them would cost seconds.
  Expected chips = bet x (2 x chance of winning - 1), since a bet is won or lost even money.
  Advice: hit when hitting wins more often.
- Banker. Calling now wins each uncalled player's bet when the player's total is not above
  his (ties go to the bank); the player's face-down card(s) are the unseen cards, and a player
  still in the round has not gone over 21. Each player is weighed on his own (his hidden card
  drawn from the unseen cards; the other players' hidden cards are not taken out, a small
  approximation). Drawing is worth the average, over the next card, of the better of calling
  and drawing again; a bust pays every uncalled player. Advice: draw when it wins more chips
  on average.
- As good as the advice (docs/rules.md#homework-near-best): the chances are exact, so no
  estimate's uncertainty separates two answers; a player's answer whose chance of winning is
  no more than `AS_GOOD` (2 percentage points) below the advised one's is counted as good as it
  (`as_good`). The banker's answers are weighed in chips, not chances: only the advised one.
"""
from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from ..cards import Card
from ..vinte_e_um.catalogue import CATALOGUE
from ..vinte_e_um.errors import VinteEUmError
from ..vinte_e_um.odds import BUST, banker_distribution_array, unknown_counts, win_probability
from ..vinte_e_um.scoring import HARD_VALUES, VALUE_CLASSES, check_ace, points, total, value_class

_T = TypeVar("_T")
# a player still to be called, as `advise_banker` takes it: (face-up cards, face-down count, bet)
PlayerToCall = tuple[Sequence[Card | str], int, int]

BANKER_DEPTH = 3  # further cards the banker weighs after the first draw
AS_GOOD = 0.02    # a player's answer this close to the advised one's chance of winning is as good

@dataclass
class Advice21:
    """action: "hit", "stand", "draw" or "call"; options: {answer: {"win"?, "expected"}}
    (win: the chance of winning the bet, for a player; expected: average chips won);
    reason: the catalogue key of the sentence saying why, less its "coach_" prefix, and fields
    its values (("%", p) or ("chips", x), written per language); seconds: time taken."""

    action: str
    options: dict[str, dict[str, float]]
    reason: str
    fields: dict[str, tuple[str, float]] = field(default_factory=dict)
    seconds: float = 0.0

    def text(self, lang: str = "pt") -> str:
        return CATALOGUE.say(f"coach_{self.reason}", lang,
                             **{k: _fmt(v, lang) for k, v in self.fields.items()})


def _fmt(value: tuple[str, float], lang: str) -> str:
    kind, number = value
    text = f"{100 * number:.1f}%" if kind == "%" else f"{number:+.2f}"
    return text.replace(".", ",") if lang == "pt" else text


# -- player -----------------------------------------------------------------------------------

def advise_player(hand: Sequence[Card | str], banker_visible: Sequence[Card | str] = (),
                  seen: Sequence[Card | str] = (), hidden: int = 1, bet: int = 1, ace: int | str = 1, decks: int = 1,
                  draw_below: int = 17, face_down: int = 0) -> Advice21:
    """Hit or stand for a player holding `hand` (face-down card included).

    banker_visible: the banker's face-up cards; hidden: how many he holds face down;
    seen: every other card this player has seen (not the hand's, not the banker's).
    face_down: 1 when the hand's first card is still face down, and the banker is taken to
    play by the banker's rules of the table (`rule_banker_stops`) rather than "draw below
    `draw_below`"; 0: "draw below `draw_below`"."""
    start = time.perf_counter()
    ace = check_ace(ace)
    cards: list[Card] = [Card.parse(c) if isinstance(c, str) else c for c in hand]
    hand = cards
    banker_cards: list[Card] = [Card.parse(c) if isinstance(c, str) else c for c in banker_visible]
    banker_visible = banker_cards
    seen_cards: list[Card] = [Card.parse(c) if isinstance(c, str) else c for c in seen]
    seen = seen_cards
    under = hidden > 0
    p_stand = win_probability(hand, banker_visible, seen, hidden, draw_below, ace, decks, under)
    # The banker's final totals as this player sees them now; later cards of the player
    # change the unseen cards the banker draws from only slightly, and are not followed.
    counts0 = tuple(int(c) for c in unknown_counts(cards + banker_cards + seen_cards, decks))
    if face_down:
        stops = rule_banker_stops(cards, counts0, ace)
        vecs = {below: banker_distribution_array(banker_cards, cards + seen_cards, hidden, below, ace, decks, under)
                for below in set(stops)}
        wins_at = [float(vecs[stops[t]][BUST] + vecs[stops[t]][:t].sum()) for t in range(22)]
        p_stand = wins_at[min(points(hand, ace), 21)]
    else:
        vec = banker_distribution_array(banker_cards, cards + seen_cards, hidden, draw_below, ace, decks,
                                        under)
        wins_at = [float(vec[BUST] + vec[:t].sum()) for t in range(22)]
    memo: dict[tuple[int, int, tuple[int, ...]], float] = {}

    def best(h: int, a: int, counts: tuple[int, ...]) -> float:
        t = total(h, a, ace)
        if t > 21:
            return 0.0
        key = (h, a, counts)
        if key not in memo:
            memo[key] = max(wins_at[t], hit(h, a, counts)) if t < 21 else wins_at[t]
        return memo[key]

    def hit(h: int, a: int, counts: tuple[int, ...]) -> float:
        n = sum(counts)
        if n == 0:
            return wins_at[min(total(h, a, ace), 21)]
        value = 0.0
        for cls, c in enumerate(counts):
            if c:
                rest = counts[:cls] + (c - 1,) + counts[cls + 1:]
                value += c / n * best(h + HARD_VALUES[cls], a + (cls == 0), rest)
        return value

    hard = sum(HARD_VALUES[value_class(c)] for c in hand)
    aces = sum(value_class(c) == 0 for c in hand)
    p_hit = hit(hard, aces, counts0) if points(hand, ace) < 21 else 0.0
    options = {"stand": {"win": p_stand, "expected": bet * (2 * p_stand - 1)},
               "hit": {"win": p_hit, "expected": bet * (2 * p_hit - 1)}}
    action = "hit" if p_hit > p_stand + 1e-12 else "stand"
    return Advice21(action, options, action, {"stand": ("%", p_stand), "hit": ("%", p_hit)},
                    time.perf_counter() - start)


def rule_banker_stops(hand: Sequence[Card], counts: Sequence[int], ace: int | str) -> list[int]:
    """For each final total t (0..21) of a player holding `hand` whose first card is face
    down: the `draw_below` of the banker's rules of the table (the rule-following banker,
    `bots.SensibleBot`) against it. He reckons the hand by its face-up points plus the average
    card he has not seen for the face-down one (an ace as 11 unless aces count 1), draws
    while his total is below that reckoning, and never when a card would bust him more often
    than not. Each card the player takes adds to both her total and the reckoning, so the
    reckoning of a final total t is t less what the face-down card is worth over the average.
    `counts`: the cards the player has not seen, by value class (the banker has not seen her
    face-down card either)."""
    theirs = list(counts)
    theirs[value_class(hand[0])] += 1
    values = np.array(HARD_VALUES, dtype=float)
    if check_ace(ace) != 1:
        values[0] = 11.0
    n = sum(theirs)
    average = float(np.dot(theirs, values) / n) if n else 6.5
    over = points(hand, ace) - points(hand[1:], ace) - average  # what the face-down card adds over the average
    cap = next((h for h in range(1, 22)
                if sum(c for cls, c in enumerate(theirs) if HARD_VALUES[cls] > 21 - h) * 2 >= n), 21)
    return [max(1, min(math.ceil(t - over - 1e-9), cap)) for t in range(22)]


# -- banker -----------------------------------------------------------------------------------

def _player_totals(counts: np.ndarray, up_hard: int, up_aces: int, hidden: int, ace: int | str) -> dict[int, float]:
    """Distribution {total: p} of a player's final total, given he is not over 21."""
    dist = {(up_hard, up_aces): 1.0}
    left = counts.astype(float)
    for _ in range(hidden):
        n = left.sum()
        nxt: dict[tuple[int, int], float] = {}
        for (h, a), p in dist.items():
            for cls in range(VALUE_CLASSES):
                if left[cls]:
                    key = (h + HARD_VALUES[cls], a + (cls == 0))
                    nxt[key] = nxt.get(key, 0.0) + p * left[cls] / n
        dist = nxt
    out: dict[int, float] = {}
    for (h, a), p in dist.items():
        t = total(h, a, ace)
        if t <= 21:
            out[t] = out.get(t, 0.0) + p
    mass = sum(out.values())
    return {t: p / mass for t, p in out.items()} if mass else {}


def advise_banker(hand: Sequence[Card | str], players: Sequence[PlayerToCall], seen: Sequence[Card | str] = (),
                  ace: int | str = 1, decks: int = 1) -> Advice21:
    """Draw or call for the banker holding `hand`.

    players: one (face-up cards, face-down count, bet) per player still to be called;
    seen: every other card the banker has seen (not his hand, not those face-up cards)."""
    start = time.perf_counter()
    ace = check_ace(ace)
    hand = [Card.parse(c) if isinstance(c, str) else c for c in hand]
    players = [([Card.parse(c) if isinstance(c, str) else c for c in up], hidden, bet)
               for up, hidden, bet in players]
    if not players:
        raise VinteEUmError("coach_nobody_to_call")
    visible = [c for up, _, _ in players for c in up]
    base = unknown_counts(hand + visible + [Card.parse(c) if isinstance(c, str) else c
                                            for c in seen], decks)
    hard = sum(HARD_VALUES[value_class(c)] for c in hand)
    aces = sum(value_class(c) == 0 for c in hand)
    stake = sum(bet for _, _, bet in players)
    shown = [(sum(HARD_VALUES[value_class(c)] for c in up), sum(value_class(c) == 0 for c in up),
              hidden, bet) for up, hidden, bet in players]

    def call_value(counts: np.ndarray, mine: int) -> float:
        value = 0.0
        for up_hard, up_aces, hidden, bet in shown:
            dist = _player_totals(counts, up_hard, up_aces, hidden, ace)
            beat = sum(p for t, p in dist.items() if t <= mine)
            value += bet * (2 * beat - 1)
        return value

    memo: dict[tuple[tuple[int, ...], int, int, int], float] = {}

    def draw_value(counts: np.ndarray, h: int, a: int, depth: int) -> float:
        key = (tuple(counts), h, a, depth)
        if key in memo:
            return memo[key]
        n = counts.sum()
        if n == 0:
            return call_value(counts, total(h, a, ace))
        value = 0.0
        for cls in range(VALUE_CLASSES):
            if not counts[cls]:
                continue
            rest = counts.copy()
            rest[cls] -= 1
            nh, na = h + HARD_VALUES[cls], a + (cls == 0)
            mine = total(nh, na, ace)
            if mine > 21:
                best = -float(stake)
            else:
                best = call_value(rest, mine)
                if depth > 0 and mine < 21:
                    best = max(best, draw_value(rest, nh, na, depth - 1))
            value += counts[cls] / n * best
        memo[key] = value
        return value

    mine = total(hard, aces, ace)
    call = call_value(base, mine) if mine <= 21 else -float(stake)
    draw = draw_value(np.array(base), hard, aces, BANKER_DEPTH - 1) if mine < 21 else -float(stake)
    call, draw = float(call), float(draw)
    options = {"call": {"expected": call}, "draw": {"expected": draw}}
    action = "draw" if draw > call + 1e-12 else "call"
    return Advice21(action, options, action, {"call": ("chips", call), "draw": ("chips", draw)},
                    time.perf_counter() - start)


# -- from a seat's view ----------------------------------------------------------------------

def _without(cards: Iterable[_T], taken: Iterable[_T]) -> list[_T]:
    """`cards` less one copy of each card of `taken` (a multiset difference)."""
    rest = list(cards)
    for c in taken:
        if c in rest:
            rest.remove(c)
    return rest


# view: Any, not SeatView: it is a seat's own view (`seat` a number, its own cards all
# known), which SeatView's types (spectators, "all", hidden cards) do not say
def advise_view(view: Any) -> Advice21 | None:
    """The advice for the decision a 21 `SeatView` (`state.view(seat)`) is at: hit or stand
    for a player, draw or call for the banker; None at any other decision (a bet, the bank).

    Read from the view only: the seat's own cards, the face-up cards of the others (face-down
    ones are None), `seen` (every card the seat can see, the collected ones too), the bets and
    the table's ace and decks. Only what the seat may see is used."""
    kinds = {a.kind for a in view.legal_actions()}
    seat = view.seat
    mine = list(view.hands[seat])
    if kinds & {"hit", "stand"}:
        banker = view.hands[view.banker]
        up = [c for c in banker if c is not None]
        seen = _without(view.seen, mine + up)
        return advise_player(mine, up, seen, hidden=sum(c is None for c in banker),
                             bet=max(1, view.bets[seat]), ace=view.ace, decks=view.decks,
                             face_down=int(bool(view.face_down[seat])))
    if kinds & {"draw", "call"}:
        players, shown = [], []
        for s in view.uncalled:
            up = [c for c in view.hands[s] if c is not None]
            players.append((up, sum(c is None for c in view.hands[s]), view.bets[s]))
            shown += up
        if not players:
            return None
        return advise_banker(mine, players, _without(view.seen, mine + shown), ace=view.ace,
                             decks=view.decks)
    return None


def as_good(advice: Advice21) -> list[str]:
    """The answers counted as good as the advice (see the module's rules): the advised one, and
    for a player the other whose chance of winning is at most AS_GOOD below it."""
    best = advice.options[advice.action].get("win")
    if best is None:
        return [advice.action]
    return [k for k, o in advice.options.items() if k == advice.action or best - o["win"] <= AS_GOOD + 1e-12]


def decision_question(view: Any) -> dict[str, Any] | None:
    """The coach's question at a 21 seat's `view` (`GameSpec.coach_question`): hit or stand
    (a player: the chance of winning each), draw or call (the banker: the expected chips);
    every answer as good as the coach's counts as right (`as_good`); None when the seat has
    neither decision now."""
    advice = advise_view(view)
    if advice is None:
        return None
    kinds = ("hit", "stand") if advice.action in ("hit", "stand") else ("draw", "call")
    seen = {"seat": view.seat, "hand": [str(c) for c in view.hands[view.seat]],
            "banker": [None if c is None else str(c) for c in view.hands[view.banker]]}
    player = kinds[0] == "hit"
    return {"question": "hit" if player else "banker", "options": list(kinds), "answer": advice.action,
            "seen": seen, "reason": {lang: advice.text(lang) for lang in ("pt", "en")},
            "figure": "win" if player else "chips",
            "values": {k: float(advice.options[k]["win" if player else "expected"]) for k in kinds},
            "accepted": as_good(advice)}
