"""`make serve` (python -m cartas_server.serve) serves on exactly the address it prints, or
stops with a message naming the port when it is taken."""
from __future__ import annotations

import importlib.util
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "browser"))
from cartas_server.links import index_of, too_long_page
from cartas_server.serve import PACKAGES, compile_packages, port_problem, urls

from serving import ROOT, free_port, start_jupyter_server, start_voila, stop


def serve(*args):
    return subprocess.Popen([sys.executable, "-m", "cartas_server.serve", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def test_a_taken_port_stops_serve_with_a_message_naming_it():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = serve(f"--port={port}")
        out, err = process.communicate(timeout=60)
    assert process.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use" in err
    assert f"PORT={port + 1}" in err
    assert "open http" not in out


def test_serve_answers_on_exactly_the_address_it_prints():
    port = free_port()
    process = serve(f"--port={port}")
    try:
        line = process.stdout.readline()
        assert line.startswith("Cartas: open http://")
        url = line.split("open ", 1)[1].strip()
        assert url == f"http://127.0.0.1:{port}/voila/render/index.ipynb"
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(url, timeout=60) as reply:
                    assert reply.status == 200
                    assert "jupyter-config-data" in reply.read().decode()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"nothing served at {url}: {process.stderr.read()[-2000:]}")
                time.sleep(0.5)
    finally:
        stop(process)


def test_the_local_network_addresses_printed_are_this_machines_not_loopback():
    for url in urls("0.0.0.0", 8866):
        host = url.split("//")[1].split(":")[0]
        assert url.endswith(":8866/voila/render/index.ipynb")
        if host != "127.0.0.1":  # the fallback when the machine has no other address
            assert port_problem(host, 0) is None  # an address of this machine: it can bind it


def test_serve_byte_compiles_every_module_of_the_project_and_reports_one_that_does_not_compile(tmp_path):
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    assert compile_packages(tmp_path)
    sources = [path for name in PACKAGES for path in (tmp_path / name).rglob("*.py")]
    assert len(sources) > 40
    missing = [path for path in sources if not Path(importlib.util.cache_from_source(str(path))).exists()]
    assert missing == []
    (tmp_path / "widgets" / "broken.py").write_text("def (:\n")
    assert not compile_packages(tmp_path)


def long_link_answers(port: int, dashboard: str, headers: dict | None = None) -> list[tuple[int, str]]:
    """(status, page) for links to `dashboard` with a query string of 70 KB, 300 KB and 2 MB.
    A dropped connection raises (http.client's RemoteDisconnected, or a reset)."""
    import http.client

    answers = []
    for size in (70_000, 300_000, 2_000_000):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            connection.request("GET", f"{dashboard}?cenario={'A' * size}", headers=headers or {})
            reply = connection.getresponse()
            answers.append((reply.status, reply.read().decode()))
        finally:
            connection.close()
    return answers


def assert_too_long_pages(answers: list[tuple[int, str]], index: str) -> None:
    """Every answer is the 414 page, in both languages, linking to `index`."""
    for status, page in answers:
        assert status == 414, page[:300]
        assert "Este link é longo demais" in page and "This link is too long" in page
        assert f"href='{index}'" in page


def wait_for(url: str, process, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=10)
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"nothing served at {url}: {process.stderr.read()[-2000:] if process.stderr else ''}")
            time.sleep(0.5)


def test_a_link_with_a_query_string_over_64_kb_gets_a_page_saying_it_is_too_long():
    """Issue 33, item 10 (cartas_server.links): tornado, as Voilà starts it, dropped such a
    connection with no answer at all; the laptop server answers 414 with a page in both
    languages, and still serves what is shorter."""
    port = free_port()
    process = serve(f"--port={port}")
    try:
        assert process.stdout.readline().startswith("Cartas: open http://")
        base = f"http://127.0.0.1:{port}"
        wait_for(f"{base}/voila/static/favicon.ico", process)
        assert_too_long_pages(long_link_answers(port, "/voila/render/cenarios.ipynb"), "/voila/render/index.ipynb")
        shorter = f"{base}/voila/static/favicon.ico?x={'A' * 60_000}"
        with urllib.request.urlopen(shorter, timeout=30) as reply:
            assert reply.status == 200
    finally:
        stop(process)


def test_standalone_voila_from_the_repository_answers_a_link_too_long_with_the_page(tmp_path):
    """Issue 33, item 10: `voila notebooks` started from the repository (its voila.json), not
    through `make serve`, dropped the connection; it now gives the same 414 page (the identity
    provider voila.json names makes Voilà's server a LongLinkServer)."""
    process, base = start_voila(ROOT / "notebooks", tmp_path / "voila.log")
    try:
        port = int(base.rsplit(":", 1)[1])
        assert_too_long_pages(long_link_answers(port, "/voila/render/cenarios.ipynb"), "/voila/render/index.ipynb")
        with urllib.request.urlopen(f"{base}/voila/static/favicon.ico?x={'A' * 60_000}", timeout=30) as reply:
            assert reply.status == 200
    finally:
        stop(process)


def test_jupyter_server_with_cartas_configuration_answers_a_link_too_long_with_the_page(tmp_path):
    """Issue 33, item 10: jupyter-server with the Voilà extension (Binder, JupyterHub's
    single-user servers), reading Cartas' etc/jupyter/jupyter_server_config.json, dropped the
    connection; the server extension cartas_server.links now gives the 414 page, whose index
    link is the one beside the dashboard (/voila/render/notebooks/index.ipynb there)."""
    process, base = start_jupyter_server(ROOT, tmp_path / "server.log")
    try:
        port = int(base.rsplit(":", 1)[1])
        assert_too_long_pages(long_link_answers(port, "/voila/render/notebooks/cenarios.ipynb"),
                              "/voila/render/notebooks/index.ipynb")
        with urllib.request.urlopen(f"{base}/static/favicon.ico?x={'A' * 60_000}", timeout=30) as reply:
            assert reply.status == 200
    finally:
        stop(process)


@pytest.mark.parametrize(("target", "index"), [
    ("/voila/render/cenarios.ipynb?cenario=AAA", "/voila/render/index.ipynb"),
    ("/voila/render/notebooks/manilhas.ipynb", "/voila/render/notebooks/index.ipynb"),
    ("/user/ana/voila/render/notebooks/cenarios.ipynb?x=1", "/user/ana/voila/render/notebooks/index.ipynb"),
    ("//evil.example/voila/render/cenarios.ipynb", None),
    ("/voila/render/x.ipynb/../'onclick=alert(1)", None),
    ("/hub/home?x=1", None),
    ("/" + "a/" * 2000 + "voila/render/x.ipynb", None),
])
def test_the_too_long_page_links_to_the_index_beside_the_dashboard_and_nowhere_else(target, index):
    assert index_of(target) == index
    page = too_long_page(70_000, index_of(target)).decode()
    assert ("href=" in page) == (index is not None)
    assert "evil" not in page and "onclick" not in page
