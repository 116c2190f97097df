"""Serve notebooks with Voilà (standalone, or as jupyter-server's extension) on a free loopback
port, stop every process started, count kernels, and find Debian's Chromium; wait for the bots
of a "play" dashboard.

Shared by the browser tests and the benchmarks (dashboard_startup.py, class_load.py).
"""
from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from serving_ports import free_port

ROOT = Path(__file__).resolve().parents[2]
# the dashboards' screenshots (CARTAS_SCREENSHOTS=1 keeps one of each page a test opened)
SCREENSHOTS = ROOT / "screenshots"
KEEP_SCREENSHOTS = os.environ.get("CARTAS_SCREENSHOTS") == "1"
# `make screenshots` rewrites the reviewed ones (screenshots/phone/ and screenshots/insight/)
UPDATE_SCREENSHOTS = os.environ.get("CARTAS_UPDATE_SCREENSHOTS") == "1"
# Debian's chromium-headless-shell: the same Chromium build as Debian's chromium, without the
# browser's own windows and menus (what Playwright itself runs for headless tests). Loading a
# dashboard costs it 0.9-1.3 CPU-s against the full browser's 1.6-1.8 (headless), measured here on
# three dashboards: `make test` is CPU-bound on two cores. CARTAS_CHROMIUM=/usr/bin/chromium runs
# the suite on the full browser.
CHROMIUM = os.environ.get("CARTAS_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")
# A learner's browser, for the benchmarks (benchmarks/*.py): Debian's full chromium, the browser
# their figures were set with. The headless shell is not a phone's browser: benchmarks/phone_startup.py
# on it put three dashboards over their 1.3x target (1.02-1.42x bare) where the browser, the same
# hour, put every dashboard at 0.94-1.12x.
BENCH_CHROMIUM = os.environ.get("CARTAS_BENCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-extensions", "--no-first-run", "--disable-sync", "--disable-component-update",
    "--disable-quic",
    # (with the full browser) Chromium 140+ in headless mode still builds its omnibox popup, a WebUI page of its own
    # (chrome://omnibox-popup.top-chrome/), in a renderer of its own for every new window: ~0.9 s
    # of CPU per page opened, a third of what loading a dashboard costs (measured with a trace).
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
]


# A free port (tests/serving_ports.py: this worker's own) is free when chosen; by the time the
# server binds it a process outside the tests may hold it: the server then stops at once saying
# so, and is started again on another port.
PORT_ATTEMPTS = 5


class PortTaken(RuntimeError):
    """The server stopped at start because its port was taken meanwhile."""


def _port_taken(log_path: Path) -> bool:
    text = Path(log_path).read_text(errors="replace") if Path(log_path).exists() else ""
    return "already in use" in text or "Address already in use" in text


def _wait_until_serving(process, url: str, log_path: Path, what: str, timeout: float = 60):
    """Wait until `url` answers; on any failure, stop the process before raising (PortTaken if
    it exited because its port was taken)."""
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                if _port_taken(log_path):
                    raise PortTaken(f"{what}: port taken; see {log_path}")
                raise RuntimeError(f"{what} exited early; see {log_path}")
            try:
                urllib.request.urlopen(url, timeout=2)
                return
            except (OSError, http.client.HTTPException):  # not listening yet, or not HTTP yet
                time.sleep(0.3)
        raise RuntimeError(f"{what} did not answer within {timeout:.0f} s; see {log_path}")
    except BaseException:
        stop(process)
        raise


def server_env(log_path: Path, extra_env: dict | None) -> dict:
    """The environment of a server a test starts: this one, plus `extra_env`, and a store of
    its own beside its log (a fresh SQLite file, no PostgreSQL URL) unless `extra_env` names
    one: a test never writes to the learner's real store (~/.cartas)."""
    store = {"CARTAS_DB": str(Path(log_path).parent / f"{Path(log_path).stem}-cartas.db"),
             "CARTAS_DATABASE_URL": ""}
    return {**os.environ, **store, **(extra_env or {})}


def start_voila(root: Path, log_path: Path, extra_env: dict | None = None,
                extra_args: list[str] | tuple[str, ...] = (), cwd: Path = ROOT,
                python: str = sys.executable):
    """Serve `root` with standalone Voilà on a free loopback port; return (process, base_url).

    Voilà runs from `cwd` (the repository root by default, so it reads the repository's
    voila.json), with `python` (this environment's by default; a benchmark compares another
    checkout's environment); `extra_args`
    (e.g. "--MappingKernelManager.cull_idle_timeout=10") override it. The process leads its own
    process group: stop it with `stop(process)`.
    """
    env = server_env(log_path, extra_env)
    if not any("new_cookies_per_address" in arg for arg in extra_args):
        # the suite opens hundreds of fresh browsers from 127.0.0.1 on one server, more than
        # any class behind one router: past the cookie budget its pages would count under the
        # address and be refused. The budget itself is tested on servers of its own
        # (test_class_serving), which set it.
        extra_args = ("--BrowserIdentityProvider.new_cookies_per_address=1000000", *extra_args)
    for attempt in range(PORT_ATTEMPTS):
        port = free_port()
        log = open(log_path, "w")
        process = subprocess.Popen(
            [python, "-m", "voila", str(root), "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--show_tracebacks=True",
             *extra_args],
            cwd=cwd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_until_serving(process, f"{base}/voila/static/favicon.ico", log_path, "Voilà")
            return process, base
        except PortTaken:
            if attempt == PORT_ATTEMPTS - 1:
                raise
        finally:
            log.close()  # the server holds its own copy of the file
    raise AssertionError("unreachable")


def start_jupyter_server(root: Path, log_path: Path, token: str = "",
                         python: str = sys.executable, extra_env: dict | None = None,
                         extra_args: list[str] | tuple[str, ...] = (), cwd: Path | None = None):
    """Start `jupyter server` (of the environment of `python`) serving `root`, with the Voilà
    extension, the way Binder and JupyterHub serve the dashboards: on a free loopback port, with
    `token` ("" for none), `--allow-root` when running as root. It runs in `cwd` (default
    `root`). Return (process, base_url); stop it with `stop(process)`.
    """
    env = server_env(log_path, extra_env)
    env.pop("JUPYTER_CONFIG_DIR", None)
    for attempt in range(PORT_ATTEMPTS):
        port = free_port()
        command = [python, "-m", "jupyter_server", "--no-browser", "--ServerApp.ip=127.0.0.1",
                   f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
                   f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}", *extra_args]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")
        log = open(log_path, "w")
        process = subprocess.Popen(command, cwd=cwd or root, stdout=log, stderr=subprocess.STDOUT, env=env,
                                   start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_until_serving(process, f"{base}/static/favicon.ico", log_path, "jupyter server", 90)
            return process, base
        except PortTaken:
            if attempt == PORT_ATTEMPTS - 1:
                raise
        finally:
            log.close()
    raise AssertionError("unreachable")


def stop(process, timeout: float = 20) -> None:
    """Stop a server started here and everything it started (its process group): SIGTERM,
    then SIGKILL if it is still there after `timeout` seconds."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
    try:  # kernels the server could not shut down, and the server if it hung
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def kernel_pids(process) -> list[int]:
    """Process ids of the IPython kernels a server started (its descendants running ipykernel)."""
    import psutil

    found = []
    try:
        children = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return found
    for child in children:
        try:
            if any("ipykernel" in part for part in child.cmdline()):
                found.append(child.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def cpu_seconds(pids) -> float:
    """User plus system CPU seconds used so far by these processes (gone ones count 0)."""
    import psutil

    total = 0.0
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
            total += times.user + times.system
        except psutil.Error:
            continue
    return total


def wait_for_kernel_count(process, expected: int, timeout: float) -> int:
    """Poll until the server runs `expected` kernels or `timeout` passes; return the last count."""
    deadline = time.monotonic() + timeout
    while True:
        count = len(kernel_pids(process))
        if count == expected or time.monotonic() > deadline:
            return count
        time.sleep(0.5)


# A play view's status carries data-turn (you/bot/over) and data-step (events so far).
SETTLED = """(step) => {
  const status = document.querySelector('.cartas-status [data-turn]');
  return status && status.dataset.turn !== 'bot' && Number(status.dataset.step) > step;
}"""


def screenshot(page, path: Path, full_page: bool = False) -> None:
    """`page`'s screenshot at `path`, for review, when the run asks for screenshots
    (CARTAS_SCREENSHOTS=1, or `make screenshots`); else none is taken: a tall page's whole
    screenshot costs the browser about a tenth of what loading the page did, and `make test`
    is CPU-bound."""
    if KEEP_SCREENSHOTS or UPDATE_SCREENSHOTS:
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=full_page)


def status_step(page) -> int:
    """How many events the play dashboard's status shows now."""
    return int(page.locator(".cartas-status [data-turn]").get_attribute("data-step"))


def wait_settled(page, step: int) -> None:
    """Wait until the bots have moved past `step` and it is the learner's turn (or the end)."""
    page.wait_for_function(SETTLED, arg=step, polling=100)


def click_and_settle(page, selector: str, tries: int = 3) -> None:
    """Click the first of `selector` and wait as `wait_settled` does. A click that landed on a
    button the page was replacing is refused by the kernel ("the game moved on") and moves
    nothing: when the status has not moved in 20 s, the learner clicks what is drawn again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    for _ in range(tries):
        step = status_step(page)
        page.locator(selector).first.click()
        try:
            page.wait_for_function(SETTLED, arg=step, timeout=20_000, polling=100)
            return
        except PlaywrightTimeout:
            if status_step(page) != step:  # it moved: the bots are slow, not the click lost
                wait_settled(page, step)
                return
    raise AssertionError(f"{tries} clicks on {selector} moved nothing")


def start_exercises(page) -> None:
    """Press the exercise block's "Começar"/"Start" and wait for the first question's answers."""
    page.locator(".cartas-exercises .cartas-next").click()
    page.wait_for_selector(".cartas-exercises .cartas-invite", state="detached")
    page.wait_for_selector(".cartas-exercises .cartas-answer", state="visible")
