"""axe-core (WCAG 2.1 A and AA: tags wcag2a, wcag2aa, wcag21a, wcag21aa) finds nothing on any
dashboard, in Portuguese and in English, when it opens and after its main interactions (an
exercise asked and answered, a card played, a deal, truco called and accepted where the
dashboard has them). Run on a phone, where the layout is the tightest."""
from __future__ import annotations

import pytest
from phone_pages import DASHBOARDS, axe_violations, main_interactions, open_page, phone_context, switch_language

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", DASHBOARDS)
def test_axe_finds_no_wcag_violation_in_either_language(name, browser, voila_url):
    """One page load sees the four states: opened in English (`?lang=en`), switched to
    Portuguese (every view redrawn), after the main interactions, and switched back."""
    context = phone_context(browser)
    try:
        page = open_page(context, voila_url, name, "en")
        assert ("en", "opening", axe_violations(page)) == ("en", "opening", [])
        switch_language(page, "pt")
        assert ("pt", "opening", axe_violations(page)) == ("pt", "opening", [])
        steps = main_interactions(page)
        assert ("pt", steps, axe_violations(page)) == ("pt", steps, [])
        switch_language(page, "en")
        assert ("en", steps, axe_violations(page)) == ("en", steps, [])
    finally:
        context.close()
