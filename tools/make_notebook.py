"""Write a lesson notebook from a short Python description, clean (no outputs).

Usage inside a script: make_notebook(path, [("md", text), ("code", source), ("check", source, expected)])
A "check" cell is marked for nbval; its expected output lives in the cell's metadata
(`cartas_expect`), so notebooks stay stored without outputs (see tests/nbval_prepare.py).
"""
from __future__ import annotations

import json
from pathlib import Path


def make_notebook(path, cells) -> None:
    out: list[dict] = []
    for kind, source, *rest in cells:
        source = source.strip("\n")
        if kind == "md":
            out.append({"cell_type": "markdown", "metadata": {}, "source": source})
            continue
        metadata: dict = {}
        if kind == "check":
            source = "# NBVAL_CHECK_OUTPUT\n" + source
            metadata["cartas_expect"] = rest[0]
        out.append({"cell_type": "code", "execution_count": None, "metadata": metadata,
                    "outputs": [], "source": source})
    notebook = {
        "cells": out,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4, "nbformat_minor": 5,
    }
    for i, cell in enumerate(out):
        cell["id"] = f"cell-{i}"
    Path(path).write_text(json.dumps(notebook, ensure_ascii=False, indent=1) + "\n")
