"""Every dashboard on a 1024×768 projector, in Portuguese and in English: no label, dropdown or
button text is cut off.

A text is cut off when its element is narrower than the text: a label, button or toggle
button whose content is wider than its box (`scrollWidth > clientWidth`, ipywidgets ends such
texts with "…"), or a dropdown whose chosen option is wider than the space left beside its
arrow (measured with the dropdown's own font).
"""
from __future__ import annotations

import sys
from pathlib import Path

import kernel_wire
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from lessons import LESSONS  # noqa: E402 - from tools/, put on the path above

DASHBOARDS = sorted(LESSONS) + ["index"]
ARROW = 20  # pixels of a dropdown taken by its arrow

CUT_OFF = """(arrow) => {
  const visible = e => e.offsetParent !== null && e.getClientRects().length > 0;
  const cut = [];
  const boxes = '.widget-label, .widget-label-basic, .widget-button, .widget-toggle-button, '
              + '.jupyter-button, .widget-inline-hbox > label';
  for (const e of document.querySelectorAll(boxes)) {
    if (visible(e) && e.innerText.trim() && e.scrollWidth > e.clientWidth + 1) {
      cut.push(e.innerText.trim() + ` (${e.scrollWidth} > ${e.clientWidth})`);
    }
  }
  const canvas = document.createElement('canvas').getContext('2d');
  for (const s of document.querySelectorAll('select')) {
    if (!visible(s) || s.multiple || s.selectedIndex < 0) continue;
    const style = getComputedStyle(s);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = s.options[s.selectedIndex].text;
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
    const width = canvas.measureText(text).width;
    if (width > room + 1) cut.push(`${text} (select: ${Math.round(width)} > ${Math.round(room)})`);
  }
  return cut;
}"""


@pytest.mark.parametrize("name", DASHBOARDS)
def test_no_label_or_dropdown_is_cut_off_at_1024x768_in_either_language(name, browser, voila_url):
    """One page load per dashboard: first in Portuguese, then switched to English with the page's
    own language switch (every view redraws its labels in the new language)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        wire = kernel_wire.watch(page)
        page.goto(f"{voila_url}/voila/render/{name}.ipynb?lang=pt")
        page.wait_for_selector(".cartas-view", state="visible")
        for lang in ("pt", "en"):
            mark = wire.mark() if lang != "pt" else 0
            if lang != "pt":
                page.locator(f".cartas-page-language button[data-lang='{lang}']").click()
            page.wait_for_function("(lang) => document.documentElement.dataset.cartasLang === lang",
                                   arg=lang)
            wire.handled(page, mark)  # the views have drawn their labels in the page's language
            assert (lang, page.evaluate(CUT_OFF, ARROW)) == (lang, [])
    finally:
        context.close()
