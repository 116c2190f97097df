"""The truco engine's modules depend on each other in one direction only (no import cycle),
and every sentence comes from the catalogue."""
import ast
import pathlib
import re

import pytest

TRUCO = pathlib.Path(__file__).resolve().parent.parent / "cartas" / "truco"


def imports(path: pathlib.Path) -> set[str]:
    """The sibling modules a truco module imports, anywhere in it, except under
    `if TYPE_CHECKING:` (annotations only: it never runs, as in tests/test_import_graph.py)."""
    found = set()

    def visit(node):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update([node.module] if node.module else [a.name for a in node.names])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def test_truco_modules_import_each_other_without_a_cycle():
    graph = {p.stem: imports(p) - {"__init__"} for p in TRUCO.glob("*.py") if p.stem != "__init__"}
    done, active = set(), []

    def visit(name):
        assert name not in active, " -> ".join(active + [name])
        if name in done:
            return
        active.append(name)
        for dep in graph.get(name, ()):
            visit(dep)
        active.pop()
        done.add(name)

    for name in graph:
        visit(name)
    assert graph["catalogue"] == set() and graph["errors"] == {"catalogue"}


@pytest.mark.parametrize("path", sorted(TRUCO.glob("*.py")), ids=lambda p: p.name)
def test_no_refusal_is_written_where_it_is_raised(path):
    """A TrucoError is raised with a catalogue code, never with a sentence."""
    source = path.read_text(encoding="utf-8")
    assert not re.findall(r"(TrucoError|IllegalActionError|err)\(\s*f?\"[^\"]* [^\"]*\"", source)
