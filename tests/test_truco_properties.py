"""Property tests (hypothesis) for the trick and hand rules and the game state."""
import random

from hypothesis import given, settings, strategies as st

from cartas.cards import TRUCO_PACK
from cartas.truco import (
    MINEIRO,
    PAULISTA,
    Action,
    IllegalActionError,
    finished_sequences,
    from_deal,
    from_json,
    hand_winner,
    strength_table,
    trick_winner,
)

variants = st.sampled_from([PAULISTA, MINEIRO])


@st.composite
def tricks(draw):
    """(variant, vira, plays): four distinct cards in play order, some maybe face down."""
    variant = draw(variants)
    cards = draw(st.permutations(TRUCO_PACK))[:5]
    vira = cards[4] if variant.uses_vira else None
    leader = draw(st.integers(0, 3))
    covered = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    plays = [((leader + k) % 4, None if covered[k] else cards[k]) for k in range(4)]
    return variant, vira, plays


def shift(plays, by):
    return [((seat + by) % 4, card) for seat, card in plays]


@given(tricks())
def test_trick_winner_ignores_who_leads(trick):
    variant, vira, plays = trick
    rotated = plays[1:] + plays[:1]
    assert trick_winner(rotated, variant, vira) == trick_winner(plays, variant, vira)


@given(tricks())
def test_trick_winner_swaps_with_the_teams(trick):
    variant, vira, plays = trick
    result = trick_winner(plays, variant, vira)
    swapped = trick_winner(shift(plays, 1), variant, vira)
    assert swapped == (None if result is None else 1 - result)


@given(tricks())
def test_trick_winner_is_the_team_with_the_best_face_up_card(trick):
    variant, vira, plays = trick
    table = strength_table(variant, vira)
    best = [max((table[c] for s, c in plays if c is not None and s % 2 == t), default=-1)
            for t in (0, 1)]
    expected = None if best[0] == best[1] else int(best[1] > best[0])
    assert trick_winner(plays, variant, vira) == expected


@given(tricks(), st.integers(0, 3))
def test_covering_a_losing_card_never_changes_the_winner(trick, index):
    variant, vira, plays = trick
    result = trick_winner(plays, variant, vira)
    if result is not None and plays[index][0] % 2 != result:
        plays = list(plays)
        plays[index] = (plays[index][0], None)
        assert trick_winner(plays, variant, vira) == result


@given(st.sampled_from(finished_sequences()), st.sampled_from([0, 1, None]))
def test_hand_winner_mirrors_and_refuses_extra_tricks(results, extra):
    mirrored = tuple(None if r is None else 1 - r for r in results)
    winner = hand_winner(results)
    assert hand_winner(mirrored) == (None if winner is None else 1 - winner)
    try:
        hand_winner(results + (extra,))
    except ValueError:
        pass
    else:
        raise AssertionError("a trick after the deciding one was accepted")


@st.composite
def games(draw):
    """A random deal and score, a tie-lead option and a seed for the moves."""
    variant = draw(variants)
    cards = [str(c) for c in draw(st.permutations(TRUCO_PACK))[:13]]
    hands = [cards[3 * k:3 * k + 3] for k in range(4)]
    vira = cards[12] if variant.uses_vira else None
    top = variant.target - 1
    score = (draw(st.integers(0, top)), draw(st.integers(0, top)))
    return (variant, hands, vira, draw(st.integers(0, 3)), score,
            draw(st.sampled_from(["leader", "first_tying"])), draw(st.integers(0, 2**32)))


ALL_ACTIONS = ([Action.play(c) for c in TRUCO_PACK] + [Action.cover(c) for c in TRUCO_PACK]
               + [Action.blind(p) for p in range(3)] + [Action.raise_to(v) for v in (3, 4, 6, 9, 10, 12)]
               + [Action.parse(t) for t in ("accept", "run", "play hand", "run hand")])


@settings(max_examples=60, deadline=None)
@given(games())
def test_illegal_actions_raise_and_leave_the_state_unchanged(game):
    variant, hands, vira, dealer, score, tie_lead, seed = game
    s = from_deal(variant, hands, vira, dealer, score, seed=seed, tie_lead=tie_lead)
    pick = random.Random(seed)
    for _ in range(25):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        illegal = [a for a in ALL_ACTIONS if a not in legal
                   # in a mão de onze/dez a raise of any value is the (losing) call for truco
                   and not (s.raise_forbidden and a.kind == "raise"
                            and any(x.kind == "raise" for x in legal))]
        wrong = illegal[pick.randrange(len(illegal))]
        before = s.to_json()
        try:
            s.apply_action(wrong)
        except IllegalActionError as err:
            assert str(err)
        else:
            raise AssertionError(f"{wrong} was accepted; legal were {legal}")
        assert s.to_json() == before
        s.apply_action(str(legal[pick.randrange(len(legal))]))  # the text form works too


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(0, 40))
def test_json_round_trip_is_exact_and_plays_on_identically(game, steps):
    variant, hands, vira, dealer, score, tie_lead, seed = game
    s = from_deal(variant, hands, vira, dealer, score, seed=seed, tie_lead=tie_lead)
    pick = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply_action(legal[pick.randrange(len(legal))])
    copy = from_json(s.to_json())
    assert copy.to_json() == s.to_json()
    for state in (s, copy):
        follow = random.Random(steps)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[follow.randrange(len(legal))])
    assert copy.to_json() == s.to_json()


@settings(max_examples=60, deadline=None)
@given(games())
def test_engine_hands_agree_with_hand_winner(game):
    variant, hands, vira, dealer, score, tie_lead, seed = game
    s = from_deal(variant, hands, vira, dealer, score, seed=seed, tie_lead=tie_lead)
    pick = random.Random(seed)
    while not s.is_terminal():
        legal = [a for a in s.legal_actions() if a.kind != "raise"] or s.legal_actions()
        s.apply_action(legal[pick.randrange(len(legal))])
    for event in s.events:
        if event["type"] == "hand" and event["reason"] in ("tricks", "all_tied"):
            assert hand_winner(event["results"]) == event["winner_team"]
        if event["type"] == "trick":
            plays = [(seat, card) for seat, card in event["plays"]]
            assert event["winner_team"] == trick_winner(plays, variant, _vira_before(s.events, event))


def _vira_before(events, target):
    vira = None
    for event in events:
        if event["type"] == "deal":
            vira = event["vira"]
        if event is target:
            return vira
    raise AssertionError("event not found")
