"""Write a lesson notebook from a short Python description, clean (no outputs).

Usage inside a script: make_notebook(path, cells), each cell one of

- ("page",): the page-language cell (`widgets.components.page.page_language()`); put it first;
- ("text", pt, en): prose in both languages, as `<div class="lang-pt">`/`<div class="lang-en">`
  blocks the page-language switch shows one at a time;
- ("md", text): markdown as it is;
- ("code", source): a code cell (a widget);
- ("check", source, expected): a check for nbval, tagged `remove-cell` so a dashboard never
  shows it; its expected output lives in the cell's metadata (`cartas_expect`), so notebooks
  stay stored without outputs (see tests/nbval_prepare.py);
- ("checks", pt, en): the bilingual heading of the checks, tagged `remove-cell` too.
"""
from __future__ import annotations

import json
from pathlib import Path

HIDDEN = ["remove-cell"]  # Voilà's TagRemovePreprocessor drops these cells (voila.json)

PAGE_CELL = "from widgets.components.page import page_language\n\npage_language()"


def bilingual(pt: str, en: str) -> str:
    """Markdown with one block per language; blank lines keep the markdown inside alive."""
    return (f'<div class="lang-pt" lang="pt">\n\n{pt.strip()}\n\n</div>\n'
            f'<div class="lang-en" lang="en">\n\n{en.strip()}\n\n</div>')


def make_notebook(path, cells) -> None:
    out: list[dict] = []
    for kind, *rest in cells:
        if kind == "page":
            out.append(_code(PAGE_CELL, {}))
        elif kind == "text":
            out.append(_markdown(bilingual(*rest), {}))
        elif kind == "checks":
            out.append(_markdown(bilingual(*rest), {"tags": HIDDEN}))
        elif kind == "md":
            out.append(_markdown(rest[0].strip("\n"), {}))
        elif kind == "code":
            out.append(_code(rest[0].strip("\n"), {}))
        elif kind == "check":
            source, expected = rest
            out.append(_code("# NBVAL_CHECK_OUTPUT\n" + source.strip("\n"),
                             {"cartas_expect": expected, "tags": HIDDEN}))
        else:
            raise ValueError(f"unknown cell kind {kind!r}")
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


def _markdown(source: str, metadata: dict) -> dict:
    return {"cell_type": "markdown", "metadata": metadata, "source": source}


def _code(source: str, metadata: dict) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": metadata,
            "outputs": [], "source": source}
