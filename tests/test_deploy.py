"""The JupyterHub deployment files say what deploy/jupyterhub/README.md promises.

What cannot be run offline (Kubernetes, Helm, docker build) is checked by reading: the values
file parses and sets the landing page, the server root and culling; the Dockerfile's install
steps are Binder's two steps, which tests/browser/test_binder_install.py performs for real.
"""
import copy
import os
import re
from pathlib import Path

import pytest
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
    docs = manifests()
    deployment = next(d for d in docs if d["kind"] == "Deployment")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["command"][:3] == ["python", "-m", "classroom.service"]
    env = {e["name"]: e for e in container["env"]}
    assert env["CARTAS_DATABASE_URL"]["valueFrom"]["secretKeyRef"] == {"name": "cartas-db", "key": "url"}
    assert "JUPYTERHUB_API_URL" in env and "JUPYTERHUB_API_TOKEN" in env
    assert {d["kind"] for d in docs} == {"Deployment", "Service", "PodDisruptionBudget"}


# The class service in replicas on Kubernetes (issue 35, item 2) ----------------------------
KUBERNETES = "1.30.0"   # the oldest Kubernetes the manifests are checked against (z2jh 4.x runs on it)


def manifests() -> list[dict]:
    """class-service.yaml rendered as kubectl reads it: its documents, empty ones left out."""
    return [d for d in yaml.safe_load_all((DEPLOY / "class-service.yaml").read_text()) if d]


def _one(kind: str) -> dict:
    found = [d for d in manifests() if d["kind"] == kind]
    assert len(found) == 1, kind
    return found[0]


def _missing(message: str):
    """A checker that is not installed: a failure under CI=true, else a skip (as conftest's)."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


def test_the_class_service_manifests_match_kubernetes_schemas():
    try:
        import kubernetes_validate
    except ImportError:
        _missing("kubernetes-validate is not installed: make install (it is in the test extras)")
    for doc in manifests():
        # strict: a field Kubernetes does not know (a typo, a misplaced key) is refused too
        kubernetes_validate.validate(doc, KUBERNETES, strict=True)


def test_the_schema_check_refuses_a_broken_manifest():
    """The check above is a real one: a misplaced field and a wrong type are refused."""
    try:
        import kubernetes_validate
    except ImportError:
        _missing("kubernetes-validate is not installed: make install (it is in the test extras)")
    deployment = _one("Deployment")
    misplaced = copy.deepcopy(deployment)
    misplaced["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    wrong = copy.deepcopy(deployment)
    wrong["spec"]["replicas"] = "two"
    for broken in (misplaced, wrong):
        with pytest.raises(kubernetes_validate.ValidationError):
            kubernetes_validate.validate(broken, KUBERNETES, strict=True)


def test_the_replicas_sit_behind_one_service_with_a_budget_for_disruptions():
    deployment, service, budget = _one("Deployment"), _one("Service"), _one("PodDisruptionBudget")
    replicas = deployment["spec"]["replicas"]
    assert replicas >= 2
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= labels.items()                     # the Deployment owns its pods
    assert service["spec"]["selector"].items() <= labels.items()  # the Service reaches them
    assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
    spec = budget["spec"]
    if "minAvailable" in spec:
        assert 1 <= int(spec["minAvailable"]) < replicas
    else:   # maxUnavailable: at least one replica may go, at least one stays
        assert 1 <= int(spec["maxUnavailable"]) < replicas
    rollout = deployment["spec"]["strategy"]["rollingUpdate"]
    assert rollout["maxUnavailable"] == 0 and rollout["maxSurge"] >= 1


def test_the_probes_ask_the_services_cheap_health_on_its_port():
    from classroom.service import HealthHandler, make_app
    deployment, service = _one("Deployment"), _one("Service")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    ports = {p.get("name"): p["containerPort"] for p in container["ports"]}
    command = container["command"]
    listens = int(command[command.index("--port") + 1])
    assert listens in ports.values() and command[command.index("--ip") + 1] == "0.0.0.0"
    prefix = next(e["value"] for e in container["env"] if e["name"] == "JUPYTERHUB_SERVICE_PREFIX")
    app = make_app(None, prefix)  # type: ignore[arg-type]  # only its routes are read
    for probe in ("readinessProbe", "livenessProbe"):
        get = container[probe]["httpGet"]
        assert ports.get(get["port"], get["port"]) == listens
        path, _, query = get["path"].partition("?")
        handlers = [r.target for r in app.wildcard_router.rules if re.fullmatch(r.matcher.regex.pattern, path)]
        assert handlers == [HealthHandler] and query == "probe=1"
    target = service["spec"]["ports"][0]["targetPort"]
    assert ports.get(target, target) == listens
    # the hub's proxy reaches the Service at the URL values-replicas.yaml gives the hub
    url = replicas_values()["hub"]["services"]["cartas"]["url"]
    assert url == f"http://{service['metadata']['name']}:{service['spec']['ports'][0]['port']}"


def _quantity(text: str) -> float:
    """A Kubernetes quantity ("500m", "1", "256Mi") as a number (cores, or MiB)."""
    text = str(text)
    units = {"m": 1e-3, "Ki": 1 / 1024, "Mi": 1.0, "Gi": 1024.0}
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return float(text[:-len(suffix)]) * factor
    return float(text)


def test_each_replica_asks_for_what_the_benchmark_measured():
    resources = _one("Deployment")["spec"]["template"]["spec"]["containers"][0]["resources"]
    # benchmarks/school.py (README, "Capacity"): 2 replicas, ~0.30 core and ~130 MB each for 200 learners
    assert 0.5 <= _quantity(resources["requests"]["cpu"]) <= 2
    assert 128 <= _quantity(resources["requests"]["memory"]) <= _quantity(resources["limits"]["memory"])
    assert "cpu" not in resources["limits"]   # no throttling of a process every page waits on
    text = (DEPLOY / "README.md").read_text()
    assert "## Capacity" in text and "benchmarks/school.py" in text


def test_no_secret_is_written_in_the_manifests_only_referenced():
    text = (DEPLOY / "class-service.yaml").read_text() + (DEPLOY / "values-replicas.yaml").read_text()
    assert "postgresql://" not in text and not re.search(r"[0-9a-f]{32}", text)
    assert all(d["kind"] != "Secret" for d in manifests())
    for container in _one("Deployment")["spec"]["template"]["spec"]["containers"]:
        for env in container["env"]:
            if "TOKEN" in env["name"] or "DATABASE" in env["name"] or "PASSWORD" in env["name"]:
                assert "value" not in env and "secretKeyRef" in env["valueFrom"], env["name"]


def replicas_values() -> dict:
    return yaml.safe_load((DEPLOY / "values-replicas.yaml").read_text())


def _helm_merge(base: dict, over: dict) -> dict:
    """Values given to helm after `base`: maps merge, a null removes the key, the rest replaces."""
    out = dict(base)
    for key, value in over.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _helm_merge(out[key], value)
        else:
            out[key] = value
    return out


def test_with_replicas_the_hub_registers_the_service_by_url_and_token_and_never_sees_the_database(monkeypatch):
    doc = _helm_merge(values(), replicas_values())
    hub = doc["hub"]
    service = hub["services"]["cartas"]
    assert "command" not in service and service["url"].startswith("http://cartas-service:")
    assert "CARTAS_DATABASE_URL" not in hub["extraEnv"] and "cartas-service" not in hub["extraConfig"]
    token = hub["extraEnv"]["CARTAS_SERVICE_TOKEN"]["valueFrom"]["secretKeyRef"]
    replica_env = {e["name"]: e for e in _one("Deployment")["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert token == replica_env["JUPYTERHUB_API_TOKEN"]["valueFrom"]["secretKeyRef"]   # one token, both sides
    assert hub["loadRoles"]["cartas-service"]["services"] == ["cartas"]
    services = [{"name": "cartas", **service}, {"name": "other"}]
    monkeypatch.setenv("CARTAS_SERVICE_TOKEN", "the-token")
    for code in hub["extraConfig"].values():
        exec(code, {"c": _Config(services)})
    assert services[0]["api_token"] == "the-token" and "environment" not in services[0]
    assert "api_token" not in services[1]
    # learners' kernels ask the Service directly, and may: their egress reaches its pods
    singleuser = doc["singleuser"]
    assert singleuser["extraEnv"]["CARTAS_SERVICE_URL"] == f"{service['url']}/services/cartas/"
    allowed = [rule["to"][0]["podSelector"]["matchLabels"] for rule in singleuser["networkPolicy"]["egress"]]
    assert _one("Deployment")["spec"]["template"]["metadata"]["labels"]["app"] in [a.get("app") for a in allowed]
    proxy_egress = doc["proxy"]["chp"]["networkPolicy"]["egress"]
    assert proxy_egress[0]["to"][0]["podSelector"]["matchLabels"] == {"app": "cartas-service"}


def test_the_hub_image_installs_cartas_for_the_class_service():
    text = (DEPLOY / "Dockerfile.hub").read_text()
    assert "COPY . /srv/cartas" in text and "--no-deps /srv/cartas" in text
    assert "psycopg_pool" in text
    assert '"orjson>=3.9"' in text      # the service's answers are encoded by it (issue 35, item 5)


def test_the_hubs_proxy_reads_a_link_as_long_as_the_learners_servers_do():
    """Issue 33, item 10: node (configurable-http-proxy) answers a request line over 16 KB with
    a bare 431; the proxy's limit is the servers' (cartas_server.links.MAX_HEADERS), so a link
    too long reaches a server that answers it with a page (tests/hub: the real proxy)."""
    from cartas_server.links import MAX_HEADERS
    doc = values()
    assert doc["proxy"]["chp"]["extraEnv"]["NODE_OPTIONS"] == f"--max-http-header-size={MAX_HEADERS}"
    assert "serve_long_links()" in doc["hub"]["extraConfig"]["cartas-long-links"]
