"""The class server's kernel manager: environment defaults for every kernel it starts.

(The cap itself is tested through a real server in tests/browser/test_class_serving.py.)
"""
from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

from cartas_server.kernels import CappedKernelManager

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def launched(monkeypatch):
    """The keyword arguments CappedKernelManager hands to jupyter-server's start_kernel."""
    seen = []

    async def start_kernel(self, *, kernel_id=None, path=None, **kwargs):
        seen.append(kwargs)
        return "k"

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start_kernel)
    return seen


def run(coroutine):
    """asyncio.run in a thread of its own: the browser tests' Playwright keeps an event loop
    running in the main thread for the whole session."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def start(manager, **kwargs):
    return run(manager.start_kernel(path="notebooks", **kwargs))


def test_kernel_env_is_added_to_the_environment_voila_passes(launched):
    manager = CappedKernelManager(kernel_env={"OPENBLAS_NUM_THREADS": "1"})
    start(manager, env={"PATH": "/bin", "VOILA_REQUEST_URL": "http://x/"})
    assert launched[-1]["env"] == {"PATH": "/bin", "VOILA_REQUEST_URL": "http://x/",
                                   "OPENBLAS_NUM_THREADS": "1"}


def test_the_servers_own_environment_wins_over_kernel_env(launched):
    manager = CappedKernelManager(kernel_env={"OPENBLAS_NUM_THREADS": "1"})
    start(manager, env={"OPENBLAS_NUM_THREADS": "4"})
    assert launched[-1]["env"]["OPENBLAS_NUM_THREADS"] == "4"


def test_without_an_env_argument_the_kernel_gets_the_servers_environment_plus_kernel_env(launched, monkeypatch):
    monkeypatch.setenv("CARTAS_MARK", "here")
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    start(CappedKernelManager(kernel_env={"OPENBLAS_NUM_THREADS": "1"}))
    env = launched[-1]["env"]
    assert env["CARTAS_MARK"] == "here" and env["OPENBLAS_NUM_THREADS"] == "1"


def test_no_kernel_env_leaves_the_arguments_untouched(launched):
    start(CappedKernelManager())
    assert "env" not in launched[-1]


def test_the_repositorys_voila_config_runs_numpy_on_one_thread_per_kernel():
    config = json.loads((ROOT / "voila.json").read_text())
    assert config["CappedKernelManager"]["kernel_env"] == {"OPENBLAS_NUM_THREADS": "1"}


def test_preheated_kernel_starts_are_spaced_and_ordinary_ones_are_not(monkeypatch):
    started = []

    async def start_kernel(self, *, kernel_id=None, path=None, **kwargs):
        started.append((asyncio.get_running_loop().time(), kwargs["env"].get("VOILA_PREHEAT")))
        return "k"

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start_kernel)
    manager = CappedKernelManager(preheat_interval=0.2)

    async def class_arrives():
        pool = [manager.start_kernel(path="notebooks", env={"VOILA_PREHEAT": "True"}) for _ in range(3)]
        page = manager.start_kernel(path="notebooks", env={"VOILA_PREHEAT": "False"})
        await asyncio.gather(*pool, page)

    run(class_arrives())
    first = min(t for t, _ in started)
    pooled = sorted(t - first for t, kind in started if kind == "True")
    ordinary = [t - first for t, kind in started if kind == "False"]
    assert ordinary[0] < 0.1  # a learner's own kernel never waits for the pool
    assert pooled[0] < 0.1 and all(b - a >= 0.19 for a, b in zip(pooled, pooled[1:]))
    assert pooled[-1] < 0.6


def test_the_repositorys_voila_config_spaces_pool_refills():
    config = json.loads((ROOT / "voila.json").read_text())
    assert config["CappedKernelManager"]["preheat_interval"] == 0.5
