"""A Voilà server over notebooks/ and Debian's Chromium driven by Playwright.

Under CI=true a missing browser is a failure; elsewhere the browser tests are skipped with
the reason. Screenshots of every dashboard land in screenshots/ (git-ignored) for review.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CARTAS_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = ROOT / "screenshots"
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


def launch_chromium(playwright):
    if not Path(CHROMIUM).exists():
        message = f"Chromium not found at {CHROMIUM}: install Debian's package 'chromium'"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


@pytest.fixture(scope="session")
def voila_url(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("voila")
    process, base = start_voila(ROOT / "notebooks", tmp / "voila.log",
                                {"CARTAS_PROGRESS": str(tmp / "progress.json")})
    yield base
    process.terminate()
    process.wait(timeout=20)


@pytest.fixture(scope="session")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def dashboard(browser, voila_url, request):
    """Open a dashboard: dashboard("manilhas.ipynb", lang="en") -> Playwright page.

    The page's screenshot is saved under screenshots/ when the test ends.
    """
    pages = []

    def open_dashboard(notebook: str, query: str = ""):
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.set_default_timeout(60_000)
        page.goto(f"{voila_url}/voila/render/{notebook}{query}")
        page.wait_for_selector(".cartas-view", state="visible")
        pages.append((notebook, page))
        return page

    yield open_dashboard
    SCREENSHOTS.mkdir(exist_ok=True)
    for i, (notebook, page) in enumerate(pages):
        name = f"{request.node.name}-{i}-{Path(notebook).stem}.png".replace("/", "_")
        page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
        page.close()
