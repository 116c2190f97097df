"""A class opening the same dashboard at once: any dashboards beside a bare one-button notebook.

One Voilà (the repository's voila.json: template, culling, kernel environment, no cap for the
run), started after the same byte-compilation as `make serve`, serves the dashboards asked for
(`--notebook NAME`, repeatable; `--all`: every notebook in notebooks/; default the manilha
lesson) and benchmarks/bare_button.ipynb. For each, in the same run, N page requests are sent
at once (default 30), one notebook after the other, and the script prints:

- p50 / p95 / max seconds until each page is back, executed (Voilà renders without
  progressive rendering here: the HTTP response ends after the notebook's last cell ran);
- memory per kernel: median RSS of that burst's kernel processes once they are quiet (a
  lesson's deal right after its page, `widgets.components.later`, loads numpy before that);
- CPU per kernel: median CPU seconds of each kernel when its own page came back, and again
  once the kernels are quiet (the deal right after the page counts there); the server's CPU
  per page;
- in Chromium, with the burst's kernels alive: seconds until the view is visible, and for the
  bare notebook and the manilha lesson one click round trip (median of 5);
- with one notebook, the kernel count once the pages are gone, after the culler has had its
  turn (`--cull` seconds of idleness, default 60, checked every cull/4 s); with several, each
  burst's kernels are shut down (Voilà's shutdown API) once measured, so memory stays bounded;
- one table, each notebook's figures as ratios to the bare notebook's (targets: time <= 1.2,
  memory <= 1.3). With several notebooks the bare notebook is measured before and after each
  of them, and each notebook's reference is the mean of its two neighbours (a shared machine
  drifts within a run); the bare bursts' spread says how noisy the machine was.
- `--repeat K` (with several notebooks) measures them all K times over, interleaved as above,
  and the table gives each notebook's median over the K passes (each pass's ratios are
  listed too): on a machine whose bare burst swings by a third from one minute to the next,
  one unlucky burst then says nothing of a page.

`--against DIR` measures another checkout in the same run (say, an older commit: `git worktree
add DIR COMMIT`, then `make install` in DIR for its own .venv): its own Voilà, from its own
environment, configuration and notebooks, serves it beside this checkout's, and the two
sequences of bursts are interleaved burst by burst, so both meet the same machine; each
checkout's notebooks are measured against its own bare bursts, and a last table puts the two
checkouts' ratios side by side.

`--pool K` turns on Voilà's preheated kernels, K per notebook measured (0 for every other
notebook), and waits for the pools to fill before the bursts; it also checks that `?lang=en`
and `?cenario=` still reach a preheated kernel. Use it with one or two notebooks.

    .venv/bin/python benchmarks/class_load.py [--n 30] [--pool 0] [--cull 60]
    .venv/bin/python benchmarks/class_load.py --all --skip-cull [--repeat 3]
    .venv/bin/python benchmarks/class_load.py --notebook truco_mao --notebook jogar_21
    .venv/bin/python benchmarks/class_load.py --all --skip-cull --repeat 3 --against ../old
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))   # serving_ports
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from checkouts import Checkout, checkouts_for

from cartas_server.serve import compile_packages

from serving import (
    BENCH_CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    cpu_seconds,
    kernel_pids,
    start_voila,
    stop,
    wait_for_kernel_count,
)

BARE = "benchmarks/bare_button.ipynb"
MANILHAS = "notebooks/manilhas.ipynb"
HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def kernel_cpu(process, kernel_id: str) -> float | None:
    """CPU seconds used so far by the server's kernel `kernel_id` (its command line names its
    connection file, kernel-ID.json); None if it is not found."""
    import psutil

    try:
        children = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return None
    for child in children:
        try:
            if any(kernel_id in part for part in child.cmdline()):
                times = child.cpu_times()
                return times.user + times.system
        except psutil.Error:
            continue
    return None


def burst(base: str, path: str, n: int, kernels: list[str] | None = None, process=None,
          cpu_at_page: list[float] | None = None) -> list[float]:
    """Send n requests for the dashboard at once; seconds until each full (executed) page.
    The pages' kernel ids are appended to `kernels` when given, and, with `process` (the
    server), each kernel's CPU seconds when its page came back to `cpu_at_page`."""
    times, errors = [None] * n, []
    start_gate = threading.Event()

    def fetch(i):
        start_gate.wait()
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(f"{base}/voila/render/{path}", timeout=600) as reply:
                body = reply.read().decode()
            if "jupyter-config-data" not in body or "voila_finish" not in body:
                errors.append(f"page {i}: incomplete page")
            found = re.search(r'"kernelId": "([0-9a-f-]+)"', body)
            if found and process is not None and cpu_at_page is not None:
                used = kernel_cpu(process, found.group(1))
                if used is not None:
                    cpu_at_page.append(used)
            if kernels is not None and found:
                kernels.append(found.group(1))
            times[i] = time.perf_counter() - started
        except Exception as error:  # reported, never hidden
            errors.append(f"page {i}: {error}")

    threads = [threading.Thread(target=fetch, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    start_gate.set()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError("; ".join(errors[:5]))
    return times


def kernel_rss_mb(process, folder: Path, only=None) -> list[float]:
    """RSS (MB) of the server's kernels that run in `folder` (a kernel starts in its notebook's),
    among the process ids `only` when given."""
    import psutil

    sizes = []
    for pid in kernel_pids(process):
        if only is not None and pid not in only:
            continue
        try:
            kernel = psutil.Process(pid)
            if Path(kernel.cwd()) == folder:
                sizes.append(kernel.memory_info().rss / 2**20)
        except psutil.Error:
            continue
    return sizes


def click_round_trip(browser, base: str, path: str) -> tuple[float, float | None]:
    """Open the dashboard in Chromium: (seconds to a visible widget, median click round trip;
    None for a dashboard other than the bare notebook and the manilha lesson)."""
    page = browser.new_page()
    page.set_default_timeout(300_000)
    started = time.perf_counter()
    page.goto(f"{base}/voila/render/{path}")
    clicks = []
    if path == BARE:
        page.wait_for_selector(".bare-button", state="visible")
        shown = time.perf_counter() - started
        for i in range(1, 6):
            t = time.perf_counter()
            page.locator(".bare-button").click()
            page.wait_for_function(f"() => document.querySelector('.bare-button').textContent.includes('Olá {i}')")
            clicks.append(time.perf_counter() - t)
    elif path != MANILHAS:  # any other dashboard: its view, drawn
        page.wait_for_selector(".cartas-view", state="visible")
        shown = time.perf_counter() - started
        page.close()
        return shown, None
    else:  # the manilha explorer: pick viras in turn
        page.wait_for_selector(".cartas-vira select", state="visible")
        shown = time.perf_counter() - started
        for label, first in [("7♦  (7 de ouros)", "Q♦"), ("3♣  (3 de paus)", "4♦")] * 3:
            if page.locator(".cartas-manilhas svg").first.get_attribute("data-card") == first:
                continue
            t = time.perf_counter()
            page.locator(".cartas-vira select").select_option(label=label)
            page.wait_for_function(
                f"() => document.querySelector('.cartas-manilhas svg')?.dataset.card === '{first}'")
            clicks.append(time.perf_counter() - t)
    page.close()
    return shown, statistics.median(clicks)


def wait_until_quiet(process, expected: int, timeout: float = 1200) -> float:
    """Wait until the server runs `expected` kernels and they are all idle: a preheated kernel
    counts as ready once it has run its notebook up to the request (Voilà's "pool is filled"
    message only means started). Idle: the kernels and the server (which sends the cells to
    run) used under 5% of one core over 2 s."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        pids = kernel_pids(process)
        if len(pids) >= expected:
            watched = [process.pid, *pids]
            before = cpu_seconds(watched)
            time.sleep(2)
            if cpu_seconds(watched) - before < 0.1:
                return time.perf_counter() - started
        else:
            time.sleep(1)
    raise RuntimeError(f"the preheated kernels were not idle within {timeout:.0f} s")


def check_query_parameters(browser, base: str) -> None:
    """?lang= and ?cenario= reach the kernel (with a pool, a preheated one)."""
    from cartas import scenario

    page = browser.new_page()
    page.set_default_timeout(300_000)
    page.goto(f"{base}/voila/render/notebooks/manilhas.ipynb?lang=en")
    page.wait_for_selector(".cartas-exercises .cartas-next")
    page.locator(".cartas-exercises .cartas-next").click()  # "Start": the first question
    page.wait_for_selector(".cartas-exercises .cartas-answer")
    english = "The vira is" in page.locator(".cartas-question").text_content()
    link = scenario.encode_link(scenario.truco_scenario("paulista", HANDS, "K♠", dealer=3))
    page.goto(f"{base}/voila/render/notebooks/cenarios.ipynb?cenario={link}")
    page.wait_for_selector(".cartas-view")
    try:  # the scenario's table comes right after the page (widgets.components.later)
        page.wait_for_selector(".cartas-scenario-table svg[data-card='7♥']", timeout=30_000)
        opened = True
    except Exception:  # playwright's TimeoutError
        opened = False
    page.close()
    print(f"?lang=en reaches a preheated kernel: {'yes' if english else 'NO'}; "
          f"?cenario= : {'yes' if opened else 'NO'}", flush=True)


def server_config(notebooks: list[str], pool: int, cull: int, fill_delay: float | None,
                  preheat_interval: float | None = None, root: Path = ROOT) -> dict:
    config = json.loads((root / "voila.json").read_text())
    config.setdefault("MappingKernelManager", {}).update(
        cull_idle_timeout=cull, cull_interval=max(5, cull // 4))
    capped = config.setdefault("CappedKernelManager", {})
    capped["max_kernels"] = 0  # measure the machine, not the cap
    capped["max_kernels_per_browser"] = 0  # every page of the burst comes from one address
    if pool:
        config["VoilaConfiguration"].update(preheat_kernel=True, default_pool_size=0)
        manager = config["VoilaKernelManager"] = dict(config.get("VoilaKernelManager", {}))
        if fill_delay is not None:
            manager["fill_delay"] = fill_delay
        if preheat_interval is not None:
            config["CappedKernelManager"]["preheat_interval"] = preheat_interval
        pools = {"default": {"pool_size": 0}, "notebooks/cenarios.ipynb": {"pool_size": 1}}
        pools.update({path: {"pool_size": pool} for path in [*notebooks, BARE]})
        manager["kernel_pools_config"] = pools
    return config


def notebook_paths(names: list[str], every: bool) -> list[str]:
    """The dashboards to measure, as paths from the repository's root: NAME, NAME.ipynb or a
    path; every notebook in notebooks/ with `every`; the manilha lesson by default."""
    if every:
        return sorted(str(path.relative_to(ROOT)) for path in (ROOT / "notebooks").glob("*.ipynb"))
    paths = []
    for name in names or [MANILHAS]:
        path = name if "/" in name else f"notebooks/{name}"
        path = path if path.endswith(".ipynb") else f"{path}.ipynb"
        if not (ROOT / path).is_file():
            raise SystemExit(f"no notebook {path} (from {name!r}); see notebooks/")
        if path not in paths:
            paths.append(path)
    return paths


def shut_down(base: str, kernels: list[str]) -> None:
    """Ask Voilà to shut the pages' kernels down, as a closing tab does."""
    for kernel in kernels:
        request = urllib.request.Request(f"{base}/voila/api/shutdown/{kernel}", data=b"", method="POST")
        try:
            urllib.request.urlopen(request, timeout=60).read()
        except OSError as error:
            print(f"could not shut kernel {kernel} down: {error}", flush=True)


def wait_until_idle(pids, timeout: float = 120) -> float:
    """Wait until these kernels used under 5% of one core over 1 s; seconds waited."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        before = cpu_seconds(pids)
        time.sleep(1)
        if cpu_seconds(pids) - before < 0.05:
            break
    return time.perf_counter() - started


def measure(process, base: str, browser, path: str, n: int, pool: int, root: Path = ROOT) -> dict:
    """One burst of `n` pages of `path`, and its figures (see the module's docstring)."""
    before = set(kernel_pids(process))
    # With a pool, the pages get the kernels preheated before the burst; the refills started
    # during it are not what a learner's page runs on.
    pooled = before if pool else None
    kernels: list[str] = []
    server_cpu = cpu_seconds([process.pid])
    cpu_at_page: list[float] = []
    times = burst(base, path, n, kernels, process, cpu_at_page)
    server_cpu = cpu_seconds([process.pid]) - server_cpu
    ours = pooled if pool else set(kernel_pids(process)) - before
    folder = (root / path).parent
    wait_until_idle(list(ours))
    rss = kernel_rss_mb(process, folder, only=ours)
    cpu_quiet = [cpu_seconds([pid]) for pid in ours]
    alive = len(kernel_pids(process))
    shown, click = click_round_trip(browser, base, path)
    result = {"path": path, "p50": percentile(times, 0.5), "p95": percentile(times, 0.95),
              "max": max(times), "rss": statistics.median(rss) if rss else float("nan"),
              "cpu": statistics.median(cpu_at_page) if cpu_at_page else float("nan"),
              "cpu_quiet": statistics.median(cpu_quiet) if cpu_quiet else float("nan"),
              "server_cpu": server_cpu / n, "shown": shown, "click": click, "kernels": kernels}
    click_text = "" if click is None else f", click round trip {click * 1000:.0f} ms"
    print(f"{path}: {n} pages at once: p50 {result['p50']:.1f} s, p95 {result['p95']:.1f} s, "
          f"max {result['max']:.1f} s; per kernel RSS {result['rss']:.0f} MB (median of {len(rss)}), "
          f"CPU {result['cpu']:.2f} s at the page, {result['cpu_quiet']:.2f} s once quiet; "
          f"server CPU {result['server_cpu'] * 1000:.0f} ms per page; in Chromium with {alive} "
          f"kernels alive: visible after {shown:.1f} s{click_text}", flush=True)
    return result


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=30, help="pages opened at once (default 30)")
    parser.add_argument("--notebook", action="append", default=[], metavar="NAME",
                        help="a dashboard to measure (notebooks/NAME.ipynb, or a path); repeatable")
    parser.add_argument("--all", action="store_true", help="every notebook in notebooks/")
    parser.add_argument("--lesson", help="same as --notebook (kept for older commands)")
    parser.add_argument("--pool", type=int, default=0, help="preheated kernels per notebook")
    parser.add_argument("--fill-delay", type=float, default=None,
                        help="seconds before Voilà refills a pool (default: voila.json's, else Voilà's 1 s)")
    parser.add_argument("--preheat-interval", type=float, default=None,
                        help="seconds between two pool kernel starts (default: voila.json's)")
    parser.add_argument("--cull", type=int, default=60, help="cull_idle_timeout in s (default 60)")
    parser.add_argument("--skip-cull", action="store_true",
                        help="stop once the bursts are measured, without waiting for the culler")
    parser.add_argument("--repeat", type=int, default=1, metavar="K",
                        help="measure every notebook K times over (with several): the table gives medians")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another checkout (with its own .venv) measured in the same run, interleaved")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat is at least 1")
    if args.against is not None and args.pool:
        parser.error("--against measures without preheated kernels (--pool 0)")
    try:
        args.checkouts = checkouts_for(args.against)
    except ValueError as error:
        parser.error(str(error))
    return args


def burst_order(checkout: Checkout, notebooks: list[str], repeat: int) -> list[str]:
    """A checkout's bursts, in order: with several notebooks, the bare one before and after
    each (the mean of a notebook's two neighbours is its reference, so a machine that drifts
    during the run, a shared host at 13 s one minute and 18 s the next, drifts its reference
    too). A notebook the checkout lacks is left out (and said)."""
    theirs = [path for path in notebooks if (checkout.root / path).is_file()]
    if len(theirs) < len(notebooks):
        print(f"{checkout.name} has no {', '.join(sorted(set(notebooks) - set(theirs)))}: not measured there")
    if len(notebooks) > 1:
        return [BARE] + [x for _ in range(repeat) for path in theirs for x in (path, BARE)]
    return [BARE, *theirs]


def start_server(checkout: Checkout, home: Path, args, notebooks: list[str]):
    """The checkout's own Voilà (its environment, its voila.json as the run sets it), in `home`."""
    compile_packages(checkout.root)  # as make serve does
    if not (checkout.root / BARE).is_file():  # the same reference notebook for both
        shutil.copy(ROOT / BARE, checkout.root / BARE)
    home.mkdir()
    config = server_config(notebooks, args.pool, args.cull, args.fill_delay, args.preheat_interval,
                           root=checkout.root)
    (home / "voila.json").write_text(json.dumps(config))
    return start_voila(checkout.root, home / "voila.log", {"CARTAS_PROGRESS": str(home / "progress.json")},
                       cwd=home, python=checkout.python)


def fill_pools(process, base: str, browser, idle: int, log: Path) -> None:
    """With preheated kernels: wait for the pools, and check that the link's parameters reach them."""
    took = wait_until_quiet(process, idle)
    print(f"pools filled: {len(kernel_pids(process))} preheated kernels, executed "
          f"up to the request, in {took:.0f} s", flush=True)
    try:
        check_query_parameters(browser, base)
    except Exception as error:  # playwright's TimeoutError among others
        raise SystemExit("preheated kernels: a lesson opened with ?lang=en or "
                         f"?cenario= never showed its widgets ({error.__class__.__name__}); "
                         f"see {log}") from None
    wait_until_quiet(process, idle)  # refilled and executed


def main() -> None:
    args = arguments()
    notebooks = notebook_paths(args.notebook + ([args.lesson] if args.lesson else []), args.all)
    several = len(notebooks) > 1
    checkouts = args.checkouts
    orders = {checkout: burst_order(checkout, notebooks, args.repeat) for checkout in checkouts}
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        servers = {}
        results: dict[Checkout, list[dict]] = {checkout: [] for checkout in checkouts}
        idle = args.pool * (len(notebooks) + 1) + (1 if args.pool else 0)
        try:
            for k, checkout in enumerate(checkouts):
                servers[checkout] = start_server(checkout, tmp / f"checkout-{k}", args, notebooks)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=BENCH_CHROMIUM, args=CHROMIUM_ARGS)
                if args.pool:
                    fill_pools(*servers[checkouts[0]], browser, idle, tmp / "checkout-0" / "voila.log")
                for checkout in checkouts:  # warm up: the server's first renders are slower
                    for path in dict.fromkeys(orders[checkout]):
                        warm: list[str] = []
                        burst(servers[checkout][1], path, 1, warm)
                        shut_down(servers[checkout][1], warm)
                # burst by burst, one checkout's then the other's: both meet the same machine
                steps = [(step, checkout) for step in range(max(map(len, orders.values())))
                         for checkout in checkouts if step < len(orders[checkout])]
                for step, checkout in steps:
                    process, base = servers[checkout]
                    if len(checkouts) > 1:
                        print(f"[{checkout.name}] ", end="")
                    result = measure(process, base, browser, orders[checkout][step], args.n, args.pool,
                                     checkout.root)
                    results[checkout].append(result)
                    if several:
                        shut_down(base, result["kernels"])
                    if args.pool:  # let the pool refill before the next burst, as between lessons
                        # Voilà refills after fill_delay; the pages' kernels may be culled meanwhile
                        time.sleep((args.fill_delay if args.fill_delay is not None else 1) + 5)
                        wait_until_quiet(process, idle)
                browser.close()
            if not (args.skip_cull or several):
                process = servers[checkouts[0]][0]
                print(f"pages closed; waiting for the culler (idle {args.cull} s)...", flush=True)
                t = time.perf_counter()
                left = wait_for_kernel_count(process, idle, timeout=args.cull * 3 + 60)
                print(f"kernels left after {time.perf_counter() - t:.0f} s: {left} (preheated pool: {idle})")
        finally:
            for process, _ in servers.values():
                stop(process)
    tables = {}
    for checkout in checkouts:
        if len(checkouts) > 1:
            print(f"\n== {checkout.name}: {checkout.root}")
        tables[checkout] = report(results[checkout], args.pool, args.n)
    if len(checkouts) > 1:
        compare(checkouts, tables)


def compare(checkouts: list[Checkout], tables: dict[Checkout, dict[str, dict]]) -> None:
    """Each notebook's ratios to its own checkout's bare notebook, the checkouts side by side."""
    this, other = checkouts
    print(f"\nSide by side (medians of the ratios to each checkout's own bare notebook): "
          f"{this.name} | {other.name}")
    head = f"{'notebook':24s} {'x p50':>13s} {'x p95':>13s} {'x max':>13s} {'x RSS':>13s}"
    print(head)
    print("-" * len(head))
    for path, mine in tables[this].items():
        theirs = tables[other].get(path)
        cells = [f"{mine[key]:5.2f} | " + (f"{theirs[key]:5.2f}" if theirs else "  -  ")
                 for key in ("p50", "p95", "max", "rss")]
        print(f"{Path(path).stem:24s} " + " ".join(f"{cell:>13s}" for cell in cells))


KEYS = ("p50", "p95", "max", "rss", "cpu", "cpu_quiet")


def report(results: list[dict], pool: int, n: int) -> dict[str, dict]:
    """One table: each dashboard's figures and their ratios to the bare notebook's: the mean
    of the bare bursts just before and after it when they are interleaved (several notebooks),
    else the one bare burst. A notebook measured in several passes: the median of each figure
    and of each ratio over its passes. Returns those ratios, by notebook."""
    bares = [r for r in results if r["path"] == BARE]
    passes: dict[str, list[tuple[dict, dict]]] = {}
    for i, r in enumerate(results):
        if r["path"] == BARE:
            continue
        near = [results[j] for j in (i - 1, i + 1) if 0 <= j < len(results) and results[j]["path"] == BARE] or bares
        ref = {key: statistics.mean(b[key] for b in near) for key in KEYS}
        passes.setdefault(r["path"], []).append((r, {key: r[key] / ref[key] for key in KEYS} | {"ref": ref["p50"]}))
    if len(bares) > 1:
        spread = [b["p50"] for b in bares]
        print(f"bare notebook, {len(bares)} bursts between the others: p50 {min(spread):.1f} to {max(spread):.1f} s "
              "(each notebook's reference: the two beside it)")
    repeated = max(len(seen) for seen in passes.values()) > 1 if passes else False
    print(f"\n{n} pages at once (pool {pool}); ratios to the bare notebook (targets: time <= 1.2, "
          f"memory <= 1.3)" + ("; medians over the passes, x p95 of each pass at the end" if repeated else ""))
    head = (f"{'notebook':24s} {'p50 s':>6s} {'p95 s':>6s} {'max s':>6s} {'x p50':>6s} {'x p95':>6s} "
            f"{'x max':>6s} {'RSS MB':>7s} {'x RSS':>6s} {'CPU s':>6s} {'x CPU':>6s} {'quiet':>6s} "
            f"{'ref s':>6s} {'ok':>3s}" + ("  each pass" if repeated else ""))
    print(head)
    print("-" * len(head))
    table = {}
    for path, seen in passes.items():
        r = {key: statistics.median(one[key] for one, _ in seen) for key in KEYS}
        ratios = table[path] = {key: statistics.median(each[key] for _, each in seen) for key in (*KEYS, "ref")}
        ok = max(ratios["p50"], ratios["p95"], ratios["max"]) <= 1.2 and ratios["rss"] <= 1.3
        each = " ".join(f"{x['p95']:.2f}" for _, x in seen) if repeated else ""
        print(f"{Path(path).stem:24s} {r['p50']:6.1f} {r['p95']:6.1f} {r['max']:6.1f} "
              f"{ratios['p50']:6.2f} {ratios['p95']:6.2f} {ratios['max']:6.2f} {r['rss']:7.0f} "
              f"{ratios['rss']:6.2f} {r['cpu']:6.2f} {ratios['cpu']:6.2f} {r['cpu_quiet']:6.2f} "
              f"{ratios['ref']:6.1f} {'yes' if ok else 'NO':>3s}" + (f"  {each}" if each else ""))
    mean = {key: statistics.mean(b[key] for b in bares) for key in KEYS}
    print(f"{'bare (all its bursts)':24s} {mean['p50']:6.1f} {mean['p95']:6.1f} {mean['max']:6.1f} "
          f"{1:6.2f} {1:6.2f} {1:6.2f} {mean['rss']:7.0f} {1:6.2f} {mean['cpu']:6.2f} {1:6.2f} "
          f"{mean['cpu_quiet']:6.2f}")
    print("CPU s: median CPU of a kernel when its page came back; quiet: once the kernels were "
          "idle (a lesson's deal right after its page counts there); RSS once quiet; ref s: the "
          "reference's p50.")
    return table


if __name__ == "__main__":
    main()
