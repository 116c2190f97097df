"""What the browser tests of a class do again and again: open a page and wait for its view, make
a class on the teacher's page (its code and key), and sign a phone into it.

`wait_for_view`: under a loaded `make test` (four workers on two cores), about one page load in
a few thousand has shown no view at all within 60-90 s, never in a run of its test alone (CI
runs of 2026-12-04; under investigation). Such a page is reloaded once, as a learner would, and
said in a warning (pytest's warnings summary names it, what it showed, and the wire's diagnosis:
requests sent to and finished by its kernel, the console's errors and warnings, failed requests;
one seen here showed "Error displaying widget: model not found" for the page's language switch);
a page whose view does not show after the reload fails its test, naming the same."""
from __future__ import annotations

import warnings

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from kernel_wire import diagnosis, watch

SHOWN = "() => (document.body ? document.body.innerText : '').slice(0, 300)"

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}  # a 360-pixel phone's browser context
PIN = "2468"


def page_stalled(text: str) -> UserWarning:
    """The warning of a page that showed no view in time and was reloaded (see the module's
    docstring). A plain UserWarning, its text starting "PageStalled": pytest-xdist's controller
    rebuilds a worker's warning by importing the module of its class, and this module is on a
    worker's path only (a class of its own here stopped a whole run with an INTERNALERROR)."""
    return UserWarning(f"PageStalled: {text}")


def wait_for_view(page, timeout: float = 60_000) -> None:
    """Wait until the page's view shows; reload a page that stalls once (see the module's docstring)."""
    try:
        page.wait_for_selector(".cartas-view", state="visible", timeout=timeout)
        return
    except PlaywrightTimeout:
        first = page.evaluate(SHOWN)
    warnings.warn(page_stalled(f"{page.url[:160]} showed no view in {timeout / 1000:g} s (it showed {first!r}; "
                              f"{diagnosis(page)}); reloaded"), stacklevel=2)
    page.reload()
    try:
        page.wait_for_selector(".cartas-view", state="visible", timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"{page.url[:160]} showed no view, twice: {first!r}, then "
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
