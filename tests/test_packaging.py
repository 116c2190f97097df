"""What Binder installs must match what the project declares."""
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def names(requirements):
    return {re.split(r"[<>=!~\[ ]", line.strip())[0].lower() for line in requirements if line.strip()}


def test_binder_requirements_match_the_runtime_dependencies():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    binder = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    assert names(binder) == names(declared)
    assert "pip install --no-deps ." in (ROOT / "binder" / "postBuild").read_text()


def test_engine_imports_nothing_of_jupyter():
    forbidden = re.compile(r"^\s*(import|from)\s+(ipywidgets|IPython|traitlets|voila|widgets)\b", re.M)
    offenders = [p.name for p in (ROOT / "cartas").rglob("*.py") if forbidden.search(p.read_text())]
    assert offenders == []


def test_notebooks_are_stored_without_outputs():
    import json
    for path in (ROOT / "notebooks").glob("*.ipynb"):
        cells = json.loads(path.read_text())["cells"]
        assert not any(c.get("outputs") for c in cells if c["cell_type"] == "code"), path.name


def test_every_lesson_on_the_index_has_its_notebook_and_every_notebook_is_listed():
    from widgets.pages.index import LESSONS
    notebooks = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    listed = {lesson.notebook for lesson in LESSONS}
    assert listed <= notebooks
    assert notebooks - listed == {"index.ipynb"}
    assert len({lesson.key for lesson in LESSONS}) == len(LESSONS)


# The files a wheel is built from (pyproject.toml's packages, readme and data files).
_BUILD_INPUTS = ("pyproject.toml", "README.md", "cartas", "classroom", "widgets", "share", "etc")


def test_the_wheel_ships_py_typed_so_the_engine_s_types_reach_its_users(tmp_path):
    """PEP 561: without `cartas/py.typed` in the wheel, a project that installs Cartas gets no
    types from it. Built from a copy of the sources, so no build/ appears in the tree."""
    import shutil
    import subprocess
    import sys
    import zipfile
    source = tmp_path / "src"
    source.mkdir()
    for name in _BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, source / name)
    out = tmp_path / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(source)],
                   check=True, capture_output=True, timeout=600)
    [wheel] = out.glob("cartas-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "cartas/py.typed" in names
    assert "cartas/contract.py" in names  # the package itself, so the check above means something


def _dotted(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_mypy_checks_every_engine_module_as_strictly_as_mypy_strict(tmp_path):
    """`make lint` runs mypy over `cartas` with pyproject's configuration; every module of the
    engine must get each per-module flag `mypy --strict` turns on (read from mypy itself, so a
    flag a later mypy adds to --strict is asked for too), and no override may loosen one."""
    from mypy.main import process_options
    from mypy.options import PER_MODULE_OPTIONS
    bare = tmp_path / "bare.ini"
    bare.write_text("[mypy]\n")
    _, strict = process_options(["--config-file", str(bare), "--strict", "-c", "pass"])
    _, loose = process_options(["--config-file", str(bare), "-c", "pass"])
    flags = sorted(name for name in PER_MODULE_OPTIONS if getattr(strict, name) != getattr(loose, name))
    assert {"disallow_untyped_defs", "disallow_any_generics", "warn_return_any"} <= set(flags)
    _, project = process_options(["--config-file", str(ROOT / "pyproject.toml")])
    assert project.warn_redundant_casts and project.warn_unused_ignores
    modules = sorted(_dotted(path) for path in (ROOT / "cartas").rglob("*.py"))
    assert {"cartas", "cartas.truco.state", "cartas.coach.truco"} <= set(modules)
    loosened = {(module, name) for module in modules for name in flags
                if getattr(project.clone_for_module(module), name) != getattr(strict, name)}
    assert loosened == set()
    assert not any(project.clone_for_module(module).ignore_errors for module in modules)
    lint = (ROOT / "Makefile").read_text().split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert re.search(r"\$\(BIN\)/mypy\b[^\n]*\bcartas\b", lint)


def test_the_environment_names_cartas_kernel_and_an_install_carries_it():
    """Issue 30, item 5: the kernel's shell is chosen by configuration (IPKernelApp.kernel_class),
    not by replacing the shell's showtraceback; pip install . puts the file in etc/ipython, and
    make install links it into the venv."""
    import json
    import sys

    from cartas_server.kernel import CartasKernel, QuietShell

    config = json.loads((ROOT / "etc" / "ipython" / "ipython_kernel_config.json").read_text())
    assert config["IPKernelApp"]["kernel_class"] == f"{CartasKernel.__module__}.{CartasKernel.__name__}"
    assert CartasKernel.shell_class.default_value is QuietShell
    files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    assert files["etc/ipython"] == ["etc/ipython/ipython_kernel_config.json"]
    installed = Path(sys.prefix) / "etc" / "ipython" / "ipython_kernel_config.json"
    assert json.loads(installed.read_text()) == config


FOREIGN = ("ipykernel", "ipywidgets", "comm", "IPython", "traitlets", "voila", "tornado", "jupyter_server",
           "jupyter_client", "nbconvert")


GETTERS = {"get_ipython", "instance", "get_comm_manager", "current"}  # what hands out another package's objects


def _root(expr) -> str | None:
    """The name an expression starts from (`a` of `a.b(c).d[e]`)."""
    import ast
    while isinstance(expr, (ast.Attribute, ast.Subscript, ast.Call)):
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _given(expr, foreign: set[str]) -> bool:
    """True for another package's object itself, not one our code made (a widget is ours)."""
    import ast
    if isinstance(expr, ast.Call):
        name = expr.func.attr if isinstance(expr.func, ast.Attribute) else getattr(expr.func, "id", "")
        return name in GETTERS and _root(expr.func) in foreign
    if isinstance(expr, (ast.Attribute, ast.Subscript)):
        inner = expr.value
        return (isinstance(inner, ast.Name) and inner.id in foreign) or _given(inner, foreign)
    return False


def _foreign_names(tree) -> set[str]:
    """Names imported from FOREIGN, and names bound to what they give."""
    import ast
    foreign: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in FOREIGN:
            foreign.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            foreign.update((a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] in FOREIGN)
    bound = [(node.targets, node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)]
    changed = True
    while changed:
        changed = False
        for targets, value in bound:
            new = {t.id for t in targets if isinstance(t, ast.Name)} - foreign
            if new and _given(value, foreign):
                foreign |= new
                changed = True
    return foreign


def foreign_assignments(source: str) -> set[str]:
    """Assignments to an attribute (or an item of an attribute) of something another package
    gave: a name imported from one of FOREIGN, what their getters hand out (`shell = get_ipython()`,
    `Kernel.instance()`), or an attribute read from either (`Kernel.instance().shell_handlers`).
    A widget our code made (`w.Button(...)`) is ours: its traits are its public interface."""
    import ast

    tree = ast.parse(source)
    foreign = _foreign_names(tree)
    found = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, (ast.Attribute, ast.Subscript)) and _root(target) in foreign:
                kept = ast.unparse(target.value) + "[...]" if isinstance(target, ast.Subscript) else ast.unparse(target)
                found.add(kept)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr" \
                and node.args and _root(node.args[0]) in foreign:
            found.add(f"setattr({ast.unparse(node.args[0])}, ...)")
    return found


def test_no_module_assigns_to_another_packages_objects():
    """Issue 30, item 5: nothing assigns to an attribute of another package's module, class or
    instance at run time (ipykernel, ipywidgets, comm, IPython, traitlets, Voilà, tornado...);
    the shell's tracebacks go through `cartas_server.kernel`, a configured kernel class, and a
    Voilà page's held widget messages through ipywidgets' `on_widget_constructed`, a comm class
    of ours and that kernel's `should_handle` (widgets.components.later)."""
    found = set()
    for folder in ("cartas", "widgets", "classroom", "cartas_server"):
        for path in (ROOT / folder).rglob("*.py"):
            name = path.relative_to(ROOT).as_posix()
            found |= {(name, what) for what in foreign_assignments(path.read_text())}
    assert found == set()


def test_the_check_of_foreign_assignments_finds_them():
    source = ("from IPython import get_ipython\nimport ipywidgets as w\nshell = get_ipython()\n"
              "shell.showtraceback = print\nw.Widget.open = None\nmine = object()\nmine.x = 1\n")
    assert foreign_assignments(source) == {"shell.showtraceback", "w.Widget.open"}


def test_the_check_finds_the_patches_the_held_messages_used_to_need():
    """What widgets/components/later.py assigned before issue 30, item 5, each still caught."""
    source = ("from ipykernel.comm.comm import BaseComm\nfrom ipykernel.kernelbase import Kernel\n"
              "from ipywidgets import Widget\nfrom IPython import get_ipython\n"
              "BaseComm.publish_msg = print\nhandlers = Kernel.instance().shell_handlers\n"
              "handlers['comm_msg'] = print\nKernel.instance().shell_handlers['comm_open'] = print\n"
              "Widget.send_state = print\nsetattr(Widget, '_handle_control_comm_msg', print)\n"
              "get_ipython().showtraceback = print\nKernel.instance().session = None\nimport comm\n"
              "comm.create_comm = print\n"
              "class Mine(BaseComm):\n    def release(self):\n        self.kernel = Kernel.instance()\n")
    assert foreign_assignments(source) == {
        "BaseComm.publish_msg", "handlers[...]", "Kernel.instance().shell_handlers[...]", "Widget.send_state",
        "setattr(Widget, ...)", "get_ipython().showtraceback", "Kernel.instance().session", "comm.create_comm"}
