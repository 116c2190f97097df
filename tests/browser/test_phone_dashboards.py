"""Every dashboard on a phone (360×740 and 390×844, touch), in Portuguese and in English, at
opening and after its main interactions (an exercise asked and answered, a card played, a deal,
truco called and accepted where the dashboard has them): one title and one language switch (the
page's), nothing reaches past the screen's edge, every tap target (a checkbox too) is at least
44×44 px, no label is cut off, no field is squeezed below its content, nothing a learner reads
or taps overlaps another or is drawn out of its row, and axe-core (WCAG 2.1 A and AA: tags
wcag2a, wcag2aa, wcag21a, wcag21aa) finds nothing; and nothing the page asks for, in all of it,
comes from outside the server (a classroom may have no internet). One page load per dashboard
sees its four states: opened in Portuguese, switched to English (every view redrawn), back in
Portuguese after the main interactions, and switched to English again. The page is opened with
hostile URL parameters (tests/browser/hostile_links.py: a hostile value for every parameter, the
language's too, so the page opens in Portuguese): it says what it refused, in Portuguese, with
no failed cell and no injected HTML, and that notice too must fit the phone. `make screenshots`
opens the plain link instead, so that the reviewed screenshots show what a learner sees.

The same page load checks what a projector shows (tests/browser/projector.py): no output area
shows a Python value; opened, in Portuguese and then in English, the page at 1024×768 cuts off
no label, dropdown or button text; in English no Portuguese heading is visible and the page's
title is its English h1.

Each dashboard's phone screenshot is taken here (after its main interactions, in Portuguese):
into the reviewed screenshots/phone/ by `make screenshots`, and under build/screenshots/phone/
by a test run with CARTAS_SCREENSHOTS=1 (the whole page at twice the phone's pixels costs half
a second of the browser's CPU per dashboard: an ordinary run takes none).
"""
from __future__ import annotations

import os

import pytest

from hostile_links import hostile_link, hostile_problems
from phone_pages import (
    DASHBOARDS,
    PHONES,
    SCREENSHOTS,
    axe_violations,
    full_screenshot,
    layout_problems,
    main_interactions,
    open_page,
    outside_requests,
    phone_context,
    switch_language,
    titles_and_switches,
)
from projector import english_heading_problems, page_python_reprs, projector_cut_off, resize

pytestmark = pytest.mark.browser

NONE = {"out": [], "small": [], "cut": [], "overlap": []}
PLAIN = os.environ.get("CARTAS_UPDATE_SCREENSHOTS") == "1"  # `make screenshots`: the plain link
SHOOT = PLAIN or os.environ.get("CARTAS_SCREENSHOTS") == "1"  # the screenshots: make screenshots, or asked for


@pytest.mark.parametrize("name", DASHBOARDS)
def test_dashboard_fits_a_phone_with_44px_targets_no_label_cut_off_and_no_wcag_violation(name, browser, voila_url):
    context = phone_context(browser)
    outside = outside_requests(context, voila_url)
    try:
        page = open_page(context, voila_url, name, "pt", link=None if PLAIN else hostile_link(f"{name}.ipynb"))
        assert PLAIN or hostile_problems(page, f"{name}.ipynb") == []
        assert ("pt", "opening", layout_problems(page)) == ("pt", "opening", NONE)
        assert titles_and_switches(page) == {"switches": 1, "repeated": []}
        assert ("pt", "opening", axe_violations(page)) == ("pt", "opening", [])
        assert page_python_reprs(page) == []
        assert ("pt", "projector", projector_cut_off(page)) == ("pt", "projector", [])
        switch_language(page, "en")
        assert ("en", "opening", axe_violations(page)) == ("en", "opening", [])
        assert english_heading_problems(page) == []
        assert ("en", "projector", projector_cut_off(page)) == ("en", "projector", [])
        switch_language(page, "pt")
        steps = main_interactions(page)
        # still this dashboard: no interaction follows a link away (the checks and the
        # screenshot below would then be of another page)
        assert page.url.split("?")[0].endswith(f"/{name}.ipynb"), page.url
        assert ("pt", "after", layout_problems(page)) == ("pt", "after", NONE)
        assert ("pt", steps, axe_violations(page)) == ("pt", steps, [])
        if SHOOT:
            full_screenshot(page, SCREENSHOTS / f"{name}.png")
        switch_language(page, "en")
        assert titles_and_switches(page) == {"switches": 1, "repeated": []}
        assert ("en", steps, axe_violations(page)) == ("en", steps, [])
        for width, height in PHONES:
            resize(page, width, height)
            assert ("en", width, layout_problems(page)) == ("en", width, NONE)
        assert outside == []
    finally:
        context.close()
