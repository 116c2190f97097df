"""What Binder builds from binder/ alone serves the dashboards.

A copy of the repository is installed into a fresh virtual environment the way repo2docker
does it when binder/ exists (binder/requirements.txt, then binder/postBuild run from the
repository), with no help from pyproject's test extras or the Makefile. That environment's
`jupyter server` then serves the index dashboard to Chromium, fetching nothing from outside.
It starts from another working directory (as JupyterHub's single-user server does from the
home folder), so only what the install put into the environment configures it.

The same two steps are the install steps of deploy/jupyterhub/Dockerfile (checked in
tests/test_deploy.py). The requirements are installed by uv (`uv pip install -r`, the installer
`make install` uses, from its warm cache: a few seconds), which reads binder/requirements.txt as
pip does and installs the same versions; postBuild's own `pip install --no-deps .` runs as written.
"""
from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from serving import ROOT, start_jupyter_server, stop

pytestmark = pytest.mark.binder
NOT_SHIPPED = shutil.ignore_patterns(".venv", ".git", "build", "screenshots", "__pycache__",
                                     "*.egg-info", ".pytest_cache", ".hypothesis")


INSTALL_TIMEOUT = 1200  # seconds: a cold pip install on a busy 2-core machine took 350 s in make test
UV = Path(sys.executable).with_name("uv")  # the test environment's (pyproject's test extras)


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT, **kwargs)
    assert result.returncode == 0, f"{command} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def test_binder_folder_alone_installs_an_environment_that_serves_the_index(browser, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=NOT_SHIPPED)
    venv = tmp_path / "env"
    run([sys.executable, "-m", "venv", str(venv)])
    python = str(venv / "bin" / "python")
    # the packages' bytecode is left to their first import, as pip --no-compile would (pip itself
    # took 32 s here with a warm cache, 65 s compiling); what is installed is the same as repo2docker's
    run([str(UV), "pip", "install", "--quiet", "--python", python, "-r", "binder/requirements.txt"], cwd=repo)
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(venv)}
    env.pop("PYTHONPATH", None)
    run(["bash", "binder/postBuild"], cwd=repo, env=env)
    home = tmp_path / "home"
    home.mkdir()
    token = secrets.token_hex(16)
    process, base = start_jupyter_server(repo, tmp_path / "server.log", token=token,
                                         python=python, cwd=home,
                                         extra_env={"PATH": env["PATH"], "VIRTUAL_ENV": str(venv),
                                                    "CARTAS_PROGRESS": str(tmp_path / "p.json"),
                                                    "CARTAS_DB": str(tmp_path / "cartas.db"),
                                                    "CARTAS_DATABASE_URL": ""})
    try:
        outside = []
        page = browser.new_page()
        page.set_default_timeout(90_000)
        page.on("request", lambda request: outside.append(request.url)
                if urlsplit(request.url).netloc not in ("", urlsplit(base).netloc) else None)
        page.goto(f"{base}/voila/render/notebooks/index.ipynb?token={token}&lang=en")
        rows = page.locator(".cartas-index li[data-lesson]")
        rows.first.wait_for(state="attached")  # in its folded group
        page.wait_for_selector(".cartas-whose[data-state='ready']")  # the browser said who is there
        assert "not started yet" in rows.first.text_content()
        page.close()
        assert outside == []
    finally:
        stop(process)
