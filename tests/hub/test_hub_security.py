"""Issue 33 on the real hub of the tests (tests/hub/conftest.py): a hung hub gets `hub_down`
within the service's timeout (item 3).

The school (tests/hub/hubkit.py): class turma-a (ana, bia, cora) taught by tereza
(`teachers-turma-a`), class turma-b (duda, eli) taught by vera (`teachers-turma-b`), and rita,
a hub admin. Requests go through the hub's proxy to the class service, with each user's own
hub token, as a learner's kernel sends them.
"""
from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from contextlib import contextmanager

import pytest

from classroom.service import HUB_TIMEOUT

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
