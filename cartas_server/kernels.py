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

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Dict, Float, Integer, Unicode

FULL = ("The server is at its limit of {limit} running dashboards; "
        "wait a minute and reload the page.")


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

    kernel_env = Dict(
        value_trait=Unicode(), config=True,
        help="Environment defaults for every kernel started; the server's environment wins.",
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._starting = 0
        self._next_preheat = 0.0

    async def _wait_for_preheat_slot(self) -> None:
        """Space the starts of preheated kernels `preheat_interval` seconds apart: a pool that
        refills 30 kernels at once competes for the CPU with the 30 pages it has just served."""
        now = asyncio.get_running_loop().time()
        start_at = max(now, self._next_preheat)
        self._next_preheat = start_at + self.preheat_interval
        await asyncio.sleep(start_at - now)

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
        if self.kernel_env:
            # Voilà passes the whole environment it wants; jupyter-server may pass none.
            given = kwargs.get("env")
            kwargs["env"] = {**self.kernel_env, **(os.environ if given is None else given)}
        self._starting += 1
        try:
            return await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        finally:
            self._starting -= 1
