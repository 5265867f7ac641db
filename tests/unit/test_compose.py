"""docker-compose.yml cannot run here (no Docker): keep it right by review and this test."""

from __future__ import annotations

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
    assert services["kibana"]["environment"]["ELASTICSEARCH_PASSWORD"].startswith(
        "${KIBANA_PASSWORD")
    assert services["kibana"]["environment"]["ELASTICSEARCH_USERNAME"] == "kibana_system"
    example = (ROOT / ".env.example").read_text()
    for key in ("ELASTIC_PASSWORD=", "KIBANA_PASSWORD=", "LANGMEM_ES_URL="):
        assert key in example


def test_healthchecks_and_start_order():
    services = load()["services"]
    for name in ("es01", "kibana"):
        assert services[name]["healthcheck"]["test"], name
    assert services["setup"]["depends_on"]["es01"]["condition"] == "service_healthy"
    assert services["kibana"]["depends_on"]["setup"]["condition"] == (
        "service_completed_successfully")
    assert "kibana_system/_password" in services["setup"]["command"]


def test_ports_bound_to_localhost_only():
    services = load()["services"]
    for name in ("es01", "kibana"):
        for port in services[name]["ports"]:
            assert port.startswith("127.0.0.1:"), port
