"""The truco lessons' question kinds (see `cartas.questions`): made from the engine's own rules,
each wrong choice named by the misreading of a rule that gives it.

How a wrong choice is named: each kind lists "readings", a misconception's key with what a
learner who holds it would answer (a predicate on the choice's value); a wrong choice takes
the first reading that gives it, and is a `SLIP` when none does. A misreading of the trick
rule is the rule itself run with a changed strength of the cards (`_strengths`): no manilhas,
the manilhas' suits the other way round, the vira's rank as the manilha, any card of a
manilha's rank as one, the poker order of the ranks.

Every sentence is in `cartas.truco.catalogue` (`q_*` prompts, `c_*` choices, `r_*` reasons,
`mis_*` misconceptions).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import cache
from html import escape
from typing import TYPE_CHECKING

from ..cards import TRUCO_PACK, Card, Rank, shuffled
from ..truco.catalogue import CATALOGUE, TEAM_LETTERS, seat_name, team_label, unit
from ..truco.rules import SEATS, deal_hands, finished_sequences, hand_winner, team_of
from ..truco.variants import (
    MINEIRO,
    NATURAL_ORDER,
    PAULISTA,
    Variant,
    get_variant,
    manilha_rank,
    manilhas,
    strength_table,
)
from .kinds import Question, QuestionKind, Reading, Text, choices, each, same, say

if TYPE_CHECKING:
    import numpy as np

    from ..truco.state import TrucoState

VARIANTS = ("paulista", "mineiro")
POKER_ORDER = (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.JACK, Rank.QUEEN,
               Rank.KING, Rank.ACE)


def _pick(rng: np.random.Generator, items: Sequence[Card]) -> Card:
    return items[int(rng.integers(len(items)))]


def _after(order: Sequence[Rank], rank: Rank, step: int = 1) -> Rank:
    return order[(order.index(rank) + step) % len(order)]


# -- the strengths a misreading gives the cards --------------------------------------------
@cache  # one per variant and vira (80 at most), for every question asked under it
def _strengths(variant: Variant, vira: Card | None) -> dict[str, dict[Card, int]]:
    """misconception -> the strength of each card as a learner holding it reckons (shared
    dicts: read them, never change them)."""
    table = strength_table(variant, vira)
    natural = {c: NATURAL_ORDER.index(c.rank) for c in TRUCO_PACK}
    fixed = manilhas(variant, vira)
    top = len(NATURAL_ORDER)
    reversed_suits = dict(table)
    for i, card in enumerate(fixed):
        reversed_suits[card] = top + len(fixed) - 1 - i
    poker = {c: table[c] if c in fixed else POKER_ORDER.index(c.rank) for c in TRUCO_PACK}
    found = {"forgets_manilha": natural, "manilha_suit_order": reversed_suits, "poker_order": poker}
    if vira is not None:  # the vira's rank taken for the manilhas' (suits ordered as theirs)
        found["manilha_is_vira"] = {c: top + c.suit.order if c.rank == vira.rank else natural[c] for c in TRUCO_PACK}
    else:  # any card of a manilha's rank taken for one (as strong as the weakest of its rank)
        weakest: dict[Rank, int] = {}
        for card in fixed:
            weakest.setdefault(card.rank, table[card])
        found["manilha_rank_any_suit"] = {c: weakest.get(c.rank, table[c]) if c not in fixed else table[c]
                                          for c in TRUCO_PACK}
    return found


def _trick(plays: Sequence[tuple[int, Card | None]], strength: dict[Card, int]) -> int | None:
    """The trick rule (each team's best card; equal best cards tie) under `strength`."""
    best = [-1, -1]
    for seat, card in plays:
        if card is not None:
            best[team_of(seat)] = max(best[team_of(seat)], strength[card])
    if best[0] == best[1]:
        return None
    return 0 if best[0] > best[1] else 1


def _gives_trick(plays: Sequence[tuple[int, Card | None]], strength: dict[Card, int]) -> Callable[[Hashable], bool]:
    """The reading "the trick goes where `strength` says"."""
    return lambda v: v == _letter(_trick(plays, strength))


def _gives_stronger(a: Card, b: Card, strength: dict[Card, int]) -> Callable[[Hashable], bool]:
    """The reading "the stronger of a and b is the one `strength` says"."""
    return lambda v: strength[a] != strength[b] and v == (a if strength[a] > strength[b] else b)


def _team_text(team: int) -> Text:
    return each(lambda lang: team_label(team, lang))


def _letter(team: int | None) -> str:
    return "-" if team is None else TEAM_LETTERS[team]


def _trick_readings(plays: Sequence[tuple[int, Card | None]], variant: Variant, vira: Card | None) -> list[Reading]:
    readings: list[Reading] = [(key, _gives_trick(plays, strength))
                               for key, strength in _strengths(variant, vira).items()]
    table = strength_table(variant, vira)
    shown = [(s, c) for s, c in plays if c is not None]
    if shown and _trick(plays, table) is None:  # a tie: the first tying card's team takes it
        best = max(table[c] for _, c in shown)
        first = next(s for s, c in shown if table[c] == best)
        readings.append(("tie_goes_to_first", lambda v: v == TEAM_LETTERS[team_of(first)]))
    return readings


def _team_options(tie_key: str) -> list[tuple[Hashable, Text]]:
    """"Dupla A", "Dupla B" and a tie (or nobody)."""
    options: list[tuple[Hashable, Text]] = [(letter, _team_text(t)) for t, letter in enumerate(TEAM_LETTERS)]
    return options + [("-", say(CATALOGUE, tie_key))]


# -- manilhas -------------------------------------------------------------------------------
def manilha_rank_question(rng: np.random.Generator, variant_key: str) -> Question:
    """"The vira is X: which rank is the manilha?" (Paulista)."""
    variant = get_variant(variant_key)
    vira = _pick(rng, TRUCO_PACK)
    following = manilha_rank(vira)
    readings: list[Reading] = [
        ("manilha_is_vira", lambda v: v == vira.rank),
        ("counts_backwards", lambda v: v == _after(NATURAL_ORDER, vira.rank, -1)),
        ("poker_order", lambda v: v == _after(POKER_ORDER, vira.rank))]
    fields = {"vira": vira.rank.value, "next": following.value}
    return Question("manilhas.rank_from_vira", "manilhas_from_vira", say(CATALOGUE, "q_manilha_rank", vira=vira),
                    choices([(rank, same(rank.value)) for rank in NATURAL_ORDER], following, readings), following,
                    say(CATALOGUE, "r_manilha_rank", **fields), key=("rank_from_vira", str(vira)),
                    facts={"variant": variant, "vira": vira})


def _rank_of(value: Hashable) -> Rank | None:
    """The rank of a card choice ("7♥"), None for "none"."""
    return Card.parse(value).rank if isinstance(value, str) and value != "none" else None


def _is_rank_of_manilha(variant: Variant, vira: Card | None) -> list[Reading]:
    """Readings of "which card is a manilha?" for a card that is none (or "none")."""
    readings: list[Reading] = []
    if vira is not None:
        readings += [("manilha_is_vira", lambda v: _rank_of(v) == vira.rank),
                     ("counts_backwards", lambda v: _rank_of(v) == _after(NATURAL_ORDER, vira.rank, -1)),
                     ("poker_order", lambda v: _rank_of(v) == _after(POKER_ORDER, vira.rank))]
    else:
        ranks = {c.rank for c in manilhas(variant)}
        readings.append(("manilha_rank_any_suit", lambda v: _rank_of(v) in ranks))
    readings += [("top_card_is_manilha", lambda v: _rank_of(v) == NATURAL_ORDER[-1]),
                 ("misses_manilha", lambda v: v == "none")]
    return readings


def fixed_manilha_question(rng: np.random.Generator, variant_key: str) -> Question:
    """"Truco Mineiro: which of these four cards is a manilha?"."""
    variant = get_variant(variant_key)
    fixed = manilhas(variant)
    others = [c for c in TRUCO_PACK if c not in fixed]
    picks = [others[i] for i in rng.choice(len(others), size=3, replace=False)]
    answer = _pick(rng, fixed)
    cards = picks + [answer]
    cards = [cards[i] for i in rng.permutation(len(cards))]
    names = " ".join(str(c) for c in fixed)
    return Question("manilhas.fixed_manilhas", "fixed_manilhas", say(CATALOGUE, "q_fixed_manilha"),
                    choices([(str(c), same(str(c))) for c in cards], str(answer), _is_rank_of_manilha(variant, None)),
                    str(answer), say(CATALOGUE, "r_fixed_manilha", cards=names),
                    key=("fixed_manilhas", tuple(str(c) for c in cards)), facts={"variant": variant, "vira": None})


def stronger_question(rng: np.random.Generator, variant_key: str) -> Question:
    """"Which card is stronger: a or b?" (under a drawn vira neither card is, in Paulista)."""
    variant = get_variant(variant_key)
    vira = _pick(rng, TRUCO_PACK) if variant.uses_vira else None
    table = strength_table(variant, vira)
    pool = [c for c in TRUCO_PACK if c != vira]
    while True:
        a, b = (pool[i] for i in rng.choice(len(pool), size=2, replace=False))
        if table[a] != table[b]:
            break
    strong, weak = (a, b) if table[a] > table[b] else (b, a)
    fixed = manilhas(variant, vira)
    if strong in fixed and weak in fixed:
        reason = say(CATALOGUE, "r_stronger_suit")
    elif strong in fixed:
        reason = say(CATALOGUE, "r_stronger_manilha", card=strong)
    else:
        reason = say(CATALOGUE, "r_stronger_order", a=strong.rank.value, b=weak.rank.value)
    where = say(CATALOGUE, "q_where_vira", vira=vira) if vira else say(CATALOGUE, "q_where_mineiro")
    readings: list[Reading] = [(key, _gives_stronger(a, b, strength))
                               for key, strength in _strengths(variant, vira).items()]
    return Question("manilhas.stronger", "stronger_card", say(CATALOGUE, "q_stronger", where=where, a=a, b=b),
                    choices([(a, same(str(a))), (b, same(str(b)))], strong, readings), strong, reason,
                    key=("stronger", variant.key, str(vira), str(a), str(b)), facts={"variant": variant, "vira": vira})


# -- truco_mao --------------------------------------------------------------------------------
def _fresh_hand(rng: np.random.Generator, variant: Variant) -> TrucoState:
    from ..truco import new_game  # numpy: with the first question, not with the registry

    return new_game(variant, int(rng.integers(1_000_000)))


def mao_question(rng: np.random.Generator, variant_key: str) -> Question:
    """"Seat d deals: who is the mão?"."""
    from ..truco import narrate

    variant = get_variant(variant_key)
    state = _fresh_hand(rng, variant)
    dealer = state.dealer
    readings: list[Reading] = [("dealer_leads", lambda v: v == dealer),
                               ("wrong_direction", lambda v: v == (dealer + 3) % 4)]
    options = [(s, say(CATALOGUE, "c_seat", seat=s)) for s in SEATS]
    deal = state.events[0]
    return Question("truco_mao.who_is_mao", "who_is_mao", say(CATALOGUE, "q_mao", dealer=dealer),
                    choices(options, state.mao, readings), state.mao, each(lambda lang: narrate(deal, lang)),
                    key=("who_is_mao", variant.key, dealer), facts={"state": state})


def manilha_in_hand_question(rng: np.random.Generator, variant_key: str) -> Question:
    """"Which of these cards (of the deal) is a manilha?", four cards and "none".

    Decided: the question has exactly one right answer, as a learner reads "qual destas cartas
    é manilha?": four cards of the deal, at most one of them a manilha, and "nenhuma" (none),
    right when none of the four is."""
    variant = get_variant(variant_key)
    state = _fresh_hand(rng, variant)
    fixed = state.manilhas
    ordinary = [c for h in state.hands for c in h if c not in fixed]
    cards = ordinary[:4]  # a deal holds at most four manilhas: eight ordinary cards at least
    answer = "none"
    if rng.random() < 0.8:  # mostly one manilha among them; sometimes none at all
        manilha = fixed[int(rng.integers(4))]
        cards[int(rng.integers(4))] = manilha
        answer = str(manilha)
    options = [(str(c), same(str(c))) for c in cards] + [("none", say(CATALOGUE, "c_none"))]
    where = say(CATALOGUE, "q_vira_is", vira=state.vira) if state.vira else say(CATALOGUE, "q_in_mineiro")
    return Question("truco_mao.manilha_in_hand", "manilha_in_hand", say(CATALOGUE, "q_manilha_among", where=where),
                    choices(options, answer, _is_rank_of_manilha(variant, state.vira)), answer,
                    say(CATALOGUE, "r_manilhas_are", cards=", ".join(str(c) for c in fixed)),
                    key=("manilha_in_hand", tuple(v for v, _ in options)),
                    facts={"variant": variant, "vira": state.vira})


# -- truco_rodadas ------------------------------------------------------------------------------
def trick_question(rng: np.random.Generator, variant_key: str) -> Question:
    """"Trick (in order): ...: who wins the trick?", a card face down now and then."""
    from ..truco import explain_trick, play_order, trick_winner

    variant = get_variant(variant_key)
    pack = shuffled(TRUCO_PACK, rng)
    leader = int(rng.integers(4))
    vira = pack[4] if variant.uses_vira else None
    plays: list[tuple[int, Card | None]] = [(seat, pack[k]) for k, seat in enumerate(play_order(leader))]
    if rng.random() < 0.25:
        k = int(rng.integers(1, 4))
        plays[k] = (plays[k][0], None)
    team = trick_winner(plays, variant, vira)
    where = say(CATALOGUE, "q_trick_vira", vira=vira) if vira else say(CATALOGUE, "q_trick_mineiro")
    covered = say(CATALOGUE, "c_covered")

    def shown(lang: str) -> str:
        items = ", ".join(CATALOGUE.template("q_play", lang).format(
            seat=seat_name(s, lang), team=TEAM_LETTERS[team_of(s)], card=c if c else covered[lang])
            for s, c in plays)
        return CATALOGUE.template("q_trick", lang).format(where=where[lang], plays=items)

    return Question("truco_rodadas.trick_winner", "trick_winner", each(shown).map(escape),
                    choices(_team_options("c_tie"), _letter(team), _trick_readings(plays, variant, vira)),
                    _letter(team), each(lambda lang: escape(explain_trick(plays, variant, vira, lang))),
                    key=("trick", variant.key, str(vira), tuple(map(str, plays))),
                    facts={"variant": variant, "vira": vira, "plays": plays})


def _hand_readings(results: tuple[int | None, ...]) -> list[Reading]:
    won = [results.count(0), results.count(1)]
    most = None if won[0] == won[1] else (0 if won[0] > won[1] else 1)
    decided = [r for r in results if r is not None]
    return [("count_tricks", lambda v: v == _letter(most)),
            ("tie_cancels_hand", lambda v: None in results and v == "-"),
            ("last_trick_decides", lambda v: bool(decided) and v == _letter(decided[-1]))]


def hand_question(rng: np.random.Generator, variant_key: str) -> Question:
    """"Trick results: ...: who takes the hand?"."""
    from ..truco import explain_hand

    sequences = finished_sequences()
    results = sequences[int(rng.integers(len(sequences)))]
    team = hand_winner(results)

    def result_name(result: int | None, lang: str) -> str:
        return CATALOGUE.say("tie", lang) if result is None else team_label(result, lang)

    return Question("truco_rodadas.tied_hand", "tied_hand",
                    say(CATALOGUE, "q_hand", results=each(lambda lang: ", ".join(result_name(r, lang)
                                                                                   for r in results))),
                    choices(_team_options("c_nobody"), _letter(team), _hand_readings(results)), _letter(team),
                    each(lambda lang: escape(explain_hand(results, lang))), key=("hand", results),
                    facts={"results": results})


def tied_first_question(rng: np.random.Generator, variant_key: str) -> Question:
    """"Seat m is the mão (team X). Trick results: tie, ...: who takes the hand?", the first
    trick tied: the first trick that is not tied decides, never the mão for being the mão
    (docs/rules.md#truco-tied-first); mostly the mão's team is not the one that takes it."""
    from ..truco import explain_hand

    sequences = [r for r in finished_sequences() if r[0] is None]
    results = sequences[int(rng.integers(len(sequences)))]
    team = hand_winner(results)
    mao_team = (1 - team if rng.random() < 0.8 else team) if team is not None else int(rng.integers(2))
    mao = SEATS[mao_team + 2 * int(rng.integers(2))]  # seats 0, 2 are team 0 (A); 1, 3 team 1 (B)
    assert team_of(mao) == mao_team

    def result_name(result: int | None, lang: str) -> str:
        return CATALOGUE.say("tie", lang) if result is None else team_label(result, lang)

    readings: list[Reading] = [("tied_first_goes_to_mao", lambda v: v == _letter(mao_team)),
                               ("tie_cancels_hand", lambda v: v == "-")]
    return Question("truco_rodadas.tied_first", "tied_hand",
                    say(CATALOGUE, "q_tied_first", mao=mao, team=_team_text(mao_team),
                        results=each(lambda lang: ", ".join(result_name(r, lang) for r in results))),
                    choices(_team_options("c_nobody"), _letter(team), readings), _letter(team),
                    each(lambda lang: escape(explain_hand(results, lang))), key=("tied_first", results, mao),
                    facts={"results": results, "mao": mao})


# -- truco_apostas --------------------------------------------------------------------------------
@cache
def ladder_rows(variant_key: str) -> tuple[tuple[str | None, int, int | None], ...]:
    """(call name or None for the start, value if accepted, what running from it pays), from
    the variant's ladder, raise names and `run_pays`."""
    variant = get_variant(variant_key)
    return ((None, variant.base_value, None),) + tuple(
        (variant.raise_name(v), v, variant.run_pays(v)) for v in variant.ladder)


def brief(event: dict[str, object], lang: str) -> str:
    """An event told without the value it sets: a question about the hand's value must not
    state it. Raises and acceptances say who and what word ("Assento 1 pede truco.",
    "Assento 2 aceita."); every other event is narrated as usual."""
    from ..truco import narrate
    from ..truco.catalogue import cap

    seat = event.get("seat")
    if event["type"] == "raise" and not event.get("forbidden") and isinstance(seat, int):
        return CATALOGUE.say("n_raise_brief", lang, Seat=cap(seat_name(seat, lang)), word=event["name"])
    if event["type"] == "accept" and isinstance(seat, int):
        return CATALOGUE.say("n_accept_brief", lang, Seat=cap(seat_name(seat, lang)))
    return narrate(event, lang)


def _betting_state(rng: np.random.Generator, variant: Variant, answering: bool) -> TrucoState:
    """A hand after one to four raises, acceptances or plays, before it ends; with a raise
    waiting for its answer when `answering`, with none otherwise."""
    while True:
        state = _fresh_hand(rng, variant)
        for _ in range(int(rng.integers(1, 5))):
            legal = state.legal_actions()
            bets = [a for a in legal if a.kind in ("raise", "accept")]
            if not bets:
                bets = [next(a for a in legal if a.kind == "play")]
            state.apply_action(bets[int(rng.integers(len(bets)))])
            if any(e["type"] == "hand" for e in state.events):
                break
        else:
            if (state.phase == "answer") == answering:
                return state


def _story(state: TrucoState) -> Text:
    told = [e for e in state.events[1:] if e["type"] != "deal"]  # the deal states the value
    return each(lambda lang: " ".join(brief(dict(e), lang) for e in told))


def _ladder_options(variant: Variant) -> list[tuple[Hashable, Text]]:
    return [(v, same(str(v))) for v in sorted({r[1] for r in ladder_rows(variant.key)})]


def running_question(rng: np.random.Generator, variant_key: str) -> Question:
    """On a hand with a raise waiting for its answer: "if the team runs now, how many points
    does the other team score?"."""
    variant = get_variant(variant_key)
    state = _betting_state(rng, variant, answering=True)
    pending = state.pending_raise
    seat = state.current_seat
    assert seat is not None and pending is not None  # someone answers the raise
    run = state.run_value
    story = _story(state)
    readings: list[Reading] = [("running_pays_raised", lambda v: v == pending["value"]),
                               ("running_pays_base", lambda v: v == variant.base_value)]
    return Question("truco_apostas.points_for_running", "points_for_running",
                    say(CATALOGUE, "q_bet_run", variant=variant.label["pt"], story=story,
                        team=each(lambda lang: team_label(state.team_of(seat), lang))).map(escape),
                    choices(_ladder_options(variant), run, readings), run, say(CATALOGUE, "r_bet_run", points=run),
                    key=("run", variant.key, story.en), facts={"state": state})


def value_question(rng: np.random.Generator, variant_key: str) -> Question:
    """On a hand after some raises, none waiting: "what is the hand worth now?"."""
    variant = get_variant(variant_key)
    state = _betting_state(rng, variant, answering=False)
    value = state.hand_value
    story = _story(state)
    ahead = [v for v in variant.ladder if v > value]
    readings: list[Reading] = [("ignores_raises", lambda v: v == variant.base_value),
                               ("worth_next_call", lambda v: bool(ahead) and v == ahead[0])]
    return Question("truco_apostas.value_after_raise", "value_after_raise",
                    say(CATALOGUE, "q_bet_value", variant=variant.label["pt"], story=story).map(escape),
                    choices(_ladder_options(variant), value, readings), value,
                    say(CATALOGUE, "r_bet_value", value=value),
                    key=("value", variant.key, story.en), facts={"state": state})


# -- truco_mao_de_onze --------------------------------------------------------------------------------
def threshold_state(variant: Variant, rng: np.random.Generator) -> TrucoState:
    """A hand with one team at the threshold (mão de onze / mão de dez), seeded; the shuffle is
    dealt as the engine deals (`deal_hands`)."""
    from ..truco import from_deal

    pack = shuffled(TRUCO_PACK, rng)
    team = int(rng.integers(2))
    other = int(rng.integers(variant.threshold))
    score = (variant.threshold, other) if team == 0 else (other, variant.threshold)
    dealer = int(rng.integers(len(SEATS)))
    hands, vira = deal_hands(pack, dealer, variant.uses_vira)
    return from_deal(variant, hands, vira, dealer=dealer, score=score, seed=int(rng.integers(1_000_000)))


def _threshold(asked: str) -> Callable[[np.random.Generator, str], Question]:
    def make(rng: np.random.Generator, variant_key: str) -> Question:
        from ..truco import PLAY_HAND, RAISE, narrate

        variant = get_variant(variant_key)
        state = threshold_state(variant, rng)
        name = variant.threshold_name
        at = state.threshold_team
        assert at is not None  # a threshold hand: one team is at it
        team = _team_text(at)
        fields = {"name": name.capitalize(), "team": team}
        other = MINEIRO if variant is PAULISTA else PAULISTA  # its values, mistaken for this variant's
        options = [(v, same(str(v))) for v in sorted(set(variant.values) | {
            variant.threshold_value, variant.threshold_run_value, other.threshold_value, other.threshold_run_value})]
        facts = {"state": state, "asked": asked}  # the position asked about
        key = (asked, variant.key, str(state.hands), state.score)
        if asked == "run":
            run = state.run_value
            readings: list[Reading] = [("threshold_run_pays_hand", lambda v: v == variant.threshold_value),
                                       ("other_variant_threshold", lambda v: v == other.threshold_run_value)]
            return Question("truco_mao_de_onze.run", "mao_de_onze", say(CATALOGUE, "q_threshold_run", **fields),
                            choices(options, run, readings), run,
                            say(CATALOGUE, "r_threshold_run", name=name, points=run), key=key, facts=facts)
        if asked == "play":
            value = state.hand_value
            readings = [("threshold_played_is_base", lambda v: v == variant.base_value),
                        ("other_variant_threshold", lambda v: v == other.threshold_value)]
            return Question("truco_mao_de_onze.play", "mao_de_onze", say(CATALOGUE, "q_threshold_play", **fields),
                            choices(options, value, readings), value,
                            say(CATALOGUE, "r_threshold_play", name=name, value=value), key=key, facts=facts)
        played = state.clone()  # the facts keep the position before the moves told
        played.apply_action(PLAY_HAND)
        seat = played.current_seat
        assert seat is not None  # the threshold team plays: someone leads
        said = played.apply_action(RAISE)  # the raise, the hand and the game events
        lost = played.is_terminal() and played.winner != played.team_of(seat)
        told = [e for e in said if e["type"] in ("raise", "hand")]
        answer = "loses" if lost else "more"
        readings = [("raise_allowed_in_threshold", lambda v: v == "more"),
                    ("threshold_raise_loses_hand", lambda v: v == "loses_hand")]
        return Question("truco_mao_de_onze.raise", "mao_de_onze",
                        say(CATALOGUE, "q_threshold_raise", seat=seat, **fields),
                        choices([("loses", say(CATALOGUE, "c_loses")), ("loses_hand", say(CATALOGUE, "c_loses_hand")),
                                 ("more", say(CATALOGUE, "c_worth_more"))], answer, readings), answer,
                        each(lambda lang: escape(" ".join(narrate(e, lang) for e in told))), key=key, facts=facts)
    return make


# -- truco_mineiro --------------------------------------------------------------------------------
def ladder_question(rng: np.random.Generator, _variant: str) -> Question:
    """"A team asks for <call> and the other runs: how many points for the team that asked?",
    in either variant."""
    variant = (PAULISTA, MINEIRO)[int(rng.integers(2))]
    other = MINEIRO if variant is PAULISTA else PAULISTA
    calls = [(name, value, pays) for name, value, pays in ladder_rows(variant.key) if name and pays is not None]
    call, value, pays = calls[int(rng.integers(len(calls)))]
    elsewhere = {n: p for n, _, p in ladder_rows(other.key) if n and p is not None}
    options = sorted({p for v in (PAULISTA, MINEIRO) for n, _, p in ladder_rows(v.key) if n and p is not None})
    fields: dict[str, object] = {"variant": variant.label["pt"], "call": call}
    readings: list[Reading] = [("running_pays_raised", lambda v: v == value),
                               ("other_variant_ladder", lambda v: v == elsewhere.get(call)),
                               ("running_pays_base", lambda v: v == variant.base_value)]
    return Question("truco_mineiro.ladder", "mineiro_ladder", say(CATALOGUE, "q_runs", **fields).map(escape),
                    choices([(p, same(str(p))) for p in options], pays, readings), pays,
                    say(CATALOGUE, "r_runs", pays=pays, unit=each(lambda lang: unit(pays, lang)), **fields).map(escape),
                    key=("ladder", variant.key, call), facts={"variant": variant, "call": call})


def duel_question(rng: np.random.Generator, _variant: str) -> Question:
    """"Seat 0 plays a and seat 1 plays b: who wins?", mostly in Mineiro, often about a fixed manilha."""
    pack = shuffled(TRUCO_PACK, rng)
    variant = MINEIRO if rng.random() < 0.6 else PAULISTA
    fixed = MINEIRO.fixed_manilhas
    if variant is MINEIRO and fixed is not None and rng.random() < 0.6:  # a duel about a fixed manilha
        pack[0] = fixed[int(rng.integers(4))]
        if pack[1] == pack[0]:
            pack[1] = pack[2]
    a, b, vira = pack[0], pack[1], (pack[2] if variant.uses_vira else None)
    plays: list[tuple[int, Card | None]] = [(0, a), (1, b)]
    from ..truco import explain_trick, trick_winner

    team = trick_winner(plays, variant, vira)
    prompt = say(CATALOGUE, "q_duel", variant=each(lambda lang: variant.label[lang]),
                 vira=f" (vira {vira})" if vira else "", a=a, b=b,
                 team0=each(lambda lang: team_label(team_of(0), lang)),
                 team1=each(lambda lang: team_label(team_of(1), lang))).map(escape)
    return Question("truco_mineiro.duel", "mineiro_duel", prompt,
                    choices(_team_options("c_tie"), _letter(team), _trick_readings(plays, variant, vira)),
                    _letter(team), each(lambda lang: escape(explain_trick(plays, variant, vira, lang))),
                    key=("duel", variant.key, str(vira), str(a), str(b)),
                    facts={"variant": variant, "vira": vira, "plays": plays})


# Each misconception, and the lesson whose section states the rule that corrects it.
MISCONCEPTIONS: dict[str, str] = {
    "manilha_is_vira": "manilhas", "counts_backwards": "manilhas", "poker_order": "manilhas",
    "manilha_rank_any_suit": "manilhas", "top_card_is_manilha": "manilhas", "misses_manilha": "truco_mao",
    "forgets_manilha": "manilhas", "manilha_suit_order": "manilhas", "dealer_leads": "truco_mao",
    "wrong_direction": "truco_mao", "tie_goes_to_first": "truco_rodadas", "count_tricks": "truco_rodadas",
    "tie_cancels_hand": "truco_rodadas", "last_trick_decides": "truco_rodadas",
    "tied_first_goes_to_mao": "truco_rodadas", "running_pays_raised": "truco_apostas",
    "running_pays_base": "truco_apostas", "ignores_raises": "truco_apostas", "worth_next_call": "truco_apostas",
    "threshold_run_pays_hand": "truco_mao_de_onze", "threshold_played_is_base": "truco_mao_de_onze",
    "raise_allowed_in_threshold": "truco_mao_de_onze", "threshold_raise_loses_hand": "truco_mao_de_onze",
    "other_variant_threshold": "truco_mao_de_onze", "other_variant_ladder": "truco_mineiro",
}
_TRICK = ("forgets_manilha", "manilha_suit_order", "poker_order", "manilha_is_vira", "manilha_rank_any_suit",
          "tie_goes_to_first")
KINDS = (
    QuestionKind("manilhas.rank_from_vira", "manilhas", "manilhas_from_vira", manilha_rank_question,
                 ("manilha_is_vira", "counts_backwards", "poker_order"), variants=("paulista",)),
    QuestionKind("manilhas.fixed_manilhas", "manilhas", "fixed_manilhas", fixed_manilha_question,
                 ("manilha_rank_any_suit", "top_card_is_manilha"), variants=("mineiro",)),
    QuestionKind("manilhas.stronger", "manilhas", "stronger_card", stronger_question,
                 ("forgets_manilha", "manilha_suit_order", "poker_order", "manilha_is_vira", "manilha_rank_any_suit"),
                 variants=VARIANTS),
    QuestionKind("truco_mao.who_is_mao", "truco_mao", "who_is_mao", mao_question,
                 ("dealer_leads", "wrong_direction"), variants=VARIANTS),
    QuestionKind("truco_mao.manilha_in_hand", "truco_mao", "manilha_in_hand", manilha_in_hand_question,
                 ("manilha_is_vira", "counts_backwards", "poker_order", "manilha_rank_any_suit", "top_card_is_manilha",
                  "misses_manilha"), variants=VARIANTS),
    QuestionKind("truco_rodadas.trick_winner", "truco_rodadas", "trick_winner", trick_question, _TRICK,
                 variants=VARIANTS, weight=0.6),
    QuestionKind("truco_rodadas.tied_hand", "truco_rodadas", "tied_hand", hand_question,
                 ("count_tricks", "tie_cancels_hand", "last_trick_decides"), variants=VARIANTS, weight=0.4),
    QuestionKind("truco_rodadas.tied_first", "truco_rodadas", "tied_hand", tied_first_question,
                 ("tied_first_goes_to_mao", "tie_cancels_hand"), variants=VARIANTS, weight=0.3),
    QuestionKind("truco_apostas.points_for_running", "truco_apostas", "points_for_running", running_question,
                 ("running_pays_raised", "running_pays_base"), variants=VARIANTS),
    QuestionKind("truco_apostas.value_after_raise", "truco_apostas", "value_after_raise", value_question,
                 ("ignores_raises", "worth_next_call"), variants=VARIANTS),
    QuestionKind("truco_mao_de_onze.run", "truco_mao_de_onze", "mao_de_onze", _threshold("run"),
                 ("threshold_run_pays_hand", "other_variant_threshold"), variants=VARIANTS),
    QuestionKind("truco_mao_de_onze.play", "truco_mao_de_onze", "mao_de_onze", _threshold("play"),
                 ("threshold_played_is_base", "other_variant_threshold"), variants=VARIANTS),
    QuestionKind("truco_mao_de_onze.raise", "truco_mao_de_onze", "mao_de_onze", _threshold("raise"),
                 ("raise_allowed_in_threshold", "threshold_raise_loses_hand"), variants=VARIANTS),
    QuestionKind("truco_mineiro.duel", "truco_mineiro", "mineiro_duel", duel_question, _TRICK),
    QuestionKind("truco_mineiro.ladder", "truco_mineiro", "mineiro_ladder", ladder_question,
                 ("running_pays_raised", "other_variant_ladder", "running_pays_base")),
)
