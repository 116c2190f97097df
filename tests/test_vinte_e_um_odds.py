"""Exact odds against seeded Monte Carlo estimates."""
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cartas.cards import STANDARD_PACK, Card, make_rng, standard_pack
from cartas.vinte_e_um import (
    banker_final_distribution,
    bust_probability,
    new_game,
    odds_for_view,
    points,
    win_probability,
)
from cartas.vinte_e_um.bots import SensibleBot

N = 20_000


def unknown(seen, decks):
    pack = standard_pack(decks)
    for card in map(Card.parse, seen):
        pack.remove(card)
    return pack


def within(exact, hits, n=N):
    """Exact probability against a Monte Carlo frequency: 4.5 standard errors, floor 0.005."""
    sigma = max(np.sqrt(exact * (1 - exact) / n), 0.001)
    assert abs(hits / n - exact) < 4.5 * sigma + 0.002, (exact, hits / n)


def banker_sample(rng, pool, visible, hidden, draw_below, ace, under_21):
    while True:
        order = rng.permutation(len(pool))
        hand = [pool[i] for i in order[:hidden]] + list(visible)
        if under_21 and points(hand[:2], ace) == 21:
            continue  # the round would have ended at his second card (two aces, 22, go on)
        k = hidden
        while len(hand) < 2 or points(hand, ace) < min(draw_below, 21):
            hand.append(pool[order[k]])
            k += 1
        return points(hand, ace)


def test_bust_probability_exact_by_hand():
    assert bust_probability(["10♥", "5♠"]) == pytest.approx(27 / 50)  # 7, 8, 9 and 15 tens
    assert bust_probability(["10♥", "A♠"]) == 0.0
    assert bust_probability(["10♥", "A♠"], ace=11) == 1.0
    assert bust_probability(["10♥", "A♠"], ace="flexible") == 0.0  # the ace drops to 1


@pytest.mark.parametrize("hand, seen, ace, decks", [
    (["10♥", "5♠"], ["9♦", "8♦", "7♣"], 1, 1),
    (["A♥", "6♠"], ["K♦"], 11, 1),
    (["A♥", "6♠", "3♣"], ["2♦", "Q♣"], "flexible", 2),
])
def test_bust_probability_matches_monte_carlo(hand, seen, ace, decks):
    pool = unknown(hand + seen, decks)
    picks = make_rng(1).integers(len(pool), size=N)
    hits = sum(points(hand + [pool[i]], ace) > 21 for i in picks)
    within(bust_probability(hand, seen, ace, decks), hits)


@pytest.mark.parametrize("visible, hidden, seen, ace, decks, draw_below, under", [
    (["6♣"], 1, ["10♥", "7♠"], 1, 1, 17, True),
    (["A♣"], 1, ["9♥"], 11, 1, 17, True),
    (["5♦", "4♣"], 1, ["K♠", "2♥"], "flexible", 2, 18, True),
    ([], 1, ["8♥"], 1, 1, 15, False),
])
def test_banker_distribution_matches_monte_carlo(visible, hidden, seen, ace, decks, draw_below, under):
    exact = banker_final_distribution(visible, seen, hidden, draw_below, ace, decks, under)
    assert sum(exact.values()) == pytest.approx(1.0)
    pool, rng = unknown(visible + seen, decks), make_rng(2)
    finals = [banker_sample(rng, pool, visible, hidden, draw_below, ace, under) for _ in range(N)]
    for total, p in exact.items():
        hits = sum(f > 21 for f in finals) if total == "bust" else finals.count(total)
        within(p, hits)


@pytest.mark.parametrize("player, banker, seen, ace, decks", [
    (["10♥", "8♠"], ["6♦"], [], 1, 1),
    (["9♥", "A♠"], ["10♦"], ["3♣", "4♣"], 11, 1),
    (["5♥", "A♠", "4♣"], ["7♦"], ["J♣"], "flexible", 2),
])
def test_win_probability_matches_monte_carlo(player, banker, seen, ace, decks):
    exact = win_probability(player, banker, seen, ace=ace, decks=decks)
    pool, rng, mine = unknown(player + banker + seen, decks), make_rng(3), points(player, ace)
    wins = 0
    for _ in range(N):
        final = banker_sample(rng, pool, banker, 1, 17, ace, True)
        wins += final > 21 or final < mine
    within(exact, wins)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(STANDARD_PACK), min_size=1, max_size=3, unique=True),
       st.sampled_from(STANDARD_PACK), st.sampled_from([1, 11, "flexible"]), st.integers(12, 21))
def test_distributions_are_probabilities(hand, up, ace, draw_below):
    if up in hand:
        return
    dist = banker_final_distribution([up], hand, 1, draw_below, ace)
    assert sum(dist.values()) == pytest.approx(1.0) and min(dist.values()) >= 0
    assert all(t == "bust" or t >= min(draw_below, 21) or t < draw_below for t in dist)
    assert 0.0 <= bust_probability(hand, [up], ace) <= 1.0
    win = win_probability(hand, [up], ace=ace)
    assert 0.0 <= win <= 1.0
    if points(hand, ace) > 21:
        assert win == 0.0


def test_odds_for_view_uses_only_what_the_seat_sees():
    game = new_game(5, seed=4, banker=0)
    bot = SensibleBot(1)
    while game.phase == "bet":
        game.apply_action(bot.choose(game.view(game.current_seat)))
    seat = game.current_seat
    view = game.view(seat)
    figures = odds_for_view(view)
    mine = [str(c) for c in game.hands[seat]]
    others = [str(c) for c in view.seen if str(c) not in mine and c != game.hands[0][1]]
    assert figures["bust"] == bust_probability(mine, others + [str(game.hands[0][1])])
    assert figures["win"] == win_probability(mine, [str(game.hands[0][1])], others)
    # the banker's hidden card is not used: any hidden card gives the same figures
    swapped = game.clone()
    swapped.hands[0][0], swapped.stock[0] = swapped.stock[0], swapped.hands[0][0]
    assert odds_for_view(swapped.view(seat)) == figures


def test_each_odds_figure_is_fast():
    for f, args in [(bust_probability, (["5♥", "4♣"], ["6♦"])),
                    (banker_final_distribution, ([], ["5♥"], 1, 17, "flexible", 2)),
                    (win_probability, (["10♥", "7♣"], ["2♦"], [], 1, 17, 1, 2))]:
        from cartas.vinte_e_um import odds
        odds._final.cache_clear()
        start = time.perf_counter()
        f(*args)
        assert time.perf_counter() - start < 0.25  # 50 ms in the benchmark; slack for CI
