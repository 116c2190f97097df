"""Every "Decided" rule of docs/rules.md is cited by the code that enforces it and by a test
(CONTRIBUTING.md "Where a rule lives"): each anchor of the Decisions section appears as
`docs/rules.md#<anchor>` in `cartas/`, `classroom/` or `widgets/`, and in `tests/`."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("cartas", "classroom", "widgets")


def decided_anchors() -> list[str]:
    """The anchors of the Decisions section, in order (`<a id="x"></a>**x**`)."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    decisions = text[text.index('<a id="decisions"></a>'):]
    return re.findall(r'<a id="([^"]+)"></a>\*\*', decisions)


def cited(folders: tuple[str, ...]) -> set[str]:
    found: set[str] = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            found.update(re.findall(r"docs/rules\.md#([\w-]+)", path.read_text(encoding="utf-8")))
    return found


def test_the_decisions_section_lists_its_anchors():
    anchors = decided_anchors()
    assert len(anchors) >= 30 and len(set(anchors)) == len(anchors)
    assert {"truco-tied-partners", "21-banker-two-aces", "verified-learners"} <= set(anchors)


def test_every_decided_rule_is_cited_by_the_code_that_enforces_it():
    missing = [a for a in decided_anchors() if a not in cited(CODE)]
    assert not missing, "cite docs/rules.md#<anchor> where the rule is enforced: " + ", ".join(missing)


def test_every_decided_rule_is_cited_by_a_test():
    missing = [a for a in decided_anchors() if a not in cited(("tests",))]
    assert not missing, "cite docs/rules.md#<anchor> in the rule's test docstring: " + ", ".join(missing)


def test_every_anchor_cited_exists():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', text))
    # sections are cited by their heading's anchor too (#vinte-e-um, #truco-paulista)
    headings = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-")
                for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}
    unknown = sorted((cited(CODE) | cited(("tests",))) - anchors - headings)
    assert not unknown, "cited but not in docs/rules.md: " + ", ".join(unknown)
