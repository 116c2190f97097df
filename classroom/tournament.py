"""A class tournament kept in the store: who plays, its rounds, its tables and results
(docs/rules.md#tournament; the pairing and standing rules are the engine's, `cartas.tournament`).

Decided here:

- A tournament belongs to one class and is opened with the class's teacher key (or, through the
  class service, by a member of the class's hub teachers group): the opener gets a host token,
  which alone enrols, adds and removes learners, starts a round and exports the CSV. A learner
  is named by her verified key; a learner's request never reports a result: a result is read
  from the table's own record in the store, when the table's game is over.
- Who plays: every learner who opened the tournament's page in the last PRESENT_WINDOW seconds
  (five minutes) is enrolled at once (`enrol_present`); the teacher adds or removes one. A
  learner added while a round is being played plays from the next round (a latecomer). In a
  round robin the schedule is made at its first round: nobody joins after it.
- A round is started by the host, once the previous round's games all have a result: of two
  starts of the same round at once, exactly one wins (a compare-and-swap on the tournament's
  round); the other is refused with "round_started". The winner pairs the players (the
  engine's rules), then opens one class table per game, seats the players (a pair at its
  team's seats), leaves the other seats to bots at the tournament's level and deals.
- A learner who leaves her table mid-game is played by a bot once she has been away longer
  than the table's timeout (the tables' rule: `classroom/tables.py`); her game is recorded as
  it ends. A table nobody watches (its learners all gone) is driven by the tournament itself:
  each read of the board (`sync`, which the teacher's and the projector's pages poll) plays its
  bots' moves due, up to `tables.DRIVE_MOVES` per table (`Tables.drive`), tables after
  DRIVE_READ_BUDGET seconds of it waiting for the next read, so the round ends even when every
  learner of a table has left.
- Each game is its table, which keeps the game as a save that replays (`game_save`).
"""
from __future__ import annotations

import csv
import io
import json
import secrets
import time
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from cartas import tournament as rules
from cartas.catalogue import Catalogue
from cartas.tournament import Result, TournamentError

from . import games
from .store import Migrations, Store, Transaction
from .tables import DEFAULT_PACE, DEFAULT_TIMEOUT, TIMEOUT_RANGE, StoreRepository, Tables

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
PRESENT_WINDOW = 300.0
MAX_ROUNDS = 20
MAX_PLAYERS = 200
FORMATS = ("swiss", "round_robin")
PLAYERS = ("single", "pairs")
PARTNERS = ("lot", "chosen")
OF_CLASS_KEPT = 10  # a class's tournaments listed, newest first
DRIVE_READ_BUDGET = 0.5  # seconds of driving tables per read of the board; the rest wait for the next

CATALOGUE = Catalogue("tournament_store", {
    "no_tournament": ("não há torneio com o código {code}", "there is no tournament with the code {code}"),
    "not_host": ("só quem abriu o torneio pode fazer isto", "only the tournament's host can do this"),
    "bad_setup": ("configuração inválida do torneio: {field} = {value}",
                  "invalid tournament setup: {field} = {value}"),
    "round_started": ("a rodada {round} já começou", "round {round} has already started"),
    "round_open": ("a rodada {round} ainda tem partidas em jogo", "round {round} still has games in play"),
    "finished": ("o torneio terminou", "the tournament is over"),
    "no_round": ("o torneio não tem a rodada {round}", "the tournament has no round {round}"),
    "not_player": ("{learner} não está no torneio", "{learner} is not in the tournament"),
    "bad_partners": ("duplas inválidas: {reason}", "invalid pairs: {reason}"),
    "round_robin_closed": ("um rodízio não recebe ninguém depois da primeira rodada",
                           "a round robin takes nobody after its first round"),
    "bad_name": ("o nome precisa ter de 1 a 40 caracteres", "a name needs 1 to 40 characters"),
    # what the pages and the CSV say
    "round": ("Rodada", "Round"),
    "table": ("Mesa", "Table"),
    "result": ("Resultado", "Result"),
    "partner_bot": ("robô", "bot"),
    "and": ("e", "and"),
})


class TournamentRefused(TournamentError):
    """A tournament request the store refuses (a code of this module's `CATALOGUE`)."""

    catalogue = CATALOGUE


def _migrations() -> Migrations:
    return Migrations("tournament", [
        ("CREATE TABLE tournaments (code TEXT PRIMARY KEY, class_code TEXT NOT NULL, "
         "host_hash TEXT NOT NULL, setup TEXT NOT NULL, round INTEGER NOT NULL DEFAULT 0, "
         "status TEXT NOT NULL DEFAULT 'open', schedule TEXT, created_at DOUBLE PRECISION NOT NULL)",
         "CREATE INDEX tournaments_by_class ON tournaments (class_code)",
         "CREATE TABLE tournament_players (code TEXT NOT NULL, learner TEXT NOT NULL, name TEXT NOT NULL, "
         "from_round INTEGER NOT NULL, removed INTEGER NOT NULL DEFAULT 0, unit TEXT, "
         "PRIMARY KEY (code, learner))",
         "CREATE TABLE tournament_seen (code TEXT NOT NULL, learner TEXT NOT NULL, name TEXT NOT NULL, "
         "seen_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, learner))",
         "CREATE TABLE tournament_games (code TEXT NOT NULL, round INTEGER NOT NULL, "
         "table_no INTEGER NOT NULL, units TEXT NOT NULL, seats TEXT NOT NULL, table_code TEXT, "
         "bye INTEGER NOT NULL DEFAULT 0, result TEXT, finished_at DOUBLE PRECISION, "
         "PRIMARY KEY (code, round, table_no))"),
    ])


MIGRATIONS = _migrations()


def _digest(secret: str) -> str:
    import hashlib
    return hashlib.sha256(secret.encode()).hexdigest()


def _lot(seed: int, unit: str) -> float:
    """A unit's draw in the seeding lot: a seeded Generator's number for the seed and the unit."""
    return float(np.random.default_rng([seed, *unit.encode()]).random())


def _choice(value: object, choices: tuple[str, ...], field: str) -> str:
    if not isinstance(value, str) or value not in choices:
        raise TournamentRefused("bad_setup", field=field, value=repr(value)[:40])
    return value


def _number(value: object, low: float, high: float, field: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value <= high:
        raise TournamentRefused("bad_setup", field=field, value=repr(value)[:40])
    return float(value)


def check_setup(setup: object) -> dict[str, Any]:
    """A tournament's setup, checked: {"game", "format" ("swiss" or "round_robin"), "rounds"
    (Swiss and 21: 1..MAX_ROUNDS), "players" ("single" or "pairs", for a game of teams),
    "partners" ("lot" or "chosen"), "table_size" (21: [low, high] within 3..6), "options" (the
    table's: `classroom.games.check_setup`), "level", "timeout", "pace", "seed"}. Anything else,
    or a value out of range, is TournamentRefused "bad_setup" naming it."""
    if not isinstance(setup, dict):
        raise TournamentRefused("bad_setup", field="setup", value=type(setup).__name__)
    known = {"game", "format", "rounds", "players", "partners", "table_size", "options", "level",
             "timeout", "pace", "seed"}
    for key in setup:
        if key not in known:
            raise TournamentRefused("bad_setup", field=str(key)[:40], value=repr(setup[key])[:40])
    game = _choice(setup.get("game"), tuple(games.GAMES), "game")
    teams = games.team_of(game, 0) is not None
    clean: dict[str, Any] = {"game": game, "teams": teams}
    if teams:
        clean["format"] = _choice(setup.get("format", "swiss"), FORMATS, "format")
        clean["players"] = _choice(setup.get("players", "pairs"), PLAYERS, "players")
        clean["partners"] = _choice(setup.get("partners", "lot"), PARTNERS, "partners")
        clean["seats"] = 4 if clean["players"] == "pairs" else 2
    else:
        clean["format"] = _choice(setup.get("format", "swiss"), ("swiss",), "format")
        size = setup.get("table_size", list(rules.TABLE_SIZES))
        if (not isinstance(size, (list, tuple)) or len(size) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in size)
                or not rules.TABLE_SIZES[0] <= size[0] <= size[1] <= rules.TABLE_SIZES[1]):
            raise TournamentRefused("bad_setup", field="table_size", value=repr(size)[:40])
        clean["table_size"] = [int(size[0]), int(size[1])]
        clean["players"] = "single"
    if clean["format"] == "swiss":
        clean["rounds"] = int(_number(setup.get("rounds", 3), 1, MAX_ROUNDS, "rounds"))
        if clean["rounds"] != setup.get("rounds", 3):
            raise TournamentRefused("bad_setup", field="rounds", value=repr(setup.get("rounds"))[:40])
    options = setup.get("options") or {}
    seats = clean.get("seats") or clean["table_size"][1]
    try:
        _, clean["options"] = games.check_setup(game, seats if teams else max(3, seats), options)
    except games.TableError:
        raise TournamentRefused("bad_setup", field="options", value=repr(options)[:40]) from None
    try:
        clean["level"] = games.check_level(setup.get("level", games.DEFAULT_LEVEL))
    except games.TableError:
        raise TournamentRefused("bad_setup", field="level", value=repr(setup.get("level"))[:40]) from None
    clean["timeout"] = _number(setup.get("timeout", DEFAULT_TIMEOUT), *TIMEOUT_RANGE, "timeout")
    clean["pace"] = _number(setup.get("pace", DEFAULT_PACE), 0.0, 10.0, "pace")
    seed = setup.get("seed")
    clean["seed"] = int(_number(seed, 0, 2**31 - 1, "seed")) if seed is not None else secrets.randbelow(2**31)
    return clean


class TournamentService(Protocol):
    """A class tournament as the pages use it (`StoreTournaments` in this process; the class
    service's client under JupyterHub)."""

    def open(self, class_code: str, teacher_key: str, setup: dict) -> dict: ...
    def seen(self, code: str, learner_id: str, name: str) -> None: ...
    def enrol_present(self, code: str, host_token: str) -> list[str]: ...
    def add(self, code: str, host_token: str, learner_id: str, name: str) -> int: ...
    def remove(self, code: str, host_token: str, learner_id: str) -> None: ...
    def set_partners(self, code: str, host_token: str, pairs: list) -> None: ...
    def start_round(self, code: str, host_token: str, number: int) -> dict: ...
    def board(self, code: str) -> dict: ...
    def my_table(self, code: str, learner_id: str, name: str) -> dict: ...
    def export_csv(self, code: str, host_token: str, lang: str = "pt") -> str: ...
    def game_save(self, code: str, number: int, table: int) -> dict: ...
    def of_class(self, class_code: str) -> list[dict]: ...
    def mine(self, learner: Any) -> list[dict]: ...
    def resume(self, class_code: str, teacher_key: str, code: str) -> dict: ...


class StoreTournaments:
    """`TournamentService` on a store (SQLite or PostgreSQL). `clock` (tests) replaces time.time,
    for the tournament and its tables alike."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock
        store.migrate(MIGRATIONS)
        self.tables = Tables(StoreRepository(store), clock=clock)

    # opening ---------------------------------------------------------------------------
    def open(self, class_code: str, teacher_key: str, setup: dict) -> dict:
        """A tournament for the class whose teacher key this is: {"code", "host_token", "class_code",
        "setup"}; classroom.classes.NotAllowed for a wrong key."""
        from .classes import open_class
        opened = open_class(self.store, class_code, teacher_key)
        return self.open_for(opened.code, setup)

    def open_for(self, class_code: str, setup: dict) -> dict:
        """A tournament for `class_code`, whose teacher the caller has checked (`open` with the
        teacher key; the class service with the class's hub teachers group)."""
        clean = check_setup(setup)
        token = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            with self.store.transaction() as tx:
                made = tx.execute("INSERT INTO tournaments (code, class_code, host_hash, setup, created_at) "
                                  "VALUES (?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING",
                                  (code, class_code, _digest(token), json.dumps(clean), self.clock())).rowcount
            if made:
                return {"code": code, "host_token": token, "class_code": class_code, "setup": clean}
        raise TournamentRefused("no_tournament", code="?")  # pragma: no cover - 20 clashes

    def resume(self, class_code: str, teacher_key: str, code: str) -> dict:
        """The class's teacher takes her tournament back (her page was reloaded, or she moved to
        another computer): a new host token, the old one no longer valid; classroom.classes.
        NotAllowed for a wrong key, "no_tournament" for a tournament of another class."""
        from .classes import open_class
        opened = open_class(self.store, class_code, teacher_key)
        return self.resume_for(opened.code, code)

    def resume_for(self, class_code: str, code: str) -> dict:
        """`resume` for a teacher the caller has checked (the class service: the hub group)."""
        token = secrets.token_urlsafe(24)
        with self.store.transaction() as tx:
            found, setup, _, _, _, _ = self._row(tx, code)
            if found != class_code:
                raise TournamentRefused("no_tournament", code=str(code)[:20])
            tx.execute("UPDATE tournaments SET host_hash = ? WHERE code = ?", (_digest(token), code.strip().upper()))
        return {"code": code.strip().upper(), "host_token": token, "class_code": class_code, "setup": setup}

    def of_class(self, class_code: str) -> list[dict]:
        """The class's tournaments, newest first (at most OF_CLASS_KEPT): {"code", "game", "status",
        "round", "created_at"}."""
        with self.store.transaction(write=False) as tx:
            rows = tx.execute("SELECT code, setup, status, round, created_at FROM tournaments WHERE class_code = ? "
                              "ORDER BY created_at DESC, code LIMIT ?", (str(class_code), OF_CLASS_KEPT)).fetchall()
        return [{"code": str(r[0]), "game": json.loads(r[1])["game"], "status": str(r[2]), "round": int(r[3]),
                 "created_at": float(r[4])} for r in rows]

    def mine(self, learner: Any) -> list[dict]:
        """The tournaments of the learner's class (`of_class`); [] for a learner in no class."""
        code = getattr(learner, "class_code", "")
        return self.of_class(str(code)) if code else []

    # who plays -------------------------------------------------------------------------
    def _row(self, tx: Transaction, code: object) -> tuple[str, dict, int, str, str | None, str]:
        if not isinstance(code, str):
            raise TournamentRefused("no_tournament", code=repr(code)[:20])
        row = tx.execute("SELECT class_code, setup, round, status, schedule, host_hash FROM tournaments "
                         "WHERE code = ?", (code.strip().upper(),)).fetchone()
        if row is None:
            raise TournamentRefused("no_tournament", code=code[:20])
        return str(row[0]), json.loads(row[1]), int(row[2]), str(row[3]), row[4], str(row[5])

    def _host(self, tx: Transaction, code: str, host_token: object) -> tuple[str, dict, int, str, str | None]:
        class_code, setup, number, status, schedule, host_hash = self._row(tx, code)
        if not isinstance(host_token, str) or not secrets.compare_digest(host_hash, _digest(host_token)):
            raise TournamentRefused("not_host")
        return class_code, setup, number, status, schedule

    @staticmethod
    def _name(name: object) -> str:
        from .identity import clean_name
        clean = clean_name(name)[:40]
        if not clean:
            raise TournamentRefused("bad_name")
        return clean

    def seen(self, code: str, learner_id: str, name: str) -> None:
        """The learner has the tournament's page open (what `enrol_present` reads)."""
        clean = self._name(name)
        with self.store.transaction() as tx:
            self._row(tx, code)
            tx.execute("INSERT INTO tournament_seen (code, learner, name, seen_at) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (code, learner) DO UPDATE SET seen_at = excluded.seen_at, name = excluded.name",
                       (code, learner_id, clean, self.clock()))

    def _enrol(self, tx: Transaction, code: str, number: int, status: str, schedule: str | None,
               learner_id: str, name: str) -> int:
        if status == "finished":
            raise TournamentRefused("finished")
        if schedule is not None:
            raise TournamentRefused("round_robin_closed")
        start = number + 1  # a round under way is not joined: a latecomer plays from the next
        row = tx.execute("SELECT from_round, removed FROM tournament_players WHERE code = ? AND learner = ?",
                         (code, learner_id)).fetchone()
        if row is None:
            tx.execute("INSERT INTO tournament_players (code, learner, name, from_round) VALUES (?, ?, ?, ?)",
                       (code, learner_id, name, start))
            return start
        if int(row[1]):
            tx.execute("UPDATE tournament_players SET removed = 0, from_round = ? WHERE code = ? AND learner = ?",
                       (start, code, learner_id))
            return start
        return int(row[0])

    def enrol_present(self, code: str, host_token: str) -> list[str]:
        """Enrol every learner seen on the tournament's page in the last PRESENT_WINDOW seconds;
        returns the learners enrolled now (those already in are not repeated)."""
        with self.store.transaction() as tx:
            _, _, number, status, schedule = self._host(tx, code, host_token)
            present = tx.execute("SELECT learner, name FROM tournament_seen WHERE code = ? AND seen_at >= ? "
                                 "ORDER BY seen_at, learner", (code, self.clock() - PRESENT_WINDOW)).fetchall()
            known = {str(r[0]) for r in tx.execute(
                "SELECT learner FROM tournament_players WHERE code = ? AND removed = 0", (code,)).fetchall()}
            added = []
            for learner, name in present:
                if learner not in known:
                    self._enrol(tx, code, number, status, schedule, str(learner), str(name))
                    added.append(str(learner))
            return added

    def add(self, code: str, host_token: str, learner_id: str, name: str) -> int:
        """The teacher adds a learner; returns the round she plays from."""
        clean = self._name(name)
        with self.store.transaction() as tx:
            _, _, number, status, schedule = self._host(tx, code, host_token)
            return self._enrol(tx, code, number, status, schedule, learner_id, clean)

    def remove(self, code: str, host_token: str, learner_id: str) -> None:
        """The teacher removes a learner: she is not paired again (her games stay as they were)."""
        with self.store.transaction() as tx:
            self._host(tx, code, host_token)
            if not tx.execute("UPDATE tournament_players SET removed = 1 WHERE code = ? AND learner = ?",
                              (code, learner_id)).rowcount:
                raise TournamentRefused("not_player", learner=str(learner_id)[:40])

    def set_partners(self, code: str, host_token: str, pairs: list) -> None:
        """The teacher chooses the partners (truco in pairs, partners "chosen"): a list of pairs of
        enrolled learners (a pair of one plays with a bot). Only before a learner's first game."""
        with self.store.transaction() as tx:
            _, setup, _, _, _ = self._host(tx, code, host_token)
            if setup.get("players") != "pairs" or not isinstance(pairs, list):
                raise TournamentRefused("bad_partners", reason="this tournament has no pairs")
            players = {str(r[0]): r[1] for r in tx.execute(
                "SELECT learner, unit FROM tournament_players WHERE code = ? AND removed = 0", (code,)).fetchall()}
            seen: set[str] = set()
            for pair in pairs:
                if (not isinstance(pair, (list, tuple)) or not 1 <= len(pair) <= 2
                        or any(not isinstance(w, str) or w not in players or w in seen for w in pair)):
                    raise TournamentRefused("bad_partners", reason=repr(pair)[:60])
                if any(players[w] is not None for w in pair):
                    raise TournamentRefused("bad_partners", reason=f"{pair!r} already play"[:60])
                seen.update(pair)
            for index, pair in enumerate(pairs):
                unit = f"pair:{'+'.join(pair)}:{index}"
                for learner in pair:
                    tx.execute("UPDATE tournament_players SET unit = ? WHERE code = ? AND learner = ?",
                               (unit, code, learner))

    # rounds ----------------------------------------------------------------------------
    def _results(self, tx: Transaction, code: str) -> list[Result]:
        rows = tx.execute("SELECT round, table_no, units, bye, result FROM tournament_games WHERE code = ? "
                          "ORDER BY round, table_no", (code,)).fetchall()
        out = []
        for number, table, units, bye, result in rows:
            if int(bye):
                out.append(Result(int(number), int(table), tuple(json.loads(units)), bye=True))
            elif result is not None:
                out.append(Result(int(number), int(table), tuple(json.loads(units)),
                                  tuple(float(s) for s in json.loads(result)["scores"])))
        return out

    def _units(self, tx: Transaction, code: str, setup: dict, number: int) -> dict[str, list[tuple[str, str]]]:
        """The units playing round `number` and their learners ({unit: [(learner, name)]}): new
        pairs drawn by lot among enrolled learners without a partner yet (partners "lot")."""
        rows = tx.execute("SELECT learner, name, unit FROM tournament_players WHERE code = ? AND removed = 0 "
                          "AND from_round <= ? ORDER BY from_round, learner", (code, number)).fetchall()
        if setup["players"] == "pairs":
            loose = [str(r[0]) for r in rows if r[2] is None]
            if loose:
                rng = np.random.default_rng([setup["seed"], number])
                for index, pair in enumerate(rules.draw_pairs(loose, rng)):
                    unit = f"pair:{number}:{index}"
                    for learner in pair:
                        tx.execute("UPDATE tournament_players SET unit = ? WHERE code = ? AND learner = ?",
                                   (unit, code, learner))
                rows = tx.execute("SELECT learner, name, unit FROM tournament_players WHERE code = ? AND "
                                  "removed = 0 AND from_round <= ? ORDER BY from_round, learner",
                                  (code, number)).fetchall()
        units: dict[str, list[tuple[str, str]]] = {}
        for learner, name, unit in rows:
            units.setdefault(str(unit or learner), []).append((str(learner), str(name)))
        return units

    def _pair(self, tx: Transaction, code: str, setup: dict, number: int, schedule: str | None,
              units: list[str], results: list[Result]) -> tuple[rules.Pairing, str | None]:
        if setup["format"] == "round_robin":
            if schedule is None:
                order = [units[i] for i in np.random.default_rng(setup["seed"]).permutation(len(units))]
                plan = rules.round_robin(order)
                schedule = json.dumps([[list(t) for t in p.tables] + ([[p.bye]] if p.bye else []) for p in plan])
            plan_rows = json.loads(schedule)
            if number > len(plan_rows):
                raise TournamentRefused("no_round", round=number)
            live = set(units)
            tables, bye = [], None
            for entry in plan_rows[number - 1]:
                playing = [u for u in entry if u in live]
                if len(playing) == 2:
                    tables.append(tuple(playing))
                elif len(playing) == 1:
                    bye = playing[0]
            return rules.Pairing(tuple(tables), bye), schedule
        if setup["teams"]:
            seeded = sorted(units, key=lambda u: _lot(setup["seed"], u))  # the seeding: a lot
            return rules.swiss_round(seeded, results), schedule
        low, high = setup["table_size"]
        return rules.deal_tables(units, results, np.random.default_rng([setup["seed"], number]), low, high), schedule

    def _rounds(self, setup: dict, schedule: str | None) -> int:
        if setup["format"] == "round_robin":
            return len(json.loads(schedule)) if schedule else 0
        return int(setup["rounds"])

    def start_round(self, code: str, host_token: str, number: int) -> dict:
        """Start round `number` (the next one): pair its players and open its tables. Of two
        starts of one round at once exactly one wins; the other is refused "round_started"."""
        if not isinstance(number, int) or isinstance(number, bool):
            raise TournamentRefused("no_round", round=repr(number)[:10])
        with self.store.transaction() as tx:
            class_code, setup, current, status, schedule = self._host(tx, code, host_token)
            if status == "finished":
                raise TournamentRefused("finished")
            if number <= current:
                raise TournamentRefused("round_started", round=number)
            if number != current + 1 or (schedule is not None and number > self._rounds(setup, schedule)) \
                    or (setup["format"] == "swiss" and number > setup["rounds"]):
                raise TournamentRefused("no_round", round=number)
            if tx.execute("SELECT 1 FROM tournament_games WHERE code = ? AND round = ? AND bye = 0 "
                          "AND result IS NULL", (code, current)).fetchone():
                raise TournamentRefused("round_open", round=current)
            players = self._units(tx, code, setup, number)
            if len(players) < (1 if not setup["teams"] else 2):
                raise TournamentError("too_few", low=2, count=len(players))
            results = self._results(tx, code)
            pairing, schedule = self._pair(tx, code, setup, number, schedule, list(players), results)
            won = tx.execute("UPDATE tournaments SET round = ?, status = 'playing', schedule = ? "
                             "WHERE code = ? AND round = ?", (number, schedule, code, current)).rowcount
            if won != 1:
                raise TournamentRefused("round_started", round=number)
            plans = []
            for index, table in enumerate(pairing.tables, start=1):
                seats = self._seats(setup, [players[u] for u in table])
                tx.execute("INSERT INTO tournament_games (code, round, table_no, units, seats) VALUES (?, ?, ?, ?, ?)",
                           (code, number, index, json.dumps(list(table)), json.dumps(seats)))
                plans.append((index, seats))
            if pairing.bye is not None:
                tx.execute("INSERT INTO tournament_games (code, round, table_no, units, seats, bye) "
                           "VALUES (?, ?, 0, ?, '[]', 1)", (code, number, json.dumps([pairing.bye])))
        # the round is this caller's alone now: open its tables (each its own transactions)
        for index, seats in plans:
            table_code = self._open_table(class_code, setup, seats, code, number, index)
            with self.store.transaction() as tx:
                tx.execute("UPDATE tournament_games SET table_code = ? WHERE code = ? AND round = ? AND table_no = ?",
                           (table_code, code, number, index))
        return {"round": number, "tables": len(plans), "bye": pairing.bye}

    @staticmethod
    def _seats(setup: dict, sides: list[list[tuple[str, str]]]) -> list[dict | None]:
        """Who sits where: side k at its team's seats (truco) or at seat k (21); None a bot."""
        game = setup["game"]
        count = setup["seats"] if setup["teams"] else max(3, len(sides))
        seats: list[dict | None] = [None] * count
        for side, learners in enumerate(sides):
            places = ([s for s in range(count) if games.team_of(game, s) == side] if setup["teams"] else [side])
            for place, (learner, name) in zip(places, learners, strict=False):
                seats[place] = {"id": learner, "name": name}
        return seats

    def _open_table(self, class_code: str, setup: dict, seats: list[dict | None], code: str, number: int,
                    index: int) -> str:
        first = next(s for s, who in enumerate(seats) if who)
        creator = seats[first]
        assert creator is not None
        seed = int(np.random.default_rng([setup["seed"], number, index]).integers(2**31))
        table = self.tables.create(setup["game"], creator["id"], creator["name"], seats=len(seats),
                                   options=setup["options"], class_code=class_code, seat=first,
                                   timeout=setup["timeout"], pace=setup["pace"], seed=seed, level=setup["level"])
        for seat, who in enumerate(seats):
            if who and seat != first:
                self.tables.join(table, who["id"], who["name"], seat)
        self.tables.start(table, creator["id"])
        return table

    # results ---------------------------------------------------------------------------
    def sync(self, code: str) -> int:
        """Drive every table of the round still in play that nobody watches (`Tables.drive`: its
        bots' moves due, a learner away past the timeout played by a bot; bounded work per
        table and read), then record the result of every game of the round whose table's game is
        over (read from the table's record in the store, once: the update names a game without
        a result); returns how many were recorded now. The tournament is finished when its last
        round's games all have one."""
        with self.store.transaction(write=False) as tx:
            _, setup, number, status, schedule, _ = self._row(tx, code)
            rows = tx.execute("SELECT table_no, table_code FROM tournament_games WHERE code = ? AND round = ? "
                              "AND bye = 0 AND result IS NULL AND table_code IS NOT NULL",
                              (code, number)).fetchall()
        recorded = 0
        started = time.perf_counter()
        for table_no, table_code in rows:
            snap = self.tables.snapshot(str(table_code))
            if snap.status == "playing" and time.perf_counter() - started < DRIVE_READ_BUDGET:
                snap = self.tables.drive(snap) or snap
            if snap.status != "finished":
                continue
            outcome = snap.record["outcome"]
            units = len(json.loads(self._units_of(code, number, int(table_no))))
            scores = [outcome["scores"][side] for side in range(units)]
            with self.store.transaction() as tx:
                recorded += tx.execute(
                    "UPDATE tournament_games SET result = ?, finished_at = ? WHERE code = ? AND round = ? "
                    "AND table_no = ? AND result IS NULL",
                    (json.dumps({"scores": scores, "outcome": outcome}), self.clock(), code, number,
                     int(table_no))).rowcount
        if status == "playing" and number == self._rounds(setup, schedule):
            with self.store.transaction() as tx:
                if not tx.execute("SELECT 1 FROM tournament_games WHERE code = ? AND round = ? AND bye = 0 "
                                  "AND result IS NULL", (code, number)).fetchone():
                    tx.execute("UPDATE tournaments SET status = 'finished' WHERE code = ?", (code,))
        return recorded

    def _units_of(self, code: str, number: int, table: int) -> str:
        with self.store.transaction(write=False) as tx:
            row = tx.execute("SELECT units FROM tournament_games WHERE code = ? AND round = ? AND table_no = ?",
                             (code, number, table)).fetchone()
        return str(row[0])

    # reading ---------------------------------------------------------------------------
    def board(self, code: str) -> dict:
        """What the projector shows (after recording any result due): {"code", "setup", "round",
        "rounds", "status", "players" [{id, name, unit, from_round}], "units" {unit: name},
        "games" [{round, table, units, names, table_code, seats, bye, scores, live}], "standings"
        [{rank, unit, name, points, buchholz, head_to_head, difference, games}], "podium"}."""
        self.sync(code)
        with self.store.transaction(write=False) as tx:
            class_code, setup, number, status, schedule, _ = self._row(tx, code)
            players = tx.execute("SELECT learner, name, unit, from_round, removed FROM tournament_players "
                                 "WHERE code = ? ORDER BY from_round, learner", (code,)).fetchall()
            rows = tx.execute("SELECT round, table_no, units, seats, table_code, bye, result FROM tournament_games "
                              "WHERE code = ? ORDER BY round, table_no", (code,)).fetchall()
            results = self._results(tx, code)
        names: dict[str, list[str]] = {}
        for learner, name, unit, _, _ in players:
            names.setdefault(str(unit or learner), []).append(str(name))
        unit_names = {u: " & ".join(n) for u, n in names.items()}
        played = [g for g in rows]
        units_in = list(dict.fromkeys([u for g in played for u in json.loads(g[2])]
                                      + [str(p[2] or p[0]) for p in players if not int(p[4])]))
        table = rules.standings(units_in, results)
        out_games = []
        for rnd, table_no, units, seats, table_code, bye, result in played:
            entry: dict[str, Any] = {"round": int(rnd), "table": int(table_no), "units": json.loads(units),
                                     "names": [unit_names.get(u, u) for u in json.loads(units)],
                                     "table_code": table_code, "seats": json.loads(seats), "bye": bool(bye),
                                     "scores": json.loads(result)["scores"] if result else None, "live": None}
            if table_code and int(rnd) == number and not result:
                entry["live"] = self._live(str(table_code))
            out_games.append(entry)
        standing = [{"rank": s.rank, "unit": s.unit, "name": unit_names.get(s.unit, s.unit), "points": s.points,
                     "buchholz": s.buchholz, "head_to_head": s.head_to_head, "difference": s.difference,
                     "games": s.games} for s in table]
        return {"code": code, "class_code": class_code, "setup": setup, "round": number,
                "rounds": self._rounds(setup, schedule) if setup["format"] == "round_robin" and schedule
                else setup.get("rounds", 0), "status": status,
                "players": [{"id": p[0], "name": p[1], "unit": p[2] or p[0], "from_round": int(p[3]),
                             "removed": bool(p[4])} for p in players],
                "units": unit_names, "games": out_games, "standings": standing,
                "podium": standing[:3] if status == "finished" else []}

    def _live(self, table_code: str) -> dict:
        """A table's state for all to see: its status, the hand (truco) or round (21) and the score."""
        snap = self.tables.snapshot(table_code)
        state = snap.state
        if state is None:
            return {"status": snap.status, "hand": 0, "scores": []}
        return {"status": snap.status, "hand": games.hand_number(state), "scores": list(games.outcome(state).scores)}

    def my_table(self, code: str, learner_id: str, name: str) -> dict:
        """The learner's page: she is seen (for enrolment), and told her table of the current
        round (results are recorded by `board`, which the teacher's and the projector's pages
        poll): {"round", "status", "enrolled", "from_round", "table", "table_code", "seat", "bye",
        "done"}."""
        self.seen(code, learner_id, name)
        with self.store.transaction(write=False) as tx:
            _, setup, number, status, _, _ = self._row(tx, code)
            row = tx.execute("SELECT from_round, removed, unit FROM tournament_players WHERE code = ? AND learner = ?",
                             (code, learner_id)).fetchone()
            games_now = tx.execute("SELECT table_no, units, seats, table_code, bye, result FROM tournament_games "
                                   "WHERE code = ? AND round = ?", (code, number)).fetchall()
        out: dict[str, Any] = {"round": number, "status": status, "enrolled": bool(row and not int(row[1])),
                               "from_round": int(row[0]) if row else None, "table": None, "table_code": None,
                               "seat": None, "bye": False, "done": False}
        for table_no, _units, seats, table_code, bye, result in games_now:
            unit = (row[2] or learner_id) if row else learner_id
            if int(bye) and json.loads(_units) == [unit]:
                out["bye"] = True
            for seat, who in enumerate(json.loads(seats)):
                if who and who["id"] == learner_id:
                    out.update(table=int(table_no), table_code=table_code, seat=seat, done=result is not None)
        return out

    def game_save(self, code: str, number: int, table: int) -> dict:
        """A game of the tournament as its table keeps it: {"game", "state"}: the state is a save
        that replays (docs/rules.md#saved-game-replays)."""
        with self.store.transaction(write=False) as tx:
            self._row(tx, code)
            row = tx.execute("SELECT table_code FROM tournament_games WHERE code = ? AND round = ? AND table_no = ?",
                             (code, number, table)).fetchone()
        if row is None or row[0] is None:
            raise TournamentRefused("no_round", round=number)
        snap = self.tables.snapshot(str(row[0]))
        return {"game": snap.game, "state": snap.record["state"], "table_code": snap.code}

    def export_csv(self, code: str, host_token: str, lang: str = "pt") -> str:
        """The standings, then every game, as CSV (headers in `lang`)."""
        with self.store.transaction(write=False) as tx:
            self._host(tx, code, host_token)
        board = self.board(code)
        say = rules.CATALOGUE.say
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([say(k, lang) for k in ("rank", "unit", "points", "buchholz", "head_to_head",
                                                 "difference", "games")])
        for s in board["standings"]:
            writer.writerow([s["rank"], s["name"], s["points"], s["buchholz"], s["head_to_head"],
                             s["difference"], s["games"]])
        writer.writerow([])
        writer.writerow([CATALOGUE.say("round", lang), CATALOGUE.say("table", lang), say("unit", lang),
                         CATALOGUE.say("result", lang), "mesa"])
        for g in board["games"]:
            result = say("bye", lang) if g["bye"] else (" - ".join(f"{v:g}" for v in g["scores"])
                                                        if g["scores"] else "")
            writer.writerow([g["round"], g["table"], " / ".join(g["names"]), result, g["table_code"] or ""])
        return out.getvalue()
