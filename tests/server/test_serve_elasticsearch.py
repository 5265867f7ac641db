"""``langmem-es serve --backend elasticsearch``: the same API and MCP server on a real cluster."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from .conftest import start_server, stop_server
from .test_http_api import recall_texts, remember
from .test_mcp import call, http_session, memory_id

pytestmark = pytest.mark.integration


@pytest.fixture
def es_server(es_basic, tmp_path: Path):
    prefix = f"test_serve_{uuid.uuid4().hex[:10]}"
    srv = start_server(tmp_path, "--backend", "elasticsearch", "--prefix", prefix)
    yield srv
    stop_server(srv)
    found = es_basic.indices.get(index=f"{prefix}-*", ignore_unavailable=True, allow_no_indices=True)
    if found:
        es_basic.indices.delete(index=",".join(sorted(found)))


async def test_http_api_and_mcp_on_elasticsearch_keep_tenants_apart(es_server) -> None:
    with es_server.client("member") as sam, es_server.client("other") as gil, es_server.client("owner") as olga:
        assert sam.get("/v1/health").json()["engine"] == "elasticsearch"
        mine = remember(sam, "Sam's parking permit is P-204.", subject_key="user.parking_permit")
        assert recall_texts(sam, "parking permit")[0] == "Sam's parking permit is P-204."
        assert "Sam's parking permit is P-204." not in recall_texts(gil, "parking permit")
        assert gil.get(f"/v1/memories/{mine['id']}").status_code == 404
        assert olga.get(f"/v1/memories/{mine['id']}").status_code == 404  # an owner does not read private memories
    async with http_session(es_server, "member") as session:
        err, text = await call(
            session, "remember", content="Sam's team meets on Thursdays.", reason="Planning.", kind="episodic"
        )
        assert not err, text
        err, text = await call(session, "recall", query="When does Sam's team meet?")
        assert not err and memory_id(text) and "Thursdays" in text
