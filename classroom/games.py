"""The only place where the tables speak to a particular game: a thin adapter over the engine
contract (`cartas/contract.py`).

Everything else in `classroom.tables` and `widgets.mesa` goes through these functions, so
when both games follow the contract exactly (apply_action returning the events, view(seat)
objects with view(None) for a spectator, bots choosing from a view) only this module changes.

Decided here:

- Games a table may hold: "paulista" and "mineiro" (truco, 4 seats in two teams: seats 0 and
  2 against 1 and 3) and "21" (3 to 12 seats).
- 21 options a creator sets: `ace` (1, 11 or "flexible"; None = the engine's default for the
  bank mode), `packs` (1 or 2; None = the engine's default for the seat count), `min_bet`
  and `max_bet` (1..50, min <= max), `rotation` (the engine's bank modes) and `rounds`
  (1..50). Anything else is refused with a TableError naming it (nothing is stored).
- A bot's choice is a function of the table's seed and the state's step count only, so
  whichever kernel moves a bot makes the same move.
"""
from __future__ import annotations

import inspect
from typing import Any

from cartas.errors import RuleError

TRUCO_GAMES = ("paulista", "mineiro")
GAMES = TRUCO_GAMES + ("21",)
GAME_LABELS = {
    "paulista": {"pt": "Truco Paulista", "en": "Truco Paulista"},
    "mineiro": {"pt": "Truco Mineiro", "en": "Truco Mineiro"},
    "21": {"pt": "21 (vinte e um)", "en": "21 (vinte-e-um)"},
}
MIN_SEATS_21, MAX_SEATS_21 = 3, 12
OPTION_KEYS_21 = ("ace", "packs", "min_bet", "max_bet", "rotation", "rounds")


class TableError(ValueError):
    """A table request refused: `code` names the reason, `fields` its values; `str()` is
    English and `message(lang)` renders it in Portuguese ("pt") or English ("en") from
    `TABLE_TEXT` (the tables' one catalogue of sentences)."""

    def __init__(self, code: str, /, **fields: Any):
        self.code, self.fields = code, fields
        super().__init__(self.message("en"))

    def message(self, lang: str = "pt") -> str:
        pt, en = TABLE_TEXT[self.code]
        return (pt if lang == "pt" else en).format(**self.fields)


TABLE_TEXT = {
    "bad_game": ("jogo desconhecido {game}: escolha paulista, mineiro ou 21",
                 "unknown game {game}: choose paulista, mineiro or 21"),
    "bad_seats_truco": ("uma mesa de truco tem 4 lugares, não {seats}",
                        "a truco table has 4 seats, not {seats}"),
    "bad_seats_21": ("uma mesa de 21 tem de 3 a 12 lugares, não {seats}",
                     "a 21 table has 3 to 12 seats, not {seats}"),
    "bad_option": ("opção inválida para a mesa: {option} = {value}",
                   "invalid table option: {option} = {value}"),
    "engine_refused": ("a mesa não pode começar assim: {reason}",
                       "the table cannot start like this: {reason}"),
    "no_table": ("não há mesa com o código {code}", "there is no table with the code {code}"),
    "bad_code": ("código de mesa inválido: {code} (são {n} letras e números)",
                 "invalid table code: {code} ({n} letters and digits)"),
    "moved_on": ("a mesa já mudou: a jogada não foi feita, veja a mesa de novo",
                 "the table moved on: your move was not made, look at the table again"),
    "seat_taken": ("o lugar {seat} já está ocupado por {name}",
                   "seat {seat} is already taken by {name}"),
    "bad_seat": ("a mesa tem os lugares 0 a {top}, não {seat}",
                 "the table has seats 0 to {top}, not {seat}"),
    "not_seated": ("você não está sentado nesta mesa", "you are not seated at this table"),
    "not_creator": ("só quem criou a mesa pode começar o jogo",
                    "only the table's creator can start the game"),
    "already_started": ("o jogo desta mesa já começou", "this table's game has already started"),
    "not_started": ("o jogo desta mesa ainda não começou", "this table's game has not started yet"),
    "finished": ("o jogo desta mesa terminou", "this table's game is over"),
    "not_your_turn": ("não é a sua vez: é a vez do lugar {seat}",
                      "it is not your turn: seat {seat} is to play"),
    "bad_name": ("o nome precisa ter de 1 a {n} caracteres", "a name needs 1 to {n} characters"),
    "bad_timeout": ("o tempo de ausência vai de {low} a {high} segundos, não {value}",
                    "the away timeout is {low} to {high} seconds, not {value}"),
    "bad_action": ("jogada ilegível: {text}", "unreadable move: {text}"),
    "store_down": ("não foi possível falar com o banco de dados das mesas; tente de novo",
                   "the tables' store could not be reached; try again"),
}


def _modules(game: str):
    if game in TRUCO_GAMES:
        import cartas.truco as module
    elif game == "21":
        import cartas.vinte_e_um as module
    else:
        raise TableError("bad_game", game=repr(game))
    return module


def is_truco(game: str) -> bool:
    return game in TRUCO_GAMES


def check_setup(game: str, seats: int | None, options: dict | None) -> tuple[int, dict]:
    """Validate a table's game, seat count and options; returns (seats, clean options)."""
    _modules(game)
    options = dict(options or {})
    if is_truco(game):
        if seats not in (None, 4):
            raise TableError("bad_seats_truco", seats=repr(seats))
        if options:
            key = next(iter(options))
            raise TableError("bad_option", option=key, value=repr(options[key]))
        return 4, {}
    if seats is None:
        seats = 4
    if (not isinstance(seats, int) or isinstance(seats, bool)
            or not MIN_SEATS_21 <= seats <= MAX_SEATS_21):
        raise TableError("bad_seats_21", seats=repr(seats))
    clean: dict[str, Any] = {}
    for key, value in options.items():
        if key not in OPTION_KEYS_21:
            raise TableError("bad_option", option=key, value=repr(value))
        if value is None:
            continue
        if key == "ace":
            ok = value in (1, 11, "flexible") and not isinstance(value, bool)
        elif key == "rotation":
            from cartas.vinte_e_um import ROTATIONS
            ok = value in ROTATIONS
        elif key == "packs":
            ok = value in (1, 2) and not isinstance(value, bool)
        else:
            ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 50
        if not ok:
            raise TableError("bad_option", option=key, value=repr(value))
        clean[key] = value
    # let the engine judge the whole set-up once (e.g. ace=1 with the "natural" rotation)
    try:
        new_state(game, seats, clean, seed=0)
    except ValueError as error:
        reason = error.message("en") if isinstance(error, RuleError) else str(error)
        raise TableError("engine_refused", reason=reason) from None
    return seats, clean


def new_state(game: str, seats: int, options: dict, seed: int):
    """A fresh game for a table (the first deal is made, from `seed`)."""
    module = _modules(game)
    if is_truco(game):
        return module.new_game(game, seed=seed)
    o = dict(options)
    return module.new_game(seats, seed=seed, ace=o.get("ace"), decks=o.get("packs"),
                           min_bet=o.get("min_bet", 1), max_bet=o.get("max_bet", 5),
                           rotation=o.get("rotation", "rounds"), rounds=o.get("rounds", 10))


def load_state(game: str, text: str):
    return _modules(game).from_json(text)


def parse_action(game: str, text: str):
    return _modules(game).Action.parse(text)


def step_count(state) -> int:
    """How many events the game has had: grows with every action."""
    return len(state.events)


def apply(state, action, seat: int) -> list[dict]:
    """Apply `seat`'s action through the engine; returns the events it caused."""
    before = step_count(state)
    result = state.apply_action(action, seat=seat)
    if isinstance(result, list):  # the contract
        return result
    return list(state.events[before:])


def view(state, seat: int | None):
    """What `seat` may see (None: a spectator, who sees no hidden card)."""
    if seat is not None or not _is_truco_state(state):
        return state.view(seat)
    try:
        return state.view(None)
    except Exception:  # noqa: BLE001 - an engine without a truco spectator view yet
        return _TrucoSpectator(state)


def seat_hands(seat_view) -> list:
    """Per seat, the cards a view shows (None for a card it may not see)."""
    hands = seat_view["hands"] if isinstance(seat_view, dict) else seat_view.hands
    return [list(h) for h in hands]


def _is_truco_state(state) -> bool:
    return hasattr(state, "variant") and hasattr(state, "tricks")


def legal_actions(state, seat: int | None) -> list:
    """The seat's legal actions now ([] when it is not its turn or for a spectator)."""
    if seat is None or state.current_seat != seat:
        return []
    return list(state.legal_actions())


def events_for(state, seat: int | None) -> list[dict]:
    """The event log as `seat` may see it."""
    v = view(state, seat)
    events = getattr(v, "events", None)
    if events is not None and not isinstance(v, dict):
        return list(events)
    return state.events_for(seat)


def narrate(state, event: dict, lang: str) -> str:
    """One event as a sentence (the contract's `state.narrate(event, lang)`)."""
    method = getattr(state, "narrate", None)
    if method is not None:
        return method(event, lang)
    module = _modules(_game_of(state))
    if "variant" in inspect.signature(module.narrate).parameters:
        return module.narrate(event, state.variant, lang)
    return module.narrate(event, lang)


def _game_of(state) -> str:
    return state.variant.key if _is_truco_state(state) else "21"


def describe(state, action, lang: str) -> str:
    """A move's button label."""
    if _is_truco_state(state):
        return action.describe(lang, state.variant)
    return action.describe(lang)


def why(state, lang: str) -> str | None:
    """The "why" of the last trick (truco: who took it and why, or how the last hand ended);
    21: the last call's judgement as narrated. None when there is nothing to explain yet."""
    if _is_truco_state(state):
        from cartas.truco import explain_last_hand, explain_trick
        tricks = [] if state.is_terminal() else state.tricks
        if tricks:
            return explain_trick(tricks[-1], state.variant, state.vira, lang)
        if state.last_hand is not None:
            return explain_last_hand(state.last_hand, state.variant, lang)
        return None
    call = next((e for e in reversed(state.events) if e["type"] == "call"), None)
    return None if call is None else narrate(state, call, lang)


def bot_action(state, seat: int, seed: int):
    """The rule-based bot's move for `seat`, the same in every kernel for a given seed and
    step count."""
    step = step_count(state)
    bot_seed = (int(seed) * 1_000_003 + step * 7919 + seat) % (2**31)
    if _is_truco_state(state):
        from cartas.truco.bots import RuleBot
        return RuleBot(seed=bot_seed).choose(state.view(seat))
    from cartas.vinte_e_um.bots import SensibleBot
    bot = SensibleBot(seed=bot_seed)
    if len(inspect.signature(bot.choose).parameters) >= 2:
        return bot.choose(state, seat)
    return bot.choose(state.view(seat))


def hand_number(state) -> int:
    """The hand (truco) or round (21) in play, from 1."""
    return state.hand_number if _is_truco_state(state) else state.round_number


def team_of(state, seat: int) -> int | None:
    if _is_truco_state(state):
        from cartas.truco import team_of as truco_team
        return truco_team(seat)
    return None


def outcome(state) -> dict:
    """Who won, JSON-friendly: {"winner": team or seat or None, "score"/"chips": ...}."""
    if _is_truco_state(state):
        return {"winner": state.winner, "score": list(state.score)}
    return {"winner": state.winner, "chips": list(state.chips)}


class _TrucoSpectator:
    """A truco spectator's view built from the public table, for an engine whose view()
    takes no None: every hand hidden, face-down plays hidden, no legal action."""

    def __init__(self, state):
        from cartas.truco.state import redact_event
        base = state.view(0)
        for name, value in vars(base).items():
            if not name.startswith("_"):
                setattr(self, name, value)
        self.seat, self.team = None, None
        self.hands = tuple(tuple(None for _ in h) for h in base.hands)
        self.hand = ()
        self.legal, self.raise_options = (), ()
        events = []
        for e in state.events:
            if e["type"] == "deal":
                e = {**e, "hands": [[None] * len(h) for h in e["hands"]]}
            else:
                e = redact_event(e, -1)
            events.append(e)
        self._events = events

    def legal_actions(self) -> list:
        return []

    @property
    def is_my_turn(self) -> bool:
        return False

    @property
    def events(self) -> list[dict]:
        return list(self._events)
