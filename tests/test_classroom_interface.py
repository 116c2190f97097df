"""One classroom interface (issue 30, item 1): a declared `Classroom` Protocol, two
implementations (the store in this process, the class service's client), `classroom.open()`
choosing once per kernel, and no caller asking which it got."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import classroom
from classroom.interface import Classroom, ServiceClassroom, StoreClassroom, TableRoom
from classroom.remote_tables import RemoteTables
from classroom.store import StoreUnavailable
from classroom.tables import Tables

ROOT = Path(__file__).resolve().parent.parent


def _members(protocol: type) -> dict[str, inspect.Signature | None]:
    """The protocol's declared members: methods with their signature, properties as None."""
    out: dict[str, inspect.Signature | None] = {}
    for name, value in vars(protocol).items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            out[name] = None
        elif callable(value):
            out[name] = inspect.signature(value)
    return out


def _parameters(signature: inspect.Signature) -> list[str]:
    return [p.name for p in signature.parameters.values()]


def test_the_classroom_protocol_covers_progress_classes_identity_tables_homework_mastery_and_live():
    members = _members(Classroom)
    for name in ("record", "progress", "class_learners", "open_class", "learners", "hub_user", "tables",
                 "homework", "mastery", "live"):
        assert name in members, name


@pytest.mark.parametrize("implementation", [StoreClassroom, ServiceClassroom])
def test_each_classroom_answers_every_question_of_the_protocol_with_its_parameters(implementation):
    for name, signature in _members(Classroom).items():
        assert hasattr(implementation, name), f"{implementation.__name__} lacks {name}"
        if signature is not None:
            assert _parameters(inspect.signature(getattr(implementation, name))) == _parameters(signature), name


@pytest.mark.parametrize("implementation", [Tables, RemoteTables])
def test_both_tables_answer_what_the_tables_page_asks(implementation):
    for name in _members(TableRoom):
        assert hasattr(implementation, name) or name == "clock", f"{implementation.__name__} lacks {name}"


def test_on_a_laptop_the_classroom_is_this_process_store_chosen_once(monkeypatch, tmp_path):
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    room = classroom.open()
    assert isinstance(room, StoreClassroom) and classroom.open() is room
    assert room.hub_user is None and room.code_limiter() is not None
    assert isinstance(room.tables(), Tables)


def test_under_the_hub_the_classroom_is_the_service_client_and_no_database(monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "a-token-of-ana-0123456789")
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    monkeypatch.setenv("CARTAS_SERVICE_URL", "http://127.0.0.1:9/services/cartas/")
    room = classroom.open()
    assert isinstance(room, ServiceClassroom) and classroom.open() is room
    assert room.hub_user == "ana" and room.code_limiter() is None and room.remembered_devices("turma-a") == 0
    assert isinstance(room.tables(), RemoteTables)
    with pytest.raises(StoreUnavailable):       # a PIN, a card, a device: the hub's login replaces them
        room.learners().check("token", "browser")
    with pytest.raises(StoreUnavailable):
        classroom.progress.open_store()         # this kernel opens no database


def test_no_caller_asks_which_classroom_it_got():
    """Zero `getattr(..., "remote")` and no `.remote` flag in classroom/ and widgets/."""
    found = []
    for package in ("classroom", "widgets"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text("utf-8")
            for pattern in (r"getattr\([^)]*[\"']remote[\"']", r"^\s+remote = True"):
                found += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in re.finditer(pattern, text, re.M)]
    assert not found, found
