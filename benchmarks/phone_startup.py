"""Start-up on a phone: every dashboard beside a bare one-button notebook, in the same run.

Chromium with a 360×740 touch profile (device scale 2) and 4× CPU throttling (CDP
`Emulation.setCPUThrottlingRate`), one fresh browser context per page load (a new browser to
the server, as a learner's phone is). Two times per load, from the request:

- first widget: the first widget drawn in the output area (`.jupyter-widgets`);
- first control: the first enabled, visible control a learner can use in the dashboard's
  view (a button, field or card; for the bare notebook, its button).

Each dashboard's median is printed as a ratio to the bare notebook's median measured in the
same run (target <= 1.3). Loads are interleaved (bare, then each dashboard, per round), so the
machine's drift hits all alike. The machine may be shared: the figures are ratios for that
reason, and the table says how many rounds it took.

Run: .venv/bin/python benchmarks/phone_startup.py [rounds] [dashboard ...]
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from lessons import LESSONS
from playwright.sync_api import sync_playwright

from serving import CHROMIUM, CHROMIUM_ARGS, ROOT, start_voila, stop

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


def dashboards() -> list[str]:
    return [f"notebooks/{name}.ipynb" for name in sorted(LESSONS) + ["index"]]


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


def main(rounds: int = 2, only: list[str] | None = None) -> None:
    paths = [p for p in dashboards() if not only or Path(p).stem in only]
    times: dict[str, list[tuple[float, float]]] = {p: [] for p in [BARE, *paths]}
    with tempfile.TemporaryDirectory() as tmp:
        process, base = start_voila(ROOT, Path(tmp) / "voila.log",
                                    {"CARTAS_PROGRESS": str(Path(tmp) / "progress.json")},
                                    ["--CappedKernelManager.max_kernels_per_browser=0",
                                     "--MappingKernelManager.cull_idle_timeout=20",
                                     "--MappingKernelManager.cull_interval=5"])
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    for path in (BARE, *paths[:1]):  # warm-up: the server, disk caches, first imports
                        load(browser, f"{base}/voila/render/{path}")
                    for _ in range(rounds):
                        for path in times:
                            times[path].append(load(browser, f"{base}/voila/render/{path}"))
                finally:
                    browser.close()
        finally:
            stop(process)
    bare_widget = statistics.median(t[0] for t in times[BARE])
    bare_control = statistics.median(t[1] for t in times[BARE])
    print(f"Phone start-up: 360x740 touch, CPU throttled {THROTTLE}x, median of {rounds} rounds "
          f"(a shared machine: compare ratios, not seconds)")
    print(f"{'dashboard':20s} {'widget s':>9s} {'control s':>10s} {'widget x':>9s} {'control x':>10s}")
    print(f"{'bare':20s} {bare_widget:9.2f} {bare_control:10.2f} {1:9.2f} {1:10.2f}")
    over = []
    for path in paths:
        widget = statistics.median(t[0] for t in times[path])
        control = statistics.median(t[1] for t in times[path])
        ratio_w, ratio_c = widget / bare_widget, control / bare_control
        if max(ratio_w, ratio_c) > TARGET:
            over.append(Path(path).stem)
        print(f"{Path(path).stem:20s} {widget:9.2f} {control:10.2f} {ratio_w:9.2f} {ratio_c:10.2f}")
    print(f"target <= {TARGET}x bare: " + ("met by every dashboard" if not over else "NOT met by " + ", ".join(over)))


if __name__ == "__main__":
    args = sys.argv[1:]
    count = int(args.pop(0)) if args and args[0].isdigit() else 2
    main(count, args or None)
