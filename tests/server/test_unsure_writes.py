"""Issue 45: a write the belief rules could not decide says so beyond Python — in the HTTP
API's write response (``unsure`` and the note) and in the MCP ``remember`` tool's reply (the
same note the agent tool repeats), over stdio and over streamable HTTP."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import Server
from .test_mcp import call, http_session, stdio_session

WHY = "Answers about where the user lives depend on it."


def test_the_http_write_response_names_the_facts_kept_beside_it(server: Server) -> None:
    with server.client("member") as c:
        york = c.post("/v1/memories", json={"content": "I live in York.", "reason": WHY})
        leeds = c.post("/v1/memories", json={"content": "Home is Leeds.", "reason": WHY})  # moved, or a second home?
        assert york.status_code == leeds.status_code == 201
        body = leeds.json()
        assert body["action"] == "created" and body["superseded"] == []
        assert body["unsure"] == [york.json()["id"]] and "could not tell" in body["note"]
        assert c.get(f"/v1/memories/{york.json()['id']}").json()["status"] == "active"  # both stay
        decided = c.post("/v1/memories", json={"content": "My new place is in Hull.", "reason": WHY}).json()
        assert decided["unsure"] == [] and decided["action"] == "superseded"  # the rules decided: nothing unsure


def _ids(text: str) -> list[str]:
    return re.findall(r"\[semantic ([0-9a-f]+)\]", text)


async def test_the_mcp_remember_reply_says_unsure_over_stdio(tmp_path: Path) -> None:
    async with stdio_session(tmp_path / "m.db", "--tenant", "acme", "--user", "sam") as sam:
        err, first = await call(sam, "remember", content="I live in York.", reason=WHY)
        assert not err
        err, text = await call(sam, "remember", content="Home is Leeds.", reason=WHY)
        assert not err and "could not tell" in text and _ids(first)[0] in text


async def test_the_mcp_remember_reply_says_unsure_over_http(server: Server) -> None:
    async with http_session(server, "member2") as ravi:
        err, first = await call(ravi, "remember", content="I'm based in Oslo.", reason=WHY)
        assert not err
        err, text = await call(ravi, "remember", content="Home is Bergen.", reason=WHY)
        assert not err and "could not tell" in text and _ids(first)[0] in text
