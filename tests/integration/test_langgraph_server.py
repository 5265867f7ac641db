"""On LangGraph's own server: the deployment of ``examples/langgraph-server/`` (our store as the
server's store, its auth handler, the package's ``/store`` handler), driven with ``langgraph_sdk``.

The in-memory server of ``langgraph-cli[inmem]`` (``langgraph dev``) runs in a subprocess on a
free loopback port, once per backend (SQLite, Elasticsearch), from a copy of the example in a
temporary directory (the server writes its own files next to its ``langgraph.json``). The
model is the example's scripted one. Two bearer tokens: alice (tenant acme, role owner) and
mallory (tenant acme, member).

Stories: a fact told in one thread is recalled in the next for the same user; mallory
forging the configurable (alice's user, another tenant) makes the run fail with
``IdentityError`` and neither returns nor changes alice's memories; the server's ``/store``
endpoints refuse (403) mallory's reads and writes under alice's private namespace and under
another tenant, and serve her own.

Without ``langgraph-cli[inmem]`` the tests skip locally and FAIL in CI (``CI`` set or
``LANGMEM_ES_REQUIRED=1``); a server that does not come up is always a failure. (On Python
3.10 they skip: ``langgraph-api`` needs 3.11.)
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "langgraph-server"
START_TIMEOUT_S = 90.0
CALL_TIMEOUT_S = 60.0
TOKENS = {"alice": "alice-token", "mallory": "mallory-token"}


@dataclass(frozen=True)
class Server:
    url: str
    backend: str
    log: Path

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/ok", timeout=2) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server we started (its own process group), waiting a bounded time."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@contextlib.contextmanager
def _serve(workdir: Path, backend: str, env_extra: dict[str, str]) -> Iterator[Server]:
    shutil.copytree(EXAMPLE, workdir, ignore=shutil.ignore_patterns("__pycache__", ".langgraph_api", "*.db*"))
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = workdir / "server.log"
    env = {
        **os.environ,
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGSMITH_TRACING": "false",
        "LANGCHAIN_TRACING_V2": "false",
        "PYTHONUNBUFFERED": "1",
        "LANGMEM_ES_BACKEND": backend,
        "LANGMEM_ES_PATH": str(workdir / "memory.db"),
        **env_extra,
    }
    env.pop("LANGMEM_ES_EXAMPLE_MODEL", None)  # the scripted model, whatever the shell says
    cmd = [sys.executable, "-m", "langgraph_cli", "dev", "--no-browser", "--no-reload"]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--config", "langgraph.json"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(url=url, backend=backend, log=log)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _up(url):
            if proc.poll() is not None:
                pytest.fail(f"langgraph dev exited ({proc.returncode}):\n{server.log_tail()}", pytrace=False)
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev not up after {START_TIMEOUT_S:.0f}s:\n{server.log_tail()}", pytrace=False)
            time.sleep(0.25)
        yield server
    finally:
        _stop(proc)


@pytest.fixture(scope="module", params=["sqlite", "elasticsearch"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, es_unavailable: Callable[[str], None]
) -> Iterator[Server]:
    if sys.version_info < (3, 11):
        pytest.skip("LangGraph's local server (langgraph-api) needs Python 3.11 or later")
    missing = [
        m for m in ("langgraph_api", "langgraph_cli", "langgraph_runtime_inmem") if not importlib.util.find_spec(m)
    ]
    if missing:
        es_unavailable(f"LangGraph's local server is not installed ({missing}): pip install 'langgraph-cli[inmem]'")
    backend = request.param
    env: dict[str, str] = {}
    cleanup: Callable[[], None] = lambda: None  # noqa: E731
    if backend == "elasticsearch":
        from langmem_es.store import ElasticsearchMemoryStore

        conn = request.getfixturevalue("es_basic_conn")
        client = request.getfixturevalue("es_basic")
        prefix = f"test-lgserver-{uuid.uuid4().hex[:10]}"
        env = {"LANGMEM_ES_URL": conn.url, "LANGMEM_ES_PREFIX": prefix}
        env.update({k: v for k, v in (("LANGMEM_ES_USER", conn.user), ("LANGMEM_ES_PASSWORD", conn.password)) if v})
        if conn.api_key:
            env["LANGMEM_ES_API_KEY"] = conn.api_key

        def cleanup() -> None:
            with contextlib.suppress(Exception):
                backend: Any = ElasticsearchMemoryStore(client, prefix=prefix).memory.backend
                backend.drop()

    try:
        with _serve(tmp_path_factory.mktemp(f"lgserver-{backend}") / "app", backend, env) as running:
            yield running
    finally:
        cleanup()


def sdk(server: Server, user: str) -> Any:
    from langgraph_sdk import get_client

    return get_client(url=server.url, headers={"Authorization": f"Bearer {TOKENS[user]}"}, timeout=CALL_TIMEOUT_S)


def said(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def configurable(**values: str) -> dict[str, Any]:
    return {"configurable": values}


async def run(client: Any, thread_id: str, text: str, config: dict[str, Any] | None = None) -> dict[str, Any]:
    result = await asyncio.wait_for(
        client.runs.wait(thread_id, "agent", input=said(text), config=config), timeout=CALL_TIMEOUT_S
    )
    assert isinstance(result, dict), result
    return result


async def new_thread(client: Any) -> str:
    return str((await client.threads.create())["thread_id"])


def ns(kind: str, tenant: str, scope: str, owner: str) -> list[str]:
    return ["memories", kind, tenant, scope, owner]


ALICE_EPISODIC = ns("episodic", "acme", "private", "user:alice")


async def keys_under(client: Any, namespace: list[str]) -> set[tuple[tuple[str, ...], str]]:
    found = await client.store.search_items(namespace, limit=1000)
    return {(tuple(item["namespace"]), item["key"]) for item in found["items"]}


@contextlib.asynccontextmanager
async def refused() -> AsyncIterator[None]:
    with pytest.raises(httpx.HTTPStatusError) as err:
        yield
    assert err.value.response.status_code == 403, err.value.response.text


def unique(word: str) -> str:
    return f"{word}-{uuid.uuid4().hex[:6]}"


async def test_a_fact_told_in_one_thread_is_recalled_in_the_next(server: Server) -> None:
    alice = sdk(server, "alice")
    bike = unique("Brompton")
    told = await run(alice, await new_thread(alice), f"Remember that my bike is a green {bike}.")
    assert "Remembered" in told["messages"][-1]["content"], told  # the remember tool wrote it
    # a new thread; the identity comes from the bearer token alone (no configurable)
    state = await run(alice, await new_thread(alice), "What colour is my bike?")
    assert bike in state["memories"], state  # pre-recalled before the model ran
    answer = state["messages"][-1]["content"]
    assert f"My bike is a green {bike}." in answer, answer  # and recalled by the tool


@pytest.mark.parametrize(
    "forged",
    [
        configurable(tenant_id="acme", user_id="alice"),
        configurable(user_id="alice"),
        configurable(tenant_id="globex", user_id="mallory"),
        # the attack of issue 43: a client-made authenticated user (the server puts its own there)
        {"configurable": {"tenant_id": "acme", "user_id": "alice", "langgraph_auth_user": {"identity": "alice"}}},
    ],
    ids=["alice-of-acme", "alice", "other-tenant", "forged-auth-user"],
)
async def test_a_forged_configurable_is_refused_and_reaches_nothing(server: Server, forged: dict[str, Any]) -> None:
    alice, mallory = sdk(server, "alice"), sdk(server, "mallory")
    code = unique("locker")
    alice_thread = await new_thread(alice)
    await run(alice, alice_thread, f"My locker code is {code}.")
    before = await keys_under(alice, ALICE_EPISODIC)
    assert before

    thread = await new_thread(mallory)
    with pytest.raises(Exception) as err:
        await run(mallory, thread, "What is my locker code?", forged)
    assert "IdentityError" in str(err.value), err.value
    values = (await mallory.threads.get_state(thread))["values"]
    assert code not in str(values)
    assert await keys_under(alice, ALICE_EPISODIC) == before  # nothing of alice's written or forgotten
    with pytest.raises(httpx.HTTPStatusError) as other:  # nor is alice's thread mallory's
        await mallory.threads.get_state(alice_thread)
    assert other.value.response.status_code == 404


async def test_store_endpoints_are_confined_to_the_callers_tenant_and_scopes(server: Server) -> None:
    alice, mallory = sdk(server, "alice"), sdk(server, "mallory")
    secret = unique("secret")
    alice_private = ns("semantic", "acme", "private", "user:alice")
    await alice.store.put_item(alice_private, key="k1", value={"content": f"Alice's {secret}."})
    assert (await alice.store.get_item(alice_private, key="k1"))["value"]["content"] == f"Alice's {secret}."

    # alice's private namespace and another tenant's: every action refused
    other_tenant = ns("semantic", "globex", "private", "user:mallory")
    for forged in (alice_private, other_tenant, ns("semantic", "acme", "conversation", "conversation:t1")):
        async with refused():
            await mallory.store.get_item(forged, key="k1")
        async with refused():
            await mallory.store.search_items(forged)
        async with refused():
            await mallory.store.put_item(forged, key="k2", value={"content": "forged"})
        async with refused():
            await mallory.store.delete_item(forged, key="k1")
        async with refused():
            await mallory.store.list_namespaces(prefix=forged)
    for outside in (["globex", "notes"], ["memories", "semantic", "acme", "shared", "user:alice"]):
        async with refused():
            await mallory.store.put_item(outside, key="k", value={"v": 1})
    # prefixes that would span tenants or users
    for prefix in (["memories"], ["memories", "semantic"], ["memories", "semantic", "acme"]):
        async with refused():
            await mallory.store.search_items(prefix)
        async with refused():
            await mallory.store.list_namespaces(prefix=prefix)
    assert (await alice.store.get_item(alice_private, key="k1"))["value"]["content"] == f"Alice's {secret}."

    # her own: private memories, and her tenant's other namespaces
    mine = ns("semantic", "acme", "private", "user:mallory")
    await mallory.store.put_item(mine, key="m1", value={"content": "Mallory's note."})
    assert (await mallory.store.get_item(mine, key="m1"))["value"]["content"] == "Mallory's note."
    # a private prefix is narrowed to the caller: alice's item is not among the results
    narrowed = await mallory.store.search_items(["memories", "semantic", "acme", "private"], limit=100)
    assert {tuple(i["namespace"]) for i in narrowed["items"]} == {tuple(mine)}
    await mallory.store.put_item(["acme", "notes"], key="n1", value={"v": 1})
    assert (await mallory.store.get_item(["acme", "notes"], key="n1"))["value"] == {"v": 1}
    listed = (await mallory.store.list_namespaces())["namespaces"]  # no prefix: her tenant's
    assert listed and all(n[0] == "acme" for n in listed), listed
    await mallory.store.delete_item(mine, key="m1")
    assert await mallory.store.get_item(mine, key="m1") is None

    # shared: members read, owners write
    shared = ns("semantic", "acme", "shared", "acme")
    async with refused():
        await mallory.store.put_item(shared, key="s1", value={"content": "Mallory's rule."})
    await alice.store.put_item(shared, key="s1", value={"content": "The office opens at 9."})
    assert (await mallory.store.get_item(shared, key="s1"))["value"]["content"] == "The office opens at 9."
    async with refused():
        await mallory.store.delete_item(shared, key="s1")
    assert secret not in str(await mallory.store.search_items(["memories", "semantic", "acme", "shared"]))
