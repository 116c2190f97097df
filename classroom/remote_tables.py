"""The tables (mesas) of a hub user, asked of the class service: what the tables page
(`widgets.pages.mesa`) needs of `classroom.tables.Tables` and `TableClient`, answered over
HTTP by the service's client (`classroom.remote.RemoteClassroom`).

Decided rules (the service's side is in `classroom.service`):

- Under JupyterHub the kernel holds no table: the service keeps the deal, the whole state and
  its random generator, checks and applies every move and moves the bots. The kernel receives
  only its learner's seat view (`classroom.service.seat_view`: her cards, the face-up ones,
  her legal moves, the log as her seat saw it), as the engine's own format (`SeatView.to_dict`),
  and rebuilds the engine's own view type from it (`SeatView.from_dict`, which refuses a
  missing, extra or ill-typed field). The page draws that view as it draws a table of the
  local store: `SeatState` answers the engine calls the page makes from the view alone, and
  refuses another seat's view.
- She sits only as herself: the learner key and name a page passes are not sent (the service
  takes her hub login); nor is a seed (no learner chooses a table's deals).
- A refusal of the service (HTTP 4xx with a code) is a `TableError` of that code carrying the
  service's sentences in Portuguese and English (`RefusedByService`), so the page shows it as
  any table's refusal ("a mesa já mudou", "não é a sua vez", a seat taken...). A service that
  does not answer is `StoreUnavailable`, which the page shows as its "store_down" notice.
- Changes: the page watches its table through one stream of the service (issue 35:
  `RemoteClassroom.open_watch`, a line per new version), not a request per version nor a
  0.2 s poll. A thread of the client's own reads the lines as they come, takes each view in
  order (its log joined as below) and wakes the page's `wait_for_change`, which returns at a
  change or after WATCH_WAIT s. When the stream ends (the service bounds its life) or breaks
  (its replica gone) the thread opens another from the last version it holds, through
  whichever replica it reaches, so no version is lost and none is taken twice (an older or
  equal version is never taken). The client names its page with a random id (`page`) on its
  stream and its moves: a version its own move made comes in the move's answer only. Opening
  a stream that fails is the page's notice (`tick` raises it) and the thread waits
  RETRY_AFTER s before it tries again, as it does after a stream that lasted less than
  RETRY_AFTER s (no busy loop). The thread ends with `stop_watching()`, or
  once no page has waited on it for READER_IDLE s. On PostgreSQL the service hears of every
  change by LISTEN/NOTIFY.
- The log: the service sends a seat's events once. Each request says how many events of which
  seat's log the page holds (`held`), and the answer carries the ones after those; the page
  joins them to what it has, so its log keeps growing as the game's does (the announcements
  count on that) while a move costs a few events on the wire. After a gap or a change of seat
  the page takes the service's tail afresh. At most KEEP_EVENTS events are held.
- Presence: a seated learner's requests to the service are her presence at the table (the
  service records them); `heartbeat()` asks for the table once.
"""
from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from cartas.contract import Outcome

from . import games
from .games import TableError
from .remote import RemoteClassroom, ServiceRefused, WatchStream
from .store import StoreError
from .tables import DEFAULT_PACE, DEFAULT_TIMEOUT, clean_code

WATCH_WAIT = 20.0    # seconds one long poll waits for a change (the service caps it at 30)
RETRY_AFTER = 2.0    # seconds before asking again after the service failed or refused
KEEP_EVENTS = 2_000  # events of a table's log a page holds at most (the oldest go first)
READER_IDLE = 60.0   # seconds a watch stream is kept open with no page waiting on it

TEXT = {
    "refused": ("O serviço das turmas recusou o pedido ({code}).", "The class service refused the request ({code})."),
    "not_your_seat": ("Você só vê as cartas do seu lugar.", "You only see your own seat's cards."),
}


class RefusedByService(TableError):
    """A table request the class service refused: its `code` (a tables' or an engine's
    refusal, or the service's own) and its sentences in both languages, as the service wrote
    them (the same catalogues), shown by the page like any table's refusal."""

    def __init__(self, code: str, pt: str = "", en: str = "", status: int = 409):
        if not (pt or en):
            pt, en = (text.format(code=code) for text in TEXT["refused"])
        self.code, self.fields, self.status = code, {}, status
        self.texts = {"pt": pt or en, "en": en or pt}
        ValueError.__init__(self, self.texts["en"])

    def message(self, lang: str = "pt") -> str:
        return self.texts["en" if lang == "en" else "pt"]

    def __reduce__(self):
        return (RefusedByService, (self.code, self.texts["pt"], self.texts["en"], self.status))


def _ask(call: Callable[..., Any], *args, **kwargs) -> Any:
    """`call(...)` on the service; its refusal as a RefusedByService (StoreUnavailable passes)."""
    try:
        return call(*args, **kwargs)
    except ServiceRefused as refused:
        raise RefusedByService(refused.code, refused.pt, refused.en, refused.status) from None


# A seat's view, rebuilt from the service's JSON ----------------------------------------------
class SeatState:
    """A table's game as one seat knows it: answers what the tables page asks of a game state
    (`current_seat`, `players`, `legal_actions`, `view` of her own seat, `narrate`, `describe`,
    `outcome`, `is_terminal`) from the service's seat view, rebuilt as the engine's own view
    type (`GameSpec.view_from_dict`: a missing, extra or ill-typed field is the game's refusal,
    never a default). Whatever else the page draws it asks of that view (`view(seat)`). It
    cannot play: the service applies moves."""

    last_hand = None  # the hand before is the service's; its explanation comes as `told_why`

    def __init__(self, game: str, view: dict):
        self.game = game
        self.seat: int | None = view["seat"]
        self._view = view
        self._labels = {m["action"]: m for m in view["legal"]}
        # the view's log is the page's: the events it holds joined to the service's tail
        self.seen: Any = games.view_from_dict(game, {**view["view"], "events": list(view["events"])})
        self.players: int = self.seen.players

    @property
    def current_seat(self) -> int | None:
        return self.seen.current_seat

    @property
    def winner(self) -> int | None:
        return self._view["result"]["winner"]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(self._view["result"]["winners"])

    @property
    def events(self) -> list[dict]:
        return self.seen.events

    def legal_actions(self) -> list:
        return self.seen.legal_actions()

    def is_terminal(self) -> bool:
        return self._view["status"] == "finished"

    def view(self, seat: int | None) -> Any:
        if seat != self.seat:
            raise RefusedByService("not_your_seat", *TEXT["not_your_seat"], status=403)
        return self.seen

    def narrate(self, event: dict, lang: str = "pt", names: dict | None = None) -> str:
        return self.seen.narrate(event, lang, names)

    def describe(self, action: Any, lang: str = "pt") -> str:
        label = self._labels.get(str(action))
        return label["en" if lang == "en" else "pt"] if label else self.seen.describe(action, lang)

    def outcome(self) -> Outcome:
        r = self._view["result"]
        return Outcome(r["by"], tuple(r["scores"]), r["winner"], tuple(r["winners"]), bool(r["over"]))

    def told_why(self, lang: str) -> str | None:
        """The "why" of the last trick or call, as the service (which holds the game) says it."""
        return (self._view.get("why") or {}).get("en" if lang == "en" else "pt")


class RemoteSnapshot:
    """One version of a table as the service showed it to this learner (`classroom.tables.Snapshot`'s
    interface): seats and names for all, the game only as her seat sees it."""

    def __init__(self, view: dict, learner: str | None):
        self.view = view
        self.code: str = view["code"]
        self.version: int = view["version"]
        self.learner = learner
        self.presence: dict[str, float] = {}
        self.record = {"creator": learner if view.get("creator") else None, "class_code": view.get("class", ""),
                       "status": view["status"], "game": view["game"], "last": view.get("last"),
                       "outcome": view.get("outcome"), "level": view.get("level") or games.DEFAULT_LEVEL,
                       "homework": bool(view.get("homework"))}
        self._state: SeatState | None = None

    @property
    def level(self) -> str:
        """The level the table's bots play at, as the service said it."""
        return games.table_level(self.record)

    @property
    def game(self) -> str:
        return self.view["game"]

    @property
    def status(self) -> str:
        return self.view["status"]

    @property
    def state(self) -> SeatState | None:
        if self._state is None and self.view.get("view") is not None:
            self._state = SeatState(self.game, self.view)
        return self._state

    def _id(self, seat: dict) -> str | None:
        """A sitter's key as the page knows it: hers for her seat; the others' are not sent."""
        if seat["name"] is None:
            return None
        return self.learner if seat["seat"] == self.view["seat"] else f"seat-{seat['seat']}"

    @property
    def sitters(self) -> list[dict | None]:
        return [None if s["name"] is None else {"id": self._id(s), "name": s["name"]} for s in self.view["seats"]]

    def seat_of(self, learner: str | None) -> int | None:
        return self.view["seat"] if learner == self.learner else None

    def seats(self, now: float | None = None) -> list[dict]:
        return [{**s, "id": self._id(s)} for s in self.view["seats"]]

    def controller(self, seat: int, now: float | None = None) -> str:
        return self.view["seats"][seat]["controller"]


def _joined(old: dict, new: dict) -> tuple[list, int]:
    """The log a page holds after view `new`, and the index of its first event: `old`'s events
    followed by `new`'s when they are the same seat's log and meet; `new`'s alone otherwise.
    At most KEEP_EVENTS (the oldest dropped)."""
    events = list(new.get("events") or [])
    first = int(new.get("events_from") or 0)
    had, had_from = old.get("events") or [], int(old.get("events_from") or 0)
    if (old.get("code") == new.get("code") and old.get("seat") == new.get("seat")
            and had_from <= first <= had_from + len(had)):
        events, first = had[:first - had_from] + events, had_from
    if len(events) > KEEP_EVENTS:
        first += len(events) - KEEP_EVENTS
        events = events[-KEEP_EVENTS:]
    return events, first


class RemoteTables:
    """`classroom.tables.Tables` as the tables page uses it, asked of the class service."""

    def __init__(self, classroom: RemoteClassroom, clock: Callable[[], float] = time.time):
        self.classroom = classroom
        self.clock = clock

    def create(self, game: str, learner: str | None = None, name: str | None = None, *, seats: int | None = None,
               options: dict | None = None, class_code: str = "", seat: int = 0,
               timeout: float = DEFAULT_TIMEOUT, pace: float = DEFAULT_PACE, seed: int | None = None,
               level: str = games.DEFAULT_LEVEL) -> str:
        """A new table with the hub user seated (`learner`, `name` and `seed` are not sent:
        the service seats her under her hub login and deals from its own seed). `level`, the
        bots' level, is checked here first (TableError "bad_level"), and again by the service."""
        setup: dict[str, Any] = {"seats": seats, "options": options or {}, "timeout": timeout, "pace": pace,
                                 "seat": seat, "level": games.check_level(level)}
        if class_code:
            setup["class"] = class_code
        return _ask(self.classroom.create_table, game, **setup)["code"]

    def snapshot(self, code: str, learner: str | None = None) -> RemoteSnapshot:
        return RemoteSnapshot(_ask(self.classroom.table, clean_code(code)), learner)

    def list_class(self, class_code: str, archived: bool = False) -> list[RemoteSnapshot]:
        """A class's open tables, as a teacher watches them (the service refuses a learner)."""
        return [RemoteSnapshot(view, None) for view in _ask(self.classroom.class_tables, class_code)]

    def heartbeat(self, code: str, learner: str | None = None) -> None:
        self.snapshot(code, learner)

    def client(self, code: str, learner: str | None) -> RemoteTableClient:
        return RemoteTableClient(self, code, learner)


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


class RemoteTableClient:
    """`classroom.tables.TableClient` over the class service: the last view seen, the page's
    acts (each answered with the newer view), and the watch stream read by a thread of its
    own (see the rules), whose news the page's `tick()` takes on the kernel's loop."""

    beat_in_tick = False

    def __init__(self, tables: RemoteTables, code: str, learner: str | None):
        self.tables = tables
        self.code = clean_code(code)
        self.learner = learner
        self.snap = tables.snapshot(self.code, learner)
        self.watches = 0   # waits of the page (tests, benchmarks)
        self.streams = 0   # watch streams opened (tests, benchmarks)
        self.lines = 0     # views the streams brought (tests, benchmarks)
        self.page = secrets.token_hex(8)      # this page, to the service (see the rules)
        self.replica = ""  # the service process the last stream came from
        self._lock = threading.RLock()        # the view held, the news and the waiter
        self._changed = False                 # a view taken by the reader that the page has not drawn
        self._error: BaseException | None = None
        self._waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future] | None = None
        self._wanted = 0.0                    # when a page last waited (monotonic)
        self._reader: threading.Thread | None = None
        self._stream: WatchStream | None = None
        self._stop = threading.Event()

    @property
    def seat(self) -> int | None:
        return self.snap.view["seat"]

    def held(self) -> dict:
        """What of its seat's log this page holds, as the service reads it (see the rules)."""
        view = self.snap.view
        return {"events_since": view.get("events_from", 0) + len(view.get("events") or []),
                "events_seat": "none" if view["seat"] is None else view["seat"]}

    def _take(self, view: dict) -> bool:
        """Keep `view` unless it is older than the one held; True when the page must redraw.
        Its events join the log held (see the rules). The page's thread and the reader's
        take views one at a time."""
        with self._lock:
            old = self.snap
            if view["version"] < old.version:
                return False
            view["events"], view["events_from"] = _joined(old.view, view)
            self.snap = RemoteSnapshot(view, self.learner)
            return (view["version"] != old.version or view["seats"] != old.view["seats"]
                    or view["seat"] != old.view["seat"])

    def refresh(self) -> bool:
        return self._take(_ask(self.tables.classroom.table, self.code, held=self.held()))

    def heartbeat(self) -> None:
        self.refresh()

    def tick(self) -> bool:
        """Whether the stream brought a view the page has not drawn (a failure to open the
        stream is raised here, on the loop, once)."""
        with self._lock:
            changed, self._changed = self._changed, False
            error, self._error = self._error, None
        if error is not None:
            raise error
        return changed

    async def wait_for_change(self, wait: float | None = None) -> None:
        """Until the stream brings a change or a failure, or `wait` (WATCH_WAIT) s; the
        stream's reader is started if it is not running."""
        wait = WATCH_WAIT if wait is None else wait
        self.watches += 1
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._lock:
            self._wanted = time.monotonic()
            if self._changed or self._error is not None:
                return
            self._waiter = (loop, future)
            self._stop.clear()   # a reader stopped but still running goes on (its stream opened again)
            if self._reader is None:
                self._reader = threading.Thread(target=self._read, daemon=True, name=f"cartas-watch-{self.code}")
                self._reader.start()
        timer = loop.call_later(wait, _resolve, future)
        try:
            await future
        finally:
            timer.cancel()
            with self._lock:
                if self._waiter is not None and self._waiter[1] is future:
                    self._waiter = None
                self._wanted = time.monotonic()

    def stop_watching(self) -> None:
        """End the stream and its reader (the page closed the table or stopped watching)."""
        with self._lock:
            self._stop.set()
            stream = self._stream
        if stream is not None:
            stream.interrupt()

    def _wake(self, error: BaseException | None = None) -> None:
        with self._lock:
            if error is not None:
                self._error = error
            else:
                self._changed = True
            waiter, self._waiter = self._waiter, None
        if waiter is not None:
            try:
                waiter[0].call_soon_threadsafe(_resolve, waiter[1])
            except RuntimeError:   # that loop is closed: nobody waits there any more
                pass

    def _idle(self) -> bool:
        """Whether the reader is to end: stopped, or no page waited on it for READER_IDLE s."""
        with self._lock:
            return self._stop.is_set() or (self._waiter is None and time.monotonic() - self._wanted > READER_IDLE)

    def _leave_if_idle(self) -> bool:
        """`_idle()`, and if so the reader is gone from then on (a page that waits next
        starts another): checked and said under one lock, so no waiter is left unserved."""
        with self._lock:
            if not self._idle():
                return False
            if self._reader is threading.current_thread():
                self._reader = None
            return True

    def _read(self) -> None:
        """The reader's thread: open the stream from the version held, take each line's view,
        open another when it ends or breaks (see the rules)."""
        try:
            while not self._leave_if_idle():
                with self._lock:
                    version, held = self.snap.version, self.held()
                opened = time.monotonic()
                try:
                    stream = _ask(self.tables.classroom.open_watch, self.code, version, held, self.page)
                except (StoreError, TableError) as error:
                    self._wake(error)
                    self._stop.wait(RETRY_AFTER)
                    continue
                with self._lock:
                    self._stream, self.replica = stream, stream.replica
                    self.streams += 1
                try:
                    if self._stop.is_set():
                        continue
                    for view in stream.lines():
                        if view is not None:
                            self.lines += 1
                            if self._take(view):
                                self._wake()
                        if self._idle():
                            break
                except StoreError:   # broken (its replica gone): another is opened at once
                    pass
                finally:
                    with self._lock:
                        self._stream = None
                    stream.close()
                if time.monotonic() - opened < RETRY_AFTER:
                    self._stop.wait(RETRY_AFTER)
        finally:
            with self._lock:
                if self._reader is threading.current_thread():
                    self._reader = None

    # acting: always as the hub user herself, on the version she saw
    def move(self, action: Any, seen_version: int | None = None) -> None:
        seen = self.snap.version if seen_version is None else seen_version
        self._take(_ask(self.tables.classroom.move, self.code, str(action), seen, self.held(), self.page))

    def join(self, name: str, seat: int) -> None:
        self._take(_ask(self.tables.classroom.join, self.code, seat, self.held()))

    def leave(self) -> None:
        self._take(_ask(self.tables.classroom.leave, self.code, self.held()))

    def start(self) -> None:
        self._take(_ask(self.tables.classroom.start, self.code, self.held()))
