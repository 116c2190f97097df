"""The test servers' start survives a port taken between choosing it and binding it (what
pytest-xdist workers starting servers at once, or any outgoing connection, can do)."""
from __future__ import annotations

import socket
import urllib.request

import serving
from serving import ROOT, start_voila, stop


def test_a_voila_whose_port_was_taken_meanwhile_starts_again_on_another_port(tmp_path, monkeypatch):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        real, chosen = serving.free_port, []

        def first_a_taken_port() -> int:
            chosen.append(real() if chosen else busy)
            return chosen[-1]

        monkeypatch.setattr(serving, "free_port", first_a_taken_port)
        process, base = start_voila(ROOT / "notebooks", tmp_path / "voila.log")
        try:
            assert chosen[0] == busy and len(chosen) == 2 and base.endswith(f":{chosen[1]}")
            with urllib.request.urlopen(f"{base}/voila/static/favicon.ico", timeout=30) as reply:
                assert reply.status == 200
        finally:
            stop(process)
