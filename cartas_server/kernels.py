"""A kernel manager with a cap on the number of kernels, for a class served from one machine.

jupyter-server's kernel manager starts a kernel for every dashboard request, without limit:
on a laptop, a class opening dashboards faster than the culler removes closed ones ends with
the machine out of memory. With `CappedKernelManager.max_kernels = N` (N > 0):

- at most N kernels run or are starting at any time;
- a request that would start kernel N+1 is refused with HTTP 503 "Service Unavailable";
  Voilà then shows the learner our `503.html` page (wait a minute and reload) instead of
  starting a kernel; nothing already running is touched;
- the count frees up as soon as a kernel is shut down or culled;
- restarting an existing kernel is never refused;
- `max_kernels = 0` (the default) means no cap, as in jupyter-server.

The check and the reservation happen without an `await` in between, so concurrent requests
on the event loop cannot overshoot the cap.

With `max_kernels_per_browser = M` (M > 0; voila.json sets 6), one browser (named as
`cartas_server.browsers` decides: the server's cookie, the one its page was just given, else
the client address, whose refusal then says "This network address") has at most M
kernels of its pages at once, whether they are started for it or taken from Voilà's warm
pool; one more is refused with the same 503 page, and nobody else's kernels are touched. A
kernel stops counting once it is shut down or culled. The manager sees the request through
jupyter-server's `CallContext` (the handler that is serving it). Pool kernels being started
count for no browser; a kernel started outside any request (the REST API of jupyter-server)
counts for none either.

A browser proves itself when one of its pages opens its kernel's websocket (its JavaScript
ran: `notify_connect`). Until then its cookie is young, and holds one kernel: a second page
asked for with a young cookie replaces the first one's kernel, which was never opened (a
learner who reloads a page still loading; a second tab opened before the first one arrived
finds its first tab's lesson ended); asked for while the first one is still being started, it
is refused ("This browser's first lesson is still opening"). A script that fetches pages without running them so
holds one kernel per cookie, and its address gives it `NEW_COOKIES` of those, then one every
`NEW_COOKIE_EVERY` seconds (cartas_server.browsers), each culled when idle: it cannot fill the
server, and a class behind one router, whose pages open, is never refused for it (issue 33,
item 9). Browsers proven are remembered up to `PROVEN_KEPT`, oldest out first.

With Voilà's preheated kernels (its pools, off by default), `preheat_interval` seconds pass
between the starts of two pool kernels, so a pool emptied by a class refills a kernel at a
time instead of all at once, while the class's pages are still being served.

`CappedKernelManager.kernel_env` holds environment defaults for every kernel it starts; the
server's own environment wins over them. The repository's `voila.json` sets
`OPENBLAS_NUM_THREADS=1`: a dashboard does no linear algebra, and numpy's OpenBLAS otherwise
starts one thread per core in every kernel, which costs each kernel's start about 0.05 s of
CPU and, with 30 kernels on 2 cores, only oversubscribes the machine.
"""
from __future__ import annotations

import asyncio
import os
from collections import Counter, OrderedDict

from jupyter_server.base.call_context import CallContext
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Dict, Float, Integer, Unicode

from . import browsers

FULL = ("The server is at its limit of {limit} running dashboards; "
        "wait a minute and reload the page.")
BROWSER_FULL = ("This browser already has {limit} dashboards running; close a tab, "
                "wait a minute and reload the page.")
OPENING = ("This browser's first lesson is still opening; wait a moment and reload the page.")
PROVEN_KEPT = 20_000  # browsers remembered as proven (their page opened its kernel)
ADDRESS_FULL = ("This network address already has {limit} dashboards running that were opened "
                "without the server's cookie; wait a minute and reload the page.")


class CappedKernelManager(AsyncMappingKernelManager):
    """AsyncMappingKernelManager that refuses (HTTP 503) to start more than `max_kernels`."""

    max_kernels = Integer(
        0, config=True,
        help="Most kernels running or starting at once; a new one beyond it is refused with "
             "HTTP 503. 0 means no cap.",
    )

    preheat_interval = Float(
        0.0, config=True,
        help="Least seconds between the starts of two preheated kernels (Voilà's pools); "
             "0 starts them all at once.",
    )

    max_kernels_per_browser = Integer(
        0, config=True,
        help="Most kernels one browser (cookie, else client address) has at once; one more "
             "is refused with HTTP 503. 0 means no per-browser cap.",
    )

    kernel_env = Dict(
        value_trait=Unicode(), config=True,
        help="Environment defaults for every kernel started; the server's environment wins.",
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._starting = 0
        self._next_preheat = 0.0
        self._owners: dict[str, tuple[str, ...]] = {}  # kernel id -> the keys it counts under
        self._reserved: Counter[str] = Counter()  # keys of kernels being started or taken
        self._opened: set[str] = set()  # kernels whose page opened their websocket
        self._proven: OrderedDict[str, None] = OrderedDict()  # browser keys ("b:...") proven

    def notify_connect(self, kernel_id):
        """A page opened kernel `kernel_id`'s websocket: its browser has proven itself."""
        super().notify_connect(kernel_id)
        self._opened.add(kernel_id)
        for key in self._owners.get(kernel_id, ()):
            if key.startswith("b:"):
                self._proven[key] = None
                self._proven.move_to_end(key)
        while len(self._proven) > PROVEN_KEPT:
            self._proven.popitem(last=False)

    def young(self, key: str) -> bool:
        """True for a browser cookie none of whose pages has opened its kernel yet."""
        return key.startswith("b:") and key not in self._proven

    async def _replace_unopened(self, keys: tuple[str, ...]) -> None:
        """Shut down the kernels of a young browser its pages never opened (see the module's
        rules): a young cookie holds one kernel."""
        young = [key for key in keys if self.young(key)]
        if not young:
            return
        alive = set(self.list_kernel_ids())
        stale = [k for k, owners in self._owners.items()
                 if k in alive and k not in self._opened and any(key in owners for key in young)]
        for kernel_id in stale:
            self._owners.pop(kernel_id, None)
            self.log.info("Replacing kernel %s: its browser asked for another page before opening it", kernel_id)
            try:
                await self.shutdown_kernel(kernel_id, now=True)
            except Exception:  # already gone
                self.log.debug("kernel %s was already gone", kernel_id, exc_info=True)

    def __init_subclass__(cls, **kwargs):
        """Voilà's warm pool is a subclass Voilà makes of this class at start-up
        (`voila_kernel_manager_factory`); a page served from it takes a running kernel
        through `get_rendered_notebook`, which is given the per-browser cap here."""
        super().__init_subclass__(**kwargs)
        take = cls.__dict__.get("get_rendered_notebook")
        if take is not None:
            async def get_rendered_notebook(self, *args, **kw):
                return await self._for_this_browser(take(self, *args, **kw), preheated=True)

            get_rendered_notebook.__doc__ = take.__doc__
            cls.get_rendered_notebook = get_rendered_notebook

    def browser_kernels(self, key: str) -> int:
        """Kernels alive (or being started) that count under `key`: an address counts only
        the kernels whose browser has not sent its cookie back since (cartas_server.browsers)."""
        alive = set(self.list_kernel_ids())
        for kernel_id in [k for k in self._owners if k not in alive]:
            del self._owners[kernel_id]
        self._opened &= alive
        count = self._reserved[key]
        for keys in self._owners.values():
            if key in keys and not (key.startswith("a:") and any(browsers.sent_back(k) for k in keys)):
                count += 1
        return count

    async def _for_this_browser(self, starting, preheated: bool = False):
        """Await `starting` (which gives a kernel id, or a tuple ending with one) unless the
        browser of the request being served is at its cap; the kernel then counts for it."""
        handler = CallContext.get(CallContext.JUPYTER_HANDLER)
        if self.max_kernels_per_browser <= 0 or handler is None:
            return await starting
        keys = browsers.browser_of(handler).keys
        await self._replace_unopened(keys)
        if any(self.young(key) and self._reserved[key] > 0 for key in keys):
            starting.close()  # a young browser's other page is being started: it holds one
            raise web.HTTPError(503, OPENING)
        full = [k for k in keys if self.browser_kernels(k) >= self.max_kernels_per_browser]
        if full:
            starting.close()
            self.log.warning("Refusing a kernel to browser %s: at its cap of %d",
                             browsers.browser_of(handler).browser_id()[:8], self.max_kernels_per_browser)
            said = ADDRESS_FULL if full[0].startswith("a:") else BROWSER_FULL
            raise web.HTTPError(503, said.format(limit=self.max_kernels_per_browser))
        self._reserved.update(keys)
        try:
            result = await starting
        finally:
            self._reserved.subtract(keys)
            for key in keys:
                if self._reserved[key] <= 0:
                    del self._reserved[key]
        kernel_id = result[-1] if preheated else result
        self._owners[kernel_id] = keys
        return result

    async def _wait_for_preheat_slot(self) -> None:
        """Space the starts of preheated kernels `preheat_interval` seconds apart: a pool that
        refills 30 kernels at once competes for the CPU with the 30 pages it has just served.

        A start takes its slot when it is about to begin, from the clock then, with no wait in
        between: a slot booked ahead (at the time asked) let two starts begin together when the
        server was paused after booking (one test run saw it on a loaded machine)."""
        loop = asyncio.get_running_loop()
        while (wait := self._next_preheat - loop.time()) > 0:
            await asyncio.sleep(wait)
        self._next_preheat = loop.time() + self.preheat_interval

    def kernels_in_use(self) -> int:
        """Kernels running plus kernels being started right now."""
        return len(self.list_kernel_ids()) + self._starting

    async def start_kernel(self, *, kernel_id=None, path=None, **kwargs):
        if kernel_id is not None and kernel_id in self:
            return await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        if self.preheat_interval > 0 and (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True":
            await self._wait_for_preheat_slot()
        if self.max_kernels > 0 and self.kernels_in_use() >= self.max_kernels:
            self.log.warning("Refusing a new kernel: %d in use, cap %d",
                             self.kernels_in_use(), self.max_kernels)
            raise web.HTTPError(503, FULL.format(limit=self.max_kernels))
        preheat = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        handler = None if preheat else CallContext.get(CallContext.JUPYTER_HANDLER)
        if self.kernel_env:
            # Voilà passes the whole environment it wants; jupyter-server may pass none.
            given = kwargs.get("env")
            kwargs["env"] = {**self.kernel_env, **(os.environ if given is None else given)}
        if handler is not None and kwargs.get("env") is not None:
            # the browser as the server named it, whatever the request's own header said
            kwargs["env"] = {**kwargs["env"], browsers.ENV: browsers.browser_of(handler).browser_id()}
        self._starting += 1
        try:
            starting = super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
            if preheat:
                return await starting  # a pool kernel is nobody's until a page takes it
            return await self._for_this_browser(starting)
        finally:
            self._starting -= 1
