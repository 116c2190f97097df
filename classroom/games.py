"""The only place where the tables speak to a game: a thin adapter over the engine contract
(`cartas/contract.py`) and its registry of games (`cartas/games.py`).

Everything else in `classroom.tables` and `widgets.pages.mesa` goes through these functions. They
use the contract (apply_action returning the events, `view(seat)` with `view(None)` for a
spectator, `narrate(event, lang)`, bots choosing from a view) and ask the game's `GameSpec` for
what differs between games (seats, the options a table's creator sets, teams, the hand or round
number, the banker, a raise to answer, the "why" of the last trick): no function here compares game names.

Decided here:

- Games a table may hold: every game of the registry, "paulista" and "mineiro" (truco, 4 seats
  in two teams: seats 0 and 2 against 1 and 3, or 2 seats mano a mano, one against one:
  docs/rules.md#mano-a-mano-players; the spec's `seat_counts`) and "21" (3 to 12 seats).
- Options a creator sets are the game's `table_options` (truco: `hands`, a short game of 1..30
  hands, None = to 12: docs/rules.md#truco-short-game; 21: `ace` (1, 11 or
  "flexible"; None = the engine's default for the bank mode), `packs` (1 or 2; None = the
  engine's default for the seat count), `min_bet` and `max_bet` (1..50, min <= max), `rotation`
  (the engine's bank modes) and `rounds` (1..50)). Anything else is refused with a TableError
  naming it (nothing is stored).
- A bot's choice is a function of the table's seed, its bots' level and the state's step count
  only, so whichever kernel moves a bot makes the same move.
- A table's bots play at the level its creator chose: one of the engine's `LEVELS` ("easy",
  "rule", "strong"; `check_level`, anything else refused with TableError "bad_level" naming it);
  a table stored before tables had a level plays at "rule" (`table_level`).
- A table's newer save is read from the game already held (`advance`) when it is that game
  with more actions (the same format and setup, the held actions first): a copy of it
  (`clone`) plays the new actions, as loading would replay them; any other save is loaded
  whole, the engine checking it as always.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cartas.catalogue import Catalogue
from cartas.contract import Action, Event, GameState, Outcome
from cartas.errors import RuleError
from cartas.games import DEFAULT_LEVEL, GAME_KEYS, LEVELS, GameSpec, all_games, find_game, level_name

GAMES = GAME_KEYS
GAME_LABELS = {spec.key: {"pt": spec.title("pt"), "en": spec.title("en")} for spec in all_games()}
# a table names the engine's "decks" option "packs" (what a class calls them)
TABLE_NAMES = {"decks": "packs"}
ENGINE_NAMES = {table: engine for engine, table in TABLE_NAMES.items()}

CATALOGUE = Catalogue("tables", {
    "bad_game": ("jogo desconhecido {game}: escolha {choices}",
                 "unknown game {game}: choose {choices}"),
    "bad_seats_truco": ("uma mesa de {title} tem {counts} assentos, não {seats}",
                        "a {title} table has {counts_en} seats, not {seats}"),
    "bad_seats_21": ("uma mesa de {title} tem de {low} a {high} assentos, não {seats}",
                     "a {title} table has {low} to {high} seats, not {seats}"),
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
    "bad_level": ("nível dos robôs desconhecido {level}: escolha {choices}",
                  "unknown bots' level {level}: choose {choices}"),
    "homework_table": ("esta mesa é a partida de tarefa de uma pessoa: só ela joga aqui, e ninguém, nem um "
                       "robô, joga no assento dela", "this table is one learner's homework game: only she plays "
                       "here, and nobody, not even a bot, plays in her seat"),
    "store_down": ("não foi possível falar com o banco de dados das mesas; tente de novo",
                   "the tables' store could not be reached; try again"),
})


class TableError(RuleError):
    """A table request refused, one of the `RuleError` family: `code` names the reason (a key
    of the tables' catalogue `CATALOGUE`), `fields` its values; `str()` is English and
    `message(lang)` renders it in Portuguese ("pt") or English ("en")."""

    catalogue = CATALOGUE


def spec_of(game: object) -> GameSpec:
    """The registry's spec of a table's game; TableError "bad_game" naming it otherwise."""
    if not isinstance(game, str) or game not in GAMES:
        raise TableError("bad_game", game=repr(game)[:40], choices=", ".join(GAMES))
    return find_game(game)


def table_options(game: str) -> tuple[str, ...]:
    """The option names a table's creator may set for `game` (its spec's `table_options`,
    as a table names them: "packs" for the engine's "decks"); () where there are none."""
    return tuple(TABLE_NAMES.get(o.name, o.name) for o in spec_of(game).table_options)


def option_range(game: str, name: str) -> tuple[int, int]:
    """The whole numbers a table option of `game` allows, (low, high), as the game's spec says
    (truco's "hands": 1..30); TableError "bad_option" for an option without a range."""
    for option in spec_of(game).table_options:
        if TABLE_NAMES.get(option.name, option.name) == name and option.low is not None and option.high is not None:
            return option.low, option.high
    raise TableError("bad_option", option=str(name)[:40], value="-")


def seat_counts(game: str) -> tuple[int, ...]:
    """The seat counts a table of `game` may have when the game allows only a few (truco: 4,
    the default, or 2 mano a mano: docs/rules.md#mano-a-mano-players); () when every count of
    its range is allowed (21)."""
    return spec_of(game).seat_counts


def _check_seats(spec: GameSpec, seats: object) -> int:
    low, high = spec.seats
    if seats is None:
        return spec.default_seats
    counts = sorted(spec.seat_counts)  # the counts allowed, when not every one in the range
    if (isinstance(seats, int) and not isinstance(seats, bool) and low <= seats <= high
            and (not counts or seats in counts)):
        return seats
    if counts:  # a few seat counts (truco: 2 or 4)
        head = ", ".join(map(str, counts[:-1]))
        raise TableError("bad_seats_truco", title=spec.title("pt"), seats=repr(seats)[:40],
                         counts=f"{head} ou {counts[-1]}", counts_en=f"{head} or {counts[-1]}")
    raise TableError("bad_seats_21", title=spec.title("pt"), low=low, high=high, seats=repr(seats)[:40])


def check_setup(game: str, seats: int | None, options: dict | None) -> tuple[int, dict]:
    """Validate a table's game, seat count and options; returns (seats, clean options)."""
    spec = spec_of(game)
    count = _check_seats(spec, seats)
    allowed = {TABLE_NAMES.get(o.name, o.name): o for o in spec.table_options}
    clean: dict[str, Any] = {}
    for key, value in dict(options or {}).items():
        option = allowed.get(key)
        if option is None or not option.allows(value, count):
            raise TableError("bad_option", option=str(key)[:40], value=repr(value)[:40])
        if value is not None:
            clean[key] = value
    # let the engine judge the whole set-up once (e.g. ace=1 with the "natural" rotation)
    try:
        new_state(game, count, clean, seed=0)
    except ValueError as error:
        reason = error.message("en") if isinstance(error, RuleError) else str(error)
        raise TableError("engine_refused", reason=reason) from None
    return count, clean


def new_state(game: str, seats: int, options: dict, seed: int) -> GameState:
    """A fresh game for a table (the first deal is made, from `seed`); a table's "packs" is
    the engine's "decks"."""
    spec = spec_of(game)
    engine = {ENGINE_NAMES.get(key, key): value for key, value in options.items() if value is not None}
    return spec.new_game(seed, seats=seats, **engine)


def load_state(game: str, text: str) -> GameState:
    return spec_of(game).from_json(text)


def advance(game: str, state: GameState, held_text: object, text: str) -> GameState:
    """The game saved as `text`, knowing `state`, the game saved as `held_text` (an earlier
    save of the same table): when `text` is `held_text` with more actions (the same format and
    setup, `held_text`'s actions first), a copy of `state` with the new actions applied, as
    `load_state` would replay them, without replaying the ones before; otherwise (another
    setup, fewer or other actions, another format, an action refused) `load_state(text)`,
    which checks it whole. `state` itself is never changed."""
    held = new = None
    if isinstance(held_text, str) and isinstance(text, str):
        try:
            held, new = json.loads(held_text), json.loads(text)
        except ValueError:
            held = new = None
    keys = {"format", "setup", "actions"}
    if (isinstance(held, dict) and isinstance(new, dict) and held.keys() == keys and new.keys() == keys
            and held["format"] == new["format"] and held["setup"] == new["setup"]
            and isinstance(held["actions"], list) and isinstance(new["actions"], list)
            and len(new["actions"]) >= len(held["actions"])
            and new["actions"][:len(held["actions"])] == held["actions"]):
        copy = state.clone()
        try:
            for action in new["actions"][len(held["actions"]):]:
                if not isinstance(action, str):
                    raise TypeError(action)
                copy.apply_action(action)
            return copy
        except (RuleError, TypeError, ValueError):
            pass   # loaded whole below: the engine names what it refuses
    return load_state(game, text)


def parse_action(game: str, text: str) -> Action:
    return spec_of(game).parse_action(text)


def step_count(state: GameState) -> int:
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


def view_from_dict(game: str, data: object) -> Any:
    """A seat view of `game` read back from its `to_dict()` (the game's own SeatView type);
    the game's RuleError naming a missing, extra or ill-typed field."""
    return spec_of(game).view_from_dict(data)


def seat_hands(seat_view: Any) -> list:
    """Per seat, the cards a view shows (None for a card it may not see)."""
    return [list(h) for h in seat_view.hands]


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


def why(state: GameState, lang: str) -> str | None:
    """The "why" of the last trick or call (the game's `GameSpec.why`); None when there is
    nothing to explain yet."""
    return find_game(state.game).why(state, lang)


def check_level(level: object) -> str:
    """The bots' level of a table: `level` itself if it is one of the engine's `LEVELS`
    ("easy", "rule", "strong"); TableError "bad_level" naming it and the choices otherwise."""
    if not isinstance(level, str) or level not in LEVELS:
        raise TableError("bad_level", level=repr(level)[:40], choices=", ".join(LEVELS))
    return level


def table_level(record: dict) -> str:
    """The level a table's bots play at: its record's `level`; DEFAULT_LEVEL ("rule") for a
    table stored before tables had one."""
    return str(record.get("level") or DEFAULT_LEVEL)


def level_label(level: str, lang: str) -> str:
    """A bot level's name in `lang` ("Fácil", "Easy"...), as the engine names it."""
    return level_name(check_level(level), lang)


def bot_action(state: GameState, seat: int, seed: int, level: str = DEFAULT_LEVEL) -> Action:
    """The move of a bot of `level` for `seat`, the same in every kernel for a given seed and
    step count."""
    bot_seed = (int(seed) * 1_000_003 + step_count(state) * 7919 + seat) % (2**31)
    return find_game(state.game).bot(bot_seed, level=check_level(level)).choose(state.view(seat))


# The next three ask what any seat sees, so they take a state or one of its seat views (a page
# under JupyterHub holds only its seat's view): `game` is the game's key, the state's by default.
def hand_number(state: Any, game: str | None = None) -> int:
    """The hand (truco) or round (21) in play, from 1."""
    return spec_of(game or state.game).deal_number(state)


def banker(state: Any, game: str | None = None) -> int | None:
    """The seat holding the bank; None in a game without one."""
    return spec_of(game or state.game).banker(state)


def raise_to_answer(state: Any, game: str | None = None) -> dict | None:
    """The raise the current seat must answer now; None when there is none."""
    return spec_of(game or state.game).raise_to_answer(state)


def card_action(game: str, legal: list, hand: list, index: int, covered: bool = False):
    """The action a seat's pick of the card at `index` of its hand takes (the game's rule:
    `GameSpec.card_action`, a blind play in truco's mão de ferro); None when it may not."""
    return spec_of(game).card_action(legal, hand, index, covered)


def blind_positions(game: str, legal: list) -> frozenset[int]:
    """The positions of her hand a seat may play unseen now (`GameSpec.blind_positions`)."""
    return spec_of(game).blind_positions(legal)


def hand_play(game: str) -> bool:
    """True where a seat plays cards picked from its hand (the table shows them to pick)."""
    return spec_of(game).hand_play


def team_of(game: str, seat: int) -> int | None:
    """The seat's team where seats play in teams; None where every seat plays for itself."""
    return spec_of(game).team_of(seat)


def outcome(state: GameState) -> Outcome:
    """Who won, as the engine says it (`state.outcome()`, the contract's typed `Outcome`: the
    scores of teams or the chips of seats, `by` saying which); its `to_dict()` is what a table's
    record keeps."""
    return state.outcome()
