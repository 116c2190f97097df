"""The dashboards as Binder and JupyterHub serve them: `jupyter server` started from the
repository root with Voilà as its extension, dashboards under /voila/render/notebooks/.

The server reads Cartas' configuration (template, culling) from the environment, where
`pip install .` puts it (etc/jupyter/jupyter_server_config.json), as on Binder.
"""
from __future__ import annotations

import json
import secrets
import urllib.request
from urllib.parse import urlsplit

import pytest

from serving import ROOT, start_jupyter_server, stop

HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]


def scenario_link() -> str:
    """A shared link to a simple Paulista deal (the one place this test builds a scenario)."""
    from cartas import scenario

    return scenario.encode_link(scenario.truco_scenario("paulista", HANDS, "K♠", dealer=3))


@pytest.fixture(scope="module")
def extension_server(tmp_path_factory):
    token = secrets.token_hex(16)
    log = tmp_path_factory.mktemp("jupyter-server") / "server.log"
    process, base = start_jupyter_server(ROOT, log, token=token,
                                         extra_env={"CARTAS_PROGRESS": str(log.parent / "p.json")})
    try:
        yield base, token, log
    finally:
        stop(process)


def running_kernels(base: str, token: str) -> list[dict]:
    request = urllib.request.Request(f"{base}/api/kernels",
                                     headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


def test_index_lesson_and_scenario_links_work_under_jupyter_server(browser, extension_server):
    base, token, log = extension_server
    outside = []
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.set_default_timeout(90_000)
    page.on("request", lambda request: outside.append(request.url)
            if urlsplit(request.url).netloc not in ("", urlsplit(base).netloc) else None)
    page.goto(f"{base}/voila/render/notebooks/index.ipynb?token={token}")  # logs the browser in
    page.wait_for_selector(".cartas-whose[data-state='ready']")  # drawn for the learner at this browser
    page.locator(".cartas-index details[data-group='truco'] summary").click()  # the lessons' group unfolds
    page.locator(".cartas-index li[data-lesson='manilhas'] a").click()
    page.wait_for_selector(".cartas-manilhas svg[data-card]")
    assert urlsplit(page.url).path == "/voila/render/notebooks/manilhas.ipynb"
    page.goto(f"{base}/voila/render/notebooks/cenarios.ipynb?cenario={scenario_link()}")
    page.wait_for_selector(".cartas-scenario-table svg[data-card='7♥']")
    assert "Cenário aberto" in page.locator(".cartas-message").text_content()
    assert len(running_kernels(base, token)) >= 1
    page.close()
    assert outside == []
    # Cartas' server configuration was read: culling is on for the server's kernels.
    assert "Culling kernels with idle durations > 600 seconds" in log.read_text()
