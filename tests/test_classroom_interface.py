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


# The class service reaches the classroom's rules through StoreClassroom only -------------------
DOOR = {"StoreClassroom"}  # classroom.interface's: the one door to the store's rules


def _store_rules() -> dict[str, set[str]]:
    """For each module of `classroom`, the names that reach its store's rules: its functions
    that take the store first (`homework.answer(store, ...)`) and its classes made on a store or
    a tables repository (`StoreLiveQuiz(store)`, `Tables(StoreRepository(store))`, `Attempts(store)`)."""
    import ast
    rules: dict[str, set[str]] = {}
    for path in sorted((ROOT / "classroom").glob("*.py")):
        names = set()
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.args.args and node.args.args[0].arg == "store":
                names.add(node.name)
            elif isinstance(node, ast.ClassDef) and node.name not in DOOR:
                init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
                if init is not None and len(init.args.args) > 1 and init.args.args[1].arg in ("store", "repo"):
                    names.add(node.name)
        rules[path.stem] = names
    return rules


def rules_reached_around_the_classroom(source: str, rules: dict[str, set[str]]) -> list[tuple[int, str]]:
    """(line, what) for each place `source` (a module of `classroom`) reaches a store rule of
    another classroom module but through `StoreClassroom`: naming such a function or class of a
    module it imported (`homework.answer`, passed or called), or importing one by name."""
    import ast
    tree = ast.parse(source)
    modules: dict[str, str] = {}   # local name -> classroom module
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            for alias in node.names:
                if node.module is None:
                    modules[alias.asname or alias.name] = alias.name
                elif alias.name in rules.get(node.module, ()):
                    found.append((node.lineno, f"imports {node.module}.{alias.name}"))
    typed = set()   # what an annotation names (a type, no call): `-> tournament.StoreTournaments`
    for node in ast.walk(tree):
        hints = [getattr(node, "returns", None), getattr(node, "annotation", None)]
        typed |= {id(n) for hint in hints if isinstance(hint, ast.AST) for n in ast.walk(hint)}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                and node.attr in rules.get(modules[node.value.id], ()) and id(node) not in typed):
            found.append((node.lineno, f"reaches {modules[node.value.id]}.{node.attr} around StoreClassroom"))
    return sorted(found)


def test_the_check_finds_a_rule_reached_around_the_classroom():
    rules = _store_rules()
    source = '''
from . import homework, live as quiz, mastery
from .tables import StoreRepository, clean_code
from .interface import StoreClassroom
a = await self.store(homework.answer, self.lessons.store, ident, item)
quiz_ = quiz.StoreLiveQuiz(store)
levels = mastery.learner_levels(store, who)
fine = homework.clean_id(ident), homework.HomeworkError("x"), mastery.BY_KEY, StoreClassroom(store).homework()
def cup(self) -> quiz.StoreLiveQuiz: ...
'''
    assert [line for line, _ in rules_reached_around_the_classroom(source, rules)] == [3, 5, 6, 7]


def test_the_class_service_reaches_every_classroom_rule_through_store_classroom():
    """Issue 30, item 1: the service's handlers call the in-process implementation
    (`StoreClassroom` and the services it gives), so every classroom rule is written once and
    the service adds only authentication and transport."""
    rules = _store_rules()
    assert {"answer", "StoreHomework"} <= rules["homework"] and "StoreLiveQuiz" in rules["live"]
    service = (ROOT / "classroom" / "service.py").read_text("utf-8")
    found = [f"classroom/service.py:{line}: {what}"
             for line, what in rules_reached_around_the_classroom(service, rules)]
    assert not found, "ask the service's StoreClassroom (Classes.room) instead:\n" + "\n".join(found)
