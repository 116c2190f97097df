"""The classroom interface over HTTP: a learner's kernel on JupyterHub asks the class service.

Decided rules (see classroom.service for what the service decides):

- Under JupyterHub (`JUPYTERHUB_API_TOKEN` and `CARTAS_SERVICE_URL` both set in the server's
  environment) the dashboards' classroom is this client; elsewhere (a teacher's laptop,
  Binder) it is the store in this process (`classroom.interface.StoreClassroom`). The kernel then holds the
  learner's own hub token and the service's address, never a database URL.
- The learner is the hub user (`JUPYTERHUB_USER`); she is not asked for a name.
- Every call carries the token in the `Authorization` header; a refusal comes back as
  `ServiceRefused` with the HTTP status, a code and the service's sentences in Portuguese
  and English. An unreachable service is `ServiceUnavailable`, a `StoreUnavailable` as an
  unreachable store is (the service's own `store_down` is a plain `StoreUnavailable`).
- Homework, skills and the live quiz: `homework()`, `mastery()` and `live()` give the
  in-process interfaces (classroom.homework.HomeworkService, classroom.mastery.MasteryService,
  classroom.live.LiveQuiz) over the service; the learner ids they are passed are never sent.
- Table changes: a page watches a table through one stream (`open_watch`, the service's
  `GET api/tables/CODE/watch`: a line per new version, an empty line when quiet); a stream
  silent for STREAM_QUIET s is taken as broken. `watch(code, version)` is the one-shot long
  poll (the service answers when the version moves, or after `wait` seconds), for a caller
  that asks once.
"""
from __future__ import annotations

import http.client
import json
import os
import socket
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from .store import StoreError, StoreUnavailable

TIMEOUT = 10.0
WATCH_WAIT = 25.0
STREAM_QUIET = 45.0          # seconds a watch stream may send nothing (the service writes every 20 s)
MAX_LINE = 8 * 1024 * 1024   # bytes of one line of a watch stream, at most


class ServiceUnavailable(StoreUnavailable):
    """The class service itself does not answer (unreachable, or failing with no word of its
    store): not the store, which the service reports as `store_down` (a plain StoreUnavailable)."""


class ServiceRefused(StoreError):
    """The class service said no: `status` (HTTP), `code`, and `pt`/`en` sentences."""

    def __init__(self, status: int, code: str, pt: str = "", en: str = "", family: str = "",
                 fields: dict | None = None):
        super().__init__(f"{status} {code}: {en or pt}")
        self.status, self.code, self.pt, self.en = status, code, pt, en
        self.family, self.fields = family, fields or {}  # a lesson's refusal (homework, live)

    def message(self, lang: str = "pt") -> str:
        return self.pt if lang == "pt" else self.en


def refusal(status: int, text: bytes) -> StoreError:
    """The error an answer `status` (4xx, 5xx) with body `text` is: the service's refusal
    (`ServiceRefused`), its store down (`StoreUnavailable`) or the service failing
    (`ServiceUnavailable`)."""
    try:
        detail = json.loads(text or b"{}")
    except ValueError:
        detail = {}
    if not isinstance(detail, dict):
        detail = {}
    if status >= 500 and detail.get("error") == "store_down":
        return StoreUnavailable(f"the class service cannot reach its store ({status})")
    if status >= 500 and detail.get("error") in (None, "internal"):
        return ServiceUnavailable(f"the class service failed ({status})")
    fields = detail.get("fields")
    return ServiceRefused(status, str(detail.get("error", "refused")), str(detail.get("pt", "")),
                          str(detail.get("en", "")), str(detail.get("family", "")),
                          fields if isinstance(fields, dict) else None)


class WatchStream:
    """An open watch stream (`RemoteClassroom.open_watch`): `lines()` yields each version's
    view (a dict) and None for an empty line (the service's keep-alive), and ends when the
    service ends the stream; a stream cut short, a line that is not JSON or longer than
    MAX_LINE, or STREAM_QUIET s of silence raise ServiceUnavailable. `replica` is the
    service process that answers it (its `X-Cartas-Replica`)."""

    def __init__(self, connection: http.client.HTTPConnection, response: http.client.HTTPResponse):
        self.connection, self.response = connection, response
        self.replica = response.getheader("X-Cartas-Replica", "")

    def lines(self) -> Iterator[dict | None]:
        try:
            while True:
                line = self.response.readline(MAX_LINE)
                if not line:
                    return
                if not line.endswith(b"\n"):
                    raise ValueError("a line cut short or too long")
                line = line.strip()
                if not line:
                    yield None
                    continue
                view = json.loads(line)
                if not isinstance(view, dict):
                    raise ValueError("a line that is not a JSON object")
                yield view
        except (OSError, http.client.HTTPException, ValueError) as error:
            raise ServiceUnavailable(f"the class service's watch stream broke: {error}") from None

    def interrupt(self) -> None:
        """End the stream from another thread: a read waiting on it returns (the stream ends
        or breaks there); the reading thread then closes it."""
        sock = self.connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        """End the stream and its connection (on the thread that reads it)."""
        self.interrupt()
        self.connection.close()


@dataclass
class RemoteClassroom:
    """The classroom of a hub user, asked over HTTP (one instance per kernel)."""

    url: str
    token: str
    user: str = ""
    kind = "service"
    closed = False

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> RemoteClassroom:
        environ = os.environ if environ is None else environ
        return cls(environ["CARTAS_SERVICE_URL"].strip().rstrip("/") + "/",
                   environ["JUPYTERHUB_API_TOKEN"].strip(), environ.get("JUPYTERHUB_USER", ""))

    @property
    def hub_user(self) -> str:
        return self.user

    # HTTP
    def call(self, method: str, path: str, body: Any = None, query: dict | None = None,
             timeout: float = TIMEOUT) -> Any:
        target = self.url + path.lstrip("/")
        if query:
            target += "?" + urlencode({k: v for k, v in query.items() if v is not None})
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(target, data=data, method=method, headers={
            "Authorization": f"token {self.token}", "Content-Type": "application/json",
            "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raise refusal(error.code, error.read()) from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise ServiceUnavailable(f"cannot reach the class service at {self.url}: {error}") from None

    def open_watch(self, code: str, version: int, held: dict | None = None, page: str = "") -> WatchStream:
        """The watch stream of table `code` from `version` on (`held`: the log the page holds;
        `page`: the page's id, whose own moves' versions it does not bring), open (its headers
        read); a refusal as `call` raises it. Its lines are read with
        `WatchStream.lines`, on one thread; `interrupt()` ends it from another."""
        parts = urlsplit(self.url)
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        target = (parts.path.rstrip("/") + f"/api/tables/{quote(code)}/watch?"
                  + urlencode({"after": version, **(held or {}), **({"page": page} if page else {})}))
        connection = kind(parts.hostname or "127.0.0.1", parts.port, timeout=TIMEOUT)
        try:
            connection.request("GET", target, headers={"Authorization": f"token {self.token}",
                                                       "Accept": "application/x-ndjson"})
            response = connection.getresponse()
            if response.status != 200:
                raise refusal(response.status, response.read())
            if connection.sock is not None:
                connection.sock.settimeout(STREAM_QUIET)
        except (OSError, http.client.HTTPException, ValueError) as error:
            connection.close()
            raise ServiceUnavailable(f"cannot reach the class service at {self.url}: {error}") from None
        except BaseException:
            connection.close()
            raise
        return WatchStream(connection, response)

    def transaction(self, write: bool = True):
        """Refused: under JupyterHub this kernel holds no database, only the service's client.
        (Code written for a store in this process gets a StoreError, which the pages show as
        "the store does not answer", instead of running SQL.)"""
        raise StoreUnavailable("under JupyterHub the class store is behind the Cartas class service: "
                               "this kernel runs no SQL")

    def migrate(self, migrations, upto: int | None = None) -> int:
        return self.transaction()

    def close(self) -> None:
        pass

    # who
    def me(self) -> dict:
        return self.call("GET", "api/me")

    # progress
    def record(self, lesson: str, answers, skills=None) -> int:
        """Add `answers` (booleans) to the hub user's `lesson`; `skills`, one per answer ("" for
        none), names the skill each trains (classroom.mastery)."""
        answers = [bool(a) for a in answers]
        if not answers:
            return 0
        body: dict[str, Any] = {"lesson": lesson, "answers": answers}
        if skills and any(skills):
            body["skills"] = list(skills)
        return self.call("POST", f"api/progress/{quote(self.user, safe='')}", body)["recorded"]

    def progress(self, user: str | None = None) -> dict[str, dict]:
        """{lesson: {"right", "asked", "last"}} of the hub user (a teacher may name another)."""
        return self.call("GET", f"api/progress/{quote(user or self.user, safe='')}")

    # every answer kept whole (classroom.answers): the service takes the learner from the token
    def record_answers(self, answers) -> int:
        """Record the hub user's `answers` (classroom.answers.Answer); AnswerError for one the
        service refuses (naming the problem)."""
        items = [{k: v for k, v in a.to_json().items() if k != "learner_id"} for a in answers]
        if not items:
            return 0
        try:
            return self.call("POST", f"api/answers/{quote(self.user, safe='')}", {"answers": items})["recorded"]
        except ServiceRefused as refused:
            raise _answer_error(refused) from None

    def answers_of(self, user: str | None = None, since: float | None = None, context: str | None = None) -> list:
        """The hub user's answers (a teacher may name a learner of her classes), oldest first."""
        from .answers import Answer
        rows = self.call("GET", f"api/answers/{quote(user or self.user, safe='')}",
                         query={"since": since, "context": context})
        return [Answer.from_json({**r, "learner_id": f"hub:{r['learner_id']}"}) for r in rows]

    def class_answers(self, group: str, since: float | None = None, context: str | None = None) -> list:
        """The answers of class `group`'s members (for its teachers), oldest first."""
        from .answers import Answer
        rows = self.call("GET", f"api/classes/{quote(group, safe='')}/answers",
                         query={"since": since, "context": context})
        return [Answer.from_json({**r, "learner_id": f"hub:{r['learner_id']}"}) for r in rows]

    # a teacher's view
    def open_class(self, group: str):
        """The class that is hub group `group`, as `classroom.classes.open_class` gives it
        (no teacher key: the service checks that this hub user teaches); NotAllowed if she
        does not, or there is no such group."""
        from .values import NewClass, NotAllowed
        try:
            found = self.call("GET", f"api/classes/{quote(str(group).strip(), safe='')}")
        except ServiceRefused as refused:
            if refused.status in (403, 404):
                raise NotAllowed(refused.en) from None
            raise
        return NewClass(found["name"], "", found["name"])

    def classes(self) -> list[dict]:
        return self.call("GET", "api/classes")

    def class_learners(self, group: str) -> list[dict]:
        return self.call("GET", f"api/classes/{quote(group, safe='')}")["learners"]

    def class_tables(self, group: str) -> list[dict]:
        return self.call("GET", f"api/classes/{quote(group, safe='')}/tables")

    # tables: the service holds the game; this client sees its seat's view
    def create_table(self, game: str, **setup) -> dict:
        return self.call("POST", "api/tables", {"game": game, **setup})

    # `held` ({"events_since": K, "events_seat": S}, classroom.service): the first K events of
    # seat S's log are on this page already; the answer carries the events from K on
    def table(self, code: str, seat: int | None = None, held: dict | None = None) -> dict:
        return self.call("GET", f"api/tables/{quote(code)}", query={"seat": seat, **(held or {})})

    def watch(self, code: str, version: int, wait: float = WATCH_WAIT, held: dict | None = None) -> dict:
        """The table once its version is no longer `version` (or as it is after `wait` s)."""
        return self.call("GET", f"api/tables/{quote(code)}", query={"after": version, "wait": wait, **(held or {})},
                         timeout=wait + TIMEOUT)

    def join(self, code: str, seat: int, held: dict | None = None) -> dict:
        return self.call("POST", f"api/tables/{quote(code)}/join", {"seat": seat, **(held or {})})

    def leave(self, code: str, held: dict | None = None) -> dict:
        return self.call("POST", f"api/tables/{quote(code)}/leave", {**(held or {})})

    def start(self, code: str, held: dict | None = None) -> dict:
        return self.call("POST", f"api/tables/{quote(code)}/start", {**(held or {})})

    def move(self, code: str, action: str, version: int, held: dict | None = None, page: str = "") -> dict:
        """Play `action` on `version`; `page`, the id of the page whose watch stream need not
        bring the version back (`open_watch`)."""
        return self.call("POST", f"api/tables/{quote(code)}/move",
                         {"action": action, "version": version, **(held or {}), **({"page": page} if page else {})})

    # homework, skills and the live quiz: the same interfaces as in-process (classroom.homework
    # HomeworkService, classroom.mastery MasteryService, classroom.live LiveQuiz), asked of the
    # service, which takes the learner from the token: the learner ids passed are not sent.
    # `error`: the in-process refusal (HomeworkError, LiveError) a refusal of that family is
    # raised as, so the pages say it in their own words (passed in: no import cycle).
    def homework(self, error: Callable[..., Exception] | None = None) -> RemoteHomework:
        return RemoteHomework(self, "homework", error)

    def mastery(self) -> RemoteMastery:
        return RemoteMastery(self, "", None)

    def live(self, error: Callable[..., Exception] | None = None) -> RemoteLiveQuiz:
        return RemoteLiveQuiz(self, "live", error)

    def tournaments(self, error: Callable[..., Exception] | None = None) -> RemoteTournaments:
        return RemoteTournaments(self, "tournament", error)  # issue 34

    def checks(self, error: Callable[..., Exception] | None = None) -> RemoteChecks:
        return RemoteChecks(self, "checks", error)


@dataclass
class _Lessons:
    client: RemoteClassroom
    family: str
    error: Callable[..., Exception] | None

    def _error(self, refused: ServiceRefused) -> Exception:
        """A refusal of this family as `error` (code and fields); any other as it came."""
        if self.error is not None and refused.family == self.family:
            try:
                return self.error(refused.code, **refused.fields)
            except (KeyError, TypeError, ValueError, IndexError):  # a code or fields it does not know
                pass
        return refused

    def _ask(self, method: str, path: str, body: Any = None, none_if: tuple[int, ...] = ()) -> Any:
        try:
            return self.client.call(method, path, body)
        except ServiceRefused as refused:
            if refused.status in none_if:
                return None
            raise self._error(refused) from None


class RemoteHomework(_Lessons):
    """classroom.homework's HomeworkService through the class service."""

    def create(self, class_code: str, title, due, pass_mark, items) -> dict:
        return self._ask("POST", "api/homework", {"class": class_code, "title": title, "due": due,
                                                  "pass_mark": pass_mark, "items": list(items)})

    def assignment(self, assignment_id: str) -> dict | None:
        """The assignment (a teacher's whole; a learner's her own, with her states); None if
        there is none; only its id when it is another class's (the service says no more)."""
        try:
            return self.client.call("GET", f"api/homework/{quote(str(assignment_id), safe='')}")
        except ServiceRefused as refused:
            if refused.status == 404 or refused.code == "bad_id":
                return None
            if refused.code == "not_yours":
                return {"id": str(assignment_id)}
            raise self._error(refused) from None

    def class_assignments(self, class_code: str) -> list[dict]:
        return self._ask("GET", f"api/classes/{quote(class_code, safe='')}/homework")

    def answer(self, assignment_id: str, item: int, learner_id: str, choice) -> dict:
        return self._ask("POST", f"api/homework/{quote(str(assignment_id), safe='')}/answer",
                        {"item": item, "choice": choice})

    def learner_homework(self, learner_id: str) -> list[dict]:
        return self._ask("GET", "api/homework")

    def class_results(self, assignment_id: str) -> dict | None:
        return self._ask("GET", f"api/homework/{quote(str(assignment_id), safe='')}/results", none_if=(404,))

    def bot_table(self, assignment_id: str, item: int, learner_id: str, game: str | None = None, *,
                  seats: int | None = None, options: dict | None = None, pace: float | None = None) -> dict:
        """Her homework table for game item `item` against the bots, dealt by the service (or
        her open one): its seat view, as `RemoteClassroom.create_table` gives it (its `code`
        among it). `seats`, `options`, `pace`: as for a table; the learner is her token's."""
        body: dict = {"item": item}
        for name, value in (("game", game), ("seats", seats), ("options", options), ("pace", pace)):
            if value is not None:
                body[name] = value
        return self._ask("POST", f"api/homework/{quote(str(assignment_id), safe='')}/table", body)

    def table_game_over(self, table_code: str) -> list[dict]:
        return self._ask("POST", f"api/tables/{quote(str(table_code), safe='')}/homework", {})


class RemoteMastery(_Lessons):
    """classroom.mastery's MasteryService through the class service (the due skills by the
    service's clock: `now` is not sent)."""

    def learner_levels(self, learner_id: str) -> dict[str, dict]:
        return self._ask("GET", "api/skills")["levels"]

    def due_skills(self, learner_id: str, now: float | None = None) -> list[str]:
        return self._ask("GET", "api/skills")["due"]

    def class_levels(self, class_code: str) -> dict:
        return self._ask("GET", f"api/classes/{quote(class_code, safe='')}/skills")


class RemoteLiveQuiz(_Lessons):
    """classroom.live's LiveQuiz through the class service: the hub decides who teaches (no
    teacher key), the token who answers."""

    def _path(self, code: str, tail: str = "") -> str:
        return f"api/live/{quote(str(code)[:20], safe='')}{tail}"

    def start(self, class_code: str, teacher_key: str = "") -> dict:
        """A session for the class that is hub group `class_code`; NotAllowed if this hub user
        does not teach or there is no such group."""
        from .values import NotAllowed
        try:
            return self.client.call("POST", "api/live", {"class": str(class_code).strip()})
        except ServiceRefused as refused:
            if refused.status in (400, 403, 404):  # not a class name, not a teacher, no such group
                raise NotAllowed(refused.en) from None
            raise self._error(refused) from None

    def ask(self, code: str, host_token: str, question: dict, seconds: int = 20) -> int:
        return self._ask("POST", self._path(code, "/ask"),
                         {"host_token": host_token, "question": question, "seconds": seconds})["number"]

    def close(self, code: str, host_token: str) -> None:
        self._ask("POST", self._path(code, "/close"), {"host_token": host_token})

    def end(self, code: str, host_token: str) -> None:
        self._ask("POST", self._path(code, "/end"), {"host_token": host_token})

    def join(self, code: str, learner_id: str = "", name: str = "", class_code: str = "") -> dict:
        return self._ask("POST", self._path(code, "/join"), {})

    def answer(self, code: str, learner_id: str, number: int, choice: int) -> dict:
        return self._ask("POST", self._path(code, "/answer"), {"number": number, "choice": choice})

    def question(self, code: str, learner_id: str | None = None) -> dict:
        return self._ask("GET", self._path(code))

    def board(self, code: str) -> dict:
        return self._ask("GET", self._path(code, "/board"))


def _answer_error(refused: ServiceRefused) -> Exception:
    """A refusal of the answers family as the in-process AnswerError; any other as it came."""
    from .answers import CATALOGUE, AnswerError
    if refused.family == "answers" and refused.code in CATALOGUE:
        try:
            return AnswerError(refused.code, **refused.fields)
        except (KeyError, IndexError, ValueError):
            pass
    return refused


class RemoteTournaments(_Lessons):
    """classroom.tournament's TournamentService through the class service (issue 34): the hub
    decides who teaches (no teacher key), the token who plays (learner ids passed are not sent
    but as the teacher's choice of a learner, by her hub name)."""

    def _path(self, code: str, tail: str = "") -> str:
        return f"api/tournaments/{quote(str(code)[:20], safe='')}{tail}"

    def open(self, class_code: str, teacher_key: str, setup: dict) -> dict:
        from .values import NotAllowed
        try:
            return self.client.call("POST", "api/tournaments", {"class": str(class_code).strip(), "setup": setup})
        except ServiceRefused as refused:
            if refused.family != self.family and refused.status in (400, 403, 404):
                raise NotAllowed(refused.en) from None
            raise self._error(refused) from None

    def seen(self, code: str, learner_id: str = "", name: str = "") -> None:
        self.my_table(code)

    def resume(self, class_code: str, teacher_key: str, code: str) -> dict:
        from .values import NotAllowed
        try:
            return self.client.call("POST", self._path(code, "/resume"), {"class": str(class_code).strip()})
        except ServiceRefused as refused:
            if refused.family != self.family and refused.status in (400, 403, 404):
                raise NotAllowed(refused.en) from None
            raise self._error(refused) from None

    def of_class(self, class_code: str) -> list[dict]:
        return self._ask("GET", f"api/classes/{quote(str(class_code).strip()[:100], safe='')}/tournaments")

    def mine(self, learner: Any = None) -> list[dict]:
        return self._ask("GET", "api/tournaments")

    def _host(self, code: str, action: str, host_token: str, **body: Any) -> Any:
        return self._ask("POST", self._path(code, f"/{action}"), {"host_token": host_token, **body})

    @staticmethod
    def _hub_name(learner_id: str) -> str:
        return learner_id[4:] if learner_id.startswith("hub:") else learner_id

    def enrol_present(self, code: str, host_token: str) -> list[str]:
        return self._host(code, "enrol", host_token)["enrolled"]

    def add(self, code: str, host_token: str, learner_id: str, name: str = "") -> int:
        return self._host(code, "add", host_token, learner=self._hub_name(learner_id))["from_round"]

    def remove(self, code: str, host_token: str, learner_id: str) -> None:
        self._host(code, "remove", host_token, learner=self._hub_name(learner_id))

    def set_partners(self, code: str, host_token: str, pairs: list) -> None:
        self._host(code, "partners", host_token, pairs=[[self._hub_name(w) for w in p] for p in pairs])

    def start_round(self, code: str, host_token: str, number: int) -> dict:
        return self._host(code, "start", host_token, round=number)

    def board(self, code: str) -> dict:
        return self._ask("GET", self._path(code, "/board"))

    def my_table(self, code: str, learner_id: str = "", name: str = "") -> dict:
        return self._ask("GET", self._path(code))

    def export_csv(self, code: str, host_token: str, lang: str = "pt") -> str:
        return self._host(code, "csv", host_token, lang=lang)["csv"]

    def game_save(self, code: str, number: int, table: int) -> dict:
        return self._ask("GET", self._path(code, f"/save/{int(number)}/{int(table)}"))

class RemoteChecks(_Lessons):
    """classroom.checks's CheckService through the class service: the hub decides who teaches,
    the token who answers (the learner passed is not sent)."""

    def _path(self, ident: str, tail: str = "") -> str:
        return f"api/checks/{quote(str(ident)[:20], safe='')}{tail}"

    def open(self, class_code: str, skills, size: int = 10) -> dict:
        return self._ask("POST", "api/checks", {"class": class_code, "skills": list(skills), "size": size})

    def class_checks(self, class_code: str) -> list[dict]:
        return self._ask("GET", f"api/classes/{quote(class_code, safe='')}/checks")

    def open_after(self, class_code: str, check_id: str) -> dict:
        return self._ask("POST", self._path(check_id, "/after"), {"class": class_code})

    def close(self, class_code: str, check_id: str) -> dict:
        return self._ask("POST", self._path(check_id, "/close"), {"class": class_code})

    def results(self, class_code: str, check_id: str) -> dict:
        return self._ask("GET", self._path(check_id, f"/results?class={quote(class_code, safe='')}"))

    def mine(self, learner: Any) -> list[dict]:
        return self._ask("GET", "api/checks")

    def take(self, learner: Any, check_id: str) -> dict:
        return self._ask("GET", self._path(check_id))

    def submit(self, learner: Any, check_id: str, phase: str, chosen, seconds=None) -> dict:
        return self._ask("POST", self._path(check_id, "/submit"),
                         {"phase": phase, "chosen": list(chosen),
                          "seconds": None if seconds is None else list(seconds)})
