"""Pure truco rules: teams, the deal's layout, who wins a trick, who takes a hand.

Each rule is written here once and used by the game state, the odds, the explanations and
the widgets alike:

- teams: team 0 = seats 0 and 2, team 1 = seats 1 and 3 (`team_of`, `partner_of`,
  `team_seats`); seats play in order 0, 1, 2, 3, 0...; mano a mano (`players` 2, see
  `PLAYER_COUNTS`) seat 0 is team 0 and seat 1 team 1, each a team of one, playing 0, 1, 0...;
- the deal (`deal_order`, `deal_hands`, `VIRA_CARD`);
- a trick (`resolve_trick`): each team's best card counts; the higher one takes the trick,
  equal ones tie it, a face-down card is worth nothing, and between partners holding equal
  best cards the one who played first takes it;
- carta coberta (a face-down card) is allowed from trick `COVER_FROM_TRICK` (2) on only;
- after a tied trick (`next_leader`) the tied trick's leader leads again ("leader") or the
  player of the first tying card does ("first_tying");
- a hand (`hand_status`): see `hand_winner`.

Cards are handled inside the engine as indexes into `cartas.cards.TRUCO_PACK`, with one
precomputed strength list per (variant, vira), so the hot path never hashes a Card.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TypeVar, cast

from ..cards import TRUCO_PACK, Card
from ..contract import Event
from ..options import Option
from .errors import TrucoError
from .variants import Variant, get_variant, manilhas, strength_table

CARD_INDEX: dict[Card, int] = {card: i for i, card in enumerate(TRUCO_PACK)}
CARD_TEXT: tuple[str, ...] = tuple(str(card) for card in TRUCO_PACK)
COVERED = -1  # the strength of a face-down card: below every real card


SEATS = (0, 1, 2, 3)
TEAMS = (0, 1)
# How many play: 4 (two pairs, the default) or 2 (mano a mano, one against one).
# Decided: docs/rules.md#mano-a-mano-players
PLAYER_COUNTS = (4, 2)
TIE_LEADS = ("leader", "first_tying")
# A truco game's options, as its `cartas.games` spec shows them and a saved game's setup is
# checked against them (docs/rules.md#saved-game-replays).
# `hands`: a short game of that many hands (None: to 12; docs/rules.md#truco-short-game).
MAX_HANDS = 30
HANDS_OPTION = Option("hands", None, low=1, high=MAX_HANDS, nullable=True)
OPTIONS: tuple[Option, ...] = (Option("tie_lead", "leader", choices=TIE_LEADS), HANDS_OPTION)
COVER_FROM_TRICK = 2  # carta coberta is allowed from the second trick on, never in the first


def team_of(seat: int) -> int:
    """The team of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return _seat(seat, "seat") & 1


def partner_of(seat: int) -> int:
    """The partner's seat: across the table (0 <-> 2, 1 <-> 3)."""
    return (_seat(seat, "seat") + 2) & 3


def team_seats(team: int, players: int = 4) -> tuple[int, ...]:
    """The seats of a team: (0, 2) for team 0, (1, 3) for team 1; mano a mano (`players`
    2) the team's one seat, (0,) or (1,). Decided: docs/rules.md#mano-a-mano-players."""
    if team not in TEAMS or isinstance(team, bool):
        raise TrucoError("bad_result", result=repr(team)[:40])
    return (team, team + 2) if check_players(players) == 4 else (team,)


def check_players(players: object) -> int:
    """`players` itself if it is 4 or 2 (`PLAYER_COUNTS`); a TrucoError "bad_players" naming
    it otherwise. Decided: docs/rules.md#mano-a-mano-players."""
    if type(players) is not int or players not in PLAYER_COUNTS:
        raise TrucoError("bad_players", value=repr(players)[:40])
    return players


def check_hands(hands: object) -> int | None:
    """The length of a short game: None (a game to 12, the default) or a whole number of hands
    from 1 to MAX_HANDS; a TrucoError "bad_hands" naming it otherwise.
    Decided: docs/rules.md#truco-short-game."""
    if hands is None:
        return None
    if type(hands) is not int or not 1 <= hands <= MAX_HANDS:
        raise TrucoError("bad_hands", low=1, high=MAX_HANDS, value=repr(hands)[:40])
    return hands


def short_game_winner(score: Sequence[int], hand_number: int, hands: int | None) -> int | None:
    """The team that wins a short game of `hands` hands once hand `hand_number` is scored
    (`score` after it, neither team at the target): the team ahead once that many hands have
    been played; None while the game goes on (before the last hand, or level after it: then
    it plays on hand by hand until one team is ahead, or reaches the target). A game to 12
    (`hands` None) never ends this way. Decided: docs/rules.md#truco-short-game."""
    if hands is None or hand_number < hands or score[0] == score[1]:
        return None
    return 0 if score[0] > score[1] else 1


def seat_partner(seat: int, players: int = 4) -> int | None:
    """The partner's seat (`partner_of`) at a table of four; None mano a mano, where each
    player is a team of one. Decided: docs/rules.md#mano-a-mano-players."""
    if check_players(players) == 4:
        return partner_of(seat)
    _seat(seat, "seat", players)
    return None


def may_cover(trick_number: int) -> bool:
    """Whether carta coberta (a face-down card) is allowed in this trick (1, 2 or 3).
    Decided: docs/rules.md#truco-no-cover-first."""
    return trick_number >= COVER_FROM_TRICK


# -- deal, play order and the events of a hand ---------------------------------------------

CARDS_EACH = 3   # every seat is dealt three cards
VIRA_CARD = 12   # pack position of the vira: the 13th card of the shuffle (Paulista)


def _seat(seat: object, what: str, players: int = 4) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise TrucoError("bad_dealer" if what == "dealer" else "bad_seat",
                         seat=repr(seat)[:40], dealer=repr(seat)[:40], top=players - 1)
    return seat


def play_order(leader: int, players: int = 4) -> list[int]:
    """The seats in play order starting with `leader` (seats play 0, 1, 2, 3, 0, ...; mano a
    mano 0, 1, 0, ...)."""
    players = check_players(players)
    leader = _seat(leader, "leader", players)
    return [(leader + k) % players for k in range(players)]


def vira_card(players: int = 4) -> int:
    """The pack position of the vira (Paulista): the card after the hands, 12 (the 13th
    card, `VIRA_CARD`) with four players, 6 (the 7th) mano a mano.
    Decided: docs/rules.md#mano-a-mano-deal."""
    return CARDS_EACH * check_players(players)


def deal_order(dealer: int, players: int = 4) -> list[tuple[int, int]]:
    """Where the dealt cards (12; 6 mano a mano) go, in the order they leave the shuffled pack.

    Item n is (seat, position in that seat's hand) for the n-th card of the shuffle. The
    rule: the mão (the seat after the dealer) gets the first three cards, then each seat in
    play order gets the next three, the dealer last; in Paulista the next card, the 13th
    (pack position `VIRA_CARD`; the 7th mano a mano, `vira_card`), is turned up as the vira.
    Decided: docs/rules.md#truco-deal-order.
    Decided: docs/rules.md#mano-a-mano-deal.
    """
    players = check_players(players)
    mao = (_seat(dealer, "dealer", players) + 1) % players
    return [(seat, k) for seat in play_order(mao, players) for k in range(CARDS_EACH)]


_T = TypeVar("_T")


def deal_hands(pack: Sequence[_T], dealer: int, uses_vira: bool,
               players: int = 4) -> tuple[list[list[_T]], _T | None]:
    """The hands (one per seat, in seat order) and the vira (None without one) that dealing
    from `pack` (cards in shuffled order, at least 13; 7 mano a mano) gives, as `deal_order`
    says."""
    order = deal_order(dealer, players)
    hands: list[list[_T | None]] = [[None] * CARDS_EACH for _ in range(players)]
    for n, (seat, k) in enumerate(order):
        hands[seat][k] = pack[n]
    # cast: the deal fills every one of the places, so no None is left
    return cast("list[list[_T]]", hands), (pack[len(order)] if uses_vira else None)


def pack_left(cards_out: int) -> int:
    """Cards still face down in the 40-card pack once `cards_out` have left it (the vira
    counts: after the whole deal of a Paulista hand 27 are left, in Mineiro 28)."""
    return len(TRUCO_PACK) - cards_out


def hand_events(events: Sequence[Event], hand_number: int = 1) -> list[Event]:
    """The events of one hand, from its "deal" event through its "hand" event, plus the
    "game" event when that hand ended the game. Empty if the hand was never dealt; while the
    hand is still being played, the events so far (its "hand" event is then missing)."""
    start = next((i for i, e in enumerate(events)
                  if e["type"] == "deal" and e["hand_number"] == hand_number), None)
    if start is None:
        return []
    end = next((i + 1 for i in range(start, len(events)) if events[i]["type"] == "hand"),
               len(events))
    if end < len(events) and events[end]["type"] == "game":
        end += 1
    return list(events[start:end])


@cache
def strength_list(variant: Variant, vira_index: int | None) -> tuple[int, ...]:
    """Strength of each pack index for this variant and vira (see `strength_table`)."""
    vira = None if vira_index is None else TRUCO_PACK[vira_index]
    table = strength_table(variant, vira)
    return tuple(table[card] for card in TRUCO_PACK)


def resolve_trick(plays: Sequence[tuple[int, int, bool]],
                  strength: Sequence[int]) -> tuple[int | None, int | None, int | None]:
    """The trick rule, on (seat, pack index, face down?) triples in play order, with
    `strength` the strength of each pack index for the hand's variant and vira
    (`strength_list`).

    Returns (winning team or None for a tie, position in `plays` of the winning card or
    None, position of the first tying card or None). Each team's best card counts: the
    higher takes the trick, equal ones tie it (a tie of face-down cards has no tying card);
    a face-down card is worth nothing (COVERED); between partners with equal best cards,
    the first played counts.
    Decided: docs/rules.md#truco-tie.
    Decided: docs/rules.md#truco-tied-partners.
    Decided: docs/rules.md#truco-covered.
    """
    best0 = best1 = COVERED
    at0 = at1 = -1
    pos = 0
    for seat, card, covered in plays:
        value = COVERED if covered else strength[card]
        if seat & 1:
            if value > best1:
                best1, at1 = value, pos
        elif value > best0:
            best0, at0 = value, pos
        pos += 1
    if best0 > best1:
        return 0, at0, None
    if best1 > best0:
        return 1, at1, None
    if best0 == COVERED:
        return None, None, None
    return None, None, at0 if at0 < at1 else at1


def next_leader(tie_lead: str, leader: int, trick_seats: Sequence[int], winning: int | None,
                first_tying: int | None) -> int:
    """Who leads the next trick: the winner of this one; after a tie, the tied trick's
    `leader` ("leader") or the player of its first tying card ("first_tying"; the leader
    when every card was face down). `winning`/`first_tying` are positions in the trick.
    Decided: docs/rules.md#truco-tie-lead."""
    if winning is not None:
        return trick_seats[winning]
    if tie_lead == "first_tying" and first_tying is not None:
        return trick_seats[first_tying]
    return leader


def hand_status(results: Sequence[int | None]) -> tuple[bool, int | None]:
    """(finished, winning team or None) for trick results so far; no validation.
    Decided: docs/rules.md#truco-hand-ties."""
    n = len(results)
    if n < 2:
        return False, None
    first, second = results[0], results[1]
    if n == 2:
        if first is None:
            return second is not None, second
        if second is None or second == first:
            return True, first
        return False, None
    third = results[2]
    if third is not None:
        return True, third
    # Trick 3 tied: with one trick each the winner of trick 1 takes the hand;
    # after two tied tricks nobody scores (first is None then).
    return True, first


# -- public rule functions --------------------------------------------------------------

def _check_plays(plays: object, variant: Variant, vira: Card | str | None
                 ) -> tuple[list[tuple[int, Card | None]], list[tuple[int, int, bool]], tuple[int, ...]]:
    """Validate a trick given as (seat, card-or-None) pairs; return (the pairs parsed, the
    (seat, pack index, face down?) triples of `resolve_trick`, the strength list)."""
    if isinstance(plays, (str, bytes)) or not hasattr(plays, "__iter__"):
        raise TrucoError("play_pair", item=repr(plays)[:40])
    plays = list(itertools.islice(plays, 5))
    if len(plays) > 4:
        raise TrucoError("too_many_plays", n=len(plays))
    parsed: list[tuple[int, Card | None]] = []
    seats, cards = set(), set()
    for item in plays:
        try:
            seat, card = item
        except (TypeError, ValueError):
            raise TrucoError("play_pair", item=repr(item)[:40]) from None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise TrucoError("bad_seat", seat=repr(seat)[:40], top=3)
        if seat in seats:
            raise TrucoError("seat_twice", seat=seat)
        seats.add(seat)
        if card is not None:
            try:
                card = Card.parse(card)
            except ValueError:
                raise TrucoError("unreadable_card", text=str(card)[:40], seat=seat,
                                 place="trick") from None
            if card not in CARD_INDEX:
                raise TrucoError("not_in_pack", card=str(card))
            if card in cards:
                raise TrucoError("card_twice", card=str(card))
            cards.add(card)
        parsed.append((seat, card))
    if not parsed:
        raise TrucoError("empty_trick")
    manilhas(variant, vira)  # checks the vira (needed in Paulista, ignored in Mineiro)
    vira_index = CARD_INDEX[Card.parse(vira)] if variant.uses_vira else None
    triples = [(seat, 0 if card is None else CARD_INDEX[card], card is None)
               for seat, card in parsed]
    return parsed, triples, strength_list(variant, vira_index)


def trick_winner(plays: Iterable[tuple[int, Card | str | None]], variant: Variant | str,
                 vira: Card | str | None = None) -> int | None:
    """The team (0 or 1) that wins the trick, or None for a tie.

    `plays` is the trick in order as (seat, card) pairs, a face-down card given as None.
    `vira` is needed for Truco Paulista and ignored for Mineiro. Raises ValueError for
    a malformed trick (unknown seat, a seat or card twice, a card outside the pack).
    """
    variant = get_variant(variant)
    _, triples, strength = _check_plays(plays, variant, vira)
    return resolve_trick(triples, strength)[0]


def trick_winning_seat(plays: Iterable[tuple[int, Card | str | None]], variant: Variant | str,
                       vira: Card | str | None = None) -> int | None:
    """The seat whose card takes the trick, or None for a tie (arguments as `trick_winner`).

    Between partners holding equal best cards, the one who played first takes it."""
    variant = get_variant(variant)
    _, triples, strength = _check_plays(plays, variant, vira)
    pos = resolve_trick(triples, strength)[1]
    return None if pos is None else triples[pos][0]


def trick_next_leader(plays: Iterable[tuple[int, Card | str | None]], variant: Variant | str,
                      vira: Card | str | None = None,
                      tie_lead: str = "leader") -> int:
    """Who leads the trick after this full trick (four plays in order, arguments as
    `trick_winner`): its winner, or after a tie as `tie_lead` says (see `next_leader`)."""
    variant = get_variant(variant)
    if tie_lead not in TIE_LEADS:
        raise TrucoError("bad_tie_lead", value=repr(tie_lead)[:40])
    parsed, triples, strength = _check_plays(plays, variant, vira)
    _, win, tie = resolve_trick(triples, strength)
    return next_leader(tie_lead, parsed[0][0], [s for s, _ in parsed], win, tie)


def check_results(results: object) -> list[int | None]:
    """The results of a finished hand as a list, or a TrucoError saying what is wrong."""
    if isinstance(results, (str, bytes)) or not hasattr(results, "__iter__"):
        raise TrucoError("bad_result", result=repr(results)[:40])
    results = list(itertools.islice(results, 4))
    for r in results:
        if r not in (0, 1, None) or isinstance(r, bool):
            raise TrucoError("bad_result", result=repr(r)[:40])
    if len(results) > 3:
        raise TrucoError("too_many_tricks", n=len(results))
    for n in range(2, len(results)):
        if hand_status(results[:n])[0]:
            raise TrucoError("past_decided", results=results, n=n)
    if not hand_status(results)[0]:
        raise TrucoError("undecided", results=results)
    return results


def hand_winner(results: Iterable[int | None]) -> int | None:
    """The team that takes a finished hand from its trick results, or None if nobody scores.

    `results` holds each trick's result in order: 0, 1, or None for a tie. Raises
    ValueError for a sequence that is not a finished hand (still undecided, or going on
    past the deciding trick).
    """
    return hand_status(check_results(results))[1]


def finished_sequences() -> list[tuple[int | None, ...]]:
    """Every sequence of trick results that finishes a hand (15 of them), shortest first."""
    found: list[tuple[int | None, ...]] = []
    outcomes = (0, 1, None)
    for a in outcomes:
        for b in outcomes:
            if hand_status((a, b))[0]:
                found.append((a, b))
            else:
                found.extend((a, b, c) for c in outcomes)
    return sorted(found, key=len)
