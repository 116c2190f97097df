"""Loopback ports for the servers the tests start, and a port nothing listens on.

A port found by binding port 0 and letting it go comes from the kernel's ephemeral range
(`ip_local_port_range`), where every outgoing connection's local port, every Jupyter kernel's
ZMQ ports and every single-user server's port (JupyterHub binds port 0 too) come from, and
where another test worker, choosing at the same moment, may be handed the very same port: the
first of the two servers to bind it wins. When the loser stops saying so, the test starts it
again (`serving.PORT_ATTEMPTS`, the hub's retries); a loser that does not stop is worse. A hub
whose own class service lost its port to another worker's replicas routed learners' requests
to that other school's service, which refused every token as unknown (CI, stop 56).

So `free_port()` hands out ports below the ephemeral range, in a block of its own for each
pytest-xdist worker (`PYTEST_XDIST_WORKER`), in turn from a place in the block that differs
between runs, each one checked free when handed out: two workers never choose the same
port, nor does anything that binds port 0. Where the ephemeral range leaves too little room
below it, a port of the ephemeral range is used, as before.
"""
from __future__ import annotations

import itertools
import os
import re
import socket
import threading

FIRST = 20000          # above the ports servers use by default (PostgreSQL's 5432, Jupyter's 8888)
BLOCKS = 8             # one block per worker; a ninth worker shares the first's
MIN_BLOCK = 200


def _ephemeral_low() -> int:
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as ranges:
            return int(ranges.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768   # Linux's default


def _worker() -> int:
    match = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    return int(match.group(1)) % BLOCKS if match else 0


def _block() -> range | None:
    size = (min(_ephemeral_low(), 65536) - FIRST) // BLOCKS
    if size < MIN_BLOCK:
        return None
    start = FIRST + _worker() * size
    return range(start, start + size)


_lock = threading.Lock()
_ports = _block()
if _ports is not None:   # from a place in the block that differs between runs, then around
    _from = _ports.start + os.getpid() % len(_ports)
    _turn = itertools.cycle(itertools.chain(range(_from, _ports.stop), range(_ports.start, _from)))


def _is_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _ephemeral_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def free_port() -> int:
    """A loopback port nothing is bound to now, for a server about to be started: this
    worker's next free one (the module's rules)."""
    if _ports is None:
        return _ephemeral_port()
    with _lock:
        for _ in range(len(_ports)):
            port = next(_turn)
            if _is_free(port):
                return port
    return _ephemeral_port()


def closed_port() -> int:
    """A loopback port nothing listens on (a store or service that is not there)."""
    return free_port()
