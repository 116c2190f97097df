"""The browser tests wait cheaply: every `wait_for_function` names its polling interval.

Playwright's default polls the page's predicate on every animation frame, which keeps headless
Chromium drawing frames the whole wait: ~0.07 CPU-s per second waited, three times what polling
every 100 ms costs (measured on a dashboard). `make test` is CPU-bound on two cores, so each
such second is taken from another worker's test."""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def unpaced_waits(source: str) -> list[int]:
    """Line numbers of the `wait_for_function` calls in `source` that pass no `polling`."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function" and not any(k.arg == "polling" for k in node.keywords)]


def test_the_check_finds_a_wait_without_polling_and_passes_one_with_it():
    assert unpaced_waits("page.wait_for_function('() => true')\npage.wait_for_function('f', polling=100)\n") == [1]


def test_every_wait_for_function_in_the_tests_names_its_polling():
    found = {str(path.relative_to(TESTS)): lines for path in sorted(TESTS.rglob("*.py"))
             if (lines := unpaced_waits(path.read_text(encoding="utf-8")))}
    assert found == {}
