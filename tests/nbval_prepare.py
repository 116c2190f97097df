"""Copy notebooks/ for nbval, turning each checked cell's expectation into a stored output.

Notebooks are kept without outputs. A cell whose output is deterministic carries the
`# NBVAL_CHECK_OUTPUT` marker and its expected text in metadata["cartas_expect"]; the copy
made here stores that text as the cell's output, so nbval compares what the cell really
prints against what the lesson's author wrote down.

It also writes TARGET_DIR/conftest.py: under pytest-xdist (`make test` runs the notebooks on
several workers) each worker's kernels keep their progress in a store of their own, beside the
one `make test` names, so two notebooks run at once never write the same file; and each worker
gives its kernels ports from a range of its own (see WORKER_CONFTEST).

Usage: python tests/nbval_prepare.py SOURCE_DIR TARGET_DIR
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

# The worker's own store: nbval starts each notebook's kernel with this process's environment.
WORKER_CONFTEST = '''"""Written by tests/nbval_prepare.py: each pytest-xdist worker keeps its kernels' progress
in a store of its own, and gives its kernels ports from a range of its own.

jupyter_client chooses a kernel's five ports by binding port 0 and closing it, and the kernel
binds them a second or more later. Two workers starting kernels at once can be handed the same
port in that gap (the risk jupyter_client's LocalPortCache names, which it can only prevent
within one process), and the kernel that binds it second fails; when that port is its iopub
port, ipykernel stays alive without ever answering: nbval's "Kernel didn't respond in 60
seconds". Here the worker's port cache, a LocalPortCache made the process's instance before any
kernel starts, hands out ports of the worker's own range, below the range the system hands out
for port 0, so no two workers, and no other process asking for any free port, share one.
"""
import os
import socket
from pathlib import Path

from jupyter_client.connect import LocalPortCache

PORTS_FROM = 20000  # below Linux's ephemeral range (32768-60999)
PORTS_PER_WORKER = 500


class WorkerPorts(LocalPortCache):
    """The ports of one worker's kernels: from its own range, in turn, each one free when given."""

    def __init__(self, worker_number: int = 0, **kwargs):
        super().__init__(**kwargs)
        first = PORTS_FROM + PORTS_PER_WORKER * worker_number
        self.ports = range(first, first + PORTS_PER_WORKER)
        self.turn = 0

    def find_available_port(self, ip: str) -> int:
        for _ in self.ports:
            port = self.ports[self.turn]
            self.turn = (self.turn + 1) % len(self.ports)
            if port not in self.currently_used_ports and free(ip, port):
                self.currently_used_ports.add(port)
                return port
        raise RuntimeError(f"no free port for a kernel in {self.ports.start}-{self.ports.stop - 1}")


def free(ip: str, port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((ip, port))
        except OSError:
            return False
    return True


def pytest_configure(config):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    for name in ("CARTAS_DB", "CARTAS_PROGRESS"):
        if os.environ.get(name):
            path = Path(os.environ[name])
            os.environ[name] = str(path.with_name(f"{path.stem}-{worker}{path.suffix}"))
    WorkerPorts.instance(worker_number=int(worker.removeprefix("gw")))
'''


def prepare(source: Path, target: Path) -> int:
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    checked = 0
    for path in sorted(source.glob("*.ipynb")):
        notebook = json.loads(path.read_text())
        for cell in notebook["cells"]:
            expected = cell.get("metadata", {}).get("cartas_expect")
            if cell["cell_type"] != "code" or expected is None:
                continue
            if "NBVAL_CHECK_OUTPUT" not in "".join(cell["source"]):
                raise SystemExit(f"{path.name}: a cell with cartas_expect lacks # NBVAL_CHECK_OUTPUT")
            cell["outputs"] = [{"output_type": "execute_result", "execution_count": 1,
                                "metadata": {}, "data": {"text/plain": expected}}]
            cell["execution_count"] = 1  # nbval treats a cell without a count as never run
            checked += 1
        (target / path.name).write_text(json.dumps(notebook, ensure_ascii=False, indent=1))
    (target / "conftest.py").write_text(WORKER_CONFTEST)
    return checked


if __name__ == "__main__":
    count = prepare(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"nbval: {count} checked cells")
