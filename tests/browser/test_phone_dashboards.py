"""Every dashboard on a phone (360×740 and 390×844, touch), in Portuguese and in English, at
opening and after its main interactions: one title and one language switch (the page's),
nothing reaches past the screen's edge, every tap
target (a checkbox too) is at least 44×44 px, no label is cut off, no field is squeezed below
its content, and nothing a learner reads or taps overlaps another or is drawn out of its row.

Each dashboard's phone screenshot is taken here (after its main interactions, in Portuguese):
under build/screenshots/phone/ in a test run, and into the reviewed screenshots/phone/ by
`make screenshots`.
"""
from __future__ import annotations

import pytest
from phone_pages import (
    DASHBOARDS,
    PHONES,
    SCREENSHOTS,
    full_screenshot,
    layout_problems,
    main_interactions,
    open_page,
    phone_context,
    switch_language,
    titles_and_switches,
)

pytestmark = pytest.mark.browser

NONE = {"out": [], "small": [], "cut": [], "overlap": []}


@pytest.mark.parametrize("name", DASHBOARDS)
def test_dashboard_fits_a_phone_with_44px_targets_and_no_label_cut_off(name, browser, voila_url):
    context = phone_context(browser)
    try:
        page = open_page(context, voila_url, name, "pt")
        assert ("pt", "opening", layout_problems(page)) == ("pt", "opening", NONE)
        assert titles_and_switches(page) == {"switches": 1, "repeated": []}
        main_interactions(page)
        # still this dashboard: no interaction follows a link away (the checks and the
        # screenshot below would then be of another page)
        assert page.url.split("?")[0].endswith(f"/{name}.ipynb"), page.url
        assert ("pt", "after", layout_problems(page)) == ("pt", "after", NONE)
        full_screenshot(page, SCREENSHOTS / f"{name}.png")
        switch_language(page, "en")
        assert titles_and_switches(page) == {"switches": 1, "repeated": []}
        for width, height in PHONES:
            page.set_viewport_size({"width": width, "height": height})
            # the page has taken the new width and drawn it (two frames), no fixed wait
            page.wait_for_function("(w) => window.innerWidth === w", arg=width)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            assert ("en", width, layout_problems(page)) == ("en", width, NONE)
    finally:
        context.close()
