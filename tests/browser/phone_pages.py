"""What the phone, axe and keyboard tests share: the dashboards, a phone's browser context,
the layout checks run in the page, a dashboard's main interactions, and axe-core.

A phone is 360×740 CSS pixels (and 390×844), touch, device scale 2 (JUPYTER-NOTES.md).
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

import kernel_wire
from class_pages import wait_for_view
from serving import KEEP_SCREENSHOTS, UPDATE_SCREENSHOTS, screenshot

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from lessons import LESSONS  # noqa: E402 - from tools/, put on the path above

DASHBOARDS = sorted(LESSONS) + ["index"]
PHONES = ((360, 740), (390, 844))
TAP = 44  # px: the least tap target on a touch screen (WCAG 2.5.5)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# axe-core rules of those criteria that it leaves out unless asked (experimental ones): WCAG
# 2.5.3 Label in Name, a control's accessible name containing its visible text
AXE_RULES = {"label-content-name-mismatch": {"enabled": True}}
# The reviewed phone screenshots (committed) are rewritten only by `make screenshots`
# (CARTAS_UPDATE_SCREENSHOTS=1); a test run asked for screenshots (CARTAS_SCREENSHOTS=1) writes
# its own under build/, so a test run never leaves the checkout changed.
SCREENSHOTS = (ROOT / "screenshots" / "phone" if os.environ.get("CARTAS_UPDATE_SCREENSHOTS") == "1"
               else ROOT / "build" / "screenshots" / "phone")


def phone_context(browser, size=PHONES[0]):
    """A phone's browser context; each of its pages is watched (kernel_wire) from its start."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    context.on("page", kernel_wire.watch)
    return context


def outside_requests(context, voila_url: str) -> list[str]:
    """The addresses the context's pages ask for outside the server at `voila_url` (HTTP and
    WebSocket), from now on: a dashboard must work in a classroom with no internet."""
    own = urlsplit(voila_url).netloc
    outside: list[str] = []
    context.on("request", lambda request: outside.append(request.url)
               if urlsplit(request.url).scheme in ("http", "https", "ws", "wss")
               and urlsplit(request.url).netloc != own else None)
    return outside


def open_page(context, voila_url: str, name: str, lang: str = "pt", link: str | None = None):
    """The dashboard `name` opened in `lang` (at `link`, a notebook and its query, when given:
    a link that opens in `lang`)."""
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{voila_url}/voila/render/{link or f'{name}.ipynb?lang={lang}'}")
    wait_for_view(page)
    page.wait_for_function("(lang) => document.documentElement.dataset.cartasLang === lang", arg=lang, polling=100)
    settle(page)
    return page


def settle(page, mark: int = 0) -> None:
    """Let the kernel's answer reach the page: every request the page sent its kernel since
    `mark` (default: since it opened, so the first state request, which the views' first
    drawing runs before) is finished and drawn (kernel_wire)."""
    page.wait_for_load_state("networkidle")
    kernel_wire.of(page).handled(page, mark)


# Layout, measured in the page. An element is out of the screen when its box reaches past the
# viewport's width (or left of 0); a target is every control a finger taps, a checkbox itself
# and a summary that opens its details included; a label is cut when its text is wider than its
# box (ipywidgets then ends it with "…"), a field is squeezed when it is narrower than 4
# characters of its font and a field's placeholder (its label, in capitals where the field
# writes capitals) is cut when it is wider than the field's room for text. Two things a learner
# reads or taps (labels, fields, buttons, a summary) overlap when their boxes cross, and a field
# is hidden in part when it reaches out of its own widget's row (drawn over the next row, which
# covers it).
LAYOUT = """(tap) => {
  const width = document.documentElement.clientWidth;
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'
                     && !e.closest('.cartas-sr-only');
  const name = e => ((e.getAttribute && e.getAttribute('aria-label')) || e.textContent || e.tagName)
                     .trim().replace(/\\s+/g, ' ').slice(0, 40);
  const out = [], small = [], cut = [], overlap = [];
  for (const e of document.querySelectorAll('.jp-OutputArea-output *')) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && (r.right > width + 1 || r.left < -1))
      out.push(`${name(e)} (${Math.round(r.left)}..${Math.round(r.right)} of ${width})`);
  }
  const targets = 'button, select, textarea, a[href], [role=button], summary, .widget-checkbox label, '
    + 'input:not([type=radio]):not([type=hidden])';
  for (const e of document.querySelectorAll(targets)) {
    if (!shown(e) || e.closest('.cartas-sr-label > label')) continue;
    const r = e.getBoundingClientRect();
    if (r.width < tap - 0.5 || r.height < tap - 0.5)
      small.push(`${name(e)} (${Math.round(r.width)}×${Math.round(r.height)})`);
  }
  const labels = '.widget-label, .widget-label-basic, .widget-button, .widget-toggle-button, '
    + '.jupyter-button, .widget-inline-hbox > label';
  for (const e of document.querySelectorAll(labels)) {
    if (!shown(e) || e.closest('.cartas-sr-label') || !e.innerText.trim()) continue;
    if (e.scrollWidth > e.clientWidth + 1) cut.push(`${name(e)} (${e.scrollWidth} > ${e.clientWidth})`);
  }
  const canvas = document.createElement('canvas').getContext('2d');
  for (const e of document.querySelectorAll('input[type=text], input[type=number], textarea, select')) {
    if (!shown(e)) continue;
    const style = getComputedStyle(e);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    if (e.clientWidth < canvas.measureText('0000').width) cut.push(`field ${name(e)} (${e.clientWidth} px)`);
  }
  for (const e of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    if (!shown(e) || !e.placeholder || e.value) continue;
    const style = getComputedStyle(e), hint = getComputedStyle(e, '::placeholder');
    canvas.font = `${hint.fontWeight} ${hint.fontSize} ${hint.fontFamily}`;
    const text = hint.textTransform === 'uppercase' ? e.placeholder.toUpperCase() : e.placeholder;
    const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (canvas.measureText(text).width > room + 1)
      cut.push(`placeholder ${text} (${Math.round(canvas.measureText(text).width)} > ${Math.round(room)})`);
  }
  const parts = [...document.querySelectorAll(
      '.widget-label, .widget-label-basic > span, select, input, textarea, button, summary')]
    .filter(e => e.closest('.jp-OutputArea-output') && shown(e) && !e.closest('.cartas-sr-label > label'))
    .map(e => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.width > 0 && r.height > 0);
  for (let i = 0; i < parts.length; i++) {
    const [a, p] = parts[i];
    for (let j = i + 1; j < parts.length; j++) {
      const [b, q] = parts[j];
      if (a.contains(b) || b.contains(a)) continue;
      const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (x > 1 && y > 1) overlap.push(`${name(a)} / ${name(b)} (${Math.round(x)}×${Math.round(y)})`);
    }
    const row = a.closest('.widget-inline-hbox');
    const r = row && row.getBoundingClientRect();
    if (r && (p.bottom > r.bottom + 1 || p.top < r.top - 1))
      overlap.push(`${name(a)} out of its row (${Math.round(p.top)}..${Math.round(p.bottom)} `
                   + `of ${Math.round(r.top)}..${Math.round(r.bottom)})`);
  }
  return {out, small, cut, overlap};
}"""


# One title and one language switch per page: the language switches shown, and every heading
# text (h1-h4, without Voilà's ¶ anchor) shown more than once.
ONE_TITLE = """() => {
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const texts = [...document.querySelectorAll('h1, h2, h3, h4')].filter(shown)
    .map(e => e.textContent.replace('¶', '').trim()).filter(t => t);
  return {
    switches: [...document.querySelectorAll('.cartas-page-language, .cartas-language')].filter(shown).length,
    repeated: [...new Set(texts.filter((t, i) => texts.indexOf(t) !== i))],
  };
}"""


def titles_and_switches(page) -> dict:
    """{"switches": language switches shown, "repeated": heading texts shown twice or more}."""
    return page.evaluate(ONE_TITLE)


def layout_problems(page) -> dict:
    return page.evaluate(LAYOUT, TAP)


AXE_RUN = """([context, options]) => axe.run(context === null ? document : context, options)
  .then(results => results.violations)"""


def axe_results(page, context: str | None = None) -> list[dict]:
    """axe-core's WCAG 2.1 A and AA violations (AXE_RULES included) in `context` (a selector;
    the whole page by default). axe-core is put into the page once: its script is half a
    megabyte, and a page is checked up to four times. Only the violations are asked for
    (`resultTypes`): the passes would come back with every node they looked at."""
    from axe_playwright_python.base import AXE_SCRIPT

    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    options = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "rules": AXE_RULES, "resultTypes": ["violations"]}
    return page.evaluate(AXE_RUN, [context, options])


def axe_violations(page) -> list[str]:
    """axe-core's violations on the page (`axe_results`), one line per rule and element."""
    return [f"{v['id']}: {node['target']} {node.get('failureSummary', '')[:160]}"
            for v in axe_results(page) for node in v["nodes"]]


# A dashboard's main interactions, in order: ask for an exercise and answer it, open a class
# table and start it, play a card or a 21 move, deal, compute, show, call truco and accept.
# Each step clicks the first visible, enabled control it names (a dashboard without one skips
# the step) and lets the page settle.
MAIN_STEPS = (
    ".cartas-next",
    ".cartas-answer, .cartas-answer-player, .cartas-answer-draw, .cartas-answer-0",
    ".cartas-mesa-create",
    ".cartas-mesa-start",
    ".cartas-pick-on",
    ".cartas-act",
    ".cartas-new, .cartas-deal, .cartas-compute, .cartas-show, .cartas-make, .cartas-create-class, .cartas-refresh",
    ".cartas-raise",
    ".cartas-accept",
)


def click_first(page, selector: str) -> bool:
    for element in page.locator(selector).all():
        if element.is_visible() and element.is_enabled():
            mark = kernel_wire.of(page).mark()
            element.click()
            settle(page, mark)
            return True
    return False


def main_interactions(page) -> list[str]:
    """Do the dashboard's main interactions; returns the steps done."""
    return [step for step in MAIN_STEPS if click_first(page, step)]


def switch_language(page, lang: str) -> None:
    mark = kernel_wire.of(page).mark()
    page.locator(f".cartas-page-language button[data-lang='{lang}']").click()
    page.wait_for_function("(lang) => document.documentElement.dataset.cartasLang === lang", arg=lang, polling=100)
    settle(page, mark)


def full_screenshot(page, path: Path) -> None:
    """The whole dashboard at the phone's width (Voilà scrolls an inner element, so the
    viewport grows to the content's height first), when the run asks for screenshots
    (`serving.screenshot`)."""
    if not (KEEP_SCREENSHOTS or UPDATE_SCREENSHOTS):
        return
    size = page.viewport_size
    height = page.evaluate("Math.max(...Array.from(document.querySelectorAll('body *'), e => e.scrollHeight))")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height) + 40, 8000))})
    page.evaluate(kernel_wire.PAINTED)  # drawn at the new size
    screenshot(page, path, full_page=True)
    page.set_viewport_size(size)


# every text the page's live region says, from now on, in window.cartasSaid
RECORD = """() => { window.cartasSaid = [];
  const region = document.querySelector('.cartas-announce');
  new MutationObserver(() => { if (region.textContent) window.cartasSaid.push(region.innerText); })
    .observe(region, {childList: true, characterData: true, subtree: true}); }"""


def record(page) -> None:
    """Record what the live region says from now on, once it watches the view (before, what the
    view draws is taken as already there and not said)."""
    page.wait_for_selector(".cartas-announce[data-watching]", state="attached")
    page.evaluate(RECORD)


def said(page) -> list[str]:
    return page.evaluate("() => window.cartasSaid")


def wait_said(page, pattern: str, seconds: float = 30) -> str:
    """The first text said that matches `pattern` (fails with what was said, after `seconds`)."""
    for _ in range(int(seconds * 4)):
        found = next((t for t in said(page) if re.search(pattern, t)), None)
        if found is not None:
            return found
        page.wait_for_timeout(250)
    raise AssertionError(f"never said {pattern!r}: {said(page)}")
