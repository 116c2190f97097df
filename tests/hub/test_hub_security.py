"""Issue 33 on the real hub of the tests (tests/hub/conftest.py): a hung hub gets `hub_down`
within the service's timeout (item 3), and the learner's badge says her progress is not being
saved (item 5); a live session is served only to its class (item 6);
a teacher reads and writes only her classes (item 7).

The school (tests/hub/hubkit.py): class turma-a (ana, bia, cora) taught by tereza
(`teachers-turma-a`), class turma-b (duda, eli) taught by vera (`teachers-turma-b`), and rita,
a hub admin. Requests go through the hub's proxy to the class service, with each user's own
hub token, as a learner's kernel sends them.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from classroom.service import HUB_TIMEOUT

import hubkit

pytestmark = pytest.mark.hub

QUESTION = {"lesson": "manilhas",
            "prompt": {"pt": "Vira 6: qual é a manilha?", "en": "Vira 6: which is the manilha?"},
            "options": [{"pt": "5", "en": "5"}, {"pt": "7", "en": "7"}],
            "answer": 1, "why": {"pt": "Depois do 6 vem o 7.", "en": "After 6 comes 7."}}


def ask(hub, token: str, method: str, path: str, body=None, timeout: float = 30.0) -> tuple[int, dict]:
    """The service's answer (status, JSON) to a request with hub token `token`."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(hub.service_url + path, data=data, method=method, headers={
        "Authorization": f"token {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


@contextmanager
def hub_stopped(hub):
    """The hub process stopped (SIGSTOP) as a hung hub is: its port still takes connections,
    nothing answers. The proxy and the class service go on. Always continued (SIGCONT)."""
    os.kill(hub.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(hub.process.pid, signal.SIGCONT)


@pytest.fixture(scope="module")
def tokens(hub):
    return {user: hub.token_for(user) for user in ("tereza", "vera", "rita", "ana", "duda")}


# Item 3: a hung hub --------------------------------------------------------------------------
def test_a_token_the_service_never_saw_gets_hub_down_within_the_timeout_while_the_hub_hangs(hub):
    token = hub.token_for("eli")       # new: the service has never asked the hub about it
    with hub_stopped(hub):
        began = time.monotonic()
        status, answer = ask(hub, token, "GET", "api/progress/eli")
        took = time.monotonic() - began
    assert (status, answer["error"]) == (503, "hub_down"), answer
    assert answer["pt"] and answer["en"]
    assert took < HUB_TIMEOUT + 3, f"answered after {took:.1f} s"
    # the refusal was not kept: with the hub back, the same token is hers
    assert ask(hub, token, "GET", "api/progress/eli")[0] == 200


def test_a_group_look_up_the_service_has_not_cached_gets_hub_down_within_the_timeout(hub):
    token = hub.token_for("eli")
    assert ask(hub, token, "GET", "api/progress/eli")[0] == 200   # her token is known now; no group asked
    with hub_stopped(hub):
        began = time.monotonic()
        status, answer = ask(hub, token, "GET", "api/homework")     # her classes: the hub's groups of eli
        took = time.monotonic() - began
    assert (status, answer["error"]) == (503, "hub_down"), answer
    assert took < HUB_TIMEOUT + 3, f"answered after {took:.1f} s"


# Item 6: a live quiz is its class's ----------------------------------------------------------
@pytest.fixture(scope="module")
def session(hub, tokens):
    """A live session for turma-a started by rita (a hub admin), a question asked (open)."""
    status, made = ask(hub, tokens["rita"], "POST", "api/live", {"class": hubkit.CLASS})
    assert status == 200, made
    status, asked = ask(hub, tokens["rita"], "POST", f"api/live/{made['code']}/ask",
                        {"host_token": made["host_token"], "question": QUESTION, "seconds": 60})
    assert status == 200, asked
    return made


def test_a_live_session_is_not_served_to_a_learner_of_another_class(hub, tokens, session):
    code = session["code"]
    status, seen = ask(hub, tokens["duda"], "GET", f"api/live/{code}")
    assert (status, seen.get("error")) == (403, "other_class"), seen
    assert "prompt" not in seen and "options" not in seen and seen["pt"] and seen["en"]
    for action, body in (("join", {}), ("answer", {"number": 1, "choice": 1})):
        status, refused = ask(hub, tokens["duda"], "POST", f"api/live/{code}/{action}", body)
        assert (status, refused.get("error")) == (403, "other_class"), (action, refused)
    # her own class's learner reads it, and its teacher the board
    status, mine = ask(hub, tokens["ana"], "GET", f"api/live/{code}")
    assert status == 200 and mine["prompt"] == QUESTION["prompt"] and "answer" not in mine
    status, board = ask(hub, tokens["tereza"], "GET", f"api/live/{code}/board")
    assert status == 200 and board["number"] == 1


def test_a_live_session_is_not_served_to_another_classs_teacher(hub, tokens, session):
    code, host = session["code"], session["host_token"]
    status, seen = ask(hub, tokens["vera"], "GET", f"api/live/{code}")
    assert (status, seen.get("error")) == (403, "other_class") and "prompt" not in seen
    status, board = ask(hub, tokens["vera"], "GET", f"api/live/{code}/board")
    assert (status, board.get("error")) == (403, "not_your_class") and "answer" not in board
    for action in ("close", "end"):   # even with the host token
        status, refused = ask(hub, tokens["vera"], "POST", f"api/live/{code}/{action}", {"host_token": host})
        assert (status, refused.get("error")) == (403, "not_your_class"), action
    assert ask(hub, tokens["tereza"], "GET", f"api/live/{code}/board")[1]["open"]   # still open


# Item 7: teachers scoped to their classes -------------------------------------------------------
def test_a_teacher_lists_and_reads_only_her_own_class(hub, tokens):
    for teacher, mine in (("tereza", hubkit.CLASS), ("vera", hubkit.OTHER_CLASS)):
        status, listed = ask(hub, tokens[teacher], "GET", "api/classes")
        assert status == 200 and [c["name"] for c in listed] == [mine], (teacher, listed)
        assert ask(hub, tokens[teacher], "GET", "api/me")[1]["teacher"] is True
    status, rows = ask(hub, tokens["vera"], "GET", f"api/classes/{hubkit.OTHER_CLASS}")
    assert status == 200 and [r["name"] for r in rows["learners"]] == hubkit.OTHER_LEARNERS
    for path in (f"api/classes/{hubkit.CLASS}", f"api/classes/{hubkit.CLASS}/tables",
                 f"api/classes/{hubkit.CLASS}/homework", f"api/classes/{hubkit.CLASS}/skills"):
        status, refused = ask(hub, tokens["vera"], "GET", path)
        assert (status, refused.get("error")) == (403, "not_your_class"), (path, refused)
        assert refused["pt"] and refused["en"] and "learners" not in refused
    status, refused = ask(hub, tokens["vera"], "GET", "api/progress/ana")
    assert (status, refused.get("error")) == (403, "not_yours")
    assert ask(hub, tokens["tereza"], "GET", "api/progress/ana")[0] == 200
    assert ask(hub, tokens["tereza"], "GET", "api/progress/duda")[0] == 403


def test_a_teacher_cannot_write_homework_nor_start_a_live_session_for_another_class(hub, tokens):
    items = [{"kind": "game", "game": "21", "where": "bots"}]
    homework = {"class": hubkit.CLASS, "title": "Não é dela", "due": "2030-12-20", "pass_mark": 50, "items": items}
    status, refused = ask(hub, tokens["vera"], "POST", "api/homework", homework)
    assert (status, refused.get("error")) == (403, "not_your_class")
    status, refused = ask(hub, tokens["vera"], "POST", "api/live", {"class": hubkit.CLASS})
    assert (status, refused.get("error")) == (403, "not_your_class")
    status, listed = ask(hub, tokens["tereza"], "GET", f"api/classes/{hubkit.CLASS}/homework")
    assert status == 200 and "Não é dela" not in [t["title"] for t in listed]
    # her own class's she writes
    status, made = ask(hub, tokens["vera"], "POST", "api/homework", {**homework, "class": hubkit.OTHER_CLASS})
    assert status == 200 and made["class_code"] == hubkit.OTHER_CLASS


def test_a_teacher_cannot_read_another_classs_homework_key_nor_results(hub, tokens):
    link_free = [{"kind": "game", "game": "21", "where": "bots"}]
    status, made = ask(hub, tokens["tereza"], "POST", "api/homework", {
        "class": hubkit.CLASS, "title": "Da Tereza", "due": "2030-12-20", "pass_mark": 50, "items": link_free})
    assert status == 200, made
    status, refused = ask(hub, tokens["vera"], "GET", f"api/homework/{made['id']}/results")
    assert (status, refused.get("error")) == (403, "not_your_class") and "learners" not in refused
    status, seen = ask(hub, tokens["vera"], "GET", f"api/homework/{made['id']}")
    assert status == 403 and "items" not in seen
    assert ask(hub, tokens["tereza"], "GET", f"api/homework/{made['id']}/results")[0] == 200
    assert ask(hub, tokens["tereza"], "GET", f"api/homework/{made['id']}")[1]["items"] == made["items"]


def test_a_hub_admin_teaches_every_class(hub, tokens):
    status, listed = ask(hub, tokens["rita"], "GET", "api/classes")
    assert status == 200 and sorted(c["name"] for c in listed) == sorted([hubkit.CLASS, hubkit.OTHER_CLASS])
    for group in (hubkit.CLASS, hubkit.OTHER_CLASS):
        assert ask(hub, tokens["rita"], "GET", f"api/classes/{group}")[0] == 200
    # a teachers group is no class
    status, refused = ask(hub, tokens["rita"], "GET", f"api/classes/teachers-{hubkit.CLASS}")
    assert (status, refused.get("error")) == (404, "no_class")


# Item 5: under the hub, the badge says progress is not being saved ---------------------------------
def test_under_the_hub_the_badge_says_progress_is_not_saved_when_the_service_answers_hub_down(hub, tmp_path):
    """The course index served as a learner's single-user server serves it (her hub token and
    the service's address in the kernel's environment), with the hub hung: the service answers
    hub_down, and her badge, on a 360 px phone, shows the notice in a polite live region, in
    Portuguese and then in English, inside the screen."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
    from serving import CHROMIUM, CHROMIUM_ARGS, start_voila, stop
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    playwright_api = pytest.importorskip("playwright.sync_api")
    from widgets.components.scores import NOTICE_HUB as NOTICE  # the hub, not the store, is down
    token = hub.token_for("duda")
    with hub_stopped(hub):
        voila, base = start_voila(Path(__file__).resolve().parents[2] / "notebooks", tmp_path / "voila.log", {
            "JUPYTERHUB_API_TOKEN": token, "JUPYTERHUB_USER": "duda", "CARTAS_SERVICE_URL": hub.service_url})
        try:
            def on_a_phone() -> None:  # in a thread of its own: a test before may hold an asyncio loop here
                with playwright_api.sync_playwright() as playwright:
                    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                    try:
                        page = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                                   has_touch=True, device_scale_factor=2).new_page()
                        page.set_default_timeout(90_000)
                        page.goto(f"{base}/voila/render/index.ipynb")
                        notice = page.locator(".cartas-identity .cartas-identity-notice")
                        notice.wait_for(state="visible")
                        assert notice.inner_text().strip() == NOTICE["pt"]
                        assert notice.get_attribute("role") == "status"
                        assert notice.get_attribute("aria-live") == "polite"
                        assert "duda" in page.locator(".cartas-identity-name").first.inner_text()
                        box = notice.bounding_box()
                        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
                        assert page.evaluate("document.documentElement.scrollWidth") <= 360
                        page.locator(".cartas-page-language button[data-lang='en']").click()
                        page.wait_for_function(
                            "t => document.querySelector('.cartas-identity-notice').textContent === t",
                            arg=NOTICE["en"], polling=100)
                        assert notice.is_visible()
                    finally:
                        browser.close()
            with ThreadPoolExecutor(1) as thread:
                thread.submit(on_a_phone).result()
        finally:
            stop(voila)


# Item 10: a link too long --------------------------------------------------------------------
def _long_link_answer(hub, path: str, size: int, token: str) -> tuple[int, str]:
    """(status, page) of a GET through the hub's proxy of `path` with a query of `size` bytes."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", hub.proxy_port, timeout=60)
    try:
        connection.request("GET", f"{path}?cenario={'A' * size}", headers={"Authorization": f"token {token}"})
        reply = connection.getresponse()
        return reply.status, reply.read().decode(errors="replace")
    finally:
        connection.close()


@pytest.mark.parametrize("size", [20_000, 70_000, 2_000_000])
def test_a_link_too_long_through_the_hubs_proxy_gets_a_page_saying_so(hub, tokens, size):
    """Issue 33, item 10, under the hub: the hub's proxy (node) answered a link over 16 KB with
    a bare 431, so the learner saw the browser's own error; with the deployment's proxy setting
    (values.yaml, `NODE_OPTIONS`) the link reaches her server, which answers one over 64 KB
    with the page saying it is too long, linking to her index; one under 64 KB is served, and
    the hub's own pages answer the same page (`hub.extraConfig`)."""
    if size < 64 * 1024:  # through the proxy to her server (its API: no kernel to start)
        status, page = _long_link_answer(hub, "/user/ana/api/status", size, tokens["ana"])
        assert status == 200, page[:300]
        return
    status, page = _long_link_answer(hub, "/user/ana/voila/render/notebooks/cenarios.ipynb", size, tokens["ana"])
    assert status == 414, page[:300]
    assert "Este link é longo demais" in page and "This link is too long" in page
    assert "href='/user/ana/voila/render/notebooks/index.ipynb'" in page
    status, page = _long_link_answer(hub, "/hub/home", size, tokens["ana"])
    assert status == 414 and "This link is too long" in page and "href=" not in page
