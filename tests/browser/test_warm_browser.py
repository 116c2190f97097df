"""The browser tests' `browser` (tests/browser/warm.py) lends persistent profiles: a context
given back and lent again starts as a new visitor (no cookie, no stored data, no listener of
the test before), its HTTP cache kept."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

STORED = """async () => [localStorage.getItem('cartas-test'), document.cookie,
                          (await indexedDB.databases()).map(d => d.name)]"""


def test_a_context_given_back_is_lent_again_with_no_cookie_stored_data_or_listener(browser, voila_url):
    first = browser.new_context(viewport={"width": 800, "height": 600})
    heard: list[str] = []
    first.on("request", lambda request: heard.append(request.url))
    page = first.new_page()
    page.goto(f"{voila_url}/voila/static/voila.js")  # a page of the server's origin
    page.evaluate("""async () => { localStorage.setItem('cartas-test', 'ana');
        document.cookie = 'cartas_test=1; path=/';
        await new Promise(done => { indexedDB.open('cartas-test').onsuccess = done; }); }""")
    assert page.evaluate(STORED) == ["ana", "cartas_test=1", ["cartas-test"]]
    assert first.cookies() and heard
    first.close()
    assert page.is_closed() and first.pages == []

    second = browser.new_context(viewport={"width": 640, "height": 480})
    assert second._profile is first._profile  # the same profile, lent again
    heard.clear()
    again = second.new_page()
    response = again.goto(f"{voila_url}/voila/static/voila.js")
    assert again.viewport_size == {"width": 640, "height": 480}
    assert again.evaluate(STORED) == [None, "", []]
    assert second.cookies() == [] and heard == []
    assert response is not None and response.ok
    second.close()


def test_a_page_of_its_own_goes_back_when_closed_and_a_phone_is_another_profile(browser, voila_url):
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.goto(f"{voila_url}/voila/static/voila.js")
    page.evaluate("() => localStorage.setItem('cartas-test', 'bia')")
    page.close()
    laptop = browser.new_context()
    phone = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                device_scale_factor=2)
    assert laptop._profile is not phone._profile
    seen = laptop.new_page()
    seen.goto(f"{voila_url}/voila/static/voila.js")
    assert seen.evaluate(STORED)[0] is None
    touch = phone.new_page()
    touch.goto(f"{voila_url}/voila/static/voila.js")
    assert touch.evaluate("() => [screen.width, navigator.maxTouchPoints > 0, devicePixelRatio]") == [360, True, 2]
    with pytest.raises(TypeError, match="locale"):
        browser.new_context(locale="pt-BR")
