"""A pre-seeded multi-tenant world per isolation mode, and the leak oracle.

Modes:

* ``library-es`` — Basic-licence cluster, one admin client: the library's choke point
  (``scope.visibility_filter`` + ``scope.visible``) is the only isolation.
* ``library-sqlite`` — the embedded backend, same choke point.
* ``dls`` — trial cluster: every tenant works through its own file-realm credential
  whose role carries a DLS query (:mod:`langmem_es_cli.tenants`); writes are stamped.

Every memory's content carries a marker token naming its tenant, scope and owner, so
BM25 actively finds other tenants' memories for attack queries that name them.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from langmem_es.core import MemoryConfig, MemoryCore, Policy
from langmem_es.model import SCOPES, Identity
from tests.fixtures.embed import bag_of_words

TENANTS = ["acme", "acme*", "Acme", "globex"]
USERS = ["alice", "bob"]
AGENT = "helper"
RULES = Policy(shared_writers={AGENT})  # the developer lets this agent write the shared scope
CONVERSATIONS = ["c1", "c2"]
DIMS = 32


def hash_embed(texts: list[str]) -> list[list[float]]:
    """Fast deterministic bag-of-words embedding (never a zero vector)."""
    return bag_of_words(texts, DIMS)


def marker(ti: int, scope: str, owner: str, n: int) -> str:
    return f"zq{ti}{scope[:2]}{hashlib.md5(owner.encode()).hexdigest()[:4]}n{n}"


def identities(tenant: str) -> list[Identity]:
    out = [Identity(tenant=tenant, user_id=u, agent_id=AGENT, conversation_id=c) for u in USERS for c in CONVERSATIONS]
    out += [
        Identity(tenant=tenant, agent_id=AGENT),
        Identity(tenant=tenant),
        Identity(tenant=tenant, user_id="mallory"),
    ]
    return out


def seed(core: MemoryCore, ti: int, tenant: str) -> None:
    """Shared, private (users and agent), conversation memories; superseded versions; episodic, procedural."""

    def put(ident: Identity, scope: str, n: int, **kw: Any) -> None:
        owner = ident.owner_for(scope)  # type: ignore[arg-type]
        kind = kw.pop("kind", "semantic")
        reason = None if kind == "episodic" else "kept for the isolation suite"
        core.remember(
            ident,
            f"{marker(ti, scope, owner, n)} secret of {tenant} {scope} {owner} codeword w{n}",
            kind=kind,
            scope=scope,
            reason=reason,
            **kw,
        )

    for user in USERS:
        me = Identity(tenant=tenant, user_id=user)
        for n in range(3):  # a keyed fact, superseded twice: 1 active + 2 superseded
            put(me, "private", n, subject_key="user.city")
        put(me, "private", 3, kind="episodic", session_id="s1")
        put(me, "private", 4, kind="procedural", steps=["step one"])
    agent = Identity(tenant=tenant, agent_id=AGENT)
    put(agent, "private", 5)
    for n in range(2):
        put(agent, "shared", 10 + n, subject_key=f"team.fact{n}")
    for c in CONVERSATIONS:
        conv = Identity(tenant=tenant, user_id="alice", conversation_id=c)
        put(conv, "conversation", 20, kind="episodic")
        put(conv, "conversation", 21)


@dataclass
class Truth:
    """Every seeded memory document: key -> (tenant, scope, owner, status), and what leaks look like."""

    memories: dict[str, tuple[str, str, str, str]] = field(default_factory=dict)
    subject_keys: list[str] = field(default_factory=list)
    markers: dict[str, str] = field(default_factory=dict)  # marker -> key

    def allowed(self, identity: Identity, scopes=SCOPES) -> set[str]:
        owners = identity.owners()
        return {
            k
            for k, (t, s, o, _) in self.memories.items()
            if t == identity.tenant and s in scopes and o in owners.get(s, ())
        }

    def leaks(self, identity: Identity, keys, scopes=SCOPES) -> list[str]:
        ok = self.allowed(identity, scopes)
        return [k for k in keys if k not in ok]


def truth_from(docs: list[dict[str, Any]]) -> Truth:
    t = Truth()
    for d in docs:
        if d.get("record") != "memory":
            continue
        t.memories[d["key"]] = (d["tenant"], d["scope"], d["owner"], d["status"])
        t.markers[d["value"]["content"].split()[0]] = d["key"]
        if d.get("subject_key"):
            t.subject_keys.append(d["subject_key"])
    return t


@dataclass
class World:
    mode: str
    cores: dict[str, MemoryCore]  # tenant -> the core a tenant's application uses
    truth: Truth
    raw: dict[str, Any] = field(default_factory=dict)  # tenant -> raw Elasticsearch client (dls)
    prefix: str = ""
    url: str = ""
    creds: dict[str, Any] = field(default_factory=dict)
    admin: Any = None
    stats: dict[str, int] = field(default_factory=lambda: {"attempts": 0, "leaks": 0, "errors": 0})
    leaked: list[Any] = field(default_factory=list)


def config() -> MemoryConfig:
    return MemoryConfig(access_flush_every=10**9)


def _all_docs_es(client: Any, prefix: str) -> list[dict[str, Any]]:
    client.indices.refresh(index=f"{prefix}-*")
    r = client.search(
        index=f"{prefix}-episodic,{prefix}-semantic,{prefix}-procedural", query={"match_all": {}}, size=5000
    )
    return [h["_source"] for h in r["hits"]["hits"]]


@pytest.fixture(scope="session")
def library_es_world(request: pytest.FixtureRequest) -> Iterator[World]:
    from langmem_es.backends.elasticsearch import ElasticsearchBackend

    client = request.getfixturevalue("es_basic")
    prefix = f"iso-{uuid.uuid4().hex[:10]}"
    backend = ElasticsearchBackend(client, prefix=prefix, dims=DIMS)
    core = MemoryCore(backend, embeddings=hash_embed, config=config(), rules=RULES)
    core.setup()
    for ti, tenant in enumerate(TENANTS):
        seed(core, ti, tenant)
    world = World(
        "library-es", {t: core for t in TENANTS}, truth_from(_all_docs_es(client, prefix)), prefix=prefix, admin=client
    )
    yield world
    backend.drop()


@pytest.fixture(scope="session")
def library_sqlite_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    from langmem_es import filters as F
    from langmem_es.backends.sqlite import SQLiteBackend

    backend = SQLiteBackend(str(tmp_path_factory.mktemp("iso") / "iso.db"), prefix="iso")
    core = MemoryCore(backend, embeddings=hash_embed, config=config(), rules=RULES)
    core.setup()
    for ti, tenant in enumerate(TENANTS):
        seed(core, ti, tenant)
    docs = [s.doc for s in backend.find(["episodic", "semantic", "procedural"], F.MATCH_ALL, size=5000)]
    yield World("library-sqlite", {t: core for t in TENANTS}, truth_from(docs))
    core.close()


@pytest.fixture(scope="session")
def dls_world(request: pytest.FixtureRequest) -> Iterator[World]:
    from elasticsearch import Elasticsearch

    from langmem_es.backends.elasticsearch import ElasticsearchBackend
    from langmem_es_cli import tenants as T

    admin = request.getfixturevalue("es_trial")
    conn = request.getfixturevalue("es_trial_conn")
    prefix = f"iso-{uuid.uuid4().hex[:10]}"
    ElasticsearchBackend(admin, prefix=prefix, dims=DIMS).setup()
    T.install(admin, prefix)
    realm = T.FileRealm.for_local_cluster("trial")
    creds = {t: realm.issue(t, prefix=prefix) for t in TENANTS}
    creds["acme/alice"] = realm.issue("acme", user_id="alice", prefix=prefix)  # a narrowed credential
    for c in creds.values():
        assert T.wait_for_auth(conn.url, {"basic_auth": (c.username, c.password)}), "file realm did not reload"
    raw = {t: Elasticsearch(**c.client_kwargs(conn.url), request_timeout=30) for t, c in creds.items()}
    cores = {}
    for ti, tenant in enumerate(TENANTS):
        core = MemoryCore(
            ElasticsearchBackend(raw[tenant], prefix=prefix, dims=DIMS),
            embeddings=hash_embed,
            config=config(),
            rules=RULES,
        )
        core.setup()
        assert core.capabilities.document_level_security
        seed(core, ti, tenant)
        cores[tenant] = core
    world = World(
        "dls",
        cores,
        truth_from(_all_docs_es(admin, prefix)),
        raw=raw,
        prefix=prefix,
        url=conn.url,
        creds=creds,
        admin=admin,
    )
    yield world
    for c in raw.values():
        c.close()
    realm.revoke(ids=[c.username for c in creds.values()])
    ElasticsearchBackend(admin, prefix=prefix, dims=DIMS).drop()
    admin.ingest.delete_pipeline(id=T.pipeline_name(prefix))
