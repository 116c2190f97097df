"""A class opening the same dashboard at once: a lesson beside a bare one-button notebook.

One Voilà (the repository's voila.json: template, culling, kernel environment, no cap for the
run), started after the same byte-compilation as `make serve`, serves both the
lesson (default notebooks/manilhas.ipynb) and benchmarks/bare_button.ipynb. For each, in the
same run, N page requests are sent at once (default 30), and the script prints:

- p50 / p95 / max seconds until each page is back, executed (Voilà renders without
  progressive rendering here: the HTTP response ends after the notebook's last cell ran);
- memory per kernel: median RSS of that notebook's kernel processes right after the burst;
- one click round trip in Chromium, measured while the N kernels are alive (median of 5);
- the kernel count once the pages are gone, after the culler has had its turn
  (`--cull` seconds of idleness, default 60, checked every cull/4 s);
- the lesson's figures as ratios to the bare notebook's (targets: time <= 1.2, memory <= 1.3).

`--pool K` turns on Voilà's preheated kernels, K per notebook for the two notebooks measured
(0 for every other notebook), and waits for the pools to fill before the bursts; it also
checks that `?lang=en` and `?cenario=` still reach a preheated kernel.

    .venv/bin/python benchmarks/class_load.py [--n 30] [--pool 0] [--cull 60]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from cartas_server.serve import compile_packages

from serving import CHROMIUM, CHROMIUM_ARGS, ROOT, cpu_seconds, kernel_pids, start_voila, stop, wait_for_kernel_count

BARE = "benchmarks/bare_button.ipynb"
HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def burst(base: str, path: str, n: int) -> list[float]:
    """Send n requests for the dashboard at once; seconds until each full (executed) page."""
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


def click_round_trip(browser, base: str, path: str) -> tuple[float, float]:
    """Open the dashboard in Chromium: (seconds to a visible widget, median click round trip)."""
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
    else:  # a lesson: the manilha explorer, pick viras in turn
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
    opened = page.locator(".cartas-scenario-table svg[data-card='7♥']").count() > 0
    page.close()
    print(f"?lang=en reaches a preheated kernel: {'yes' if english else 'NO'}; "
          f"?cenario= : {'yes' if opened else 'NO'}", flush=True)


def server_config(lesson: str, pool: int, cull: int, fill_delay: float | None,
                  preheat_interval: float | None = None) -> dict:
    config = json.loads((ROOT / "voila.json").read_text())
    config.setdefault("MappingKernelManager", {}).update(
        cull_idle_timeout=cull, cull_interval=max(5, cull // 4))
    config.setdefault("CappedKernelManager", {})["max_kernels"] = 0  # measure the machine, not the cap
    if pool:
        config["VoilaConfiguration"].update(preheat_kernel=True, default_pool_size=0)
        manager = config["VoilaKernelManager"] = dict(config.get("VoilaKernelManager", {}))
        if fill_delay is not None:
            manager["fill_delay"] = fill_delay
        if preheat_interval is not None:
            config["CappedKernelManager"]["preheat_interval"] = preheat_interval
        manager["kernel_pools_config"] = {
            "default": {"pool_size": 0},
            lesson: {"pool_size": pool}, BARE: {"pool_size": pool},
            "notebooks/cenarios.ipynb": {"pool_size": 1}}
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=30, help="pages opened at once (default 30)")
    parser.add_argument("--pool", type=int, default=0, help="preheated kernels per notebook")
    parser.add_argument("--fill-delay", type=float, default=None,
                        help="seconds before Voilà refills a pool (default: voila.json's, else Voilà's 1 s)")
    parser.add_argument("--preheat-interval", type=float, default=None,
                        help="seconds between two pool kernel starts (default: voila.json's)")
    parser.add_argument("--cull", type=int, default=60, help="cull_idle_timeout in s (default 60)")
    parser.add_argument("--lesson", default="notebooks/manilhas.ipynb")
    parser.add_argument("--skip-cull", action="store_true",
                        help="stop once the bursts are measured, without waiting for the culler")
    args = parser.parse_args()
    compile_packages()  # as make serve does
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        config = server_config(args.lesson, args.pool, args.cull, args.fill_delay,
                               args.preheat_interval)
        (tmp / "voila.json").write_text(json.dumps(config))
        process, base = start_voila(ROOT, tmp / "voila.log",
                                    {"CARTAS_PROGRESS": str(tmp / "progress.json")}, cwd=tmp)
        results = {}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                idle = 0
                if args.pool:
                    idle = 2 * args.pool + 1
                    took = wait_until_quiet(process, idle)
                    print(f"pools filled: {len(kernel_pids(process))} preheated kernels, executed "
                          f"up to the request, in {took:.0f} s", flush=True)
                    try:
                        check_query_parameters(browser, base)
                    except Exception as error:  # playwright's TimeoutError among others
                        raise SystemExit("preheated kernels: a lesson opened with ?lang=en or "
                                         f"?cenario= never showed its widgets ({error.__class__.__name__}); "
                                         f"see {tmp / 'voila.log'}") from None
                    wait_until_quiet(process, idle)  # refilled and executed
                for name, path in (("lesson", args.lesson), ("bare", BARE)):
                    # With a pool, the pages get the kernels preheated before the burst; the
                    # refills started during it are not what a learner's page runs on.
                    pooled = set(kernel_pids(process)) if args.pool else None
                    times = burst(base, path, args.n)
                    folder = (ROOT / path).parent
                    rss = kernel_rss_mb(process, folder, only=pooled)
                    alive = len(kernel_pids(process))
                    shown, click = click_round_trip(browser, base, path)
                    results[name] = {"p50": percentile(times, 0.5), "p95": percentile(times, 0.95),
                                     "max": max(times), "rss": statistics.median(rss),
                                     "shown": shown, "click": click}
                    print(f"{name:6s} {path}: {args.n} pages at once: p50 {results[name]['p50']:.1f} s, "
                          f"p95 {results[name]['p95']:.1f} s, max {results[name]['max']:.1f} s; "
                          f"RSS per kernel {results[name]['rss']:.0f} MB (median of {len(rss)}); "
                          f"in Chromium with {alive} kernels alive: visible after {shown:.1f} s, "
                          f"click round trip {click * 1000:.0f} ms", flush=True)
                    if args.pool:  # let the pool refill before the next burst, as between lessons
                        # Voilà refills after fill_delay; the pages' kernels may be culled meanwhile
                        time.sleep((args.fill_delay if args.fill_delay is not None else 1) + 5)
                        wait_until_quiet(process, idle)
                browser.close()
            if args.skip_cull:
                return report(results, args.pool)
            print(f"pages closed; waiting for the culler (idle {args.cull} s)...", flush=True)
            t = time.perf_counter()
            left = wait_for_kernel_count(process, 2 * args.pool + (1 if args.pool else 0),
                                         timeout=args.cull * 3 + 60)
            print(f"kernels left after {time.perf_counter() - t:.0f} s: {left} "
                  f"(preheated pool: {2 * args.pool + (1 if args.pool else 0)})")
        finally:
            stop(process)
    report(results, args.pool)


def report(results: dict, pool: int) -> None:
    lesson, bare = results["lesson"], results["bare"]
    print(f"ratios lesson/bare (pool {pool}): p50 {lesson['p50'] / bare['p50']:.2f}, "
          f"p95 {lesson['p95'] / bare['p95']:.2f}, max {lesson['max'] / bare['max']:.2f} "
          f"(target <= 1.2); memory per kernel {lesson['rss'] / bare['rss']:.2f} (target <= 1.3); "
          f"click {lesson['click'] / bare['click']:.2f}")


if __name__ == "__main__":
    main()
