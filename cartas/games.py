"""The games of Cartas, one registry: a `GameSpec` per game, found by its key.

Keys: "paulista" (Truco Paulista), "mineiro" (Truco Mineiro) and "21" (vinte e um).
`find_game(key)` gives the spec, or raises `GameError` ("unknown_game") naming the key and
the choices in Portuguese and English. A spec says everything a caller needs without
comparing game names:

- `key`, `titles` (Portuguese, English; `title(lang)`), `seats` (fewest, most),
  `seat_counts` (the counts allowed between them: truco takes 4 or 2, mano a mano,
  docs/rules.md#mano-a-mano-players; empty: every count from fewest to most) and
  `default_seats`, `teams` (True when seats play in two teams, as in truco);
- `options`: each `Option` with its default and what it allows (a list of choices, or a
  range of whole numbers; `None` allowed where the engine picks a default);
- `new_game(seed, seats=None, **options)`: a new game, every option checked first
  (an unknown option or a value outside its range is a `GameError` naming it, an impossible
  combination the engine's own `RuleError`);
- `from_json(text)`, `parse_action(text)`, `bot(seed, level="rule")` (a bot of one of
  `LEVELS`: "easy", a beginner a learner can beat; "rule", the rule-following bot, the
  default; "strong", the best player the engine has; an unknown level is a GameError
  "unknown_level" naming it; `level_name(level, lang)` says a level's name for a chooser)
  and `random_bot(seed)`;
- what differs from game to game, asked of the spec instead of decided by a game's name:
  `family` (the games sharing a pack, drawings and lessons: "truco" for paulista and mineiro,
  "21"), `hand_play` (a seat plays cards it picks from its hand), `table_options` (what a
  class table's creator may set, narrower than `options`: a class's tables stay small),
  `team_of(seat)`, `deal_number(state)` (the hand or round in play), `banker(state)`,
  `raise_to_answer(state)` and `why(state, lang)` (the last trick's or call's explanation),
  `seat_out(state, seat)` and `answers_for(state, seat)` (who may still act, and for whom),
  `most_actions(setup)` and `fresh_start(setup)` (what a save sent by a page may be),
  `coach_question(view, seed)` (the coach's question at a seat's decision);
- `view_from_dict(data)`: a seat view read back from its `to_dict()` (the game's own
  `SeatView`; the game's RuleError naming a missing, extra or ill-typed field);
- `seats_from(seat, seats)`: the seats in play order from one seat (a table drawn from hers).

Importing this module is cheap: a game's engine loads when its spec is first asked for.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from .catalogue import check_lang
from .contract import Action, Bot, GameState, SeatView
from .options import CATALOGUE, GameError, Option, check_options, shown as _shown, whole as _whole

if TYPE_CHECKING:  # numpy loads with a game's first use, not with the registry
    import numpy as np

GAME_KEYS: tuple[str, ...] = ("paulista", "mineiro", "21")
LEVELS: tuple[str, ...] = ("easy", "rule", "strong")  # the bots' levels, weakest first
DEFAULT_LEVEL = "rule"
__all__ = ["CATALOGUE", "DEFAULT_LEVEL", "GAME_KEYS", "LEVELS", "GameError", "GameSpec", "Option", "all_games",
           "check_level", "families", "find_game", "level_name"]
TABLE_MOST = 50  # the most bets and rounds a class table's creator may choose
TRUCO_MOST_ACTIONS = 1_000      # actions of a truco game to 12, at most (bots' games take under 100)
ACTIONS_PER_SEAT_ROUND_21 = 6   # a 21 seat's actions in a round, at most counted (bots' take about 3)

@dataclass(frozen=True)
class GameSpec:
    """One game of the registry (see the module docstring)."""

    key: str
    titles: tuple[str, str]
    seats: tuple[int, int]
    default_seats: int
    teams: bool
    options: tuple[Option, ...]
    _new: Callable[..., GameState]
    _load: Callable[[str], GameState]
    _parse: Callable[[str], Action]
    _bots: Mapping[str, Callable[[int | None], Bot]]
    _random_bot: Callable[[int | None], Bot]
    family: str
    hand_play: bool
    table_options: tuple[Option, ...]
    _team_of: Callable[[int], int | None]
    _deal_number: Callable[[Any], int]
    _banker: Callable[[Any], int | None]
    _why: Callable[[Any, str], str | None]
    _raise_to_answer: Callable[[Any], dict[str, Any] | None]
    _view_from_dict: Callable[[object], SeatView]
    seat_counts: tuple[int, ...] = ()  # the seat counts allowed, when not the whole range
    _card_action: Callable[[list[Any], list[Any], int, bool], Action | None] = lambda legal, hand, index, covered: None
    _blind_positions: Callable[[list[Any]], frozenset[int]] = lambda legal: frozenset()
    _seat_out: Callable[[Any, int], bool] = lambda state, seat: False
    _answers_for: Callable[[Any, int], bool] = lambda state, seat: False
    _most_actions: Callable[[Mapping[str, Any]], int] = lambda setup: 0
    _fresh_start: Callable[[Mapping[str, Any]], bool] = lambda setup: False
    _coach_question: Callable[[Any, int], dict[str, Any] | None] = lambda view, seed: None

    def title(self, lang: str = "pt") -> str:
        return self.titles[0] if check_lang(lang) == "pt" else self.titles[1]

    def card_action(self, legal: list[Any], hand: list[Any], index: int, covered: bool = False) -> Action | None:
        """In a game of `hand_play`, the action a seat's pick of the card at `index` of its hand
        takes among its `legal` actions (in truco's mão de ferro: the blind play of that position,
        docs/rules.md#ferro-blind), face down when `covered`; None when it may not be played now
        (always, in a game without hand play)."""
        return self._card_action(legal, hand, index, covered)

    def blind_positions(self, legal: list[Any]) -> frozenset[int]:
        """The positions of its hand a seat may play without seeing them now (truco's mão de ferro)."""
        return self._blind_positions(legal)

    def seat_out(self, state: GameState, seat: int) -> bool:
        """Whether `seat`'s game is over before the game itself is (21: a seat left without
        chips can never act again, docs/rules.md#21-seat-out; a truco seat plays to the end)."""
        return self._seat_out(state, seat)

    def answers_for(self, state: GameState, seat: int) -> bool:
        """Whether `seat` may give the answer the engine asks of the seat to act now, though it
        is not that seat (truco: her team's answer to a raise or a mão de onze,
        docs/rules.md#truco-who-answers; never in 21)."""
        return self._answers_for(state, seat)

    def most_actions(self, setup: Mapping[str, Any]) -> int:
        """The most actions a real game begun from the saved set-up `setup` (a save's "setup",
        read without trusting it) takes: a bound on what a page may send (truco: 1,000 for a
        game to 12, where bots' games take under 100; 21: 6 actions per seat and round, the
        rounds counted up to `TABLE_MOST`)."""
        return self._most_actions(setup)

    def fresh_start(self, setup: Mapping[str, Any]) -> bool:
        """Whether the saved set-up `setup` starts as a new game does (truco: from 0 to 0; 21:
        every seat with the starting chips and no first cards chosen by hand; a shared
        generator's draws are saved as dealt by hand, so they cannot be told from a hand's)."""
        return self._fresh_start(setup)

    def coach_question(self, view: SeatView, seed: int = 0) -> dict[str, Any] | None:
        """The coach's question at a seat's `view`, when the seat has a decision the coach
        advises on (truco: the card to play or the answer to a raise; 21: hit or stand, draw or
        call): {"question", "options", "answer", "seen", "reason" {"pt", "en"}, "figure",
        "values", "accepted"}; None when there is none to ask here (see `cartas.coach`)."""
        return self._coach_question(view, seed)

    def option(self, name: str) -> Option:
        """The option called `name`; GameError "unknown_option" otherwise."""
        for option in self.options:
            if option.name == name:
                return option
        raise GameError("unknown_option", game=self.key, option=_shown(name),
                        choices=", ".join(o.name for o in self.options) or "-")

    def check_seats(self, seats: object) -> int:
        """`seats` (None: the default) if the game allows it; GameError "bad_seats" (outside
        `seats`) or "bad_seat_count" (not one of `seat_counts`)."""
        if seats is None:
            return self.default_seats
        low, high = self.seats
        if not _whole(seats) or not low <= seats <= high:  # type: ignore[operator]
            raise GameError("bad_seats", game=self.key, low=low, high=high, value=_shown(seats))
        if self.seat_counts and seats not in self.seat_counts:
            counts = sorted(self.seat_counts)
            head = ", ".join(map(str, counts[:-1]))
            raise GameError("bad_seat_count", game=self.key, value=_shown(seats),
                            choices=f"{head} ou {counts[-1]}", choices_en=f"{head} or {counts[-1]}")
        return seats  # type: ignore[return-value]

    def check_options(self, options: Mapping[str, object], seats: int | None = None) -> dict[str, object]:
        """Every option, `options` over the defaults, each checked against what it allows;
        GameError naming the first unknown option or refused value."""
        return check_options(self.options, self.key, options, self.check_seats(seats))

    def new_game(self, seed: int | np.random.Generator | None = None, seats: int | None = None,
                 **options: object) -> GameState:
        """A new game from `seed` (None, a whole number or a numpy Generator) with `seats`
        (None: `default_seats`) and `options` (see `check_options`)."""
        checked = self.check_options(options, seats)
        return self._new(seed, self.check_seats(seats), **checked)

    def from_json(self, text: str) -> GameState:
        """The game saved as `text` (its `to_json()`); the game's RuleError otherwise."""
        return self._load(text)

    def parse_action(self, text: str) -> Action:
        """An action from its text (its `str()`); the game's RuleError otherwise."""
        return self._parse(text)

    def bot(self, seed: int | None = None, level: str = DEFAULT_LEVEL) -> Bot:
        """A bot of `level` (one of `LEVELS`; "rule", the rule-following bot, by default),
        deterministic given `seed` and deciding from its seat's view alone; GameError
        "unknown_level" naming any other level."""
        return self._bots[check_level(level)](seed)

    def random_bot(self, seed: int | None = None) -> Bot:
        """A bot choosing uniformly among the legal actions."""
        return self._random_bot(seed)

    def team_of(self, seat: int) -> int | None:
        """The seat's team where seats play in teams (truco: seats 0 and 2 against 1 and 3);
        None where every seat plays for itself (21)."""
        return self._team_of(seat)

    def deal_number(self, state: GameState) -> int:
        """The hand (truco) or round (21) in play, from 1."""
        return self._deal_number(state)

    def banker(self, state: GameState) -> int | None:
        """The seat holding the bank (21); None in a game without one (truco)."""
        return self._banker(state)

    def why(self, state: GameState, lang: str = "pt") -> str | None:
        """Why the last trick went as it did (truco: who took it and why, or how the last hand
        ended; 21: the last call's judgement as narrated); None while there is nothing to
        explain."""
        return self._why(state, check_lang(lang))

    def raise_to_answer(self, state: GameState) -> dict[str, Any] | None:
        """The raise the current seat must answer now (truco: {"name", "value", ...}); None
        when there is none, and always in a game without raises (21)."""
        return self._raise_to_answer(state)

    def view_from_dict(self, data: object) -> SeatView:
        """The seat view of this game that `view.to_dict()` wrote (it travels as plain data:
        `cartas.viewdata`); the game's RuleError naming a missing, extra or ill-typed field."""
        return self._view_from_dict(data)

    def seats_from(self, seat: int, seats: int | None = None) -> list[int]:
        """Every seat of a game of `seats` seats (None: `default_seats`) in play order,
        starting at `seat` and going on with the seat that plays after it: the order a table is
        drawn round from one seat. Seats are numbered in play order in every game (truco's
        `play_order`, docs/rules.md#21-seats); GameError "bad_seat" for a seat not at the table."""
        count = self.check_seats(seats)
        if not _whole(seat) or not 0 <= seat < count:
            raise GameError("bad_seat", game=self.key, value=_shown(seat), high=count - 1)
        return [(seat + k) % count for k in range(count)]


def _truco_spec(key: str) -> GameSpec:
    from . import truco
    from .truco.actions import blind_positions, card_action
    from .truco.rules import HANDS_OPTION, OPTIONS, PLAYER_COUNTS

    def new(seed: int | np.random.Generator | None, seats: int, *, tie_lead: str, hands: int | None) -> GameState:
        return truco.new_game(key, seed, tie_lead=tie_lead, players=seats, hand_limit=hands)

    @lru_cache(maxsize=4096)
    def trick_why(plays: tuple[tuple[int, str | None], ...], variant: str, vira: str | None, lang: str,
                  players: int) -> str:
        # one sentence per trick and language, whatever the moves after it: a class service
        # draws it for every seat's view of every version of a table (issue 35)
        return str(truco.explain_trick(plays, variant, vira, lang, players))

    def why(state: Any, lang: str) -> str | None:
        tricks = [] if state.is_terminal() else state.tricks
        if tricks:
            plays = tuple((seat, None if card is None else str(card)) for seat, card in tricks[-1])
            vira = None if state.vira is None else str(state.vira)
            return trick_why(plays, state.variant.key, vira, lang, state.players)
        said: str | None = state.last_hand_why(lang)   # worked out once per hand and language
        return said

    def answers_for(state: Any, seat: int) -> bool:
        return (state.phase in ("answer", "decide") and state.current_seat is not None
                and truco.team_of(state.current_seat) == truco.team_of(seat))

    def coach_question(view: Any, seed: int) -> dict[str, Any] | None:
        from .coach.truco import decision_question
        return decision_question(view, seed)

    def view_from_dict(data: object) -> SeatView:
        from .truco.views import SeatView as TrucoView
        view = TrucoView.from_dict(data)
        if view.variant.key != key:  # a view of the other truco
            raise truco.TrucoError("view_field", name="variant")
        return view

    variant = truco.get_variant(key)
    title = f"Truco {variant.key.capitalize()}"
    return GameSpec(
        key=key, titles=(title, title), seats=(min(PLAYER_COUNTS), max(PLAYER_COUNTS)),
        seat_counts=PLAYER_COUNTS, default_seats=4, teams=True,
        options=OPTIONS,
        # saves and bots need numpy: their modules load on first use, not with the registry
        _new=new, _load=lambda text: truco.from_json(text), _parse=truco.Action.parse,
        _bots={"easy": lambda seed: truco.EasyBot(seed), "rule": lambda seed: truco.RuleBot(seed=seed),
               "strong": lambda seed: truco.StrongBot(seed)},
        _random_bot=lambda seed: truco.RandomBot(seed),
        # a class table's creator may make it a short game (docs/rules.md#truco-short-game)
        family="truco", hand_play=True, table_options=(HANDS_OPTION,), _team_of=truco.team_of,
        _deal_number=lambda state: int(state.hand_number), _banker=lambda state: None, _why=why,
        _raise_to_answer=lambda state: state.pending_raise if state.phase == "answer" else None,
        _view_from_dict=view_from_dict, _card_action=card_action, _blind_positions=blind_positions,
        _answers_for=answers_for, _most_actions=lambda setup: TRUCO_MOST_ACTIONS,
        _fresh_start=lambda setup: setup.get("score") == [0, 0], _coach_question=coach_question)


def _vinte_e_um_spec(key: str) -> GameSpec:
    from . import vinte_e_um
    from .vinte_e_um import config
    from .vinte_e_um.scoring import ACE_OPTIONS

    def new(seed: int | np.random.Generator | None, seats: int, **options: Any) -> GameState:
        return vinte_e_um.new_game(seats, seed, **options)

    def why(state: Any, lang: str) -> str | None:
        call = next((e for e in reversed(state.events) if e["type"] == "call"), None)
        return None if call is None else str(state.narrate(call, lang))

    # What a class table's creator may set (decided in `classroom.games`): packs 1 or 2, bets
    # and rounds 1..50, None for the engine's default; the engine alone allows more.
    table_options = (
        Option("ace", None, choices=tuple(ACE_OPTIONS), nullable=True),
        Option("decks", None, low=1, high=2, nullable=True),
        Option("min_bet", None, low=1, high=TABLE_MOST, nullable=True),
        Option("max_bet", None, low=1, high=TABLE_MOST, nullable=True),
        Option("rotation", None, choices=config.ROTATIONS, nullable=True),
        Option("rounds", None, low=1, high=TABLE_MOST, nullable=True),
    )

    return GameSpec(
        key=key, titles=("21 (vinte e um)", "21 (vinte-e-um)"),
        seats=(config.MIN_PLAYERS, config.MAX_PLAYERS), default_seats=4, teams=False,
        options=config.OPTIONS,
        _new=new, _load=lambda text: vinte_e_um.from_json(text),
        _parse=vinte_e_um.Action.parse,
        _bots={"easy": lambda seed: vinte_e_um.EasyBot(seed), "rule": lambda seed: vinte_e_um.SensibleBot(seed),
               "strong": lambda seed: vinte_e_um.StrongBot(seed)},
        _random_bot=lambda seed: vinte_e_um.RandomBot(seed),
        family="21", hand_play=False, table_options=table_options, _team_of=lambda seat: None,
        _deal_number=lambda state: int(state.round_number), _banker=lambda state: int(state.banker), _why=why,
        _raise_to_answer=lambda state: None, _view_from_dict=_view_21,
        _seat_out=lambda state, seat: bool(state.seat_is_out(seat)), _most_actions=_most_actions_21,
        _fresh_start=_fresh_21, _coach_question=_coach_question_21)


def _most_actions_21(setup: Mapping[str, Any]) -> int:
    options = setup.get("options")
    options = options if isinstance(options, dict) else {}
    players, rounds = setup.get("players"), options.get("rounds")
    seats = players if isinstance(players, int) and not isinstance(players, bool) and 0 < players <= 12 else 12
    count = rounds if isinstance(rounds, int) and not isinstance(rounds, bool) and 0 < rounds <= TABLE_MOST \
        else TABLE_MOST
    return seats * count * ACTIONS_PER_SEAT_ROUND_21


def _fresh_21(setup: Mapping[str, Any]) -> bool:
    from .vinte_e_um import config
    options = setup.get("options")
    options = options if isinstance(options, dict) else {}
    chips = options.get("chips")
    start = next(o.default for o in config.OPTIONS if o.name == "chips")
    return setup.get("deal") is None and isinstance(chips, list) and all(c == start for c in chips)


def _coach_question_21(view: Any, seed: int) -> dict[str, Any] | None:
    from .coach.vinte_e_um import decision_question
    return decision_question(view)


def _view_21(data: object) -> SeatView:
    from .vinte_e_um.views import SeatView as View21
    return View21.from_dict(data)


_BUILDERS: dict[str, Callable[[str], GameSpec]] = {
    "paulista": _truco_spec, "mineiro": _truco_spec, "21": _vinte_e_um_spec}


@cache
def _spec(key: str) -> GameSpec:
    return _BUILDERS[key](key)


def find_game(key: object) -> GameSpec:
    """The spec of the game called `key` ("paulista", "mineiro" or "21"); GameError
    "unknown_game" naming it otherwise."""
    if not isinstance(key, str) or key not in _BUILDERS:
        raise GameError("unknown_game", value=_shown(key), choices=", ".join(GAME_KEYS))
    return _spec(key)


def check_level(level: object) -> str:
    """`level` itself if it is one of `LEVELS`; GameError "unknown_level" naming it and the
    choices otherwise."""
    if not isinstance(level, str) or level not in LEVELS:
        raise GameError("unknown_level", value=_shown(level), choices=", ".join(LEVELS))
    return level


def level_name(level: str, lang: str = "pt") -> str:
    """The name of a bot level in `lang` ("Fácil", "Easy"...), for a page's level chooser;
    GameError "unknown_level" for a level not in `LEVELS`."""
    return CATALOGUE.say(f"level_{check_level(level)}", check_lang(lang))


def all_games() -> tuple[GameSpec, ...]:
    """Every game's spec, in `GAME_KEYS` order."""
    return tuple(find_game(key) for key in GAME_KEYS)


def families() -> tuple[str, ...]:
    """The games' families (`GameSpec.family`: "truco", "21"), each once, in the order of its
    first game in `GAME_KEYS`."""
    return tuple(dict.fromkeys(spec.family for spec in all_games()))
