"""Start-up on a phone: every dashboard beside a bare one-button notebook, in the same run.

Chromium with a 360×740 touch profile (device scale 2) and 4× CPU throttling (CDP
`Emulation.setCPUThrottlingRate`), one fresh browser context per page load (a new browser to
the server, as a learner's phone is). Two times per load, from the request:

- first widget: the first widget drawn in the output area (`.jupyter-widgets`);
- first control: the first enabled, visible control a learner can use in the dashboard's
  view (a button, field or card; for the bare notebook, its button).

Each dashboard's median is printed as a ratio to the bare notebook's median measured in the
same run (target <= 1.3). Every notebook in notebooks/ is a dashboard measured (or those named).
Loads are interleaved (bare, then each dashboard, per round), so the machine's drift hits all
alike. The machine may be shared: the figures are ratios for that reason, and the table says how
many rounds it took.

`--against DIR` measures another checkout in the same run (say, an older commit: `git worktree
add DIR COMMIT`, then `make install` in DIR for its own .venv): its own Voilà, from its own
environment, configuration and notebooks, serves it beside this checkout's, the loads of the two
interleaved load by load; each checkout's dashboards are measured against its own bare notebook,
and a last table puts the two checkouts' ratios side by side.

Run: .venv/bin/python benchmarks/phone_startup.py [rounds] [dashboard ...] [--against DIR]
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))   # serving_ports
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from checkouts import Checkout, checkouts_for
from playwright.sync_api import sync_playwright

from serving import BENCH_CHROMIUM, CHROMIUM_ARGS, ROOT, start_voila, stop

THROTTLE = 4
TARGET = 1.3
BARE = "benchmarks/bare_button.ipynb"
FIRST_WIDGET = ".jp-OutputArea-output .jupyter-widgets"
# a control the learner can use: enabled and visible, inside a Cartas view (or the bare button)
FIRST_CONTROL = """() => {
  const controls = document.querySelectorAll(
    '.cartas-view button:not([disabled]), .cartas-view input:not([disabled]), .cartas-view select:not([disabled]), '
    + '.cartas-view .cartas-pick-on, .cartas-view a[href], .bare-button button, button.bare-button');
  return Array.from(controls).some(e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden');
}"""


def dashboards(only: list[str] | None = None) -> list[str]:
    """Every notebook in notebooks/ (or those named), as paths from the repository's root."""
    every = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "notebooks").glob("*.ipynb"))
    if not only:
        return every
    unknown = sorted(set(only) - {Path(path).stem for path in every})
    if unknown:
        raise SystemExit(f"no dashboard {', '.join(unknown)} in notebooks/")
    return [path for path in every if Path(path).stem in only]


def load(browser, url: str) -> tuple[float, float]:
    """(seconds to the first widget, seconds to the first control) for one page load."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    try:
        page = context.new_page()
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        start = time.perf_counter()
        page.goto(url, timeout=180_000)
        page.wait_for_selector(FIRST_WIDGET, state="visible", timeout=180_000)
        widget = time.perf_counter() - start
        page.wait_for_function(FIRST_CONTROL, timeout=180_000, polling=50)
        return widget, time.perf_counter() - start
    finally:
        context.close()


def start_server(checkout: Checkout, home: Path):
    """The checkout's own Voilà: its environment, its voila.json (run from its root), no cap per
    browser (every load comes from this one address), idle kernels culled as the loads go on."""
    if not (checkout.root / BARE).is_file():  # the same reference notebook for both
        shutil.copy(ROOT / BARE, checkout.root / BARE)
    home.mkdir()
    return start_voila(checkout.root, home / "voila.log", {"CARTAS_PROGRESS": str(home / "progress.json")},
                       ["--CappedKernelManager.max_kernels_per_browser=0",
                        "--MappingKernelManager.cull_idle_timeout=20",
                        "--MappingKernelManager.cull_interval=5"],
                       cwd=checkout.root, python=checkout.python)


def measure(checkouts: list[Checkout], paths: list[str], rounds: int) -> dict:
    """{checkout: {path: [(widget s, control s), ...]}}, the loads interleaved: per round, the bare
    notebook and then each dashboard, each load on every checkout in turn."""
    times = {c: {p: [] for p in [BARE, *paths] if (c.root / p).is_file() or p == BARE} for c in checkouts}
    for checkout in checkouts:
        missing = [p for p in paths if p not in times[checkout]]
        if missing:
            print(f"{checkout.name} has no {', '.join(missing)}: not measured there")
    with tempfile.TemporaryDirectory() as tmp:
        servers = {}
        try:
            for k, checkout in enumerate(checkouts):
                servers[checkout] = start_server(checkout, Path(tmp) / f"checkout-{k}")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=BENCH_CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    for checkout in checkouts:  # warm-up: the server, disk caches, first imports
                        for path in (BARE, *paths[:1]):
                            load(browser, f"{servers[checkout][1]}/voila/render/{path}")
                    for _ in range(rounds):
                        for path in [BARE, *paths]:
                            for checkout in checkouts:
                                if path in times[checkout]:
                                    url = f"{servers[checkout][1]}/voila/render/{path}"
                                    times[checkout][path].append(load(browser, url))
                finally:
                    browser.close()
        finally:
            for process, _base in servers.values():
                stop(process)
    return times


def ratios(times: dict[str, list[tuple[float, float]]]) -> dict[str, tuple[float, float, float, float]]:
    """{path: (widget s, control s, widget x bare, control x bare)}, medians over the rounds."""
    bare_widget = statistics.median(t[0] for t in times[BARE])
    bare_control = statistics.median(t[1] for t in times[BARE])
    out = {}
    for path, loads in times.items():
        widget = statistics.median(t[0] for t in loads)
        control = statistics.median(t[1] for t in loads)
        out[path] = (widget, control, widget / bare_widget, control / bare_control)
    return out


def report(checkout: Checkout, figures: dict, rounds: int) -> list[str]:
    """Print one checkout's table; return the dashboards over the target."""
    print(f"\n== {checkout.name}: {checkout.root}")
    print(f"Phone start-up: 360x740 touch, CPU throttled {THROTTLE}x, median of {rounds} rounds "
          f"(a shared machine: compare ratios, not seconds)")
    print(f"{'dashboard':20s} {'widget s':>9s} {'control s':>10s} {'widget x':>9s} {'control x':>10s}")
    over = []
    for path, (widget, control, ratio_w, ratio_c) in figures.items():
        name = "bare" if path == BARE else Path(path).stem
        if path != BARE and max(ratio_w, ratio_c) > TARGET:
            over.append(name)
        print(f"{name:20s} {widget:9.2f} {control:10.2f} {ratio_w:9.2f} {ratio_c:10.2f}")
    print(f"target <= {TARGET}x bare: " + ("met by every dashboard" if not over else "NOT met by " + ", ".join(over)))
    return over


def main(rounds: int = 2, only: list[str] | None = None, against: Path | None = None) -> list[str]:
    """Measure and print; return this checkout's dashboards over the target."""
    try:
        checkouts = checkouts_for(against)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    paths = dashboards(only)
    times = measure(checkouts, paths, rounds)
    figures = {checkout: ratios(times[checkout]) for checkout in checkouts}
    over = report(checkouts[0], figures[checkouts[0]], rounds)  # this checkout's target
    for checkout in checkouts[1:]:
        report(checkout, figures[checkout], rounds)
    if len(checkouts) > 1:
        print(f"\nSide by side (ratios to each checkout's own bare notebook): "
              f"{' | '.join(c.name for c in checkouts)}")
        print(f"{'dashboard':20s} {'widget x':>15s} {'control x':>15s}")
        for path in paths:
            cells = [[f"{figures[c][path][k]:.2f}" if path in figures[c] else "-" for c in checkouts] for k in (2, 3)]
            print(f"{Path(path).stem:20s} {' | '.join(cells[0]):>15s} {' | '.join(cells[1]):>15s}")
    return over


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="[rounds] [dashboard ...]",
                        help="loads of each page (default 2), then the notebooks/NAME.ipynb to measure "
                             "(default: every one)")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another checkout (with its own .venv) measured in the same run, interleaved")
    args = parser.parse_args()
    args.rounds = int(args.names.pop(0)) if args.names and args.names[0].isdigit() else 2
    args.dashboard = args.names
    if args.rounds < 1:
        parser.error("rounds is at least 1")
    return args


if __name__ == "__main__":
    args = arguments()
    if main(args.rounds, args.dashboard or None, args.against):
        raise SystemExit(1)  # a dashboard of this checkout over the target
