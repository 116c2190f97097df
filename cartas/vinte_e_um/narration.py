"""21 in words: narration of events, names of actions, why a call goes one way.

Every sentence comes from the 21 catalogue (`cartas.vinte_e_um.catalogue`); this module
only picks the key and fills in the fields (card names from `Card.name(lang)`).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from ..cards import Card
from ..catalogue import LANGS
from ..contract import Event
from .catalogue import CATALOGUE
from .errors import VinteEUmError, render_fields, shown
from .scoring import call_reason, card_of, cards_of, check_ace, points

say = CATALOGUE.say


def check_lang(lang: object) -> str:
    """`lang` if it is "pt" or "en"; VinteEUmError "bad_language" otherwise."""
    if not isinstance(lang, str) or lang not in LANGS:
        raise VinteEUmError("bad_language", value=shown(lang))
    return lang


def rotation_label(rotation: str, lang: str = "pt") -> str:
    """The name of a bank rotation mode in `lang` ("rodízio a cada N rodadas")."""
    return say("rotation." + rotation, check_lang(lang))


ROTATION_LABELS = {lang: {r: say("rotation." + r, lang)
                          for r in ("rounds", "natural", "auction", "sale", "permanent")}
                   for lang in LANGS}


def describe_action(action: object, lang: str = "pt") -> str:
    """An action's name in `lang` ("apostar 3 fichas", "call seat 2")."""
    from .actions import Action
    return Action.parse(action).describe(check_lang(lang))


def _card_name(text: Card | str, lang: str) -> str:
    return card_of(text).name(lang)


def _cards(texts: Iterable[Card | str], lang: str) -> str:
    return ", ".join(_card_name(c, lang) for c in texts)


def narrate(event: Event, lang: str = "pt", names: Mapping[int, str] | None = None) -> str:
    """One sentence telling what the event means, in Portuguese (default) or English.
    With `names` ({seat: name}, a table of learners) a named seat is called by its name
    (`_with_names`).

    Events are the dicts `VinteEUmState.apply_action` returns (and `state.events`); a
    face-down deal whose card the viewer may not see has card None. Anything that is not
    a 21 event raises VinteEUmError "bad_event".
    """
    lang = check_lang(lang)
    try:
        return _with_names(_narrate(event, lang), lang, names)
    except VinteEUmError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise VinteEUmError("bad_event", value=shown(event)) from None


# A seat in a sentence, with the word before it that a name changes: the catalogue writes
# a seat "assento N" / "seat N" ("field.seat"), after an article or a preposition in pt.
_PT_BEFORE = {"o": "", "do": "de ", "ao": "a ", "no": "em ", "pelo": "por "}
_SEAT_IN = {
    "pt": re.compile(r"\b(?:(o|do|ao|no|pelo) )?assento (\d+)\b", re.IGNORECASE),
    "en": re.compile(r"\bseat (\d+)\b", re.IGNORECASE),
}


def _with_names(sentence: str, lang: str, names: Mapping[int, str] | None) -> str:
    """`sentence` with each named seat called by its name: "O assento 2 pede carta." ->
    "Ana pede carta.", "do assento 2" -> "de Ana", "Seat 2 hits." -> "Ana hits." A seat
    without a name stays "assento N" / "seat N"."""
    known = {s: n.strip() for s, n in (names or {}).items() if isinstance(n, str) and n.strip()}
    if not known:
        return sentence

    def named(match: re.Match[str]) -> str:
        if lang == "pt":
            before, number = match.group(1), int(match.group(2))
        else:
            before, number = None, int(match.group(1))
        if number not in known:
            return match.group(0)
        lead = _PT_BEFORE.get(before.lower(), "") if before else ""
        if before and before[0].isupper():
            lead = lead.capitalize()
        return lead + known[number]

    return _SEAT_IN[lang].sub(named, sentence)


def _plain(event: Event) -> str:
    return str(event["type"])


# event type -> the catalogue entry ("event.<entry>") its sentence is, where it depends on
# more than the type
_VARIANT: dict[str, Callable[[Event], str]] = {
    "stand": lambda e: "stand_21" if e["points"] == 21 and e.get("auto") else "stand",
    "pay": lambda e: "pay" if e["amount"] >= e["owed"] else ("pay_short" if e["amount"] else "pay_none"),
    "call": lambda e: "call_" + e["winner"],
    "banker_bust": lambda e: "banker_bust" if e["pays"] else "banker_bust_none",
    "rotation": lambda e: "rotation_" + e["mode"],
}


def _narrate(event: Event, lang: str) -> str:
    kind = event["type"]
    data = {k: v for k, v in event.items() if k != "type"}
    if kind == "deal":
        if event["face_up"]:
            return say("event.deal_up", lang, seat=event["seat"],
                       card=_card_name(event["card"], lang))
        if event.get("card"):
            return say("event.deal_down_known", lang, seat=event["seat"],
                       card=_card_name(event["card"], lang))
        return say("event.deal_down", lang, seat=event["seat"])
    key = "event." + _VARIANT.get(kind, _plain)(event)
    if kind == "banker_21":
        data["cards"] = _cards(event["cards"], lang)
    elif kind == "reveal":
        data["card"] = _card_name(event["card"], lang)
    elif kind == "bank_change":
        reason = event["reason"]
        data["reason"] = say("reason." + reason, lang,
                             **render_fields({"price": event["price"]}, lang))
    elif kind == "game_over":
        if event["winner"] is None:
            key = "event.game_over_tie"
            data["winners"] = ", ".join(map(str, event["winners"]))
        else:
            key = "event.game_over_one"
        if event.get("cap"):
            return (say("event.game_over_cap", lang, cap=event["cap"]) + " "
                    + say(key, lang, **render_fields(data, lang)))
    if key not in CATALOGUE or not key.startswith("event."):
        raise VinteEUmError("bad_event", value=shown(event))
    return say(key, lang, **render_fields(data, lang))


def explain_call(player_cards: Iterable[Card | str], banker_cards: Iterable[Card | str], ace: int | str = 1,
                 lang: str = "pt", decks: int = 1) -> str:
    """One sentence saying who takes the bet between this player and the banker, and why."""
    player = cards_of(player_cards, "player_cards")
    banker = cards_of(banker_cards, "banker_cards")
    reason = call_reason(player, banker, ace, decks)
    ace = check_ace(ace)
    return say("call." + reason, check_lang(lang), p=points(player, ace), b=points(banker, ace))
