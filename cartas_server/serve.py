"""`make serve`: serve the dashboards with Voilà on exactly the address it prints.

    python -m cartas_server.serve [--host 127.0.0.1] [--port 8866] [voila options...]

Decided behaviour:
- the port is checked before Voilà starts; a port already in use (or an address this machine
  does not have) stops here with a message naming it and exit status 1;
- Voilà is started with `--Voila.port_retries=0`, so it never moves to another port: if the
  port is taken between the check and the start, Voilà itself stops with an error instead of
  serving somewhere else;
- `--host 0.0.0.0` (or a LAN address) serves the local network; the addresses printed are then
  this machine's own addresses, and a warning says that anyone who can reach them can open and
  run the dashboards (standalone Voilà asks for no login or token);
- anything after the options is passed to Voilà unchanged;
- Voilà runs as `cartas_server.links` (Voilà itself, but a link too long to serve gets a page
  saying so instead of a dropped connection);
- the project's own packages are byte-compiled first (only what changed since the last time).
  Each dashboard's kernel imports them; without bytecode on disk (a checkout whose environment
  sets PYTHONDONTWRITEBYTECODE, as CI machines and containers often do) every kernel would
  compile them from source again, about 0.04 s of CPU per page opened.
"""
from __future__ import annotations

import argparse
import compileall
import errno
import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INDEX = "voila/render/index.ipynb"
PACKAGES = ("cartas", "widgets", "classroom", "cartas_server")


def compile_packages(root: Path = ROOT) -> bool:
    """Byte-compile the project's packages into their __pycache__ folders; True when all compiled."""
    return all(compileall.compile_dir(root / name, quiet=1) for name in PACKAGES)


def port_problem(host: str, port: int) -> str | None:
    """Why (host, port) cannot be served, or None when it is free."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # Same option tornado uses, so a port in TIME_WAIT is not reported as taken.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return (f"port {port} on {host} is already in use (another Cartas or Voilà?). "
                        f"Stop it, or choose another port: make serve PORT={port + 1}")
            if error.errno == errno.EACCES:
                return f"no permission to listen on port {port}: choose a port above 1023"
            return f"cannot listen on {host}:{port}: {error.strerror}"
    return None


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (best effort, no network traffic)."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    try:  # the address of the interface a LAN packet would leave by (UDP connect sends nothing)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            found.add(probe.getsockname()[0])
    except OSError:
        pass
    return sorted(a for a in found if not a.startswith("127."))


def urls(host: str, port: int) -> list[str]:
    if host in ("0.0.0.0", "", "::"):
        hosts = lan_addresses() or ["127.0.0.1"]
    else:
        hosts = [host]
    return [f"http://{h}:{port}/{INDEX}" for h in hosts]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8866)
    args, voila_args = parser.parse_known_args(argv)
    problem = port_problem(args.host, args.port)
    if problem:
        print(f"Cartas: cannot serve: {problem}", file=sys.stderr)
        return 1
    print("Cartas: open " + "  or  ".join(urls(args.host, args.port)), flush=True)
    if not args.host.startswith("127.") and args.host != "localhost":
        print("Cartas: serving the local network: anyone who can reach this machine can open "
              "and run the dashboards (no login). Use it on a network you trust.", flush=True)
    command = [sys.executable, "-m", "cartas_server.links", "notebooks", "--no-browser",
               f"--Voila.ip={args.host}", f"--port={args.port}", "--Voila.port_retries=0",
               *voila_args]
    compile_packages()
    os.chdir(ROOT)  # voila.json is read from the working directory
    os.execv(sys.executable, command)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
