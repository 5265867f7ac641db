"""The MCP server driven by the ``mcp`` SDK's own client: over stdio (``langmem-es mcp``) and
over streamable HTTP (``langmem-es serve``, ``/mcp/``)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from .conftest import Server, cli_env

TOOLS = {"remember", "recall", "forget", "record_outcome"}
IDENTITY_FIELDS = {"tenant_id", "tenant", "user_id", "agent_id", "thread_id", "roles", "workspace_id"}


@asynccontextmanager
async def stdio_session(db: Path, *identity: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable, env=cli_env(), args=["-m", "langmem_es_cli.main", "mcp", "--path", str(db), *identity]
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def http_session(server: Server, who: str, **headers: str) -> AsyncIterator[ClientSession]:
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {server.tokens[who]}", **headers}) as http,
        streamable_http_client(server.url + "/mcp/", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, **args) -> tuple[bool, str]:
    result = await session.call_tool(tool, args)
    return bool(result.is_error), "\n".join(c.text for c in result.content if hasattr(c, "text"))


def memory_id(text: str) -> str:
    return re.search(r"\[(?:semantic|episodic|procedural) ([0-9a-f]+)\]", text).group(1)


async def exercise_every_tool(session: ClientSession) -> None:
    listed = (await session.list_tools()).tools
    assert {t.name for t in listed} == TOOLS
    for t in listed:
        assert t.description and t.input_schema["type"] == "object"
        assert not IDENTITY_FIELDS & set(t.input_schema.get("properties", {}))  # identity is not an argument
        assert "state" not in t.input_schema.get("properties", {})  # nor the graph's state (LangGraph injects it)
    err, text = await call(session, "recall", query="anything", state={"messages": []})
    assert err and "unknown argument(s) ['state']" in text

    err, text = await call(
        session,
        "remember",
        content="Sam keeps the spare key under the blue pot.",
        reason="Sam asked to be reminded where it is.",
        subject_key="user.spare_key",
    )
    assert not err and text.startswith("Remembered [semantic ") and "(created, private)" in text
    fact = memory_id(text)
    err, text = await call(session, "recall", query="where is the spare key?")
    assert not err and "spare key under the blue pot" in text and fact in text

    err, text = await call(
        session,
        "remember",
        content="Fix a stuck smart hub by power-cycling it.",
        kind="procedural",
        reason="A fix worth reusing.",
        steps=["unplug the hub", "wait ten seconds", "plug it back in"],
    )
    assert not err, text
    playbook = memory_id(text)
    err, text = await call(session, "record_outcome", playbook_id=playbook, success=False, problem="smart hub offline")
    assert not err and "Recorded failure" in text and "failed 1x" in text
    err, text = await call(session, "recall", query="smart hub", problem="smart hub offline")
    assert not err and "Withheld" in text and playbook in text

    err, text = await call(session, "forget", ids=[fact])
    assert not err and text == f"Forgot 1: {fact}."
    err, text = await call(session, "recall", query="where is the spare key?", kinds=["semantic"])
    assert not err and "blue pot" not in text


async def widening_is_refused(session: ClientSession, foreign_id: str) -> None:
    err, text = await call(session, "recall", query="anything", tenant_id="globex")
    assert err and "unknown argument" in text and "tenant_id" in text
    err, text = await call(session, "remember", content="x is y.", reason="r", user_id="ravi")
    assert err and "never from tool arguments" in text
    err, text = await call(session, "forget", ids=[foreign_id])
    assert err and f"no memory {foreign_id!r} in your scopes" in text
    err, text = await call(session, "record_outcome", playbook_id=foreign_id, success=True)
    assert err and "scopes" in text
    err, text = await call(session, "recall", query="x", k="lots")
    assert err and "invalid arguments" in text and "k" in text
    err, text = await call(session, "remember", content="The user likes tea.", scope="everyone")
    assert err and "scope" in text


async def test_stdio_lists_and_calls_every_tool_and_refuses_widening(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    async with stdio_session(db, "--tenant", "acme", "--user", "ravi") as ravi:
        err, text = await call(
            ravi, "remember", content="Ravi's desk is 4B.", reason="Visitors ask.", subject_key="user.desk"
        )
        foreign = memory_id(text)
    async with stdio_session(db, "--tenant", "acme", "--user", "sam") as sam:
        await exercise_every_tool(sam)
        await widening_is_refused(sam, foreign)
        err, text = await call(sam, "recall", query="Ravi desk")
        assert not err and foreign not in text
    async with stdio_session(db, "--tenant", "acme", "--user", "ravi") as ravi:
        err, text = await call(ravi, "recall", query="Which desk is Ravi at?")
        assert foreign in text  # untouched by sam's attempts


def test_stdio_without_an_identity_exits_with_a_one_line_error(tmp_path: Path) -> None:
    env = {k: v for k, v in cli_env().items() if k not in ("LANGMEM_ES_TENANT", "LANGMEM_ES_USER_ID")}
    out = subprocess.run(
        [sys.executable, "-m", "langmem_es_cli.main", "mcp", "--path", str(tmp_path / "m.db")],
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        (
            "langmem-es: error: IdentityError: mcp needs an identity: --tenant and --user (or --agent), or "
            "LANGMEM_ES_TENANT and LANGMEM_ES_USER_ID"
        )
    ]


async def test_stdio_identity_from_the_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LANGMEM_ES_TENANT", "acme")
    monkeypatch.setenv("LANGMEM_ES_USER_ID", "sam")
    async with stdio_session(tmp_path / "m.db") as sam:
        err, text = await call(sam, "remember", content="Sam's badge number is 88.", reason="Front desk asks.")
        assert not err and "(created, private)" in text


async def test_the_conversation_scope_over_stdio_and_http(tmp_path: Path, server: Server) -> None:
    """An MCP client names its chat: notes of that chat stay in it (stdio: --conversation; HTTP: a header)."""
    async with stdio_session(tmp_path / "c.db", "--tenant", "acme", "--user", "sam", "--conversation", "chat-1") as sam:
        err, text = await call(sam, "remember", content="The draft is in room 4.", reason="r", scope="conversation")
        assert not err and "conversation" in text, text
    async with stdio_session(tmp_path / "c.db", "--tenant", "acme", "--user", "sam") as sam:
        err, text = await call(sam, "remember", content="The draft is in room 5.", reason="r", scope="conversation")
        assert err and "--conversation" in text
    header = {"X-Conversation-Id": "chat-7"}
    async with http_session(server, "member", **header) as sam:
        err, text = await call(
            sam, "remember", content="zqmcpconv The draft is in room 9.", reason="r", scope="conversation"
        )
        assert not err, text
        err, text = await call(sam, "recall", query="Where is the draft?")
        assert "room 9" in text
    async with http_session(server, "member2", **header) as ravi:  # the same chat id: not ravi's conversation
        err, text = await call(ravi, "recall", query="Where is the draft?")
        assert "room 9" not in text


async def test_streamable_http_lists_and_calls_every_tool_per_token(server: Server) -> None:
    async with http_session(server, "member2") as ravi:
        err, text = await call(
            ravi, "remember", content="Ravi parks in bay 12.", reason="Visitors ask.", subject_key="user.parking_bay"
        )
        foreign = memory_id(text)
    async with http_session(server, "member") as sam:
        await exercise_every_tool(sam)
        await widening_is_refused(sam, foreign)
    async with http_session(server, "other") as gil:  # another tenant sees nothing of acme
        err, text = await call(gil, "recall", query="Who parks in bay 12?")
        assert not err and foreign not in text and "bay 12" not in text


@pytest.mark.parametrize(
    "headers", [{}, {"Authorization": "Bearer nope-nope-nope"}, {"Authorization": "Bearer tok-expired-sam"}]
)
def test_streamable_http_without_a_valid_token_is_refused(server: Server, headers: dict) -> None:
    r = httpx.post(
        server.url + "/mcp/",
        headers={**headers, "Accept": "application/json, text/event-stream"},
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
    )
    assert r.status_code == 401 and r.json()["error"] == "AuthenticationError"


async def test_shared_scope_over_mcp_only_when_the_server_opts_in(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    async with stdio_session(db, "--tenant", "acme", "--user", "olga", "--role", "owner") as plain:
        [remember] = [t for t in (await plain.list_tools()).tools if t.name == "remember"]
        assert "shared" not in str(remember.input_schema["properties"]["scope"])
        err, text = await call(
            plain, "remember", content="The office closes at 6pm.", reason="Visitors ask.", scope="shared"
        )
        assert err
    async with stdio_session(db, "--tenant", "acme", "--user", "olga", "--role", "owner", "--mcp-shared") as owner:
        err, text = await call(
            owner,
            "remember",
            content="The office closes at 6pm.",
            reason="Visitors ask.",
            scope="shared",
            subject_key="office.closing_time",
        )
        assert not err and "(created, shared)" in text
    async with stdio_session(db, "--tenant", "acme", "--user", "sam", "--mcp-shared") as member:
        err, text = await call(
            member,
            "remember",
            content="The office closes at 8pm.",
            reason="Visitors ask.",
            scope="shared",
            subject_key="office.closing_time",
        )
        assert err and "may not write" in text
        err, text = await call(member, "recall", query="When does the office close?")
        assert "6pm" in text and "8pm" not in text
