"""A class tournament's rules: pairings, tables and standings (docs/rules.md#tournament).

Pure functions of their arguments (and of a seeded `numpy.random.Generator` where a lot is
drawn); nothing here knows a game's name, a store or a page. What plays is a *unit*: a learner
(one against one, or a seat of 21) or a pair of partners (truco in pairs), named by a string.

- `swiss_round`: Swiss pairing by score, no rematch while one can be avoided, a bye for an
  odd count going to the lowest-placed unit that has not had one (docs/rules.md#tournament-swiss).
- `round_robin`: every pair of units once, by the circle method
  (docs/rules.md#tournament-round-robin).
- `draw_pairs`: partners drawn by lot (docs/rules.md#tournament-pairs).
- `deal_tables`: units at tables of 3 to 6 for games of many seats (21:
  docs/rules.md#tournament-tables).
- `standings`: points, then Buchholz, then the head-to-head, then the score difference
  (docs/rules.md#tournament-standings).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .catalogue import Catalogue
from .errors import RuleError

CATALOGUE = Catalogue("tournament", {
    "too_few": ("um torneio precisa de pelo menos {low} participantes, não {count}",
                "a tournament needs at least {low} players, not {count}"),
    "duplicate": ("{unit} aparece duas vezes no torneio", "{unit} appears twice in the tournament"),
    "bad_table_size": ("as mesas têm de {low} a {high} assentos, não {value}",
                       "tables have {low} to {high} places, not {value}"),
    "bad_result": ("resultado inválido: {reason}", "invalid result: {reason}"),
    # standings' words (a page's header and the CSV's)
    "rank": ("Posição", "Place"),
    "unit": ("Participante", "Player"),
    "points": ("Pontos", "Points"),
    "buchholz": ("Buchholz", "Buchholz"),
    "head_to_head": ("Confronto direto", "Head-to-head"),
    "difference": ("Saldo", "Difference"),
    "games": ("Partidas", "Games"),
    "bye": ("folga", "bye"),
    "tie_breaks": ("Desempate: pontos, depois Buchholz (soma dos pontos dos adversários), depois o "
                   "confronto direto entre os empatados, depois o saldo.",
                   "Tie-breaks: points, then Buchholz (the sum of the opponents' points), then the "
                   "head-to-head among those tied, then the score difference."),
})

BYE_POINTS = 1.0
TABLE_SIZES = (3, 6)
SEARCH_LIMIT = 200_000   # pairing attempts before the Swiss pairer allows rematches


class TournamentError(RuleError):
    """A tournament request the rules refuse (a code of `CATALOGUE` and its fields)."""

    catalogue = CATALOGUE


@dataclass(frozen=True)
class Result:
    """One finished game of a round: the units at its table and each one's final score (a
    team's points in truco, a seat's chips in 21), in the same order. A bye is a Result with
    one unit, no score and `bye=True`."""

    round: int
    table: int
    units: tuple[str, ...]
    scores: tuple[float, ...] = ()
    bye: bool = False

    def __post_init__(self) -> None:
        if self.bye:
            if len(self.units) != 1 or self.scores:
                raise TournamentError("bad_result", reason="a bye has one player and no score")
        elif len(self.units) < 2 or len(self.scores) != len(self.units):
            raise TournamentError("bad_result", reason="a game has two or more players, one score each")
        if len(set(self.units)) != len(self.units):
            raise TournamentError("duplicate", unit=next(u for u in self.units if self.units.count(u) > 1))


@dataclass(frozen=True)
class Pairing:
    """One round's tables: each a tuple of units (two for a pairing), and the unit with the
    bye (None when nobody has one)."""

    tables: tuple[tuple[str, ...], ...]
    bye: str | None = None


@dataclass(frozen=True)
class Standing:
    unit: str
    rank: int            # shared by units equal on every tie-break
    points: float
    buchholz: float
    head_to_head: float
    difference: float
    games: int


def _check_units(units: Sequence[str], low: int) -> list[str]:
    clean = list(units)
    seen: set[str] = set()
    for unit in clean:
        if unit in seen:
            raise TournamentError("duplicate", unit=unit)
        seen.add(unit)
    if len(clean) < low:
        raise TournamentError("too_few", low=low, count=len(clean))
    return clean


def met(results: Iterable[Result]) -> set[frozenset[str]]:
    """Every pair of units that have sat at one table."""
    pairs: set[frozenset[str]] = set()
    for result in results:
        for i, a in enumerate(result.units):
            for b in result.units[i + 1:]:
                pairs.add(frozenset((a, b)))
    return pairs


def _pair_up(order: list[str], played: set[frozenset[str]], rematch: bool,
             budget: list[int]) -> list[tuple[str, str]] | None:
    """Pair `order` top down (each with the nearest below it it has not met), backtracking;
    None when no pairing avoids a rematch (or the search budget is spent)."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for index, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if not rematch and frozenset((first, other)) in played:
            continue
        tail = _pair_up(rest[:index] + rest[index + 1:], played, rematch, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def swiss_round(units: Sequence[str], results: Sequence[Result]) -> Pairing:
    """The next Swiss round (docs/rules.md#tournament-swiss): units ordered by the standings so
    far (their order in `units`, the seeding, among equals), each paired with the highest-placed
    unit below it that it has not met, backtracking so that nobody meets an opponent twice while
    any pairing avoids it; only when none does are rematches allowed. For an odd count the bye
    goes to the lowest-placed unit that has not had one (all have had one: the lowest-placed),
    chosen so that the others can still be paired without a rematch when possible."""
    clean = _check_units(units, 2)
    table = standings(clean, results)
    order = [s.unit for s in table]
    played = met(results)
    had_bye = {r.units[0] for r in results if r.bye}
    candidates: list[str | None] = [None]
    if len(order) % 2:
        fresh = [u for u in reversed(order) if u not in had_bye]
        candidates = list(fresh or reversed(order))
    for rematch in (False, True):
        budget = [SEARCH_LIMIT]
        for bye in candidates:
            rest = [u for u in order if u != bye]
            pairs = _pair_up(rest, played, rematch, budget)
            if pairs is not None:
                return Pairing(tuple(pairs), bye)
    raise AssertionError("a pairing with rematches always exists")  # pragma: no cover


def round_robin(units: Sequence[str]) -> list[Pairing]:
    """Every round of a round robin by the circle method (docs/rules.md#tournament-round-robin):
    with n units (one more, a bye, when n is odd) there are n - 1 rounds; the first unit stays
    put and the others turn one place each round, so every pair meets exactly once and each
    unit has at most one bye."""
    clean: list[str | None] = list(_check_units(units, 2))
    if len(clean) % 2:
        clean.append(None)
    count = len(clean)
    rounds: list[Pairing] = []
    ring = clean[1:]
    for _ in range(count - 1):
        line = [clean[0], *ring]
        tables: list[tuple[str, ...]] = []
        bye: str | None = None
        for i in range(count // 2):
            a, b = line[i], line[count - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
            else:
                tables.append((a, b))
        rounds.append(Pairing(tuple(tables), bye))
        ring = [ring[-1], *ring[:-1]]
    return rounds


def draw_pairs(learners: Sequence[str], rng: np.random.Generator) -> list[tuple[str, ...]]:
    """Partners drawn by lot (docs/rules.md#tournament-pairs): the learners shuffled by `rng`
    and taken two by two; for an odd count the last one drawn plays with a bot partner (a pair
    of one)."""
    clean = _check_units(learners, 1)
    order = [clean[i] for i in rng.permutation(len(clean))]
    return [tuple(order[i:i + 2]) for i in range(0, len(order), 2)]


def table_sizes(count: int, low: int = TABLE_SIZES[0], high: int = TABLE_SIZES[1]) -> list[int]:
    """How `count` units sit at tables of `low` to `high` places: as few tables as hold them,
    as even as can be (larger first); fewer than `low` units sit at one table, its other places
    played by bots."""
    if not (isinstance(low, int) and isinstance(high, int) and 2 <= low <= high):
        raise TournamentError("bad_table_size", low=TABLE_SIZES[0], high=TABLE_SIZES[1], value=f"{low}..{high}")
    if count <= 0:
        return []
    tables = max(1, -(-count // high))
    while tables > 1 and count // tables < low:
        tables -= 1
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def deal_tables(units: Sequence[str], results: Sequence[Result], rng: np.random.Generator,
                low: int = TABLE_SIZES[0], high: int = TABLE_SIZES[1]) -> Pairing:
    """A round at tables of `low` to `high` places (docs/rules.md#tournament-tables): the
    first round by lot (`rng`), later ones by the standings, the best placed together (Swiss
    by groups), the sizes from `table_sizes`. Nobody has a bye."""
    clean = _check_units(units, 1)
    if results:
        order = [s.unit for s in standings(clean, results)]
    else:
        order = [clean[i] for i in rng.permutation(len(clean))]
    tables: list[tuple[str, ...]] = []
    start = 0
    for size in table_sizes(len(order), low, high):
        tables.append(tuple(order[start:start + size]))
        start += size
    return Pairing(tuple(tables))


def _versus(result: Result, unit: str) -> dict[str, float]:
    """What `unit` scored against each other unit of its game: 1 beating it, 0.5 level, 0."""
    mine = result.scores[result.units.index(unit)]
    return {other: 1.0 if mine > score else 0.5 if mine == score else 0.0
            for other, score in zip(result.units, result.scores, strict=True) if other != unit}


def game_points(result: Result, unit: str) -> float:
    """A unit's points from one game (docs/rules.md#tournament-standings): a bye 1; a game the
    mean of its scores against each other unit at the table (so a win of two sides is 1, a
    level game 0.5, a loss 0)."""
    if result.bye:
        return BYE_POINTS
    versus = _versus(result, unit)
    return sum(versus.values()) / len(versus)


def standings(units: Sequence[str], results: Sequence[Result]) -> list[Standing]:
    """The standings (docs/rules.md#tournament-standings), best first, in this order:
    points; then Buchholz, the sum of the points of every opponent met (a bye adds none); then
    the head-to-head, the points scored against the units still level on both in games among
    them; then the score difference, a unit's final score less the mean of its opponents', over
    its games; units equal on all four share a place (listed in their order in `units`)."""
    clean = list(units)
    index = {u: i for i, u in enumerate(clean)}
    points = dict.fromkeys(clean, 0.0)
    difference = dict.fromkeys(clean, 0.0)
    games = dict.fromkeys(clean, 0)
    for result in results:
        for unit in result.units:
            if unit not in points:
                continue
            points[unit] += game_points(result, unit)
            games[unit] += 1
            if not result.bye:
                mine = result.scores[result.units.index(unit)]
                others = [s for u, s in zip(result.units, result.scores, strict=True) if u != unit]
                difference[unit] += mine - sum(others) / len(others)
    buchholz = dict.fromkeys(clean, 0.0)
    for result in results:
        if result.bye:
            continue
        for unit in result.units:
            if unit in buchholz:
                buchholz[unit] += sum(points.get(o, 0.0) for o in result.units if o != unit)

    def head_to_head(unit: str, group: set[str]) -> float:
        total = 0.0
        for result in results:
            if result.bye or unit not in result.units:
                continue
            total += sum(v for o, v in _versus(result, unit).items() if o in group)
        return total

    groups: dict[tuple[float, float], set[str]] = {}
    for unit in clean:
        groups.setdefault((points[unit], buchholz[unit]), set()).add(unit)
    h2h = {u: head_to_head(u, groups[(points[u], buchholz[u])] - {u}) for u in clean}

    def key(unit: str) -> tuple[float, float, float, float]:
        return (-points[unit], -buchholz[unit], -h2h[unit], -round(difference[unit], 9))

    ordered = sorted(clean, key=lambda u: (key(u), index[u]))
    table: list[Standing] = []
    for place, unit in enumerate(ordered, start=1):
        rank = table[-1].rank if table and key(table[-1].unit) == key(unit) else place
        table.append(Standing(unit, rank, points[unit], buchholz[unit], h2h[unit],
                              round(difference[unit], 9), games[unit]))
    return table


def scores_by_unit(results: Iterable[Result]) -> Mapping[str, float]:
    """Each unit's points so far (the standings' first column)."""
    total: dict[str, float] = {}
    for result in results:
        for unit in result.units:
            total[unit] = total.get(unit, 0.0) + game_points(result, unit)
    return total
