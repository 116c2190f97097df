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
