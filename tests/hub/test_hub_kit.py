"""The tests' hub itself (hubkit.py): a hub whose class service's address is answered by
another hub's service is not used (CI, stop 56: its learners' tokens were all refused as
unknown, in two dozen tests), and a hub that stops leaves nothing it started behind."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import hubkit


class OtherSchoolsService(BaseHTTPRequestHandler):
    """Another hub's class service: healthy, and it knows none of this hub's tokens."""

    def do_GET(self):
        known = self.path.endswith("/health")
        body = json.dumps({"ok": True} if known else {"error": "bad_token"}).encode()
        self.send_response(200 if known else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def database(postgres_server):
    problem = hubkit.missing()
    if problem:
        (pytest.fail if os.environ.get("CI", "").lower() == "true" else pytest.skip)(problem)
    import psycopg
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute('DROP DATABASE IF EXISTS "cartas_hub_kit" WITH (FORCE)')
        conn.execute('CREATE DATABASE "cartas_hub_kit"')
    yield postgres_server.rsplit("/", 1)[0] + "/cartas_hub_kit"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute('DROP DATABASE IF EXISTS "cartas_hub_kit" WITH (FORCE)')


def test_a_hub_whose_service_port_another_schools_service_answers_is_refused_and_leaves_nothing(database):
    other = ThreadingHTTPServer(("127.0.0.1", 0), OtherSchoolsService)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    folder = Path(tempfile.mkdtemp(prefix="cartas-hub-kit-"))
    hub = hubkit.Hub(folder, database, service_port=other.server_address[1])
    try:
        with pytest.raises(hubkit.ServiceElsewhere) as refused:
            hub.start()
        assert "does not know its learner ana" in str(refused.value) and "bad_token" in str(refused.value)
        assert hubkit._descendants(hub.process.pid)    # its proxy and services, until it is stopped
    finally:
        hub.stop()
        other.shutdown()
        other.server_close()
        shutil.rmtree(folder, ignore_errors=True)
    assert hub._left_behind() == []


def test_a_hub_that_exited_by_itself_leaves_nothing_it_started(database):
    folder = Path(tempfile.mkdtemp(prefix="cartas-hub-kit-"))
    hub = hubkit.Hub(folder, database, spawn=False)
    try:
        hub.start()
        started = {p.pid for p in hubkit._descendants(hub.process.pid)}
        assert started
        hub.process.kill()      # the hub gone at once: its proxy and services in sessions of their own
        hub.process.wait(10)
        assert started <= {p.pid for p in hub._left_behind()}
    finally:
        hub.stop()
        shutil.rmtree(folder, ignore_errors=True)
    assert hub._left_behind() == []
