"""The import graph of Cartas' packages: no cycles, and the layers point one way.

Every module of `cartas`, `classroom`, `widgets` and `cartas_server` is parsed with `ast`
(nothing is imported), and every import counts, including those inside functions (a cycle
hidden behind a late import is still a cycle); only imports under `if TYPE_CHECKING:` are left
out, as they never run. Relative imports are resolved, and `from pkg import name` is an edge to
the module `pkg.name` when there is one, else to `pkg` itself.

The layers (CONTRIBUTING.md "The layers"): `cartas` imports nothing of `classroom` or `widgets`,
`classroom` nothing of `widgets`; in `widgets`, components and drawings never import pages.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cartas", "classroom", "widgets", "cartas_server")


def module_files() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package is its `__init__`)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth, except under `if TYPE_CHECKING:` (its `else:`
    branch runs, so it counts)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(files: dict[str, Path] | None = None) -> dict[str, set[str]]:
    """module -> the modules of the packages it imports (anywhere in its code)."""
    files = module_files() if files is None else files
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node in _imports(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                source = _resolve(node, name, is_package)
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.append(sub if sub in files else source)
            for target in targets:
                # `import a.b.c` names a.b.c; the deepest module of ours it names
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm,
    iterative), each sorted, the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def layering_breaks(graph: dict[str, set[str]]) -> list[str]:
    """Each import that points up a layer, as "importer -> imported"."""
    rules = (("cartas", ("classroom", "widgets", "cartas_server")),
             ("classroom", ("widgets", "cartas_server")),
             ("widgets.components", ("widgets.pages",)),
             ("widgets.draw", ("widgets.pages",)))
    breaks = []
    for module, targets in sorted(graph.items()):
        for lower, above in rules:
            if _within(module, lower):
                breaks += [f"{module} -> {t}" for t in sorted(targets) if any(_within(t, a) for a in above)]
    return breaks


def _graph_of(tmp_path: Path, sources: dict[str, str]) -> dict[str, set[str]]:
    files = {}
    for name, text in sources.items():
        path = tmp_path / (name.replace(".", "/") + ("/__init__.py" if name == "pkg" else ".py"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        files[name] = path
    return import_graph(files)


def test_the_graph_counts_imports_inside_functions_and_resolves_relative_ones(tmp_path):
    graph = _graph_of(tmp_path, {
        "pkg": "from . import a\n",
        "pkg.a": "def f():\n    from .b import thing\n    return thing\n",
        "pkg.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n"
                 "def g():\n    import pkg.c\n",
        "pkg.c": "from pkg import a as _a\n",
    })
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_no_import_cycles_in_the_packages_counting_imports_inside_functions():
    graph = import_graph()
    assert len(graph) > 50 and graph["widgets.pages.mesa"]  # the packages were found and read
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_layers_point_one_way_engine_store_widgets_and_pages_on_top():
    assert layering_breaks({"cartas.x": {"classroom.y"}, "widgets.draw.s": {"widgets.pages.p"}}) == [
        "cartas.x -> classroom.y", "widgets.draw.s -> widgets.pages.p"]
    breaks = layering_breaks(import_graph())
    assert not breaks, "imports up a layer: " + "; ".join(breaks)
