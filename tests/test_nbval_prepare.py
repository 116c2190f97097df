"""The notebooks' run under nbval (`tests/nbval_prepare.py`): the conftest it writes gives each
pytest-xdist worker's kernels ports of the worker's own range, so two workers starting kernels at
once are never handed the same port."""
from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.nbval_prepare import prepare


def written_conftest(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    source.mkdir()
    prepare(source, tmp_path / "nbval")
    return tmp_path / "nbval" / "conftest.py"


def load(conftest: Path):
    spec = importlib.util.spec_from_file_location("nbval_conftest", conftest)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ephemeral_ports() -> range:
    low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    return range(low, high + 1)


def test_two_workers_kernels_never_share_a_port_nor_take_one_the_system_hands_out(tmp_path):
    conftest = load(written_conftest(tmp_path))
    first, second = conftest.WorkerPorts(worker_number=0), conftest.WorkerPorts(worker_number=1)
    given = [[cache.find_available_port("127.0.0.1") for _ in range(15)] for cache in (first, second)]
    assert len(set(given[0])) == 15 and len(set(given[1])) == 15
    assert not set(given[0]) & set(given[1])
    assert not any(port in ephemeral_ports() for port in given[0] + given[1])


def test_a_port_in_use_is_passed_over_and_a_returned_one_not_given_again_at_once(tmp_path):
    conftest = load(written_conftest(tmp_path))
    cache = conftest.WorkerPorts(worker_number=3)
    taken = cache.ports[0]
    with socket.socket() as someone_else:
        someone_else.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as a kernel binds
        someone_else.bind(("127.0.0.1", taken))
        someone_else.listen()
        port = cache.find_available_port("127.0.0.1")
    assert port != taken and port in cache.ports
    cache.return_port(port)
    assert cache.find_available_port("127.0.0.1") != port


def test_a_workers_kernel_is_started_on_its_ports_and_answers(tmp_path):
    """In a worker's process (the conftest's pytest_configure run), jupyter_client starts a kernel
    on ports of the worker's range, and the kernel answers."""
    conftest = written_conftest(tmp_path)
    program = f"""
import importlib.util, json
spec = importlib.util.spec_from_file_location("nbval_conftest", {str(conftest)!r})
conftest = importlib.util.module_from_spec(spec)
spec.loader.exec_module(conftest)
conftest.pytest_configure(None)
from jupyter_client.manager import start_new_kernel
manager, client = start_new_kernel(startup_timeout=60)
try:
    reply = client.execute_interactive("6 * 7", timeout=30, output_hook=lambda message: None)
    ports = [manager.shell_port, manager.iopub_port, manager.stdin_port, manager.hb_port, manager.control_port]
    print(json.dumps({{"ports": ports, "status": reply["content"]["status"]}}))
finally:
    client.stop_channels()
    manager.shutdown_kernel(now=True)
"""
    env = dict(os.environ, PYTEST_XDIST_WORKER="gw2", CARTAS_DB="", CARTAS_PROGRESS="")
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "ok"
    worker_range = range(conftest_ports_from(conftest, 2), conftest_ports_from(conftest, 3))
    assert all(port in worker_range for port in result["ports"]), result["ports"]


def conftest_ports_from(conftest: Path, worker_number: int) -> int:
    module = load(conftest)
    return module.PORTS_FROM + module.PORTS_PER_WORKER * worker_number
