"""The HTTP API through httpx against a running ``langmem-es serve`` (embedded store)."""

from __future__ import annotations

import json

import httpx
import pytest

from .conftest import Server, start_server, stop_server

WHY = "Answers about local weather and travel depend on it."


def remember(c: httpx.Client, content: str, **kw) -> dict:
    r = c.post("/v1/memories", json={"content": content, "reason": WHY, **kw})
    assert r.status_code == 201, r.text
    return r.json()


def recall_texts(c: httpx.Client, query: str, **kw) -> list[str]:
    r = c.post("/v1/recall", json={"query": query, **kw})
    assert r.status_code == 200, r.text
    return [m["memory"]["content"] for m in r.json()["memories"]]


def test_openapi_and_health_are_served(server: Server) -> None:
    with server.client() as c:
        schema = c.get("/openapi.json").json()
        assert {
            "/v1/memories",
            "/v1/recall",
            "/v1/forget",
            "/v1/conflicts/{conflict_id}/resolve",
            "/v1/export",
            "/v1/import",
            "/v1/purge",
            "/v1/history/{key_or_id}",
            "/v1/health",
        } <= set(schema["paths"])
        assert c.get("/v1/health").json()["status"] == "ok"


@pytest.mark.parametrize(
    "headers, message",
    [
        ({}, "missing bearer token"),
        ({"Authorization": "Bearer not-a-token"}, "unknown bearer token"),
        ({"Authorization": "Basic dXNlcjpwdw=="}, "malformed Authorization header"),
        ({"Authorization": "Bearer tok-expired-sam"}, "bearer token expired"),
    ],
)
def test_missing_unknown_malformed_or_expired_tokens_get_401(server: Server, headers, message) -> None:
    r = httpx.post(server.url + "/v1/recall", json={"query": "anything"}, headers=headers)
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    assert r.json()["error"] == "AuthenticationError" and message in r.json()["message"]


def test_remember_recall_get_and_history_round_trip(server: Server) -> None:
    with server.client("member") as c:
        assert c.get("/v1/whoami").json() == {
            "tenant": "acme",
            "user_id": "sam",
            "agent_id": "desk-sam",
            "conversation_id": None,
            "roles": ["member"],
        }
        first = remember(c, "Sam lives in Bristol.", subject_key="user.home_city")
        second = remember(c, "Sam moved to Edinburgh.", subject_key="user.home_city")
        assert second["action"] == "superseded" and second["superseded"] == [first["id"]]
        assert recall_texts(c, "Where does Sam live?", kinds=["semantic"])[0] == "Sam moved to Edinburgh."
        got = c.get(f"/v1/memories/{first['id']}").json()
        assert got["status"] == "superseded" and got["superseded_by"] == second["id"]
        versions = c.get("/v1/history/user.home_city").json()
        assert [v["content"] for v in versions] == ["Sam lives in Bristol.", "Sam moved to Edinburgh."]


def test_another_tenants_ids_answer_like_unknown_ones(server: Server) -> None:
    with server.client("member") as sam, server.client("other") as gil:
        mine = remember(sam, "Sam's locker code is 4711.", subject_key="user.locker_code")
        assert "Sam's locker code is 4711." not in recall_texts(gil, "locker code")
        foreign, unknown = gil.get(f"/v1/memories/{mine['id']}"), gil.get("/v1/memories/ffffffffffffffffffffffff")
        assert foreign.status_code == unknown.status_code == 404
        assert foreign.json()["error"] == "NotFound"
        f1 = gil.post("/v1/forget", json={"ids": [mine["id"]]})
        f2 = gil.post("/v1/forget", json={"ids": ["ffffffffffffffffffffffff"]})
        assert f1.status_code == f2.status_code == 403 and f1.json()["error"] == "ScopeViolationError"
        assert f1.json()["message"].replace(mine["id"], "X") == f2.json()["message"].replace(
            "ffffffffffffffffffffffff", "X"
        )
        assert gil.get("/v1/history/user.locker_code").status_code == 404
        assert gil.post("/v1/outcomes", json={"playbook_id": mine["id"], "success": True}).status_code == 403
        # and the memory is untouched
        assert sam.get(f"/v1/memories/{mine['id']}").json()["status"] == "active"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"query": "x", "k": "many"}, "k"),
        ({"query": 42}, "query"),
        ({"query": "x", "kinds": ["dreams"]}, "kinds"),
        ({"query": "x", "tenant": "globex"}, "tenant"),
        ({"query": "x", "user_id": "gil"}, "user_id"),
        ({"query": ""}, "query"),
        ({}, "query"),
    ],
)
def test_wrong_types_and_identity_fields_in_bodies_get_422(server: Server, body, field) -> None:
    with server.client("member") as c:
        r = c.post("/v1/recall", json=body)
    assert r.status_code == 422 and r.json()["error"] == "InvalidRequest" and field in r.json()["message"]


def test_library_validation_comes_back_typed_with_the_library_message(server: Server) -> None:
    with server.client("member") as c:
        r = c.post("/v1/memories", json={"content": "The user likes tea.", "kind": "semantic"})  # no reason
        assert r.status_code == 422 and r.json()["error"] == "InvalidMemoryError" and "reason" in r.json()["message"]
        r = c.post("/v1/forget", json={})
        assert r.status_code == 422 and r.json()["error"] == "InvalidMemoryError"
        r = c.post("/v1/recall", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 422


def test_oversized_bodies_get_413_declared_or_streamed(server: Server) -> None:
    big = json.dumps({"query": "x" * 2_000_000}).encode()
    with server.client("member") as c:
        r = c.post("/v1/recall", content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "TooLarge"

        def chunks():
            for i in range(0, len(big), 65536):
                yield big[i : i + 65536]

        r = c.post("/v1/recall", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "TooLarge"
        r = c.post("/mcp/", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert c.get("/v1/health").status_code == 200  # and the server goes on


def test_owner_resolves_a_conflict_and_recall_shows_the_winner(server: Server) -> None:
    key = "office.wifi_password"
    with server.client("member") as sam, server.client("member2") as ravi, server.client("owner") as olga:
        a = remember(sam, "The office wifi password is tulip-7.", subject_key=key, scope="shared")
        b = remember(ravi, "The office wifi password is orchid-9.", subject_key=key, scope="shared")
        assert b["action"] == "conflict"
        [conflict] = [c for c in olga.get("/v1/conflicts").json() if c["id"] == b["conflict_id"]]
        assert conflict["memory_ids"] == [a["id"], b["id"]]
        r = olga.post(f"/v1/conflicts/{conflict['id']}/resolve", json={"winner": a["id"]})
        assert r.status_code == 200 and r.json()["status"] == "resolved"
        assert (
            recall_texts(ravi, "office wifi password", kinds=["semantic"])[0] == "The office wifi password is tulip-7."
        )
        again = olga.post(f"/v1/conflicts/{conflict['id']}/resolve", json={"winner": a["id"]})
        assert again.status_code == 422 and "already resolved" in again.json()["message"]
        assert olga.post("/v1/conflicts/nope/resolve", json={"winner": a["id"]}).status_code == 422
        entries = olga.get("/v1/audit", params={"action": "resolve"}).json()
        assert any(e.get("conflict_id") == conflict["id"] for e in entries)


def test_offboarding_export_purge_and_import_back(server: Server) -> None:
    with server.client("member2") as ravi, server.client("owner") as olga, server.client("member") as sam:
        seat = remember(ravi, "Ravi prefers aisle seats.", subject_key="user.seat")
        assert sam.get("/v1/export", params={"preset": "offboarding", "user_id": "ravi"}).status_code == 403
        records = olga.get("/v1/export", params={"preset": "offboarding", "user_id": "ravi"}).json()
        assert any(r.get("id") == seat["id"] for r in records)
        assert sam.post("/v1/purge", json={"user_id": "ravi"}).json()["error"] == "PermissionDeniedError"
        removed = olga.post("/v1/purge", json={"user_id": "ravi"}).json()["removed"]
        assert removed["semantic"]["private"] >= 1
        assert ravi.get(f"/v1/memories/{seat['id']}").status_code == 404
        mine = [r for r in records if r.get("record") != "tombstone" and r["scope"] == "private"]
        r = ravi.post("/v1/import", json={"records": mine, "scope": "private"})
        assert r.status_code == 200 and seat["id"] in r.json()["ids"]
        assert "Ravi prefers aisle seats." in recall_texts(ravi, "seat preference")
        bad = ravi.post("/v1/import", json={"records": [{**mine[0], "content": 3}]})
        assert bad.status_code == 422 and bad.json()["error"] == "InvalidRequest", bad.text


def test_rate_limit_per_token_answers_429_with_retry_after(tmp_path) -> None:
    srv = start_server(tmp_path, "--rate", "1", "--burst", "3", "--embeddings", "fast")
    try:
        with srv.client("member") as c, srv.client("member2") as other:
            codes = [c.get("/v1/whoami").status_code for _ in range(6)]
            assert codes[:3] == [200, 200, 200] and 429 in codes[3:]
            limited = c.get("/v1/whoami")
            assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
            assert limited.json()["error"] == "RateLimited"
            assert other.get("/v1/whoami").status_code == 200  # per token, not global
    finally:
        stop_server(srv)


def test_answers_that_are_not_routes_or_json_keep_the_error_shape(server: Server) -> None:
    """A client parses one error shape: unknown routes, bodies that do not parse, broken JSON."""
    with server.client("member") as c:
        r = c.get("/v1/nope")
        assert r.status_code == 404 and r.json()["error"] == "NotFound" and "/v1/nope" in r.json()["message"]
        r = c.post("/v1/recall", content=b'{"query": "caf\xe9 \xff"}', headers={"content-type": "application/json"})
        assert r.status_code in (400, 422) and set(r.json()) == {"error", "message"}
        r = c.post("/v1/recall", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 422 and "not valid JSON" in r.json()["message"]
        r = c.post("/v1/recall", json={"query": "   "})
        assert r.status_code == 422 and r.json()["message"] == "query is empty"


def test_conversation_memories_over_http_are_the_callers_own(server: Server) -> None:
    """A client keeps notes for one chat with X-Conversation-Id; another member naming the same
    conversation id reaches only their own notes."""
    note = "zqconv The parcel code for this chat is 4471."
    thread = {"X-Conversation-Id": "chat-42"}
    with server.client("member") as sam, server.client("member2") as ravi:
        r = sam.post("/v1/memories", json={"content": note, "scope": "conversation", "reason": "r"}, headers=thread)
        assert r.status_code == 201, r.text
        found = sam.post("/v1/recall", json={"query": "parcel code for this chat"}, headers=thread).json()
        assert note in [m["memory"]["content"] for m in found["memories"]]
        elsewhere = sam.post("/v1/recall", json={"query": "parcel code for this chat"}).json()
        assert note not in [m["memory"]["content"] for m in elsewhere["memories"]]
        theirs = ravi.post("/v1/recall", json={"query": "parcel code for this chat"}, headers=thread).json()
        assert note not in [m["memory"]["content"] for m in theirs["memories"]]
        r = sam.post("/v1/memories", json={"content": "x", "scope": "conversation", "reason": "r"})
        assert r.status_code == 422 and "X-Conversation-Id" in r.json()["message"]
        r = sam.post("/v1/recall", json={"query": "x"}, headers={"X-Conversation-Id": "bad id/with spaces"})
        assert r.status_code == 422 and "X-Conversation-Id" in r.json()["message"]
        gone = sam.post("/v1/forget", json={"query": "the parcel code for this chat"}, headers=thread).json()
        assert gone["ids"] and gone["copies"] == []


def test_import_says_what_it_skipped_and_adopts_on_request(server: Server) -> None:
    """A handover over HTTP: another member's private records need adopt; what is not imported is counted."""
    with server.client("member") as sam, server.client("member2") as ravi:
        remember(sam, "zqhand Sam's supplier contact is Dana at Initech.", subject_key="handover.supplier")
        records = [
            r for r in sam.get("/v1/export").json() if r.get("record") != "tombstone" and "zqhand" in r["content"]
        ]
        refused = ravi.post("/v1/import", json={"records": records})
        assert refused.status_code == 403 and "adopt" in refused.json()["message"]
        took = ravi.post("/v1/import", json={"records": records, "adopt": True}).json()
        assert len(took["ids"]) == 1 and took["skipped"] == 0
        assert "zqhand Sam's supplier contact is Dana at Initech." in recall_texts(ravi, "supplier contact")
        shared = remember(sam, "zqhand The team standup is at 9:30.", scope="shared")
        again = [r for r in sam.get("/v1/export", params={"scopes": "shared"}).json() if r.get("id") == shared["id"]]
        out = ravi.post("/v1/import", json={"records": again, "scope": None}).json()
        assert out["ids"] == [] and out["skipped"] == 1 and "already here" in out["note"]
