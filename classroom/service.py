"""The Cartas class service: the class store behind JupyterHub's login, for a school's hub.

On a school's JupyterHub every learner has a server (and a kernel) of her own where she can
run any code, so nothing there may hold the keys to the class. The store (PostgreSQL) sits
behind this service, a JupyterHub service on tornado; learners' kernels reach it over HTTP
with their own hub token (`JUPYTERHUB_API_TOKEN`, see `classroom.remote`) and hold no
database credentials.

Decided rules (docs/rules.md#verified-learners is the laptop's counterpart):

- One classroom (issue 30): every classroom rule (progress, homework, skills, the live quiz,
  the tournament, the checks, the tables) is asked of one `classroom.interface.StoreClassroom`
  over this store (`Classes.room`), the object a laptop's pages ask; the service adds who asks
  (the hub's token, a class's teachers, guess and request limits) and the wire (JSON), and
  passes what the hub knows as arguments (a learner's classes are her hub groups, a class's
  learners its group's members). tests/test_classroom_interface.py fails on a store rule
  reached around it.

- Who asks: every request carries a hub token (`Authorization: token ...`); the hub says
  whose it is (`jupyterhub.services.auth.HubAuth.user_for_token`, cached CACHE_SECONDS, one
  question per token at a time, re-checked in the background while in use: `Hub.user_for_token`).
  No token, or one the hub does not know, is 401. A service's token is not a learner: 403.
- A hung hub never hangs the service: every question to the hub (a token, a user, a group)
  waits HUB_TIMEOUT seconds at most, then the request is answered 503 `hub_down`.
- The learner is the hub user: her store id is `hub:<name>` and her name the hub name. No
  name is typed and nothing the kernel sends names a learner, a class or a seat.
- A class is a hub group, any but the teachers groups: `teachers` (`--teachers-group`) and
  the groups named `teachers-<class>`. The teacher's view lists a class's members before they
  first open a lesson, with their counters once they have some.
- A class's teachers are the hub admins and the members of the hub group `teachers-<class>`
  (`HubRules.teaches`; e.g. `teachers-turma-7a` for class `turma-7a`); the hub's answers are
  cached CACHE_SECONDS. The bare `teachers` group makes no one a teacher. A teacher reads and
  writes only her classes: their lists, learners' rows and progress, homework (composing it,
  its answer key, its results), skills, tables and live sessions (starting one, its board,
  asking, closing, ending); for any other class she is refused 403 `not_your_class`, and a
  learner 403 `teachers_only`.
- A learner reads and writes only her own progress. A teacher reads that of her classes'
  learners, writes none.
- Tables: a learner sits only as herself and receives only her seat's view (her cards, the
  face-up ones, her legal moves); a teacher, or anyone not seated, watches as a spectator. The
  deal, the whole state and its random generator stay here: the service applies every move
  (the engine checks it) and moves the bots (`classroom.tables` rules: pace, away seats).
  A learner cannot choose a table's seed (its deals would be known) and sets its bots' pace
  within PACE_RANGE only. Its creator chooses the bots' level (`level`: "easy", "rule" by
  default, "strong"); any other is refused here (409 "bad_level", naming it, in both
  languages) before a table is made; every seat's view says the table's `level`.
- A seat's log is sent as what the page lacks: with `events_since=K&events_seat=S` (in the
  query, or the body of a table action), a page that holds the first K events of seat S's log
  receives the events from K on (at most MAX_EVENTS_SENT); otherwise the last LOG_LINES.
  `events_from` is the index of the first event sent and `events_total` the log's length, so
  a move costs a few events on the wire, not the whole log. The page narrates the events in
  its own language (`classroom.remote_tables`).
- Guessing table codes is limited as on a laptop (`classroom.attempts`): a learner's first
  request on a table code is a try, counted when there is no such table, in her scopes (the
  hub user `hub:<name>` and each of her classes). After attempts.LIMIT wrong tries within
  attempts.WINDOW in her own scope, every try of hers, the right code included, is refused (429
  `too_many_tries`, the wait said in words) before the code is looked at; a hub user is a
  known source, so her class's count never refuses her classmates (docs/rules.md#guess-limits).
  Live-quiz codes are limited the same way, in her own scope (`LessonHandler.live_code`). A table she made,
  or reached once on this service, on any of its replicas (a teacher: through her class's
  listing), is no guess again (the store's `service_reached`; each replica keeps at most
  REACHED_PAIRS such (learner, table) pairs in memory, the oldest dropped, and asks the store
  on a miss).
- Changes reach a watching page through one stream (issue 35): `GET /api/tables/CODE/watch?
  after=V` (with the log it holds, `events_since`/`events_seat`, and `seat` as a look takes
  them) is one long-lived answer, `application/x-ndjson`, that writes the caller's seat view of
  each new version as one JSON line, flushed, from the first version that is not V on; a
  version is never sent twice on one stream, nor one made by a move of the stream's own page
  (a page names itself with `page`, on its stream and its moves; its move's answer brought
  that version, and no seat's view shows another page's id), and each line's log starts
  where the line before left that seat's log. Her token, the code's guess limit and the parameters are checked once,
  when the stream opens, and refused as any request is (JSON, with the status); the seat of
  each line is hers at that version (a seat she left is a spectator's from then on). A stream
  quiet for STREAM_KEEPALIVE s gets an empty line (no proxy's idle timeout cuts it: haproxy's
  and the hub's are longer), it ends after STREAM_LIFETIME s (the page opens another from the
  last version it saw, through whichever replica it reaches), it ends too when its table
  cannot be read (the page's next stream gets the refusal), and a client that does not read
  its lines is cut STREAM_KEEPALIVE s after that. A seated learner's stream is her presence
  at the table, as her long poll was. The one-shot long poll stays for callers that ask once
  (`GET /api/tables/CODE?after=V&wait=S` answers when the version is no longer V, or after S
  seconds, at most LONG_POLL): tests, scripts, a page's look no older than a version. On
  PostgreSQL the service learns of changes by `LISTEN cartas_tables` (`classroom.tables`
  notifies on each save), so several service replicas agree; on SQLite it checks the
  versions of the tables someone waits on every tables.POLL_EVERY seconds, one query per
  table whatever the number of pages.
- Replicas (PostgreSQL; issue 35): the service runs as one process (hub-managed, the default)
  or as N identical ones behind one address (externally managed: deploy/jupyterhub/README.md).
  PostgreSQL is the only shared state: tables, their presence, live sessions, homework, the
  guess counts, the codes a learner reached (`service_reached`) and the homework request
  limits (`service_calls`) live there. What a process keeps in memory (held snapshots, pages
  waiting, the hub's answers, written sentences) is only a cache: a notification carries ids
  only ("CODE VERSION", far under NOTIFY's 8,000 bytes) and the process reads the table
  again: its record only, while its game is in play (the game held here advanced by the new
  actions, the presence held here, read again by the sweep: `Tables.reload`). A notification
  heard while a change of that table is being saved here waits for that change to be
  published, and is read only if it names a newer version (`Service.change`). Each process
  holds one LISTEN connection of its own (`CARTAS_LISTEN_URL`, PostgreSQL itself) and sends
  every other query through its pool (`CARTAS_DATABASE_URL`, which may be PgBouncer in
  transaction pooling: `store.PooledPostgresStore`). A notification is never
  replayed: each time LISTEN is in place again, the tables watched here are read again
  (`Service.resync`). What must happen once happens once across replicas so:
  a bot's move, and a seat taken over by a bot when its learner is away (a timeout, found by
  a sweep), by the table's compare-and-swap: a version is saved once, and a replica whose
  save loses does nothing (`bot_lost` in `/health`); to spare the work, the replica that
  made the change moves the next bot after the table's pace, the others only once the table
  has been still for pace + tables.TAKEOVER (a killed replica's tables go on). A sweep is
  each replica's own pass over what it watches; what it finds is such a bot move. A live
  question closes by its row (`closes_at`, on the store's clock; closing early is one
  conditional UPDATE), an answer is counted once by its primary key, and a homework result
  is written once (first write wins). No timer, lease or lock of a process is needed.
- Homework games against the bots (issue 33): only a game the service deals and plays counts.
  `POST api/homework/ID/table {item, game?, seats?, options?, pace?}` makes her a homework
  table (`classroom.tables`: her seat hers alone, the bots in the others, the seed here;
  `homework.bot_table`, as a laptop's store deals it), or gives back her open one for that
  item; she plays it as any table, and when the game is over for her seat the service records
  the item from the table's own record (`homework.bot_table_over`). A finished game a kernel
  sends (`POST api/homework/ID/game`, what kernels of older versions sent)
  is refused (409 `service_deals`), never replayed. Each learner makes at most HOMEWORK_BURST
  requests of each of these two at once, then one every HOMEWORK_EVERY seconds, whichever
  replica she reaches (429 `too_many_requests`, before the body is read:
  `LimitedHomeworkHandler`; the buckets are the store's `service_calls`). A table's game is
  loaded (its actions replayed) on a store thread, never on the loop (`Classes.snapshot`).
- Homework, skills and the live quiz: a learner's classes are her hub groups; she lists,
  answers and joins only theirs, as herself; teachers compose, read results and run the
  projector (the rules in full above `Lessons`).
- Bounded database use: on PostgreSQL `--pool-size` connections at most, whatever the number
  of learners: a pool of pool-size - 1 and the one that listens; store calls run on
  pool-size - 1 threads.
- Refusals are JSON `{"error": code, "pt": ..., "en": ...}` with the HTTP status (400 bad
  input, 401, 403, 404, 429 too many guesses, 503 hub or store down); no traceback leaves the
  service.
- A request's body is read only once its sender is known: on every endpoint that takes one,
  a declared length over MAX_BODY is refused (413 `too_large`), then the token is checked
  (401/403 as above), before a byte of the body is read; the connection is then closed, so
  an unknown sender cannot make the service hold a large body (`Handler.prepare`).
- Bad input is refused as such (400), on every endpoint, before it reaches the store: a JSON
  body nested more than MAX_DEPTH levels deep (`too_nested`, however deep), a NUL in one of its
  texts, or a control character in a name or code of the path (`control_character`, naming
  the character: `values.control_character`).
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import os
import re
import signal
import socket
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, ClassVar
from urllib.parse import quote

from tornado import httpclient, web
from tornado.iostream import StreamClosedError
from tornado.log import app_log

try:   # answers encoded faster (`encode_answer`); json does the same when it is missing
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency
    orjson = None  # type: ignore[assignment]
from tornado.http1connection import HTTP1Connection
from tornado.ioloop import IOLoop

from . import attempts, checks, games, homework, live, mastery, tournament
from .answers import Answer, AnswerError
from .games import TableError
from .identity import Learner, clean_name
from .interface import StoreClassroom
from .store import Migrations, Store, StoreError, connect
from .tables import HEARTBEAT_EVERY, NOTIFY_CHANNEL as CHANNEL, POLL_EVERY, TAKEOVER, Snapshot, clean_code
from .values import control_character

CACHE_SECONDS = 30.0
REFRESH_FROM = 0.5         # of CACHE_SECONDS: a token in use is re-checked in the background from then
MAX_TOKENS = 20_000        # token answers kept at most (older ones dropped first)
LONG_POLL = 30.0
STREAM_KEEPALIVE = 20.0    # seconds a watch stream stays quiet at most: then an empty line
STREAM_LIFETIME = 300.0    # seconds a watch stream lasts at most: then it ends (the page opens another)
MAX_VERSION = 10**12       # a table's version, at most, as a request may say it
MAX_BODY = 64 * 1024
MAX_DEPTH = 32             # lists or objects one inside another in a request's JSON, at most
MAX_ANSWERS = 200
LOG_LINES = 80             # the last events of a seat's log sent to a page that has none of them
MAX_EVENTS_SENT = 1_000    # events sent at most to a page that has the log up to `events_since`
SWEEP_EVERY = 2.0          # seconds between checks of away seats and due bots
PACE_RANGE = (0.2, 5.0)    # seconds a table's bots wait, as a learner may set it (no busy bots)
IDLE_TABLE = 600.0         # seconds after which a table nobody watches is forgotten here
DEFAULT_POOL = 5
REACHED_PAIRS = 50_000     # (learner, table) pairs whose code is no guess any more (oldest dropped)
HUB_TIMEOUT = 4.0          # seconds a question to the hub may take, then the answer is 503 hub_down
HOMEWORK_BURST = 5         # homework game requests a learner makes at once, at most (then one every ...)
HOMEWORK_EVERY = 2.0       # ... HOMEWORK_EVERY seconds)
GC_YOUNG = 20_000          # new objects between collections of the youngest generation (Python's: 700)

TEXT = {
    "no_token": ("Entre pelo JupyterHub: falta o token.", "Sign in through JupyterHub: the token is missing."),
    "bad_token": ("O JupyterHub não reconhece esse token.", "JupyterHub does not know that token."),
    "not_learner": ("Só uma pessoa do JupyterHub pode usar as turmas.", "Only a JupyterHub user can use the classes."),
    "not_yours": ("Você só pode ver e gravar o seu próprio progresso.",
                  "You can only read and write your own progress."),
    "teachers_only": ("Só professores veem as turmas.", "Only teachers see the classes."),
    "not_your_class": ("Você não é professor da turma {name}: veja as suas turmas no JupyterHub.",
                       "You do not teach class {name}: see your classes on JupyterHub."),
    "not_your_seat": ("Você só vê as cartas do seu lugar.", "You only see your own seat's cards."),
    "no_class": ("Não há turma {name} no JupyterHub.", "There is no class {name} on JupyterHub."),
    "bad_request": ("Pedido inválido: {why}.", "Bad request: {why}."),
    "not_found": ("Não há nada aqui.", "There is nothing here."),
    "too_large": ("Pedido grande demais: no máximo {most} bytes.", "Request too large: {most} bytes at most."),
    "too_nested": ("Pedido inválido: o JSON tem mais de {most} níveis de listas ou objetos, um dentro do outro.",
                   "Bad request: the JSON nests lists or objects more than {most} levels deep."),
    "control_character": ("Pedido inválido: {where_pt} tem um caractere de controle ({char}).",
                          "Bad request: {where_en} holds a control character ({char})."),
    "not_seated": ("Você não está sentado nesta mesa.", "You are not seated at this table."),
    "too_many_requests": ("Pedidos demais de uma vez: espere {seconds} s e tente de novo.",
                          "Too many requests at once: wait {seconds} s and try again."),
    "hub_down": ("O JupyterHub não respondeu; tente de novo.", "JupyterHub did not answer; try again."),
    "store_down": ("As turmas estão sem conexão com o banco de dados; tente de novo.",
                   "The classes cannot reach the store; try again."),
}


class Refused(Exception):
    """A request refused with an HTTP status and a sentence of TEXT (or a TableError's)."""

    def __init__(self, status: int, code: str, pt: str | None = None, en: str | None = None, **fields):
        super().__init__(code)
        self.status, self.code = status, code
        if pt is None or en is None:
            pt, en = (s.format(**fields) for s in TEXT[code])
        self.pt, self.en = pt, en
        self.family: str | None = None   # a lesson family's refusal ("homework", "live"...): its own form
        self.fields: dict = {}

    @classmethod
    def of_family(cls, error, family: str, status: int) -> Refused:
        """A family's error (its code, its sentence in both languages, its fields) refused with
        `status`, as {"error", "pt", "en", "family", "fields"} (`LessonHandler.refuse`)."""
        refused = cls(status, error.code, error.message("pt"), error.message("en"))
        refused.family, refused.fields = family, dict(error.fields)
        return refused


def learner_id(user: str) -> str:
    """The store id of hub user `user`."""
    return f"hub:{user}"


class HubUser(Learner):
    """A learner known by her hub login: her key is `hub:<name>` (see `learner_id`)."""

    @property
    def key(self) -> str:
        return learner_id(self.name)


# What the hub says about users and groups --------------------------------------------------
class HubRules:
    """Who teaches which class, from what the hub says of a user (`user`: her model, with
    `admin` and `groups`) and of the groups (`classes`, `members`): the rules in the module's
    docstring. A subclass answers those look-ups (`Hub` asks the hub; tests answer for a
    small school)."""

    teachers_group = "teachers"

    async def user(self, name: str) -> dict:
        raise NotImplementedError

    async def classes(self) -> list[dict]:
        raise NotImplementedError

    def is_class(self, group: str) -> bool:
        """Whether hub group `group` is a class: any group but the teachers group and the
        classes' teachers groups (`teachers-<class>`)."""
        return group != self.teachers_group and not group.startswith(self.teachers_group + "-")

    def teachers_of(self, group: str) -> str:
        """The hub group whose members teach class `group` (with the hub admins)."""
        return f"{self.teachers_group}-{group}"

    async def teaches(self, name: str, group: str) -> bool:
        """Whether hub user `name` teaches class `group`: a hub admin, or a member of the
        class's teachers group."""
        if not self.is_class(group):
            return False
        model = await self.user(name)
        return bool(model.get("admin")) or self.teachers_of(group) in (model.get("groups") or [])

    async def is_teacher(self, name: str) -> bool:
        """Whether `name` teaches any class (a hub admin, or in a `teachers-<class>` group)."""
        model = await self.user(name)
        prefix = self.teachers_group + "-"
        return bool(model.get("admin")) or any(g.startswith(prefix) for g in model.get("groups") or [])

    async def classes_of(self, teacher: str) -> list[dict]:
        """The classes `teacher` teaches, with their members."""
        return [c for c in await self.classes() if await self.teaches(teacher, c["name"])]

    async def teaches_learner(self, teacher: str, learner: str) -> bool:
        """Whether `teacher` teaches one of `learner`'s classes."""
        for group in (await self.user(learner)).get("groups") or []:
            if await self.teaches(teacher, group):
                return True
        return False


class Hub(HubRules):
    """Token checks (HubAuth) and user/group look-ups with the service's own token, cached."""

    def __init__(self, teachers_group: str = "teachers", api_url: str | None = None,
                 api_token: str | None = None, clock: Callable[[], float] = time.monotonic):
        from jupyterhub.services.auth import HubAuth
        self.api_url = (api_url or os.environ["JUPYTERHUB_API_URL"]).rstrip("/")
        self.api_token = api_token or os.environ["JUPYTERHUB_API_TOKEN"]
        self.auth = HubAuth(api_url=self.api_url, api_token=self.api_token,
                            cache_max_age=int(CACHE_SECONDS))
        self.teachers_group = teachers_group
        self.clock = clock
        self._cache: dict[str, tuple[float, Any]] = {}
        self._tokens: dict[str, tuple[float, dict | None]] = {}   # sha256 of a token -> (when asked, model)
        self._asking: dict[str, asyncio.Future] = {}
        self.hub_asked = 0
        self.http = httpclient.AsyncHTTPClient()

    async def user_for_token(self, token: str) -> dict | None:
        """Whose token this is, as the hub says (None: the hub does not know it).

        Asked once per token at a time: requests arriving together share one question to the
        hub. An answer is kept CACHE_SECONDS and never used later (a revoked token is refused
        within CACHE_SECONDS). A token in use is asked again in the background once its answer
        is past REFRESH_FROM of that age (spread per token, so 200 learners who signed in
        together are not re-checked together): an active learner's requests never wait on the
        hub, and the hub is asked about each token at most every REFRESH_FROM x CACHE_SECONDS."""
        key = hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
        hit = self._tokens.get(key)
        if hit is not None:
            age = self.clock() - hit[0]
            if age < CACHE_SECONDS:
                if age >= CACHE_SECONDS * (REFRESH_FROM + (1 - REFRESH_FROM) * int(key[:2], 16) / 512):
                    self._ask(key, token)
                return hit[1]
        return await asyncio.shield(self._ask(key, token))

    def _ask(self, key: str, token: str) -> asyncio.Future:
        pending = self._asking.get(key)
        if pending is None:
            pending = self._asking[key] = asyncio.ensure_future(self._ask_hub(key, token))
            pending.add_done_callback(lambda f: f.cancelled() or f.exception())  # a refresh nobody awaits
        return pending

    async def _ask_hub(self, key: str, token: str) -> dict | None:
        try:
            self.hub_asked += 1
            try:
                model = await asyncio.wait_for(self.auth.user_for_token(token, use_cache=False, sync=False),
                                               HUB_TIMEOUT)
            except TimeoutError:
                raise Refused(503, "hub_down") from None
            now = self.clock()
            if len(self._tokens) >= MAX_TOKENS:   # bounded: answers too old to use go first
                self._tokens = {k: v for k, v in self._tokens.items() if now - v[0] < CACHE_SECONDS}
            self._tokens[key] = (now, model)
            return model
        finally:
            self._asking.pop(key, None)

    async def _get(self, path: str) -> Any:
        now = self.clock()
        hit = self._cache.get(path)
        if hit and now - hit[0] < CACHE_SECONDS:
            return hit[1]
        try:
            response = await asyncio.wait_for(self.http.fetch(
                f"{self.api_url}{path}", headers={"Authorization": f"token {self.api_token}"},
                connect_timeout=HUB_TIMEOUT, request_timeout=HUB_TIMEOUT), HUB_TIMEOUT + 1)
            value = json.loads(response.body)
        except TimeoutError:
            raise Refused(503, "hub_down") from None
        except httpclient.HTTPClientError as error:
            if error.code != 404:
                raise
            value = None
        self._cache[path] = (now, value)
        return value

    async def user(self, name: str) -> dict:
        return await self._get(f"/users/{quote(name, safe='')}") or {}

    async def classes(self) -> list[dict]:
        groups = await self._get("/groups") or []
        return [{"name": g["name"], "members": sorted(g.get("users") or [])}
                for g in groups if self.is_class(g["name"])]

    async def members(self, group: str) -> list[str] | None:
        model = await self._get(f"/groups/{quote(group, safe='')}")
        return None if model is None else sorted(model.get("users") or [])


# The service's state: the store, its threads, waiting pages, bots ---------------------------
# What replicas share beyond the tables (the module's rules, "Replicas"): the codes a learner
# reached (no guess any more) and the homework request buckets, one row per learner and kind.
MIGRATIONS = Migrations("service", [
    ("CREATE TABLE service_reached (learner TEXT NOT NULL, code TEXT NOT NULL, "
     "at DOUBLE PRECISION NOT NULL, PRIMARY KEY (learner, code))",
     "CREATE TABLE service_calls (who TEXT PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL, "
     "at DOUBLE PRECISION NOT NULL)"),
])


class Classes:
    """The store side of the service (no HTTP): progress, class rows and tables, each call a
    store transaction on one of the pool's threads.

    Every classroom rule is asked of one `StoreClassroom` (`room`), the very object a laptop's
    pages ask (classroom.interface): the service adds who asks and the wire, never a rule of
    its own (tests/test_classroom_interface.py reads this module for a rule reached around it).
    What it keeps itself is a replica's shared state: the codes a learner reached (its guess
    limit) and the homework request buckets (its request limit); the tables' versions and
    presence, many at once, are the tables repository's (`classroom.tables.StoreRepository`)."""

    def __init__(self, store: Store, workers: int):
        self.store = store
        self.room = StoreClassroom(store)
        self.room.migrate()
        store.migrate(MIGRATIONS)
        self.lessons = Lessons(self.room)  # homework, skills and the live quiz (below)
        self.tables = self.room.tables()
        self.limiter = self.room.code_limiter()   # guessing table codes (the rules above)
        # Tables are waited on, answers are not: a quarter of the threads (at least one) records
        # answers, the rest serve tables, so a burst of answers never delays a move.
        writers = max(1, workers // 4) if workers > 1 else 1
        tables = max(1, workers - writers) if workers > 1 else 1
        self.executor = ThreadPoolExecutor(max_workers=tables, thread_name_prefix="cartas-tables")
        self.writes = ThreadPoolExecutor(max_workers=writers, thread_name_prefix="cartas-answers") \
            if workers > 1 else self.executor

    async def run(self, fn, *args):
        """`fn(*args)` on a tables thread."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def write(self, fn, *args):
        """`fn(*args)` on an answers thread."""
        return await asyncio.get_running_loop().run_in_executor(self.writes, fn, *args)

    def snapshot(self, code: str, held: Snapshot | None = None) -> Snapshot:
        """Table `code` with its game loaded (its actions replayed) here, on a store thread:
        a page's view of it is then drawn on the loop without replaying anything. `held`, an
        earlier snapshot of it held here: read from it (`Tables.reload`: one query, no replay)."""
        snap = self.tables.snapshot(code) if held is None else self.tables.reload(code, held)
        snap.state  # noqa: B018  # loads it once for this version
        return snap

    def list_class(self, class_code: str) -> list[Snapshot]:
        """A class's open tables, each game loaded here (as `snapshot`)."""
        snaps = self.tables.list_class(class_code)
        for snap in snaps:
            snap.state  # noqa: B018
        return snaps

    def versions(self, codes: list[str]) -> dict[str, int]:
        """The stored version of each of the tables `codes` (those that exist), in one query."""
        return self.tables.repo.versions(codes)

    def touch_many(self, beats: list[tuple[str, str, float]]) -> None:
        """Learners' presence at tables, (code, learner, when) each, in one transaction."""
        self.tables.repo.touch_many(beats)

    def presence_of(self, codes: list[str]) -> dict[str, dict[str, float]]:
        """Who was seen when at each of the tables `codes`, in one query (the sweep's)."""
        return self.tables.repo.presence_of(codes)

    def has_reached(self, user: str, code: str) -> bool:
        """Whether `user` reached table `code` on any replica (`Service.reach`)."""
        with self.store.transaction(write=False, single=True) as tx:
            return tx.execute("SELECT 1 FROM service_reached WHERE learner = ? AND code = ?",
                              (user, code)).fetchone() is not None

    def add_reached(self, pairs: list[tuple[str, str]]) -> None:
        """(user, code) pairs reached: no guess again, on every replica."""
        now = time.time()
        with self.store.transaction(batch=True) as tx:
            tx.executemany("INSERT INTO service_reached (learner, code, at) VALUES (?, ?, ?) "
                           "ON CONFLICT (learner, code) DO NOTHING", [(u, c, now) for u, c in pairs])

    def take_call(self, who: str, burst: int, every: float) -> float:
        """One request from bucket `who` (`burst` at once, then one every `every` s), shared by
        the replicas: 0.0 when taken, else the seconds until one is back (nothing taken). The
        row is read and written in one transaction, locked (`FOR UPDATE`; SQLite's write lock),
        so requests at once on several replicas take one token each."""
        now = time.time()
        with self.store.transaction() as tx:
            tx.execute("INSERT INTO service_calls (who, tokens, at) VALUES (?, ?, ?) ON CONFLICT (who) DO NOTHING",
                       (who, float(burst), now))
            lock = " FOR UPDATE" if tx.kind == "postgresql" else ""
            tokens, at = tx.execute(f"SELECT tokens, at FROM service_calls WHERE who = ?{lock}", (who,)).fetchone()
            tokens = min(float(burst), float(tokens) + max(0.0, now - float(at)) / every)
            if tokens < 1.0:
                tx.execute("UPDATE service_calls SET tokens = ?, at = ? WHERE who = ?", (tokens, now, who))
                return (1.0 - tokens) * every
            tx.execute("UPDATE service_calls SET tokens = ?, at = ? WHERE who = ?", (tokens - 1.0, now, who))
            return 0.0

    # progress
    def record(self, user: str, lesson: str, answers: list[bool], skills: list[str] | None = None) -> None:
        self.room.record(HubUser("hub-learner", user, ""), lesson, answers, skills=skills)

    def learner_progress(self, user: str) -> dict:
        return self.room.progress(learner_id(user))

    def class_rows(self, members: list[str]) -> list[dict]:
        """One row per member (those who never answered too, `last_seen` 0), by name, in the
        shape of `progress.class_learners` (`has_pin` is always true: the hub signs them in),
        each named by her hub name."""
        rows = self.room.members_learners([(learner_id(m), m) for m in members])
        for row in rows:
            row["id"] = row["name"]
        return rows


class Texts:
    """Sentences already written, per table: a trick's "why" depends only on the table's
    version (pages narrate the events themselves). Bounded: past MAX_TEXTS sentences, it
    starts again."""

    MAX_TEXTS = 200_000

    def __init__(self):
        self.by_table: dict[str, dict[tuple, str | None]] = {}
        self.size = 0

    def get(self, code: str, key: tuple, make: Callable[[], str | None]) -> str | None:
        texts = self.by_table.setdefault(code, {})
        if key not in texts:
            if self.size >= self.MAX_TEXTS:
                self.by_table, self.size = {code: {}}, 0
                texts = self.by_table[code]
            texts[key] = make()
            self.size += 1
        return texts[key]

    def forget(self, code: str) -> None:
        self.size -= len(self.by_table.pop(code, {}))


def seat_view(snap: Snapshot, seat: int | None, me: str | None, now: float, texts: Texts | None = None,
              since: int | None = None) -> dict:
    """What one seat (None: a spectator) may know of a table: never the deal, the whole state
    or the random generator, only the engine's view for that seat; of its log, the events from
    `since` on (a page that holds the first `since`), else the last LOG_LINES."""
    texts = Texts() if texts is None else texts
    record = snap.record
    out: dict[str, Any] = {
        "code": snap.code, "version": snap.version, "game": snap.game, "status": snap.status,
        "seats": [{k: info[k] for k in ("seat", "name", "controller", "away", "team")}
                  for info in snap.seats(now)],
        "seat": seat, "creator": me is not None and record["creator"] == learner_id(me),
        "class": record.get("class_code", ""), "last": public_last(record.get("last")),
        "outcome": record.get("outcome"),
        "hands": None, "current_seat": None, "legal": [], "events": [], "events_from": 0, "events_total": 0,
        "why": {"pt": None, "en": None}, "hand_number": 0, "level": snap.level,
        "homework": bool(record.get("homework")),   # one learner's homework table: nobody takes a seat
    }
    state = snap.state
    if state is None:
        return out
    # the engine's own view of the seat, in its own format (`SeatView.to_dict`): the kernel
    # rebuilds it (`classroom.remote_tables`); its log travels apart, from `since` on, and
    # only the events sent are redacted for the seat (`SeatView.events_from`), not the whole log
    total = games.step_count(state)
    if since is None or not 0 <= since <= total:
        first = max(0, total - LOG_LINES)
    else:
        first = max(since, total - MAX_EVENTS_SENT)
    seen = games.view(state, seat).to_dict(events_from=first)
    out["hands"] = seen["hands"]
    out["current_seat"] = state.current_seat
    legal = games.legal_actions(state, seat) if snap.status == "playing" else []
    out["legal"] = [{"action": str(a), "pt": games.describe(state, a, "pt"), "en": games.describe(state, a, "en")}
                    for a in legal]
    out["events"] = seen.pop("events")   # JSON already (cartas.contract: an event is plain data)
    out["events_from"], out["events_total"] = first, total
    out["why"] = {lang: texts.get(snap.code, ("why", snap.version, lang), partial(games.why, state, lang))
                  for lang in ("pt", "en")}
    out["hand_number"] = games.hand_number(state)
    out["view"] = seen
    out["result"] = state.outcome().to_dict()
    return out


def public_last(last: Any) -> Any:
    """A record's last change as every seat may read it: without the id of the page that made
    it (another learner who knew it could hide her moves from that page's stream)."""
    if isinstance(last, dict) and "page" in last:
        return {k: v for k, v in last.items() if k != "page"}
    return last


def page_argument(value: Any) -> str:
    """The id a page gives itself (`page`: 1 to 32 hex digits), "" if absent; anything else is
    refused 400 naming it."""
    if value is None:
        return ""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{1,32}", value):
        raise Refused(400, "bad_request", why="page")
    return value


def table_brief(snap: Snapshot, now: float) -> dict:
    """What the teacher's listing of a class's tables sends of one table: its seats and names,
    level, status, version, hand and score; no card and no event (a table watched is asked
    for on its own, `seat_view`). A spectator's view in shape (`seat` None, no `view`), so a
    kernel reads it as any table (`classroom.remote_tables.RemoteSnapshot`)."""
    record, state = snap.record, snap.state
    return {
        "code": snap.code, "version": snap.version, "game": snap.game, "status": snap.status,
        "class": record.get("class_code", ""), "level": snap.level, "seat": None, "creator": False,
        "seats": [{k: info[k] for k in ("seat", "name", "controller", "away", "team")} for info in snap.seats(now)],
        "hand_number": 0 if state is None else games.hand_number(state),
        "result": None if state is None else state.outcome().to_dict(),
    }


def held_events(values: dict) -> tuple[int, str] | None:
    """What log a page says it holds: (count, seat) from its `events_since` and `events_seat`
    ("none" for a spectator's log), None if it says nothing. 400 for values that are not a
    count and a seat, before anything is done."""
    since, seen_as = values.get("events_since"), values.get("events_seat")
    if since is None:
        return None
    try:
        count = int(since) if isinstance(since, (int, str)) and not isinstance(since, bool) else -1
    except ValueError:
        count = -1
    if (not 0 <= count <= 10**7 or not isinstance(seen_as, (int, str)) or isinstance(seen_as, bool)
            or len(str(seen_as)) > 4):
        raise Refused(400, "bad_request", why="events_since and events_seat")
    return count, str(seen_as)


def events_since(held: tuple[int, str] | None, seat: int | None) -> int | None:
    """The count of `seat`'s events a page holds (`held_events`), None when what it holds is
    another seat's log (it sat down or stood up since) or nothing."""
    if held is None or held[1] != ("none" if seat is None else str(seat)):
        return None
    return held[0]


class Stages:
    """How long each step of a move's way to the waiting pages takes here, in seconds: the
    service's own figures (in `/health`, read by benchmarks/school.py). The last KEEP samples
    of each step are kept."""

    KEEP = 5000

    def __init__(self):
        self.samples: dict[str, deque[float]] = {}

    def add(self, name: str, seconds: float) -> None:
        self.samples.setdefault(name, deque(maxlen=self.KEEP)).append(seconds)

    def summary(self) -> dict[str, dict[str, float]]:
        out = {}
        for name, values in sorted(self.samples.items()):
            ordered = sorted(values)
            if ordered:
                out[name] = {"n": len(ordered), "p50_ms": round(1000 * ordered[len(ordered) // 2], 1),
                             "p95_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1)}
        return out


class HeldSnapshots(dict[str, Snapshot]):
    """The tables' latest snapshots known here (code -> Snapshot): a cache, refreshed by a
    change. A change made here puts its snapshot in (`Service.publish`); a change heard of
    (a NOTIFY "CODE VERSION" newer than the one held, the SQLite poll, or a replica that calls
    `invalidate`) takes the table's out until it is loaded again. A page's plain look at a
    table (its heartbeat: `TableHandler` without `wait`) is answered from here, without the
    store, while the service hears of every change to that table (`Service.cached`).

    Decided rule (replicas): a change made through another replica reaches this cache when its
    NOTIFY does (milliseconds), so a plain look may lag it by that much. That is harmless: a
    page's client keeps the newest version it has seen (`classroom.remote_tables`), a move on
    an older version is refused `moved_on` as always, and a look that must be no older than
    version N asks `after=N-1` (answered at once when the cache has it, else when it is heard)."""

    def invalidate(self, codes: Iterable[str] | None = None) -> None:
        """Forget the snapshots of tables `codes` (None: all of them, e.g. after notifications
        may have been missed): the next look at one loads it from the store."""
        for code in list(self) if codes is None else codes:
            self.pop(code, None)


def _end_wait(future: asyncio.Future) -> None:
    """A long poll's time is up: its waiter's future ends with None (no new version)."""
    if not future.done():
        future.set_result(None)


class Service:
    """Waiting pages and bots over `Classes`, on the tornado loop.

    Per watched table the service keeps the latest snapshot it loaded (`snaps`). A change
    (a NOTIFY "CODE VERSION", the SQLite poll, or a change made here) loads the table once and
    hands that one snapshot to every page waiting on it, whatever their number; a waiter is
    registered before its version is compared, so no change slips between the two.

    `listen(callback, listening)` delivers the NOTIFY payloads and calls `listening()` each
    time LISTEN is in place (`resync`). `replica` names this process (the `X-Cartas-Replica`
    header of its answers and `/health`): one of N identical replicas (the module's rules)."""

    def __init__(self, classes: Classes, hub: Hub,
                 listen: Callable[[Callable[[str], None], Callable[[], None]], None] | None = None,
                 replica: str | None = None):
        self.classes = classes
        self.hub = hub
        self.replica = replica or f"{socket.gethostname()}-{os.getpid()}"
        self.bot_moves = 0      # bot moves saved by this replica
        self.bot_lost = 0       # bot moves this replica worked out but another change saved first
        self._counting = threading.Lock()
        self._pending_reached: list[tuple[str, str]] = []
        self.waiters: dict[str, dict[asyncio.Future, int]] = {}   # code -> {future: version seen}
        self.snaps = HeldSnapshots()   # the cache of tables (see HeldSnapshots)
        self.active: dict[str, float] = {}   # table code -> last time someone looked or moved
        self.loop: asyncio.AbstractEventLoop | None = None
        self._listen = listen
        self._loading: dict[str, bool] = {}  # code -> another change came while loading
        self._changing: dict[str, int] = {}  # code -> changes being saved here (`change`)
        self._heard: dict[str, int] = {}     # code -> newest version notified meanwhile (-1: unsaid)
        self._beats: dict[tuple[str, str], float] = {}
        self._pending_beats: dict[tuple[str, str], float] = {}
        self.texts = Texts()
        self.notifications = 0
        self.requests = 0       # HTTP requests this replica took (a watch stream is one)
        self.streams = 0        # watch streams open here now
        self.stages = Stages()
        self.published: dict[str, tuple[int, float]] = {}  # code -> (version, when it was published)
        self.reached: OrderedDict[tuple[str, str], None] = OrderedDict()  # (user, code): no guess (a cache)
        self.homework_over: set[str] = set()   # homework tables whose result was recorded here

    def has_reached(self, user: str, code: str) -> bool:
        """Whether `user` reached table `code` before, as this replica knows (a cache of
        `service_reached`: `Handler.on_table` asks the store on a miss)."""
        if (user, code) not in self.reached:
            return False
        self.reached.move_to_end((user, code))
        return True

    def reach(self, user: str, code: str, known: bool = False) -> None:
        """`user` reached table `code`: no guess again, here at once and on every replica
        once written (with the presence beats, within a second); `known`: read from the store."""
        if (user, code) not in self.reached and not known:
            self._pending_reached.append((user, code))
        self.reached[(user, code)] = None
        self.reached.move_to_end((user, code))
        while len(self.reached) > REACHED_PAIRS:
            self.reached.popitem(last=False)

    async def take_call(self, user: str, kind: str) -> None:
        """One homework game request of `user`'s (`kind` its bucket), limited across replicas
        (`Classes.take_call`): Refused 429 `too_many_requests`, the wait said, when her bucket
        is empty."""
        wait = await self.classes.write(self.classes.take_call, f"{user} {kind}", HOMEWORK_BURST, HOMEWORK_EVERY)
        if wait > 0:
            raise Refused(429, "too_many_requests", seconds=max(1, round(wait)))

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self._listen is not None:
            self._listen(self.changed_threadsafe, self.resync_threadsafe)
        else:
            asyncio.ensure_future(self._poll_versions())
        asyncio.ensure_future(self._sweep())
        asyncio.ensure_future(self._flush_beats())
        asyncio.ensure_future(self._loop_lag())

    async def _loop_lag(self, every: float = 0.1) -> None:
        """How late the loop runs what is due (`stages["loop_lag"]`): the time every page's
        answer waits behind the others' work."""
        while True:
            began = time.monotonic()
            await asyncio.sleep(every)
            self.stages.add("loop_lag", time.monotonic() - began - every)

    # change notification
    def changed_threadsafe(self, payload: str) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.changed, payload)

    def resync_threadsafe(self) -> None:
        loop = self.loop
        if loop is not None:
            loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.resync()))

    async def resync(self) -> None:
        """LISTEN is in place (again): a change saved while it was not was notified to nobody
        here, so the version of every table watched here is read again, in one query, and each
        one that moved on is loaded as if notified."""
        codes = sorted({*self.waiters, *self.active})
        if not codes:
            return
        try:
            versions = await self.classes.run(self.classes.versions, codes)
        except StoreError:
            return
        for code, version in versions.items():
            known = self.snaps.get(code)
            if known is None or version != known.version:
                self.changed(f"{code} {version}")

    async def change(self, code: str, fn: Callable[..., Any], *args) -> Any:
        """`fn(*args)` on a tables thread: a change of table `code` saved here, which the
        caller publishes as soon as it returns (no await between). A notification of that
        table heard meanwhile (most often the change's own NOTIFY, which can reach the loop
        before the save's answer does) is held until then: read again only if it names a
        version newer than the one published (`changed`), not loaded once more for nothing."""
        self._changing[code] = self._changing.get(code, 0) + 1
        try:
            return await self.classes.run(fn, *args)
        finally:
            left = self._changing.pop(code) - 1
            if left:
                self._changing[code] = left
            else:
                heard = self._heard.pop(code, None)
                if heard is not None and self.loop is not None:   # after the caller's publish
                    self.loop.call_soon(self._changed, code, "" if heard < 0 else str(heard))

    def changed(self, payload: str) -> None:
        """Table "CODE" (or "CODE VERSION") moved on: load it once, wake its waiters with it."""
        self.notifications += 1
        code, _, version = payload.partition(" ")
        if code in self._changing:   # a change saved here is about to be published (`change`)
            heard = int(version) if version.isdigit() else -1
            held = self._heard.get(code)
            self._heard[code] = -1 if -1 in (heard, held) else max(heard, held or 0)
            return
        self._changed(code, version)

    def _changed(self, code: str, version: str) -> None:
        known = self.snaps.get(code)
        if known is not None and version.isdigit() and known.version >= int(version):
            published = self.published.get(code)
            if published is not None and str(published[0]) == version:
                self.stages.add("notify_after_publish", time.monotonic() - published[1])
            return  # already published (a change made here)
        self.snaps.invalidate([code])   # not the latest any more: a look meanwhile asks the store
        if code not in self.waiters and code not in self.active:
            return                      # nobody watches it here: forgotten
        if code in self._loading:
            self._loading[code] = True
            return
        self._loading[code] = False
        asyncio.ensure_future(self._reload(code, known))

    async def _reload(self, code: str, held: Snapshot | None = None) -> None:
        """Load table `code` once per change heard of, from `held` (the version held here
        before: its game advanced, not replayed; `Classes.snapshot`), and wake its waiters."""
        snap = None
        try:
            while True:
                try:
                    snap = await self.classes.run(self.classes.snapshot, code, held)
                    self.publish(snap)
                    held = snap
                except (StoreError, TableError):
                    pass
                if not self._loading.get(code):
                    break
                self._loading[code] = False
        finally:
            self._loading.pop(code, None)
        if snap is not None:   # a change made elsewhere: its maker moves the next bot, unless gone
            await self._bots_for(snap, takeover=True)

    def publish(self, snap: Snapshot) -> None:
        """`snap` is the table's latest version known here: wake who waits for another."""
        known = self.snaps.get(snap.code)
        if known is not None and known.version > snap.version:
            return
        self.snaps[snap.code] = snap
        self.published[snap.code] = (snap.version, time.monotonic())
        if snap.record.get("homework") and snap.state is not None and snap.code not in self.homework_over:
            asyncio.ensure_future(self._homework_over(snap))
        waiting = self.waiters.get(snap.code, {})
        for future, seen in list(waiting.items()):
            if seen != snap.version:
                waiting.pop(future, None)
                if not future.done():
                    future.set_result(snap)

    async def _homework_over(self, snap: Snapshot) -> None:
        """A homework table's item, recorded from its own record once the game is over for
        its learner (`homework.bot_table_over`; first write wins, whoever asks)."""
        lessons = self.classes.lessons
        try:
            if homework.game_result(snap.state, snap.seat_of(snap.record["creator"]) or 0) is None:
                return
            self.homework_over.add(snap.code)
            await self.classes.write(lessons.homework.bot_table_over, snap.record, snap.state)
        except (StoreError, homework.HomeworkError):
            self.homework_over.discard(snap.code)   # the learner's page asks too (TableHomeworkHandler)

    async def load(self, code: str) -> Snapshot:
        """Table `code` read from the store now, and published: asked when nothing of it is
        held here, or when a page holds a newer version than this replica does (a change made
        through another replica, whose notification has not come yet: the page is never
        answered with a version older than its own, and does not wait on a version it has
        left). The newest held here is returned (a notification may have brought a newer one
        meanwhile). A table that is not there (TableError "no_table") is refused, and nothing
        is kept of it."""
        try:
            snap = await self.classes.run(self.classes.snapshot, code)
        except TableError as error:
            if error.code == "no_table":
                self.active.pop(code, None)
            raise
        self.publish(snap)
        held = self.snaps.get(code)
        return held if held is not None and held.version > snap.version else snap

    def cached(self, code: str) -> Snapshot | None:
        """Table `code`'s latest snapshot held here, if the service hears of every change to
        it: on PostgreSQL all of them (LISTEN); on SQLite those of a table someone waits on
        (its version is polled every POLL_EVERY s) and those made here. None: ask the store.
        Its presence is the sweep's (read again every SWEEP_EVERY s for a table in play)."""
        if self._listen is None and code not in self.waiters:
            return None
        return self.snaps.get(code)

    def register(self, code: str, after: int) -> asyncio.Future:
        """A waiter for table `code` to leave version `after` (see `wait`)."""
        self.active[code] = time.monotonic()
        assert self.loop is not None
        future = self.loop.create_future()
        self.waiters.setdefault(code, {})[future] = after
        return future

    async def wait(self, code: str, future: asyncio.Future, timeout: float) -> Snapshot | None:
        """The table's next version for a registered waiter, or None after `timeout` s. The
        waiter's own future is awaited, with one timer that ends it with None: no shield, no
        second future and no task per long poll (issue 35, item 5); it is this waiter's alone,
        so it may be ended or cancelled here (`publish` sets only one not done)."""
        timer = None
        try:
            if not future.done() and timeout > 0:
                assert self.loop is not None
                timer = self.loop.call_later(timeout, _end_wait, future)
                await future
            return future.result() if future.done() and not future.cancelled() else None
        finally:
            if timer is not None:
                timer.cancel()
            waiting = self.waiters.get(code)
            if waiting is not None:
                waiting.pop(future, None)
                if not waiting:
                    self.waiters.pop(code, None)

    def beat(self, code: str, learner: str) -> None:
        """A seated learner's request is her presence at the table: recorded at most every
        HEARTBEAT_EVERY s (presence is counted in tens of seconds), all of them together in
        one transaction a second (`_flush_beats`)."""
        now = time.monotonic()
        if now - self._beats.get((code, learner), -1e9) < HEARTBEAT_EVERY:
            return
        self._beats[(code, learner)] = now
        self._pending_beats[(code, learner)] = self.classes.tables.clock()

    async def _flush_beats(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            if self._pending_reached:
                reached, self._pending_reached = self._pending_reached, []
                try:
                    await self.classes.write(self.classes.add_reached, reached)
                except StoreError:
                    self._pending_reached.extend(reached)   # written next time
            if not self._pending_beats:
                continue
            beats, self._pending_beats = self._pending_beats, {}
            try:
                await self.classes.write(self.classes.touch_many, [(c, who, at) for (c, who), at in beats.items()])
            except StoreError:
                for (c, who) in beats:   # written next time
                    self._beats.pop((c, who), None)

    async def _poll_versions(self) -> None:
        """SQLite: one version query per watched table every POLL_EVERY s."""
        while True:
            await asyncio.sleep(POLL_EVERY)
            for code in list(self.waiters):
                try:
                    version = await self.classes.run(self.classes.tables.repo.version, code)
                except StoreError:
                    continue
                known = self.snaps.get(code)
                if version is not None and (known is None or version != known.version):
                    self.changed(f"{code} {version}")

    # bots
    async def _bots_for(self, snap: Snapshot, takeover: bool = False) -> None:
        """Move the bot due on `snap`, if the seat to play is a bot's, once its pace has passed
        (`takeover`, a change another replica made: once the table has been still for pace +
        TAKEOVER, its maker being gone). Exactly once across replicas by the table's CAS; a
        table that moved on meanwhile is left to its newer version's turn, without a query."""
        tables = self.classes.tables
        if snap.status != "playing" or snap.state.current_seat is None:
            return
        if snap.controller(snap.state.current_seat, tables.clock()) != "bot":
            return
        wait = snap.record["moved_at"] + snap.record["pace"] + (TAKEOVER if takeover else 0.0) - tables.clock()
        await asyncio.sleep(max(0.0, wait) + 0.01)
        known = self.snaps.get(snap.code)
        if known is not None and known.version > snap.version:
            return
        moved = await self.change(snap.code, self._bot_move, snap.code, snap.version)
        if moved is not None:
            self.publish(moved)
            await self._bots_for(moved)

    def _bot_move(self, code: str, version: int) -> Snapshot | None:
        """On a store thread: the bot move due on version `version` of table `code`, saved by
        CAS (None: not due, or another change, a replica's maybe, was saved first)."""
        tables = self.classes.tables
        # read from the snapshot held here (its game advanced, not replayed: `Tables.reload`),
        # with the table's presence read again: whether the seat is a bot's now is the store's
        snap = tables.reload(code, self.snaps.get(code))
        snap.presence = tables.repo.presence(code)
        if snap.version != version or not tables.bot_due(snap, tables.clock()):
            return None
        moved = tables.bot_move(snap)
        with self._counting:
            if moved is None:
                self.bot_lost += 1
            else:
                self.bot_moves += 1
        return moved

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            await self.sweep_once()

    async def sweep_once(self) -> None:
        """Every SWEEP_EVERY s, for each table in play watched here: with its presence read
        again, a seat whose learner went away is a bot's now; move it. The presence of all
        those tables is one query, whatever their number (a query per table, every 2 s, queued
        before the learners' moves). Tables nobody looked at for IDLE_TABLE s are forgotten."""
        tables = self.classes.tables
        now = time.monotonic()
        playing: list[Snapshot] = []
        for code, at in list(self.active.items()):
            if now - at > IDLE_TABLE and code not in self.waiters:
                self.active.pop(code, None)
                self.snaps.pop(code, None)
                self.texts.forget(code)
                self.homework_over.discard(code)   # bounded: a later look asks the store again (first write wins)
                continue
            try:
                snap = self.snaps.get(code) or await self.classes.run(self.classes.snapshot, code)
            except (StoreError, TableError):
                continue
            if snap.status == "playing":
                playing.append(snap)
        try:
            presence = await self.classes.run(self.classes.presence_of, [snap.code for snap in playing])
        except StoreError:
            presence = {}
        for snap in playing:
            if snap.code not in presence:
                continue
            snap.presence = presence[snap.code]
            if not tables.bot_due(snap, tables.clock()):
                continue
            try:
                moved = await self.change(snap.code, self._bot_move, snap.code, snap.version)
            except (StoreError, TableError):
                continue
            if moved is not None:
                self.publish(moved)
                asyncio.ensure_future(self._bots_for(moved))
        for key, at in list(self._beats.items()):
            if now - at > IDLE_TABLE:
                self._beats.pop(key, None)


# HTTP ----------------------------------------------------------------------------------------
def check_json(value: Any) -> None:
    """Refused (400) if `value`, a request's parsed JSON, nests lists or objects more than
    MAX_DEPTH levels deep or holds a NUL in a text (a key or a value). Walked without recursion."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if "\0" in item:
                raise Refused(400, "control_character", where_pt="um texto do pedido",
                              where_en="a text of the request",
                              char="U+0000")
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise Refused(400, "too_nested", most=MAX_DEPTH)
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)


def encode_answer(value: Any) -> bytes:
    """An answer's JSON, UTF-8 (as json.dumps(value, ensure_ascii=False) encodes it, the
    same value to any reader), by orjson when it is installed: a seat's view is encoded some
    ten times faster than by json, and every long-poll answer is one (issue 35, item 5).
    Keys that are not texts are written as json writes them (their text); a value orjson
    does not take (an integer over 64 bits) is left to json."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:   # orjson.JSONEncodeError: e.g. an integer orjson does not write
            pass
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


@web.stream_request_body
class Handler(web.RequestHandler):
    service: Service

    def initialize(self, service: Service) -> None:
        self.service = service
        service.requests += 1
        self.set_header("X-Cartas-Replica", service.replica)   # which of the replicas answered
        self.chunks: list[bytes] = []      # the body as read, once prepare() let it in
        self.known_user: str | None = None
        self.answered = False              # a refusal was sent
        self.began = time.monotonic()
        self.stage: str | None = None      # the step this request's whole time counts as
        self.since = self.began            # ... from this moment

    def on_finish(self) -> None:
        if self.stage is not None:
            self.service.stages.add(self.stage, time.monotonic() - self.since)

    async def prepare(self) -> None:
        """Before any byte of a body is read (the handler streams its body): a name or code
        in the path (a learner's, a class's, a table's) with a control character is refused
        (`values.control_character`); a request with a body is refused if it declares more
        than MAX_BODY bytes, then unless its token is a learner's. A refused body is never
        read: tornado closes the connection once the refusal is sent."""
        for arg in self.path_args:
            char = control_character(arg)
            if char is not None:
                self.refuse(Refused(400, "control_character", where_pt="um nome ou código do endereço",
                                    where_en="a name or code in the address", char=char))
                return
        declared = self.request.headers.get("Content-Length", "0").strip()
        if not declared.isdigit():
            self.refuse(Refused(400, "bad_request", why="Content-Length"))
            return
        if int(declared) > MAX_BODY:
            self.refuse(Refused(413, "too_large", most=MAX_BODY))
            return
        if self.request.method in ("POST", "PUT", "PATCH"):
            await self.guarded(self.user, reply=False)
            if self.answered:
                return
        if isinstance(self.request.connection, HTTP1Connection):  # a body in chunks: cut at MAX_BODY too
            self.request.connection.set_max_body_size(MAX_BODY)

    def data_received(self, chunk: bytes) -> None:
        self.chunks.append(chunk)

    def check_xsrf_cookie(self) -> None:  # token-authenticated API: no cookies are used
        pass

    def compute_etag(self) -> None:  # answers are `no-store`: no hash of every body
        return None

    def write_error(self, status_code: int, **kwargs) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": "internal", "pt": "Erro interno do serviço.",
                                "en": "The service failed."}))

    def refuse(self, error: Refused) -> None:
        self.answered = True
        self.set_status(error.status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": error.code, "pt": error.pt, "en": error.en}))

    def reply(self, value: Any) -> None:
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(encode_answer(value))

    async def user(self) -> str:
        """The hub user of the request's token (asked once per request: prepare() asks it
        first for a request with a body)."""
        if self.known_user is not None:
            return self.known_user
        match = re.fullmatch(r"(?:token|bearer)\s+(\S+)", self.request.headers.get("Authorization", ""),
                             re.IGNORECASE)
        if not match:
            raise Refused(401, "no_token")
        model = await self.service.hub.user_for_token(match.group(1))
        if not model:
            raise Refused(401, "bad_token")
        if model.get("kind", "user") != "user" or not model.get("name"):
            raise Refused(403, "not_learner")
        self.known_user = str(model["name"])
        return self.known_user

    async def teacher(self) -> str:
        user = await self.user()
        if not await self.service.hub.is_teacher(user):
            raise Refused(403, "teachers_only")
        return user

    async def teacher_of(self, group: object) -> tuple[str, list[str]]:
        """The caller, who teaches class `group`, and the class's members: 403 `teachers_only`
        for a learner, 400 for a group that is no name, 404 for no such class, 403
        `not_your_class` for a class she does not teach."""
        user = await self.teacher()
        members = await self.members(group)
        await self.teaches(user, str(group))  # a name: members() refused anything else
        return user, members

    async def members(self, group) -> list[str]:
        """The members of class `group` (a hub group); 404 if there is no such class."""
        if not isinstance(group, str) or not 0 < len(group) <= 100:
            raise Refused(400, "bad_request", why="class")
        hub = self.service.hub
        members = await hub.members(group) if hub.is_class(group) else None
        if members is None:
            raise Refused(404, "no_class", name=group[:40])
        return members

    async def teaches(self, user: str, group: str) -> None:
        """403 `not_your_class` unless `user` teaches class `group`."""
        if not await self.service.hub.teaches(user, group):
            raise Refused(403, "not_your_class", name=group[:40])

    async def on_table(self, user: str, code: str, work: Callable[[], Awaitable[Any]]) -> Any:
        """`work()`, a request of `user` about table `code` (cleaned), with her guesses of
        codes limited (the module's rules): 429 while one of her scopes waits."""
        service = self.service
        if service.has_reached(user, code):
            return await work()
        if await service.classes.run(service.classes.has_reached, user, code):   # reached on another replica
            service.reach(user, code, known=True)
            return await work()
        groups = (await service.hub.user(user)).get("groups") or []
        where = [f"hub:{user[:100]}"] + [f"class:{g}" for g in groups if service.hub.is_class(g)]
        limiter = service.classes.limiter
        try:
            await service.classes.run(limiter.check, attempts.TABLE_CODE, where)
        except attempts.TooManyTries as error:
            raise Refused(429, "too_many_tries", error.message("pt"), error.message("en")) from None
        try:
            value = await work()
        except TableError as error:
            if error.code == "no_table":
                await service.classes.write(limiter.failed, attempts.TABLE_CODE, where)
            else:                       # refused at a table that is there: no guess any more
                service.reach(user, code)
            raise
        service.reach(user, code)
        return value

    def body(self) -> dict:
        """The request's JSON object: refused (400, saying why) if it is too long, not JSON,
        not an object, nested more than MAX_DEPTH levels (however deep: no RecursionError) or
        holding a NUL in a text (no store text holds one)."""
        raw = b"".join(self.chunks)
        if len(raw) > MAX_BODY:
            raise Refused(400, "bad_request", why="body too long")
        try:
            value = json.loads(raw or b"{}")
        except RecursionError:
            raise Refused(400, "too_nested", most=MAX_DEPTH) from None
        except ValueError:
            raise Refused(400, "bad_request", why="not JSON") from None
        if not isinstance(value, dict):
            raise Refused(400, "bad_request", why="not a JSON object")
        check_json(value)
        return value

    async def guarded(self, work, reply: bool = True) -> None:
        """`work()`'s value as the answer (none if not `reply`), or the refusal it raised."""
        try:
            value = await work()
            if reply:
                self.reply(value)
        except Refused as error:
            self.refuse(error)
        except TableError as error:
            status = {"no_table": 404, "not_seated": 403, "not_creator": 403}.get(error.code, 409)
            self.refuse(Refused(status, error.code, error.message("pt"), error.message("en")))
        except StoreError:
            self.refuse(Refused(503, "store_down"))
        except (httpclient.HTTPClientError, OSError):
            self.refuse(Refused(503, "hub_down"))
        except web.HTTPError as error:   # HubAuth could not ask the hub (it raises 500/502)
            if error.status_code < 500:
                raise
            self.refuse(Refused(503, "hub_down"))
        except Exception as error:  # a rule the engine refuses (RuleError) or bad input
            message = getattr(error, "message", None)
            if callable(message):
                try:
                    self.refuse(Refused(409, getattr(error, "code", "refused"), message("pt"), message("en")))
                    return
                except Exception:
                    pass
            if isinstance(error, (ValueError, TypeError, KeyError)):
                self.refuse(Refused(400, "bad_request", why=type(error).__name__))
                return
            raise


class MeHandler(Handler):
    async def get(self):
        async def work():
            user = await self.user()
            return {"name": user, "teacher": await self.service.hub.is_teacher(user)}
        await self.guarded(work)


class ProgressHandler(Handler):
    async def get(self, who: str):
        async def work():
            user = await self.user()
            if who != user and not await self.service.hub.teaches_learner(user, who):
                raise Refused(403, "not_yours")
            return await self.service.classes.run(self.service.classes.learner_progress, who)
        await self.guarded(work)

    async def post(self, who: str):
        async def work():
            user = await self.user()
            if who != user:
                raise Refused(403, "not_yours")   # a teacher writes nobody's answers either
            body = self.body()
            lesson, answers = body.get("lesson"), body.get("answers")
            if not isinstance(lesson, str) or not 0 < len(lesson) <= 100 or not re.fullmatch(r"[\w.:-]+", lesson):
                raise Refused(400, "bad_request", why="lesson")
            if (not isinstance(answers, list) or not 0 < len(answers) <= MAX_ANSWERS
                    or not all(isinstance(a, bool) for a in answers)):
                raise Refused(400, "bad_request", why="answers")
            skills = body.get("skills")  # one per answer, "" for none (classroom.mastery)
            if skills is not None and (not isinstance(skills, list) or len(skills) != len(answers) or not all(
                    isinstance(s, str) and (s == "" or s in mastery.BY_KEY) for s in skills)):
                raise Refused(400, "bad_request", why="skills")
            await self.service.classes.write(self.service.classes.record, user, lesson, answers, skills)
            return {"recorded": len(answers)}
        await self.guarded(work)


class ClassesHandler(Handler):
    async def get(self):
        async def work():
            return await self.service.hub.classes_of(await self.teacher())
        await self.guarded(work)


class ClassHandler(Handler):
    async def get(self, group: str):
        async def work():
            _, members = await self.teacher_of(group)
            rows = await self.service.classes.run(self.service.classes.class_rows, members)
            return {"name": group, "learners": rows}
        await self.guarded(work)


class ClassTablesHandler(Handler):
    async def get(self, group: str):
        async def work():
            teacher, _ = await self.teacher_of(group)
            tables = self.service.classes.tables
            snaps = await self.service.classes.run(self.service.classes.list_class, group)
            for snap in snaps:
                self.service.reach(teacher, snap.code)
            now = tables.clock()
            return [table_brief(s, now) for s in snaps]
        await self.guarded(work)


class TablesHandler(Handler):
    async def post(self):
        """A new table, its creator (the caller) seated; its class is the caller's class
        (`class` in the body, if she is in that group; else her first group)."""
        async def work():
            user = await self.user()
            body = self.body()
            groups = [g for g in (await self.service.hub.user(user)).get("groups") or []
                      if self.service.hub.is_class(g)]
            wanted = body.get("class")
            class_code = str(wanted) if wanted in groups else (groups[0] if groups else "")
            game = body.get("game")
            if not isinstance(game, str):
                raise Refused(400, "bad_request", why="game")
            seat = body.get("seat", 0)
            kwargs = {k: body[k] for k in ("seats", "options", "timeout", "pace", "level") if k in body}
            if "level" in kwargs:   # the bots' level: refused here, naming it, before anything is made
                kwargs["level"] = games.check_level(kwargs["level"])
            pace = kwargs.get("pace", PACE_RANGE[0])
            if (not isinstance(pace, (int, float)) or isinstance(pace, bool)
                    or not PACE_RANGE[0] <= pace <= PACE_RANGE[1]):
                raise Refused(400, "bad_request", why=f"pace: {PACE_RANGE[0]} to {PACE_RANGE[1]} seconds")
            tables = self.service.classes.tables

            def create():
                code = tables.create(game, learner_id(user), clean_name(user), seat=seat,
                                     class_code=class_code, **kwargs)
                return self.service.classes.snapshot(code)
            snap = await self.service.classes.run(create)
            self.service.active[snap.code] = time.monotonic()
            self.service.reach(user, snap.code)
            return seat_view(snap, snap.seat_of(learner_id(user)), user, tables.clock(), self.service.texts)
        await self.guarded(work)


class TableHandler(Handler):
    async def get(self, code: str):
        """The caller's view of table `code`: her seat's if she sits there, a spectator's
        otherwise. `seat=N` asks for seat N's view, refused (403) unless N is hers. With
        `after=V`, waits (up to `wait` s) until the table's version is no longer V. A seated
        learner's request counts as her presence at the table."""
        async def work():
            user = await self.user()
            code_ = clean_code(code)
            return await self.on_table(user, code_, lambda: self.look(user, code_))
        await self.guarded(work)

    async def look(self, user: str, code_: str) -> dict:
        tables = self.service.classes.tables
        me = learner_id(user)
        after_version = version_argument(self.get_argument("after", None), "after")
        try:
            waiting = min(LONG_POLL, max(0.0, float(self.get_argument("wait", "0"))))
        except ValueError:
            raise Refused(400, "bad_request", why="wait") from None
        held = held_events({k: self.get_argument(k, None) for k in ("events_since", "events_seat")})
        service = self.service
        if after_version is not None and waiting > 0:
            future = service.register(code_, after_version)  # before comparing: no change slips by
            snap = service.snaps.get(code_)
            if snap is None or snap.version < after_version:
                try:
                    snap = await service.load(code_)
                except BaseException:   # nothing is left waiting on a table not there
                    await service.wait(code_, future, 0)
                    raise
            if snap.version == after_version:
                if snap.seat_of(me) is not None:
                    service.beat(code_, me)
                got = await service.wait(code_, future, waiting)
                published = service.published.get(code_)
                if got is not None and published is not None and published[0] == got.version:
                    service.stages.add("wake_resume", time.monotonic() - published[1])
                    self.stage, self.since = "wake_answer", published[1]
                if got is None:   # no change within `wait`: answered from the cache when it is fresh
                    got = service.cached(code_) or await service.classes.run(service.classes.snapshot, code_)
                snap = got
            else:
                await service.wait(code_, future, 0)  # unregister
        else:   # a plain look (a page's heartbeat): from the cache when it is fresh
            service.active[code_] = time.monotonic()   # before loading: a change meanwhile reloads it
            snap = service.cached(code_)
            if snap is None:
                snap = await service.load(code_)
        mine = snap.seat_of(me)
        asked = self.get_argument("seat", None)
        if asked is not None and asked != str(mine):
            raise Refused(403, "not_your_seat")
        if mine is not None and (after_version is None or waiting == 0):
            service.beat(snap.code, me)
        return seat_view(snap, mine, user, tables.clock(), service.texts, events_since(held, mine))


def version_argument(value: str | None, what: str) -> int | None:
    """A table version a request says (`after`): None if absent, else a whole number from 0
    to MAX_VERSION; anything else is refused 400 naming `what`."""
    if value is None:
        return None
    text = value.strip()
    if not text.isdigit() or len(text) > 13 or int(text) > MAX_VERSION:
        raise Refused(400, "bad_request", why=what)
    return int(text)


class TableWatchHandler(Handler):
    """A page's watch of one table: one stream of its seat's views (the module's rules)."""

    gone = False                                   # the client closed the connection
    waiting: asyncio.Future | None = None          # the waiter this stream awaits now

    async def get(self, code: str):
        """Check who asks and what she says (once), then stream (`watch`). `after=V`: the
        version the page holds (absent: the current view is the first line); `events_since`
        and `events_seat`: the log it holds; `seat=N`: refused 403 unless N is her seat;
        `page`: the page's id (`page_argument`), whose own moves' versions are not sent."""
        opened: list[tuple] = []

        async def work():
            user = await self.user()
            code_ = clean_code(code)
            after = version_argument(self.get_argument("after", None), "after")
            held = held_events({k: self.get_argument(k, None) for k in ("events_since", "events_seat")})
            page = page_argument(self.get_argument("page", None))
            snap = await self.on_table(user, code_, lambda: self.first(code_))
            asked = self.get_argument("seat", None)
            if asked is not None and asked != str(snap.seat_of(learner_id(user))):
                raise Refused(403, "not_your_seat")
            opened.append((user, code_, -1 if after is None else after, held, page))
        await self.guarded(work, reply=False)
        if opened and not self.answered:
            await self.watch(*opened[0])

    async def first(self, code: str) -> Snapshot:
        """The table as the stream starts (from the cache when it is fresh): a table that is
        not there is refused (404) before the stream opens, and nothing is kept of it."""
        service = self.service
        service.active[code] = time.monotonic()
        snap = service.cached(code)
        if snap is None:
            snap = await service.load(code)
        return snap

    async def watch(self, user: str, code: str, version: int, held: tuple[int, str] | None, page: str) -> None:
        """Write each version of table `code` after `version` as a line, until the client
        goes, the stream's time is up or the table cannot be read. One waiter (a future and
        a timer) per version or keep-alive, registered before the version is compared, so no
        change slips by between two lines. A version made by a move of the stream's own page
        (`page`, said by the stream and by the move) is not written: the move's answer
        brought it to that page; the next line's log starts where this stream's last one
        left it, which the page joins to the log it holds."""
        service = self.service
        tables = service.classes.tables
        me = learner_id(user)
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + STREAM_LIFETIME
        cut = loop.call_later(STREAM_LIFETIME + STREAM_KEEPALIVE, self.cut)
        service.streams += 1
        self.set_header("Content-Type", "application/x-ndjson")   # not compressed: each line is sent as it is
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Accel-Buffering", "no")
        stream = getattr(self.request.connection, "stream", None)
        if stream is not None:   # each line leaves at once, not held back for more (Nagle)
            stream.set_nodelay(True)
        try:
            await self.flush()   # the headers: the page knows its stream is open
            while not self.gone:
                future = service.register(code, version)
                snap = service.snaps.get(code)
                if snap is None or snap.version < version:
                    try:
                        snap = await service.load(code)
                    except BaseException:
                        await service.wait(code, future, 0)
                        raise
                if snap.version == version:
                    if snap.seat_of(me) is not None:
                        service.beat(code, me)
                    left = deadline - time.monotonic()
                    self.waiting = future
                    got = await service.wait(code, future, min(STREAM_KEEPALIVE, max(0.0, left)))
                    self.waiting = None
                    if got is None:
                        if self.gone or left <= STREAM_KEEPALIVE:
                            break
                        self.write(b"\n")
                        await self.flush()
                        continue
                    snap = got
                else:
                    await service.wait(code, future, 0)   # unregister: the line is sent at once
                if page and (snap.record.get("last") or {}).get("page") == page:
                    version = snap.version   # her own move: its answer brought it to her page
                    continue
                mine = snap.seat_of(me)
                view = seat_view(snap, mine, user, tables.clock(), service.texts, events_since(held, mine))
                held, version = (view["events_total"], "none" if mine is None else str(mine)), snap.version
                published = service.published.get(code)
                if published is not None and published[0] == version:
                    service.stages.add("wake_stream", time.monotonic() - published[1])
                self.write(encode_answer(view) + b"\n")
                await self.flush()
        except (StreamClosedError, StoreError, TableError):
            pass   # the client went, or the table cannot be read: the page's next stream says why
        except Exception:   # no refusal can follow the headers: the stream ends, the error is logged
            app_log.exception("the watch stream of table %s ended on an error", code)
        finally:
            cut.cancel()
            service.streams -= 1
        if not self.gone and not self._finished:
            self.finish()

    def cut(self) -> None:
        """The stream outlived STREAM_LIFETIME by STREAM_KEEPALIVE s: its client does not read
        it (a write waits on it). Its connection is closed."""
        connection = self.request.connection
        if not self._finished and isinstance(connection, HTTP1Connection):
            connection.close()

    def on_connection_close(self) -> None:
        """The client went: the wait ends now, not at the next line."""
        self.gone = True
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_result(None)


class TableActionHandler(Handler):
    async def post(self, code: str, action: str):
        """join {seat}, leave, start, move {action, version}: always as the caller herself."""
        async def work():
            user = await self.user()
            self.service.stages.add(f"{action}_auth", time.monotonic() - self.began)
            code_ = clean_code(code)
            return await self.on_table(user, code_, lambda: self.act(user, code_, action))
        await self.guarded(work)

    async def act(self, user: str, code: str, action: str) -> dict:
        self.stage = f"{action}_answer" if action == "move" else None
        me = learner_id(user)
        body = self.body()
        held = held_events(body)
        tables = self.service.classes.tables
        if action == "join":
            seat = body.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise Refused(400, "bad_request", why="seat")
            run = lambda: tables.join(code, me, clean_name(user), seat)  # noqa: E731
        elif action == "leave":
            run = lambda: tables.leave(code, me)  # noqa: E731
        elif action == "start":
            run = lambda: tables.start(code, me)  # noqa: E731
        elif action == "move":
            move, version = body.get("action"), body.get("version")
            if not isinstance(move, str) or not isinstance(version, int) or isinstance(version, bool):
                raise Refused(400, "bad_request", why="action and version")
            # the version she saw is most often the one held here: no load, and her presence
            # goes with the others' beats (one transaction a second), so the move is one save
            known = self.service.snaps.get(code)
            page = page_argument(body.get("page"))
            run = lambda: tables.move(code, me, move, version, known=known, touch=False, page=page)  # noqa: E731
        else:
            raise Refused(404, "not_found")
        began, started = time.monotonic(), [0.0]

        def timed():
            started[0] = time.monotonic()
            done = run()
            done.state  # noqa: B018  # its game loaded here, not on the loop (a seat's change carries none)
            return done
        snap = await self.service.change(code, timed)
        self.service.stages.add(f"{action}_queue", started[0] - began)
        self.service.stages.add(f"{action}_store", time.monotonic() - started[0])
        self.service.active[snap.code] = time.monotonic()
        if action == "move":
            self.service.beat(snap.code, me)
        self.service.publish(snap)          # the pages waiting here see it at once
        asyncio.ensure_future(self.service._bots_for(snap))
        mine = snap.seat_of(me)
        return seat_view(snap, mine, user, tables.clock(), self.service.texts, events_since(held, mine))


# Homework, skills and the live quiz (classroom.homework, .mastery, .live) -------------------------
# Decided rules (the lessons' own are docs/rules.md#homework, #mastery-levels, #live-quiz-points):
# - A learner's classes are her hub groups (the teachers group aside). She lists and answers the
#   homework of those classes only, always as herself: the learner is the token's, never a
#   field of the request. Until she has done a scenario item, its answer key and the coach's
#   reason are not sent to her (the store judges her answer).
# - A teacher of a class (as for the classes: a hub admin or a member of `teachers-<class>`)
#   composes homework for it, lists its homework, reads an assignment whole (its key) and its
#   learners x items, one row per member of the group; learners are named by their hub name, as
#   in the class rows. Another class's she reads as any learner would (403).
# - Skills: a learner reads her own levels and the skills due for review by the service's
#   clock; a teacher reads her class's levels (its members').
# - The live quiz: a teacher starts a session for her class (a hub group) and, with the host
#   token it gives her projector, asks, closes and ends; only the class's teachers read the
#   board (it holds the right answer while the question is open). A session is served only to
#   its class: its question (`GET /api/live/CODE`), joining and answering are refused 403
#   `other_class` to anyone neither in the class's group nor its teacher. A learner joins a
#   session of one of her groups by its code and answers once per question; the store's clock
#   stamps her answer.
# - Every field a request carries is checked here (types, sizes, ids); a refusal of the lessons'
#   rules is {"error": code, "pt", "en", "family": "homework" | "live", "fields"}, with 400 for
#   bad input, 403 for what is not hers, 404 for what does not exist, 409 for a rule of the
#   quiz (closed, already answered, ...); `fields` let a page say it in its own words.
LESSON_TEXT = {
    "homework": ("A tarefa foi recusada ({code}).", "The homework was refused ({code})."),
    "service_deals": ("No JupyterHub, uma partida contra os robôs só vale para a tarefa se o serviço das turmas a "
                      "distribuir: jogue-a pela página da tarefa ({code}).",
                      "On JupyterHub a game against the bots counts for the homework only when the class service "
                      "deals it: play it from the homework's page ({code})."),
}
LESSON_STATUS = {"no_assignment": 404, "not_yours": 403, "no_session": 404, "not_host": 403,
                 "other_class": 403, "bad_code": 400, "bad_question": 400, "bad_seconds": 400,
                 "bad_choice": 400, "service_deals": 409, "item_done": 409}
MAX_NUMBER = 1_000_000      # a live question's number, at most
MAX_CHOICE = 40             # characters of a homework answer (a card, "accept", "won", ...)
MAX_SECRET = 200            # characters of a host token


def _hub_names(rows: dict) -> dict:
    """{learner id: value} keyed by hub names (`hub:ana` -> `ana`), as a teacher reads them."""
    return {(k[4:] if k.startswith("hub:") else k): v for k, v in rows.items()}


class Lessons:
    """Homework, skills, the live quiz, the tournament and the checks as the hub names them
    (no HTTP): the services of the one `StoreClassroom` (classroom.interface), each call a store
    transaction, run on one of the answers threads (`Classes.write`). Here a learner is her hub
    user (`learner_id`), her classes her hub groups, a class's learners its group's members."""

    def __init__(self, room: StoreClassroom):
        self.room = room
        self.homework = room.homework()
        self.mastery = room.mastery()
        self.quiz = room.live()
        self.tournaments = room.tournaments()  # issue 34: the class tournament
        self.checks = room.checks()            # a check before and after (classroom.checks)

    def learner_homework(self, user: str, groups: list[str]) -> list[dict]:
        return self.homework.learner_homework(learner_id(user), groups, hide_keys=True)

    def learner_assignment(self, user: str, groups: list[str], ident: str) -> dict:
        return self.homework.learner_assignment(learner_id(user), ident, groups, hide_keys=True)

    def results(self, task: dict, members: list[str]) -> dict | None:
        found = self.homework.class_results(task["id"], [(learner_id(m), m) for m in members])
        if found is not None:
            for row in found["learners"]:
                row["id"] = row["name"]
        return found

    def learner_skills(self, user: str) -> dict:
        return {"levels": self.mastery.learner_levels(learner_id(user)),
                "due": self.mastery.due_skills(learner_id(user))}

    def class_skills(self, group: str, members: list[str]) -> dict:
        found = self.mastery.class_levels(group, [learner_id(m) for m in members])
        return {**found, "learners": _hub_names(found["learners"])}

    def session_class(self, code: str) -> str:
        return self.quiz.session_class(code)


class LessonHandler(Handler):
    """A handler of homework, skills or the live quiz (see the rules above)."""

    @property
    def lessons(self) -> Lessons:
        return self.service.classes.lessons

    async def store(self, fn, *args):
        return await self.service.classes.write(fn, *args)

    async def live_code(self, user: str, work: Callable[[], Awaitable[Any]]) -> Any:
        """`work()` on a live-quiz code, `user`'s guesses of codes limited like table codes
        (issue 33, item 6; attempts.LIVE_CODE in her own scope `hub:<name>` only, so her
        guessing slows nobody else): 429 while she waits; a code with no session counts, and so
        does another class's (its 403 would otherwise tell her the code exists)."""
        limiter = self.service.classes.limiter
        where = [f"hub:{user[:100]}"]
        try:
            await self.service.classes.run(limiter.check, attempts.LIVE_CODE, where)
        except attempts.TooManyTries as error:
            raise Refused(429, "too_many_tries", error.message("pt"), error.message("en")) from None
        try:
            return await work()
        except live.LiveError as error:
            if error.code in ("no_session", "other_class"):  # both a code she may not use
                await self.service.classes.write(limiter.failed, attempts.LIVE_CODE, where)
            raise

    async def groups(self, user: str) -> list[str]:
        """The user's classes: her hub groups but the teachers group."""
        hub = self.service.hub
        return [g for g in (await hub.user(user)).get("groups") or [] if hub.is_class(g)]

    async def session_of_mine(self, user: str, code: str) -> str:
        """The class of live session `code`, if `user` is one of its learners (a member of the
        class's hub group) or teachers; 403 `other_class` otherwise (nothing of it is sent)."""
        session_class = await self.store(self.lessons.session_class, code)
        if session_class in await self.groups(user) or await self.service.hub.teaches(user, session_class):
            return session_class
        raise live.LiveError("other_class")

    def refuse(self, error: Refused) -> None:
        if error.family is None:
            super().refuse(error)
            return
        self.answered = True
        self.set_status(error.status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": error.code, "pt": error.pt, "en": error.en, "family": error.family,
                                "fields": error.fields}, ensure_ascii=False, default=str))

    # The families whose errors this handler refuses in their own words: (error class, family,
    # status by code, status otherwise); a subclass adds its own.
    FAMILIES: ClassVar[tuple[tuple[type[Exception], str, Mapping[str, int], int], ...]] = (
        (live.LiveError, "live", LESSON_STATUS, 409),
    )

    def family_refusal(self, error: Exception) -> Refused | None:
        """`error` as its family's refusal, if it is one of FAMILIES' (or homework's)."""
        if isinstance(error, homework.HomeworkError):
            pt, en = (s.format(code=error.code) for s in LESSON_TEXT.get(error.code, LESSON_TEXT["homework"]))
            refused = Refused(LESSON_STATUS.get(error.code, 400), error.code, pt, en)
            refused.family, refused.fields = "homework", dict(error.fields)
            return refused
        for kind, family, statuses, otherwise in self.FAMILIES:
            if isinstance(error, kind):
                code = getattr(error, "code", "")
                return Refused.of_family(error, family, statuses.get(code, otherwise))
        return None

    async def guarded(self, work, reply: bool = True) -> None:
        async def checked():
            try:
                return await work()
            except Exception as error:
                refused = self.family_refusal(error)
                if refused is None:
                    raise
                raise refused from None
        await super().guarded(checked, reply)


def _whole(value, low: int, high: int, what: str) -> int:
    """`value` if it is a whole number from `low` to `high`; 400 naming `what` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(400, "bad_request", why=f"{what}: a whole number from {low} to {high}")
    return value


def _text(value, longest: int, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= longest:
        raise Refused(400, "bad_request", why=f"{what}: text of 1 to {longest} characters")
    return value


class HomeworkListHandler(LessonHandler):
    async def get(self):
        """The caller's homework: her classes' assignments with her states."""
        async def work():
            user = await self.user()
            return await self.store(self.lessons.learner_homework, user, await self.groups(user))
        await self.guarded(work)

    async def post(self):
        """A teacher's new assignment: {class, title, due, pass_mark, items}."""
        async def work():
            await self.teacher()
            body = self.body()
            group = body.get("class")
            await self.teacher_of(group)
            return await self.store(self.lessons.homework.create, group, body.get("title"), body.get("due"),
                                    body.get("pass_mark"), body.get("items"))
        await self.guarded(work)


class HomeworkHandler(LessonHandler):
    async def get(self, ident: str):
        """One assignment: whole for a teacher; for a learner, hers with her states (403 if
        it is another class's)."""
        async def work():
            user = await self.user()
            ident_ = homework.clean_id(ident)
            if await self.service.hub.is_teacher(user):
                found = await self.store(self.lessons.homework.assignment, ident_)
                if found is None:
                    raise homework.HomeworkError("no_assignment")
                if await self.service.hub.teaches(user, found["class_code"]):
                    return found        # whole, the key included: for her class's teachers only
            return await self.store(self.lessons.learner_assignment, user, await self.groups(user), ident_)
        await self.guarded(work)


class HomeworkResultsHandler(LessonHandler):
    async def get(self, ident: str):
        """A teacher reads learners x items of an assignment: every member of its class."""
        async def work():
            teacher = await self.teacher()
            task = await self.store(self.lessons.homework.assignment, homework.clean_id(ident))
            if task is None:
                raise homework.HomeworkError("no_assignment")
            await self.teaches(teacher, task["class_code"])
            members = await self.service.hub.members(task["class_code"]) or []
            return await self.store(self.lessons.results, task, members)
        await self.guarded(work)


class HomeworkAnswerHandler(LessonHandler):
    async def post(self, ident: str):
        """The caller's result for one item: {item, choice}, as herself only."""
        async def work():
            user = await self.user()
            body = self.body()
            item = _whole(body.get("item"), 0, homework.MAX_ITEMS - 1, "item")
            choice = _text(body.get("choice"), MAX_CHOICE, "choice")
            ident_ = homework.clean_id(ident)
            groups = await self.groups(user)
            return await self.store(partial(self.lessons.homework.answer, ident_, item, learner_id(user),
                                            choice, classes=groups))
        await self.guarded(work)


class LimitedHomeworkHandler(LessonHandler):
    """A homework game request, limited per learner (`Service.homework_calls`, `kind` its
    bucket): once the sender is known (`Handler.prepare`), a request over her limit is refused
    429 before its body is read (the connection is then closed, as for any refused body)."""

    kind = ""

    async def prepare(self) -> None:
        await super().prepare()
        if self.answered or self.request.method != "POST":
            return
        try:
            await self.service.take_call(await self.user(), self.kind)
        except Refused as error:
            self.refuse(error)
        except StoreError:
            self.refuse(Refused(503, "store_down"))


class HomeworkGameHandler(LimitedHomeworkHandler):
    """A finished game against the bots sent by the kernel: refused under the service, never
    replayed (issue 33: a kernel can send any game, one where she chose every seat's moves, or
    one set up at 11 to 0). Only a game the service dealt counts (`HomeworkTableHandler`)."""

    kind = "game"   # a flood of these is refused unread (`LimitedHomeworkHandler`)

    async def post(self, ident: str):
        async def work():
            await self.user()
            self.body()    # bad input is refused as such (400), as on every endpoint
            raise homework.HomeworkError("service_deals")
        await self.guarded(work)


class HomeworkTableHandler(LimitedHomeworkHandler):
    """Her homework table for a game item against the bots: {item, game?, seats?, options?,
    pace?} (see the rules above). Made and dealt here, the game started, the bots in the other
    seats; her open one for that item is given back instead of a new deal. Answered with her
    seat's view, as a new table is."""

    kind = "table"

    async def post(self, ident: str):
        async def work():
            user = await self.user()
            service = self.service
            body = self.body()
            item = _whole(body.get("item"), 0, homework.MAX_ITEMS - 1, "item")
            game = body.get("game")
            if game is not None:
                _text(game, 40, "game")
            pace = body.get("pace", PACE_RANGE[0])
            if (not isinstance(pace, (int, float)) or isinstance(pace, bool)
                    or not PACE_RANGE[0] <= pace <= PACE_RANGE[1]):
                raise Refused(400, "bad_request", why=f"pace: {PACE_RANGE[0]} to {PACE_RANGE[1]} seconds")
            setup = {k: body[k] for k in ("seats", "options") if k in body}
            ident_ = homework.clean_id(ident)
            groups = await self.groups(user)
            snap = await service.classes.run(partial(self._table, user, groups, ident_, item, game, pace, setup))
            service.active[snap.code] = time.monotonic()
            service.reach(user, snap.code)
            service.publish(snap)
            asyncio.ensure_future(service._bots_for(snap))
            tables = service.classes.tables
            return seat_view(snap, snap.seat_of(learner_id(user)), user, tables.clock(), service.texts)
        await self.guarded(work)

    def _table(self, user: str, groups: list[str], ident: str, item: int, game, pace: float,
               setup: dict) -> Snapshot:
        """On a store thread: her open homework table for the item, or a new one, dealt here
        (`homework.StoreHomework.bot_table_at`, as a laptop's store deals it), its game loaded
        here, not on the loop."""
        snap = self.lessons.homework.bot_table_at(self.service.classes.tables, ident, item, learner_id(user),
                                                  clean_name(user), groups, game=game, pace=pace, setup=setup)
        snap.state  # noqa: B018
        return snap


class TableHomeworkHandler(LessonHandler):
    """A finished table's game items, marked from the service's own record of the table
    (classroom.homework.table_game_over): anyone seated may ask, and asking twice writes
    nothing more; each seated learner's classes are her hub groups."""

    async def post(self, code: str):
        async def work():
            user = await self.user()
            code_ = clean_code(code)
            tables = self.service.classes.tables
            snap = await self.on_table(user, code_, lambda: self.service.classes.run(tables.snapshot, code_))
            if snap.seat_of(learner_id(user)) is None:
                raise Refused(403, "not_seated")
            hub = self.service.hub
            known: dict[str, list[str]] = {}
            for who in snap.sitters:
                if who and str(who["id"]).startswith("hub:"):
                    groups = (await hub.user(str(who["id"])[4:])).get("groups") or []
                    known[str(who["id"])] = [g for g in groups if hub.is_class(g)]
            written = await self.store(partial(self.lessons.homework.table_game_over, code_,
                                               classes_of=lambda ids: known))
            return [{**row, "learner": row["learner"][4:] if row["learner"].startswith("hub:") else row["learner"]}
                    for row in written]
        await self.guarded(work)


class ClassHomeworkHandler(LessonHandler):
    async def get(self, group: str):
        async def work():
            await self.teacher_of(group)
            return await self.store(self.lessons.homework.class_assignments, group)
        await self.guarded(work)


class SkillsHandler(LessonHandler):
    async def get(self):
        """The caller's own levels and the skills due for her review."""
        async def work():
            return await self.store(self.lessons.learner_skills, await self.user())
        await self.guarded(work)


class ClassSkillsHandler(LessonHandler):
    async def get(self, group: str):
        async def work():
            _, members = await self.teacher_of(group)
            return await self.store(self.lessons.class_skills, group, members)
        await self.guarded(work)


class LiveStartHandler(LessonHandler):
    async def post(self):
        """A teacher starts a live session for a class: {class}; its code and host token."""
        async def work():
            await self.teacher()
            group = self.body().get("class")
            await self.teacher_of(group)
            return await self.store(self.lessons.quiz.open_session, group, group)
        await self.guarded(work)


class LiveHostHandler(LessonHandler):
    async def post(self, code: str, action: str):
        """ask {host_token, question, seconds}, close {host_token}, end {host_token}: a teacher's."""
        async def work():
            teacher = await self.teacher()
            body = self.body()
            await self.teaches(teacher, await self.store(self.lessons.session_class, code))
            token = _text(body.get("host_token"), MAX_SECRET, "host_token")
            quiz = self.lessons.quiz
            if action == "ask":
                seconds = _whole(body.get("seconds", live.DEFAULT_SECONDS), *live.SECONDS, "seconds")
                return {"number": await self.store(quiz.ask, code, token, body.get("question"), seconds)}
            await self.store(quiz.close if action == "close" else quiz.end, code, token)
            return {"done": action}
        await self.guarded(work)


class LiveBoardHandler(LessonHandler):
    async def get(self, code: str):
        """What the projector shows (the right answer included): teachers only."""
        async def work():
            teacher = await self.teacher()
            await self.teaches(teacher, await self.store(self.lessons.session_class, code))
            return await self.store(self.lessons.quiz.board, code)
        await self.guarded(work)


class LiveQuestionHandler(LessonHandler):
    async def get(self, code: str):
        """What the caller's phone shows: the question, and her points and answer."""
        async def work():
            user = await self.user()
            async def mine():
                await self.session_of_mine(user, code)
                return await self.store(self.lessons.quiz.question, code, learner_id(user))
            return await self.live_code(user, mine)
        await self.guarded(work)


class LivePlayerHandler(LessonHandler):
    async def post(self, code: str, action: str):
        """join {} a session of one of her classes; answer {number, choice}: as herself."""
        async def work():
            user = await self.user()
            body = self.body()
            quiz = self.lessons.quiz
            session_class = await self.live_code(user, lambda: self.session_of_mine(user, code))
            if action == "join":
                return await self.store(quiz.join, code, learner_id(user), clean_name(user), session_class)
            number = _whole(body.get("number"), 1, MAX_NUMBER, "number")
            choice = _whole(body.get("choice"), 0, live.MAX_OPTIONS - 1, "choice")
            return await self.store(quiz.answer, code, learner_id(user), number, choice)
        await self.guarded(work)


def lesson_routes(prefix: str) -> list[tuple[str, type[Handler]]]:
    """The homework, skills and live quiz routes under `prefix` (it ends with "/")."""
    return [
        (rf"{prefix}api/homework", HomeworkListHandler),
        (rf"{prefix}api/homework/([^/]+)", HomeworkHandler),
        (rf"{prefix}api/homework/([^/]+)/results", HomeworkResultsHandler),
        (rf"{prefix}api/homework/([^/]+)/answer", HomeworkAnswerHandler),
        (rf"{prefix}api/homework/([^/]+)/game", HomeworkGameHandler),
        (rf"{prefix}api/homework/([^/]+)/table", HomeworkTableHandler),
        (rf"{prefix}api/tables/([^/]+)/homework", TableHomeworkHandler),
        (rf"{prefix}api/classes/([^/]+)/homework", ClassHomeworkHandler),
        (rf"{prefix}api/classes/([^/]+)/skills", ClassSkillsHandler),
        (rf"{prefix}api/skills", SkillsHandler),
        (rf"{prefix}api/live", LiveStartHandler),
        (rf"{prefix}api/live/([^/]{{1,20}})", LiveQuestionHandler),
        (rf"{prefix}api/live/([^/]{{1,20}})/board", LiveBoardHandler),
        (rf"{prefix}api/live/([^/]{{1,20}})/(ask|close|end)", LiveHostHandler),
        (rf"{prefix}api/live/([^/]{{1,20}})/(join|answer)", LivePlayerHandler),
    ]



# Every answer kept whole (issue 32, item 1; classroom.answers) ----------------------------------
# - `POST api/answers/NAME {"answers": [...]}`: the caller's own answers only (NAME is she; a
#   teacher writes nobody's either: 403 `not_yours`). The learner is the token's, never a field
#   of the body; each answer is checked against the question its kind and seed make again
#   (400, family "answers", naming the problem: an unknown kind, a forged choice or seed...).
# - `GET api/answers/NAME?since=&context=`: her own answers; a teacher reads those of her
#   classes' learners (403 `not_yours` otherwise).
# - `GET api/classes/GROUP/answers?since=&context=`: the answers of the class's members, for
#   its teachers only (`teacher_of`: 403 `teachers_only` / `not_your_class`).
class AnswerRows:
    """Whole answers (no HTTP) for hub users, asked of the one `StoreClassroom`."""

    def __init__(self, room: StoreClassroom):
        self.room = room

    def record(self, user: str, items: list) -> int:
        me = HubUser("hub-learner", user, "")
        return self.room.record_answers(me, [Answer.from_json(i, learner_id(user)) for i in items])

    def of(self, user: str, since: float | None, context: str | None) -> list[dict]:
        return [_hub_answer(a.to_json()) for a in self.room.answers_of(learner_id(user), since, context)]

    def of_members(self, members: list[str], since: float | None, context: str | None) -> list[dict]:
        found = self.room.answers_of_learners([learner_id(m) for m in members], since, context)
        return [_hub_answer(a.to_json()) for a in found]


def _hub_answer(row: dict) -> dict:
    """An answer as a hub user reads it: the learner by her hub name."""
    who = row["learner_id"]
    return {**row, "learner_id": who[4:] if who.startswith("hub:") else who}


class AnswersBase(LessonHandler):
    """A handler of whole answers; an AnswerError is refused 400 in its family "answers"."""

    @property
    def rows(self) -> AnswerRows:
        return AnswerRows(self.service.classes.room)

    def filters(self) -> tuple[float | None, str | None]:
        since, context = self.get_query_argument("since", None), self.get_query_argument("context", None)
        try:
            when = None if since in (None, "") else float(since)
        except ValueError:
            raise Refused(400, "bad_request", why="since: a number of seconds") from None
        if when is not None and not when == when:
            raise Refused(400, "bad_request", why="since: a number of seconds")
        if context is not None and (len(context) > 200 or control_character(context)):
            raise Refused(400, "bad_request", why="context")
        return when, context or None

    FAMILIES = (*LessonHandler.FAMILIES, (AnswerError, "answers", {}, 400))


class AnswersHandler(AnswersBase):
    async def get(self, who: str):
        async def work():
            user = await self.user()
            if who != user and not await self.service.hub.teaches_learner(user, who):
                raise Refused(403, "not_yours")
            since, context = self.filters()
            return await self.service.classes.run(self.rows.of, who, since, context)
        await self.guarded(work)

    async def post(self, who: str):
        async def work():
            user = await self.user()
            if who != user:
                raise Refused(403, "not_yours")   # a teacher writes nobody's answers either
            items = self.body().get("answers")
            if not isinstance(items, list) or not 0 < len(items) <= MAX_ANSWERS:
                raise Refused(400, "bad_request", why=f"answers: a list of 1 to {MAX_ANSWERS} answers")
            return {"recorded": await self.store(self.rows.record, user, items)}
        await self.guarded(work)


class ClassAnswersHandler(AnswersBase):
    async def get(self, group: str):
        async def work():
            _, members = await self.teacher_of(group)
            since, context = self.filters()
            return await self.service.classes.run(self.rows.of_members, members, since, context)
        await self.guarded(work)


def answer_routes(prefix: str) -> list[tuple[str, type[Handler]]]:
    return [(rf"{prefix}api/answers/([^/]+)", AnswersHandler),
            (rf"{prefix}api/classes/([^/]+)/answers", ClassAnswersHandler)]


# The class tournament (classroom.tournament, docs/rules.md#tournament; issue 34) ----------------
# A teacher of the class (a hub group) opens it and, with its host token, enrols, adds, removes,
# pairs and starts rounds; a learner of the class sees her table and the board. No request
# carries a result: results are read from the tables' records.
TOURNAMENT_STATUS = {"no_tournament": 404, "not_host": 403, "not_player": 404, "no_round": 404}


class TournamentHandler(LessonHandler):
    @property
    def cup(self) -> tournament.StoreTournaments:
        return self.lessons.tournaments

    async def class_of(self, code: str) -> str:
        board = await self.store(self.cup.board, code)
        return str(board["class_code"])

    async def of_mine(self, user: str, code: str) -> str:
        """The class of tournament `code` if `user` is one of its learners or teachers; 403 otherwise."""
        group = await self.class_of(code)
        if group in await self.groups(user) or await self.service.hub.teaches(user, group):
            return group
        raise Refused(403, "not_your_class", name=group[:40])

    FAMILIES = (*LessonHandler.FAMILIES, (tournament.TournamentError, "tournament", TOURNAMENT_STATUS, 409))


class TournamentOpenHandler(TournamentHandler):
    async def post(self):
        """A teacher opens a tournament for a class: {class, setup}; its code and host token."""
        async def work():
            body = self.body()
            group = body.get("class")
            await self.teacher_of(group)
            return await self.store(self.cup.open_for, group, body.get("setup"))
        await self.guarded(work)

    async def get(self):
        """The tournaments of the caller's classes (her hub groups), newest first."""
        async def work():
            user = await self.user()
            found: list[dict] = []
            for group in await self.groups(user):
                found += await self.store(self.cup.of_class, group)
            return sorted(found, key=lambda t: -t["created_at"])[:tournament.OF_CLASS_KEPT]
        await self.guarded(work)


class TournamentResumeHandler(TournamentHandler):
    async def post(self, code: str):
        """The class's teacher takes her tournament back: {class}; a new host token."""
        async def work():
            group = self.body().get("class")
            await self.teacher_of(group)
            return await self.store(self.cup.resume_for, group, code)
        await self.guarded(work)


class ClassTournamentsHandler(TournamentHandler):
    async def get(self, group: str):
        """A class's tournaments, for its teacher."""
        async def work():
            await self.teacher_of(group)
            return await self.store(self.cup.of_class, group)
        await self.guarded(work)


class TournamentLearnerHandler(TournamentHandler):
    async def get(self, code: str):
        """The caller's phone: her table of the round (she is seen there, for enrolment)."""
        async def work():
            user = await self.user()
            await self.of_mine(user, code)
            return await self.store(self.cup.my_table, code, learner_id(user), clean_name(user))
        await self.guarded(work)


class TournamentBoardHandler(TournamentHandler):
    async def get(self, code: str):
        """The projector: pairings, live tables, standings (the class's learners and teachers)."""
        async def work():
            user = await self.user()
            await self.of_mine(user, code)
            return await self.store(self.cup.board, code)
        await self.guarded(work)


class TournamentHostHandler(TournamentHandler):
    async def post(self, code: str, action: str):
        """enrol, add {learner}, remove {learner}, partners {pairs}, start {round}, csv {lang},
        each with {host_token}: the class's teacher who opened it."""
        async def work():
            teacher = await self.teacher()
            await self.teaches(teacher, await self.class_of(code))
            body = self.body()
            token = _text(body.get("host_token"), MAX_SECRET, "host_token")
            cup = self.cup
            if action == "enrol":
                return {"enrolled": await self.store(cup.enrol_present, code, token)}
            if action in ("add", "remove"):
                who = _text(body.get("learner"), 100, "learner")
                if action == "add":
                    return {"from_round": await self.store(cup.add, code, token, learner_id(who), clean_name(who))}
                await self.store(cup.remove, code, token, learner_id(who))
                return {"removed": who}
            if action == "partners":
                pairs = body.get("pairs")
                if not isinstance(pairs, list) or not all(isinstance(p, list) for p in pairs):
                    raise Refused(400, "bad_request", why="pairs")
                await self.store(cup.set_partners, code, token,
                                 [[learner_id(_text(w, 100, "learner")) for w in p] for p in pairs])
                return {"done": action}
            if action == "start":
                return await self.store(cup.start_round, code, token, _whole(body.get("round"), 1, 1000, "round"))
            lang = body.get("lang", "pt")
            if lang not in ("pt", "en"):
                raise Refused(400, "bad_request", why="lang")
            return {"csv": await self.store(cup.export_csv, code, token, lang)}
        await self.guarded(work)


class TournamentSaveHandler(TournamentHandler):
    async def get(self, code: str, number: str, table: str):
        """A game of the tournament as a save that replays (the class's learners and teachers)."""
        async def work():
            user = await self.user()
            await self.of_mine(user, code)
            return await self.store(self.cup.game_save, code, int(number), int(table))
        await self.guarded(work)


def tournament_routes(prefix: str) -> list[tuple[str, type[Handler]]]:
    return [
        (rf"{prefix}api/tournaments", TournamentOpenHandler),
        (rf"{prefix}api/classes/([^/]+)/tournaments", ClassTournamentsHandler),
        (rf"{prefix}api/tournaments/([^/]{{1,20}})/resume", TournamentResumeHandler),
        (rf"{prefix}api/tournaments/([^/]{{1,20}})", TournamentLearnerHandler),
        (rf"{prefix}api/tournaments/([^/]{{1,20}})/board", TournamentBoardHandler),
        (rf"{prefix}api/tournaments/([^/]{{1,20}})/(enrol|add|remove|partners|start|csv)", TournamentHostHandler),
        (rf"{prefix}api/tournaments/([^/]{{1,20}})/save/([0-9]{{1,4}})/([0-9]{{1,4}})", TournamentSaveHandler),
    ]


# A check before and after (classroom.checks, issue 32 item 4; docs/rules.md#check-before-after) --------
# - A teacher of a class (teacher_of) opens a check for it, lists its checks, opens the "after"
#   phase, closes it and reads its results, over the class's members (its hub group) only.
# - A learner lists the open checks of her classes (her hub groups), takes one of them and submits
#   her own answers, as herself (the token's user); another class's check is 403 `other_class`.
# - A refusal is {"error", "pt", "en", "family": "checks", "fields"}: 404 for no such check, 403
#   for another class's, 409 for a phase that is not open or taken already, 400 for bad input.
CHECK_STATUS = {"bad_id": 404, "other_class": 403, "phase_closed": 409, "already_done": 409, "not_after": 409}


class CheckHandler(LessonHandler):
    """A check's handler: a learner's are hers (`HubUser`) over her classes (her hub groups),
    whose other class's check `classroom.checks.StoreChecks` refuses (403 `other_class`)."""

    FAMILIES = (*LessonHandler.FAMILIES, (checks.CheckError, "checks", CHECK_STATUS, 400))


class ChecksHandler(CheckHandler):
    async def get(self):
        """The open checks of the caller's classes, each as she takes it."""
        async def work():
            user = await self.user()
            return await self.store(self.lessons.checks.mine, HubUser("hub-learner", user, ""),
                                    await self.groups(user))
        await self.guarded(work)

    async def post(self):
        """A teacher opens a check: {class, skills, size}."""
        async def work():
            body = self.body()
            group = body.get("class")
            await self.teacher_of(group)
            return await self.store(self.lessons.checks.open, group, body.get("skills"),
                                    body.get("size", checks.DEFAULT_SIZE))
        await self.guarded(work)


class CheckHandlerOne(CheckHandler):
    async def get(self, ident: str):
        """The check as the caller takes it (its open phase's questions, what she has done)."""
        async def work():
            user = await self.user()
            return await self.store(self.lessons.checks.take, HubUser("hub-learner", user, ""), ident,
                                    await self.groups(user))
        await self.guarded(work)


class CheckSubmitHandler(CheckHandler):
    async def post(self, ident: str):
        """Her answers to a phase: {phase, chosen: [text...], seconds: [number|null...]}."""
        async def work():
            user = await self.user()
            body = self.body()
            me = HubUser("hub-learner", user, "")
            return await self.store(partial(self.lessons.checks.submit, me, ident, body.get("phase"),
                                            body.get("chosen"), body.get("seconds"),
                                            classes=await self.groups(user)))
        await self.guarded(work)


class CheckTeacherHandler(CheckHandler):
    async def post(self, ident: str, action: str):
        """after {class} opens the "after" phase; close {class} closes the check: a teacher's."""
        async def work():
            group = self.body().get("class")
            await self.teacher_of(group)
            found = self.lessons.checks
            return await self.store(found.open_after if action == "after" else found.close, group, ident)
        await self.guarded(work)

    async def get(self, ident: str, action: str):
        """results?class=G: the check's matched results over the class's members."""
        async def work():
            group = self.get_query_argument("class", "")
            _, members = await self.teacher_of(group)
            return await self.store(self.lessons.checks.results, group, ident,
                                    {learner_id(m): m for m in members})
        await self.guarded(work)


class ClassChecksHandler(CheckHandler):
    async def get(self, group: str):
        async def work():
            await self.teacher_of(group)
            return await self.store(self.lessons.checks.class_checks, group)
        await self.guarded(work)


def check_routes(prefix: str) -> list[tuple[str, type[Handler]]]:
    return [(rf"{prefix}api/checks", ChecksHandler),
            (rf"{prefix}api/checks/([^/]{{1,20}})", CheckHandlerOne),
            (rf"{prefix}api/checks/([^/]{{1,20}})/submit", CheckSubmitHandler),
            (rf"{prefix}api/checks/([^/]{{1,20}})/(after|close|results)", CheckTeacherHandler),
            (rf"{prefix}api/classes/([^/]+)/checks", ClassChecksHandler)]


class HealthHandler(Handler):
    async def get(self):
        """The service's figures; with `probe` (Kubernetes' readiness and liveness probes,
        every few seconds) only that it answers, from memory: no store, no hub, no sorting."""
        if self.get_argument("probe", None) is not None:
            self.reply({"ok": True, "replica": self.service.replica})
            return
        self.reply({"ok": True, "replica": self.service.replica, "notifications": self.service.notifications,
                    "bot_moves": self.service.bot_moves, "bot_lost": self.service.bot_lost,
                    "stages": self.service.stages.summary(),
                    "queries": getattr(self.service.classes.store, "queries", None),
                    "waiting": sum(len(w) for w in self.service.waiters.values()),
                    "requests": self.service.requests, "streams": self.service.streams})


def make_app(service: Service, prefix: str = "/") -> web.Application:
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    code = r"([A-Za-z0-9 -]{1,20})"
    routes = [
        (rf"{prefix}health", HealthHandler), (rf"{prefix}api/me", MeHandler),
        (rf"{prefix}api/progress/([^/]+)", ProgressHandler),
        (rf"{prefix}api/classes", ClassesHandler), (rf"{prefix}api/classes/([^/]+)/tables", ClassTablesHandler),
        (rf"{prefix}api/classes/([^/]+)", ClassHandler),
        (rf"{prefix}api/tables", TablesHandler), (rf"{prefix}api/tables/{code}", TableHandler),
        (rf"{prefix}api/tables/{code}/(join|leave|start|move)", TableActionHandler),
        (rf"{prefix}api/tables/{code}/watch", TableWatchHandler),
        *lesson_routes(prefix),
        *answer_routes(prefix),
        *tournament_routes(prefix),
        *check_routes(prefix),
    ]
    return web.Application([(path, handler, {"service": service}) for path, handler in routes],
                           compress_response=True)


# Running ---------------------------------------------------------------------------------------
def open_store(url: str, pool_size: int, listen_url: str | None = None) -> tuple[Store, Callable | None, int]:
    """The store, the PostgreSQL listener (None on SQLite) and the number of store threads.
    On PostgreSQL: `pool_size` connections in all, `pool_size - 1` in the pool (to `url`,
    PostgreSQL or PgBouncer in transaction pooling) and one LISTEN connection of its own (to
    `listen_url`, PostgreSQL itself; default `url`)."""
    if url.startswith(("postgresql://", "postgres://")):
        from .store import PooledPostgresStore
        store = PooledPostgresStore(url, pool_size, listen_url)

        def listen(callback: Callable[[str], None], listening: Callable[[], None] | None = None) -> None:
            threading.Thread(target=store.listen, args=(CHANNEL, callback, listening), daemon=True,
                             name="cartas-listen").start()
        return store, listen, max(1, pool_size - 1)
    return connect(url), None, 1


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m classroom.service", description=__doc__.splitlines()[0])
    parser.add_argument("--pool-size", type=int, default=int(os.environ.get("CARTAS_POOL_SIZE", DEFAULT_POOL)),
                        help="PostgreSQL connections at most (one listens for table changes)")
    parser.add_argument("--teachers-group", default=os.environ.get("CARTAS_TEACHERS_GROUP", "teachers"),
                        help="class C is taught by the hub admins and the group TEACHERS_GROUP-C")
    parser.add_argument("--port", type=int, default=None, help="default: from JUPYTERHUB_SERVICE_URL")
    parser.add_argument("--ip", default=None)
    parser.add_argument("--replica", default=os.environ.get("CARTAS_REPLICA") or None,
                        help="this process's name among the replicas (default: host-pid)")
    args = parser.parse_args(argv)
    if args.pool_size < 2:
        parser.error("--pool-size must be at least 2 (one connection listens)")
    url = os.environ.get("CARTAS_DATABASE_URL", "").strip() or os.environ.get("CARTAS_DB", "")
    if not url:
        parser.error("set CARTAS_DATABASE_URL (postgresql://...) or CARTAS_DB (a SQLite file)")
    from urllib.parse import urlsplit
    service_url = urlsplit(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    port = args.port or service_url.port or 10101
    ip = args.ip or service_url.hostname or "127.0.0.1"
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/")
    # CARTAS_LISTEN_URL: PostgreSQL itself, for the one LISTEN connection, when
    # CARTAS_DATABASE_URL is PgBouncer in transaction pooling (which passes no LISTEN on)
    store, listen, workers = open_store(url, args.pool_size, os.environ.get("CARTAS_LISTEN_URL", "").strip() or None)
    service = Service(Classes(store, workers), Hub(args.teachers_group), listen, replica=args.replica)
    app = make_app(service, prefix)
    app.listen(port, ip, xheaders=True)
    # what start-up made (modules, the engine's tables, the app) lives as long as the process:
    # the collector never scans it again, so a full collection under load only walks what
    # requests made (a few per cent of the service's CPU at 200 learners; issue 35)
    gc.collect()
    gc.freeze()
    # a request's objects mostly die with it (freed by their counts): the youngest generation
    # is collected after GC_YOUNG new objects, not 700, so the collector seldom meets a request
    # still running and moves its objects on to the older generations it walks again
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    loop = IOLoop.current()
    loop.add_callback(service.start)
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: loop.add_callback_from_signal(loop.stop))
    print(f"cartas class service {service.replica} on http://{ip}:{port}{prefix} "
          f"(store {getattr(store, 'describe', url)})", flush=True)
    try:
        loop.start()
    finally:
        store.close()


if __name__ == "__main__":
    main()
