"""Homework (tarefas): assignments a teacher gives her class, and each learner's results.

Decided rules (docs/rules.md#homework):
- An assignment belongs to one class and has a title (1 to MAX_TITLE characters, kept whole: a
  longer one is refused, never cut; the field says the limit), a due date
  (a day, `YYYY-MM-DD`; an item finished after the end of that day, local time, is late), a
  pass mark (a percentage, 0 to 100, of its items done right) and 1 to MAX_ITEMS items. It
  is stored whole when created and never edited.
- An item is one of:
  - `lesson`: a lesson with exercises and `need` (1 to MAX_NEED) right answers in it, counted
    from the learner's answers recorded since the assignment was made. Done and right once
    she has them; her asked/right counts are shown;
  - `scenario`: a position from the scenario builder (a scenario link, cartas.scenario) and
    the question the position asks ("what would you play here?", "accept, run or raise?",
    "hit or stand?", "draw or call?"). The answer key and the coach's reason, in both
    languages, are taken from the coach (cartas.coach) when the assignment is made and
    stored with it, with each option's figure (`values`: the chance of taking the hand for a
    card, of winning the bet for hit or stand; average points or chips for the other answers;
    `figure` names which) and the options the coach counts as good as its advice
    (`accepted`, docs/rules.md#homework-near-best). Only her first answer counts; the store
    judges it: right when it is one of `accepted` (an item stored before these fields: when
    it is the key). The key, reason, figures and accepted options are hidden from her until
    she has answered (`KEY_FIELDS`);
  - `game`: a whole game of truco or 21 (its family, `cartas.games.GameSpec.family`),
    against the bots or at a table with classmates, and its `goal`: "play" (to the end, the
    default, and what an item stored without a goal reads as) or "win". Done when her game
    ends; right, for a "play" item, whether she won or lost, and for a "win" item only when
    her team or she wins (her side among the contract's `outcome().winners`, a shared top of
    21 included). Either way the result ("won" / "lost") and the final score (her side's
    first, `score`) are kept for the teacher. What counts (docs/rules.md#homework-games):
    - a game of the item's family, and of its `variant` (a registry key: "paulista",
      "mineiro", "21") when the teacher named one; without one, any variant of the family.
      A game's options (21's seats, role, rotation) are the learner's to choose;
    - against the bots, only a game the store deals and plays counts, under JupyterHub (the
      class service) and on a laptop alike (issue 33): a homework table (`classroom.tables`: a
      private table, her seat hers alone and never a bot's, the bots in the others) made for
      her and that item (`bot_table`: `bot_item`, `bot_game_key`, `bot_table_class`) in this
      store's tables, dealt from the seed the tables draw, the bots moved by the tables' code,
      her page sending only her moves (a move at another seat is the tables' "not your turn").
      When the game is over for her seat, the table's own record decides (`bot_table_over`).
      Nothing a kernel or a page sends is ever taken as a game: there is no way to hand in a
      finished game (under the hub, the old `POST api/homework/ID/game` is refused
      "service_deals");
    - so no game begun from a scenario (a position made by hand, possibly a won one) counts: an
      item with `scenarios` is refused when the teacher makes it ("scenario_games"), and one
      stored with `scenarios: True` before is played as any other, from the store's deal;
    - at a table (`table_game_over`): the store's own table record decides: its game is
      finished, its state (replayed) says who won, and the learners seated when it ended
      (`sitters`) are the ones whose item is done, each in her own class's assignments made
      before the game ended. Every open table item of that game, in every such assignment,
      is done by it.
    The first finished game counts (one row per item and learner, as every result), so a
    reload or a second "game over" drawing writes nothing more.
- A learner's results are one row per (assignment, item, learner), written with `ON CONFLICT
  DO NOTHING`, so two kernels finishing the same item at once count it once.
- A learner sees and answers only her class's assignments (her class is the store's, never
  what a browser says). Everything goes through `HomeworkService` (`StoreHomework` over this
  store) with plain values in and out, so a class service can answer instead.
- The tables are this store's migration 5 (the `homework` component, applied with the
  progress tables by classroom.progress.open_store).
"""
from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from datetime import date, datetime, time as day_time
from typing import TYPE_CHECKING, Any, Protocol

from cartas.games import families

from .identity import CODE_ALPHABET, clean_name
from .mastery import SKILLS
from .store import Migrations

if TYPE_CHECKING:  # the store and the tables are passed in; only their types are named here
    from .store import Store
    from .tables import Snapshot, Tables

MAX_TITLE = 80
MAX_ITEMS = 20
MAX_NEED = 50
ID_LENGTH = 8
LESSON_KEYS = tuple(dict.fromkeys(skill.lesson for skill in SKILLS))
GAMES = families()  # a game item names a family of the registry
PLACES = ("bots", "table")
GOALS = ("play", "win")  # a game item asks to play it to the end (the default), or to win it
QUESTIONS = ("play", "answer", "hit", "banker")
MAX_STEPS = 60
BOT_TABLE = "tarefa"      # the class key of a homework table begins so (`bot_table_class`)

# Migration 5 of the store (issue 23): assignments, results, and the skill of every answer.
STEP_5 = (
    "CREATE TABLE assignments (id TEXT PRIMARY KEY, class_code TEXT NOT NULL, title TEXT NOT NULL, "
    "due TEXT NOT NULL, due_at DOUBLE PRECISION NOT NULL, pass_mark INTEGER NOT NULL, "
    "items TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX assignments_by_class ON assignments (class_code, created_at)",
    "CREATE TABLE homework_results (assignment_id TEXT NOT NULL, item INTEGER NOT NULL, "
    "learner_id TEXT NOT NULL, correct INTEGER NOT NULL, choice TEXT NOT NULL, "
    "done_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (assignment_id, item, learner_id))",
    "ALTER TABLE answers ADD COLUMN skill TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX answers_by_skill ON answers (learner_id, skill, at)",
)
MIGRATIONS = Migrations("homework", [
    STEP_5,
    # 2: a finished game's final score beside its result (her side's first, "12-9"; "" for others)
    "ALTER TABLE homework_results ADD COLUMN score TEXT NOT NULL DEFAULT ''",
])


class HomeworkError(ValueError):
    """A refusal the teacher or learner reads: `code` names it (widgets.components.homework
    holds its sentences in Portuguese and English), `fields` fill them in."""

    def __init__(self, code: str, /, **fields):
        super().__init__(code, fields)
        self.code = code
        self.fields = fields


# Checking what a teacher composes -----------------------------------------------------------
def _int(value, low: int, high: int, code: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HomeworkError(code, low=low, high=high)
    return value


def end_of_day(due: str) -> float:
    """The last moment of the day `due` (YYYY-MM-DD), local time; HomeworkError otherwise."""
    try:
        day = date.fromisoformat(due) if isinstance(due, str) and len(due) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise HomeworkError("bad_due", due=str(due)[:20])
    return datetime.combine(day, day_time(23, 59, 59)).timestamp()


# What a scenario item keeps from its learner until she has answered it.
KEY_FIELDS = ("answer", "reason", "values", "accepted", "figure")


def scenario_question(link: str, seed: int = 0) -> dict:
    """The question a scenario link asks and the coach's answer: {"question", "options",
    "answer", "reason": {"pt", "en"}, "link"}. The position is played on by seeded bots
    until a seat decides what the coach advises on (a card, an answer to a raise, hit or
    stand, draw or call), at most MAX_STEPS moves. HomeworkError("bad_scenario") for a link
    the scenario builder refuses, ("no_question") when no such decision comes."""
    from cartas import scenario as scenarios
    from cartas.errors import RuleError
    try:
        made = scenarios.decode_link(link)
        state = scenarios.build(made)
    except RuleError as error:
        raise HomeworkError("bad_scenario", why={"pt": error.message("pt"), "en": error.message("en")}) from None
    bot = scenarios.bot(made, seed)
    for _ in range(MAX_STEPS):
        if state.is_terminal() or state.current_seat is None:
            break
        view = state.view(state.current_seat)
        asked = scenarios.game_of(made).coach_question(view, seed)
        if asked is not None:
            return {**asked, "link": link}
        state.apply_action(bot.choose(view))
    raise HomeworkError("no_question")


def check_item(item) -> dict:
    """An item as stored (see the module's rules); HomeworkError naming what is wrong."""
    if not isinstance(item, dict):
        raise HomeworkError("bad_item")
    kind = item.get("kind")
    if kind == "lesson":
        if item.get("lesson") not in LESSON_KEYS:
            raise HomeworkError("bad_lesson", lesson=str(item.get("lesson"))[:40])
        return {"kind": "lesson", "lesson": item["lesson"],
                "need": _int(item.get("need"), 1, MAX_NEED, "bad_need")}
    if kind == "scenario":
        link = item.get("link")
        if not isinstance(link, str) or not link.strip():
            raise HomeworkError("bad_scenario", why={"pt": "link vazio", "en": "empty link"})
        link = link.strip()
        if "cenario=" in link:  # a whole scenario link pasted: keep its parameter
            link = link.split("cenario=", 1)[1].split("&", 1)[0]
        return {"kind": "scenario", **scenario_question(link)}  # the key is always the coach's
    if kind == "game":
        if item.get("game") not in GAMES:
            raise HomeworkError("bad_game", game=str(item.get("game"))[:20])
        if item.get("where", "bots") not in PLACES:
            raise HomeworkError("bad_game", game=str(item.get("where"))[:20])
        goal = item.get("goal", "play")
        if goal not in GOALS:
            raise HomeworkError("bad_game", game=str(goal)[:20])
        checked = {"kind": "game", "game": item["game"], "where": item.get("where", "bots"), "goal": goal}
        variant = item.get("variant")
        if variant is not None:  # one variant of the family only (docs/rules.md#homework-games)
            if variant not in variants_of(item["game"]):
                raise HomeworkError("bad_game", game=str(variant)[:20])
            checked["variant"] = variant
        if item.get("scenarios", False) is not False:  # no hand-made position counts (the rules)
            raise HomeworkError("scenario_games")
        return checked
    raise HomeworkError("bad_item")


def variants_of(family: str) -> tuple[str, ...]:
    """The registry's keys of the games of `family` (cartas.games: "truco" has "paulista" and
    "mineiro", "21" has "21")."""
    from cartas.games import all_games
    return tuple(spec.key for spec in all_games() if spec.family == family)


def game_result(state, seat: int) -> str | None:
    """"won" or "lost" once the game is over for `seat`, None while it goes on (the contract:
    `is_terminal`, `outcome().winners`, the spec's `team_of`; docs/rules.md#homework-games).
    She wins when her seat, or her team, is among the winners (a shared top of 21 too); a 21
    seat out of the game before its end has lost."""
    from cartas.games import find_game
    spec = find_game(state.game)
    if state.is_terminal():
        side = spec.team_of(seat)
        return "won" if (seat if side is None else side) in state.outcome().winners else "lost"
    if spec.seat_out(state, seat):
        return "lost"
    return None


def final_score(state, seat: int) -> str:
    """The game's final score as the teacher reads it, `seat`'s side first: "12-9" (truco, per
    team), "0-55-45" (21, each seat's chips)."""
    from cartas.games import find_game
    side = find_game(state.game).team_of(seat)
    side = seat if side is None else side
    scores = list(state.outcome().scores)
    if not 0 <= side < len(scores):
        return "-".join(str(s) for s in scores)
    return "-".join(str(s) for s in [scores[side], *scores[:side], *scores[side + 1:]])


def goal_met(spec: dict, result: str) -> bool:
    """Whether a game that ended with `result` ("won" / "lost") does what game item `spec`
    asks: any finished game for "play" (the default, and an item stored before goals), a won
    one for "win" (docs/rules.md#homework-games)."""
    return result == "won" or spec.get("goal", "play") == "play"


def _counts(spec: dict, game_key: str) -> str | None:
    """Why a game of `game_key` does not count for the game item `spec` (a HomeworkError
    code), or None when it counts (docs/rules.md#homework-games)."""
    from cartas.games import find_game
    if find_game(game_key).family != spec["game"]:
        return "other_game"
    if spec.get("variant") not in (None, game_key):
        return "other_variant"
    return None


def _write_result(tx, assignment_id: str, item: int, learner_id: str, correct: bool, choice: str,
                  now: float, score: str = "") -> tuple[bool, bool, str, str]:
    """One result row, first write wins: (written now, the kept result's correct, choice and score)."""
    first = tx.execute("INSERT INTO homework_results (assignment_id, item, learner_id, correct, choice, "
                       "done_at, score) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (assignment_id, item, learner_id) "
                       "DO NOTHING", (assignment_id, item, learner_id, int(correct), choice, now, score)).rowcount
    if first:
        return True, bool(correct), choice, score
    kept = tx.execute("SELECT correct, choice, score FROM homework_results WHERE assignment_id = ? AND item = ? "
                      "AND learner_id = ?", (assignment_id, item, learner_id)).fetchone()
    return False, bool(kept[0]), str(kept[1]), str(kept[2])


def _her_item(tx, assignment_id: str, item: int, learner_id: str, classes: list[str] | None) -> tuple[dict, dict]:
    """(the assignment, its item `item`), if the assignment is one of her class's (`classes`:
    her classes when the caller knows them, else her class in this store); HomeworkError
    ("no_assignment", "not_yours", "bad_item") otherwise."""
    row = tx.execute(f"SELECT {_COLUMNS} FROM assignments WHERE id = ?", (assignment_id,)).fetchone()
    if row is None:
        raise HomeworkError("no_assignment")
    task = _row(row)
    if task["class_code"] not in (classes if classes is not None else [_class_of(tx, learner_id)]):
        raise HomeworkError("not_yours")
    if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item < len(task["items"]):
        raise HomeworkError("bad_item")
    return task, task["items"][item]


def _bot_item(tx, assignment_id: str, item: int, learner_id: str, classes: list[str] | None) -> dict:
    """The game item `item` against the bots of assignment `assignment_id`, if it is one of
    her class's; HomeworkError ("no_assignment", "not_yours", "bad_item") otherwise."""
    _, spec = _her_item(tx, assignment_id, item, learner_id, classes)
    if spec["kind"] != "game" or spec["where"] != "bots":
        raise HomeworkError("bad_item")
    return spec


def bot_item(store: Store, assignment_id: str, item: int, learner_id: str,
             classes: list[str] | None = None) -> tuple[dict, bool]:
    """(the game item against the bots, whether she has done it already), if it is one of her
    class's; HomeworkError otherwise."""
    with store.transaction(write=False) as tx:
        spec = _bot_item(tx, assignment_id, item, learner_id, classes)
        done = tx.execute("SELECT 1 FROM homework_results WHERE assignment_id = ? AND item = ? AND learner_id = ?",
                          (assignment_id, item, learner_id)).fetchone() is not None
    return spec, done


def bot_game_key(spec: dict, game: object = None) -> str:
    """The registry key of the game a homework table deals for game item `spec`: `game` when
    she chose one (it must count for the item), else the item's variant, else the family's
    first; HomeworkError ("bad_game", "other_game", "other_variant") otherwise."""
    from cartas.games import GAME_KEYS
    if game is None:
        return spec.get("variant") or variants_of(spec["game"])[0]
    if not isinstance(game, str) or game not in GAME_KEYS:
        raise HomeworkError("bad_game", game=str(game)[:20])
    refused = _counts(spec, game)
    if refused is not None:
        raise HomeworkError(refused)
    return game


def bot_table_class(assignment_id: str, item: int, learner_id: str) -> str:
    """The class key a learner's homework table for one item is kept under in the tables
    store: no class's, so no class lists it, and her open one is found again (a reload)."""
    return f"{BOT_TABLE}:{assignment_id}:{item}:{learner_id}"


def bot_table(store: Store, tables: Tables, assignment_id: str, item: int, learner_id: str, name: str,
              classes: list[str] | None = None, game: object = None, *, seats: int | None = None,
              options: dict | None = None, pace: float | None = None) -> str:
    """The code of her homework table for game item `item` against the bots: her open one for
    that item (a reload gives it back), else a new one, made and dealt here (in `tables`, over
    this store: the seed is the tables' own draw, never the caller's) and started, her seat
    hers alone, the bots in the others. `game`, `seats`, `options`, `pace`: her choices, as
    for a table (the game must count for the item: `bot_game_key`). HomeworkError
    ("item_done") when she has done the item and no table of hers is open; as `bot_item`
    otherwise. The class service and a laptop's store both deal this way (see the rules)."""
    from .tables import DEFAULT_PACE
    spec, done = bot_item(store, assignment_id, item, learner_id, classes)
    key = bot_game_key(spec, game)
    kept = bot_table_class(assignment_id, item, learner_id)
    for snap in tables.list_class(kept, abandoned=True):
        if snap.status == "playing" and snap.record["creator"] == learner_id:
            return snap.code
    if done:
        raise HomeworkError("item_done")
    code = tables.create(key, learner_id, name, seats=seats, options=options, class_code=kept,
                         pace=DEFAULT_PACE if pace is None else pace,
                         homework={"assignment": assignment_id, "item": item, "learner": learner_id})
    tables.start(code, learner_id)
    return code


def bot_table_over(store: Store, record: dict, state=None, now: float | None = None) -> list[dict]:
    """The result of a homework table (`record`, the tables store's; `state`, its game if the
    caller holds it) once the game is over for its learner's seat: written for the item it
    was made for, first write wins. Returns the result written now ([{"learner",
    "assignment", "item", "correct"}]), or []."""
    marked = record.get("homework")
    if not isinstance(marked, dict) or not record.get("state"):
        return []
    from .games import load_state
    state = load_state(record["game"], record["state"]) if state is None else state
    learner_id = str(marked.get("learner"))
    seat = next((s for s, who in enumerate(record.get("sitters") or []) if who and who["id"] == learner_id), None)
    result = None if seat is None else game_result(state, seat)
    if result is None or seat is None:
        return []
    now = time.time() if now is None else now
    assignment_id, item = str(marked.get("assignment")), marked.get("item")
    with store.transaction() as tx:
        row = tx.execute(f"SELECT {_COLUMNS} FROM assignments WHERE id = ?", (assignment_id,)).fetchone()
        if row is None or not isinstance(item, int) or not 0 <= item < len(_row(row)["items"]):
            return []
        spec = _row(row)["items"][item]
        if spec["kind"] != "game" or spec["where"] != "bots" or _counts(spec, record["game"]) is not None:
            return []
        first, correct, _, _ = _write_result(tx, assignment_id, item, learner_id, goal_met(spec, result), result,
                                             now, final_score(state, seat))
    return [{"learner": learner_id, "assignment": assignment_id, "item": item, "correct": correct}] if first else []


def table_game_over(store: Store, table_code: str, now: float | None = None,
                    classes_of: Callable[[list[str]], dict[str, list[str]]] | None = None) -> list[dict]:
    """Mark done, from the store's own record of table `table_code`, the table game items of
    the learners seated when its game ended (docs/rules.md#homework-games): for each of them,
    every table item of that game in her class's assignments made before the game ended.
    Returns the results written now: [{"learner", "assignment", "item", "correct"}] (empty
    for a table whose game is not finished, or when every item was done already).
    `classes_of(learner ids)`: each one's classes when the caller knows them (the class
    service: their hub groups), else each one's class in this store."""
    from .games import load_state
    from .tables import StoreRepository, clean_code
    loaded = StoreRepository(store).load(clean_code(table_code))
    if loaded is None:
        return []
    record = loaded[1]
    if record.get("homework"):  # a learner's homework table against the bots: its own item
        return bot_table_over(store, record, now=now)
    if record.get("status") != "finished" or not record.get("state"):
        return []
    state = load_state(record["game"], record["state"])  # the engine replays the stored game
    ended = float(record.get("moved_at") or 0.0)
    seated = [(seat, who["id"]) for seat, who in enumerate(record.get("sitters") or []) if who]
    written: list[dict] = []
    now = ended if now is None else now
    code = record.get("class_code", "")
    known = classes_of([learner_id for _, learner_id in seated]) if classes_of is not None and code else None
    with store.transaction() as tx:
        for seat, learner_id in seated:
            result = game_result(state, seat)
            mine = known.get(learner_id, []) if known is not None else [_class_of(tx, learner_id)]
            if result is None or not code or code not in mine:
                continue
            rows = tx.execute(f"SELECT {_COLUMNS} FROM assignments WHERE class_code = ? AND created_at <= ? "
                              "ORDER BY created_at, id", (code, ended)).fetchall()
            for task in map(_row, rows):
                for index, spec in enumerate(task["items"]):
                    if (spec["kind"] != "game" or spec["where"] != "table"
                            or _counts(spec, record["game"]) is not None):
                        continue
                    first, correct, _, _ = _write_result(tx, task["id"], index, learner_id,
                                                         goal_met(spec, result), result, now,
                                                         final_score(state, seat))
                    if first:
                        written.append({"learner": learner_id, "assignment": task["id"], "item": index,
                                        "correct": correct})
    return written


# The store --------------------------------------------------------------------------------------
def _new_id() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(ID_LENGTH))


def clean_id(text) -> str:
    """An assignment id as linked (`tarefa=ID`), normalised; HomeworkError otherwise."""
    if not isinstance(text, str):
        raise HomeworkError("bad_id")
    code = text.strip().upper()
    if len(code) != ID_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise HomeworkError("bad_id")
    return code


def create(store: Store, class_code: str, title, due, pass_mark, items, now: float | None = None) -> dict:
    """Store a new assignment for class `class_code` (the caller opened it with its teacher
    key); return it as `assignment` does."""
    title = clean_name(title, longest=None) if isinstance(title, str) else ""
    if not title:
        raise HomeworkError("bad_title", n=MAX_TITLE)
    if len(title) > MAX_TITLE:  # refused, never cut: the teacher shortens it herself
        raise HomeworkError("long_title", n=MAX_TITLE, count=len(title))
    due_at = end_of_day(due)
    pass_mark = _int(pass_mark, 0, 100, "bad_pass_mark")
    if not isinstance(items, (list, tuple)) or not 1 <= len(items) <= MAX_ITEMS:
        raise HomeworkError("bad_items", n=MAX_ITEMS)
    checked = [check_item(item) for item in items]
    now = time.time() if now is None else now
    with store.transaction() as tx:
        while True:
            ident = _new_id()
            made = tx.execute("INSERT INTO assignments (id, class_code, title, due, due_at, pass_mark, items, "
                              "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                              (ident, class_code, title, due, due_at, pass_mark,
                               json.dumps(checked, ensure_ascii=False), now)).rowcount
            if made:
                break
    return {"id": ident, "class_code": class_code, "title": title, "due": due, "due_at": due_at,
            "pass_mark": pass_mark, "items": checked, "created_at": now}


def _row(row) -> dict:
    ident, code, title, due, due_at, pass_mark, items, created = row
    spec = json.loads(items)
    for item in spec:  # an item stored before game goals asked to play the game to the end
        if item.get("kind") == "game":
            item.setdefault("goal", "play")
    return {"id": ident, "class_code": code, "title": title, "due": due, "due_at": float(due_at),
            "pass_mark": int(pass_mark), "items": spec, "created_at": float(created)}


_COLUMNS = "id, class_code, title, due, due_at, pass_mark, items, created_at"


def assignment(store: Store, assignment_id: str) -> dict | None:
    with store.transaction(write=False) as tx:
        row = tx.execute(f"SELECT {_COLUMNS} FROM assignments WHERE id = ?", (assignment_id,)).fetchone()
    return _row(row) if row else None


def class_assignments(store: Store, class_code: str) -> list[dict]:
    """The class's assignments, the newest first."""
    with store.transaction(write=False) as tx:
        rows = tx.execute(f"SELECT {_COLUMNS} FROM assignments WHERE class_code = ? "
                          "ORDER BY created_at DESC, id", (class_code,)).fetchall()
    return [_row(r) for r in rows]


def _class_of(tx, learner_id: str) -> str:
    row = tx.execute("SELECT class_code FROM learners WHERE id = ?", (learner_id,)).fetchone()
    return row[0] if row else ""


def answer(store: Store, assignment_id: str, item: int, learner_id: str, choice, now: float | None = None,
           classes: list[str] | None = None) -> dict:
    """The learner's answer to a scenario item, judged against the stored key. Only the first
    counts: returns {"correct", "answer", "reason", "first"}; HomeworkError when she is not in
    the class, the item is not there or the choice is not one of its options, and ("by_game")
    for a game item: nobody's word says a game was won, its end is the game's own
    (`bot_table_over`, `table_game_over`; docs/rules.md#homework-games). `classes`: her classes
    when the caller knows them (the class service: her hub groups), else her class in this store."""
    now = time.time() if now is None else now
    with store.transaction() as tx:
        _, spec = _her_item(tx, assignment_id, item, learner_id, classes)
        if spec["kind"] == "scenario":
            if choice not in spec["options"]:
                raise HomeworkError("bad_choice")
            correct = judged_right(spec, choice)
        elif spec["kind"] == "game":
            raise HomeworkError("by_game")  # the game itself says who won: bot_table_over, table_game_over
        else:
            raise HomeworkError("bad_item")  # a lesson item is done by answering in the lesson
        first = tx.execute("INSERT INTO homework_results (assignment_id, item, learner_id, correct, choice, "
                           "done_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (assignment_id, item, learner_id) "
                           "DO NOTHING", (assignment_id, item, learner_id, int(correct), choice, now)).rowcount
        if not first:
            kept = tx.execute("SELECT correct FROM homework_results WHERE assignment_id = ? AND item = ? "
                              "AND learner_id = ?", (assignment_id, item, learner_id)).fetchone()
            correct = bool(kept[0])
        else:  # kept whole too (issue 32, classroom.answers): its scenario, the options, her choice
            tx.execute("INSERT INTO answers (learner_id, lesson, correct, at, context, scenario, choices, chosen) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (learner_id, f"homework:{assignment_id}", int(correct), now, f"homework:{assignment_id}",
                        str(spec.get("link", "")), json.dumps([str(o) for o in spec["options"]], ensure_ascii=False),
                        str(choice)))
    return {"correct": bool(correct), "answer": spec.get("answer", ""), "reason": spec.get("reason", {}),
            "first": bool(first)}


def judged_right(spec: dict, choice) -> bool:
    """Whether `choice` answers scenario item `spec` right (docs/rules.md#homework-near-best):
    it is one of the options the coach counts as good as its advice (`accepted`, stored with
    the item); an item stored without them is right only on its key."""
    accepted = spec.get("accepted")
    return choice in accepted if isinstance(accepted, list) else choice == spec["answer"]


def _states(tx, task: dict, learner_ids: list[str]) -> dict[str, list[dict]]:
    """{learner: [per item {"done", "right", "late", "done_at", "count", "need"}]}."""
    blank: dict[str, Any] = {"done": False, "right": False, "late": False, "done_at": None, "count": 0, "asked": 0,
                             "choice": None, "score": ""}
    out = {pid: [dict(blank) for _ in task["items"]] for pid in learner_ids}
    if not learner_ids:
        return out
    marks = ", ".join("?" for _ in learner_ids)
    rows = tx.execute(f"SELECT item, learner_id, correct, choice, done_at, score FROM homework_results "
                      f"WHERE assignment_id = ? AND learner_id IN ({marks})",
                      (task["id"], *learner_ids)).fetchall()
    for index, pid, correct, choice, done_at, score in rows:
        if index < len(task["items"]):
            out[pid][index].update(done=True, right=bool(correct), done_at=float(done_at), choice=choice,
                                   count=int(correct), asked=1, score=str(score or ""))
    lessons = {spec["lesson"] for spec in task["items"] if spec["kind"] == "lesson"}
    for lesson in lessons:
        answers = tx.execute(f"SELECT learner_id, correct, at FROM answers WHERE lesson = ? AND at >= ? "
                             f"AND learner_id IN ({marks}) ORDER BY at, id",
                             (lesson, task["created_at"], *learner_ids)).fetchall()
        for index, spec in enumerate(task["items"]):
            if spec["kind"] != "lesson" or spec["lesson"] != lesson:
                continue
            for pid, correct, at in answers:
                state = out[pid][index]
                state["asked"] += 1
                if correct and not state["done"]:
                    state["count"] += 1
                    if state["count"] >= spec["need"]:
                        state.update(done=True, right=True, done_at=float(at))
    for states in out.values():
        for state in states:
            state["late"] = state["done"] and state["done_at"] > task["due_at"]
    return out


def summary(task: dict, states: list[dict], now: float | None = None) -> dict:
    """{"done", "right", "late", "passed", "overdue"} of one learner's items."""
    now = time.time() if now is None else now
    right = sum(s["right"] for s in states)
    done = sum(s["done"] for s in states)
    passed = bool(states) and right * 100 >= task["pass_mark"] * len(states)
    return {"done": done, "right": right, "late": sum(s["late"] for s in states), "items": len(states),
            "passed": passed, "overdue": done < len(states) and now > task["due_at"]}


def learner_homework(store: Store, learner_id: str, classes: list[str] | None = None) -> list[dict]:
    """Her class's assignments, the newest first, each with "states" (per item) and "summary".
    `classes`: her classes when the caller knows them (the class service: her hub groups)."""
    with store.transaction(write=False) as tx:
        codes = [c for c in (classes if classes is not None else [_class_of(tx, learner_id)]) if c]
        if not codes:
            return []
        rows = tx.execute(f"SELECT {_COLUMNS} FROM assignments WHERE class_code IN "
                          f"({', '.join('?' for _ in codes)}) ORDER BY created_at DESC, id", codes).fetchall()
        tasks = [_row(r) for r in rows]
        for task in tasks:
            task["states"] = _states(tx, task, [learner_id])[learner_id]
    for task in tasks:
        task["summary"] = summary(task, task["states"])
    return tasks


def class_results(store: Store, assignment_id: str, learners: list[tuple[str, str]] | None = None) -> dict | None:
    """The assignment with {"learners": [{"id", "name", "states", "summary"}]} for every
    learner of its class, by name. `learners`: the class's (id, name) when the caller knows
    them (the class service: the hub group's members), else the class's in this store."""
    with store.transaction(write=False) as tx:
        row = tx.execute(f"SELECT {_COLUMNS} FROM assignments WHERE id = ?", (assignment_id,)).fetchone()
        if row is None:
            return None
        task = _row(row)
        people = learners if learners is not None else tx.execute(
            "SELECT id, name FROM learners WHERE class_code = ? ORDER BY name, id", (task["class_code"],)).fetchall()
        states = _states(tx, task, [pid for pid, _ in people])
    task["learners"] = [{"id": pid, "name": name, "states": states[pid], "summary": summary(task, states[pid])}
                        for pid, name in people]
    return task


class HomeworkService(Protocol):
    """What the dashboards ask about homework, in plain values (see the module's rules)."""

    def create(self, class_code: str, title, due, pass_mark, items) -> dict: ...
    def assignment(self, assignment_id: str) -> dict | None: ...
    def class_assignments(self, class_code: str) -> list[dict]: ...
    def answer(self, assignment_id: str, item: int, learner_id: str, choice) -> dict: ...
    def learner_homework(self, learner_id: str) -> list[dict]: ...
    def class_results(self, assignment_id: str) -> dict | None: ...
    def bot_table(self, assignment_id: str, item: int, learner_id: str, game: str | None = None, *,
                  seats: int | None = None, options: dict | None = None, pace: float | None = None) -> dict: ...
    def table_game_over(self, table_code: str) -> list[dict]: ...


def without_keys(task: dict) -> dict:
    """An assignment as its learner receives it over the class service: a scenario item she
    has not done yet comes without its answer key and the coach's reason (KEY_FIELDS)."""
    states = task.get("states") or []
    items = []
    for index, item in enumerate(task["items"]):
        done = index < len(states) and states[index]["done"]
        hidden = item["kind"] == "scenario" and not done
        items.append({k: v for k, v in item.items() if k not in KEY_FIELDS} if hidden else item)
    return {**task, "items": items}


class StoreHomework:
    """HomeworkService over a store opened with classroom.progress.open_store.

    The class service answers through this same object (`classroom.interface.StoreClassroom`),
    naming what the hub knows: a learner's `classes` (her hub groups; else her class in this
    store), a class's `learners` ((id, name) pairs: its hub group's members), and `hide_keys`
    for what leaves the service to a learner's kernel (`without_keys`)."""

    def __init__(self, store: Store):
        self.store = store

    def create(self, class_code: str, title, due, pass_mark, items) -> dict:
        return create(self.store, class_code, title, due, pass_mark, items)

    def assignment(self, assignment_id: str) -> dict | None:
        return assignment(self.store, assignment_id)

    def class_assignments(self, class_code: str) -> list[dict]:
        return class_assignments(self.store, class_code)

    def answer(self, assignment_id: str, item: int, learner_id: str, choice,
               classes: list[str] | None = None) -> dict:
        return answer(self.store, assignment_id, item, learner_id, choice, classes=classes)

    def learner_homework(self, learner_id: str, classes: list[str] | None = None,
                         hide_keys: bool = False) -> list[dict]:
        found = learner_homework(self.store, learner_id, classes)
        return [without_keys(t) for t in found] if hide_keys else found

    def learner_assignment(self, learner_id: str, assignment_id: str, classes: list[str] | None = None,
                           hide_keys: bool = False) -> dict:
        """Her assignment `assignment_id`, with her states; HomeworkError "no_assignment" if
        there is none, "not_yours" if it is not of her classes."""
        mine = next((t for t in self.learner_homework(learner_id, classes, hide_keys) if t["id"] == assignment_id),
                    None)
        if mine is not None:
            return mine
        raise HomeworkError("no_assignment" if assignment(self.store, assignment_id) is None else "not_yours")

    def class_results(self, assignment_id: str, learners: list[tuple[str, str]] | None = None) -> dict | None:
        return class_results(self.store, assignment_id, learners)

    def bot_item(self, assignment_id: str, item: int, learner_id: str,
                 classes: list[str] | None = None) -> tuple[dict, bool]:
        return bot_item(self.store, assignment_id, item, learner_id, classes)

    def bot_table_over(self, record: dict, state=None) -> list[dict]:
        return bot_table_over(self.store, record, state)

    def bot_table_at(self, tables: Tables, assignment_id: str, item: int, learner_id: str, name: str,
                     classes: list[str] | None = None, game: object = None, pace: float | None = None,
                     setup: dict | None = None) -> Snapshot:
        """Her homework table at `tables` (`bot_table`: her open one for the item, else one dealt
        there), as the class service answers it: its snapshot. `setup`: her seats and options."""
        setup = setup or {}
        code = bot_table(self.store, tables, assignment_id, item, learner_id, name, classes, game,
                         seats=setup.get("seats"), options=setup.get("options"), pace=pace)
        return tables.snapshot(code)

    def bot_table(self, assignment_id: str, item: int, learner_id: str, game: str | None = None, *,
                  seats: int | None = None, options: dict | None = None, pace: float | None = None) -> dict:
        """Her homework table, dealt by this store's tables (`bot_table`): {"code"}; the tables
        page opens it by its code."""
        from .tables import StoreRepository, Tables
        with self.store.transaction(write=False) as tx:
            row = tx.execute("SELECT name FROM learners WHERE id = ?", (learner_id,)).fetchone()
        code = bot_table(self.store, Tables(StoreRepository(self.store)), assignment_id, item, learner_id,
                         row[0] if row else learner_id, game=game, seats=seats, options=options, pace=pace)
        return {"code": code}

    def table_game_over(self, table_code: str,
                        classes_of: Callable[[list[str]], dict[str, list[str]]] | None = None) -> list[dict]:
        return table_game_over(self.store, table_code, classes_of=classes_of)


def for_store(store: Store) -> HomeworkService:
    """The HomeworkService of `store` (under JupyterHub, `classroom.open().homework()` is the
    class service's)."""
    return StoreHomework(store)


