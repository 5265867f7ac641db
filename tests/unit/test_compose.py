"""docker-compose.yml cannot run here (no Docker): keep it right by review and this test."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import yaml

from langmem_es_cli.local_es import ES_VERSION

ROOT = Path(__file__).resolve().parents[2]


def load():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_images_match_the_fetched_version():
    services = load()["services"]
    images = {name: svc["image"] for name, svc in services.items()}
    assert images["es01"] == f"docker.elastic.co/elasticsearch/elasticsearch:{ES_VERSION}"
    assert images["setup"] == images["es01"]
    assert images["kibana"] == f"docker.elastic.co/kibana/kibana:{ES_VERSION}"


def test_security_on_and_credentials_from_env_file():
    services = load()["services"]
    es = services["es01"]["environment"]
    assert es["xpack.security.enabled"] == "true"
    assert es["ELASTIC_PASSWORD"].startswith("${ELASTIC_PASSWORD")
    assert services["kibana"]["environment"]["ELASTICSEARCH_PASSWORD"].startswith("${KIBANA_PASSWORD")
    assert services["kibana"]["environment"]["ELASTICSEARCH_USERNAME"] == "kibana_system"
    example = (ROOT / ".env.example").read_text()
    for key in ("ELASTIC_PASSWORD=", "KIBANA_PASSWORD=", "LANGMEM_ES_URL="):
        assert key in example


def test_healthchecks_and_start_order():
    services = load()["services"]
    for name in ("es01", "kibana"):
        assert services[name]["healthcheck"]["test"], name
    assert services["setup"]["depends_on"]["es01"]["condition"] == "service_healthy"
    assert services["kibana"]["depends_on"]["setup"]["condition"] == ("service_completed_successfully")
    assert "kibana_system/_password" in services["setup"]["command"]


def test_ports_bound_to_localhost_only():
    services = load()["services"]
    for name in ("es01", "kibana"):
        for port in services[name]["ports"]:
            assert port.startswith("127.0.0.1:"), port


def _setup_script() -> str:
    """The setup service's bash script as the container runs it (compose turns ``$$`` into ``$``)."""
    argv = shlex.split(load()["services"]["setup"]["command"])
    assert argv[:2] == ["bash", "-c"]
    return argv[2].replace("$$", "$")


def _run_setup(tmp_path: Path, curl_body: str, tries: int = 3) -> subprocess.CompletedProcess[str]:
    # a stand-in for curl (no Docker, no Elasticsearch here): answers every request the same way
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "curl").write_text(f"#!/bin/sh\necho {shlex.quote(curl_body)}\necho x >> {tmp_path}/calls\n")
    (bin_dir / "curl").chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "SETUP_TRIES": str(tries),
        "SETUP_SLEEP": "0",
        "ELASTIC_PASSWORD": "wrong-password",
        "KIBANA_PASSWORD": "kibana-pw",
    }
    return subprocess.run(["bash", "-c", _setup_script()], env=env, capture_output=True, text=True, timeout=30)


def test_setup_gives_up_with_a_message_on_a_rejected_password(tmp_path: Path) -> None:
    proc = _run_setup(tmp_path, '{"error":{"type":"security_exception","reason":"unable to authenticate"}}')
    assert proc.returncode == 1
    assert "gave up after 3 tries to reach Elasticsearch as elastic (check ELASTIC_PASSWORD" in proc.stderr
    assert "security_exception" in proc.stderr  # the last answer is shown
    assert (tmp_path / "calls").read_text().count("x") == 3  # bounded, not forever


def test_setup_finishes_when_elasticsearch_answers(tmp_path: Path) -> None:
    proc = _run_setup(tmp_path, '{}{"cluster_name":"langmem-es"}')
    assert proc.returncode == 0, proc.stderr
    assert "All done!" in proc.stdout
