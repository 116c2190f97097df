"""What one dashboard's page costs its kernel before the browser comes, with and without
Voilà's hold on widget messages (`widgets.components.later.hold_messages_for_browser`).

For each notebook (default: every dashboard, and benchmarks/bare_button.ipynb first), a fresh
kernel runs the notebook's visible cells as Voilà does, once as a Voilà kernel
(`SERVER_SOFTWARE=voila/...`, messages held until the browser speaks) and once as a plain one
(JupyterLab: every message sent). It prints the kernel's CPU for the cells and the iopub traffic
they made (messages, kilobytes, widget comm_open and comm_msg), and the Voilà kernel's CPU as a
ratio to the bare notebook's in the same run. The deal a lesson makes after its page was sent
(`after_paint`) is not counted: it waits for the browser, which never comes here.

    .venv/bin/python benchmarks/page_messages.py [--notebook NAME ...] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil
from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parents[1]
BARE = ROOT / "benchmarks" / "bare_button.ipynb"


def cells(path: Path) -> list[str]:
    notebook = json.loads(path.read_text())
    return ["".join(c["source"]) for c in notebook["cells"]
            if c["cell_type"] == "code" and "remove-cell" not in c["metadata"].get("tags", [])]


def measure(path: Path, voila: bool, tmp: str) -> dict:
    env = {**os.environ, "CARTAS_DB": str(Path(tmp) / "cartas.db"), "CARTAS_DATABASE_URL": "",
           "CARTAS_ERROR_LOG": str(Path(tmp) / "errors.log"), "QUERY_STRING": ""}
    env.pop("SERVER_SOFTWARE", None)
    if voila:
        env["SERVER_SOFTWARE"] = "voila/benchmark"
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(env=env, cwd=str(ROOT / "notebooks"))
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        client.execute_interactive("pass", timeout=60)
        process = psutil.Process(manager.provisioner.process.pid)  # type: ignore[union-attr]
        before = sum(process.cpu_times()[:2])
        seen: list[dict] = []
        for source in cells(path):
            client.execute_interactive(source, timeout=120, output_hook=seen.append)
        time.sleep(0.5)  # what the cells left on the kernel's loop
        cpu = sum(process.cpu_times()[:2]) - before
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    kinds = [m["msg_type"] for m in seen]
    size = sum(len(json.dumps(m["content"], default=str)) for m in seen)
    return {"cpu": cpu, "messages": len(seen), "kb": size / 1024,
            "comm_open": kinds.count("comm_open"), "comm_msg": kinds.count("comm_msg")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notebook", action="append", default=[], metavar="NAME")
    parser.add_argument("--repeat", type=int, default=3, help="kernels per case; the median CPU is shown")
    args = parser.parse_args()
    names = args.notebook or sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    paths = [BARE] + [ROOT / "notebooks" / f"{n}.ipynb" for n in names]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            held = [measure(path, True, tmp) for _ in range(args.repeat)]
            sent = [measure(path, False, tmp) for _ in range(args.repeat)]
            rows.append((path.stem, held, sent))
            print(f"measured {path.stem}", file=sys.stderr)
    bare_cpu = statistics.median(r["cpu"] for r in rows[0][1])
    print(f"{'notebook':22s} {'Voilà ms':>9s} {'x bare':>7s} {'msgs':>5s} {'kB':>6s}   "
          f"{'sent ms':>8s} {'msgs':>5s} {'kB':>6s} {'open':>5s} {'upd':>5s}")
    for name, held, sent in rows:
        h_cpu = statistics.median(r["cpu"] for r in held)
        s_cpu = statistics.median(r["cpu"] for r in sent)
        h, s = held[0], sent[0]
        print(f"{name:22s} {1000 * h_cpu:9.0f} {h_cpu / bare_cpu:7.2f} {h['messages']:5d} {h['kb']:6.1f}   "
              f"{1000 * s_cpu:8.0f} {s['messages']:5d} {s['kb']:6.1f} {s['comm_open']:5d} {s['comm_msg']:5d}")
    print("Voilà: a Voilà kernel, widget messages held until the browser speaks; sent: a plain kernel "
          "(JupyterLab), every message sent. CPU: the kernel's, for the page's cells (median).")


if __name__ == "__main__":
    main()
