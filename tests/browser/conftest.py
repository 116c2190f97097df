"""A Voilà server over notebooks/ and Debian's Chromium driven by Playwright, whose contexts are
persistent profiles lent to each test and cleaned after it (tests/browser/warm.py).

Under CI=true a missing browser is a failure; elsewhere the browser tests are skipped with
the reason. With CARTAS_SCREENSHOTS=1, screenshots of every dashboard land in screenshots/
(git-ignored) for review; without, none is taken (a tall page's full screenshot costs the
browser as much CPU as a tenth of loading it).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from class_pages import wait_for_view
from kernel_wire import watch
from serving import CHROMIUM, CHROMIUM_ARGS, KEEP_SCREENSHOTS, ROOT, SCREENSHOTS, start_voila, stop
from warm import WarmBrowser

# what a test awaits with Playwright's `expect` (a widget drawn after another, a count reached)
# may take as long as a page's own waits on a loaded machine: 30 s, not expect's 5
expect.set_options(timeout=30_000)


def require_chromium() -> None:
    """Fail (under CI=true) or skip the test when Debian's Chromium is not installed."""
    if not Path(CHROMIUM).exists():
        message = f"Chromium not found at {CHROMIUM}: install Debian's package 'chromium-headless-shell'"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def voila_url(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("voila")
    process, base = start_voila(ROOT / "notebooks", tmp / "voila.log",
                                {"CARTAS_PROGRESS": str(tmp / "progress.json"),
                                 "CARTAS_DB": str(tmp / "cartas.db"), "CARTAS_DATABASE_URL": ""})
    try:
        yield base
    finally:
        stop(process, timeout=5)  # the run's end: its kernels need no graceful shutdown


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """Chromium whose contexts are persistent profiles lent to each test and cleaned after it
    (`warm.WarmBrowser`: a new visitor each time, with the HTTP and code caches kept)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    require_chromium()
    with playwright_api.sync_playwright() as playwright:
        warm = WarmBrowser(playwright, tmp_path_factory.mktemp("chromium"),
                           {"executable_path": CHROMIUM, "headless": True, "args": CHROMIUM_ARGS})
        try:
            yield warm
        finally:
            warm.close()


@pytest.fixture(autouse=True)
def _give_back_contexts(request):
    """At a test's end, the browser contexts it was lent and did not close go back (cleaned)."""
    if "browser" not in request.fixturenames:
        yield
        return
    warm = request.getfixturevalue("browser")
    mark = warm.mark()
    yield
    warm.give_back_since(mark)


@pytest.fixture
def dashboard(browser, voila_url, request):
    """Open a dashboard: dashboard("manilhas.ipynb", lang="en") -> Playwright page.

    The page's screenshot is saved under screenshots/ when the test ends (CARTAS_SCREENSHOTS=1).
    """
    pages = []

    def open_dashboard(notebook: str, query: str = ""):
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.set_default_timeout(60_000)
        watch(page)  # kernel_wire.of(page) tells when the kernel has handled a click
        page.goto(f"{voila_url}/voila/render/{notebook}{query}")
        wait_for_view(page)
        pages.append((notebook, page))
        return page

    yield open_dashboard
    SCREENSHOTS.mkdir(exist_ok=True)
    for i, (notebook, page) in enumerate(pages):
        if not KEEP_SCREENSHOTS:
            page.close()
            continue
        name = f"{request.node.name}-{i}-{Path(notebook).stem}.png".replace("/", "_")
        # Voilà scrolls an inner element, so full_page alone stops at the viewport:
        # grow the viewport to the tallest scrolling content first.
        height = page.evaluate(
            "Math.max(...Array.from(document.querySelectorAll('body *'), e => e.scrollHeight))")
        page.set_viewport_size({"width": 1280, "height": max(1000, min(int(height) + 40, 12000))})
        page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
        page.close()
