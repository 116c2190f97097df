"""The class server's kernel manager: environment defaults for every kernel it starts, and
at most a few kernels for each browser.

(The cap itself is tested through a real server in tests/browser/test_class_serving.py.)
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from jupyter_server.base.call_context import CallContext
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web

from cartas_server import browsers
from cartas_server.kernels import CappedKernelManager

from loops import run_async

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


run = run_async


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
    assert ordinary[0] < 0.5  # a learner's own kernel never waits for the pool (that would be 0.6 s)
    # the k-th pool kernel starts no sooner than k intervals after the first start (a busy machine
    # may only delay a start, never hasten one: the observed gaps between two starts may shrink)
    assert all(t >= k * 0.19 for k, t in enumerate(pooled)), pooled
    assert pooled[-1] < 0.4 + 1.5, pooled  # and the pool is not held up beyond its spacing (+ slack)


def test_the_repositorys_voila_config_spaces_pool_refills():
    config = json.loads((ROOT / "voila.json").read_text())
    assert config["CappedKernelManager"]["preheat_interval"] == 0.5


# One browser's kernels -------------------------------------------------------------------
class Request:
    def __init__(self, remote_ip):
        self.remote_ip = remote_ip
        self.headers = {}
        self.method = "GET"


class Provider:
    """The identity provider's settings a handler carries (cartas_server.browsers)."""

    def __init__(self, new_cookies_per_address=40, new_cookie_every=15.0):
        self.new_cookies_per_address = new_cookies_per_address
        self.new_cookie_every = new_cookie_every


class Handler:
    """What the manager reads of a jupyter-server handler: the request and its cookies (a
    browser's jar, shared by the handlers of its requests; signing as tornado does it is
    tested against the real server)."""

    def __init__(self, jar, remote_ip="10.0.0.7", header=None, page=True, provider=None):
        self.jar = jar
        self.request = Request(remote_ip)
        self.renders_page = page  # a dashboard's page (a cookie comes only with one)
        self.identity_provider = provider or Provider()
        if header:
            self.request.headers[browsers.HEADER] = header

    def get_signed_cookie(self, name, max_age_days=31):
        return self.jar.get(name)

    def set_signed_cookie(self, name, value, **options):
        assert options["httponly"] and options["samesite"] == "Lax"
        self.jar[name] = value.encode()


@pytest.fixture
def kernels(monkeypatch):
    """jupyter-server's side of starting kernels, without processes: the ids alive."""
    alive: dict[str, dict] = {}

    async def start_kernel(self, *, kernel_id=None, path=None, **kwargs):
        kernel_id = f"k{len(alive)}-{id(kwargs)}"
        alive[kernel_id] = kwargs
        return kernel_id

    async def shutdown_kernel(self, kernel_id, now=False, restart=False):
        del alive[kernel_id]

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start_kernel)
    monkeypatch.setattr(AsyncMappingKernelManager, "shutdown_kernel", shutdown_kernel)
    monkeypatch.setattr(AsyncMappingKernelManager, "list_kernel_ids", lambda self: list(alive))
    return alive


def open_page(manager, handler, preheat=False):
    async def serve():
        CallContext.set(CallContext.JUPYTER_HANDLER, handler)
        env = {"VOILA_PREHEAT": "True" if preheat else "False"}
        return await manager.start_kernel(path="notebooks", env=env)
    return run(serve())


def test_a_browser_gets_at_most_its_cap_of_kernels_and_another_browser_still_gets_one(kernels):
    manager = CappedKernelManager(max_kernels_per_browser=3)
    ana, bia = {}, {}
    for _ in range(3):
        manager.notify_connect(open_page(manager, Handler(ana)))  # each page opens its kernel
    with pytest.raises(web.HTTPError) as refused:
        open_page(manager, Handler(ana))
    assert refused.value.status_code == 503 and "3" in refused.value.log_message
    assert len(kernels) == 3  # nothing started for the refused page
    open_page(manager, Handler(bia))  # a classmate at the same address is not touched
    assert len(kernels) == 4


@pytest.fixture(autouse=True)
def _fresh_addresses():
    """Each test starts with every address's new cookies unspent."""
    browsers._budgets.clear()
    yield
    browsers._budgets.clear()


def test_a_browser_that_never_sends_its_cookie_back_is_bounded_by_its_addresss_new_cookies(kernels):
    """Issue 33, item 9: a script that drops cookies gets one new cookie per page only as long
    as its address has new cookies; then it counts under its address, capped, told so."""
    manager = CappedKernelManager(max_kernels_per_browser=2)
    few = Provider(new_cookies_per_address=3, new_cookie_every=3600)
    for _ in range(3 + 2):
        open_page(manager, Handler({}, provider=few))  # a new jar each time: a script that drops cookies
    with pytest.raises(web.HTTPError) as refused:
        open_page(manager, Handler({}, provider=few))
    assert refused.value.log_message.startswith("This network address")
    open_page(manager, Handler({}, remote_ip="10.0.0.8", provider=few))  # another address


def test_a_cookie_comes_only_with_a_page(kernels):
    jar = {}
    browsers.browser_of(Handler(jar, page=False))  # a static file, an API call
    assert browsers.COOKIE not in jar
    browsers.browser_of(Handler(jar))
    assert browsers.COOKIE in jar


def test_a_browser_that_sends_its_cookie_back_frees_its_addresss_share(kernels):
    manager = CappedKernelManager(max_kernels_per_browser=1)
    first = {}
    open_page(manager, Handler(first))  # counted under the address and the new cookie
    browsers.browser_of(Handler(first))  # the page's websocket, with the cookie
    open_page(manager, Handler({}))  # a classmate behind the same school address


def test_a_kernel_stops_counting_once_it_is_shut_down_or_culled(kernels):
    manager = CappedKernelManager(max_kernels_per_browser=1)
    jar = {}
    open_page(manager, Handler(jar))
    kernels.clear()  # shut down (culled)
    open_page(manager, Handler(jar))
    assert len(kernels) == 1


def test_pool_kernels_count_for_nobody_and_the_kernel_is_told_its_browser_by_the_server(kernels):
    manager = CappedKernelManager(max_kernels_per_browser=1)
    jar = {}
    handler = Handler(jar, header="forged-by-the-client")
    open_page(manager, handler, preheat=True)
    open_page(manager, handler, preheat=True)  # a refill started while serving this request
    kernel_id = open_page(manager, handler)
    told = kernels[kernel_id]["env"][browsers.ENV]
    assert told == browsers.browser_of(handler).browser_id() != "forged-by-the-client"
    assert handler.request.headers[browsers.HEADER] == told  # what Voilà hands a pool kernel
    named, address = told.split(".")  # a first page: its new cookie, and its address (not known yet)
    no_cookie = browsers.browser_of(Handler({}, header="forged", page=False)).browser_id()
    assert no_cookie.split(".")[1] == address and no_cookie.split(".")[0] != named  # counted by its address
    again = Handler(jar)  # the same browser's next page, with its cookie
    kernels.clear()
    known = kernels[open_page(manager, again)]["env"][browsers.ENV]
    assert known == browsers.browser_of(again).browser_id() == named  # the same browser, now known
    assert jar[browsers.COOKIE].decode() not in browsers.browser_of(again).browser_id()


def test_a_page_taken_from_the_warm_pool_counts_for_its_browser(kernels):
    from voila.voila_kernel_manager import voila_kernel_manager_factory
    pooled = voila_kernel_manager_factory(CappedKernelManager, True, 0)
    assert pooled.get_rendered_notebook is not CappedKernelManager.__dict__.get("get_rendered_notebook")
    taken = []

    async def take(self, notebook_name, **kwargs):
        kernel_id = f"pool-{len(taken)}"
        taken.append(kernel_id)
        kernels[kernel_id] = {}
        return "task", [], kernel_id

    class Pool(CappedKernelManager):  # what Voilà's factory makes, without its start-up work
        get_rendered_notebook = take

    manager = Pool(max_kernels_per_browser=1)
    jar = {}

    async def serve():
        CallContext.set(CallContext.JUPYTER_HANDLER, Handler(jar))
        return await manager.get_rendered_notebook("notebooks/manilhas.ipynb")

    assert run(serve())[-1] == "pool-0"
    manager.notify_connect("pool-0")  # its page opened it
    with pytest.raises(web.HTTPError):
        run(serve())
    assert taken == ["pool-0"]  # the refused page took no kernel from the pool


def test_the_repositorys_voila_config_caps_each_browser_and_names_it_to_its_kernels():
    config = json.loads((ROOT / "voila.json").read_text())
    assert config["CappedKernelManager"]["max_kernels_per_browser"] == 6
    assert config["Voila"]["identity_provider_class"] == "cartas_server.browsers.BrowserIdentityProvider"
    assert config["VoilaConfiguration"]["http_header_envs"] == [browsers.HEADER]


def test_pages_of_one_browser_asked_for_at_once_cannot_overshoot_its_cap(kernels, monkeypatch):
    slow_start = AsyncMappingKernelManager.start_kernel

    async def start_kernel(self, **kwargs):
        await asyncio.sleep(0.05)  # a kernel takes a while to start: the others arrive meanwhile
        return await slow_start(self, **kwargs)

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start_kernel)
    manager = CappedKernelManager(max_kernels_per_browser=3)
    jar = {}
    manager.notify_connect(open_page(manager, Handler(jar)))  # a browser whose first page opened

    async def one_page():
        CallContext.set(CallContext.JUPYTER_HANDLER, Handler(jar))
        return await manager.start_kernel(path="notebooks", env={"VOILA_PREHEAT": "False"})

    async def five_at_once():
        return await asyncio.gather(*(one_page() for _ in range(5)), return_exceptions=True)

    outcomes = run(five_at_once())
    assert sum(isinstance(o, web.HTTPError) for o in outcomes) == 3 and len(kernels) == 3


# Young browsers (issue 33, item 9) ---------------------------------------------------------
def test_a_young_browser_holds_one_kernel_its_next_page_replaces_the_unopened_one(kernels):
    manager = CappedKernelManager(max_kernels_per_browser=6)
    jar = {}
    first = open_page(manager, Handler(jar))
    second = open_page(manager, Handler(jar))  # a reload before the first page arrived
    assert list(kernels) == [second] and first != second
    manager.notify_connect(second)  # this page opened: the browser is proven
    third = open_page(manager, Handler(jar))  # another tab
    assert set(kernels) == {second, third}


def test_a_young_browsers_pages_asked_for_at_once_start_one_kernel(kernels, monkeypatch):
    slow_start = AsyncMappingKernelManager.start_kernel

    async def start_kernel(self, **kwargs):
        await asyncio.sleep(0.05)
        return await slow_start(self, **kwargs)

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start_kernel)
    manager = CappedKernelManager(max_kernels_per_browser=6)
    jar = {}
    browsers.browser_of(Handler(jar))  # its cookie, and no page opened yet

    async def one_page():
        CallContext.set(CallContext.JUPYTER_HANDLER, Handler(jar))
        return await manager.start_kernel(path="notebooks", env={"VOILA_PREHEAT": "False"})

    async def five_at_once():
        return await asyncio.gather(*(one_page() for _ in range(5)), return_exceptions=True)

    outcomes = run(five_at_once())
    refused = [o for o in outcomes if isinstance(o, web.HTTPError)]
    assert len(refused) == 4 and len(kernels) == 1
    assert all(o.status_code == 503 and o.log_message.startswith("This browser's first lesson") for o in refused)


def test_a_script_that_never_opens_its_pages_holds_one_kernel_per_cookie_its_address_got(kernels):
    """Each cookie fetched six pages (the per-browser cap) without running one: with 3 new
    cookies for the address, the script holds 3 kernels, then counts under its address."""
    manager = CappedKernelManager(max_kernels_per_browser=6)
    few = Provider(new_cookies_per_address=3, new_cookie_every=3600)
    for _ in range(3):
        jar = {}
        for _ in range(6):
            open_page(manager, Handler(jar, provider=few))
    assert len(kernels) == 3
    opened = []
    for _ in range(8):  # no cookie left for the address: counted by it, at the cap
        try:
            opened.append(open_page(manager, Handler({}, provider=few)))
        except web.HTTPError as refused:
            assert refused.log_message.startswith("This network address")
    assert len(opened) == 6 and len(kernels) == 9
    manager.notify_connect("nobody")  # a websocket for a kernel nobody owns proves nothing
    assert len(manager._proven) == 0
