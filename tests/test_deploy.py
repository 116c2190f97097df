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


# The class service (deploy/jupyterhub/README.md, classroom/service.py) ---------------------
def test_the_class_service_runs_as_a_hub_service_with_its_command_and_a_bounded_pool():
    hub = values()["hub"]
    service = hub["services"]["cartas"]
    command = service["command"]
    assert command[:3] == ["python", "-m", "classroom.service"]
    pool = int(command[command.index("--pool-size") + 1])
    assert 2 <= pool <= 20
    port = int(service["url"].rsplit(":", 1)[1])
    assert {p["port"] for p in hub["service"]["extraPorts"]} == {port}  # the proxy reaches it there
    role = hub["loadRoles"]["cartas-service"]
    assert role["services"] == ["cartas"]
    assert set(role["scopes"]) == {"read:users", "read:groups", "list:groups"}


class _Config:
    """Just enough of traitlets' config object for hub.extraConfig."""

    def __init__(self, services):
        self.JupyterHub = type("JupyterHub", (), {"services": services})()


def test_the_database_url_comes_from_a_secret_and_reaches_the_class_service_alone(monkeypatch):
    doc = values()
    text = (DEPLOY / "values.yaml").read_text()
    assert "postgresql://" not in text  # no credentials in the values file
    secret = doc["hub"]["extraEnv"]["CARTAS_DATABASE_URL"]["valueFrom"]["secretKeyRef"]
    assert secret == {"name": "cartas-db", "key": "url"}
    extra_env = doc["singleuser"]["extraEnv"]
    assert not {"CARTAS_DATABASE_URL", "CARTAS_DB", "CARTAS_PROGRESS"} & set(extra_env)
    # run the hub's extra config as z2jh does: the URL lands in the service's environment only
    services = [{"name": "cartas", **doc["hub"]["services"]["cartas"]}, {"name": "other"}]
    monkeypatch.setenv("CARTAS_DATABASE_URL", "postgresql://cartas:pw@db/cartas")
    exec(doc["hub"]["extraConfig"]["cartas-service"], {"c": _Config(services)})
    assert services[0]["environment"] == {"CARTAS_DATABASE_URL": "postgresql://cartas:pw@db/cartas"}
    assert "environment" not in services[1]


def test_learners_servers_reach_the_class_service_through_the_proxy():
    singleuser = values()["singleuser"]
    assert singleuser["extraEnv"]["CARTAS_SERVICE_URL"].endswith("/services/cartas/")
    rule = singleuser["networkPolicy"]["egress"][0]
    assert rule["to"][0]["podSelector"]["matchLabels"]["component"] == "proxy"


def test_each_class_has_its_teachers_group_the_service_knows():
    doc = values()
    groups = doc["hub"]["config"]["JupyterHub"]["load_groups"]
    command = doc["hub"]["services"]["cartas"]["command"]
    prefix = command[command.index("--teachers-group") + 1] + "-"
    classes = [g for g in groups if not g.startswith(prefix)]
    assert classes and all(prefix + g in groups for g in classes)


def test_the_old_json_progress_path_is_gone_from_the_deployment():
    assert "CARTAS_PROGRESS" not in (DEPLOY / "values.yaml").read_text()


def test_the_class_service_as_its_own_deployment_gets_the_url_from_the_secret():
    docs = list(yaml.safe_load_all((DEPLOY / "class-service.yaml").read_text()))
    deployment = next(d for d in docs if d["kind"] == "Deployment")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["command"][:3] == ["python", "-m", "classroom.service"]
    env = {e["name"]: e for e in container["env"]}
    assert env["CARTAS_DATABASE_URL"]["valueFrom"]["secretKeyRef"] == {"name": "cartas-db", "key": "url"}
    assert "JUPYTERHUB_API_URL" in env and "JUPYTERHUB_API_TOKEN" in env
    assert {d["kind"] for d in docs} == {"Deployment", "Service"}


def test_the_hub_image_installs_cartas_for_the_class_service():
    text = (DEPLOY / "Dockerfile.hub").read_text()
    assert "COPY . /srv/cartas" in text and "--no-deps /srv/cartas" in text
    assert "psycopg_pool" in text
