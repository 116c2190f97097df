"""A real JupyterHub for the tests (and benchmarks/school.py): config, start, stop, kernels.

The hub runs on 127.0.0.1 with DummyAuthenticator, SimpleLocalProcessSpawner (with
`--allow-root` when root), the Cartas class service and the idle culler as hub-managed
services, and a `tester` service whose token spawns servers, issues users' tokens and runs
code in a learner's kernel (the kernel API of her single-user server). With `external_url`
the class service is externally managed instead (the hub starts no process of it: its URL,
its token and its OAuth client are configured, as deploy/jupyterhub/README.md says; the
replicas behind that URL are started by tests/hub/replicakit.py).
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from serving_ports import free_port

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
PROXY = ROOT / "build" / "npm" / "node_modules" / ".bin" / "configurable-http-proxy"
TEACHERS = ["tereza"]
CLASS = "turma-a"
LEARNERS = ["ana", "bia", "cora"]   # cora is in the class and never opens a lesson
# another class and its teacher (issue 33, items 6 and 7: each teacher only her class); eli is
# asked of the hub only by the hung-hub test (tests/hub/test_hub_security.py)
OTHER_CLASS = "turma-b"
OTHER_LEARNERS = ["duda", "eli"]
OTHER_TEACHERS = ["vera"]
ADMINS = ["rita"]                   # a hub admin: a teacher of every class


def school_groups(learners: list[str], teachers: list[str]) -> dict[str, list[str]]:
    """The hub groups of the tests' school: each class, and its `teachers-<class>` group."""
    return {CLASS: learners, f"teachers-{CLASS}": teachers,
            OTHER_CLASS: list(OTHER_LEARNERS), f"teachers-{OTHER_CLASS}": list(OTHER_TEACHERS)}


def deployed_values() -> dict:
    """deploy/jupyterhub/values.yaml, whose settings for the hub and its proxy this hub shares."""
    import yaml

    return yaml.safe_load((ROOT / "deploy" / "jupyterhub" / "values.yaml").read_text())


def missing() -> str | None:
    """Why a hub cannot start here, or None."""
    if shutil.which("jupyterhub", path=str(VENV_BIN)) is None:
        return "jupyterhub is not installed in the test environment (pip install -e '.[test]')"
    if not PROXY.exists():
        return "configurable-http-proxy is missing: run `make hubproxy` (npm install into build/npm)"
    return None


class ServiceElsewhere(RuntimeError):
    """What answers at the class service's address behind the hub's proxy is not a service of
    this hub (`Hub.check_service_is_this_hubs`): start the hub again on other ports."""


@dataclass
class Hub:
    folder: Path
    database_url: str
    learners: list[str] = field(default_factory=lambda: list(LEARNERS))
    teachers: list[str] = field(default_factory=lambda: list(TEACHERS))
    groups: dict[str, list[str]] | None = None
    admins: list[str] = field(default_factory=lambda: list(ADMINS))
    pool_size: int = 4
    spawn: bool = True
    proxy_port: int = field(default_factory=free_port)
    hub_port: int = field(default_factory=free_port)
    api_port: int = field(default_factory=free_port)
    service_port: int = field(default_factory=free_port)
    tester_token: str = field(default_factory=lambda: secrets.token_hex(24))
    external_url: str | None = None     # the class service's URL, externally managed (replicas)
    service_token: str = field(default_factory=lambda: secrets.token_hex(24))
    process: subprocess.Popen | None = None
    spawned: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.hub_port}/hub/api"

    @property
    def service_url(self) -> str:
        """The class service as learners' kernels reach it: through the hub's proxy."""
        return f"{self.url}/services/cartas/"

    def config(self) -> str:
        python = sys.executable
        groups = self.groups or school_groups(self.learners, self.teachers)
        users = sorted({*self.learners, *self.teachers, *self.admins, *(u for g in groups.values() for u in g)})
        spawner_args = ["--allow-root"] if os.geteuid() == 0 else []
        home = self.folder / "home"
        return "\n".join([
            f"c.JupyterHub.ip = '127.0.0.1'; c.JupyterHub.port = {self.proxy_port}",
            f"c.JupyterHub.hub_ip = '127.0.0.1'; c.JupyterHub.hub_port = {self.hub_port}",
            f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{self.api_port}'",
            f"c.ConfigurableHTTPProxy.command = [{str(PROXY)!r}]",
            f"c.ConfigurableHTTPProxy.pid_file = {str(self.folder / 'proxy.pid')!r}",
            f"c.JupyterHub.db_url = 'sqlite:///{self.folder / 'hub.sqlite'}'",
            f"c.JupyterHub.cookie_secret_file = {str(self.folder / 'cookie_secret')!r}",
            "c.JupyterHub.authenticator_class = 'jupyterhub.auth.DummyAuthenticator'",
            f"c.Authenticator.allowed_users = set({users!r})",
            f"c.Authenticator.admin_users = set({self.admins!r})",
            "c.JupyterHub.spawner_class = 'jupyterhub.spawner.SimpleLocalProcessSpawner'",
            f"c.SimpleLocalProcessSpawner.home_dir_template = {str(home) + '/{username}'!r}",
            f"c.Spawner.cmd = [{str(VENV_BIN / 'jupyterhub-singleuser')!r}]",
            f"c.Spawner.args = {spawner_args!r}",
            f"c.Spawner.notebook_dir = {str(ROOT)!r}",
            "c.Spawner.default_url = '/voila/render/notebooks/index.ipynb'",
            "c.Spawner.start_timeout = 90; c.Spawner.http_timeout = 90",
            f"c.Spawner.environment = {{'CARTAS_SERVICE_URL': {self.service_url!r}}}",
            f"c.JupyterHub.load_groups = {{g: {{'users': u}} for g, u in {groups!r}.items()}}",
            "c.JupyterHub.services = [",
            *(self._external() if self.external_url else [
                f"  {{'name': 'cartas', 'url': 'http://127.0.0.1:{self.service_port}',",
                f"   'command': [{python!r}, '-m', 'classroom.service', '--pool-size', '{self.pool_size}'],",
                f"   'environment': {{'CARTAS_DATABASE_URL': {self.database_url!r}}}, "
                f"'cwd': {str(self.folder)!r}}},"]),
            f"  {{'name': 'idle-culler', 'command': [{python!r}, '-m', 'jupyterhub_idle_culler',",
            "   '--timeout=3600', '--cull-every=60']},",
            f"  {{'name': 'tester', 'api_token': {self.tester_token!r}}},",
            "]",
            "c.JupyterHub.load_roles = [",
            "  {'name': 'cartas-service', 'scopes': ['read:users', 'read:groups', 'list:groups'],",
            "   'services': ['cartas']},",
            "  {'name': 'idle-culler', 'scopes': ['list:users', 'read:users:activity', 'read:servers',",
            "   'delete:servers'], 'services': ['idle-culler']},",
            "  {'name': 'tester', 'scopes': ['admin:users', 'admin:servers', 'tokens', 'access:servers',",
            "   'read:groups', 'list:users', 'access:services', 'read:services', 'list:services'],",
            "   'services': ['tester']},",
            "]",
            # the deployment's own long-link settings (deploy/jupyterhub/values.yaml)
            deployed_values()["hub"]["extraConfig"]["cartas-long-links"],
            "",
        ])

    def _external(self) -> list[str]:
        """The class service externally managed: its URL, its token, its OAuth client."""
        return [f"  {{'name': 'cartas', 'url': {self.external_url!r}, 'api_token': {self.service_token!r},",
                "   'oauth_client_id': 'service-cartas', 'oauth_no_confirm': True},"]

    def service_environment(self) -> dict[str, str]:
        """What an externally managed class service process needs to know of the hub (a
        hub-managed one is told the same by the hub)."""
        return {"JUPYTERHUB_API_URL": self.api, "JUPYTERHUB_API_TOKEN": self.service_token,
                "JUPYTERHUB_SERVICE_NAME": "cartas", "JUPYTERHUB_CLIENT_ID": "service-cartas",
                "JUPYTERHUB_SERVICE_PREFIX": "/services/cartas/",
                "JUPYTERHUB_SERVICE_URL": self.external_url or ""}

    # running
    def start(self, timeout: float = 90.0) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "home").mkdir(exist_ok=True)
        (self.folder / "jupyterhub_config.py").write_text(self.config())
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CARTAS_", "JUPYTERHUB_"))}
        env["PATH"] = f"{PROXY.parent}:{VENV_BIN}:{env.get('PATH', '')}"
        env.update(deployed_values()["proxy"]["chp"]["extraEnv"])  # the hub passes them to its proxy
        log = open(self.folder / "hub.log", "wb")
        self.process = subprocess.Popen([str(VENV_BIN / "jupyterhub"), "-f", "jupyterhub_config.py"],
                                        cwd=self.folder, env=env, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the hub exited: {self.log()[-3000:]}")
            try:
                self.get(f"{self.service_url}health", token=None)
                self.request("GET", f"{self.api}/users/{self.learners[0]}")
                break
            except (OSError, urllib.error.URLError, RuntimeError):
                time.sleep(0.3)
        else:
            raise RuntimeError(f"the hub did not come up in {timeout} s: {self.log()[-3000:]}")
        self.check_service_is_this_hubs()

    def check_service_is_this_hubs(self) -> None:
        """The class service behind this hub's proxy asks this hub: a learner's new token is
        hers (`api/me`). ServiceElsewhere otherwise, with the hub's log. Another process on the
        service's port (another test worker's service or replicas, which ask their own hub)
        answers the health check as well, then refuses every learner's token as unknown
        (tests/serving_ports.py); the hub's own service then stops, its port taken. A hub too
        slow to answer its service in time (503 hub_down, on a loaded machine) is asked again."""
        learner = self.learners[0]
        headers = {"Authorization": f"token {self.token_for(learner)}"}
        for _attempt in range(10):
            try:
                request = urllib.request.Request(f"{self.service_url}api/me", headers=headers)
                with urllib.request.urlopen(request, timeout=60) as response:
                    me = json.loads(response.read())
            except urllib.error.HTTPError as error:
                me = {"status": error.code, "answer": error.read()[:300].decode(errors="replace")}
            if me.get("status") != 503:
                break
        if me.get("name") != learner:
            raise ServiceElsewhere(f"the class service behind this hub does not know its learner "
                                   f"{learner}: {me}; the hub's log: {self.log()[-3000:]}")

    def log(self) -> str:
        path = self.folder / "hub.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            # the hub starts its proxy, its services and the single-user servers each in a
            # session of their own: known now, so none outlives the hub if its shutdown misses one.
            # No graceful stop of each server first (the hub's database goes with it): on a loaded
            # machine the hub's own shutdown of them took the whole 30 s it was given.
            children = _descendants(self.process.pid)
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        else:   # it exited by itself (a port taken at start): what it started is orphaned
            children = self._left_behind()
        # anything of the hub's session left, then anything it started in a session of its own
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _kill_all(children)
        self.process = None

    def _left_behind(self) -> list:
        """The processes this hub started that outlived it: its proxy (its API port on the
        command line) and its services and single-user servers (this hub's API URL in their
        environment). The hub starts each in a session of its own. Processes this test process
        started itself (replicas of the class service, told the hub's API URL) are not the hub's."""
        import psutil
        api = f"JUPYTERHUB_API_URL={self.api}".encode()
        ours = {p.pid for p in psutil.Process().children(recursive=True)}
        found = []
        for process in psutil.process_iter(["cmdline"]):
            if process.pid in ours:
                continue
            try:
                line = process.info["cmdline"] or []
                proxy = any(a == "--api-port" and b == str(self.api_port) for a, b in zip(line, line[1:]))
                if proxy or api in Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0"):
                    found.append(process)
            except (OSError, psutil.Error):
                continue
        return found

    # the hub's REST API, as the tester service
    def request(self, method: str, url: str, body=None, token: str | None = "tester"):
        token = self.tester_token if token == "tester" else token
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"token {token}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as response:
                text = response.read()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} {url}: {error.code} {error.read()[:300]!r}") from None

    def get(self, url: str, token: str | None = "tester"):
        return self.request("GET", url, token=token)

    def token_for(self, user: str) -> str:
        return self.request("POST", f"{self.api}/users/{user}/tokens", {"note": "tests"})["token"]

    def spawn_servers(self, users: list[str], timeout: float = 120.0) -> None:
        """Start each user's server and wait until all are ready. A spawn the hub fails (500)
        because the port it chose was taken before the server bound it (ports are chosen free,
        then bound by another process: on a busy machine another may take one in between) is
        asked again, at most twice; any other failure is raised with the hub's log."""
        for user in users:
            self.spawned.append(user)
            for attempt in range(3):
                seen = len(self.log())
                try:
                    self.request("POST", f"{self.api}/users/{user}/server")
                    break
                except RuntimeError as error:
                    if ": 400 " in str(error):  # already running
                        break
                    said = self.log()[seen:]
                    if attempt == 2 or not any(s in said for s in ("already in use", "EADDRINUSE")):
                        raise RuntimeError(f"{error}; the hub's log then: {said[-3000:]}") from None
        deadline = time.monotonic() + timeout
        waiting = set(users)
        while waiting and time.monotonic() < deadline:
            for user in list(waiting):
                model = self.get(f"{self.api}/users/{user}")
                server = (model.get("servers") or {}).get("")
                if server and server.get("ready"):
                    waiting.discard(user)
            time.sleep(0.5)
        if waiting:
            raise RuntimeError(f"servers of {sorted(waiting)} did not start: {self.log()[-3000:]}")


# Code in a learner's kernel -------------------------------------------------------------------
async def run_in_kernel(hub: Hub, user: str, code: str, timeout: float = 120.0) -> str:
    """Run `code` in a new kernel of `user`'s single-user server (its kernel API, through the
    hub's proxy, with the tester's token); return what it printed. The kernel is shut down
    afterwards. An error in the code raises RuntimeError with its traceback."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect
    base = f"{hub.url}/user/{user}/api/kernels"
    headers = {"Authorization": f"token {hub.tester_token}"}
    client = AsyncHTTPClient()
    made = await client.fetch(base, method="POST", body=json.dumps({"name": "python3"}), headers=headers,
                              request_timeout=60)
    kernel = json.loads(made.body)["id"]
    try:
        ws = await websocket_connect(HTTPRequest(f"{base.replace('http', 'ws', 1)}/{kernel}/channels",
                                                 headers=headers))
        session, msg_id = uuid.uuid4().hex, uuid.uuid4().hex
        ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "username": user, "session": session, "msg_type": "execute_request",
                       "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        out: list[str] = []
        replied = idle = False
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"the kernel of {user} did not finish: {''.join(out)[-2000:]}")
            raw = await asyncio.wait_for(ws.read_message(), left)
            if raw is None:
                raise RuntimeError(f"the kernel of {user} closed the connection")
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg["header"]["msg_type"]
            if kind == "stream":
                out.append(msg["content"]["text"])
            elif kind == "error":
                raise RuntimeError("\n".join(msg["content"]["traceback"]))
            elif kind == "execute_reply":
                replied = True
            elif kind == "status" and msg["content"].get("execution_state") == "idle":
                idle = True
            if replied and idle:
                break
        ws.close()
        return "".join(out)
    finally:
        await client.fetch(f"{base}/{kernel}", method="DELETE", headers=headers, raise_error=False)


def _descendants(pid: int) -> list:
    """Every live process under `pid` (psutil, which ipykernel needs anyway)."""
    import psutil
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _kill_all(processes: list) -> None:
    """Stop `processes` (SIGTERM, then SIGKILL after 5 s); RuntimeError if one is still alive."""
    import psutil
    alive = [p for p in processes if p.is_running()]
    for stop in (psutil.Process.terminate, psutil.Process.kill):
        for process in alive:
            try:
                stop(process)
            except psutil.NoSuchProcess:
                pass
        _, alive = psutil.wait_procs(alive, timeout=5)
    if alive:
        raise RuntimeError(f"processes the hub started outlived it: {[p.pid for p in alive]}")
