"""The strong truco player's brain, `Judge`, and the player itself, `StrongBot`.

One brain: the strong bot plays the judge's choice and the coach (`cartas.coach.truco`)
reports that same choice with the judge's numbers, so they never disagree.

The judge weighs a `TrucoSpot` (`cartas.truco.spot`: what one seat knows, read from its
view alone, never a hidden card). It deals the cards the seat has not seen (the pack less
its own hand, its partner's when it may see them, every face-up card played and the vira)
to the other seats, as many as each still holds, `worlds` times over (a fixed number, drawn
from a seeded numpy Generator: the same spot and seed give the same choice, whatever the
hidden cards are). In each such world it plays the rest of the hand out with the rule-based
card play of `bots.RuleBot` (on strengths, fast) for every seat, and gives every option of
the decision (`Judge.verdict`) its chance of taking the hand (`Option.win`; `loss`: the
other team's) and its expected points (`Option.expected`, counted up to what each team lacks
to reach the target, `Judge.utility`: a won game is not risked for points it does not need).
The choice is the option with the most expected points, with these decided tie rules:

- a card: each distinct card it may play (and the lowest face down, where allowed) is
  played out in the same worlds; the card taking the hand most often (net of losses), the
  cheaper on a tie, unless it does no better than the rule-based card by more than
  `CARD_MARGIN` of the worlds (then the rule's card, which saves the good ones);
- truco (or a raise): the other team's answer is modelled in each world from the cards that
  world gives the answering seat, twice: as the rule-based bot answers (it runs with weak
  cards, so a bluff may pay) and as a bold player who never runs; a raise is worth the lesser
  of the two, and is asked when that beats not asking by `MARGIN` points (by anything when no
  world loses the hand), and always when its team has already won the hand; never in a mão de
  onze/dez (asking loses the game);
- answering a raise: the worlds are weighed by how likely the raising seat was to ask with
  the cards each gives it (the rule-based reason to ask, or a bluff, `BLUFF_WEIGHT`); it
  raises again when that beats accepting by `MARGIN` (by anything when no world loses), runs
  when running costs less; it never runs when running hands the other team the game, nor
  from a hand its team has already won;
- mão de onze/dez: it plays the hand (seeing its partner's cards) when playing is worth
  more on average than running; in a mão de ferro, where nothing is seen, any card does.

The seats at the table are the spot's (`TrucoSpot.players`: 4, or 2 mano a mano). The number
of worlds bounds the work, not the clock (`benchmarks/bot_strength.py` prints the mean and
p95 per decision on one core, `benchmarks/coach_speed.py` the coach's).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..cards import TRUCO_PACK, Card, make_rng
from .actions import ACCEPT, PLAY_HAND, RUN, RUN_HAND, Action
from .bots import THREE, _as_view
from .errors import TrucoError
from .rules import hand_status
from .spot import TrucoSpot, partner_seat, spot_from_view
from .variants import get_variant, strength_table

WORLDS = 320         # deals of the unseen cards per decision
MANILHA = 10
COVERED = -1
BLUFF_WEIGHT = 0.2   # how likely a world is where the raising seat had no reason to ask
MARGIN = 0.3         # how much more (in points) a raise must be worth to be asked
CARD_MARGIN = 0.04   # how much more often another card must take the hand than the rule's

Results = tuple[int | None, ...]  # each trick's winning team so far (None: tied)
_STATUS: dict[Results, tuple[bool, int | None]] = {}


def _status(results: Results) -> tuple[bool, int | None]:
    found = _STATUS.get(results)
    if found is None:
        found = _STATUS[results] = hand_status(results)
    return found


def rule_card(mine: list[int], trick: list[tuple[int, int]], results: Results, seat: int,
              players: int = 4) -> tuple[int, bool]:
    """`bots.RuleBot`'s card, on strengths: (the strength played, face down?). `mine` is the
    seat's hand, `trick` the (seat, strength or COVERED) played so far in this trick. Mano a
    mano (`players` 2) nobody is a partner: a manilha is never saved for one."""
    if len(mine) > 1:
        mine = sorted(mine)
    lowest = mine[0]
    may_cover = bool(results)
    if not trick:
        if not results:
            ordinary = [c for c in mine if c < MANILHA]
            return (ordinary[-1] if ordinary else lowest), False
        return mine[-1], False
    team = seat & 1
    opp = mate = -1
    for s, c in trick:
        if (s & 1) == team:
            mate = max(mate, c)
        else:
            opp = max(opp, c)
    if mate > opp and (len(trick) == players - 1 or mate >= THREE):
        return lowest, may_cover
    winners = [c for c in mine if c > opp]
    if winners:
        cheapest = winners[0]
        if (cheapest >= MANILHA and len(trick) == 1 and players > 2 and not results and mate < 0
                and len(winners) < len(mine)):
            return lowest, False
        return cheapest, False
    won = results.count(team)
    if opp in mine and (won or not results):
        return opp, False
    return lowest, may_cover


def play_rest(hands: list[list[int]], trick: list[tuple[int, int]], results: Results, nxt: int,
              first_tying: bool, players: int = 4) -> int | None:
    """Play the hand out under the rule-based card play; `hands` (seat -> strengths, changed
    in place), `trick` (changed too), `nxt` the seat to play next. The winning team, or None
    when nobody scores.

    Each card is `rule_card`'s, worked out here from each team's best card in the trick so
    far, kept as the trick goes (the judge's worlds play hundreds of thousands of cards)."""
    status, last = _status, players - 1
    for held in hands:  # each hand lowest first, once: a card taken out leaves it in order
        held.sort()
    while True:
        # each team's best card in the trick (-1, as `rule_card` counts it, when it has none
        # or only cards face down: the other team's best then takes the trick), and its seat
        best = [COVERED, COVERED]
        at = [0, 0]
        for s, c in trick:
            if c > best[s & 1]:
                best[s & 1], at[s & 1] = c, s
        n = len(trick)
        while n < players:
            seat = nxt
            held = hands[seat]
            team = seat & 1
            mate, opp = best[team], best[1 - team]
            mine = held
            lowest = mine[0]
            covered = False
            if not n:  # leading
                if results:
                    value = mine[-1]
                else:
                    ordinary = [c for c in mine if c < MANILHA]
                    value = ordinary[-1] if ordinary else lowest
            elif mate > opp and (n == last or mate >= THREE):
                value, covered = lowest, bool(results)
            else:
                cheapest = None
                for c in mine:
                    if c > opp:
                        cheapest = c
                        break
                if cheapest is not None:  # a manilha is saved for the partner still to play
                    saved = (cheapest >= MANILHA and n == 1 and players > 2 and not results and mate < 0
                             and lowest <= opp)
                    value = lowest if saved else cheapest
                elif opp in mine and (results.count(team) or not results):
                    value = opp
                else:
                    value, covered = lowest, bool(results)
            held.remove(value)
            played = COVERED if covered else value
            trick.append((seat, played))
            if played > best[team]:
                best[team], at[team] = played, seat
            n += 1
            nxt = seat + 1 if seat < last else 0
        result, nxt = _trick_end(best, at, trick, first_tying)
        results = results + (result,)
        finished, winner = status(results)
        if finished:
            return winner
        trick = []


def _trick_end(best: list[int], at: list[int], trick: list[tuple[int, int]],
               first_tying: bool) -> tuple[int | None, int]:
    """A finished trick's (winning team or None for a tie, the seat to lead the next), from
    each team's best card and its seat."""
    if best[0] > best[1]:
        return 0, at[0]
    if best[1] > best[0]:
        return 1, at[1]
    if first_tying and best[0] != COVERED:
        return None, next(s for s, c in trick if c == best[0])
    return None, trick[0][0]


def rule_confidence(hand: list[int], results: Results, team: int, trick: list[tuple[int, int]], seat: int) -> int:
    """`bots.RuleBot._confidence` on strengths, for a seat holding `hand`."""
    score = sum(max(0, c - 6) for c in hand)
    won = sum(1 for r in results if r == team)
    lost = sum(1 for r in results if r is not None and r != team)
    score += 5 * (won - lost)
    if results and results[0] is None and hand:
        score += 3 if max(hand) >= THREE else 0
    for s, c in trick:
        if c >= 0 and (s & 1) == team and s != seat:
            score += max(0, c - 7)
    return score


@dataclass(frozen=True)
class Option:
    """One option of a decision: the chance that the seat's team takes the hand (`win`) and
    that the other team does (`loss`) when it is chosen, and its expected points for the
    team (`expected`, counted up to what each team lacks to win the game)."""

    win: float
    loss: float
    expected: float


@dataclass
class Verdict:
    """The judge's answer for one decision.

    phase: "decide" (mão de onze/dez), "answer" (a raise) or "play";
    options: {label: Option} for every option weighed: "play_hand"/"run_hand";
        "accept"/"run"/"raise"; in play, "play <card>" and "cover <card>" for each distinct
        card and "ask"/"no_ask" when a raise is on offer (raising first or not; no_ask: the card's);
    choice: the label chosen; card: in play, the label of the card chosen (also when the
        choice is to raise first); rule_card: the rule-based card's label;
    won: the team has already taken the hand, whatever the cards it has not seen;
    forced: running would hand the other team the game; worlds: the deals weighed.
    cards: {label: (card, face down?)} for every card label.
    """

    phase: str
    options: dict[str, Option]
    choice: str
    card: str | None = None
    rule_card: str | None = None
    won: bool = False
    forced: bool = False
    worlds: int = 0
    cards: dict[str, tuple[Card, bool]] = field(default_factory=dict)


def card_label(card: Card, covered: bool) -> str:
    return f"{'cover' if covered else 'play'} {card}"


class Judge:
    """One decision's position (a `TrucoSpot`) in strengths, and the worlds dealt for it."""

    def __init__(self, spot: TrucoSpot, rng: np.random.Generator, worlds: int = WORLDS):
        variant = self.variant = get_variant(spot.variant)
        vira = None if spot.vira is None else Card.parse(spot.vira)
        table = self.strength = strength_table(variant, vira)
        self.spot = spot
        self.players = players = spot.players
        self.seat = seat = spot.seat
        self.team = seat & 1
        self.first_tying = spot.tie_lead == "first_tying"
        hand = [Card.parse(c) for c in spot.hand]
        if not hand and not spot.deciding and spot.pending is None:
            raise TrucoError("coach_no_card")  # a card to play, and none to play
        on_table = [(s, None if c is None else Card.parse(c)) for s, c in spot.table]
        across = partner_seat(seat, players)
        partner = None if spot.partner is None or across is None else [Card.parse(c) for c in spot.partner]
        known = hand + [c for _, c in on_table if c is not None] + [Card.parse(c) for c in spot.seen]
        known += ([vira] if vira is not None else []) + (partner or [])
        twice = next((c for i, c in enumerate(known) if c in known[:i]), None)
        if twice is not None:
            raise TrucoError("coach_card_twice", card=str(twice))
        self.mine = sorted(hand, key=lambda c: table[c])
        unseen = [table[c] for c in TRUCO_PACK if c not in set(known)]
        self.unseen = unseen
        self.trick = [(s, COVERED if c is None else table[c]) for s, c in on_table]
        self.results: Results = tuple(spot.results)
        done = len(self.results)
        played = {s for s, _ in on_table}
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.hands[seat] = [table[c] for c in self.mine]
        if partner is not None and across is not None:
            self.hands[across] = [table[c] for c in partner]
        self.hidden = [(s, 3 - done - (s in played)) for s in range(players)
                       if s != seat and not (s == across and partner is not None)]
        need = sum(n for _, n in self.hidden)
        if need > len(unseen):
            raise TrucoError("coach_too_few_unseen", unseen=len(unseen), need=need)
        order = np.argsort(rng.random((worlds, len(unseen))), axis=1)[:, :need]
        self.deals = np.array(unseen, dtype=np.int64)[order].tolist() if need else [[]] * worlds
        target = variant.target
        self.need = (target - spot.score[self.team], target - spot.score[1 - self.team])
        self._confidences: dict[tuple[int, int], int] = {}  # (world, seat) -> `_confidence`

    # -- the worlds ---------------------------------------------------------------------------
    def world(self, k: int) -> list[list[int]]:
        hands = [list(h) for h in self.hands]
        row, at = self.deals[k], 0
        for s, n in self.hidden:
            hands[s] = row[at:at + n]
            at += n
        return hands

    def next_seat(self) -> int:
        """The seat to play the next card of the trick (once a raise is answered)."""
        if self.trick:
            return (self.trick[-1][0] + 1) % self.players
        return self.seat if self.spot.leader is None else self.spot.leader

    def utility(self, points: float) -> float:
        """Points for the seat's team (negative: for the other), capped at what each lacks."""
        return min(points, self.need[0]) if points >= 0 else -min(-points, self.need[1])

    def outcomes(self, card: int | None, covered: bool = False, nxt: int | None = None) -> list[int]:
        """+1 / 0 / -1 per world: the team takes the hand / nobody does / the other team, when
        the seat plays `card` now (None: the hand goes on from seat `nxt`)."""
        out = []
        team, results, seat, players = self.team, self.results, self.seat, self.players
        for k in range(len(self.deals)):
            hands = self.world(k)
            trick = list(self.trick)
            start = nxt
            if card is not None:
                hands[seat].remove(card)
                trick.append((seat, COVERED if covered else card))
                start = (seat + 1) % players
            assert start is not None
            winner = play_rest(hands, trick, results, start, self.first_tying, players)
            out.append(0 if winner is None else 1 if winner == team else -1)
        return out

    def hand_is_won(self) -> bool:
        """Whether the team takes the hand whatever the cards the seat has not seen (as
        `bots.hand_is_won`): its best card in this trick beats every card an opponent still
        to play could hold and every opponent's card on the table, and taking this trick
        ends the hand for its team."""
        team, seat = self.team, self.seat
        played = {s for s, _ in self.trick}
        theirs = [c for s, c in self.trick if c != COVERED and (s & 1) != team]
        ours = [c for s, c in self.trick if c != COVERED and (s & 1) == team]
        if seat not in played:
            ours += self.hands[seat]
        if any(s not in played and (s & 1) != team for s in range(self.players)):
            theirs += self.unseen
        if not ours or max(ours) <= max(theirs, default=-1):
            return False
        finished, winner = hand_status([*self.results, team])
        return finished and winner == team

    # -- raises -------------------------------------------------------------------------------
    def answer_model(self, k: int, answering: int, value: int, raised_value: int, bold: bool) -> str:
        """How seat `answering` answers a raise to `raised_value` (the hand worth `value`
        before it) in world `k`: "accept", "run" or "raise": as the rule-based bot does, or
        (`bold`) never running."""
        spot, variant = self.spot, self.variant
        their = answering & 1
        if spot.score[1 - their] + value >= variant.target:
            return "accept"
        step = variant.ladder.index(raised_value)
        conf = self._confidence(k, answering)
        if variant.next_value(raised_value) is not None and conf >= 13 + 2 * step:
            return "raise"
        return "accept" if bold or conf >= 5 + 2 * step else "run"

    def _confidence(self, k: int, seat: int) -> int:
        """`rule_confidence` of `seat`'s hand in world `k` (worked out once per world and seat:
        both answer models of `raise_worth` read it)."""
        found = self._confidences.get((k, seat))
        if found is None:
            hand = self.world(k)[seat]
            found = self._confidences[k, seat] = rule_confidence(hand, self.results, seat & 1, self.trick, seat)
        return found

    def raise_worth(self, outcomes: list[int], value: int, raised: int, answering: int,
                    weights: list[float] | None = None) -> float:
        """Expected utility of raising a hand worth `value` to `raised` when the play then
        gives `outcomes`: the lesser of two models of the other team's answer, the
        rule-based one (which runs with weak cards) and a bold one that never runs, so a
        raise must pay whether or not they call it."""
        return min(self._raise_worth(outcomes, value, raised, answering, weights, bold)
                   for bold in (False, True))

    def _raise_worth(self, outcomes: list[int], value: int, raised: int, answering: int,
                     weights: list[float] | None, bold: bool) -> float:
        weights = weights or [1.0] * len(outcomes)
        total = run = 0.0
        again: list[tuple[float, int]] = []
        nxt = self.variant.next_value(raised)
        for k, r in enumerate(outcomes):
            w = weights[k]
            total += w
            answer = self.answer_model(k, answering, value, raised, bold)
            if answer == "run":
                run += w * self.utility(value)
            elif answer == "accept" or nxt is None:
                run += w * self.utility(raised * r)
            else:
                again.append((w, r))
        if again:
            mass = sum(w for w, _ in again)
            accept = sum(w * self.utility(nxt * r) for w, r in again) if nxt else 0.0
            fold = mass * self.utility(-raised)
            run += max(accept, fold)
        return run / total

    def _option(self, outcomes: Sequence[int], value: int, weights: Sequence[float] | None = None) -> Option:
        weights = weights or [1.0] * len(outcomes)
        mass = sum(weights)
        win = sum(w for w, r in zip(weights, outcomes) if r > 0) / mass
        loss = sum(w for w, r in zip(weights, outcomes) if r < 0) / mass
        expected = sum(w * self.utility(value * r) for w, r in zip(weights, outcomes)) / mass
        return Option(win, loss, expected)

    # -- the decisions ------------------------------------------------------------------------
    def verdict(self) -> Verdict:
        """Every option of the spot's decision weighed, and the choice (module docstring)."""
        spot = self.spot
        if spot.deciding:
            return self._decide()
        if spot.pending is not None:
            return self._answer()
        return self._play()

    def _decide(self) -> Verdict:
        variant = self.variant
        outcomes = self.outcomes(None, nxt=self.next_seat())
        play = self._option(outcomes, variant.threshold_value)
        run = Option(0.0, 1.0, self.utility(-variant.threshold_run_value))
        choice = "play_hand" if play.expected > run.expected else "run_hand"
        return Verdict("decide", {"play_hand": play, "run_hand": run}, choice, worlds=len(self.deals))

    def _answer(self) -> Verdict:
        spot, variant = self.spot, self.variant
        assert spot.pending is not None  # the answer phase has a raise pending
        raised = spot.pending
        players = self.players
        raiser = spot.raiser if spot.raiser is not None else (self.seat - 1) % players
        outcomes = self.outcomes(None, nxt=self.next_seat())
        step = variant.ladder.index(raised)
        weights = []
        for k in range(len(outcomes)):
            hand = self.world(k)[raiser]
            conf = rule_confidence(hand, self.results, raiser & 1, self.trick, raiser)
            weights.append(1.0 if conf >= 9 + 2 * step else BLUFF_WEIGHT)
        accept = self._option(outcomes, raised, weights)
        run_value = spot.hand_value if spot.run_value is None else spot.run_value
        run = Option(0.0, 1.0, self.utility(-run_value))
        options = {"accept": accept, "run": run}
        forced = spot.score[1 - self.team] + run_value >= variant.target
        won = self.hand_is_won()
        best, choice = accept.expected, "accept"
        if spot.next_raise is not None:
            worth = self.raise_worth(outcomes, raised, spot.next_raise, (self.seat + 1) % players, weights)
            options["raise"] = Option(accept.win, accept.loss, worth)
            if worth > best + (MARGIN if accept.loss else 0.0):
                best, choice = worth, "raise"
        if run.expected > best and not forced and not won:
            choice = "run"
        return Verdict("answer", options, choice, won=won, forced=forced, worlds=len(self.deals))

    def _play(self) -> Verdict:
        spot, table = self.spot, self.strength
        mine = self.hands[self.seat]
        may_cover = bool(self.results)
        keys: dict[tuple[int, bool], str] = {}
        cards: dict[str, tuple[Card, bool]] = {}
        for card in self.mine:  # the cheapest first: one card per strength
            key = (table[card], False)
            if key not in keys:
                keys[key] = card_label(card, False)
                cards[keys[key]] = (card, False)
        if may_cover:
            keys[(mine[0], True)] = label = card_label(self.mine[0], True)
            cards[label] = (self.mine[0], True)
        rule = rule_card(mine, self.trick, self.results, self.seat, self.players)
        if rule not in keys:
            rule = (rule[0], False)
        options: dict[str, Option] = {}
        net: dict[tuple[int, bool], int] = {}
        results: dict[tuple[int, bool], list[int]] = {}
        for key, label in keys.items():
            out = results[key] = self.outcomes(*key)
            net[key] = sum(out)
            options[label] = self._option(out, spot.hand_value)
        best = max(keys, key=lambda key: (net[key], -key[0], key[1]))
        if net[best] - net[rule] <= CARD_MARGIN * len(self.deals):
            best = rule  # no clearly better card: the rule's, which saves the good ones
        chosen = keys[best]
        choice = chosen
        won = self.hand_is_won()
        if spot.next_raise is not None and not spot.threshold:
            stay = options[chosen]
            worth = self.raise_worth(results[best], spot.hand_value, spot.next_raise,
                                     (self.seat + 1) % self.players)
            options["no_ask"] = stay
            options["ask"] = Option(stay.win, stay.loss, worth)
            if won or worth > stay.expected + (MARGIN if stay.loss else 0.0):
                choice = "ask"
        return Verdict("play", options, choice, card=chosen, rule_card=keys[rule], won=won,
                       worlds=len(self.deals), cards=cards)


def judge(spot: TrucoSpot, seed: int | np.random.Generator | None = 0, worlds: int = WORLDS) -> Verdict:
    """The judge's verdict on `spot`, its worlds drawn from `seed` (a seed or a Generator)."""
    return Judge(spot, make_rng(seed), worlds).verdict()


class StrongBot:
    """The strongest truco level: plays the judge's choice (see the module docstring), from
    its seat's view alone. Deterministic given `seed`."""

    def __init__(self, seed: int | np.random.Generator | None = None, worlds: int = WORLDS) -> None:
        self.rng = make_rng(seed)
        self.worlds = worlds

    def choose(self, view: object) -> Action:
        v = _as_view(view)
        legal = v.legal
        if v.is_mao_de_ferro:
            return legal[int(self.rng.integers(len(legal)))]
        if len(legal) == 1:
            return legal[0]
        verdict = Judge(spot_from_view(v), self.rng, self.worlds).verdict()
        return action_of(verdict, legal)


def action_of(verdict: Verdict, legal: Sequence[Action]) -> Action:
    """The legal action the verdict chooses (a card: the legal one of the same strength)."""
    choice = verdict.choice
    simple = {"accept": ACCEPT, "run": RUN, "play_hand": PLAY_HAND, "run_hand": RUN_HAND}
    if choice in simple:
        return simple[choice]
    if choice in ("raise", "ask"):
        return next(a for a in legal if a.kind == "raise")
    card, covered = verdict.cards[choice]
    kind = "cover" if covered else "play"
    return next(a for a in legal if a.kind == kind and a.card == card)
