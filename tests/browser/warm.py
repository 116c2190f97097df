"""Chromium for the browser tests, keeping what a learner's browser keeps between two visits.

A test asks the `browser` fixture (a `WarmBrowser`) for contexts and pages as it would ask
Playwright's `Browser`: `new_context(viewport=..., is_mobile=..., has_touch=...,
device_scale_factor=...)` and `new_page(...)`. Each context it gets is lent from a few
persistent Chromium profiles of this pytest worker, and cleaned when given back (`close()`,
or the test's end): its pages closed, the listeners the test added removed, its cookies and
every visited site's stored data (localStorage, IndexedDB, caches a page made) cleared. So a
test still starts as a new visitor, with no cookie, no learner token and no language chosen.

What a profile keeps is the HTTP cache and the code V8 compiled for the scripts it ran, which
Chromium keeps on disk only, never in an incognito context such as `Browser.new_context`'s:
a dashboard the profile has opened before costs the browser about 0.7 CPU-s less to open
(1.2 instead of 1.9, measured on manilhas.ipynb), the most costly part of a browser test here.
A whole test file saves less: test_lesson_pages_dashboard.py (24 dashboards, one load each) took
63.5 CPU-s against 66.7 with incognito contexts, the two run side by side; and many tests start a
server of their own, a new origin whose scripts a profile has not cached yet.

Contexts of one device (`DEVICE`: phone or not) share profiles; the viewport a test asks for is
set on each page it opens. At most `MAX_PROFILES` profiles of a device are open at once."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import APIRequestContext, BrowserContext, CDPSession, Page, Playwright

DEVICE = ("is_mobile", "has_touch", "device_scale_factor")
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}  # Playwright's own, for a context asked without one
MAX_PROFILES = 8  # of one device at once: the largest test here opens six contexts
# what `Storage.clearDataForOrigin` clears when a context is given back: all but the HTTP cache
SITE_DATA = ("cookies,local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,"
             "shared_storage,storage_buckets")


class Profile:
    """One persistent Chromium profile: its context, the blank page it opened with (kept open,
    so that the context lives and a CDP session can clear site data), and the pages opened
    in it since it was last cleaned."""

    def __init__(self, context: BrowserContext, key: tuple):
        self.context, self.key = context, key
        self.anchor = context.pages[0] if context.pages else context.new_page()
        self.cdp: CDPSession = context.new_cdp_session(self.anchor)
        self.opened: list[Page] = []
        self.closed = False  # a test closed the profile's own context (`page.context.close()`)
        context.on("page", self._opened)
        context.on("close", self._closed)

    def _closed(self, context: BrowserContext) -> None:
        self.closed = True

    def _opened(self, page: Page) -> None:
        self.opened.append(page)

    def clean(self, listeners: list[tuple[str, Callable[..., Any]]]) -> None:
        """Back to a new visitor's state, keeping the HTTP and code caches."""
        for event, handler in listeners:
            self.context.remove_listener(event, handler)
        for page in self.context.pages:
            if page is not self.anchor:
                page.close()
        origins = {f"{url.scheme}://{url.netloc}" for url in (urlsplit(p.url) for p in self.opened)
                   if url.scheme in ("http", "https")}
        self.context.clear_cookies()
        for origin in sorted(origins):
            self.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": SITE_DATA})
        self.opened.clear()


class WarmContext:
    """A context lent to a test: what the browser tests use of `BrowserContext`."""

    def __init__(self, owner: WarmBrowser, profile: Profile, viewport: dict[str, int], lent: int):
        self._owner, self._profile, self._viewport, self.lent = owner, profile, viewport, lent
        self._listeners: list[tuple[str, Callable[..., Any]]] = []
        self.closed = False

    @property
    def pages(self) -> list[Page]:
        return [p for p in self._profile.context.pages if p is not self._profile.anchor]

    def new_page(self) -> Page:
        page = self._profile.context.new_page()
        page.set_viewport_size(self._viewport)
        return page

    def on(self, event: str, handler: Callable[..., Any]) -> None:
        self._listeners.append((event, handler))
        self._profile.context.on(event, handler)

    def cookies(self, urls: str | list[str] | None = None) -> list[Any]:
        return list(self._profile.context.cookies(urls))

    @property
    def request(self) -> APIRequestContext:
        """Requests with this context's cookies, as a page's fetch() would send them."""
        return self._profile.context.request

    def new_cdp_session(self, page: Page) -> CDPSession:
        return self._profile.context.new_cdp_session(page)

    def close(self) -> None:
        """Give the context back: its pages close and it is cleaned for the next test."""
        if not self.closed:
            self.closed = True
            self._owner.give_back(self, self._profile, self._listeners)


class WarmBrowser:
    """The browser tests' `browser` (see the module's docstring)."""

    def __init__(self, playwright: Playwright, folder: Path, launch: dict[str, Any]):
        self._playwright, self._folder, self._launch = playwright, folder, launch
        self._idle: dict[tuple, list[Profile]] = {}
        self._lent: list[tuple[WarmContext, Page | None]] = []
        self._profiles: list[Profile] = []
        self._count = itertools.count(1)

    def new_context(self, viewport: dict[str, int] | None = None, **device: Any) -> WarmContext:
        unknown = set(device) - set(DEVICE)
        if unknown:
            raise TypeError(f"WarmBrowser.new_context: no option {sorted(unknown)} (only viewport, {DEVICE})")
        self._give_back_closed_pages()
        key = tuple(device.get(name) for name in DEVICE)
        idle = self._idle.setdefault(key, [])
        viewport = dict(viewport or DEFAULT_VIEWPORT)
        if idle:
            profile = idle.pop()
        else:
            mine = sum(1 for p in self._profiles if p.key == key)
            if mine >= MAX_PROFILES:
                raise RuntimeError(f"more than {MAX_PROFILES} browser contexts of one device open at once")
            folder = self._folder / f"profile-{next(self._count)}"
            profile = Profile(self._playwright.chromium.launch_persistent_context(
                folder, viewport=viewport, **{k: v for k, v in device.items() if v is not None}, **self._launch),
                key)
            self._profiles.append(profile)
        context = WarmContext(self, profile, viewport, next(self._count))
        self._lent.append((context, None))
        return context

    def new_page(self, viewport: dict[str, int] | None = None, **device: Any) -> Page:
        """A page of a context of its own, given back once the page is closed (or at the test's end)."""
        context = self.new_context(viewport, **device)
        page = context.new_page()
        self._lent[-1] = (context, page)
        return page

    def give_back(self, context: WarmContext, profile: Profile,
                  listeners: list[tuple[str, Callable[..., Any]]]) -> None:
        self._lent = [(c, p) for c, p in self._lent if c is not context]
        if profile.closed:  # its context closed by the test: launched anew when needed
            self._profiles.remove(profile)
            return
        profile.clean(listeners)
        self._idle[profile.key].append(profile)

    def give_back_since(self, lent: int) -> None:
        """Give back every context lent after `lent` (a test's end: its contexts, not its module's)."""
        for context, _ in list(self._lent):
            if context.lent > lent:
                context.close()

    def mark(self) -> int:
        """A number every context lent from now on exceeds."""
        return next(self._count)

    def _give_back_closed_pages(self) -> None:
        for context, page in list(self._lent):
            if page is not None and page.is_closed():
                context.close()

    def close(self) -> None:
        for profile in self._profiles:
            if not profile.closed:
                profile.context.close()
