"""Partial reads against a real two-node cluster with one node killed.

A dedicated local cluster ``shards`` (2 nodes, started here, stopped in teardown) holds
one deployment whose ``semantic`` and ``audit`` indices live, without replicas, on the
node that is then SIGKILLed; ``episodic``, ``procedural`` and ``items`` stay on the
other. With those shards gone:

* every read a decision depends on — find, get by id, count, export, the tombstone
  check, the dedupe of a semantic write, a delete sweep — raises
  :class:`ShardsUnavailableError` naming ``index[shard]``, never a partial answer;
* recall raises too, unless the caller allows a partial answer, which then says so;
* a forgotten fact written again during the outage is refused, and after the node
  is back it is still forgotten (nothing was resurrected, nothing duplicated);
* the message is not the "cannot reach Elasticsearch … is it running?" of a cluster
  that is down;
* a second deployment created with the default replicas (1 on two data nodes) loses
  nothing when the node dies, and ``doctor`` warns about the one without replicas.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from elasticsearch import Elasticsearch

from langmem_es import filters as F
from langmem_es.backends.elasticsearch import ElasticsearchBackend
from langmem_es.core import MemoryConfig, MemoryCore
from langmem_es.errors import ClusterUnavailableError, LangmemEsError, ShardsUnavailableError
from langmem_es.model import Identity
from langmem_es.port import MEMORY_COLLECTIONS
from langmem_es_cli.doctor import diagnose

pytestmark = pytest.mark.integration

NAME = "shards"
DIMS = 8
ALICE = Identity(tenant="acme", user_id="alice")
WHY = "It changes what the assistant should say later."


def embed(texts: list[str]) -> list[list[float]]:
    """A deterministic toy embedder (the vectors only need to exist)."""
    return [[1.0, float(len(t) % 7), float(sum(map(ord, t)) % 5), 1, 1, 1, 1, 1] for t in texts]


def core_for(client: Elasticsearch, prefix: str, replicas: int | None) -> MemoryCore:
    backend = ElasticsearchBackend(client, prefix=prefix, dims=DIMS, replicas=replicas)
    core = MemoryCore(backend, embeddings=embed, config=MemoryConfig(access_flush_every=10**9))
    core.setup()
    return core


@dataclass
class Cluster:
    info: dict
    admin: Elasticsearch  # talks to the node that survives
    survivor: str
    victim: str
    victim_pid: int


def _connect(info: dict) -> Cluster:
    auth = (info["user"], info["password"])
    probe = Elasticsearch(info["url"], basic_auth=auth, request_timeout=30)
    probe.cluster.health(wait_for_nodes="2", wait_for_status="yellow", timeout="60s")
    # with two master-eligible nodes one of them alone votes: keep it, kill the other
    master = probe.cat.master(format="json")[0]["node"]
    nodes = probe.nodes.info(metric="process,http")["nodes"].values()
    survivor = next(n for n in nodes if n["name"] == master)
    victim = next(n for n in nodes if n["name"] != master)
    probe.close()
    admin = Elasticsearch(
        f"http://{survivor['http']['publish_address']}", basic_auth=auth, request_timeout=10, max_retries=0
    )
    return Cluster(info, admin, survivor["name"], victim["name"], int(victim["process"]["id"]))


@pytest.fixture(scope="module")
def duo(es_unavailable) -> Iterator[Cluster]:
    from langmem_es_cli.local_es import start_cluster, stop_cluster

    try:
        info = start_cluster(NAME, nodes=2, fresh=True, timeout=300)  # a cluster of its own, wiped first
    except LangmemEsError as exc:
        es_unavailable(f"could not start the 2-node cluster {NAME!r}: {exc}")
    try:
        yield _connect(info)
    finally:
        stop_cluster(NAME, grace=20)


def _pin(admin: Elasticsearch, prefix: str, where: dict[str, str]) -> None:
    """Move each collection's index to one node (allocation filtering), and wait until it is there."""
    for collection, node in where.items():
        admin.indices.put_settings(
            index=f"{prefix}-{collection}-*", settings={"index.routing.allocation.require._name": node}
        )
    admin.cluster.health(
        index=f"{prefix}-*", wait_for_status="green", wait_for_no_relocating_shards=True, timeout="60s"
    )
    placed = {r["index"]: r["node"] for r in admin.cat.shards(index=f"{prefix}-*", format="json", h="index,node")}
    for collection, node in where.items():
        assert placed[f"{prefix}-{collection}-000001"] == node, placed


# --------------------------------------------------------------------------- healthy


@pytest.mark.slow
def test_replicas_default_to_what_the_cluster_holds_and_doctor_warns(duo: Cluster) -> None:
    prefix = f"rep-{uuid.uuid4().hex[:8]}"
    safe = core_for(duo.admin, f"{prefix}-safe", replicas=None)
    bare = core_for(duo.admin, f"{prefix}-bare", replicas=0)  # an explicit setting wins
    try:
        assert safe.backend.replicas == 1 and bare.backend.replicas == 0
        settings = duo.admin.indices.get_settings(index=f"{prefix}-*", name="index.number_of_replicas")
        replicas = {i: s["settings"]["index"]["number_of_replicas"] for i, s in settings.items()}
        assert replicas and all(r == ("1" if "-safe-" in i else "0") for i, r in replicas.items()), replicas
        warned = diagnose(duo.admin, f"{prefix}-bare")["warnings"]
        assert len(warned) == 5 and all("no replicas" in w and "2 data nodes" in w for w in warned), warned
        assert diagnose(duo.admin, f"{prefix}-safe")["warnings"] == []
    finally:
        safe.backend.drop()
        bare.backend.drop()


def test_one_node_gets_no_replicas(es_basic) -> None:
    core = core_for(es_basic, f"rep1-{uuid.uuid4().hex[:8]}", replicas=None)
    try:
        assert core.backend.replicas == 0
        assert diagnose(es_basic, core.backend.prefix)["warnings"] == []
    finally:
        core.backend.drop()


# --------------------------------------------------------------------------- one node killed


@dataclass
class Outage:
    cluster: Cluster
    prefix: str
    reader: MemoryCore  # a process that did not write (no pending read-your-writes refresh)
    replicated: MemoryCore  # a deployment with the default replicas
    facts: dict[str, str]
    semantic_index: str
    audit_index: str


@pytest.fixture(scope="module")
def outage(duo: Cluster) -> Iterator[Outage]:
    prefix = f"part-{uuid.uuid4().hex[:8]}"
    writer = core_for(duo.admin, prefix, replicas=0)
    _pin(
        duo.admin,
        prefix,
        {
            "semantic": duo.victim,
            "audit": duo.victim,
            "episodic": duo.survivor,
            "procedural": duo.survivor,
            "items": duo.survivor,
        },
    )
    facts = {
        "city": writer.remember(ALICE, "Alice lives in Paris", subject_key="user.city", reason=WHY).id,
        "locker": writer.remember(ALICE, "Alice's locker code is 4412", reason=WHY).id,
        "lunch": writer.remember(ALICE, "Lunch with Bob at the harbour", kind="episodic").id,
        "parcel": writer.remember(ALICE, "My parcel code is 8812", kind="episodic").id,
        "deploy": writer.remember(
            ALICE,
            "Deploying: run the migrations first",
            kind="procedural",
            steps=["run the migrations", "deploy"],
            reason=WHY,
        ).id,
    }
    writer.forget(ALICE, ids=[facts["locker"]])
    writer.forget(ALICE, ids=[facts["parcel"]])
    replicated = core_for(duo.admin, f"{prefix}-rep", replicas=None)
    replicated.remember(ALICE, "Alice lives in Paris", subject_key="user.city", reason=WHY)
    replicated.remember(ALICE, "Lunch with Bob at the harbour", kind="episodic")
    duo.admin.cluster.health(index=f"{prefix}-*", wait_for_status="green", timeout="60s")
    writer.backend.refresh()
    replicated.backend.refresh()

    os.kill(duo.victim_pid, signal.SIGKILL)
    semantic_index, audit_index = f"{prefix}-semantic-000001", f"{prefix}-audit-000001"
    deadline = time.monotonic() + 60
    while duo.admin.cluster.health(index=semantic_index)["status"] != "red":
        assert time.monotonic() < deadline, "the killed node's shards never went missing"
        time.sleep(0.5)
    reader = core_for(duo.admin, prefix, replicas=0)
    replicated_reader = core_for(duo.admin, f"{prefix}-rep", replicas=None)
    yield Outage(duo, prefix, reader, replicated_reader, facts, semantic_index, audit_index)


def _names(exc: ShardsUnavailableError) -> set[str]:
    return {str(s) for s in exc.shards}


@pytest.mark.slow
def test_reads_refuse_partial_answers_and_name_the_shard(outage: Outage) -> None:
    core, backend, sem = outage.reader, outage.reader.backend, f"{outage.semantic_index}[0]"
    tenant = F.term("tenant", "acme")
    calls = {
        "find": lambda: backend.find(list(MEMORY_COLLECTIONS), tenant, size=100),
        "deep find": lambda: backend.find(list(MEMORY_COLLECTIONS), tenant, size=10, offset=10_000),
        "count": lambda: backend.count(list(MEMORY_COLLECTIONS), tenant),
        "namespaces": lambda: backend.namespaces(list(MEMORY_COLLECTIONS), tenant),
        "get by id": lambda: backend.get("semantic", [outage.facts["city"]]),
        "core get": lambda: core.get(ALICE, outage.facts["city"]),
        "history": lambda: core.history(ALICE, "user.city"),
        "export": lambda: core.export(ALICE, scopes=["private"]),
        "hybrid": lambda: backend.hybrid(list(MEMORY_COLLECTIONS), tenant, text="Alice", vector=embed(["Alice"])[0]),
        "delete sweep": lambda: backend.delete_where(list(MEMORY_COLLECTIONS), F.term("owner", "nobody")),
    }
    for name, call in calls.items():
        with pytest.raises(ShardsUnavailableError) as info:
            call()
        assert sem in _names(info.value), (name, info.value.shards)
        assert sem in str(info.value) and "_cluster/health" in str(info.value), name
        print(f"[shards] {name}: {info.value}")
    # what lives on the surviving node still reads in full
    [lunch] = backend.find(["episodic"], tenant, size=10)
    assert lunch.doc["key"] == outage.facts["lunch"]
    assert backend.get("episodic", [lunch.doc["id"]])[0] is not None


@pytest.mark.slow
def test_tombstone_and_dedupe_checks_fail_closed(outage: Outage) -> None:
    core, audit = outage.reader, f"{outage.audit_index}[0]"
    # the tombstone check of an event reads the audit index: refused, not "no tombstone found"
    with pytest.raises(ShardsUnavailableError) as info:
        core.remember(ALICE, "My parcel code is 8812", kind="episodic")
    assert audit in _names(info.value)
    with pytest.raises(ShardsUnavailableError):
        core.remember_many(ALICE, [{"content": "My parcel code is 8812", "kind": "episodic"}])
    # the forgotten fact, and the dedupe of a live one, read the semantic index
    for content in ("Alice's locker code is 4412", "Alice lives in Paris"):
        with pytest.raises(ShardsUnavailableError) as info:
            core.remember(ALICE, content, reason=WHY)
        assert {audit, f"{outage.semantic_index}[0]"} & _names(info.value)
    with pytest.raises(ShardsUnavailableError):
        core.tombstones(ALICE)


@pytest.mark.slow
def test_partial_hybrid_only_when_allowed_and_then_it_says_so(outage: Outage) -> None:
    backend = outage.reader.backend
    vector = embed(["Lunch with Bob"])[0]
    result = backend.hybrid(
        list(MEMORY_COLLECTIONS), F.term("tenant", "acme"), text="Lunch with Bob", vector=vector, allow_partial=True
    )
    assert result.partial and f"{outage.semantic_index}[0]" in {str(s) for s in result.unavailable}
    assert [h.doc["key"] for h in result.text_hits] == [outage.facts["lunch"]]


@pytest.mark.slow
def test_recall_degrades_only_when_the_caller_allows_it_and_says_so(outage: Outage) -> None:
    core, sem = outage.reader, f"{outage.semantic_index}[0]"
    with pytest.raises(ShardsUnavailableError) as info:
        core.recall(ALICE, "lunch with Bob")
    assert sem in _names(info.value)
    result = core.recall(ALICE, "lunch with Bob", allow_partial=True)
    assert result.partial and sem in {str(s) for s in result.unavailable_shards}
    assert [m.memory.content for m in result.memories][:1] == ["Lunch with Bob at the harbour"]
    assert "partial" in result.render().splitlines()[0]


def test_sqlite_keeps_the_port_signature_and_is_never_partial(tmp_path) -> None:
    from langmem_es.backends.sqlite import SQLiteBackend

    core = MemoryCore(
        SQLiteBackend(str(tmp_path / "m.db")), embeddings=embed, config=MemoryConfig(access_flush_every=10**9)
    )
    core.setup()
    core.remember(ALICE, "Lunch with Bob at the harbour", kind="episodic")
    result = core.recall(ALICE, "lunch with Bob", allow_partial=True)
    assert not result.partial and result.unavailable_shards == []
    assert [m.memory.content for m in result.memories] == ["Lunch with Bob at the harbour"]
    assert "partial" not in result.render()
    core.close()


@pytest.mark.slow
def test_the_message_is_not_the_one_of_a_cluster_that_is_down(outage: Outage) -> None:
    with pytest.raises(ShardsUnavailableError) as partial:
        outage.reader.export(ALICE, scopes=["private"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    down = ElasticsearchBackend(
        Elasticsearch(f"http://127.0.0.1:{port}", request_timeout=2, max_retries=0), prefix="down", dims=DIMS
    )
    with pytest.raises(ClusterUnavailableError) as unreachable:
        down.find(["semantic"], F.MATCH_ALL)
    assert not isinstance(unreachable.value, ShardsUnavailableError)
    assert "cannot reach Elasticsearch" in str(unreachable.value) and "is it running" in str(unreachable.value)
    assert "cannot reach" not in str(partial.value) and "is it running" not in str(partial.value)
    assert "reachable" in str(partial.value) and "replicas" in str(partial.value)


@pytest.mark.slow
def test_replicas_keep_every_shard_readable_when_a_node_dies(outage: Outage) -> None:
    core = outage.replicated
    exported = [m["content"] for m in core.export(ALICE, scopes=["private"], include_tombstones=False)]
    assert sorted(exported) == ["Alice lives in Paris", "Lunch with Bob at the harbour"]
    assert core.backend.count(list(MEMORY_COLLECTIONS), F.term("tenant", "acme")) == 2
    assert core.remember(ALICE, "Alice lives in Paris", subject_key="user.city", reason=WHY).action == "reinforced"


@pytest.mark.slow
def test_after_the_node_is_back_nothing_was_resurrected(outage: Outage) -> None:
    from langmem_es_cli.local_es import start_cluster, stop_cluster

    stop_cluster(NAME, grace=20)
    info = start_cluster(NAME, nodes=2, timeout=120)  # bounded: a restart that cannot form the cluster fails
    admin = Elasticsearch(info["url"], basic_auth=(info["user"], info["password"]), request_timeout=30)
    admin.cluster.health(index=f"{outage.prefix}-*", wait_for_status="green", timeout="120s")
    core = core_for(admin, outage.prefix, replicas=0)
    exported = core.export(ALICE, scopes=["private"], include_tombstones=False)
    contents = sorted(m["content"] for m in exported)
    assert contents == ["Alice lives in Paris", "Deploying: run the migrations first", "Lunch with Bob at the harbour"]
    # retried now, the writes refused during the outage meet their tombstones
    assert core.remember(ALICE, "My parcel code is 8812", kind="episodic").action == "suppressed"
    assert core.remember(ALICE, "Alice's locker code is 4412", reason=WHY).action == "suppressed"
    assert core.remember(ALICE, "Alice lives in Paris", subject_key="user.city", reason=WHY).action == "reinforced"
    active = core.backend.find(["semantic"], F.all_of(F.term("subject_key", "user.city"), F.term("status", "active")))
    assert len(active) == 1
    print(f"[shards] after restart: {json.dumps(contents)}")
    core.backend.drop()
    admin.close()
