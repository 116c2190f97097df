"""One real JupyterHub for the session (see hubkit.py): started once, stopped at the end.

Under CI=true a missing jupyterhub or configurable-http-proxy is a failure; elsewhere the hub
tests are skipped with the reason.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

import hubkit


@pytest.fixture(scope="session")
def hub(postgres_server):
    problem = hubkit.missing()
    if problem:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(problem)
        pytest.skip(problem)
    import psycopg
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute('DROP DATABASE IF EXISTS "cartas_hub" WITH (FORCE)')
        conn.execute('CREATE DATABASE "cartas_hub"')
    database = postgres_server.rsplit("/", 1)[0] + "/cartas_hub"
    folder = Path(tempfile.mkdtemp(prefix="cartas-hub-"))
    running = hubkit.Hub(folder, database)
    try:
        # its four ports were free when chosen (tests/serving_ports.py); one may be taken since:
        # then a hub of its own again, on other ports, from an empty folder
        for attempt in range(3):
            try:
                running.start()
                break
            except RuntimeError as error:
                taken = isinstance(error, hubkit.ServiceElsewhere) or any(
                    s in running.log() for s in ("already in use", "EADDRINUSE"))
                if attempt == 2 or not taken:
                    raise
                running.stop()
                shutil.rmtree(folder, ignore_errors=True)
                running = hubkit.Hub(folder, database)
        running.spawn_servers(["ana", "bia", "tereza"])
        running.database_url = database
        yield running
    finally:
        running.stop()
        shutil.rmtree(folder, ignore_errors=True)
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute('DROP DATABASE IF EXISTS "cartas_hub" WITH (FORCE)')
