"""The teacher's insight on the class dashboard (issue 32, item 3): the synthetic class's
answers in the store, the teacher opens the class on a laptop and on a 360 px phone, each in
both languages (the page's switch); the report names the planted misconceptions, the whole class view (its learners
table scrolling inside its own box) fits the phone and is axe-clean."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import kernel_wire
from phone_pages import axe_results, phone_context, switch_language
from serving import ROOT, screenshot, start_voila, stop

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from synthetic_class import synthetic_class

# The insight panel's screenshots (laptop and 360 px phone, pt and en): the reviewed ones in
# screenshots/insight/ are rewritten only by `make screenshots` (CARTAS_UPDATE_SCREENSHOTS=1),
# as the phone dashboards' are; a run asked for screenshots (CARTAS_SCREENSHOTS=1) writes its own
# under build/, so a test run never leaves the checkout changed (`serving.screenshot`).
SCREENSHOTS = (ROOT / "screenshots" / "insight" if os.environ.get("CARTAS_UPDATE_SCREENSHOTS") == "1"
               else ROOT / "build" / "screenshots" / "insight")


@pytest.fixture(scope="module")
def insight_class(tmp_path_factory):
    """A Voilà server whose store holds the synthetic class; yields (url, code, key, planted)."""
    from classroom.interface import StoreClassroom
    from classroom.progress import open_store

    tmp = tmp_path_factory.mktemp("insight-voila")
    db = str(tmp / "cartas.db")
    room = StoreClassroom(open_store(db))
    made = room.create_class("8º A")
    planted, _ = synthetic_class(room, made.code)
    process, base = start_voila(ROOT / "notebooks", tmp / "voila.log",
                                {"CARTAS_PROGRESS": str(tmp / "progress.json"), "CARTAS_DB": db,
                                 "CARTAS_DATABASE_URL": ""})
    try:
        yield base, made.code, made.key, planted
    finally:
        stop(process)


def _axe(page, context: str = ".cartas-view") -> list[str]:
    """axe-core's WCAG 2.1 A and AA violations inside `context`: the whole class view (the
    forms, the learners table, the roster, the homework, the insight panel, the tables)."""
    named = ("(t) => { const e = document.querySelector(t);"
             " const w = e && e.closest('[class*=\"cartas-\"]'); return w ? w.className : ''; }")
    return [f"{v['id']}: {node['target']} {page.evaluate(named, node['target'][0])} "
            f"{node.get('failureSummary', '')[:160]}"
            for v in axe_results(page, context) for node in v["nodes"]]


def _open(context, base: str, code: str, key: str, lang: str):
    page = context.new_page()
    page.set_default_timeout(90_000)
    kernel_wire.watch(page)  # (a phone's context watches its pages already)
    page.goto(f"{base}/voila/render/turma.ipynb?lang={lang}")
    page.wait_for_selector(".cartas-view", state="visible")
    page.locator(".cartas-class-code input").fill(code)
    page.locator(".cartas-teacher-key input").fill(key)
    page.locator(".cartas-open-class").click()
    page.wait_for_selector(".cartas-insight-sentences li")
    return page


def _check(page, name: str, lang: str, planted: dict, code: str) -> None:
    """The report in `lang` names every planted misconception; on the phone, nothing runs past
    its width; axe finds nothing; a screenshot for review."""
    from cartas.questions import misconception

    panel = page.locator(".cartas-insight")
    text = panel.inner_text()
    for belief in {k for beliefs in planted.values() for k in beliefs}:
        words = misconception(belief).text[lang].replace("&lt;", "<")
        assert words in text, (belief, lang)
    assert page.locator(".cartas-insight-learner").count() == len(planted)
    assert page.locator(".cartas-insight-csv-answers").get_attribute("download") == f"respostas-{code}.csv"
    panel.scroll_into_view_if_needed()
    if name == "phone":
        width = page.evaluate("() => document.documentElement.clientWidth")
        box = panel.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (box, width)
        assert page.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1",
                             panel.element_handle()), "the insight scrolls sideways"
        # nothing of the class view, its learners table included, runs past the phone:
        # a table too wide scrolls inside its own box
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
        table = page.locator(".cartas-class-table table")
        table.first.wait_for()  # the learners' table is drawn once the class is open
        assert table.count() == 1
        box = page.locator(".cartas-class-table .cartas-scroll-x").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (box, width)
        boxes = page.evaluate("""() => [...document.querySelectorAll('.cartas-view *')]
            .filter(e => e.getClientRects().length && !e.closest('.cartas-scroll-x')
                         && !e.closest('.cartas-sr-only'))
            .map(e => [(e.closest('[class*="cartas-"]') || e).className.toString().split(' ').pop()
                       + ' ' + e.tagName, e.getBoundingClientRect()])
            .filter(([_, r]) => r.width > 0 && r.height > 0 && (r.right > innerWidth + 1 || r.left < -1))
            .map(([n, r]) => `${n} ${Math.round(r.left)}..${Math.round(r.right)}`)""")
        assert boxes == [], boxes[:5]
    assert (lang, _axe(page)) == (lang, [])
    page.evaluate("(e) => e.scrollIntoView()", panel.locator("h4").element_handle())
    page.evaluate(kernel_wire.PAINTED)  # the scroll painted (a screenshot for review)
    screenshot(page, SCREENSHOTS / f"{name}_{lang}.png")


def test_the_teacher_reads_what_her_class_gets_wrong_on_a_laptop_and_a_phone_in_both_languages(
        browser, insight_class):
    """The laptop opens in Portuguese and the phone in English; each then switches to the other
    language with the page's switch (every view drawn again), and is checked again."""
    base, code, key, planted = insight_class
    for size, name, langs in (((1280, 900), "laptop", ("pt", "en")), ((360, 740), "phone", ("en", "pt"))):
        context = (browser.new_context(viewport={"width": size[0], "height": size[1]}) if name == "laptop"
                   else phone_context(browser, size))
        try:
            page = _open(context, base, code, key, langs[0])
            _check(page, name, langs[0], planted, code)
            switch_language(page, langs[1])
            _check(page, name, langs[1], planted, code)
            page.locator(".cartas-insight-learner summary").first.click()  # one learner opened
            replay = page.locator(".cartas-insight-learner").first.locator(".cartas-insight-replay").first
            replay.wait_for()
            assert _axe(page) == []
        finally:
            context.close()
