"""Serve notebooks with Voilà on a free loopback port and find Debian's Chromium; wait for
the bots of a "play" dashboard.

Shared by the browser tests and benchmarks/dashboard_startup.py.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CARTAS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-extensions", "--no-first-run", "--disable-sync", "--disable-component-update",
    "--disable-quic",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_voila(root: Path, log_path: Path, extra_env: dict | None = None):
    """Serve `root` with Voilà on a free loopback port; return (process, base_url)."""
    port = free_port()
    env = {**os.environ, **(extra_env or {})}
    log = open(log_path, "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "voila", str(root), "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1", "--show_tracebacks=True"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Voilà exited early; see {log_path}")
        try:
            urllib.request.urlopen(f"{base}/voila/static/favicon.ico", timeout=2)
            return process, base
        except OSError:
            time.sleep(0.3)
    process.terminate()
    raise RuntimeError(f"Voilà did not answer within 60 s; see {log_path}")


# A play view's status carries data-turn (you/bot/over) and data-step (events so far).
SETTLED = """(step) => {
  const status = document.querySelector('.cartas-status [data-turn]');
  return status && status.dataset.turn !== 'bot' && Number(status.dataset.step) > step;
}"""


def status_step(page) -> int:
    """How many events the play dashboard's status shows now."""
    return int(page.locator(".cartas-status [data-turn]").get_attribute("data-step"))


def wait_settled(page, step: int) -> None:
    """Wait until the bots have moved past `step` and it is the learner's turn (or the end)."""
    page.wait_for_function(SETTLED, arg=step)
