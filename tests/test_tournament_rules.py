"""The tournament's pairing and standing rules (cartas/tournament.py, docs/rules.md#tournament)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from cartas import tournament as t
from cartas.tournament import Result, TournamentError


def play_out(pairing: t.Pairing, round_no: int, winner) -> list[Result]:
    """Results of a round: each table's winner by `winner(a, b)`, 12 to 6; a bye as a bye."""
    results = []
    for number, (a, b) in enumerate(pairing.tables, start=1):
        won = winner(a, b)
        results.append(Result(round_no, number, (a, b), (12.0, 6.0) if won == a else (6.0, 12.0)))
    if pairing.bye is not None:
        results.append(Result(round_no, 0, (pairing.bye,), bye=True))
    return results


@pytest.mark.parametrize("count", [4, 7, 8, 10, 16, 32])
def test_rule_tournament_swiss_has_no_rematch_while_avoidable(count):
    """docs/rules.md#tournament-swiss: over log2-ish rounds nobody meets an opponent twice."""
    units = [f"p{i}" for i in range(count)]
    rng = np.random.default_rng(count)
    results: list[Result] = []
    rounds = min(count - 1 if count % 2 == 0 else count, 5)
    for round_no in range(1, rounds + 1):
        pairing = t.swiss_round(units, results)
        seated = [u for table in pairing.tables for u in table] + ([pairing.bye] if pairing.bye else [])
        assert sorted(seated) == sorted(units)
        played = t.met(results)
        assert all(frozenset(table) not in played for table in pairing.tables), (round_no, pairing)
        results += play_out(pairing, round_no, lambda a, b: a if rng.random() < 0.5 else b)


def test_rule_tournament_swiss_backtracks_rather_than_rematch():
    """docs/rules.md#tournament-swiss: the greedy choice (a with b) would force c and d to meet again;
    the pairer goes back on it."""
    units = ["a", "b", "c", "d"]
    results = [Result(1, 1, ("c", "d"), (12.0, 0.0)), Result(2, 1, ("a", "c"), (12.0, 0.0)),
               Result(2, 2, ("b", "d"), (12.0, 0.0))]
    pairing = t.swiss_round(units, results)
    assert {frozenset(p) for p in pairing.tables} == {frozenset("ad"), frozenset("bc")}


def test_rule_tournament_swiss_pairs_by_score():
    """docs/rules.md#tournament-swiss: the leaders meet each other first."""
    units = ["a", "b", "c", "d"]
    results = [Result(1, 1, ("a", "c"), (12.0, 3.0)), Result(1, 2, ("b", "d"), (12.0, 3.0))]
    pairing = t.swiss_round(units, results)
    assert pairing.tables == (("a", "b"), ("c", "d"))


def test_rule_tournament_swiss_allows_a_rematch_only_when_unavoidable():
    """docs/rules.md#tournament-swiss: two players, a second round: they meet again."""
    results = [Result(1, 1, ("a", "b"), (12.0, 3.0))]
    assert t.swiss_round(["a", "b"], results).tables == (("a", "b"),)


@pytest.mark.parametrize("count", [3, 5, 7, 9])
def test_rule_tournament_swiss_byes_go_to_different_learners(count):
    """docs/rules.md#tournament-swiss: with an odd count, as many rounds as players, no one has
    two byes (and the first bye is the lowest-placed's)."""
    units = [f"p{i}" for i in range(count)]
    rng = np.random.default_rng(7)
    results: list[Result] = []
    byes = []
    for round_no in range(1, count + 1):
        pairing = t.swiss_round(units, results)
        assert pairing.bye is not None
        if round_no == 1:
            assert pairing.bye == units[-1]
        byes.append(pairing.bye)
        results += play_out(pairing, round_no, lambda a, b: a if rng.random() < 0.5 else b)
    assert sorted(byes) == sorted(units)


def test_rule_tournament_swiss_bye_is_the_lowest_placed_without_one():
    """docs/rules.md#tournament-swiss: c, last, had the bye; b, next lowest, has it now."""
    results = [Result(1, 1, ("a", "b"), (12.0, 3.0)), Result(1, 0, ("c",), bye=True)]
    pairing = t.swiss_round(["a", "b", "c"], results)
    assert pairing.bye == "b" and pairing.tables == (("a", "c"),)


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 9, 12])
def test_rule_tournament_round_robin_is_complete(count):
    """docs/rules.md#tournament-round-robin: every pair once, each at most one table a round."""
    units = [f"p{i}" for i in range(count)]
    rounds = t.round_robin(units)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    pairs = [frozenset(table) for r in rounds for table in r.tables]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, itertools.combinations(units, 2))))
    for r in rounds:
        seated = [u for table in r.tables for u in table] + ([r.bye] if r.bye else [])
        assert sorted(seated) == sorted(units)
    byes = [r.bye for r in rounds if r.bye]
    assert len(byes) == len(set(byes)) == (count if count % 2 else 0)


def test_rule_tournament_pairs_are_drawn_by_a_seeded_lot():
    """docs/rules.md#tournament-pairs: the same seed, the same pairs; an odd one plays with a bot."""
    learners = [f"l{i}" for i in range(7)]
    one = t.draw_pairs(learners, np.random.default_rng(5))
    assert one == t.draw_pairs(learners, np.random.default_rng(5))
    assert [len(p) for p in one] == [2, 2, 2, 1]
    assert sorted(u for p in one for u in p) == sorted(learners)
    assert any(t.draw_pairs(learners, np.random.default_rng(s)) != one for s in range(6, 12))


@pytest.mark.parametrize(("count", "sizes"), [(1, [1]), (2, [2]), (3, [3]), (6, [6]), (7, [4, 3]),
                                              (13, [5, 4, 4]), (19, [5, 5, 5, 4]), (32, [6, 6, 5, 5, 5, 5])])
def test_rule_tournament_tables_of_three_to_six(count, sizes):
    """docs/rules.md#tournament-tables: as few tables as hold them, as even as can be."""
    assert t.table_sizes(count) == sizes
    units = [f"p{i}" for i in range(count)]
    first = t.deal_tables(units, [], np.random.default_rng(1))
    assert [len(table) for table in first.tables] == sizes and first.bye is None
    assert sorted(u for table in first.tables for u in table) == sorted(units)


def test_rule_tournament_tables_seat_the_best_placed_together():
    """docs/rules.md#tournament-tables: after a round, the leaders share the first table."""
    units = [f"p{i}" for i in range(6)]
    results = [Result(1, 1, ("p0", "p1", "p2"), (30.0, 10.0, 0.0)),
               Result(1, 2, ("p3", "p4", "p5"), (0.0, 10.0, 30.0))]
    second = t.deal_tables(units, results, np.random.default_rng(1), 3, 3)
    assert set(second.tables[0]) == {"p0", "p5", "p1"} or set(second.tables[0]) == {"p0", "p5", "p4"}


def test_rule_tournament_standings_follow_the_documented_order():
    """docs/rules.md#tournament-standings: points, then Buchholz, then head-to-head, then the
    difference; a bye is 1 point and adds no Buchholz."""
    results = [
        Result(1, 1, ("a", "b"), (12.0, 10.0)), Result(1, 2, ("c", "d"), (12.0, 2.0)),
        Result(2, 1, ("a", "c"), (4.0, 12.0)), Result(2, 2, ("b", "d"), (12.0, 0.0)),
    ]
    table = t.standings(["a", "b", "c", "d"], results)
    # c 2 points; a and b 1 point each: a met b (1) and c (2) -> Buchholz 3; b met a (1), d (0) -> 1
    assert [s.unit for s in table] == ["c", "a", "b", "d"]
    assert [s.points for s in table] == [2.0, 1.0, 1.0, 0.0]
    assert [s.buchholz for s in table] == [1.0, 3.0, 1.0, 3.0]
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_rule_tournament_standings_head_to_head_before_difference():
    """docs/rules.md#tournament-standings: b and a level on points (1) and Buchholz (5), b won
    their own game, so b goes first though her difference is smaller."""
    results = [Result(1, 1, ("c", "b"), (12.0, 3.0)), Result(1, 2, ("f", "a"), (12.0, 7.0)),
               Result(1, 3, ("e", "d"), (10.0, 12.0)), Result(2, 1, ("d", "e"), (12.0, 2.0)),
               Result(2, 2, ("f", "b"), (12.0, 3.0)), Result(2, 3, ("a", "c"), (12.0, 9.0)),
               Result(3, 1, ("a", "b"), (10.0, 12.0)), Result(3, 2, ("d", "f"), (12.0, 6.0)),
               Result(3, 3, ("c", "e"), (12.0, 1.0))]
    table = {s.unit: s for s in t.standings(list("abcdef"), results)}
    a, b = table["a"], table["b"]
    assert (a.points, a.buchholz) == (b.points, b.buchholz) == (1.0, 5.0)
    assert b.head_to_head == 1.0 and a.head_to_head == 0.0 and b.difference < a.difference
    assert [s.unit for s in t.standings(list("abcdef"), results)] == ["d", "f", "c", "b", "a", "e"]
    assert b.rank == 4 and a.rank == 5


def test_rule_tournament_standings_difference_last_and_shared_places():
    """docs/rules.md#tournament-standings: equal on points, Buchholz and head-to-head (they never
    met), the difference decides; equal on all four, the place is shared."""
    results = [Result(1, 1, ("a", "x"), (12.0, 0.0)), Result(1, 2, ("b", "y"), (12.0, 8.0)),
               Result(1, 3, ("c", "z"), (12.0, 8.0))]
    table = t.standings(["b", "c", "a", "x", "y", "z"], results)
    assert [s.unit for s in table[:3]] == ["a", "b", "c"]
    assert [s.rank for s in table[:3]] == [1, 2, 2]
    assert table[0].difference == 12.0 and table[1].difference == 4.0


def test_rule_tournament_standings_of_a_table_of_many():
    """docs/rules.md#tournament-standings: at a 21 table of four the top scores 1, the next 2/3."""
    result = Result(1, 1, ("a", "b", "c", "d"), (40.0, 30.0, 30.0, 0.0))
    assert t.game_points(result, "a") == 1.0
    assert t.game_points(result, "b") == pytest.approx(1.5 / 3)
    assert t.game_points(result, "d") == 0.0
    bye = Result(1, 0, ("e",), bye=True)
    assert t.game_points(bye, "e") == 1.0


def test_tournament_refusals_name_the_problem_in_both_languages():
    with pytest.raises(TournamentError) as refused:
        t.swiss_round(["a"], [])
    assert refused.value.message("en") == "a tournament needs at least 2 players, not 1"
    assert refused.value.message("pt") == "um torneio precisa de pelo menos 2 participantes, não 1"
    with pytest.raises(TournamentError) as twice:
        t.round_robin(["a", "b", "a"])
    assert twice.value.code == "duplicate" and "a" in twice.value.message("pt")
    with pytest.raises(TournamentError):
        Result(1, 1, ("a", "b"), (1.0,))
    assert "Buchholz" in t.CATALOGUE.say("tie_breaks", "pt") and "Buchholz" in t.CATALOGUE.say("tie_breaks", "en")
