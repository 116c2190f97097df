"""The learner widget under JupyterHub: the hub user is the learner (no name, no "não sou eu").

Without a hub: the environment a single-user server gives its kernels is set by hand; nothing
here reaches the class service (the widget asks nothing of it to know who she is).
"""
from __future__ import annotations

import pytest

import classroom
from classroom import hub_user
from classroom.interface import ServiceClassroom, StoreClassroom
from classroom.progress import open_store
from classroom.store import StoreUnavailable


@pytest.fixture
def under_hub(monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "a-token-of-ana-0123456789")
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    monkeypatch.setenv("CARTAS_SERVICE_URL", "http://127.0.0.1:9/services/cartas/")


def test_under_jupyterhub_the_learner_is_the_hub_user_with_nothing_to_type(under_hub):
    from widgets.components.learner import Identity
    badge = Identity(lang="pt", mode="form")
    assert badge.hub is True and hub_user() == "ana"
    assert badge.current is not None and badge.current.name == "ana" and badge.current.class_code == ""
    assert badge.verified() == badge.current


def test_under_jupyterhub_the_browser_cannot_change_who_the_learner_is(under_hub):
    from widgets.components.learner import Identity
    badge = Identity(lang="pt")
    badge.stored = {"browser_id": "someone-else-01", "token": "", "name": "Bia", "count": 1}
    badge.submitted = {"browser_id": "someone-else-01", "name": "Bia", "class_code": "", "pin": "", "count": 2}
    assert badge.current.name == "ana"
    assert badge.learner["name"] == "ana"


def test_under_jupyterhub_progress_goes_to_the_class_service_not_a_database(under_hub):
    room = classroom.open()
    assert isinstance(room, ServiceClassroom) and room.client.url == "http://127.0.0.1:9/services/cartas/"
    assert room.hub_user == "ana" and classroom.open() is room     # chosen once
    with pytest.raises(StoreUnavailable):
        open_store()                                                # no database in this kernel


def test_on_a_laptop_the_learner_types_her_name_and_progress_stays_in_this_process(monkeypatch):
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    from widgets.components.learner import Identity
    badge = Identity(lang="pt")
    assert badge.hub is False and badge.current is None and hub_user() is None
    room = classroom.open()
    assert isinstance(room, StoreClassroom) and room.store is open_store() and room.hub_user is None
    assert classroom.open() is room


def _badge_notice_after_an_answer(monkeypatch, url: str, token: str):
    """A learner's kernel under JupyterHub (her token, the service at `url`) records one answer;
    returns her badge (the notice is what it shows)."""
    from widgets.components import learner, scores
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", token)
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    monkeypatch.setenv("CARTAS_SERVICE_URL", url)
    scores.reset_session()
    badge = learner.widget(lang="pt")
    assert badge.hub is True
    scores.Score("truco-manilha").add(True)
    return badge


def test_under_jupyterhub_a_hung_hub_is_what_the_notice_blames_not_the_store(tmp_path, monkeypatch):
    """The class service answers 503 hub_down (it cannot ask JupyterHub about her token): the
    notice says JupyterHub does not answer, in both languages, never "the store"; with the hub
    back, the answer that waited is saved and the notice goes."""
    from test_remote_tables import RunningService
    from tornado import web

    from widgets.components import scores
    running = RunningService(str(tmp_path / "service.db"))
    try:
        hub = running.service.hub
        answering = hub.user_for_token

        async def hung(token):
            raise web.HTTPError(500, "Failed to connect to Hub API")
        monkeypatch.setattr(hub, "user_for_token", hung)
        badge = _badge_notice_after_an_answer(monkeypatch, running.url, "token-ana")
        assert "JupyterHub não responde" in badge.notice and "armazenamento" not in badge.notice
        assert badge.notice == scores.NOTICE_HUB["pt"]
        badge.set_language("en")
        assert "JupyterHub does not answer" in badge.notice and "store" not in badge.notice
        monkeypatch.setattr(hub, "user_for_token", answering)
        assert scores.recorder().flush(force=True) and badge.notice == ""
    finally:
        running.stop()


def test_under_jupyterhub_a_class_service_that_does_not_answer_is_named_in_the_notice(monkeypatch):
    """Nothing listens at the service's address: the notice names the class service."""
    from widgets.components import scores
    badge = _badge_notice_after_an_answer(monkeypatch, "http://127.0.0.1:9/services/cartas/", "a-token")
    assert "serviço de turmas não responde" in badge.notice and "armazenamento" not in badge.notice
    assert badge.notice == scores.NOTICE_SERVICE["pt"]
    badge.set_language("en")
    assert "the class service does not answer" in badge.notice and "store" not in badge.notice


def test_on_a_laptop_an_unreadable_store_is_still_what_the_notice_names(tmp_path, monkeypatch):
    from widgets.components import learner, scores
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    (tmp_path / "broken.db").write_bytes(b"not a database at all" * 100)
    monkeypatch.setenv("CARTAS_DB", str(tmp_path / "broken.db"))
    scores.reset_session(browser_id="laptop-browser-01")
    scores.Score("truco-manilha").add(True)
    assert learner.widget().notice == scores.NOTICE["pt"] and "armazenamento" in learner.widget().notice
