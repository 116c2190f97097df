"""Serving a class from one machine: kernels of closed pages are culled while open pages keep
theirs, a full server (or a browser at its own cap) refuses politely, and neither the notebook
list nor an error page fetches anything from outside it (each dashboard is checked for that by
its phone test, test_phone_dashboards.py, through all its interactions).

These tests start their own standalone Voilà from the repository root (so the repository's
voila.json applies), with only the culling times shortened on the command line.
"""
from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from urllib.parse import urlsplit

import psutil
import pytest
from playwright.sync_api import expect

from serving import ROOT, kernel_pids, start_voila, stop, wait_for_kernel_count

SHORT_CULL = ["--MappingKernelManager.cull_idle_timeout=10",
              "--MappingKernelManager.cull_interval=5"]


@pytest.fixture
def class_server(tmp_path):
    """A Voilà of our own over notebooks/, culling idle kernels of closed pages after 10 s."""
    process, base = start_voila(ROOT / "notebooks", tmp_path / "voila.log",
                                {"CARTAS_PROGRESS": str(tmp_path / "progress.json")}, SHORT_CULL)
    try:
        yield process, base
    finally:
        stop(process)


def open_dashboard(browser, base: str, notebook: str, query: str = ""):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(f"{base}/voila/render/{notebook}{query}")
    page.wait_for_selector(".cartas-view", state="visible")
    return page


def pick_vira(page, label: str, first_manilha: str) -> None:
    page.locator(".cartas-vira select").select_option(label=label)
    page.wait_for_function(
        f"() => document.querySelector('.cartas-manilhas svg')?.dataset.card === '{first_manilha}'", polling=100)


def test_closed_pages_lose_their_kernels_and_an_open_idle_page_keeps_its_own(browser, class_server):
    process, base = class_server
    old = kernel_pids(process)
    before = len(old)
    kept = open_dashboard(browser, base, "manilhas.ipynb")
    (kept_pid,) = set(kernel_pids(process)) - set(old)
    closed = [open_dashboard(browser, base, name)
              for name in ("index.ipynb", "truco_rodadas.ipynb", "vinte_e_um_pontos.ipynb")]
    assert len(kernel_pids(process)) == before + 4
    # voila.json's kernel_env reaches every kernel (the server's own environment would win)
    expected = os.environ.get("OPENBLAS_NUM_THREADS", "1")
    assert {psutil.Process(pid).environ().get("OPENBLAS_NUM_THREADS") for pid in kernel_pids(process)} == {expected}
    # and they talk to the server over IPC sockets: no TCP port to race for when a class starts
    # 30 kernels at once (voila.json: KernelManager.transport)
    for pid in kernel_pids(process):
        connection_file = next(a for a in psutil.Process(pid).cmdline() if a.endswith(".json"))
        assert json.loads(Path(connection_file).read_text())["transport"] == "ipc"
    for page in closed:
        page.close()  # as a tab closed without any goodbye to the server
    # Culled within cull_idle_timeout (10 s) plus one cull_interval (5 s), with margin. The page
    # left open keeps its kernel through that round, though it was idle longer than the closed
    # ones (opened first, no click since): the culler spares a kernel with a connection.
    assert wait_for_kernel_count(process, before + 1, timeout=45) == before + 1
    assert psutil.pid_exists(kept_pid) and kept_pid in kernel_pids(process)
    pick_vira(kept, "7♦  (7 de ouros)", "Q♦")
    kept.close()
    assert wait_for_kernel_count(process, before, timeout=45) == before


def test_a_full_server_refuses_a_new_page_politely_and_runs_the_ones_it_has(browser, tmp_path):
    process, base = start_voila(ROOT / "notebooks", tmp_path / "voila.log",
                                {"CARTAS_PROGRESS": str(tmp_path / "progress.json")},
                                ["--CappedKernelManager.max_kernels=1"])
    try:
        first = open_dashboard(browser, base, "manilhas.ipynb")
        refused = browser.new_page()
        response = refused.goto(f"{base}/voila/render/index.ipynb")
        assert response.status == 503
        assert "O servidor está cheio" in refused.content()
        assert "The server is full" in refused.content()
        assert len(kernel_pids(process)) == 1
        pick_vira(first, "3♣  (3 de paus)", "4♦")  # the page already served keeps working
        refused.close()
        first.close()
    finally:
        stop(process)


def test_the_notebook_list_and_an_error_page_fetch_nothing_from_outside_the_server(browser, voila_url):
    own = urlsplit(voila_url).netloc
    outside = []
    for extra in ("", "voila/render/no_such_lesson.ipynb"):  # the notebook list, an error page
        page = browser.new_page()
        page.on("request", lambda request: outside.append(request.url)
                if urlsplit(request.url).netloc not in ("", own) else None)
        page.goto(f"{voila_url}/{extra}")
        page.wait_for_load_state("networkidle")
        page.close()
    assert outside == []


def test_preheated_kernels_wait_for_the_learners_link_and_follow_its_language_and_scenario(browser, tmp_path):
    """Voilà's warm pool (off by default, README): a kernel that ran the lesson before anyone
    asked still opens it in the link's language, and a scenario link reaches its kernel."""
    from cartas import scenario

    config = json.loads((ROOT / "voila.json").read_text())
    config["VoilaConfiguration"].update(preheat_kernel=True, default_pool_size=0)
    config["VoilaKernelManager"] = {"fill_delay": 1, "kernel_pools_config": {
        "default": {"pool_size": 0},
        "notebooks/manilhas.ipynb": {"pool_size": 1}, "notebooks/cenarios.ipynb": {"pool_size": 1}}}
    (tmp_path / "voila.json").write_text(json.dumps(config))
    process, base = start_voila(ROOT, tmp_path / "voila.log",
                                {"CARTAS_PROGRESS": str(tmp_path / "progress.json")}, cwd=tmp_path)
    try:
        assert wait_for_kernel_count(process, 2, timeout=60) == 2
        # a pool serves a page once its kernel has started and its lesson is on its way (Voilà
        # logs the pool filled then); a page asked for before is served by a kernel of its own
        deadline = time.monotonic() + 60
        while not all(f"Kernel pool of notebooks/{notebook}.ipynb is filled" in (tmp_path / "voila.log").read_text()
                      for notebook in ("manilhas", "cenarios")):
            assert time.monotonic() < deadline, (tmp_path / "voila.log").read_text()[-2000:]
            time.sleep(0.1)
        page = browser.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{base}/voila/render/notebooks/manilhas.ipynb?lang=en")
        page.wait_for_selector(".cartas-exercises .cartas-next")
        assert page.locator(".cartas-next").text_content() == "Start"
        expect(page.locator(".cartas-step")).to_contain_text("In the natural order")  # drawn after the exercises
        link = scenario.encode_link(scenario.truco_scenario(
            "paulista", [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]],
            "K♠", dealer=3))
        page.goto(f"{base}/voila/render/notebooks/cenarios.ipynb?cenario={link}")
        page.wait_for_selector(".cartas-scenario-table svg[data-card='7♥']")
        page.close()
        log = (tmp_path / "voila.log").read_text()
        for notebook in ("manilhas", "cenarios"):  # both pages ran on kernels from the pools
            assert re.search(rf"Using pre-heated kernel: \S+ for notebooks/{notebook}\.ipynb", log), notebook
    finally:
        stop(process)


def kernel_env(kernel_id: str) -> dict:
    """The environment a kernel process was started with, found by its connection file."""
    for process in psutil.process_iter(["cmdline"]):
        if any(kernel_id in part for part in process.info["cmdline"] or ()):
            return process.environ()
    raise AssertionError(f"no process for kernel {kernel_id}")


KERNEL_ID = re.compile(r"kernel[_-]?[iI]d[\"']?\s*[:=]\s*[\"']([0-9a-f-]{36})")


def test_one_browser_gets_at_most_six_dashboards_at_once_and_a_classmate_still_gets_hers(browser, voila_url):
    """voila.json: CappedKernelManager.max_kernels_per_browser = 6, the browser named by the
    server's cookie (cartas_server.browsers)."""
    mine = browser.new_context()
    other = browser.new_context()
    kernels = []
    try:
        first = mine.new_page()
        first.set_default_timeout(60_000)
        first.goto(f"{voila_url}/voila/render/manilhas.ipynb")
        first.wait_for_selector(".cartas-view", state="visible")
        cookie = next(c for c in mine.cookies() if c["name"] == "cartas_browser")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
        answers = []
        for n in range(6):  # as a page's fetch() would: same browser, same cookie
            forged = {"X-Cartas-Browser": "f" * 32} if n == 0 else {}  # a header the page made up
            answer = mine.request.get(f"{voila_url}/voila/render/index.ipynb", headers=forged,
                                      timeout=60_000)
            answers.append(answer.status)
            kernels += KERNEL_ID.findall(answer.text())
        assert answers == [200] * 5 + [503]
        # each kernel was told its browser by the server: one id for the five, not the forged one
        told = {kernel_env(kernel_id).get("HTTP_X_CARTAS_BROWSER") for kernel_id in kernels}
        assert len(kernels) == 5 and len(told) == 1
        browser_id = told.pop()
        assert re.fullmatch("[0-9a-f]{32}", browser_id) and browser_id != "f" * 32
        refused = mine.request.get(f"{voila_url}/voila/render/manilhas.ipynb").text()
        assert "Este navegador já tem muitas lições abertas" in refused
        assert "This browser already has too many lessons open" in refused
        classmate = other.new_page()
        classmate.set_default_timeout(60_000)
        classmate.goto(f"{voila_url}/voila/render/manilhas.ipynb")  # same address, own cookie
        classmate.wait_for_selector(".cartas-view", state="visible")
        pick_vira(first, "3♣  (3 de paus)", "4♦")  # the capped browser's own pages still work
        assert mine.request.post(f"{voila_url}/voila/api/shutdown/{kernels.pop()}").ok
        again = mine.request.get(f"{voila_url}/voila/render/index.ipynb", timeout=60_000)
        assert again.status == 200  # a shut-down kernel stops counting
        kernels += KERNEL_ID.findall(again.text())
    finally:
        for kernel_id in kernels:  # leave the shared server as it was
            mine.request.post(f"{voila_url}/voila/api/shutdown/{kernel_id}")
        mine.close()
        other.close()


def _get(base: str, path: str, cookie: str = ""):
    """A GET the way a script makes it: no cookie jar, `cookie` sent only when given."""
    import http.client
    connection = http.client.HTTPConnection(urlsplit(base).hostname, urlsplit(base).port, timeout=90)
    try:
        connection.request("GET", path, headers={"Cookie": f"cartas_browser={cookie}"} if cookie else {})
        reply = connection.getresponse()
        body = reply.read().decode("utf-8", "replace")
        given = re.search(r"cartas_browser=([^;]+)", reply.getheader("Set-Cookie") or "")
        return reply.status, body, given[1] if given else ""
    finally:
        connection.close()


def test_cookies_cost_a_page_each_and_a_few_per_address_and_cookieless_pages_do_not_block_the_next_visitor(
        browser, tmp_path):
    """Issue 33, item 9 (cartas_server.browsers): a cookie comes only with a rendered page, and
    only `new_cookies_per_address` of them per address; pages fetched without cookies count
    under the cookie they were given, so the next learner from that address (a class behind one
    router) still gets her page; a script that takes a fresh cookie per page (and sends it back
    once) runs out of cookies, is counted by its address and refused, told so in both languages."""
    process, base = start_voila(ROOT / "notebooks", tmp_path / "voila.log",
                                {"CARTAS_PROGRESS": str(tmp_path / "progress.json")},
                                ["--CappedKernelManager.max_kernels_per_browser=2",
                                 "--BrowserIdentityProvider.new_cookies_per_address=4",
                                 "--BrowserIdentityProvider.new_cookie_every=3600"])
    visitor = browser.new_context()
    try:
        status, _, given = _get(base, "/voila/static/favicon.ico")
        assert status == 200 and not given  # no cookie without a page
        for _ in range(2):  # as a tab's fetch(..., {credentials: "omit"}) would
            status, body, given = _get(base, "/voila/render/index.ipynb")
            assert status == 200 and given
        page = visitor.new_page()  # a classmate arriving from the same address
        page.set_default_timeout(60_000)
        assert page.goto(f"{base}/voila/render/manilhas.ipynb").status == 200
        page.wait_for_selector(".cartas-view", state="visible")
        statuses = []
        for _ in range(4):  # a fresh cookie per page, each sent back once to be "known"
            status, body, given = _get(base, "/voila/render/index.ipynb")
            statuses.append((status, bool(given)))
            if given:
                _get(base, "/voila/render/nothing-here.ipynb", cookie=given)  # sent back: "known"
        assert statuses == [(200, True), (200, False), (200, False), (503, False)]
        assert "Muitas lições foram abertas deste endereço de rede" in body
        assert "Too many lessons were opened from this network address" in body
        assert "Este navegador" not in body
    finally:
        visitor.close()
        stop(process)


def _shut_down(base: str, kernel_id: str) -> None:
    import http.client
    connection = http.client.HTTPConnection(urlsplit(base).hostname, urlsplit(base).port, timeout=30)
    try:
        connection.request("POST", f"/voila/api/shutdown/{kernel_id}")
        connection.getresponse().read()
    finally:
        connection.close()


def _alive(kernel_id: str) -> bool:
    return any(kernel_id in part for process in psutil.process_iter(["cmdline"])
               for part in (process.info["cmdline"] or ()))


def test_a_script_reusing_a_young_cookie_holds_one_kernel_and_a_real_page_proves_its_browser(browser, voila_url):
    """Issue 33, item 9 (cartas_server.kernels): pages fetched with a cookie none of whose pages
    ever opened its kernel replace each other's kernel (one kernel per young cookie); once a
    page of a browser opens its kernel, its other tabs keep theirs."""
    status, body, cookie = _get(voila_url, "/voila/render/index.ipynb")
    assert status == 200 and cookie
    kernels = KERNEL_ID.findall(body)
    try:
        for _ in range(3):
            status, body, _ = _get(voila_url, "/voila/render/index.ipynb", cookie=cookie)
            assert status == 200
            kernels += KERNEL_ID.findall(body)
        assert len(set(kernels)) == 4
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and sum(map(_alive, kernels)) > 1:
            time.sleep(0.2)
        assert [_alive(k) for k in kernels] == [False, False, False, True]
    finally:
        for kernel_id in kernels:
            _shut_down(voila_url, kernel_id)
    learner = browser.new_context()
    try:
        first = learner.new_page()
        first.set_default_timeout(60_000)
        first.goto(f"{voila_url}/voila/render/manilhas.ipynb")
        first.wait_for_selector(".cartas-view", state="visible")  # its page opened its kernel
        second = learner.new_page()
        second.set_default_timeout(60_000)
        second.goto(f"{voila_url}/voila/render/manilhas.ipynb")
        second.wait_for_selector(".cartas-view", state="visible")
        pick_vira(first, "3♣  (3 de paus)", "4♦")  # the first tab still works
    finally:
        learner.close()
