"""What the browser tests of a class do again and again: open a page and wait for its view, make
a class on the teacher's page (its code and key), and sign a phone into it.

`wait_for_view`: a page whose view does not show fails its test, naming what the page showed and
the wire's diagnosis (requests sent to and finished by its kernel, the console's errors and
warnings, failed requests). It is not reloaded: a page that lost its view once in a hundred
(jupyterlab_widgets 3.0.17, tests/browser/test_widget_restore.py) was hidden by a reload here."""
from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from kernel_wire import diagnosis, watch

SHOWN = "() => (document.body ? document.body.innerText : '').slice(0, 300)"

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}  # a 360-pixel phone's browser context
PIN = "2468"


def wait_for_view(page, timeout: float = 60_000) -> None:
    """Wait until the page's view shows; fail naming what it showed instead (see the module's docstring)."""
    try:
        page.wait_for_selector(".cartas-view", state="visible", timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"{page.url[:160]} showed no view in {timeout / 1000:g} s: "
                             f"{page.evaluate(SHOWN)!r} ({diagnosis(page)})") from None


def open_page(context, url: str):
    """A new page of `context` at `url`, once its view shows (60 s for every wait after)."""
    page = context.new_page()
    page.set_default_timeout(60_000)
    watch(page)  # kernel_wire.of(page) tells when the kernel has handled a click
    page.goto(url)
    wait_for_view(page)
    return page


def create_class(context, base: str, title: str) -> tuple[str, str]:
    """Make a class on the teacher's page (turma.ipynb under `base`): (its code, its teacher key)."""
    turma = open_page(context, f"{base}/turma.ipynb?lang=en")
    turma.locator(".cartas-class-name input").fill(title)
    turma.locator(".cartas-create-class").click()
    created = turma.locator(".cartas-created [data-code]")
    code, key = created.get_attribute("data-code"), created.get_attribute("data-key")
    turma.close()
    return code, key


def sign_in(phone, name: str, class_code: str, pin: str = PIN) -> None:
    """Sign the phone's page into the class with the identity form (name, class code, PIN)."""
    phone.locator(".cartas-name-input").fill(name)
    phone.locator(".cartas-code-input").fill(class_code)
    phone.locator(".cartas-pin-input").fill(pin)
    phone.locator(".cartas-name-save").click()
