"""Waiting on PostgreSQL's own state rather than for a fixed time."""
from __future__ import annotations

import time


def wait_listening(url: str, channel: str, timeout: float = 30) -> None:
    """Return once a session of the database at `url` has run `LISTEN channel` and finished it
    (from then on every NOTIFY on `channel` reaches it); fail after `timeout` seconds."""
    import psycopg
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            found = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND state = 'idle' AND query = %s", (f"LISTEN {channel}",)).fetchone()[0]
            if found:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"nobody listens on {channel} after {timeout:.0f} s")
            time.sleep(0.02)
