"""The deployment files: Kubernetes manifests valid against the API schema, a sane Dockerfile."""

from pathlib import Path

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = sorted((ROOT / "deploy" / "k8s").glob("*.yaml"))
K8S_VERSION = "1.33.0"


def docs(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_manifest_is_valid_against_the_kubernetes_schema(path):
    for doc in docs(path):
        # strict: unknown fields (typos) fail too; raises ValidationError when invalid
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_the_validator_rejects_a_broken_manifest():
    bad = docs(ROOT / "deploy" / "k8s" / "deployment.yaml")[0]
    bad["spec"]["replicas"] = "three"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, K8S_VERSION, strict=True)


def by_kind() -> dict[str, dict]:
    return {d["kind"]: d for p in MANIFESTS for d in docs(p)}


def test_probes_use_streamlit_health_and_secret_is_shared():
    dep = by_kind()["Deployment"]
    (c,) = dep["spec"]["template"]["spec"]["containers"]
    assert c["readinessProbe"]["httpGet"]["path"] == "/_stcore/health"
    assert c["livenessProbe"]["httpGet"]["path"] == "/_stcore/health"
    env = {e["name"]: e for e in c["env"]}
    ref = env["STREAMLIT_SERVER_COOKIE_SECRET"]["valueFrom"]["secretKeyRef"]
    assert ref["name"] == by_kind()["Secret"]["metadata"]["name"]
    assert dep["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True


def test_ingress_pins_a_browser_to_one_pod():
    ann = by_kind()["Ingress"]["metadata"]["annotations"]
    assert ann["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    svc = by_kind()["Service"]
    assert svc["spec"]["selector"] == by_kind()["Deployment"]["spec"]["selector"]["matchLabels"]


def test_dockerfile_is_slim_non_root_with_health_check():
    text = (ROOT / "Dockerfile").read_text()
    assert text.splitlines()[1].startswith("FROM python:3.11-slim")
    assert "\nUSER lab\n" in text and "useradd" in text
    assert "HEALTHCHECK" in text and "/_stcore/health" in text
    assert "--no-deps -r requirements-model.txt" in text
    assert "STREAMLIT_CLIENT_SHOW_ERROR_DETAILS=none" in text
    # the one folder the app writes: the figures' script (attn_ui/figures/js_bundle.py)
    assert "install -d -o lab -g lab static" in text.split("\nUSER lab\n")[0]


def test_dockerfile_starts_the_app_through_serve_py():
    """serve.py turns Nagle's algorithm off (40 ms per interaction); the image must use it."""
    text = (ROOT / "Dockerfile").read_text()
    cmd = next(line for line in text.splitlines() if line.startswith("CMD "))
    assert cmd.startswith('CMD ["python", "serve.py", "app.py"')
    copied = " ".join(line for line in text.splitlines() if line.startswith("COPY "))
    assert "serve.py" in copied.split() and "app.py" in copied.split()


def container() -> dict:
    (c,) = by_kind()["Deployment"]["spec"]["template"]["spec"]["containers"]
    return c


def mib(quantity: str) -> float:
    units = {"Mi": 1, "Gi": 1024}
    return float(quantity[:-2]) * units[quantity[-2:]]


def test_a_replica_gets_the_memory_measured_for_it():
    """bench/bench_replica_memory.py: 964 MiB with 20 learners and 11 generations (383 MiB
    anonymous, 580 MiB mapped weights). The request covers that, the limit leaves room."""
    res = container()["resources"]
    assert mib(res["requests"]["memory"]) >= 964
    assert mib(res["limits"]["memory"]) >= 1.25 * 964


def test_readiness_waits_for_the_models_and_pods_leave_gracefully():
    c = container()
    env = {e["name"]: e.get("value") for e in c["env"]}
    assert env["ATTN_WARM_MODELS"] == "1"  # serve.py: health answers once the models load
    assert "ATTN_WARM_MODELS=1" in (ROOT / "Dockerfile").read_text()
    assert c["startupProbe"]["httpGet"]["path"] == "/_stcore/health"
    spec = by_kind()["Deployment"]["spec"]
    grace = spec["template"]["spec"]["terminationGracePeriodSeconds"]
    pre_stop = c["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep" and int(pre_stop[1]) < grace
    assert spec["strategy"]["rollingUpdate"]["maxUnavailable"] == 0  # new pod ready first


def test_a_disruption_takes_at_most_one_pod():
    pdb = by_kind()["PodDisruptionBudget"]
    dep = by_kind()["Deployment"]
    assert pdb["spec"]["selector"]["matchLabels"] == dep["spec"]["selector"]["matchLabels"]
    assert pdb["spec"]["maxUnavailable"] == 1 < dep["spec"]["replicas"]


def test_make_class_runs_the_ingress_topology():
    """deploy/haproxy.cfg, as deploy/class_run.py fills it: a cookie names the replica, the
    same health path as the probes, a websocket kept as long as the Ingress keeps it."""
    from deploy.class_run import Classroom

    room = Classroom(replicas=3, port=8600, bind="127.0.0.1")
    cfg = room.config()
    ann = by_kind()["Ingress"]["metadata"]["annotations"]
    assert "cookie attn_replica insert" in cfg
    for r in room.servers:
        assert f"server {r.name} 127.0.0.1:{r.port} cookie {r.name}" in cfg
    assert "option httpchk GET /_stcore/health" in cfg
    assert "option redispatch" in cfg
    assert "timeout tunnel 1h" in cfg
    assert int(ann["nginx.ingress.kubernetes.io/proxy-read-timeout"]) == 3600
    assert "bind 127.0.0.1:8600" in cfg


def test_the_app_and_its_database_share_one_secret():
    """Every pod reads DATABASE_URL from the Secret; the database's StatefulSet takes its
    password from the same Secret and keeps its data on a volume; the URL names its Service."""
    docs_all = [d for p in MANIFESTS for d in docs(p)]
    secret = next(d for d in docs_all if d["kind"] == "Secret")
    (c,) = by_kind()["Deployment"]["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e for e in c["env"]}
    ref = env["DATABASE_URL"]["valueFrom"]["secretKeyRef"]
    assert ref["name"] == secret["metadata"]["name"] and ref["key"] in secret["stringData"]
    db = next(d for d in docs_all if d["kind"] == "StatefulSet")
    (pg,) = db["spec"]["template"]["spec"]["containers"]
    pw = {e["name"]: e for e in pg["env"]}["POSTGRES_PASSWORD"]["valueFrom"]["secretKeyRef"]
    assert pw["name"] == secret["metadata"]["name"] and pw["key"] in secret["stringData"]
    assert db["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] in {
        m["name"] for m in pg["volumeMounts"]
    }
    service = next(
        d for d in docs_all if d["kind"] == "Service" and d["spec"].get("clusterIP") == "None"
    )
    assert f"@{service['metadata']['name']}:5432/" in secret["stringData"]["database-url"]
    assert secret["stringData"]["database-url"].startswith("postgresql+psycopg://")
