"""Every question kind of every lesson marks right exactly the choices the engine's rules accept.

Issue 29, item 1: a learner told "wrong" for a right answer stops trusting the tool. For each
lesson of the engine's registry (`cartas.questions`, which the lessons, the review and the live
quiz all ask from), more than 10,000 seeded questions of each kind are
drawn, and each choice is judged by an oracle written from the engine's own rule functions
(`is_manilha`, trick resolution, what running or playing a hand scores on a real state, 21's
scoring and calls, the careful bots' choices), reading the question's `facts`, not by the
generator's logic. The set of choices judged right must be exactly {question.answer}: the
lessons ask every question with exactly one right choice (Decided in
`widgets.components.exercises.Question`), so a kind with two right choices fails here.

Each lesson is asked in every variant its kinds are asked in. The two lessons whose questions
come from bots' play (vinte_e_um_rodada: a round; vinte_e_um_banca: a change of bank) ask both
kinds about one round or change (`BATCHES`, the engine's `decision_question` and
`bank_question`), and their whole `draw_question` is checked on WHOLE draws besides.
"""
from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from cartas.cards import Card, Rank, Suit
from cartas.questions import LESSONS, draw_question, lesson_kinds
from cartas.truco import (
    PLAY_HAND,
    RAISE,
    RUN,
    RUN_HAND,
    TEAM_LETTERS,
    hand_winner,
    is_manilha,
    team_of,
    trick_winning_seat,
)
from cartas.vinte_e_um import DRAW, SensibleBot, bust_for_view, call_winner, playable, points
from widgets.pages.aula import QUESTION_LESSONS
from widgets.pages.revisao import MAKERS

PER_KIND = 10_001  # more than 10,000 questions of every kind


# Oracles: question -> the option values the engine's rules accept ----------------------
def _values(q) -> list:
    return [value for value, _ in q.options]


def manilha_rank(q) -> set:
    variant, vira = q.facts["variant"], q.facts["vira"]
    return {rank for rank in _values(q) if is_manilha(Card(Rank(rank), Suit.OUROS), variant, vira)}


def manilha_among(q) -> set:
    variant, vira = q.facts["variant"], q.facts["vira"]
    right = {c for c in _values(q) if c != "none" and is_manilha(c, variant, vira)}
    return right or ({"none"} & set(_values(q)))


def stronger(q) -> set:
    a, b = _values(q)
    variant, vira = q.facts["variant"], q.facts["vira"]
    return {card for card, other in ((a, b), (b, a))
            if trick_winning_seat([(0, card), (1, other)], variant, vira) == 0}


def mao(q) -> set:
    state = q.facts["state"]  # a fresh hand: the seat the engine lets act first leads
    assert f"Seat {state.dealer} deals" in q.prompt["en"]
    return {seat for seat in _values(q) if seat == state.current_seat}


def trick(q) -> set:
    seat = trick_winning_seat(q.facts["plays"], q.facts["variant"], q.facts["vira"])
    winner = "-" if seat is None else TEAM_LETTERS[team_of(seat)]
    return {v for v in _values(q) if v == winner}


def hand(q) -> set:
    team = hand_winner(q.facts["results"])
    return {v for v in _values(q) if v == ("-" if team is None else TEAM_LETTERS[team])}


def _gained(state, action, team: int) -> int:
    """What `team` scores when `action` is taken on a copy of `state`."""
    state = state.clone()
    before = state.score[team]
    state.apply_action(action)
    return state.score[team] - before


def _played_out(state) -> int | None:
    """The points the hand gives its winner when it is played out with no more raises (None
    when nobody takes it, however its cards are played)."""
    for attempt in range(8):  # another order of the cards while the hand ends with nobody taking it
        trial = state.clone()
        step, number = 0, trial.hand_number
        while trial.hand_number == number and not trial.is_terminal():  # the engine deals on at once
            plays = [a for a in trial.legal_actions() if a.kind == "play"]
            trial.apply_action(plays[(attempt * step + attempt) % len(plays)])
            step += 1
        done = trial.last_hand
        if done["winner_team"] is not None:
            return done["points"]
    return None


def running_pays(q) -> set:
    state = q.facts["state"]
    other = 1 - state.team_of(state.current_seat)
    gained = _gained(state, RUN, other)
    return {v for v in _values(q) if v == gained}


def worth_now(q) -> set:
    worth = _played_out(q.facts["state"])
    assert worth is not None
    return {v for v in _values(q) if v == worth}


def threshold(q) -> set:
    state, asked = q.facts["state"], q.facts["asked"]
    team = state.threshold_team
    if asked == "run":
        gained = _gained(state, RUN_HAND, 1 - team)
        return {v for v in _values(q) if v == gained}
    if asked == "play":
        state = state.clone()
        state.apply_action(PLAY_HAND)
        worth = _played_out(state)
        return {v for v in _values(q) if v == worth}
    state = state.clone()
    state.apply_action(PLAY_HAND)
    seat = state.current_seat
    state.apply_action(RAISE)
    lost = state.is_terminal() and state.winner == 1 - team_of(seat)
    return {"loses"} if lost else {"more"}


def ladder(q) -> set:
    pays = _ladder_pays(q.facts["variant"].key, q.facts["call"])
    return {v for v in _values(q) if v == pays}


@functools.cache
def _ladder_pays(variant: str, call: str) -> int:
    """What the team that asks for `call` scores when the other runs, on a real hand."""
    from cartas.truco import new_game
    state = new_game(variant, 0)
    for _ in range(6):  # raise, and re-raise, until the call asked about is pending
        state.apply_action(RAISE)
        if state.pending_raise["name"] == call:
            break
    return _gained(state, RUN, state.pending_raise["team"])


def worth_21(q) -> set:
    hand_, ace = q.facts["hand"], q.facts["ace"]
    worth = points(playable(hand_, ace), ace)
    return {v for v in _values(q) if v == worth}


def call_21(q) -> set:
    ace = q.facts["ace"]
    winner = call_winner(playable(q.facts["player"], ace), playable(q.facts["banker"], ace), ace)
    return {v for v in _values(q) if v == winner}


def take_a_card(q) -> set:
    view = q.facts["view"]
    if q.facts["kind"] == "player":  # a careful player hits while a card busts less than half the time
        take = bust_for_view(view) < 0.5
    else:  # the careful banker's choice
        take = SensibleBot(0).choose(view) == DRAW
    return {v for v in _values(q) if v == take}


def bank(q) -> set:
    state = q.facts["state"]
    change = [e for e in state.events if e["type"] == "bank_change"][-1]
    if q.facts["kind"] == "seat":
        return {v for v in _values(q) if v == state.banker}
    return {v for v in _values(q) if v == change["price"]}


def natural_bank(q) -> set:
    """The engine's round under the natural rotation dealt the question's hands (the banker
    holding a low two-card hand): who holds the bank in the next round."""
    from cartas.cards import STANDARD_PACK
    from cartas.vinte_e_um import from_deal
    from cartas.vinte_e_um.actions import HIT, STAND

    hands, banker = q.facts["hands"], q.facts["banker"]
    used = {c for h in hands.values() for c in h}
    low = [c for c in STANDARD_PACK if c not in used and c.rank.value in ("2", "3", "4")]
    players = sorted(hands)
    state = from_deal(4, {**{s: hands[s][0] for s in players}, banker: low[0]}, upcard=low[1],
                      then=[c for s in players for c in hands[s][1:]], banker=banker, rotation="natural",
                      rounds=2, seed=0)
    for _ in range(200):
        if state.round_number > 1 or state.is_terminal():
            break
        seat, legal = state.current_seat, state.legal_actions()
        if state.phase == "players":  # each player takes the cards the question shows, then stands
            action = HIT if len(state.hands[seat]) < len(hands[seat]) else STAND
        else:
            action = next((a for a in legal if a.kind in ("call", "bet")), legal[0])
        state.apply_action(action, seat)
    assert state.round_number == 2
    return {v for v in _values(q) if v == state.banker}


# What kind a question is, and its oracle -------------------------------------------------
ORACLES: dict[str, Callable] = {
    "manilhas_from_vira": manilha_rank, "fixed_manilhas": manilha_among, "stronger_card": stronger,
    "who_is_mao": mao, "manilha_in_hand": manilha_among, "trick_winner": trick, "tied_hand": hand,
    "points_for_running": running_pays, "value_after_raise": worth_now,
    "mao_de_onze:run": threshold, "mao_de_onze:play": threshold, "mao_de_onze:raise": threshold,
    "mineiro_ladder": ladder, "mineiro_duel": trick, "score_21_hand": worth_21, "who_wins_21_call": call_21,
    "hit_or_stand:player": take_a_card, "hit_or_stand:banker": take_a_card,
    "pass_the_bank:seat": bank, "pass_the_bank:price": bank, "pass_the_bank:natural": natural_bank,
}
KINDS = {
    "manilhas": ("manilhas_from_vira", "fixed_manilhas", "stronger_card"),
    "truco_mao": ("who_is_mao", "manilha_in_hand"),
    "truco_rodadas": ("trick_winner", "tied_hand"),
    "truco_apostas": ("points_for_running", "value_after_raise"),
    "truco_mao_de_onze": ("mao_de_onze:run", "mao_de_onze:play", "mao_de_onze:raise"),
    "truco_mineiro": ("mineiro_ladder", "mineiro_duel"),
    "vinte_e_um_pontos": ("score_21_hand", "who_wins_21_call"),
    "vinte_e_um_rodada": ("hit_or_stand:player", "hit_or_stand:banker"),
    "vinte_e_um_banca": ("pass_the_bank:seat", "pass_the_bank:price", "pass_the_bank:natural"),
}


def kind_of(q) -> str:
    sub = q.facts.get("asked") or q.facts.get("kind")
    return f"{q.skill}:{sub}" if sub else q.skill


def round_decisions(rng):
    """vinte_e_um_rodada's two kinds from one round (a round played once asks both): the
    lesson's `decision_question` at the round's first player decision and at the banker's."""
    from cartas.questions.vinte_e_um import ASKED, bots_for, decision_question
    from cartas.vinte_e_um import new_game

    seed = int(rng.integers(1_000_000))
    state = new_game(4, seed=seed, rounds=1, rotation="permanent")
    bots = bots_for(4, seed)
    left = dict(ASKED)
    while not state.is_terminal() and left:
        for kind, (phase, choice) in list(left.items()):
            if state.phase == phase and choice in state.legal_actions():
                del left[kind]
                yield decision_question(kind, state)
        seat = state.current_seat
        state.apply_action(bots[seat].choose(state.view(seat)), seat)


def bank_changes(rng):
    """vinte_e_um_banca's two kinds about one seeded change of bank (`rotation_question`), and
    its question about the natural rotation's two-card 21."""
    from cartas.questions.vinte_e_um import bank_question, natural_question, rotation_question

    rotation = rotation_question(rng)
    for kind in ("seat", "price"):
        yield bank_question(kind, rotation)
    yield natural_question(rng)


# lessons whose questions are slow to draw: both kinds from one draw of what they ask about
# (the lesson's own functions); `question(rng)` itself is checked too, on fewer draws
BATCHES = {"vinte_e_um_rodada": round_decisions, "vinte_e_um_banca": bank_changes}
WHOLE = 500


def makers(lesson: str) -> list[Callable]:
    """The lesson's question makers: one per variant its kinds are asked in."""
    if lesson in BATCHES:
        return [BATCHES[lesson]]
    variants = sorted({v for kind in lesson_kinds(lesson) for v in kind.variants}) or [None]
    return [lambda rng, v=v: [draw_question(lesson, rng, variant=v)] for v in variants]


def check(q) -> None:
    values = _values(q)
    assert len(set(values)) == len(values), ("a choice twice", q.prompt["en"], values)
    assert q.answer in values, ("the answer is no choice", q.prompt["en"], q.answer)
    accepted = ORACLES[kind_of(q)](q)
    assert accepted == {q.answer}, (q.prompt["en"], values, q.answer, accepted)


def test_the_review_and_the_live_quiz_ask_the_same_lessons():
    assert tuple(MAKERS) == tuple(QUESTION_LESSONS) == LESSONS
    assert set(KINDS) == set(LESSONS)


# the lessons whose sweep takes longest: make test runs them, make quick leaves them out
SLOW_LESSONS = {"vinte_e_um_banca", "vinte_e_um_rodada", "truco_mao_de_onze",  # sweeps of 7-46 s each:
                "manilhas", "truco_apostas", "truco_rodadas", "truco_mineiro"}  # make test runs them


@pytest.mark.parametrize("lesson", [pytest.param(lesson, marks=[pytest.mark.slow] if lesson in SLOW_LESSONS else [])
                                    for lesson in KINDS])
def test_rule_every_question_marks_right_exactly_what_the_engine_accepts(lesson):
    """Docs: widgets.components.exercises.Question (exactly one right choice)."""
    rng = np.random.default_rng(29)
    asked: Counter = Counter()
    made = makers(lesson)
    wanted = KINDS[lesson]
    for n in range(PER_KIND * 12):
        for q in made[n % len(made)](rng):
            kind = kind_of(q)
            assert kind in wanted, kind
            if asked[kind] < PER_KIND:
                check(q)
            asked[kind] += 1
        if all(asked[k] >= PER_KIND for k in wanted):
            break
    assert all(asked[k] >= PER_KIND for k in wanted), asked


@pytest.mark.parametrize("lesson", list(BATCHES))
def test_rule_the_slow_lessons_question_functions_ask_what_the_engine_accepts(lesson):
    """The whole `draw_question` of the lessons checked kind by kind above."""
    def maker(rng):
        return draw_question(lesson, rng)
    rng = np.random.default_rng(30)
    kinds = Counter()
    for _ in range(WHOLE):
        q = maker(rng)
        check(q)
        kinds[kind_of(q)] += 1
    assert set(kinds) == set(KINDS[lesson])
