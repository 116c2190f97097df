"""`narrate(event, lang)`: one sentence for one event of `state.events`, from the catalogue.

Every event names its variant (`event["variant"]`), so narration needs nothing else; the
state's own `state.narrate(event, lang)` is the same function.

Decided rule: with `names` ({seat: name}, a table of learners), a seat that has a name is
called by it ("Ana joga 7♥."); the other seats, and every seat without `names`, are "assento
N" / "seat N". A team is still named with its seats ("a dupla A (assentos 0 e 2)"); mano a
mano (`players` 2) a team is its one player, called as a seat is ("Ana leva a mão",
"Assento 1 vence o jogo"; docs/rules.md#mano-a-mano-players).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from ..catalogue import check_lang
from ..contract import Event
from .catalogue import CATALOGUE, cap, card_phrase, ordinal, seat_name, team_phrase, unit
from .errors import TrucoError
from .rules import check_players
from .variants import get_variant


def narrate(event: Event, lang: str = "pt", names: Mapping[int, str] | None = None,
            players: int = 4) -> str:
    """One sentence for one event, in Portuguese ("pt", the default) or English ("en");
    a seat in `names` is called by its name (see the module's rule); `players`: the game's
    (4, or 2 mano a mano, where a team is called as its one player is)."""
    lang = check_lang(lang)
    kind = event.get("type") if isinstance(event, dict) else None
    handler = _NARRATORS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise TrucoError("unknown_event", kind=repr(kind)[:40])
    return handler(event, lang, _Names(lang, names, check_players(players)))


class _Names:
    """How this sentence calls a seat: its name when known, else "assento N" / "seat N";
    and a team: "a dupla A (assentos 0 e 2)", or mano a mano its one player."""

    def __init__(self, lang: str, names: Mapping[int, str] | None, players: int = 4):
        self.lang = lang
        self.names = {s: n for s, n in (names or {}).items() if isinstance(n, str) and n.strip()}
        self.solo = players == 2  # each team is one seat, numbered as the team

    def __call__(self, seat: int) -> str:
        return self.names.get(seat) or seat_name(seat, self.lang)

    def cap(self, seat: int) -> str:
        return self.names.get(seat) or cap(seat_name(seat, self.lang))

    def team(self, team: int) -> str:
        return self(team) if self.solo else team_phrase(team, self.lang)

    def Team(self, team: int) -> str:
        return self.cap(team) if self.solo else cap(team_phrase(team, self.lang))


def _t(key: str, lang: str, **fields: object) -> str:
    return CATALOGUE.template(key, lang).format(**fields)


def _score(score: list[int]) -> str:
    return f"{score[0]} x {score[1]}"


def _n_deal(e: Event, lang: str, who: _Names) -> str:
    variant = get_variant(e["variant"])
    number: object = e["hand_number"]
    limit = e.get("hands_limit")
    if limit is not None:  # a short game: "Mão 3 de 5", then the tie-break hands
        number = _t("n_hand_of" if e["hand_number"] <= limit else "n_hand_extra", lang,
                    n=e["hand_number"], limit=limit)
    fields = {"hand_number": number, "dealer": who(e["dealer"]),
              "mao": who(e["mao"]), "value": e["value"]}
    if e.get("vira"):
        s = _t("n_deal_vira", lang, vira=e["vira"], manilhas=", ".join(e["manilhas"]), **fields)
    else:
        s = _t("n_deal", lang, **fields)
    if e["mode"] == "mao_de_ferro":
        s += _t("n_deal_ferro", lang)
    elif e["mode"] == "threshold":
        s += _t("n_deal_threshold", lang, name=variant.threshold_name,
                team=who.team(e["threshold_team"]))
    return s


def _n_decide(e: Event, lang: str, who: _Names) -> str:
    name = get_variant(e["variant"]).threshold_name
    return _t("n_decide_play" if e["play"] else "n_decide_run", lang,
              Team=who.Team(e["team"]), name=name)


def _n_play(e: Event, lang: str, who: _Names) -> str:
    seat = who.cap(e["seat"])
    if e.get("covered"):
        return _t("n_play_covered", lang, Seat=seat)
    card = card_phrase(e["card"], e.get("manilha"), lang)
    if e.get("blind"):
        return _t("n_play_blind", lang, Seat=seat, nth=ordinal(e["position"] + 1, lang), card=card)
    return _t("n_play", lang, Seat=seat, card=card)


def _n_trick(e: Event, lang: str, who: _Names) -> str:
    nth = ordinal(e["number"], lang)
    if e["winner_team"] is None:
        return _t("n_trick_tie", lang, nth=nth)
    return _t("n_trick", lang, Seat=who.cap(e["winning_seat"]), nth=nth,
              card=card_phrase(e["card"], e.get("manilha"), lang))


def _n_raise(e: Event, lang: str, who: _Names) -> str:
    seat = who.cap(e["seat"])
    if e.get("forbidden"):  # in a mão de onze/dez any raise is a call for truco; the hand
        name = get_variant(e["variant"]).threshold_name  # event says the rest
        return _t("n_raise_forbidden", lang, Seat=seat, name=name)
    return _t("n_raise", lang, Seat=seat, word=e["name"], value=e["value"])


def _n_accept(e: Event, lang: str, who: _Names) -> str:
    return _t("n_accept", lang, Seat=who.cap(e["seat"]), value=e["value"])


def _n_run(e: Event, lang: str, who: _Names) -> str:
    pts = e["points"]
    return _t("n_run", lang, Seat=who.cap(e["seat"]), team=who.team(1 - e["team"]),
              points=pts, unit=unit(pts, lang))


def _n_hand(e: Event, lang: str, who: _Names) -> str:
    score = _score(e["score"])
    if e["winner_team"] is None:
        return _t("n_hand_all_tied", lang, score=score)
    if e["reason"] == "forbidden_raise":  # the game event gives the result and the score
        name = get_variant(e["variant"]).threshold_name
        return _t("n_hand_forbidden", lang, Raiser=who.Team(1 - e["winner_team"]),
                  name=name)
    pts = e["points"]
    return _t("n_hand", lang, Team=who.Team(e["winner_team"]), points=pts,
              unit=unit(pts, lang), score=score)


def _n_game(e: Event, lang: str, who: _Names) -> str:
    if e.get("hands_played") is not None:
        return _t("n_game_hands", lang, hands=e["hands_played"], Team=who.Team(e["winner_team"]),
                  score=_score(e["score"]))
    return _t("n_game", lang, Team=who.Team(e["winner_team"]),
              score=_score(e["score"]))


_NARRATORS: dict[str, Callable[[Event, str, _Names], str]] = {
    "deal": _n_deal, "decide": _n_decide, "play": _n_play, "trick": _n_trick,
    "raise": _n_raise, "accept": _n_accept, "run": _n_run, "hand": _n_hand, "game": _n_game,
}
EVENT_TYPES = tuple(_NARRATORS)
