"""Query parameters in Voilà's pre-heated kernels (widgets.components.i18n.query_parameters), and the
wait for the request itself (widgets.components.preheat) against a websocket server that speaks Voilà's
side of the protocol."""
import json
import os
import threading

import pytest
from websockets.sync.server import serve

from widgets.components import i18n, params, preheat


def _preheated(monkeypatch, replies):
    """A pre-heated kernel whose successive waits for the request put `replies` in the
    environment (None: Voilà's wait gave up without the request's details)."""
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.setattr(i18n, "_request_arrived", False)
    calls = []

    def wait_for_request(url=None):
        reply = replies[min(len(calls), len(replies) - 1)]
        calls.append(reply)
        if reply is not None:
            monkeypatch.setenv("QUERY_STRING", reply)
        return reply is not None

    monkeypatch.setattr(preheat, "wait_for_request", wait_for_request)
    return calls


def test_a_preheated_kernel_waits_once_for_the_request_and_reads_its_query(monkeypatch):
    calls = _preheated(monkeypatch, ["lang=en&cenario=abc"])
    assert i18n.query_parameters() == {"lang": "en", "cenario": "abc"}
    assert params.initial_language() == "en"
    assert len(calls) == 1  # Voilà sends the request once: no second wait


def test_a_wait_that_gave_up_without_the_request_is_tried_again(monkeypatch):
    calls = _preheated(monkeypatch, [None, None, "lang=en"])
    assert params.initial_language() == "en"
    assert len(calls) == 3


def test_the_waits_are_bounded_when_the_request_never_comes(monkeypatch):
    calls = _preheated(monkeypatch, [None])
    assert i18n.query_parameters() == {}
    assert params.initial_language() == i18n.DEFAULT
    assert len(calls) == i18n.WAIT_ATTEMPTS


def test_without_preheating_the_query_comes_from_the_environment_without_waiting(monkeypatch):
    calls = _preheated(monkeypatch, ["lang=pt"])
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    assert params.initial_language() == "en"
    assert calls == []


@pytest.fixture
def voila_query_server(monkeypatch):
    """A websocket server playing Voilà's /voila/query/<kernel id> endpoint: it answers the
    kernel named in the path with the message queued for it, as Voilà does when the request
    comes. Yields (queue {kernel id: message}, paths seen)."""
    queue, seen = {}, []
    saved = dict(os.environ)  # the wait writes os.environ itself: put it back afterwards

    def handler(socket):
        seen.append(socket.request.path)
        message = queue.get(socket.request.path.rsplit("/", 1)[-1])
        if message is not None:
            socket.send(message)

    with serve(handler, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        port = server.socket.getsockname()[1]
        for name, value in {"VOILA_APP_IP": "127.0.0.1", "VOILA_APP_PORT": str(port),
                            "VOILA_SERVER_URL": "/base/", "VOILA_KERNEL_ID": "k-1"}.items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("VOILA_WS_BASE_URL", raising=False)
        monkeypatch.delenv("QUERY_STRING", raising=False)
        try:
            yield queue, seen
        finally:
            server.shutdown()
            thread.join(timeout=5)
            os.environ.clear()
            os.environ.update(saved)


def test_the_wait_reads_the_request_voila_sends_to_this_kernel(voila_query_server):
    queue, seen = voila_query_server
    queue["k-1"] = json.dumps({"QUERY_STRING": "lang=en&cenario=x", "SERVER_NAME": "127.0.0.1"})
    assert preheat.wait_for_request() is True
    assert seen == ["/base/voila/query/k-1"]
    assert os.environ["QUERY_STRING"] == "lang=en&cenario=x" and os.environ["SERVER_NAME"] == "127.0.0.1"


def test_a_reply_that_is_not_an_object_of_strings_changes_nothing(voila_query_server):
    queue, _ = voila_query_server
    for bad in ("not json", json.dumps(["QUERY_STRING"]), json.dumps({"QUERY_STRING": 7})):
        queue["k-1"] = bad
        assert preheat.wait_for_request() is False
        assert "QUERY_STRING" not in os.environ


def test_a_server_that_is_not_there_makes_the_wait_return_false(monkeypatch):
    from serving_ports import closed_port

    monkeypatch.setenv("VOILA_APP_PORT", str(closed_port()))
    monkeypatch.delenv("QUERY_STRING", raising=False)
    assert preheat.wait_for_request() is False
    assert "QUERY_STRING" not in os.environ


def test_the_wait_does_not_load_voilas_server_into_the_kernel():
    import subprocess
    import sys
    code = ("import sys, widgets.components.i18n, widgets.components.preheat\n"
            "assert widgets.components.preheat.wait_for_request('ws://127.0.0.1:1/voila/query/k') is False\n"
            "assert not [m for m in sys.modules if m.split('.')[0] in ('voila', 'jupyter_server')]\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
