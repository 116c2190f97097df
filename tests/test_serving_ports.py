"""The ports the tests' servers are started on (tests/serving_ports.py): each pytest-xdist
worker's come from a block of its own below the kernel's ephemeral range, so two workers never
choose the same port, nor does anything that binds port 0 (a kernel's ZMQ ports, a hub's
single-user server, an outgoing connection)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import serving_ports

TESTS = Path(__file__).resolve().parent


def ports_of_worker(worker: str, count: int) -> list[int]:
    """`count` ports handed out in a new process that is pytest-xdist worker `worker`."""
    code = ("import serving_ports; "
            f"print(*[serving_ports.free_port() for _ in range({count})])")
    env = {**os.environ, "PYTEST_XDIST_WORKER": worker, "PYTHONPATH": str(TESTS)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    return [int(p) for p in done.stdout.split()]


def test_each_worker_hands_out_its_own_ports_below_the_ephemeral_range():
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    seen: dict[str, list[int]] = {w: ports_of_worker(w, 40) for w in ("gw0", "gw1", "gw2", "gw3")}
    for worker, ports in seen.items():
        assert len(set(ports)) == 40, worker                      # none twice in a worker
        assert all(serving_ports.FIRST <= p < low for p in ports), (worker, ports)
    everyone = [p for ports in seen.values() for p in ports]
    assert len(set(everyone)) == len(everyone)                    # no port of two workers


def test_a_port_someone_listens_on_is_not_handed_out():
    taken = []
    try:
        for _ in range(5):   # the next few ports of this worker, each held by a listener
            port = serving_ports.free_port()
            sock = socket.socket()
            sock.bind(("127.0.0.1", port))
            sock.listen()
            taken.append(sock)
        held = {s.getsockname()[1] for s in taken}
        handed = [serving_ports.free_port() for _ in range(len(serving_ports._ports or ()) + 5)]
        assert not held & set(handed)
    finally:
        for sock in taken:
            sock.close()
