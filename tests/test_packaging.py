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
