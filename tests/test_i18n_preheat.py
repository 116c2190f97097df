"""Query parameters in Voilà's pre-heated kernels (widgets.i18n.query_parameters)."""
import voila.utils

from widgets import i18n


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

    monkeypatch.setattr(voila.utils, "wait_for_request", wait_for_request)
    return calls


def test_a_preheated_kernel_waits_once_for_the_request_and_reads_its_query(monkeypatch):
    calls = _preheated(monkeypatch, ["lang=en&cenario=abc"])
    assert i18n.query_parameters() == {"lang": "en", "cenario": "abc"}
    assert i18n.initial_language() == "en"
    assert len(calls) == 1  # Voilà sends the request once: no second wait


def test_a_wait_that_gave_up_without_the_request_is_tried_again(monkeypatch):
    calls = _preheated(monkeypatch, [None, None, "lang=en"])
    assert i18n.initial_language() == "en"
    assert len(calls) == 3


def test_the_waits_are_bounded_when_the_request_never_comes(monkeypatch):
    calls = _preheated(monkeypatch, [None])
    assert i18n.query_parameters() == {}
    assert i18n.initial_language() == i18n.DEFAULT
    assert len(calls) == i18n.WAIT_ATTEMPTS


def test_without_preheating_the_query_comes_from_the_environment_without_waiting(monkeypatch):
    calls = _preheated(monkeypatch, ["lang=pt"])
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    assert i18n.initial_language() == "en"
    assert calls == []
