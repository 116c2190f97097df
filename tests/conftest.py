"""Fixtures: every test gets its own store and identity; a throwaway PostgreSQL server.

`store_location` is parametrized over both back ends: a fresh SQLite file, and a fresh
database on a PostgreSQL server the session starts itself (initdb + pg_ctl in a temporary
folder, listening on 127.0.0.1 on a free port; stopped at the end). Under CI=true a missing
PostgreSQL is a failure; elsewhere the PostgreSQL cases are skipped with the reason.
"""
from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from serving_ports import free_port


def run_async(coroutine):
    """asyncio.run in a thread of its own: the browser tests' Playwright keeps an event loop
    running in the main thread for the whole session, where asyncio.run is refused."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# pytest-xdist (make test: `-n N --dist loadgroup`) -------------------------------------------
# Each worker is a session of its own: its own PostgreSQL, Voilà, Chromium and temporary
# folders, on ports it picks itself. Tests that share a costly server of a wider scope stay on
# one worker, so that server starts once: the hub's tests (one JupyterHub), and each module
# whose fixtures start a server for the whole module.
SHARED_SERVER_MODULES = {"test_mesa_dashboard.py", "test_index_dashboard.py", "test_server_extension.py",
                         "test_replicas.py"}
OWN_HUB_MODULES = {"test_replicas.py"}  # a hub, haproxy, PgBouncer and service replicas of its own


# The browser files whose tests take longest (seconds summed over a file's tests in a make test
# run here), handed out first among the browser tests, longest first: a long test handed out last
# (the tournament, 130 s; the prankster, 95 s) kept its worker busy while the others had finished.
# A file missing here goes after them, in collection order; a list that is out of date costs
# only time.
LONG_BROWSER_FILES = ("test_mesa_dashboard.py",          # one worker, one server: 190 s in a row
                      "test_tournament_dashboard.py", "test_check_before_after_dashboard.py",
                      "test_verified_learners_dashboard.py", "test_homework_dashboard.py",
                      "test_learners_and_class_dashboard.py", "test_turma_insight_dashboard.py",
                      "test_live_quiz_dashboard.py",
                      "test_class_serving.py", "test_lesson_pages_dashboard.py",
                      "test_mesa_mano_a_mano_dashboard.py", "test_phone_dashboards.py")


def _start_order(items) -> dict[Path, tuple[int, int]]:
    """When each test file's tests are handed out: the longest work first, so that no worker is
    left with a long test at the end of the run while the others wait (pytest-xdist hands out
    tests in collection order). The hub's group (one worker, one hub, its tests in a row), then
    Binder's install (a fresh environment: minutes), then the files with scale tests (`slow`),
    then the browser tests (LONG_BROWSER_FILES first, in its order), then everything else,
    whose short tests fill the gaps at the end. A file's tests stay together, in their order (a
    module's server starts once)."""
    order: dict[Path, tuple[int, int]] = {}
    for item in items:
        path = Path(str(item.path))
        rank = (0 if path.parent.name == "hub"
                else 1 if item.get_closest_marker("binder") or path.name in OWN_HUB_MODULES
                else 2 if item.get_closest_marker("slow") else 3 if path.parent.name == "browser" else 4)
        among = (LONG_BROWSER_FILES.index(path.name) if rank == 3 and path.name in LONG_BROWSER_FILES
                 else len(LONG_BROWSER_FILES))
        order[path] = min(order.get(path, (rank, among)), (rank, among))
    return order


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(str(item.path))
        if path.parent.name == "hub":
            item.add_marker(pytest.mark.xdist_group("hub"))
        elif path.name in SHARED_SERVER_MODULES:
            item.add_marker(pytest.mark.xdist_group(path.stem))
    order = _start_order(items)
    items.sort(key=lambda item: order[Path(str(item.path))])  # stable: a file keeps its order


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    """On an xdist worker under --dist loadgroup, every grouped test's id must carry its group
    (xdist's scheduler reads the group from the id): if it does not, each worker would start
    the group's server of its own (four hubs at once on two cores), so the run stops here."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    lost = [item.nodeid for item in session.items
            if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        raise pytest.UsageError(f"pytest-xdist's --dist loadgroup did not group {len(lost)} tests "
                                f"(e.g. {lost[0]}): this pytest and pytest-xdist disagree on node ids")


@pytest.fixture(autouse=True)
def _session_progress(tmp_path, monkeypatch):
    """Exercise scores go to a temporary store, never to the learner's home; the kernel's
    learner is a known anonymous browser, as if the identity widget had reported it."""
    monkeypatch.setenv("CARTAS_PROGRESS", str(tmp_path / "progress.json"))
    monkeypatch.setenv("CARTAS_DB", str(tmp_path / "cartas.db"))
    monkeypatch.delenv("CARTAS_DATABASE_URL", raising=False)
    from classroom.store import forget_shared
    forget_shared()
    from widgets.components import scores
    scores.reset_session(browser_id="test-browser-0001")
    yield
    scores.reset_session()
    forget_shared()


# PostgreSQL ------------------------------------------------------------------------------
def _pg_bin() -> Path | None:
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[-2]))
    return Path(dirs[-1]) if dirs and Path(dirs[-1], "initdb").exists() else None


def _missing(message: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_server():
    """A throwaway PostgreSQL: yields a URL to its `postgres` database (user `cartas`)."""
    bindir = _pg_bin()
    if bindir is None:
        _missing("PostgreSQL not found (initdb): install Debian's package 'postgresql' "
                 "(make test does)")
    folder = Path(tempfile.mkdtemp(prefix="cartas-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: hand the folder to an unprivileged user
        user = next((u for u in ("postgres", "nobody") if _has_user(u)), None)
        if user is None:
            _missing("running as root and no unprivileged user to run PostgreSQL")
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        run_as = ["runuser", "-u", user, "--"]
    data, log = folder / "data", folder / "server.log"
    subprocess.run([*run_as, str(bindir / "initdb"), "-D", str(data), "-U", "cartas",
                    "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"],
                   check=True, capture_output=True, timeout=120)
    for _attempt in range(5):  # a port found free may be taken before the server binds it
        port = free_port()
        options = f"-k {folder} -h 127.0.0.1 -p {port} -c fsync=off -c max_connections=60"
        started = subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log),
                                  "-o", options, "-w", "-t", "60", "start"],
                                 capture_output=True, text=True, timeout=90)
        if started.returncode == 0 or "already in use" not in (log.read_text() if log.exists() else ""):
            break
    if started.returncode != 0:
        text = log.read_text() if log.exists() else started.stderr
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"PostgreSQL did not start: {text[-2000:]}")
    try:
        yield f"postgresql://cartas@127.0.0.1:{port}/postgres"
    finally:
        # immediate: its folder is deleted next, so nothing need be written on the way out
        subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w",
                        "stop"], capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


_databases = itertools.count()
# Databases an earlier test of this worker used, emptied: CREATE DATABASE copies the template's
# catalogs (about 0.35 s of CPU here, and some 260 tests ask for a database), where emptying one
# takes milliseconds.
_emptied: list[str] = []


def _sessions_on(admin, name: str) -> int:
    return admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()[0]


def _empty(server: str, name: str) -> bool:
    """End every session on the database `name` and make its schema anew, so that it is as
    CREATE DATABASE left it: no table, sequence, function or session of the test before (its
    sessions are waited for until gone: a test counts the sessions on its database). False if
    it could not be done (the database is then dropped)."""
    import psycopg
    try:
        with psycopg.connect(server, autocommit=True) as admin:
            for _ in range(500):
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
                if not _sessions_on(admin, name):
                    break
                time.sleep(0.01)
            with psycopg.connect(server.rsplit("/", 1)[0] + "/" + name, autocommit=True) as conn:
                conn.execute("DROP SCHEMA public CASCADE")
                conn.execute("CREATE SCHEMA public")
            for _ in range(500):  # its own session too, gone on the server's side
                if not _sessions_on(admin, name):
                    return True
                time.sleep(0.01)
    except psycopg.Error:
        pass
    return False


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty database on the throwaway server: a new one, or one an earlier test of
    this worker used, emptied after it (`_empty`)."""
    import psycopg
    if _emptied:
        name = _emptied.pop()
    else:
        name = f"t{os.getpid()}_{next(_databases)}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    yield postgres_server.rsplit("/", 1)[0] + "/" + name
    from classroom.store import forget_shared
    forget_shared()
    if _empty(postgres_server, name):
        _emptied.append(name)
    else:
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def school(request, tmp_path):
    """The class service in this process (`school_service.School`) on each back end, stopped
    after the test."""
    from school_service import School
    location = (str(tmp_path / "service.db") if request.param == "sqlite"
                else request.getfixturevalue("postgres_url"))
    running = School(location)
    yield running
    running.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_location(request, tmp_path, monkeypatch):
    """A fresh store on each back end, also set as this process's configured store."""
    if request.param == "sqlite":
        location = str(tmp_path / "store" / "cartas.db")
        monkeypatch.setenv("CARTAS_DB", location)
    else:
        location = request.getfixturevalue("postgres_url")
        monkeypatch.setenv("CARTAS_DATABASE_URL", location)
    from classroom.store import forget_shared
    forget_shared()
    return location
