"""Which browser a request comes from, as the server alone decides it.

Decided rules:
- A browser is named by the cookie `cartas_browser`, set by the server: a random value
  (`secrets`), signed with the server's cookie secret (a forged or altered value counts as
  no cookie), HttpOnly (the page's scripts cannot read it) and SameSite=Lax.
- A request without a valid cookie is given one, and counts under its client address as
  well as under the new cookie: a client that never sends cookies back (a script, or a
  page's `fetch(..., {credentials: "omit"})`) gets a new cookie each time, so its address is
  what bounds it. A browser that does send its cookie back later (any request, the page's
  own websocket included) is then counted by its cookie alone: learners behind one school
  address (NAT) do not share their first pages' count for longer than a page load.
- What a kernel is told about its browser is `browser_id()`: a hash of the cookie, or of
  the client address for a request without one, never the cookie itself. The server puts it
  into the request's `X-Cartas-Browser` header, overwriting whatever the client sent there;
  Voilà (`VoilaConfiguration.http_header_envs`) hands it to the kernel as the environment
  variable `HTTP_X_CARTAS_BROWSER`, for preheated kernels too (with the request's details).

`BrowserIdentityProvider` is jupyter-server's identity provider (the one Voilà uses by
default, token and password behaviour unchanged) plus the above, on every request; the
repository's voila.json selects it (`Voila.identity_provider_class`).
"""
from __future__ import annotations

import hashlib
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass

from jupyter_server.auth.identity import PasswordIdentityProvider

COOKIE = "cartas_browser"
HEADER = "X-Cartas-Browser"
ENV = "HTTP_X_CARTAS_BROWSER"
COOKIE_DAYS = 30
SEEN_KEPT = 20_000  # cookies remembered as sent back (most recent first out when full)

_VALUE = re.compile(r"[A-Za-z0-9_-]{20,64}")
_seen: OrderedDict[str, None] = OrderedDict()


@dataclass(frozen=True)
class Browser:
    cookie: str | None   # the valid cookie the request carried
    issued: str | None   # the cookie this response sets (when it carried none)
    address: str

    @property
    def keys(self) -> tuple[str, ...]:
        """What the request counts under: its cookie; or its address and the new cookie."""
        if self.cookie:
            return (f"b:{self.cookie}",)
        return (f"a:{self.address}", f"b:{self.issued}")

    def browser_id(self) -> str:
        return hashlib.sha256(f"cartas-browser:{self.keys[0]}".encode()).hexdigest()[:32]


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
    if cookie is None:
        issued = secrets.token_urlsafe(24)
        try:
            handler.set_signed_cookie(COOKIE, issued, expires_days=COOKIE_DAYS, httponly=True,
                                      samesite="Lax", path="/")
        except Exception:  # headers already sent, or no cookie secret
            pass
    else:
        mark_seen(cookie)
    browser = Browser(cookie, issued, str(handler.request.remote_ip or "?"))
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

    def get_user(self, handler):
        browser_of(handler)
        return super().get_user(handler)
