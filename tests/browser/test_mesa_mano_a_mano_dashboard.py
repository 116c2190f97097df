"""A class table mano a mano in a browser (docs/rules.md#mano-a-mano-players): on a 360 px phone
Ana chooses "One on one (2)" in the lobby, creates the table and deals; the table of two is drawn
from her seat, fits the phone and axe finds no WCAG violation."""
from __future__ import annotations

import pytest
from test_mesa_dashboard import create, mesa_server, mesa_url, status  # noqa: F401 - fixtures

from phone_pages import axe_violations, layout_problems, phone_context, settle

pytestmark = pytest.mark.browser

NONE = {"out": [], "small": [], "cut": [], "overlap": []}


@pytest.mark.parametrize("lang, choice", [("en", "One on one (2)"), ("pt", "Mano a mano (2)")])
def test_a_table_for_two_is_created_on_a_phone_and_fits_it(browser, mesa_url, lang, choice):  # noqa: F811
    phone = phone_context(browser)
    try:
        ana = phone.new_page()
        ana.set_default_timeout(60_000)
        create(ana, mesa_url, "Ana", lang=lang, pace=0.3,
               setup=lambda page: page.locator(".cartas-mesa-players select").select_option(label=choice))
        ana.locator(".cartas-mesa-seat[data-seat='1']").wait_for()  # the seats are drawn after the code
        assert ana.locator(".cartas-mesa-seat[data-seat]").count() == 2
        ana.locator(".cartas-mesa-start").click()
        ana.wait_for_selector(".cartas-table .cartas-seat[data-seat='0'][data-place='bottom']")
        assert ana.locator(".cartas-table .cartas-seat[data-seat='1'][data-place='top']").count() == 1
        assert ana.locator(".cartas-table .cartas-seat").count() == 2
        ana.wait_for_function("() => document.querySelector('.cartas-status [data-turn]').dataset.turn === 'you'",
                              polling=100)
        settle(ana)
        assert (lang, layout_problems(ana)) == (lang, NONE)
        assert (lang, axe_violations(ana)) == (lang, [])
        assert status(ana)["turn"] == "you"
    finally:
        phone.close()
