"""Scenarios: a chosen position of truco or 21, saved as JSON or as a link parameter.

A teacher writes a scenario (a truco deal, or a 21 table) and shares it; every student opens
the same game. The format is versioned (`FORMAT`) and checked field by field, so a scenario
that is malformed, impossible or edited by hand in a link is refused with a clear message.

Truco scenario (`game: "truco"`)::

    {"format": "cartas.cenario/1", "game": "truco", "variant": "paulista",
     "hands": [["7♥", "A♠", "3♦"], ... four hands of 3 cards, seat order],
     "vira": "K♠", "dealer": 0, "score": [0, 0],
     "manilhas": ["A♦", "A♠", "A♥", "A♣"],   # optional; must agree with the vira
     "seed": 7, "tie_lead": "leader", "title": "..."}   # optional; tie_lead may be
                                                        # "leader" or "first_tying"

21 scenario (`game: "21"`)::

    {"format": "cartas.cenario/1", "game": "21", "players": 4, "banker": 0,
     "chips": 20 (or one stack per seat), "ace": 1, "rotation": "rounds",
     "rounds": 10, "rotation_rounds": 3, "min_bet": 1, "max_bet": 5, "seed": 7,
     "deal": {"first_cards": ["5♥", ...one per seat], "upcard": "K♣", "then": ["2♦", ...]}}

`deal` is optional for 21: without it the first round is shuffled from `seed`.

Links: `encode_link(s)` gives compact URL-safe text ("2." + base64url(deflate(JSON, preset
dictionary)) + "." + digest; "1." links, zlib without a dictionary, are still read);
`decode_link(text)` checks the digest, so a changed character is refused as tampered. Every
refusal raises `ScenarioError` (a `cartas.errors.RuleError`) with a `code` and a message in
Portuguese (`message("pt")`) or English (`str(error)`, `message("en")`); a refusal by a
game engine is wrapped, not rewritten (code "engine", see `_engine`).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from .cards import STANDARD_PACK, TRUCO_PACK, Card
from .catalogue import Catalogue, check_lang
from .contract import Bot, GameState
from .errors import RuleError
from .games import GameSpec, find_game

if TYPE_CHECKING:
    from .truco import TrucoState, Variant

# A scenario: a JSON object whose fields depend on its "game" (see the module docstring).
Scenario = dict[str, Any]
_P = ParamSpec("_P")
_R = TypeVar("_R")

FORMAT = "cartas.cenario/1"
LINK_VERSION = "2"  # links written now; "1" links are still read
MAX_LINK = 4000
MAX_DIGITS = 18  # a number in a scenario has at most this many digits


class _ScenarioCatalogue(Catalogue):
    """Scenario sentences; a `why` field names a `why_*` entry, rendered as `{detail}`, and a
    `field` with a `field_*` entry is named in the reader's language ("participantes")."""

    def say(self, key: str, lang: str = "pt", **fields: object) -> str:
        lang = check_lang(lang)
        field = fields.get("field")
        if isinstance(field, str) and f"field_{field}" in self:
            fields = {**fields, "field": self.template(f"field_{field}", lang)}
        error = fields.get("error")
        if isinstance(error, str):
            error = error.rstrip(".")  # the engine's sentence may end with its own stop
            fields = {**fields, "Error": error[:1].upper() + error[1:]}
        if isinstance(fields.get("why"), str) and f"why_{fields['why']}" in self:
            detail = self.template(f"why_{fields['why']}", lang)
            fields = {**fields, "detail": detail.format(**fields)}
        return super().say(key, lang, **fields)


CATALOGUE = _ScenarioCatalogue("scenario", {
    "malformed": ("O cenário não pôde ser lido: {detail}.",
                  "The scenario could not be read: {detail}."),
    "why_not_object": ("esperava um objeto JSON", "expected a JSON object"),
    "why_not_utf8": ("o arquivo não é texto UTF-8", "the file is not UTF-8 text"),
    "why_not_text": ("esperava um texto JSON", "expected JSON text"),
    "why_not_json": ("o texto não é JSON válido", "the text is not valid JSON"),
    "why_link_empty": ("o parâmetro do link está vazio", "the link parameter is empty"),
    "why_link_long": ("o parâmetro do link é longo demais", "the link parameter is too long"),
    "why_not_link": ("isto não é um link de cenário do Cartas",
                     "this is not a Cartas scenario link"),
    "tampered": ("O link do cenário foi alterado ou está incompleto: a verificação não confere.",
                 "The scenario link was changed or is incomplete: its check does not match."),
    "format": ("Formato de cenário desconhecido {value}: esperado {expected}.",
               "Unknown scenario format {value}: expected {expected}."),
    "game": ("Jogo desconhecido {value}: escolha 'truco' ou '21'.",
             "Unknown game {value}: choose 'truco' or '21'."),
    "unknown_field": ("Campo desconhecido no cenário: {field}.",
                      "Unknown field in the scenario: {field}."),
    "missing": ("Falta o campo {field} no cenário.", "The scenario lacks the field {field}."),
    "hands_shape": ("O truco tem 4 mãos de 3 cartas (uma por assento); {detail}.",
                    "Truco has 4 hands of 3 cards (one per seat); {detail}."),
    "why_hands_count": ("há {count} mãos", "found {count} hands"),
    "why_hand_size": ("o assento {seat} tem {count} cartas", "seat {seat} holds {count} cards"),
    "card": ("{value} não é uma carta: escreva por exemplo '7♥' ou '7 de copas'.",
             "{value} is not a card: write e.g. '7♥' or '7 de copas'."),
    "twice": ("A carta {card} aparece duas vezes.", "The card {card} appears twice."),
    "too_many": ("A carta {card} aparece {count} vezes, mas a mesa usa {packs} baralho(s).",
                 "The card {card} appears {count} times, but the table uses {packs} pack(s)."),
    "manilhas": ("As manilhas {stated} contradizem a vira: com ela as manilhas são {real}.",
                 "The manilhas {stated} contradict the vira: with it the manilhas are {real}."),
    "seed": ("A semente é um número inteiro de 0 a 2^63 - 1, não {value}.",
             "The seed is a whole number from 0 to 2^63 - 1, not {value}."),
    "text": ("O campo {field} deve ser um texto curto.", "The field {field} must be a short text."),
    "option": ("Valor inválido para {field}: {value}; escolha entre {choices}.",
               "Invalid value for {field}: {value}; choose one of {choices}."),
    "number": ("O campo {field} deve ser um número inteiro de {low} a {high}, não {value}.",
               "The field {field} must be a whole number from {low} to {high}, not {value}."),
    "number_too_long": ("Um número do cenário{where} é longo demais: no máximo {digits} dígitos.",
                        "A number in the scenario{where} is too long: at most {digits} digits."),
    "deal_shape": ("A distribuição do 21 está mal formada: {detail}.",
                   "The 21 deal is malformed: {detail}."),
    "why_deal_keys": ("esperava first_cards, upcard e then", "expected first_cards, upcard and then"),
    "why_first_cards": ("first_cards precisa de uma carta por assento ({players})",
                        "first_cards needs one entry per seat ({players})"),
    "why_then": ("then é uma lista de cartas", "then is a list of cards"),
    "engine": ("{Error}.", "{Error}."),
    # the fields a teacher fills in, named as the builder names them
    "field_players": ("participantes", "participants"),
    "field_banker": ("banca", "banker"),
    "field_chips": ("fichas", "chips"),
    "field_ace": ("valor do ás", "ace value"),
    "field_rotation": ("rodízio da banca", "bank rotation"),
    "field_rounds": ("rodadas", "rounds"),
    "field_rotation_rounds": ("rodadas por banca", "rounds per banker"),
    "field_min_bet": ("aposta mínima", "minimum bet"),
    "field_max_bet": ("aposta máxima", "maximum bet"),
    "field_decks": ("baralhos", "packs"),
    "field_title": ("título", "title"),  # the game engine's own refusal, in the same language
})


class ScenarioError(RuleError):
    """A scenario refused; `code` names the problem, `message(lang)` explains it.

    When the game engine refuses (code "engine"), `fields["error"]` is the engine's own
    RuleError, rendered in the same language, and `engine_code` its code."""

    catalogue = CATALOGUE

    @property
    def engine_code(self) -> str | None:
        error = self.fields.get("error")
        return error.code if isinstance(error, RuleError) else None


def _shown(value: object) -> str:
    """A short text for a refused value (never Python's own message for a huge number)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return "…"
    try:
        text = repr(value)
    except ValueError:
        return "…"
    return text if len(text) <= 40 else text[:37] + "..."


# -- small checks -----------------------------------------------------------------------

def _int(value: object, field: str, low: int, high: int) -> int:
    """A whole number in [low, high]; a bool is not a number, nor is 11.0."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        raise ScenarioError("number_too_long", where=f" ({field})", digits=MAX_DIGITS)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ScenarioError("number", field=field, low=low, high=high, value=_shown(value))
    return value


def _card(text: object, truco: bool) -> Card:
    if not isinstance(text, str) or len(text) > 40:
        raise ScenarioError("card", value=_shown(text))
    try:
        card = Card.parse(text)
    except ValueError:
        raise ScenarioError("card", value=_shown(text)) from None
    if truco and card not in _TRUCO_SET:
        raise ScenarioError("card", value=_shown(text))
    return card


_TRUCO_SET = frozenset(TRUCO_PACK)


def _fields(data: Scenario, required: tuple[str, ...], optional: tuple[str, ...]) -> None:
    for key in data:
        if key not in required and key not in optional:
            raise ScenarioError("unknown_field", field=_shown(key))
    for key in required:
        if key not in data:
            raise ScenarioError("missing", field=key)


def _seed(data: Scenario) -> int | None:
    seed = data.get("seed")
    if seed is not None:
        if isinstance(seed, int) and not isinstance(seed, bool) and seed.bit_length() > 64:
            raise ScenarioError("number_too_long", where=" (seed)", digits=MAX_DIGITS)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
            raise ScenarioError("seed", value=_shown(seed))
    return seed


def _title(data: Scenario) -> str | None:
    title = data.get("title")
    if title is not None and (not isinstance(title, str) or len(title) > 200):
        raise ScenarioError("text", field="title")
    return title


def _engine(make: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
    """Call the engine; its refusal (a RuleError) becomes ScenarioError("engine", error=...),
    rendered in the reader's language from the engine's own catalogue."""
    try:
        return make(*args, **kwargs)
    except RuleError as err:
        raise ScenarioError("engine", error=err) from None
    except ValueError as err:  # an engine not yet speaking RuleError: its own text
        raise ScenarioError("engine", error=str(err)) from None


# -- validation ----------------------------------------------------------------------------

_COMMON = ("format", "game")
_TRUCO_REQUIRED = _COMMON + ("variant", "hands", "dealer", "score")
_TRUCO_OPTIONAL = ("vira", "manilhas", "seed", "tie_lead", "title")
_21_REQUIRED = _COMMON + ("players", "banker")
_21_OPTIONAL = ("chips", "ace", "rotation", "rounds", "rotation_rounds", "min_bet", "max_bet",
                "decks", "seed", "deal", "title")


def validate(data: object) -> Scenario:
    """Check a scenario (a dict) and return it normalised (cards in "7♥" form, defaults
    filled in). Raises ScenarioError naming the first problem."""
    if not isinstance(data, dict):
        raise ScenarioError("malformed", why="not_object")
    if data.get("format") != FORMAT:
        raise ScenarioError("format", value=_shown(data.get("format")), expected=repr(FORMAT))
    game = data.get("game")
    kind = _KINDS.get(game) if isinstance(game, str) else None
    if kind is None:
        raise ScenarioError("game", value=_shown(game))
    return kind.validate(data)


def _validate_truco(data: Scenario) -> Scenario:
    """The scenario checks its own shape (fields, four hands of three short texts, the
    stated manilhas); the engine's `from_deal` checks the cards, the vira, the dealer, the
    score and tie_lead, and its refusal is passed on (code "engine")."""
    from .truco import from_deal

    _fields(data, _TRUCO_REQUIRED, _TRUCO_OPTIONAL)
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != 4:
        raise ScenarioError("hands_shape", why="hands_count", count=_count(hands))
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != 3:
            raise ScenarioError("hands_shape", why="hand_size", seat=seat, count=_count(hand))
        for card in hand:
            _card(card, truco=False)  # a readable card; the engine judges the truco pack
    vira = data.get("vira")
    if vira is not None:
        _card(vira, truco=False)
    seed, title = _seed(data), _title(data)
    tie_lead = data.get("tie_lead", "leader")
    score = data["score"]
    state = _engine(from_deal, data["variant"], hands, vira, data["dealer"],
                    tuple(score) if isinstance(score, list) else score, seed=seed,
                    tie_lead=tie_lead)
    real = [str(c) for c in state.manilhas]
    if data.get("manilhas") is not None:
        stated = data["manilhas"]
        if not isinstance(stated, list) or len(stated) > 4:
            raise ScenarioError("manilhas", stated=_shown(stated), real=", ".join(real))
        stated_cards = [str(_card(c, truco=True)) for c in stated]
        if sorted(stated_cards) != sorted(real):
            raise ScenarioError("manilhas", stated=", ".join(stated_cards), real=", ".join(real))
    out = {"format": FORMAT, "game": "truco", "variant": state.variant.key,
           "hands": [[str(c) for c in h] for h in state.hands],
           "vira": None if state.vira is None else str(state.vira), "dealer": state.dealer,
           "score": list(state.score), "manilhas": real, "tie_lead": state.tie_lead,
           "seed": seed}
    if title is not None:
        out["title"] = title
    return out


def _count(value: object) -> int:
    return len(value) if isinstance(value, (list, tuple)) else 0


def _validate_21(data: Scenario) -> Scenario:
    from .vinte_e_um import ACE_OPTIONS, ROTATIONS, default_ace

    _fields(data, _21_REQUIRED, _21_OPTIONAL)
    players = _int(data["players"], "players", *find_game("21").seats)
    banker = _int(data["banker"], "banker", 0, players - 1)
    chips = data.get("chips", 20)
    if isinstance(chips, list):
        if len(chips) != players:
            raise ScenarioError("option", field="chips", value=_shown(chips),
                                choices=f"{players} x [0, 10000]")
        chips = [_int(c, "chips", 0, 10_000) for c in chips]
    else:
        chips = _int(chips, "chips", 1, 10_000)
    rotation = data.get("rotation", "rounds")
    if not isinstance(rotation, str) or rotation not in ROTATIONS:
        raise ScenarioError("option", field="rotation", value=_shown(rotation),
                            choices=", ".join(ROTATIONS))
    ace = data.get("ace", default_ace(rotation))
    # exact types only: True is not 1, and 11.0 is not the option 11
    if type(ace) not in (int, str) or ace not in ACE_OPTIONS:
        raise ScenarioError("option", field="ace", value=_shown(ace),
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


def _validate_21_deal(deal: object, players: int, data: Scenario) -> dict[str, Any] | None:
    if deal is None:
        return None
    if not isinstance(deal, dict) or set(deal) - {"first_cards", "upcard", "then"}:
        raise ScenarioError("deal_shape", why="deal_keys")
    first = deal.get("first_cards")
    if not isinstance(first, list) or len(first) != players:
        raise ScenarioError("deal_shape", why="first_cards", players=players)
    first = [None if c is None else str(_card(c, truco=False)) for c in first]
    upcard = deal.get("upcard")
    upcard = None if upcard is None else str(_card(upcard, truco=False))
    then = deal.get("then", [])
    if not isinstance(then, list) or len(then) > 52 * 4:
        raise ScenarioError("deal_shape", why="then")
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

def build(scenario: Scenario) -> GameState:
    """The engine state a validated scenario describes (a `cartas.contract.GameState`)."""
    return _KINDS[scenario["game"]].build(scenario)


def game_of(scenario: Scenario) -> GameSpec:
    """The registry's game (`cartas.games`) a validated scenario plays."""
    return find_game(_KINDS[scenario["game"]].game_key(scenario))


def bot(scenario: Scenario, seed: int) -> Bot:
    """A seeded rule-following bot (`cartas.contract.Bot`) for the scenario's game."""
    return game_of(scenario).bot(seed)


def _build_truco(scenario: Scenario) -> GameState:
    from .truco import from_deal
    return _engine(from_deal, scenario["variant"], scenario["hands"], scenario["vira"],
                   scenario["dealer"], tuple(scenario["score"]), seed=scenario["seed"],
                   tie_lead=scenario["tie_lead"])


def _build_21(scenario: Scenario) -> GameState:
    from .vinte_e_um import from_deal as deal21, new_game as new21
    options = {k: scenario[k] for k in ("ace", "decks", "min_bet", "max_bet", "chips",
                                         "rotation", "rounds", "rotation_rounds")}
    deal = scenario["deal"]
    if deal is None:
        return _engine(new21, scenario["players"], seed=scenario["seed"],
                       banker=scenario["banker"], **options)
    return _engine(deal21, scenario["players"], deal["first_cards"], deal["upcard"],
                   deal["then"], banker=scenario["banker"], seed=scenario["seed"], **options)


@dataclass(frozen=True)
class _Kind:
    """One kind of scenario (its "game" field): how to check it, build its state, and which
    game of the registry it plays."""

    validate: Callable[[Scenario], Scenario]
    build: Callable[[Scenario], GameState]
    game_key: Callable[[Scenario], str]


# "game" field -> its kind. Scenario texts name truco "truco" (the variant is a field of
# its own) and 21 "21"; the registry's keys are the variants and "21".
_KINDS: dict[str, _Kind] = {
    "truco": _Kind(_validate_truco, _build_truco, lambda scenario: scenario["variant"]),
    "21": _Kind(_validate_21, _build_21, lambda scenario: "21"),
}
GAMES = tuple(_KINDS)


def truco_scenario(variant: Variant | str, hands: Sequence[Sequence[Card | str]], vira: Card | str | None = None,
                   dealer: int = 0, score: Sequence[int] = (0, 0), seed: int | None = None,
                   title: str | None = None, tie_lead: str = "leader") -> Scenario:
    """A validated truco scenario from its parts (cards as Card or text). `tie_lead`:
    who leads after a tied trick, "leader" or "first_tying" (see `cartas.truco.new_game`)."""
    if not isinstance(hands, (list, tuple)) or not all(isinstance(h, (list, tuple))
                                                       for h in hands):
        raise ScenarioError("hands_shape", why="hands_count", count=_count(hands))
    data = {"format": FORMAT, "game": "truco", "variant": str(variant),
            "hands": [[str(c) for c in h] for h in hands],
            "vira": None if vira is None else str(vira), "dealer": dealer,
            "score": list(score) if isinstance(score, (list, tuple)) else score, "seed": seed,
            "tie_lead": tie_lead}
    if title:
        data["title"] = title
    return validate(data)


def vinte_e_um_scenario(players: int, banker: int = 0, *, deal: dict[str, Any] | None = None,
                        title: str | None = None, **options: object) -> Scenario:
    """A validated 21 scenario; `deal` = {"first_cards", "upcard", "then"} or None."""
    data = {"format": FORMAT, "game": "21", "players": players, "banker": banker, **options,
            "deal": deal}
    if title:
        data["title"] = title
    return validate(data)


def truco_from_state(state: TrucoState, title: str | None = None) -> Scenario:
    """The scenario of the hand a TrucoState is dealing now (as dealt, before any play),
    with the game's tie_lead rule."""
    deal = next(e for e in reversed(state.events) if e["type"] == "deal")
    return truco_scenario(state.variant.key, deal["hands"], deal["vira"], deal["dealer"],
                          deal["score"], title=title, tie_lead=state.tie_lead)


# -- JSON and links --------------------------------------------------------------------------

def to_json(scenario: Scenario, indent: int | None = 1) -> str:
    """The scenario as JSON text (validated first)."""
    return json.dumps(validate(scenario), ensure_ascii=False, indent=indent)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ScenarioError("number_too_long", where="", digits=MAX_DIGITS)
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        raise ScenarioError("number_too_long", where="", digits=MAX_DIGITS)
    return float(text)


def from_json(text: object) -> Scenario:
    """Read and validate a scenario from JSON text (or bytes)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ScenarioError("malformed", why="not_utf8") from None
    if not isinstance(text, str):
        raise ScenarioError("malformed", why="not_text")
    if len(text) > 64_000:
        raise ScenarioError("malformed", why="link_long")
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float)
    except ScenarioError:
        raise
    except (ValueError, RecursionError):
        raise ScenarioError("malformed", why="not_json") from None
    return validate(data)


def _digest(payload: bytes) -> str:
    return hashlib.sha256(b"cartas-cenario:" + payload).hexdigest()[:10]


# The links' preset dictionary (version 2): the keys and words every scenario repeats, and the
# cards, so that deflate can point back into it. Changing it breaks every version-2 link:
# a new dictionary needs a new LINK_VERSION.
_ZDICT = ('{"ace":"flexible","banker":0,"chips":20,"deal":{"first_cards":[],"then":[],"upcard":null},'
          '"decks":null,"max_bet":5,"min_bet":1,"players":4,"rotation":"rounds","rotation_rounds":3,'
          '"rounds":10,"seed":null,"title":"","dealer":0,"game":"truco","hands":[["","",""]],'
          '"score":[0,0],"tie_lead":"leader","variant":"paulista","vira":"","mineiro","first_tying",'
          '"natural","auction","sale","permanent","21" '
          + " ".join(f'"{c}"' for c in STANDARD_PACK)).encode("utf-8")


def _deflate(raw: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, _ZDICT)
    return packer.compress(raw) + packer.flush()


def encode_link(scenario: Scenario) -> str:
    """Compact URL-safe text for `?cenario=...`: version, compressed JSON and a digest.

    Version 2 (written now): the validated scenario's JSON without what validation puts back
    (`format`, and a truco deal's `manilhas`, which follow from the vira), deflated against a
    preset dictionary (`_ZDICT`). A four-hand truco deal takes about 110 characters, so the
    whole dashboard URL fits a QR code a projector shows well. Version 1 links (zlib without
    a dictionary, every field) are still read."""
    data = validate(scenario)
    data = {k: v for k, v in data.items() if k not in ("format", "manilhas")}
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    body = base64.urlsafe_b64encode(_deflate(raw)).decode("ascii").rstrip("=")
    return f"{LINK_VERSION}.{body}.{_digest(raw)}"


def decode_link(text: object) -> Scenario:
    """Read a scenario back from `encode_link` text (version 1 or 2); an edited link is refused
    as tampered (its digest covers the JSON), a link of another version as not a link."""
    if not isinstance(text, str) or not text.strip():
        raise ScenarioError("malformed", why="link_empty")
    text = text.strip()
    if len(text) > MAX_LINK:
        raise ScenarioError("malformed", why="link_long")
    parts = text.split(".")
    if len(parts) != 3 or parts[0] not in ("1", "2"):
        raise ScenarioError("malformed", why="not_link")
    version, body, digest = parts
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        if version == "1":
            raw = zlib.decompressobj().decompress(packed, 64_000)
        else:
            raw = zlib.decompressobj(-15, zdict=_ZDICT).decompress(packed, 64_000)
    except (binascii.Error, ValueError, zlib.error):
        raise ScenarioError("tampered") from None
    if _digest(raw) != digest:
        raise ScenarioError("tampered")
    if version == "1":
        return from_json(raw)
    try:
        data = json.loads(raw.decode("utf-8"), parse_int=_parse_int, parse_float=_parse_float)
    except ScenarioError:
        raise
    except (ValueError, RecursionError):
        raise ScenarioError("malformed", why="not_json") from None
    if not isinstance(data, dict):
        raise ScenarioError("malformed", why="not_object")
    return validate({**data, "format": FORMAT})
