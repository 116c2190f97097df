"""Time from request to visible widget: the manilha dashboard beside a bare one-button notebook.

Both are served by the same Voilà (over the project root) and opened in Debian's Chromium.
Target: manilha / bare <= 1.2. Run: .venv/bin/python benchmarks/dashboard_startup.py [runs]
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))   # serving_ports
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from playwright.sync_api import sync_playwright

from serving import BENCH_CHROMIUM, CHROMIUM_ARGS, ROOT, start_voila

PAGES = {
    "manilhas": ("notebooks/manilhas.ipynb", ".cartas-manilhas svg"),
    "bare": ("benchmarks/bare_button.ipynb", ".bare-button"),
}


def time_to_visible(browser, url: str, selector: str) -> float:
    page = browser.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(selector, state="visible", timeout=60_000)
    elapsed = time.perf_counter() - start
    page.close()
    return elapsed


def main(runs: int = 7) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        process, base = start_voila(ROOT, Path(tmp) / "voila.log")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=BENCH_CHROMIUM, args=CHROMIUM_ARGS)
                times: dict[str, list[float]] = {name: [] for name in PAGES}
                for path, selector in PAGES.values():  # warm-up: caches, imports on disk
                    time_to_visible(browser, f"{base}/voila/render/{path}", selector)
                for _ in range(runs):  # interleaved, so drift hits both alike
                    for name, (path, selector) in PAGES.items():
                        times[name].append(time_to_visible(browser, f"{base}/voila/render/{path}", selector))
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=20)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:9s} median {medians[name]:.2f} s  (min {min(values):.2f}, max {max(values):.2f}, {runs} runs)")
    ratio = medians["manilhas"] / medians["bare"]
    print(f"ratio manilhas/bare: {ratio:.2f}  (target <= 1.20: {'met' if ratio <= 1.2 else 'NOT met'})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
