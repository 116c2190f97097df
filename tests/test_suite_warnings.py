"""A warning a browser test gives on a pytest-xdist worker reaches the run's summary and does
not stop the run: the controller rebuilds each worker's warning by importing the module of its
class, and the browser tests' helpers (tests/browser) are on a worker's path only. A warning
class of their own (PageStalled, once) ended a whole `make test` with an INTERNALERROR."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

A_STALLED_PAGE = f'''
import sys
import warnings

sys.path.insert(0, {str(ROOT / "tests" / "browser")!r})  # as tests/browser/conftest.py is, on the worker only
from class_pages import page_stalled


def test_a_page_that_stalled_once():
    warnings.warn(page_stalled("http://127.0.0.1/voila/render/cenarios.ipynb showed no view; reloaded"))


def test_another():
    assert True
'''


def test_a_stalled_page_warning_from_a_worker_is_summarised_and_the_run_goes_on(tmp_path):
    (tmp_path / "test_stall.py").write_text(A_STALLED_PAGE)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider",
                          "--rootdir", str(tmp_path), str(tmp_path)],
                         capture_output=True, text=True, timeout=180, cwd=tmp_path)
    out = run.stdout + run.stderr
    assert "INTERNALERROR" not in out, out[-3000:]
    assert run.returncode == 0, out[-3000:]
    assert "2 passed" in out and "PageStalled: http://127.0.0.1/voila/render/cenarios.ipynb" in out, out[-3000:]
