"""Why a trick or a hand ended as it did, in one sentence, from the truco catalogue.

`explain_trick(plays, variant, vira, lang)`, `explain_hand(results, lang)` and
`explain_last_hand(state.last_hand, variant, lang)`; the rules themselves come from
`cartas.truco.rules`, the words from `cartas.truco.catalogue`. `players`: 4, or 2 mano a mano,
where a team is its one player, named as a seat ("o assento 1 leva a rodada";
docs/rules.md#mano-a-mano-players); `explain_last_hand` reads it from the hand's deal.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..cards import Card
from .catalogue import CATALOGUE, cap, card_phrase, seat_name, team_phrase, unit
from .errors import TrucoError
from .rules import COVERED, _check_plays, check_results, hand_status, resolve_trick
from .variants import Variant, get_variant, manilhas


def _team(team: int, lang: str, players: int) -> str:
    """ "a dupla A (assentos 0 e 2)"; mano a mano the team's one seat, "o assento 1"."""
    if players == 2:
        return CATALOGUE.say("ex_player", lang, seat=seat_name(team, lang))
    return team_phrase(team, lang)


def explain_trick(plays: Iterable[tuple[int, Card | str | None]], variant: Variant | str,
                  vira: Card | str | None = None, lang: str = "pt", players: int = 4) -> str:
    """One sentence saying who wins the trick and why, in Portuguese ("pt") or English."""
    variant = get_variant(variant)
    parsed, triples, strength = _check_plays(plays, variant, vira)
    team, win, tie = resolve_trick(triples, strength)
    names = dict(zip(manilhas(variant, vira), variant.manilha_names))
    by_seat = {s: COVERED if cov else strength[c] for s, c, cov in triples}
    cards = dict(parsed)
    say = CATALOGUE.say

    def show(s: int) -> str:
        card = cards[s]
        if card is None:
            return say("ex_covered_of", lang, seat=seat_name(s, lang))
        return say("ex_card_of", lang, card=card_phrase(str(card), names.get(card), lang),
                   seat=seat_name(s, lang))

    if team is None and tie is None:
        return say("ex_all_covered", lang)
    if tie is not None:  # a tie of visible cards: no team took the trick
        level = by_seat[triples[tie][0]]
        tied = [s for s, _ in parsed if by_seat[s] == level]
        joined = CATALOGUE.template("ex_and", lang).join(show(s) for s in tied)
        return say("ex_tie_solo" if players == 2 else "ex_tie", lang, cards=joined)
    # neither a tie nor all covered: a team took the trick, with this card
    assert win is not None and team is not None
    seat = triples[win][0]
    others = [s for s, c in parsed if (s & 1) != team and c is not None]
    if others:
        best_other = max(others, key=lambda s: by_seat[s])
        sentence = say("ex_beats", lang, Winner=cap(show(seat)), loser=show(best_other))
    else:
        sentence = say("ex_no_card_solo" if players == 2 else "ex_no_card", lang, Winner=cap(show(seat)))
    if any(s != seat and (s & 1) == team and by_seat[s] == by_seat[seat] for s, _ in parsed):
        sentence += say("ex_partner_tie", lang)
    return say("ex_takes_trick", lang, sentence=sentence, team=_team(team, lang, players))


def explain_hand(results: Iterable[int | None], lang: str = "pt", players: int = 4) -> str:
    """One sentence saying who takes the hand from these trick results and why."""
    r = tuple(check_results(results))
    winner = hand_status(r)[1]
    team = "" if winner is None else _team(winner, lang, players)
    fields = {"team": team, "Team": cap(team)}
    if len(r) == 2 and r[0] is not None and r[0] == r[1]:
        key = "ex_hand_two"
    elif len(r) == 2 and r[0] is None:
        key = "ex_hand_tie_first"
    elif len(r) == 2:
        key = "ex_hand_tie_second"
    elif r[0] is None and r[1] is None and winner is None:
        key = "ex_hand_all_tied"
    elif r[0] is None:
        key = "ex_hand_third_decides"
    elif r[2] is None:
        key = "ex_hand_first_counts"
    else:
        key = "ex_hand_third"
    if players == 2 and f"{key}_solo" in CATALOGUE:
        key = f"{key}_solo"
    return CATALOGUE.template(key, lang).format(**fields)


def explain_ending(last_hand: Mapping[str, Any], variant: Variant | str, lang: str = "pt") -> str:
    """Why the last hand ended as it did when no trick decided it (a run, a run from the
    mão de onze/dez, a forbidden raise)."""
    variant = get_variant(variant)
    players = len(last_hand["hands"])
    reason, points, winner = last_hand["reason"], last_hand["points"], last_hand["winner_team"]
    team = "" if winner is None else _team(winner, lang, players)
    name = variant.threshold_name
    if reason == "run":
        asked = last_hand["refused_value"]
        word = variant.raise_name(asked) if asked in variant.ladder else str(asked)
        seat = seat_name(last_hand["seat"], lang)
        return CATALOGUE.template("ex_ran", lang).format(
            seat=seat, Seat=cap(seat), word=word, asked=asked, team=team, points=points,
            unit=unit(points, lang))
    if reason == "ran_hand":
        return CATALOGUE.template("ex_ran_hand", lang).format(
            Ran=cap(_team(1 - winner, lang, players)), name=name, team=team, points=points,
            unit=unit(points, lang))
    if reason == "forbidden_raise":
        return CATALOGUE.template("ex_forbidden", lang).format(
            Raiser=cap(_team(1 - winner, lang, players)), name=name)
    raise TrucoError("tricks_decided")


def explain_last_hand(last_hand: Mapping[str, Any], variant: Variant | str, lang: str = "pt") -> str:
    """Why `state.last_hand` ended as it did: its deciding trick and the hand's result, or who
    ran (from a raise or from the mão de onze/dez) and what it paid, or the forbidden raise."""
    variant = get_variant(variant)
    if last_hand["reason"] not in ("tricks", "all_tied"):
        return explain_ending(last_hand, variant, lang)
    trick = [(seat, card) for seat, card in last_hand["tricks"][-1]]
    players = len(last_hand["hands"])  # 4, or 2 mano a mano
    return (explain_trick(trick, variant, last_hand["vira"], lang, players) + " "
            + explain_hand(last_hand["trick_results"], lang, players))


def explain_next_leader(tie_lead: str, seat: int, lang: str = "pt") -> str:
    """ "Depois do empate, assento 2 abre a próxima rodada (quem ...)." for a tied trick."""
    return CATALOGUE.say("ex_next_leader", lang, seat=seat_name(seat, lang),
                         rule=CATALOGUE.template(f"tie_lead_{tie_lead}", lang))
