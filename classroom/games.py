"""The only place where the tables speak to a particular game: a thin adapter over the engine
contract (`cartas/contract.py`) and its registry of games (`cartas/games.py`).

Everything else in `classroom.tables` and `widgets.pages.mesa` goes through these functions. They
use the contract (apply_action returning the events, `view(seat)` with `view(None)` for a
spectator, `narrate(event, lang)`, bots choosing from a view) and touch a game's specifics only
for its set-up, its button labels (truco names a raise by its variant), the hand or round
number, teams and the "why" of the last trick.

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

from collections.abc import Sequence
from typing import Any

import cartas.truco as truco
import cartas.vinte_e_um as vinte_e_um
from cartas.contract import Action, Event, GameState
from cartas.errors import RuleError
from cartas.games import GAME_KEYS, GameSpec, all_games, find_game

GAMES = GAME_KEYS
TRUCO_GAMES = tuple(spec.key for spec in all_games() if spec.teams)
GAME_LABELS = {spec.key: {"pt": spec.title("pt"), "en": spec.title("en")} for spec in all_games()}
MIN_SEATS_21, MAX_SEATS_21 = find_game("21").seats
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
    "bad_seats_truco": ("uma mesa de truco tem 4 assentos, não {seats}",
                        "a truco table has 4 seats, not {seats}"),
    "bad_seats_21": ("uma mesa de 21 tem de 3 a 12 assentos, não {seats}",
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
    "seat_taken": ("o assento {seat} já está ocupado por {name}",
                   "seat {seat} is already taken by {name}"),
    "bad_seat": ("a mesa tem os assentos 0 a {top}, não {seat}",
                 "the table has seats 0 to {top}, not {seat}"),
    "not_seated": ("você não está sentado nesta mesa", "you are not seated at this table"),
    "not_creator": ("só quem criou a mesa pode começar o jogo",
                    "only the table's creator can start the game"),
    "already_started": ("o jogo desta mesa já começou", "this table's game has already started"),
    "not_started": ("o jogo desta mesa ainda não começou", "this table's game has not started yet"),
    "finished": ("o jogo desta mesa terminou", "this table's game is over"),
    "not_your_turn": ("não é a sua vez: é a vez do assento {seat}",
                      "it is not your turn: seat {seat} is to play"),
    "bad_name": ("o nome precisa ter de 1 a {n} caracteres", "a name needs 1 to {n} characters"),
    "bad_timeout": ("o tempo de ausência vai de {low} a {high} segundos, não {value}",
                    "the away timeout is {low} to {high} seconds, not {value}"),
    "bad_action": ("jogada ilegível: {text}", "unreadable move: {text}"),
    "store_down": ("não foi possível falar com o banco de dados das mesas; tente de novo",
                   "the tables' store could not be reached; try again"),
}


def _spec(game: str) -> GameSpec:
    if game not in GAMES:
        raise TableError("bad_game", game=repr(game))
    return find_game(game)


def is_truco(game: str) -> bool:
    return game in TRUCO_GAMES


def check_setup(game: str, seats: int | None, options: dict | None) -> tuple[int, dict]:
    """Validate a table's game, seat count and options; returns (seats, clean options)."""
    _spec(game)
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
            ok = value in vinte_e_um.ROTATIONS
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


def new_state(game: str, seats: int, options: dict, seed: int) -> GameState:
    """A fresh game for a table (the first deal is made, from `seed`); a table's "packs" is
    the engine's "decks"."""
    spec = _spec(game)
    engine = {("decks" if key == "packs" else key): value for key, value in options.items()
              if value is not None}
    return spec.new_game(seed, seats=seats, **engine)


def load_state(game: str, text: str) -> GameState:
    return _spec(game).from_json(text)


def parse_action(game: str, text: str) -> Action:
    return _spec(game).parse_action(text)


def step_count(state) -> int:
    """How many events the game has had: grows with every action."""
    return len(state.events)


def apply(state: GameState, action: Any, seat: int) -> Sequence[Event]:
    """Apply `seat`'s action through the engine; returns the events it caused."""
    return state.apply_action(action, seat=seat)


def view(state: GameState, seat: int | None) -> Any:
    """What `seat` may see (None: a spectator, who sees no hidden card): the game's own
    SeatView, which follows the contract and carries the game's specifics (a truco hand,
    its manilhas) that the table draws."""
    return state.view(seat)


def seat_hands(seat_view: Any) -> list:
    """Per seat, the cards a view shows (None for a card it may not see)."""
    return [list(h) for h in seat_view.hands]


def _is_truco_state(state) -> bool:
    return isinstance(state, truco.TrucoState)


def legal_actions(state: GameState, seat: int | None) -> list:
    """The seat's legal actions now ([] when it is not its turn or for a spectator)."""
    if seat is None or state.current_seat != seat:
        return []
    return list(state.legal_actions())


def events_for(state: GameState, seat: int | None) -> list[Event]:
    """The event log as `seat` may see it."""
    return list(state.view(seat).events)


def narrate(state: GameState, event: Event, lang: str, names: dict[int, str] | None = None) -> str:
    """One event as a sentence; a seat in `names` ({seat: learner's name}) is called by her
    name (cartas.truco.narrate, cartas.vinte_e_um.narrate)."""
    if names:
        named: Any = state  # both games' narrate take the names; the contract does not
        return named.narrate(event, lang, names=names)
    return state.narrate(event, lang)


def describe(state: GameState, action: Action, lang: str) -> str:
    """A move's button label, as the game names it now (truco names a raise after its
    variant's ladder of values)."""
    return state.describe(action, lang)


def why(state, lang: str) -> str | None:
    """The "why" of the last trick (truco: who took it and why, or how the last hand ended);
    21: the last call's judgement as narrated. None when there is nothing to explain yet."""
    if _is_truco_state(state):
        tricks = [] if state.is_terminal() else state.tricks
        if tricks:
            return truco.explain_trick(tricks[-1], state.variant, state.vira, lang)
        if state.last_hand is not None:
            return truco.explain_last_hand(state.last_hand, state.variant, lang)
        return None
    call = next((e for e in reversed(state.events) if e["type"] == "call"), None)
    return None if call is None else narrate(state, call, lang)


def bot_action(state: GameState, seat: int, seed: int) -> Action:
    """The rule-based bot's move for `seat`, the same in every kernel for a given seed and
    step count."""
    bot_seed = (int(seed) * 1_000_003 + step_count(state) * 7919 + seat) % (2**31)
    return find_game(state.game).bot(bot_seed).choose(state.view(seat))


def hand_number(state) -> int:
    """The hand (truco) or round (21) in play, from 1."""
    return state.hand_number if _is_truco_state(state) else state.round_number


def team_of(game: str, seat: int) -> int | None:
    """The seat's team at a truco table; None at a 21 table, where every seat plays for
    itself."""
    return truco.team_of(seat) if is_truco(game) else None


def outcome(state: GameState) -> dict:
    """Who won, JSON-friendly: {"winner": team or seat or None, "score"/"chips": ...}
    (the scores of teams, or the chips of seats: `state.outcome()`)."""
    result = state.outcome()
    return {"winner": result.winner, ("score" if result.by == "team" else "chips"): list(result.scores)}
