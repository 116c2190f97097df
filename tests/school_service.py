"""The class service in this process for tests: on a thread and a port of its own (127.0.0.1),
with `SchoolHub` answering what the service asks the hub (whose token, who teaches, the
groups) for a small school: a teacher (`prof`, in each class's `teachers-<class>` group),
class `turma-a` (ana and bia), class `turma-b` (caio) and class `turma-c` (40 learners,
`aluno00` to `aluno39`); the service's own rules decide who teaches (`HubRules`).
tests/hub drives the same service through a real hub.
"""
from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request

from classroom.remote import RemoteClassroom
from classroom.service import Classes, HubRules, Service, make_app, open_store


class SchoolHub(HubRules):
    """What the hub answers the service about a small school (tokens, teachers, groups)."""

    teachers_group = "teachers"

    def __init__(self, crowd: int = 40):
        """`crowd`: the learners of class `turma-c` (`aluno00`, `aluno01`, ...), for bursts."""
        many = [f"aluno{i:02d}" for i in range(crowd)]
        self.tokens = {f"token-{name}": name for name in ("prof", "ana", "bia", "caio", *many)}
        self.groups = {"teachers": ["prof"], "turma-a": ["ana", "bia"], "turma-b": ["caio"], "turma-c": many,
                       **{f"teachers-turma-{c}": ["prof"] for c in "abc"}}

    async def user_for_token(self, token: str) -> dict | None:
        name = self.tokens.get(token)
        return {"kind": "user", "name": name} if name else None

    async def user(self, name: str) -> dict:
        return {"name": name, "admin": False, "groups": [g for g, who in self.groups.items() if name in who]}

    async def members(self, group: str) -> list[str] | None:
        return sorted(self.groups[group]) if group in self.groups else None

    async def classes(self) -> list[dict]:
        return [{"name": g, "members": sorted(m)} for g, m in self.groups.items() if self.is_class(g)]


class School:
    """The class service on a thread of its own, and one client per hub user."""

    def __init__(self, location: str):
        self.location = location
        self.ready = threading.Event()
        self.port = 0
        self.failed: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.ready.wait(60) or self.failed is not None:
            raise RuntimeError(f"the service did not start: {self.failed!r}")

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as error:  # reported to the test
            self.failed = error
            self.ready.set()

    async def _serve(self) -> None:
        from tornado.httpserver import HTTPServer
        from tornado.netutil import bind_sockets
        store, listen, workers = open_store(self.location, 3)
        try:
            self.service = Service(Classes(store, workers), SchoolHub(), listen)  # type: ignore[arg-type]
            self.service.start()
            sockets = bind_sockets(0, "127.0.0.1")
            self.port = sockets[0].getsockname()[1]
            server = HTTPServer(make_app(self.service))
            server.add_sockets(sockets)
            self.stopping = asyncio.Event()
            self.loop = asyncio.get_running_loop()
            self.ready.set()
            await self.stopping.wait()
            server.stop()
            await server.close_all_connections()
        finally:
            store.close()

    def client(self, name: str) -> RemoteClassroom:
        return RemoteClassroom(f"http://127.0.0.1:{self.port}/", f"token-{name}", name)

    def raw(self, name: str, method: str, path: str, body: bytes | None = None) -> tuple[int, dict]:
        """A request as any program could send it (not through RemoteClassroom)."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/{path}", data=body, method=method,
                                         headers={"Authorization": f"token token-{name}"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(30)
