"""The truco widgets draw and ask the engine: no seat arithmetic, no magic deal index, no
sentence helper of their own (the one translation helper is `widgets.components.i18n.translate`)."""
import pathlib
import re

import pytest

WIDGETS = pathlib.Path(__file__).resolve().parent.parent / "widgets"
TRUCO_VIEWS = sorted(WIDGETS.rglob("*.py"))  # every page, component and drawing
FORBIDDEN = {
    "seat parity": re.compile(r"(seat|\bs)\s*(%\s*2|&\s*1)\b"),
    "seat modulo": re.compile(r"%\s*4\b|&\s*3\b"),
    "the deal's magic 13": re.compile(r"\[\s*13\s*:|\b12\]"),
    "a local two-language helper": re.compile(r"def (both|_say|_t)\("),
    "team letters by parity": re.compile(r"'AB'\[|\"AB\"\["),
}


@pytest.mark.parametrize("path", TRUCO_VIEWS, ids=lambda p: str(p.relative_to(WIDGETS)))
def test_truco_widgets_do_no_seat_arithmetic_and_have_no_translation_helper(path):
    source = path.read_text(encoding="utf-8")
    found = {what: pattern.findall(source) for what, pattern in FORBIDDEN.items()}
    assert not any(found.values()), {k: v for k, v in found.items() if v}
