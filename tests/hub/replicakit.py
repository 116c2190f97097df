"""The class service in replicas on one machine, as a district runs it (issue 35, item 3).

N identical `python -m classroom.service` processes, externally managed (the hub starts none
of them: `hubkit.Hub(external_url=...)`), behind Debian's `haproxy` (round robin, or with
`balance="table"` a table's requests to one replica; health checks on `/health?probe=1` as a
deployment's probes, a request refused by a dead replica sent to another). Their pools go
through Debian's `pgbouncer` in transaction pooling; each process's one LISTEN connection goes
to PostgreSQL itself (PgBouncer passes LISTEN on only in session pooling). Everything binds
127.0.0.1 on free ports, and `stop()` stops every process started here.

For tests/test_replicas.py and `benchmarks/school.py --replicas N`:

    hub = hubkit.Hub(folder / "hub", database, ...)
    replicas = Replicas(folder / "replicas", database, hub.service_environment(), count=2)
    hub.external_url = replicas.url
    replicas.start(); hub.start()
    ...
    hub.stop(); replicas.stop()
"""
from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from hubkit import free_port

SBIN = "/usr/sbin:/usr/local/sbin"
PREFIX = "/services/cartas/"
# how haproxy spreads requests: "roundrobin", each request to the next replica (the tests: a
# table's moves and pages go through every replica); "table", every request about one table
# (`PREFIX` + "api/tables/CODE", its moves and long polls) to one replica, hashed on the path
# up to the code (the query left out; consistent hashing, so a replica lost moves only its
# own tables, with avalanche, so codes alike still spread), other paths hashed the same way
# (a learner's progress to one replica): deploy/jupyterhub/README.md, "Table affinity"
BALANCE = {
    "roundrobin": ["  balance roundrobin"],
    "table": [f"  balance uri path-only depth {PREFIX.count('/') + 2}", "  hash-type consistent sdbm avalanche"],
}


def _which(name: str) -> str | None:
    return shutil.which(name, path=f"{os.environ.get('PATH', '')}:{SBIN}")


def missing() -> str | None:
    """Why replicas cannot run here, or None."""
    for name in ("haproxy", "pgbouncer"):
        if _which(name) is None:
            return f"{name} is not installed: install Debian's package '{name}' (make test does)"
    return None


def _wait_port(port: int, process: subprocess.Popen, what: str, log: Path, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited: {_tail(log)}")
        with socket.socket() as sock:
            sock.settimeout(0.5)
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port} in {timeout} s: {_tail(log)}")


def _tail(path: Path) -> str:
    return path.read_text(errors="replace")[-3000:] if path.exists() else ""


def _stop(process: subprocess.Popen | None, how: int = signal.SIGTERM) -> None:
    """Stop `process` and its process group (it was started in a session of its own)."""
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, how)
        process.wait(15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    except ProcessLookupError:
        pass


@dataclass
class Replicas:
    folder: Path
    database_url: str                 # PostgreSQL itself (the LISTEN connections'); user and database
    environment: dict[str, str]       # what the processes know of the hub (`Hub.service_environment`)
    count: int = 2
    pool_size: int = 4
    pgbouncer: bool = True            # pools through PgBouncer (transaction pooling); else straight
    bouncer_pool_size: int = 12       # PgBouncer's connections to PostgreSQL (its default_pool_size)
    balance: str = "roundrobin"       # or "table": a table's requests to one replica (`BALANCE`)
    haproxy_port: int = field(default_factory=free_port)
    pgbouncer_port: int = field(default_factory=free_port)
    ports: list[int] = field(default_factory=list)
    processes: dict[int, subprocess.Popen] = field(default_factory=dict)
    proxy: subprocess.Popen | None = None
    bouncer: subprocess.Popen | None = None
    bouncer_home: Path | None = None

    def __post_init__(self):
        if self.balance not in BALANCE:
            raise ValueError(f"balance: one of {', '.join(BALANCE)}, not {self.balance!r}")
        if not self.ports:
            self.ports = [free_port() for _ in range(self.count)]

    @property
    def url(self) -> str:
        """The one address of all replicas (haproxy's): the hub's `url` of the service."""
        return f"http://127.0.0.1:{self.haproxy_port}"

    def replica_url(self, index: int) -> str:
        """Replica `index` itself, bypassing haproxy (and the hub's proxy)."""
        return f"http://127.0.0.1:{self.ports[index]}{PREFIX}"

    @property
    def pooled_url(self) -> str:
        """The pools' database URL: PgBouncer's, the same user and database."""
        if not self.pgbouncer:
            return self.database_url
        parts = urlsplit(self.database_url)
        user = parts.username or "cartas"
        return urlunsplit(parts._replace(netloc=f"{user}@127.0.0.1:{self.pgbouncer_port}"))

    # running
    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.pgbouncer:
            self._start_pgbouncer()
        for index in range(self.count):
            self.start_replica(index)
        self._start_haproxy()
        for index in range(self.count):
            self.wait_ready(index)
        deadline = time.monotonic() + 20
        while not self._ok(f"{self.url}{PREFIX}health"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"haproxy does not reach the replicas: {_tail(self.folder / 'haproxy.log')}")
            time.sleep(0.1)
        self.wait_all_up()

    def servers_up(self) -> set[str]:
        """The replicas haproxy counts as up now ("r0", "r1", ...), read from its stats socket."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            sock.connect(str(self.folder / "haproxy.sock"))
            sock.sendall(b"show stat\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        lines = answer.decode().splitlines()
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","))) for line in lines[1:] if line]
        return {row["svname"] for row in rows
                if row.get("pxname") == "replicas" and row.get("status") == "UP" and row["svname"].startswith("r")}

    def wait_all_up(self, timeout: float = 30.0) -> None:
        """Wait until haproxy counts every replica as up: its checks began before the replicas
        listened, so each one was down first and is up only after two checks in a row; a
        request sent before then goes to the replicas already up (under table affinity a
        table's requests then moved to another replica as it came up)."""
        deadline = time.monotonic() + timeout
        wanted = {f"r{i}" for i in range(self.count)}
        while (up := self.servers_up()) != wanted:
            if time.monotonic() > deadline:
                raise RuntimeError(f"haproxy counts {sorted(up)} of {sorted(wanted)} as up: "
                                   f"{_tail(self.folder / 'haproxy.log')}")
            time.sleep(0.1)

    def _start_pgbouncer(self) -> None:
        parts = urlsplit(self.database_url)
        # a folder of its own, outside `folder` (which its user may not be allowed to enter)
        home = self.bouncer_home = Path(tempfile.mkdtemp(prefix="cartas-pgbouncer-"))
        run_as: list[str] = []
        if os.geteuid() == 0:   # PgBouncer refuses to run as root: hand its folder to postgres (or nobody)
            user = next(u for u in ("postgres", "nobody") if _has_user(u))
            entry = pwd.getpwnam(user)
            os.chown(home, entry.pw_uid, entry.pw_gid)
            run_as = ["runuser", "-u", user, "--"]
        (home / "users.txt").write_text(f'"{parts.username or "cartas"}" ""\n')
        (home / "pgbouncer.ini").write_text("\n".join([
            "[databases]",
            f"* = host={parts.hostname} port={parts.port}",
            "[pgbouncer]",
            f"listen_addr = 127.0.0.1\nlisten_port = {self.pgbouncer_port}",
            "unix_socket_dir =",
            f"auth_type = trust\nauth_file = {home / 'users.txt'}",
            f"admin_users = {parts.username or 'cartas'}",
            "pool_mode = transaction",
            "max_client_conn = 400", f"default_pool_size = {self.bouncer_pool_size}",
            "server_reset_query =",
            f"logfile = {home / 'pgbouncer.log'}",
            "",
        ]))
        if run_as:
            for path in home.iterdir():
                os.chown(path, entry.pw_uid, entry.pw_gid)
        with open(self.folder / "pgbouncer.out", "ab") as out:
            self.bouncer = subprocess.Popen([*run_as, _which("pgbouncer") or "pgbouncer", str(home / "pgbouncer.ini")],
                                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        _wait_port(self.pgbouncer_port, self.bouncer, "pgbouncer", self.folder / "pgbouncer.out")

    def start_replica(self, index: int) -> None:
        """Start replica `index` (again, after `kill`) on its port."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CARTAS_", "JUPYTERHUB_"))}
        env.update(self.environment)
        env.update({"CARTAS_DATABASE_URL": self.pooled_url, "CARTAS_LISTEN_URL": self.database_url,
                    "CARTAS_REPLICA": f"r{index}"})
        log = open(self.folder / f"replica-{index}.log", "ab")
        self.processes[index] = subprocess.Popen(
            [sys.executable, "-m", "classroom.service", "--pool-size", str(self.pool_size),
             "--ip", "127.0.0.1", "--port", str(self.ports[index])],
            cwd=self.folder, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()

    def wait_ready(self, index: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not self._ok(f"{self.replica_url(index)}health"):
            process = self.processes[index]
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"replica {index} did not start: {_tail(self.folder / f'replica-{index}.log')}")
            time.sleep(0.1)

    def _start_haproxy(self) -> None:
        # a replica is out after three failed checks in a row (a killed one within a second: its
        # port refuses at once), each given 2 s: one probe answered late on a loaded machine
        # marked a live replica down (fall 1, the check's timeout its 300 ms interval), and
        # its tables went to the other one meanwhile (a table's requests split in a make test run)
        servers = [f"  server r{i} 127.0.0.1:{port} check inter 300ms fall 3 rise 2"
                   for i, port in enumerate(self.ports)]
        config = self.folder / "haproxy.cfg"
        config.write_text("\n".join([
            "global",
            "  maxconn 2000",
            f"  stats socket {self.folder / 'haproxy.sock'} mode 600 level user",  # `servers_up`
            "defaults",
            "  mode http",
            "  timeout connect 2s\n  timeout client 90s\n  timeout server 90s\n  timeout check 2s",
            "  retries 3\n  option redispatch 1",
            # a replica killed mid-request: the request goes to another one (a move sent twice
            # is refused by the table's compare-and-swap, "the table moved on")
            "  retry-on conn-failure empty-response",
            # a watch stream's lines (classroom.service) go out as they come: without it haproxy
            # holds a chunk back for more, up to 200 ms a line (100 ms at the median)
            "  option http-no-delay",
            "frontend cartas",
            f"  bind 127.0.0.1:{self.haproxy_port}",
            "  default_backend replicas",
            "backend replicas",
            *BALANCE[self.balance],
            # the probe a deployment's checks ask (class-service.yaml): answered from memory,
            # no figures sorted; a check every 300 ms must not cost the service its /health
            f"  option httpchk GET {PREFIX}health?probe=1",
            *servers,
            "",
        ]))
        log = self.folder / "haproxy.log"
        with open(log, "ab") as out:
            self.proxy = subprocess.Popen([_which("haproxy") or "haproxy", "-db", "-f", str(config)],
                                          stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        _wait_port(self.haproxy_port, self.proxy, "haproxy", log)

    @staticmethod
    def _ok(url: str) -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status == 200
        except (OSError, urllib.error.URLError):
            return False

    def health(self, index: int) -> dict:
        with urllib.request.urlopen(f"{self.replica_url(index)}health", timeout=10) as response:
            return json.loads(response.read())

    def kill(self, index: int) -> None:
        """SIGKILL replica `index`: no goodbye, as a node lost."""
        process = self.processes[index]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)

    def stop(self) -> None:
        for process in self.processes.values():
            _stop(process)
        _stop(self.proxy)
        _stop(self.bouncer)
        if self.bouncer_home is not None:
            shutil.rmtree(self.bouncer_home, ignore_errors=True)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False
