"""One classroom interface, `Classroom`, and its two implementations.

What every page asks of "the class" (progress, classes, identity, tables, homework, mastery and
the live quiz) is declared once here, as a `typing.Protocol`. It is answered either by the store
in this process (`StoreClassroom`: a teacher's laptop, Binder) or by the class service's client
(`ServiceClassroom`: under JupyterHub, where a kernel holds no database credentials).
`classroom.open()` chooses one per kernel; no caller asks which it got. Where the two really
differ, a caller asks the interface a declared question:

- `hub_user`: the learner the hub's login names (None: the page asks her who she is);
- `code_limiter()`: this kernel's limiter of guessed codes (None where the service limits them);
- `remembered_devices(code)`: 0 under the hub, whose login replaces a device.

Under the hub, what the hub's login replaces (a teacher key, a device, a PIN, a login card)
is refused as `StoreUnavailable`, as this kernel runs no SQL.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from . import answers as whole, attempts, checks, classes, homework, identity, live, mastery, progress
from .answers import Answer
from .checks import CheckService
from .homework import HomeworkService
from .identity import Joined, Learner, LearnerService
from .live import LiveQuiz
from .mastery import MasteryService
from .store import Store, StoreUnavailable
from .tables import DEFAULT_PACE, DEFAULT_TIMEOUT
from .values import NewClass

if TYPE_CHECKING:
    from .remote import RemoteClassroom
    from .tables import Tables
    from .tournament import StoreTournaments, TournamentService  # numpy loads with a tournament, not with a page

NO_SQL = "under JupyterHub the hub's login says who she is: this kernel runs no SQL"


class TableRoom(Protocol):
    """The tables (mesas) as the tables page uses them (`classroom.tables.Tables` in this
    process, `classroom.remote_tables.RemoteTables` over the class service)."""

    def create(self, game: str, learner: str, name: str, *, seats: int | None = None,
               options: dict | None = None, class_code: str = "", seat: int = 0, timeout: float = DEFAULT_TIMEOUT,
               pace: float = DEFAULT_PACE, seed: int | None = None, level: str = "rule") -> str: ...
    def snapshot(self, code: str) -> Any: ...
    def list_class(self, class_code: str, archived: bool = False) -> list: ...
    def heartbeat(self, code: str, learner: str) -> None: ...
    def client(self, code: str, learner: str | None) -> Any: ...
    def clock(self) -> float: ...


class Classroom(Protocol):
    """What the dashboards ask of the class, wherever it is kept (see the module docstring)."""

    @property
    def hub_user(self) -> str | None:
        """The learner the hub's login names; None where the page asks who she is."""
        ...

    # progress
    def record(self, learner: Learner, lesson: str, answers: Sequence[bool], skills: Sequence[str] | None = None
               ) -> None: ...
    def progress(self, learner_id: str) -> dict[str, dict]: ...
    def claim_imported(self, learner: Learner) -> int: ...

    # every answer kept whole (classroom.answers): the learner writes and reads her own, a
    # class's teacher reads her class's
    def record_answers(self, learner: Learner, answers: Sequence[Answer]) -> int: ...
    def record_answer(self, learner: Learner, answer: Answer) -> int: ...
    def answers_of(self, learner_id: str, since: float | None = None, context: str | None = None
                   ) -> list[Answer]: ...
    def class_answers(self, code: str, since: float | None = None, context: str | None = None
                      ) -> list[Answer]: ...

    # classes
    def create_class(self, title: str) -> NewClass: ...
    def open_class(self, code: str, key: str) -> NewClass: ...
    def class_learners(self, code: str) -> list[dict]: ...
    def remove_learner(self, code: str, learner_id: str) -> bool: ...
    def remember_device(self, code: str, key: str) -> str: ...
    def open_with_device(self, code: str, token: object) -> NewClass: ...
    def forget_device(self, token: object) -> None: ...
    def forget_every_device(self, code: str, key: str) -> int: ...
    def remembered_devices(self, code: str) -> int: ...
    def code_limiter(self) -> attempts.Attempts | None: ...

    # identity, tables, homework, mastery, the live quiz
    def learners(self) -> LearnerService: ...
    def tables(self) -> TableRoom: ...
    def homework(self) -> HomeworkService: ...
    def mastery(self) -> MasteryService: ...
    def live(self) -> LiveQuiz: ...
    def tournaments(self) -> TournamentService: ...  # issue 34

    # a check before and after (classroom.checks)
    def checks(self) -> CheckService: ...


class StoreClassroom:
    """The classroom kept in this process's store (`classroom.progress.open_store`).

    It is the one implementation of the classroom's rules: a laptop's pages ask it, and so do
    the class service's handlers (`classroom.service`), which add only who asks (the hub's
    token, a class's teachers, rate limits) and the wire (JSON). What the hub knows and a
    laptop's store does not (a learner's classes are her hub groups, a class's learners its
    group's members) the service passes in as arguments of these same services (`classes=`,
    `learners=`, `learner_ids=`, `members_learners`, `answers_of_learners`); each service
    returned here is the concrete one (`homework.StoreHomework`, ...), which answers the
    protocol's questions and those extra arguments."""

    hub_user: str | None = None

    def __init__(self, store: Store):
        self.store = store

    def migrate(self) -> None:
        """Every table of the classroom in this store (a store opened bare, as the class
        service opens its own: `classroom.progress.open_store` does the same for a laptop)."""
        self.store.migrate(progress.MIGRATIONS)
        self.store.migrate(homework.MIGRATIONS)
        self.live()            # each migrates its own tables
        self.tournaments()
        self.checks()

    def record(self, learner: Learner, lesson: str, answers: Sequence[bool], skills: Sequence[str] | None = None
               ) -> None:
        progress.record(self.store, learner, lesson, answers, skills=skills)

    def progress(self, learner_id: str) -> dict[str, dict]:
        return progress.learner_progress(self.store, learner_id)

    def claim_imported(self, learner: Learner) -> int:
        return progress.claim_imported(self.store, learner)

    # every answer kept whole (classroom.answers)
    def record_answers(self, learner: Learner, answers: Sequence[Answer]) -> int:
        return whole.record(self.store, learner, answers)

    def record_answer(self, learner: Learner, answer: Answer) -> int:
        return whole.record(self.store, learner, [answer])

    def answers_of(self, learner_id: str, since: float | None = None, context: str | None = None
                   ) -> list[Answer]:
        return whole.answers_of(self.store, learner_id, since, context)

    def class_answers(self, code: str, since: float | None = None, context: str | None = None
                      ) -> list[Answer]:
        return whole.class_answers(self.store, code, since, context)

    def answers_of_learners(self, learner_ids: Sequence[str], since: float | None = None,
                            context: str | None = None) -> list[Answer]:
        """The answers of `learner_ids` (a class the caller knows: a hub group's members)."""
        return whole.answers_of_learners(self.store, list(learner_ids), since, context)

    def create_class(self, title: str) -> NewClass:
        return classes.create_class(self.store, title)

    def open_class(self, code: str, key: str) -> NewClass:
        return classes.open_class(self.store, code, key)

    def class_learners(self, code: str) -> list[dict]:
        return progress.class_learners(self.store, code)

    def members_learners(self, members: Sequence[tuple[str, str]]) -> list[dict]:
        """`class_learners`' rows of a class the caller knows ((id, name) pairs: a hub group's)."""
        return progress.members_learners(self.store, members)

    def remove_learner(self, code: str, learner_id: str) -> bool:
        return progress.remove_learner(self.store, code, learner_id)

    def remember_device(self, code: str, key: str) -> str:
        return classes.remember_device(self.store, code, key)

    def open_with_device(self, code: str, token: object) -> NewClass:
        return classes.open_with_device(self.store, code, token)

    def forget_device(self, token: object) -> None:
        classes.forget_device(self.store, token)

    def forget_every_device(self, code: str, key: str) -> int:
        return classes.forget_every_device(self.store, code, key)

    def remembered_devices(self, code: str) -> int:
        return classes.remembered_devices(self.store, code)

    def code_limiter(self) -> attempts.Attempts:
        return attempts.limiter(self.store)

    def learners(self) -> LearnerService:
        return identity.StoreLearners(self.store)

    def tables(self) -> Tables:
        from .tables import StoreRepository, Tables
        return Tables(StoreRepository(self.store))

    def homework(self) -> homework.StoreHomework:
        return homework.StoreHomework(self.store)

    def mastery(self) -> mastery.StoreMastery:
        return mastery.StoreMastery(self.store)

    def live(self) -> live.StoreLiveQuiz:
        return live.StoreLiveQuiz(self.store)

    def tournaments(self) -> StoreTournaments:
        from .tournament import StoreTournaments
        return StoreTournaments(self.store)

    def checks(self) -> checks.StoreChecks:
        return checks.StoreChecks(self.store)


class HubLearners:
    """The LearnerService under JupyterHub: the hub's login says who she is, so a PIN, a
    login card or a device token is never asked of the service (each is StoreUnavailable)."""

    def _refused(self) -> StoreUnavailable:
        return StoreUnavailable(NO_SQL)

    def join(self, class_code, name, pin, browser_id) -> Joined:
        raise self._refused()

    def sign_in_with_card(self, login_code, browser_id) -> Joined:
        raise self._refused()

    def check(self, token, browser_id) -> Learner | None:
        raise self._refused()

    def sign_out(self, token) -> None:
        raise self._refused()

    def print_cards(self, class_code: str, learner_ids=None, missing_only: bool = False) -> list[identity.Card]:
        raise self._refused()

    def reset_pin(self, class_code: str, learner_id: str) -> str:
        raise self._refused()

    def merge(self, class_code: str, source_id: str, target_id: str) -> None:
        raise self._refused()

    def remove(self, class_code: str, learner_id: str) -> bool:
        raise self._refused()


class ServiceClassroom:
    """The classroom of a hub user, asked of the class service (`classroom.remote`): the
    service takes the learner from her token, so the learner ids passed are not sent."""

    def __init__(self, client: RemoteClassroom):
        self.client = client

    @property
    def hub_user(self) -> str | None:
        return self.client.hub_user or None

    def record(self, learner: Learner, lesson: str, answers: Sequence[bool], skills: Sequence[str] | None = None
               ) -> None:
        answers = [bool(a) for a in answers]
        if answers:
            self.client.record(lesson, answers, [mastery.check_skill(s) for s in skills] if skills else None)

    def progress(self, learner_id: str) -> dict[str, dict]:
        return self.client.progress()

    def claim_imported(self, learner: Learner) -> int:
        return 0  # a hub user's kernel holds no legacy JSON of its own to claim

    # every answer kept whole (classroom.answers): the service takes the learner from her
    # token, and checks that a class's reader teaches it
    def record_answers(self, learner: Learner, answers: Sequence[Answer]) -> int:
        return self.client.record_answers(answers)

    def record_answer(self, learner: Learner, answer: Answer) -> int:
        return self.client.record_answers([answer])

    def answers_of(self, learner_id: str, since: float | None = None, context: str | None = None
                   ) -> list[Answer]:
        user = learner_id[4:] if learner_id.startswith("hub:") else learner_id
        return self.client.answers_of(user or None, since, context)

    def class_answers(self, code: str, since: float | None = None, context: str | None = None
                      ) -> list[Answer]:
        return self.client.class_answers(code, since, context)

    def create_class(self, title: str) -> NewClass:
        raise StoreUnavailable(NO_SQL)  # a class is a hub group, made by the hub's admin

    def open_class(self, code: str, key: str) -> NewClass:
        return self.client.open_class(code)

    def class_learners(self, code: str) -> list[dict]:
        return self.client.class_learners(code)

    def remove_learner(self, code: str, learner_id: str) -> bool:
        raise StoreUnavailable(NO_SQL)  # a hub group's members are the hub's

    def remember_device(self, code: str, key: str) -> str:
        raise StoreUnavailable(NO_SQL)

    def open_with_device(self, code: str, token: object) -> NewClass:
        raise StoreUnavailable(NO_SQL)

    def forget_device(self, token: object) -> None:
        raise StoreUnavailable(NO_SQL)

    def forget_every_device(self, code: str, key: str) -> int:
        raise StoreUnavailable(NO_SQL)

    def remembered_devices(self, code: str) -> int:
        return 0  # the hub's login replaces a device

    def code_limiter(self) -> None:
        return None  # the service limits guessed codes, per hub user

    def learners(self) -> LearnerService:
        return HubLearners()

    def tables(self) -> TableRoom:
        from .remote_tables import RemoteTables
        return RemoteTables(self.client)

    def homework(self) -> HomeworkService:
        return self.client.homework(homework.HomeworkError)

    def mastery(self) -> MasteryService:
        return self.client.mastery()

    def live(self) -> LiveQuiz:
        return self.client.live(live.LiveError)

    def tournaments(self) -> TournamentService:
        from .tournament import TournamentRefused
        return self.client.tournaments(TournamentRefused)
    def checks(self) -> CheckService:
        return self.client.checks(checks.CheckError)


if TYPE_CHECKING:  # both implement the one interface (mypy checks it here)
    def _both(store: Store, client: RemoteClassroom) -> tuple[Classroom, Classroom]:
        return StoreClassroom(store), ServiceClassroom(client)
