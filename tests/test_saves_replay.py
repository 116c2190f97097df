"""A saved game is its setup plus its actions, and loading replays them
(docs/rules.md#saved-game-replays): for random games of every game in the registry, saved
at random points, `load(save(s))` is `s` (views, legal actions, events, score, and the same
future), and a save with any one action replaced by an illegal one is refused with the
game's RuleError naming that action. Also: no module of `cartas` imports one that imports
it back, not even inside a function."""
import ast
import json
import random
from pathlib import Path

import pytest

from cartas.errors import RuleError
from cartas.games import GAME_KEYS, find_game

ROOT = Path(__file__).resolve().parent.parent


def _played(key: str, seed: int, steps: int):
    """A seeded game of `key` after `steps` random actions (fewer if it ends)."""
    spec = find_game(key)
    state = spec.new_game(seed) if key != "21" else spec.new_game(seed, rounds=3, rotation_rounds=1,
                                                                  rotation=["rounds", "auction", "sale"][seed % 3])
    pick = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[pick.randrange(len(legal))])
    return state


def _seen(state) -> dict:
    """Everything a caller can read through the contract."""
    seats = [None, *range(state.players)]
    return {
        "events": state.events, "legal": [str(a) for a in state.legal_actions()],
        "current": state.current_seat, "outcome": state.outcome().to_dict(),
        "terminal": state.is_terminal(), "winner": state.winner,
        "views": [(v.current_seat, v.is_my_turn, [str(a) for a in v.legal_actions()], v.events)
                  for v in map(state.view, seats)],
    }


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_loaded_save_is_the_same_game_with_the_same_future(key):
    spec, pick = find_game(key), random.Random(key)
    for n in range(25):
        state = _played(key, seed=n, steps=pick.randrange(0, 140))
        text = state.to_json()
        loaded = spec.from_json(text)
        assert _seen(loaded) == _seen(state)
        assert loaded.to_json() == text
        for _ in range(40):  # the generator too: later deals are the same
            if state.is_terminal():
                break
            legal = state.legal_actions()
            action = legal[pick.randrange(len(legal))]
            assert list(loaded.apply_action(str(action))) == list(state.apply_action(action))
        assert _seen(loaded) == _seen(state)


def _texts(key: str) -> list[str]:
    """Action texts of every kind the game knows, to pick illegal ones from."""
    seen: set[str] = set()
    for seed in range(6):
        state = _played(key, seed, 0)
        pick = random.Random(seed)
        while not state.is_terminal() and len(seen) < 400:
            legal = state.legal_actions()
            seen.update(str(a) for a in legal)
            state.apply_action(legal[pick.randrange(len(legal))])
    return sorted(seen)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_save_with_one_action_replaced_by_an_illegal_one_is_refused(key):
    spec, pick, texts = find_game(key), random.Random(f"{key}!"), _texts(key)
    checked = 0
    for n in range(40):
        data = json.loads(_played(key, seed=100 + n, steps=pick.randrange(1, 120)).to_json())
        actions = data["actions"]
        if not actions:
            continue
        i = pick.randrange(len(actions))
        before = spec.from_json(json.dumps({**data, "actions": actions[:i]}))
        legal = {str(a) for a in before.legal_actions()}
        bad = pick.choice([t for t in texts if t not in legal])
        with pytest.raises(RuleError) as direct:  # what the engine says to that action there
            before.apply_action(bad)
        with pytest.raises(RuleError) as refused:
            spec.from_json(json.dumps({**data, "actions": actions[:i] + [bad] + actions[i + 1:]}))
        error = refused.value
        assert error.code == "saved_action" and error.fields["index"] == i + 1
        assert type(error).catalogue is type(direct.value).catalogue  # the game's own family
        assert direct.value.message("en") in error.message("en")
        assert direct.value.message("pt") in error.message("pt")
        checked += 1
    assert checked >= 30


def _imports(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of `package` it imports, anywhere in its code (inside functions
    too; only `if TYPE_CHECKING:` blocks, which never run, are left out). Importing a
    submodule counts as importing it, not its package's `__init__`."""
    modules = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph = {}
    for name, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text("utf-8"))
        skipped = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and getattr(block.test, "id", getattr(block.test, "attr", None)) == "TYPE_CHECKING"
                   for stmt in block.body for node in ast.walk(stmt)}
        here = name.split(".") if is_package else name.split(".")[:-1]
        deps = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else [])) \
                    if node.level else node.module
                subs = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
                deps.update(subs)
                if len(subs) < len(node.names):
                    deps.add(base)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, state, path = [], {}, []

    def visit(module):
        state[module] = "open"
        path.append(module)
        for dep in sorted(graph[module]):
            if state.get(dep) == "open":
                found.append(path[path.index(dep):] + [dep])
            elif dep not in state:
                visit(dep)
        path.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


def test_no_module_of_the_engine_imports_one_that_imports_it_back():
    graph = _imports(ROOT / "cartas")
    assert "cartas.vinte_e_um.serialization" in graph["cartas.vinte_e_um.state"]  # it sees inside functions
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle_inside_a_function(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def f():\n    from .a import x\n")
    assert _cycles(_imports(package)) == [["pkg.a", "pkg.b", "pkg.a"]]
