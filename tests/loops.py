"""Event loops in tests that share a process with the browser tests."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor


def run_async(coroutine):
    """asyncio.run in a thread of its own: the browser tests' Playwright keeps an event loop
    running in the main thread for the whole session, where asyncio.run is refused."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
