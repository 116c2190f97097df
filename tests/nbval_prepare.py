"""Copy notebooks/ for nbval, turning each checked cell's expectation into a stored output.

Notebooks are kept without outputs. A cell whose output is deterministic carries the
`# NBVAL_CHECK_OUTPUT` marker and its expected text in metadata["cartas_expect"]; the copy
made here stores that text as the cell's output, so nbval compares what the cell really
prints against what the lesson's author wrote down.

It also writes TARGET_DIR/conftest.py: under pytest-xdist (`make test` runs the notebooks on
several workers) each worker's kernels keep their progress in a store of their own, beside the
one `make test` names, so two notebooks run at once never write the same file.

Usage: python tests/nbval_prepare.py SOURCE_DIR TARGET_DIR
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

# The worker's own store: nbval starts each notebook's kernel with this process's environment.
WORKER_CONFTEST = '''"""Written by tests/nbval_prepare.py: one store per pytest-xdist worker."""
import os
from pathlib import Path


def pytest_configure(config):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    for name in ("CARTAS_DB", "CARTAS_PROGRESS"):
        if os.environ.get(name):
            path = Path(os.environ[name])
            os.environ[name] = str(path.with_name(f"{path.stem}-{worker}{path.suffix}"))
'''


def prepare(source: Path, target: Path) -> int:
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    checked = 0
    for path in sorted(source.glob("*.ipynb")):
        notebook = json.loads(path.read_text())
        for cell in notebook["cells"]:
            expected = cell.get("metadata", {}).get("cartas_expect")
            if cell["cell_type"] != "code" or expected is None:
                continue
            if "NBVAL_CHECK_OUTPUT" not in "".join(cell["source"]):
                raise SystemExit(f"{path.name}: a cell with cartas_expect lacks # NBVAL_CHECK_OUTPUT")
            cell["outputs"] = [{"output_type": "execute_result", "execution_count": 1,
                                "metadata": {}, "data": {"text/plain": expected}}]
            cell["execution_count"] = 1  # nbval treats a cell without a count as never run
            checked += 1
        (target / path.name).write_text(json.dumps(notebook, ensure_ascii=False, indent=1))
    (target / "conftest.py").write_text(WORKER_CONFTEST)
    return checked


if __name__ == "__main__":
    count = prepare(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"nbval: {count} checked cells")
