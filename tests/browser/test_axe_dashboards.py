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
    for first, second in (("pt", "en"), ("en", "pt")):
        context = phone_context(browser)
        try:
            page = open_page(context, voila_url, name, first)
            assert (first, "opening", axe_violations(page)) == (first, "opening", [])
            steps = main_interactions(page)
            assert (first, steps, axe_violations(page)) == (first, steps, [])
            if first == "pt":  # the page's switch redraws every view in the other language
                switch_language(page, second)
                assert (second, "switched", axe_violations(page)) == (second, "switched", [])
        finally:
            context.close()
