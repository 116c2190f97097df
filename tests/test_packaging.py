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
