"""Which browser a request comes from, as the server alone decides it.

Decided rules:
- A browser is named by the cookie `cartas_browser`, set by the server: a random value
  (`secrets`), signed with the server's cookie secret (a forged or altered value counts as
  no cookie), HttpOnly (the page's scripts cannot read it) and SameSite=Lax.
- A cookie costs something to get: it is issued only with a real page (a GET that Voilà
  renders a dashboard for; never with a static file, an API call or an error), and only
  NEW_COOKIES (40: a class arriving at once behind one school router) per client address at
  once, one more every NEW_COOKIE_EVERY (15) seconds after (`BrowserIdentityProvider`'s
  `new_cookies_per_address` and `new_cookie_every`). A script that takes a fresh cookie per
  page runs out of them, and is then counted by its address.
- A page request that comes without a valid cookie and is given one counts under that new
  cookie alone: pages opened without cookies (a page's `fetch(..., {credentials: "omit"})`)
  do not count against the next learner who arrives from the same address. A request that
  gets no cookie (the address has spent its new cookies) counts under its client address.
- What a kernel is told about its browser is `browser_id()`: a hash of the cookie, never the
  cookie itself; for a request that came without a cookie (a first page, a script), the hash
  of the new cookie or the address followed by "." and a hash of the address, which tells the
  guess limits (classroom.attempts) that the server does not know that source yet. The server
  puts it into the request's `X-Cartas-Browser` header, overwriting whatever the client sent
  there; Voilà (`VoilaConfiguration.http_header_envs`) hands it to the kernel as the
  environment variable `HTTP_X_CARTAS_BROWSER`, for preheated kernels too.

`BrowserIdentityProvider` is jupyter-server's identity provider (the one Voilà uses by
default, token and password behaviour unchanged) plus the above, on every request; the
repository's voila.json selects it (`Voila.identity_provider_class`). It is the one piece of
Cartas standalone Voilà builds before it listens, so building it also makes Voilà's HTTP
server answer a link too long with a page (`cartas_server.links.serve_long_links`).
"""
from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass

from jupyter_server.auth.identity import PasswordIdentityProvider
from traitlets import Float, Integer

from cartas_server.links import serve_long_links

COOKIE = "cartas_browser"
HEADER = "X-Cartas-Browser"
ENV = "HTTP_X_CARTAS_BROWSER"
COOKIE_DAYS = 30
SEEN_KEPT = 20_000  # cookies remembered as sent back (most recent first out when full)
NEW_COOKIES = 40
NEW_COOKIE_EVERY = 15.0
ADDRESSES_KEPT = 20_000  # addresses whose new cookies are counted (oldest first out when full)

_VALUE = re.compile(r"[A-Za-z0-9_-]{20,64}")
_seen: OrderedDict[str, None] = OrderedDict()
_budgets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address -> (cookies left, when)


@dataclass(frozen=True)
class Browser:
    cookie: str | None   # the valid cookie the request carried
    issued: str | None   # the cookie this response sets (when it carried none)
    address: str

    @property
    def keys(self) -> tuple[str, ...]:
        """What the request counts under: its cookie, the cookie it is given, or its address."""
        if self.cookie or self.issued:
            return (f"b:{self.cookie or self.issued}",)
        return (f"a:{self.address}",)

    def browser_id(self) -> str:
        named = hashlib.sha256(f"cartas-browser:{self.keys[0]}".encode()).hexdigest()[:32]
        if self.cookie:
            return named
        return f"{named}.{hashlib.sha256(f'cartas-address:{self.address}'.encode()).hexdigest()[:16]}"


def _real_page(handler) -> bool:
    """True for a GET that Voilà renders a dashboard for (the only answer a cookie comes with);
    a handler may also say so itself (`renders_page`, as the tests' stand-ins do)."""
    from voila.handler import VoilaHandler
    page = isinstance(handler, VoilaHandler) or getattr(handler, "renders_page", False) is True
    return page and getattr(handler.request, "method", "GET") == "GET"


def _new_cookie_allowed(address: str, most: int, every: float, now: float | None = None) -> bool:
    """Spend one of `address`'s new cookies: `most` at once, one more every `every` seconds."""
    now = time.monotonic() if now is None else now
    left, at = _budgets.pop(address, (float(most), now))
    left = min(float(most), left + ((now - at) / every if every > 0 else float(most)))
    allowed = left >= 1.0
    _budgets[address] = (left - 1.0 if allowed else left, now)
    while len(_budgets) > ADDRESSES_KEPT:
        _budgets.popitem(last=False)
    return allowed


def browser_of(handler) -> Browser:
    """The browser of `handler`'s request, worked out once per request; a request without a
    valid cookie is given one on its response (see the module's rules)."""
    found = getattr(handler, "_cartas_browser", None)
    if found is not None:
        return found
    cookie = None
    try:
        raw = handler.get_signed_cookie(COOKIE, max_age_days=COOKIE_DAYS)
    except Exception:  # no cookie secret, a malformed cookie: no cookie
        raw = None
    if raw is not None:
        text = raw.decode("ascii", "replace")
        cookie = text if _VALUE.fullmatch(text) else None
    issued = None
    address = str(handler.request.remote_ip or "?")
    provider = getattr(handler, "identity_provider", None)
    most = getattr(provider, "new_cookies_per_address", NEW_COOKIES)
    every = getattr(provider, "new_cookie_every", NEW_COOKIE_EVERY)
    if cookie is None and _real_page(handler) and _new_cookie_allowed(address, most, every):
        issued = secrets.token_urlsafe(24)
        try:
            handler.set_signed_cookie(COOKIE, issued, expires_days=COOKIE_DAYS, httponly=True,
                                      samesite="Lax", path="/")
        except Exception:  # headers already sent, or no cookie secret
            pass
    elif cookie is not None:
        mark_seen(cookie)
    browser = Browser(cookie, issued, address)
    handler._cartas_browser = browser
    handler.request.headers[HEADER] = browser.browser_id()  # replaces what the client sent
    return browser


def mark_seen(cookie: str) -> None:
    _seen[cookie] = None
    _seen.move_to_end(cookie)
    while len(_seen) > SEEN_KEPT:
        _seen.popitem(last=False)


def sent_back(key: str) -> bool:
    """True once a browser given cookie `key` ("b:...") sent it back on a later request."""
    return key.startswith("b:") and key[2:] in _seen


class BrowserIdentityProvider(PasswordIdentityProvider):
    """jupyter-server's default identity provider, naming the browser of every request."""

    new_cookies_per_address = Integer(
        NEW_COOKIES, config=True,
        help="New browser cookies one client address may be given at once (one per page).")
    new_cookie_every = Float(
        NEW_COOKIE_EVERY, config=True,
        help="Seconds after which a client address may be given one more new browser cookie.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        serve_long_links()

    def get_user(self, handler):
        browser_of(handler)
        return super().get_user(handler)
