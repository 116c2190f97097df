"""What the browser tests of a class do again and again: open a page and wait for its view, make
a class on the teacher's page (its code and key), and sign a phone into it."""
from __future__ import annotations

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}  # a 360-pixel phone's browser context
PIN = "2468"


def open_page(context, url: str):
    """A new page of `context` at `url`, once its view shows (60 s for every wait after)."""
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url)
    page.wait_for_selector(".cartas-view", state="visible")
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
