"""The checkouts a benchmark measures in one run: this one, and the one `--against DIR` names
(say, an older commit: `git worktree add ../old <commit>`, then `make install` there), each
served by its own Voilà from its own environment (class_load.py, phone_startup.py)."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Checkout:
    """A checkout measured: its name in the tables, its folder, its environment's Python."""
    name: str
    root: Path
    python: str


def checkouts_for(against: Path | None) -> list[Checkout]:
    """This checkout, then `against` when given. ValueError naming the folder when it is not a
    checkout with its own .venv and voila.json."""
    found = [Checkout("this checkout", ROOT, sys.executable)]
    if against is not None:
        other = against.resolve()
        python = other / ".venv" / "bin" / "python"
        if not python.is_file() or not (other / "voila.json").is_file():
            raise ValueError(f"{other} is not a checkout with its own .venv (run make install there)")
        found.append(Checkout(f"{other.name} (--against)", other, str(python)))
    return found
