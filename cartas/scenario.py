"""Scenarios: a chosen position of truco or 21, saved as JSON or as a link parameter.

A teacher writes a scenario (a truco deal, or a 21 table) and shares it; every student opens
the same game. The format is versioned (`FORMAT`) and checked field by field, so a scenario
that is malformed, impossible or edited by hand in a link is refused with a clear message.

Truco scenario (`game: "truco"`)::

    {"format": "cartas.cenario/1", "game": "truco", "variant": "paulista",
     "hands": [["7♥", "A♠", "3♦"], ... four hands of 3 cards, seat order],
     "vira": "K♠", "dealer": 0, "score": [0, 0],
     "manilhas": ["A♦", "A♠", "A♥", "A♣"],   # optional; must agree with the vira
     "seed": 7, "tie_lead": "leader", "title": "..."}   # optional

21 scenario (`game: "21"`)::

    {"format": "cartas.cenario/1", "game": "21", "players": 4, "banker": 0,
     "chips": 20 (or one stack per seat), "ace": 1, "rotation": "rounds",
     "rounds": 10, "rotation_rounds": 3, "min_bet": 1, "max_bet": 5, "seed": 7,
     "deal": {"first_cards": ["5♥", ...one per seat], "upcard": "K♣", "then": ["2♦", ...]}}

`deal` is optional for 21: without it the first round is shuffled from `seed`.

Links: `encode_link(s)` gives compact URL-safe text ("1." + base64url(zlib(JSON)) + "." +
digest); `decode_link(text)` checks the digest, so a changed character is refused as
tampered. Every refusal raises `ScenarioError` (a ValueError) with a `code` and a message in
Portuguese (`message("pt")`) or English (`str(error)`, `message("en")`).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
import zlib
from collections import Counter

from .cards import STANDARD_PACK, TRUCO_PACK, Card

FORMAT = "cartas.cenario/1"
LINK_VERSION = "1"
GAMES = ("truco", "21")
MAX_LINK = 4000

_MESSAGES = {
    "malformed": ("O cenário não pôde ser lido: {detail}.",
                  "The scenario could not be read: {detail}."),
    "tampered": ("O link do cenário foi alterado ou está incompleto: a verificação não confere.",
                 "The scenario link was changed or is incomplete: its check does not match."),
    "format": ("Formato de cenário desconhecido {value!r}: esperado {expected!r}.",
               "Unknown scenario format {value!r}: expected {expected!r}."),
    "game": ("Jogo desconhecido {value!r}: escolha 'truco' ou '21'.",
             "Unknown game {value!r}: choose 'truco' or '21'."),
    "unknown_field": ("Campo desconhecido no cenário: {field}.",
                      "Unknown field in the scenario: {field}."),
    "missing": ("Falta o campo {field} no cenário.", "The scenario lacks the field {field}."),
    "variant": ("Variante de truco desconhecida {value!r}: escolha 'paulista' ou 'mineiro'.",
                "Unknown truco variant {value!r}: choose 'paulista' or 'mineiro'."),
    "hands_shape": ("O truco tem 4 mãos de 3 cartas (uma por assento); {detail}.",
                    "Truco has 4 hands of 3 cards (one per seat); {detail}."),
    "card": ("{value!r} não é uma carta: escreva por exemplo '7♥' ou '7 de copas'.",
             "{value!r} is not a card: write e.g. '7♥' or '7 de copas'."),
    "not_in_pack": ("{card} não está no baralho do truco (sem 8, 9 e 10).",
                    "{card} is not in the truco pack (no 8s, 9s or 10s)."),
    "twice": ("A carta {card} aparece duas vezes.", "The card {card} appears twice."),
    "too_many": ("A carta {card} aparece {count} vezes, mas a mesa usa {packs} baralho(s).",
                 "The card {card} appears {count} times, but the table uses {packs} pack(s)."),
    "vira_missing": ("O Truco Paulista precisa de uma vira.", "Truco Paulista needs a vira."),
    "vira_mineiro": ("O Truco Mineiro não tem vira: as manilhas são fixas.",
                     "Truco Mineiro has no vira: its manilhas are fixed."),
    "manilhas": ("As manilhas {stated} contradizem a vira: com ela as manilhas são {real}.",
                 "The manilhas {stated} contradict the vira: with it the manilhas are {real}."),
    "dealer": ("Quem dá as cartas é um assento de 0 a 3, não {value!r}.",
               "The dealer is a seat from 0 to 3, not {value!r}."),
    "score": ("O placar são dois números inteiros de 0 a {top}, não {value!r}.",
              "The score is two whole numbers from 0 to {top}, not {value!r}."),
    "seed": ("A semente é um número inteiro de 0 para cima, não {value!r}.",
             "The seed is a whole number from 0 up, not {value!r}."),
    "text": ("O campo {field} deve ser um texto curto.", "The field {field} must be a short text."),
    "option": ("Valor inválido para {field}: {value!r}; escolha entre {choices}.",
               "Invalid value for {field}: {value!r}; choose one of {choices}."),
    "number": ("O campo {field} deve ser um número inteiro de {low} a {high}, não {value!r}.",
               "The field {field} must be a whole number from {low} to {high}, not {value!r}."),
    "deal_shape": ("A distribuição do 21 está mal formada: {detail}.",
                   "The 21 deal is malformed: {detail}."),
    "engine": ("O motor recusou o cenário: {detail}.", "The engine refused the scenario: {detail}."),
}


class ScenarioError(ValueError):
    """A scenario refused; `code` names the problem, `message(lang)` explains it."""

    def __init__(self, code: str, **fields):
        self.code, self.fields = code, fields
        super().__init__(self.message("en"))

    def message(self, lang: str = "pt") -> str:
        pt, en = _MESSAGES[self.code]
        return (pt if lang == "pt" else en).format(**self.fields)


# -- small checks -----------------------------------------------------------------------

def _int(value, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ScenarioError("number", field=field, low=low, high=high, value=value)
    return value


def _card(text, truco: bool) -> Card:
    if not isinstance(text, str) or len(text) > 40:
        raise ScenarioError("card", value=text)
    try:
        card = Card.parse(text)
    except ValueError:
        raise ScenarioError("card", value=text) from None
    if truco and card not in _TRUCO_SET:
        raise ScenarioError("not_in_pack", card=str(card))
    return card


_TRUCO_SET = frozenset(TRUCO_PACK)


def _fields(data: dict, required: tuple, optional: tuple) -> None:
    for key in data:
        if key not in required and key not in optional:
            raise ScenarioError("unknown_field", field=key)
    for key in required:
        if key not in data:
            raise ScenarioError("missing", field=key)


def _seed(data: dict):
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed < 2 ** 63):
        raise ScenarioError("seed", value=seed)
    return seed


def _title(data: dict):
    title = data.get("title")
    if title is not None and (not isinstance(title, str) or len(title) > 200):
        raise ScenarioError("text", field="title")
    return title


# -- validation ----------------------------------------------------------------------------

_COMMON = ("format", "game")
_TRUCO_REQUIRED = _COMMON + ("variant", "hands", "dealer", "score")
_TRUCO_OPTIONAL = ("vira", "manilhas", "seed", "tie_lead", "title")
_21_REQUIRED = _COMMON + ("players", "banker")
_21_OPTIONAL = ("chips", "ace", "rotation", "rounds", "rotation_rounds", "min_bet", "max_bet",
                "decks", "seed", "deal", "title")


def validate(data) -> dict:
    """Check a scenario (a dict) and return it normalised (cards in "7♥" form, defaults
    filled in). Raises ScenarioError naming the first problem."""
    if not isinstance(data, dict):
        raise ScenarioError("malformed", detail="expected a JSON object")
    if data.get("format") != FORMAT:
        raise ScenarioError("format", value=data.get("format"), expected=FORMAT)
    game = data.get("game")
    if game == "truco":
        return _validate_truco(data)
    if game == "21":
        return _validate_21(data)
    raise ScenarioError("game", value=game)


def _validate_truco(data: dict) -> dict:
    from .truco import VARIANTS, manilhas

    _fields(data, _TRUCO_REQUIRED, _TRUCO_OPTIONAL)
    variant = VARIANTS.get(data["variant"]) if isinstance(data["variant"], str) else None
    if variant is None:
        raise ScenarioError("variant", value=data["variant"])
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != 4:
        raise ScenarioError("hands_shape", detail=f"found {_count(hands)} hands")
    parsed = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != 3:
            raise ScenarioError("hands_shape", detail=f"seat {seat} holds {_count(hand)} cards")
        parsed.append([_card(c, truco=True) for c in hand])
    vira = None
    if variant.uses_vira:
        if data.get("vira") is None:
            raise ScenarioError("vira_missing")
        vira = _card(data["vira"], truco=True)
    elif data.get("vira") is not None:
        raise ScenarioError("vira_mineiro")
    seen = Counter(c for h in parsed for c in h)
    if vira is not None:
        seen[vira] += 1
    for card, n in seen.items():
        if n > 1:
            raise ScenarioError("twice", card=str(card))
    real = [str(c) for c in manilhas(variant, vira)]
    if data.get("manilhas") is not None:
        stated = data["manilhas"]
        if not isinstance(stated, list):
            raise ScenarioError("manilhas", stated=stated, real=", ".join(real))
        stated_cards = [str(_card(c, truco=True)) for c in stated]
        if sorted(stated_cards) != sorted(real):
            raise ScenarioError("manilhas", stated=", ".join(stated_cards), real=", ".join(real))
    dealer = data["dealer"]
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        raise ScenarioError("dealer", value=dealer)
    score = data["score"]
    top = variant.target - 1
    if (not isinstance(score, list) or len(score) != 2
            or any(not isinstance(p, int) or isinstance(p, bool) or not 0 <= p <= top
                   for p in score)):
        raise ScenarioError("score", top=top, value=score)
    tie_lead = data.get("tie_lead", "leader")
    if tie_lead not in ("leader", "first_tying"):
        raise ScenarioError("option", field="tie_lead", value=tie_lead,
                            choices="leader, first_tying")
    out = {"format": FORMAT, "game": "truco", "variant": variant.key,
           "hands": [[str(c) for c in h] for h in parsed],
           "vira": None if vira is None else str(vira), "dealer": dealer,
           "score": list(score), "manilhas": real, "tie_lead": tie_lead,
           "seed": _seed(data)}
    if _title(data) is not None:
        out["title"] = data["title"]
    return out


def _count(value) -> int:
    return len(value) if isinstance(value, list) else 0


def _validate_21(data: dict) -> dict:
    from .vinte_e_um import ACE_OPTIONS, ROTATIONS, default_ace

    _fields(data, _21_REQUIRED, _21_OPTIONAL)
    players = _int(data["players"], "players", 3, 12)
    banker = _int(data["banker"], "banker", 0, players - 1)
    chips = data.get("chips", 20)
    if isinstance(chips, list):
        if len(chips) != players:
            raise ScenarioError("option", field="chips", value=chips,
                                choices=f"one stack per seat ({players})")
        chips = [_int(c, "chips", 0, 10_000) for c in chips]
    else:
        chips = _int(chips, "chips", 1, 10_000)
    rotation = data.get("rotation", "rounds")
    if rotation not in ROTATIONS:
        raise ScenarioError("option", field="rotation", value=rotation, choices=", ".join(ROTATIONS))
    ace = data.get("ace", default_ace(rotation))
    if ace not in ACE_OPTIONS or isinstance(ace, bool):
        raise ScenarioError("option", field="ace", value=ace,
                            choices=", ".join(str(option) for option in ACE_OPTIONS))
    rounds = data.get("rounds", 10)
    if rounds is not None:
        rounds = _int(rounds, "rounds", 1, 1000)
    out = {"format": FORMAT, "game": "21", "players": players, "banker": banker,
           "chips": chips, "ace": ace, "rotation": rotation, "rounds": rounds,
           "rotation_rounds": _int(data.get("rotation_rounds", 3), "rotation_rounds", 1, 1000),
           "min_bet": _int(data.get("min_bet", 1), "min_bet", 1, 1000),
           "max_bet": _int(data.get("max_bet", 5), "max_bet", 1, 1000),
           "decks": None if data.get("decks") is None else _int(data["decks"], "decks", 1, 4),
           "seed": _seed(data), "deal": _validate_21_deal(data.get("deal"), players, data)}
    if _title(data) is not None:
        out["title"] = data["title"]
    build(out)  # the engine checks what only it knows (who is dealt in, bet limits...)
    return out


def _validate_21_deal(deal, players: int, data: dict):
    if deal is None:
        return None
    if not isinstance(deal, dict) or set(deal) - {"first_cards", "upcard", "then"}:
        raise ScenarioError("deal_shape", detail="expected first_cards, upcard and then")
    first = deal.get("first_cards")
    if not isinstance(first, list) or len(first) != players:
        raise ScenarioError("deal_shape", detail=f"first_cards needs one entry per seat ({players})")
    first = [None if c is None else str(_card(c, truco=False)) for c in first]
    upcard = deal.get("upcard")
    upcard = None if upcard is None else str(_card(upcard, truco=False))
    then = deal.get("then", [])
    if not isinstance(then, list) or len(then) > 52 * 4:
        raise ScenarioError("deal_shape", detail="then is a list of cards")
    then = [str(_card(c, truco=False)) for c in then]
    from .vinte_e_um import default_packs
    packs = data.get("decks") or default_packs(players)
    counts = Counter(c for c in first + [upcard] + then if c is not None)
    for card, n in counts.items():
        if n > packs:
            raise ScenarioError("twice" if packs == 1 else "too_many", card=card, count=n,
                                packs=packs)
    return {"first_cards": first, "upcard": upcard, "then": then}


# -- building games ------------------------------------------------------------------------

def build(scenario: dict):
    """The engine state a validated scenario describes (TrucoState or 21 GameState)."""
    try:
        if scenario["game"] == "truco":
            from .truco import from_deal
            return from_deal(scenario["variant"], scenario["hands"], scenario["vira"],
                             scenario["dealer"], tuple(scenario["score"]),
                             seed=scenario["seed"], tie_lead=scenario["tie_lead"])
        from .vinte_e_um import from_deal as deal21, new_game as new21
        options = {k: scenario[k] for k in ("ace", "decks", "min_bet", "max_bet", "chips",
                                             "rotation", "rounds", "rotation_rounds")}
        deal = scenario["deal"]
        if deal is None:
            return new21(scenario["players"], seed=scenario["seed"], banker=scenario["banker"],
                         **options)
        return deal21(scenario["players"], deal["first_cards"], deal["upcard"], deal["then"],
                      banker=scenario["banker"], seed=scenario["seed"], **options)
    except ScenarioError:
        raise
    except ValueError as err:
        raise ScenarioError("engine", detail=str(err)) from None


def truco_scenario(variant, hands, vira=None, dealer: int = 0, score=(0, 0), seed=None,
                   title: str | None = None) -> dict:
    """A validated truco scenario from its parts (cards as Card or text)."""
    data = {"format": FORMAT, "game": "truco", "variant": str(variant),
            "hands": [[str(c) for c in h] for h in hands],
            "vira": None if vira is None else str(vira), "dealer": dealer,
            "score": list(score), "seed": seed}
    if title:
        data["title"] = title
    return validate(data)


def vinte_e_um_scenario(players: int, banker: int = 0, *, deal=None, title=None, **options) -> dict:
    """A validated 21 scenario; `deal` = {"first_cards", "upcard", "then"} or None."""
    data = {"format": FORMAT, "game": "21", "players": players, "banker": banker, **options,
            "deal": deal}
    if title:
        data["title"] = title
    return validate(data)


def truco_from_state(state, title: str | None = None) -> dict:
    """The scenario of the hand a TrucoState is dealing now (as dealt, before any play)."""
    deal = next(e for e in reversed(state.events) if e["type"] == "deal")
    return truco_scenario(state.variant.key, deal["hands"], deal["vira"], deal["dealer"],
                          deal["score"], title=title)


# -- JSON and links --------------------------------------------------------------------------

def to_json(scenario: dict, indent: int | None = 1) -> str:
    """The scenario as JSON text (validated first)."""
    return json.dumps(validate(scenario), ensure_ascii=False, indent=indent)


def from_json(text) -> dict:
    """Read and validate a scenario from JSON text (or bytes)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ScenarioError("malformed", detail="the file is not UTF-8 text") from None
    if not isinstance(text, str):
        raise ScenarioError("malformed", detail="expected JSON text")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as err:
        raise ScenarioError("malformed", detail=f"invalid JSON ({err.msg if hasattr(err, 'msg') else err})") from None
    return validate(data)


def _digest(payload: bytes) -> str:
    return hashlib.sha256(b"cartas-cenario:" + payload).hexdigest()[:10]


def encode_link(scenario: dict) -> str:
    """Compact URL-safe text for `?cenario=...`: version, compressed JSON and a digest."""
    raw = json.dumps(validate(scenario), ensure_ascii=False, separators=(",", ":"),
                     sort_keys=True).encode("utf-8")
    body = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    return f"{LINK_VERSION}.{body}.{_digest(raw)}"


def decode_link(text) -> dict:
    """Read a scenario back from `encode_link` text; an edited link is refused as tampered."""
    if not isinstance(text, str) or not text.strip():
        raise ScenarioError("malformed", detail="the link parameter is empty")
    text = text.strip()
    if len(text) > MAX_LINK:
        raise ScenarioError("malformed", detail="the link parameter is too long")
    parts = text.split(".")
    if len(parts) != 3 or parts[0] != LINK_VERSION:
        raise ScenarioError("malformed", detail="this is not a Cartas scenario link")
    _, body, digest = parts
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        raw = zlib.decompressobj().decompress(packed, 64_000)
    except (binascii.Error, ValueError, zlib.error):
        raise ScenarioError("tampered") from None
    if _digest(raw) != digest:
        raise ScenarioError("tampered")
    return from_json(raw)
