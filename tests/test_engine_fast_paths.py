"""The engine's fast paths (issue 30, item 7) give what the plain definitions give, and refuse
what they refuse: shared 21 actions, the pure-Python counts of unseen cards, hand totals
read by card identity, and the bots' reading of a view whose cards are not the pack's own."""
import numpy as np
import pytest

from cartas.cards import STANDARD_PACK, Card
from cartas.vinte_e_um import SensibleBot, new_game, points, unknown_counts
from cartas.vinte_e_um.actions import Action
from cartas.vinte_e_um.errors import IllegalAction, VinteEUmError
from cartas.vinte_e_um.odds import bust_for_view, unknown_list
from cartas.vinte_e_um.views import SeatView


def test_a_numbered_21_action_is_one_shared_value_and_still_checked():
    assert Action.bet(3) is Action.bet(3) is Action.parse("bet 3")
    assert Action.call(2) is Action.call(2) and Action.offer(4) is Action.offer(4)
    assert Action.bet(3) == Action("bet", amount=3) and hash(Action.bet(3)) == hash(Action("bet", amount=3))
    big = Action.bid(50_000)  # past the shared numbers: built as before
    assert big == Action("bid", amount=50_000) and str(big) == "bid 50000"
    for bad in (True, 2.0, "3", None):
        with pytest.raises(IllegalAction):
            Action.bet(bad)
    assert Action.bet(1) is not True and str(Action.bet(1)) == "bet 1"


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_unseen_counts_as_a_list_are_numpys_counts(decks):
    rng = np.random.default_rng(decks)
    pack = list(STANDARD_PACK) * decks
    for _ in range(300):
        seen = [pack[i] for i in rng.choice(len(pack), size=int(rng.integers(0, 30)), replace=False)]
        as_text = [str(c) if k % 2 else c for k, c in enumerate(seen)] + [None]
        assert unknown_list(as_text, decks) == [int(n) for n in unknown_counts(as_text, decks)]
    with pytest.raises(VinteEUmError) as refused:
        unknown_list([STANDARD_PACK[0]] * (decks + 1), decks)
    assert refused.value.code == "seen_too_often"
    for bad_seen in ("A♠", None):
        with pytest.raises(VinteEUmError):
            unknown_list(bad_seen, decks)
    with pytest.raises(VinteEUmError):
        unknown_list([], True)


def test_a_hand_total_reads_any_card_and_refuses_a_bad_ace():
    hand = [Card.parse("A♠"), "K♦", STANDARD_PACK[5]]  # a card not the pack's own, a text, the pack's own
    plain = sum(1 if c.rank.value == "A" else min(10, int(c.rank.value)) if c.rank.value.isdigit() else 10
                for c in (Card.parse(str(c)) for c in hand))
    assert points(hand) == plain
    assert points(hand[:2], "Flexível") == points(hand[:2], "flexible") == 21
    for bad in (True, np.int64(1), 1.0, "eleven", None):
        with pytest.raises(VinteEUmError):
            points(hand, bad)


def test_a_bot_reads_a_view_read_back_from_json_as_the_engines_own():
    """A view from `from_dict` holds Cards the bot's counting tells apart by their place in
    the pack, not by identity: the same choices and odds as from the engine's view."""
    for seed in range(40):
        state = new_game(4, seed=seed, rounds=2, ace=11 if seed % 2 else 1, decks=1 + seed % 2)
        bots = [SensibleBot(seed * 4 + s) for s in range(4)]
        copies = [SensibleBot(seed * 4 + s) for s in range(4)]
        while not state.is_terminal():
            seat = state.current_seat
            view = state.view(seat)
            read = SeatView.from_dict(view.to_dict())
            choice = bots[seat].choose(view)
            assert copies[seat].choose(read) == choice
            if view.hands[seat] and view.phase in ("players", "banker"):
                assert bust_for_view(read) == bust_for_view(view)
            state.apply_action(choice, seat)


def test_a_card_reads_the_same_whether_or_not_it_is_the_packs_own():
    from cartas.cards import TRUCO_PACK, Rank, Suit
    for card in STANDARD_PACK + TRUCO_PACK:
        made = Card(card.rank, card.suit)  # an equal card, not the pack's object
        assert str(made) == str(card) == f"{card.rank.value}{card.suit.value}" and repr(made) == repr(card)
        assert hash(made) == hash(card) == hash((card.rank, card.suit)) and made == card
        assert {made: 1}[card] == 1 and made in {card} and card in {made}
    assert str(Card(Rank.ACE, Suit.ESPADAS)) == "A♠"


def test_a_truco_clone_draws_what_the_original_draws_and_refuses_a_generator_a_save_cannot_name():
    from cartas.truco import TrucoError, new_game
    from cartas.truco.serialization import rng_copy
    rng = np.random.default_rng(3)
    rng.random(5)
    copy = rng_copy(rng)
    assert copy is not rng and copy.bit_generator is not rng.bit_generator
    assert copy.random(4).tolist() == rng.random(4).tolist()
    copy.random()  # the copy's draws leave the original where it was
    assert rng.bit_generator.state != copy.bit_generator.state
    state = new_game("paulista", seed=8)
    twin = state.clone()
    while not state.is_terminal():  # the same deals on and on
        action = state.legal_actions()[0]
        state.apply_action(action)
        twin.apply_action(action)
    assert twin.to_json() == state.to_json()
    with pytest.raises(TrucoError):
        rng_copy(np.random.Generator(np.random.MT19937(1)))


def test_a_truco_deal_reads_the_packs_cards_equal_cards_and_texts_alike():
    from cartas.cards import TRUCO_PACK
    from cartas.truco import TrucoError, from_deal
    own = [list(TRUCO_PACK[k:k + 3]) for k in (0, 3, 6, 9)]
    equal = [[Card(c.rank, c.suit) for c in h] for h in own]
    texts = [[str(c) for c in h] for h in own]
    games = [from_deal("paulista", hands, TRUCO_PACK[20], seed=1) for hands in (own, equal, texts)]
    assert games[0].to_json() == games[1].to_json() == games[2].to_json()
    with pytest.raises(TrucoError):
        from_deal("paulista", [own[0], own[0], own[2], own[3]], TRUCO_PACK[20], seed=1)
    with pytest.raises(TrucoError):  # a card outside the truco pack (an 8), as the pack's own object
        from_deal("paulista", [[STANDARD_PACK[7], *own[0][1:]], *own[1:]], TRUCO_PACK[20], seed=1)


def _play_rest_by_rule_card(hands, trick, results, nxt, first_tying, players):
    """The judge's play-out written plainly: `rule_card` for every card, each trick read whole."""
    from cartas.truco.rules import hand_status
    from cartas.truco.strong import COVERED, rule_card
    while True:
        while len(trick) < players:
            value, covered = rule_card(hands[nxt], trick, results, nxt, players)
            hands[nxt].remove(value)
            trick.append((nxt, COVERED if covered else value))
            nxt = (nxt + 1) % players
        best = [max(c for s, c in trick if s % 2 == team) for team in (0, 1)]
        if best[0] != best[1]:
            team = 0 if best[0] > best[1] else 1
            result, nxt = team, next(s for s, c in trick if s % 2 == team and c == best[team])
        else:
            result, nxt = None, trick[0][0]
            if first_tying and best[0] != COVERED:
                nxt = next(s for s, c in trick if c == best[0])
        results = (*results, result)
        finished, winner = hand_status(results)
        if finished:
            return winner
        trick = []


def test_the_strong_players_play_out_is_the_rule_cards_play_out():
    """`strong.play_rest` keeps each team's best card as a trick goes instead of asking
    `rule_card` (which reads the whole trick): the same winner, hands and trick, from
    positions drawn at every trick, with ties, covered cards and manilhas (strengths 10-13)."""
    import random

    from cartas.truco.rules import hand_status
    from cartas.truco.strong import COVERED, play_rest
    pick = random.Random(30)
    checked = 0
    while checked < 20_000:
        players = pick.choice((2, 4))
        done = pick.randrange(3)
        results = tuple(pick.choice((0, 1, None)) for _ in range(done))
        if hand_status(results)[0]:
            continue
        pack = [v for v in range(14) for _ in range(4 if v < 10 else 1)]
        pick.shuffle(pack)
        leader = pick.randrange(players)
        on_table = pick.randrange(players)
        trick = []
        hands = [[pack.pop() for _ in range(3 - done)] for _ in range(players)]
        for k in range(on_table):
            seat = (leader + k) % players
            card = hands[seat].pop()
            trick.append((seat, COVERED if results and pick.random() < 0.2 else card))
        nxt = (leader + on_table) % players
        first_tying = pick.random() < 0.5
        mine = [list(h) for h in hands], list(trick)
        theirs = [list(h) for h in hands], list(trick)
        assert play_rest(*mine, results, nxt, first_tying, players) == _play_rest_by_rule_card(
            *theirs, results, nxt, first_tying, players)
        assert mine == theirs
        checked += 1
