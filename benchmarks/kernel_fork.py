"""A page's kernel forked from the warm template (cartas_server/forks.py) against one started as a
new process, in the same run.

For `--rounds` rounds (default 8), one kernel of each kind, in turn, is started through
jupyter-client's AsyncKernelManager (the local provisioner, then the forking one, as voila.json
names it) in notebooks/, runs the code cells of a lesson (`--notebook`, default manilhas.ipynb)
as Voilà would, and is measured when its last cell has run:

- seconds from asking for the kernel to the lesson's last cell done;
- CPU seconds the kernel process has used (user plus system);
- its unique memory (USS: what the kernel costs the machine beyond pages shared with the template).

The template itself is warmed before the first round (its own start is reported once). The
script prints the medians and the forked kernel's figures as ratios to the new process's.

    .venv/bin/python benchmarks/kernel_fork.py [--rounds 8] [--notebook manilhas.ipynb]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cartas_server import forks  # noqa: E402


def code_cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text())["cells"]
    return ["".join(c["source"]) for c in cells
            if c["cell_type"] == "code" and "remove-cell" not in c.get("metadata", {}).get("tags", [])]


def kernel_env() -> dict[str, str]:
    return {**os.environ, "OPENBLAS_NUM_THREADS": "1", "VOILA_KERNEL_ID": "benchmark"}


async def one(kind: str, cells: list[str], folder: Path) -> dict[str, float]:
    KernelProvisionerFactory.instance().default_provisioner_name = (
        "cartas-forking" if kind == "forked" else "local-provisioner")
    manager = AsyncKernelManager(kernel_name="python3", transport="ipc")
    manager.connection_file = str(folder / f"{kind}-{time.monotonic_ns()}.json")
    env = kernel_env()
    started = time.perf_counter()
    await manager.start_kernel(env=env, cwd=str(ROOT / "notebooks"))
    client = manager.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=60)
        for cell in cells:
            reply = await client.execute_interactive(cell, output_hook=lambda message: None, timeout=60)
            assert reply["content"]["status"] == "ok", reply["content"]
        seconds = time.perf_counter() - started
        process = psutil.Process(manager.provisioner.pid)
        is_forked = isinstance(manager.provisioner.process, forks.ForkedKernel)
        assert is_forked == (kind == "forked"), kind
        times = process.cpu_times()
        return {"seconds": seconds, "cpu": times.user + times.system,
                "uss_mb": process.memory_full_info().uss / 2**20}
    finally:
        client.stop_channels()
        await manager.shutdown_kernel()


async def main(rounds: int, notebook: str) -> None:
    cells = code_cells(ROOT / "notebooks" / notebook)
    figures: dict[str, list[dict[str, float]]] = {"new process": [], "forked": []}
    with tempfile.TemporaryDirectory() as folder:
        # as a server's first kernel does: ask for the template (that kernel starts as a new process)
        assert forks.forked_kernel([sys.executable, "-m", "ipykernel_launcher"], str(ROOT), kernel_env()) is None
        template = forks.current_template()
        assert template is not None and template.wait_ready(120)
        warm = psutil.Process(template.process.pid).cpu_times()
        print(f"template: {warm.user + warm.system:.2f} CPU-s to warm up, "
              f"{psutil.Process(template.process.pid).memory_info().rss / 2**20:.0f} MB")
        for _ in range(rounds):
            for kind in figures:
                figures[kind].append(await one(kind, cells, Path(folder)))
        forks.close_template()
    medians = {kind: {k: statistics.median(f[k] for f in rows) for k in rows[0]} for kind, rows in figures.items()}
    print(f"{notebook}, {rounds} rounds, medians:")
    for kind, row in medians.items():
        print(f"  {kind:12} {row['seconds']:.2f} s to the last cell, {row['cpu']:.2f} CPU-s, "
              f"{row['uss_mb']:.0f} MB unique")
    ratio = {k: medians["forked"][k] / medians["new process"][k] for k in medians["forked"]}
    print(f"  forked / new process: time {ratio['seconds']:.2f}, CPU {ratio['cpu']:.2f}, "
          f"unique memory {ratio['uss_mb']:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--notebook", default="manilhas.ipynb")
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.notebook))
