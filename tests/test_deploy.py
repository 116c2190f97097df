"""The JupyterHub deployment files say what deploy/jupyterhub/README.md promises.

What cannot be run offline (Kubernetes, Helm, docker build) is checked by reading: the values
file parses and sets the landing page, the server root and culling; the Dockerfile's install
steps are Binder's two steps, which tests/browser/test_binder_install.py performs for real.
"""
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy" / "jupyterhub"


def values():
    return yaml.safe_load((DEPLOY / "values.yaml").read_text())


def test_learners_land_on_the_course_index_served_from_the_image():
    singleuser = values()["singleuser"]
    assert singleuser["defaultUrl"] == "/voila/render/notebooks/index.ipynb"
    root = singleuser["notebookDir"]
    assert root == "/srv/cartas"
    assert f"COPY . {root}" in (DEPLOY / "Dockerfile").read_text()
    assert (ROOT / "notebooks" / "index.ipynb").exists()


def test_idle_servers_are_culled_by_the_hub():
    cull = values()["cull"]
    assert cull["enabled"] is True
    assert 0 < cull["every"] < cull["timeout"] <= 3600


def test_memory_limit_leaves_room_for_a_few_dashboards():
    memory = values()["singleuser"]["memory"]
    megabytes = {"M": 1, "G": 1024}
    limit = int(memory["limit"][:-1]) * megabytes[memory["limit"][-1]]
    assert limit >= 3 * 100


def test_the_image_installs_what_binder_installs_and_nothing_of_its_own():
    steps = [line for line in (DEPLOY / "Dockerfile").read_text().splitlines()
             if line.startswith(("RUN", "COPY"))]
    text = "\n".join(steps)
    assert "COPY binder/requirements.txt /tmp/requirements.txt" in text
    assert re.search(r"RUN python -m pip install -r /tmp/requirements\.txt$", text, re.M)
    assert "RUN bash binder/postBuild" in text
    extra = [s for s in steps if "pip install" in s and "requirements.txt" not in s]
    assert extra == ['RUN python -m pip install "jupyterhub>=5,<6"']  # the hub's server only


def test_the_image_serves_with_jupyterhubs_single_user_server_as_an_unprivileged_user():
    text = (DEPLOY / "Dockerfile").read_text()
    assert "USER jovyan" in text
    assert 'CMD ["jupyterhub-singleuser"]' in text
