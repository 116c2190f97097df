"""What a dashboard must show on a 1024×768 projector and in English, checked in a page already
open (tests/browser/test_phone_dashboards.py runs these in each dashboard's one page load):

- no output area shows a Python value (True, 0.6, (0, 1), a quoted string...): the engine
  checks are tagged `remove-cell` and Voilà drops them (`python_reprs`);
- in English, no Portuguese heading (h1-h3) is visible: the prose blocks of the other language
  are hidden and the views draw their titles in English; the page's title is its English h1
  (`english_heading_problems`);
- at 1024×768 no label, dropdown or button text is cut off (`projector_cut_off`). A text is cut
  off when its element is narrower than the text: a label, button or toggle button whose
  content is wider than its box (`scrollWidth > clientWidth`, ipywidgets ends such texts with
  "…"), or a dropdown whose chosen option is wider than the space left beside its arrow
  (measured with the dropdown's own font).
"""
from __future__ import annotations

import functools
import importlib
import pkgutil
import re

import widgets

import kernel_wire

PROJECTOR = (1024, 768)
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

# A whole output that reads like a Python value.
PYTHON_REPR = re.compile(r"""^(True|False|None|-?\d+(\.\d+)?(e[-+]?\d+)?|\(.*\)|\[.*\]|\{.*\}|'.*'|".*"|\w+\(.*\))$""",
                         re.DOTALL)

OUTPUTS = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output'))
  .filter(e => !(e.dataset.mimeType || '').includes('widget-view'))
  .map(e => ({mime: e.dataset.mimeType || '', text: (e.innerText || '').trim()}))"""

HEADINGS = """() => Array.from(document.querySelectorAll('h1, h2, h3'))
  .filter(e => e.offsetParent !== null && e.getClientRects().length > 0)
  .map(e => ({text: e.innerText.replace('\\u00b6', '').trim(),
              inEnglish: e.closest('.lang-en') !== null,
              inPortuguese: e.closest('.lang-pt') !== null}))"""


@functools.cache
def portuguese_view_texts() -> frozenset[str]:
    """Every Portuguese sentence the views know that differs from its English one."""
    texts = set()
    for info in pkgutil.iter_modules(widgets.__path__):
        module = importlib.import_module(f"widgets.{info.name}")
        for value in vars(module).values():
            if isinstance(value, dict):
                for entry in value.values():
                    if isinstance(entry, dict) and isinstance(entry.get("pt"), str) \
                            and entry.get("pt") != entry.get("en"):
                        texts.add(re.sub(r"<[^>]+>", "", entry["pt"]).strip())
    return frozenset(texts)


def python_reprs(outputs) -> list[str]:
    """The outputs a learner should never see: plain text or stream output, or a Python value."""
    shown = []
    for output in outputs:
        if output["mime"].startswith(("text/plain", "application/vnd.jupyter.std")) \
                or PYTHON_REPR.match(output["text"]):
            shown.append(f"{output['mime']}: {output['text'][:80]!r}")
    return shown


def page_python_reprs(page) -> list[str]:
    return python_reprs(page.evaluate(OUTPUTS))


def english_heading_problems(page) -> list:
    """What is wrong with the headings of a page shown in English: a visible heading of the
    Portuguese prose or a Portuguese view title, no English heading, a title that is not the
    English h1."""
    headings = page.evaluate(HEADINGS)
    portuguese = portuguese_view_texts()
    problems: list = [h for h in headings if h["inPortuguese"] or (not h["inEnglish"] and h["text"] in portuguese)]
    if not any(h["inEnglish"] for h in headings):
        problems.append("no English heading shown")
    else:
        title = page.locator(".lang-en h1").first.inner_text().replace("¶", "").strip()
        if page.title() != title:
            problems.append(f"the title {page.title()!r} is not the English h1 {title!r}")
    return problems


def resize(page, width: int, height: int) -> None:
    """The page at `width`×`height`, laid out and drawn at it (two frames), no fixed wait."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("(w) => window.innerWidth === w", arg=width, polling=100)
    page.evaluate(kernel_wire.PAINTED)


def projector_cut_off(page) -> list[str]:
    """The texts cut off (`CUT_OFF`) with the page at a projector's 1024×768; the page is at its
    own size again after."""
    size = page.viewport_size
    resize(page, *PROJECTOR)
    try:
        return page.evaluate(CUT_OFF, ARROW)
    finally:
        resize(page, size["width"], size["height"])
