"""The teacher's view survives a reload on that browser when she ticks "remember on this
device", keeps no key in the browser, and forgets on request (widgets.pages.turma)."""
from __future__ import annotations

from playwright.sync_api import expect

import kernel_wire


def test_the_class_opens_again_after_a_reload_and_forgets_on_request(dashboard):
    page = dashboard("turma.ipynb", "?lang=en")
    page.locator(".cartas-remember input").check()
    page.locator(".cartas-class-name input").fill("Reload class")
    page.locator(".cartas-create-class").click()
    created = page.locator(".cartas-created .cartas-ok")
    created.wait_for()
    code, key = created.get_attribute("data-code"), created.get_attribute("data-key")
    page.wait_for_function("() => (localStorage.getItem('cartas.teacher') || '').includes('token')", polling=100)
    kept = page.evaluate("localStorage.getItem('cartas.teacher')")
    assert code in kept and key not in kept and key.replace("-", "") not in kept

    page.reload()
    status = page.locator(".cartas-class-status [data-code]")
    status.wait_for()  # opened without typing anything
    assert status.get_attribute("data-code") == code
    expect(page.locator(".cartas-device-status")).to_contain_text("opens by itself on this device")
    assert page.locator(".cartas-teacher-key input").input_value() == ""

    page.locator(".cartas-forget-device").click()
    page.wait_for_function("() => localStorage.getItem('cartas.teacher') === null", polling=100)
    mark = kernel_wire.of(page).mark()
    page.reload()
    page.locator(".cartas-open-class").wait_for()
    # the browser has reported what it keeps (nothing), and the kernel has acted on it
    kernel_wire.of(page).handled(page, mark, containing='"stored"')
    assert page.locator(".cartas-class-status [data-code]").count() == 0
