"""Exercise scores of the running session, shared between dashboards through a small file.

Each dashboard runs in its own kernel, so the index reads what the lessons wrote. The file
lives in CARTAS_PROGRESS (default: ~/.cartas/progress.json).
"""
from __future__ import annotations

import json
import os
from pathlib import Path


def progress_path() -> Path:
    return Path(os.environ.get("CARTAS_PROGRESS", Path.home() / ".cartas" / "progress.json"))


def load() -> dict[str, dict[str, int]]:
    try:
        data = json.loads(progress_path().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def record(lesson: str, right: int, asked: int) -> None:
    """Store a lesson's score; a failure to write never disturbs the lesson."""
    data = load()
    data[lesson] = {"right": int(right), "asked": int(asked)}
    path = progress_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        tmp.replace(path)
    except OSError:
        pass


class Score:
    """Right answers out of questions asked, saved under a lesson's key."""

    def __init__(self, lesson: str):
        self.lesson = lesson
        self.right = 0
        self.asked = 0

    def add(self, correct: bool) -> None:
        self.asked += 1
        self.right += bool(correct)
        record(self.lesson, self.right, self.asked)
