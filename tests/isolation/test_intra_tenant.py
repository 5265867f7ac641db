"""The intra-tenant attacker (issue 11): members of one tenant against each other's memories.

One workspace, ``acme``, on SQLite and on Elasticsearch. Alice and Bob (members, talking
to the ``support`` agent, which the developer enabled for shared writes) and Olga (the
owner) have private facts with history, events, playbooks, conversation notes, shared
facts and playbooks, a pending shared proposal and LangMem-style store notes. The
attackers are other members of the same tenant — Mallory (through the enabled
``support`` agent), Eve (through a ``helper`` agent that may not write shared), the
``support`` agent acting alone, and "Alice" spelled with a capital — with hypothesis
generating their arguments. They go through the core API, the memory tools (over the
core, opted in to shared; and over the store, default), LangMem's store tools and the
CLI, trying to read, overwrite, supersede, forget, purge, approve, export, import and
record outcomes on what is not theirs.

A **breach** is any returned memory or text the attacker may not see (another's private
or conversation memory, someone's pending proposal), or any change to a seeded memory
(checked against the stored documents after every batch). Prints attempts and breaches;
asserts zero breaches.
"""

from __future__ import annotations

import contextlib
import io
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from langchain_core.tools import ToolException
from pydantic import ValidationError

from langmem_es import filters as F
from langmem_es.core import MemoryConfig, MemoryCore, Policy
from langmem_es.errors import LangmemEsError
from langmem_es.model import SCOPES, Identity
from langmem_es.tools import create_memory_tools

from .conftest import DIMS, hash_embed

T = "acme"
RULES = Policy(shared_writers={"support"})
VICTIMS = {
    "alice": Identity(tenant=T, user_id="alice", agent_id="support", conversation_id="t-alice"),
    "bob": Identity(tenant=T, user_id="bob", agent_id="support", conversation_id="t-bob"),
    "olga": Identity(tenant=T, user_id="olga", roles={"owner"}),
}
ATTACKERS = [
    Identity(tenant=T, user_id="mallory", agent_id="support", conversation_id="t-mallory"),
    Identity(tenant=T, user_id="eve", agent_id="helper", conversation_id="t-eve"),
    Identity(tenant=T, agent_id="support"),
    Identity(tenant=T, user_id="Alice", agent_id="support", conversation_id="t-Alice"),
]
REPORT: dict[str, dict[str, int]] = {}


@dataclass
class World:
    name: str
    core: MemoryCore
    store: Any
    cli: list[str]  # backend arguments of the CLI
    docs: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)  # stored id -> (collection, doc)
    ids: dict[str, list[str]] = field(default_factory=dict)  # what to aim at
    markers: dict[str, str] = field(default_factory=dict)  # marker -> scope of the memory that carries it
    attempts: int = 0
    breaches: list[Any] = field(default_factory=list)
    refused: int = 0


def _seed(core: MemoryCore, review: MemoryCore, store: Any) -> dict[str, list[str]]:
    ids: dict[str, list[str]] = {
        "private": [],
        "conversation": [],
        "shared": [],
        "pending": [],
        "keys": [],
        "playbooks": [],
        "sources": [],
        "users": ["alice", "bob", "olga"],
    }
    for name in ("alice", "bob"):
        me = VICTIMS[name]
        for n, city in enumerate(("Bristol", "Leeds")):
            w = core.remember(
                me,
                f"zq{name}p{n} {name} lives in {city}",
                subject_key="user.home_city",
                reason="kept",
                sources=[f"message:{name}-{n}"],
            )
            ids["private"].append(w.id)
        ids["private"].append(
            core.remember(
                me, f"zq{name}e said hello about {name} secrets", kind="episodic", sources=[f"message:{name}-0"]
            ).id
        )
        pb = core.remember(me, f"zq{name}pb reset {name}'s router", kind="procedural", reason="kept", steps=["unplug"])
        ids["private"].append(pb.id)
        ids["playbooks"].append(pb.id)
        ids["conversation"].append(
            core.remember(me, f"zq{name}c parcel code of {name} is 4471", scope="conversation", reason="kept").id
        )
        ids["conversation"].append(
            core.remember(me, f"zq{name}ce {name} asked about the parcel", kind="episodic", scope="conversation").id
        )
        ids["shared"].append(
            core.remember(
                me, f"zq{name}s team fact by {name}", scope="shared", reason="kept", subject_key=f"team.{name}"
            ).id
        )
        ids["shared"].append(
            core.remember(
                me,
                f"zq{name}sp team playbook by {name}",
                kind="procedural",
                scope="shared",
                reason="kept",
                steps=["step"],
            ).id
        )
        ids["pending"].append(review.remember(me, f"zq{name}q proposal by {name}", scope="shared", reason="kept").id)
        store.put(("notes", name), "n1", {"content": f"zq{name}n store note of {name}"})
        ids["keys"] += ["user.home_city", f"team.{name}"]
        ids["sources"].append(f"message:{name}-0")
    ids["shared"].append(
        core.remember(VICTIMS["olga"], "zqolgas owner fact", scope="shared", reason="kept", subject_key="team.owner").id
    )
    return ids


def _snapshot(world: World) -> dict[str, tuple[str, dict[str, Any]]]:
    backend = world.core.backend
    out = {}
    for collection in ("episodic", "semantic", "procedural"):
        for s in backend.find([collection], F.term("record", "memory"), size=10_000):
            out[s.doc["id"]] = (collection, _essential(s.doc))
    for s in backend.find(["items"], F.MATCH_ALL, size=10_000):
        out[s.doc["id"]] = ("items", {"value": s.doc.get("value")})
    return out


def _essential(doc: dict[str, Any]) -> dict[str, Any]:
    v = doc["value"]
    return {
        k: v.get(k)
        for k in (
            "content",
            "status",
            "owner",
            "scope",
            "superseded_by",
            "success_count",
            "failure_count",
            "confidence",
            "metadata",
            "sources",
        )
    }


def _make_world(
    name: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, rules: Any = RULES
) -> Iterator[World]:
    from langmem_es.integration.resolve import memory_for  # noqa: F401 - the tools resolve the store's core

    index = {"dims": DIMS, "embed": hash_embed, "fields": ["content"]}
    if name == "sqlite":
        from langmem_es.backends.sqlite import SQLiteBackend
        from langmem_es.store import SQLiteMemoryStore

        path = str(tmp_path_factory.mktemp("intra") / "intra.db")
        backend = SQLiteBackend(path, prefix="langmem")
        store = SQLiteMemoryStore(path, index=index)
        cli = ["--sqlite", path]
        close = backend.close
    else:
        from langmem_es.backends.elasticsearch import ElasticsearchBackend
        from langmem_es.store import ElasticsearchMemoryStore

        client = request.getfixturevalue("es_basic")
        prefix = f"intra-{uuid.uuid4().hex[:10]}"
        backend = ElasticsearchBackend(client, prefix=prefix, dims=DIMS)
        store = ElasticsearchMemoryStore(client, prefix=prefix, index=index)
        cli = ["--prefix", prefix]
        close = backend.drop
    config = MemoryConfig(access_flush_every=10**9)
    core = MemoryCore(backend, embeddings=hash_embed, config=config, rules=rules)
    core.setup()
    review = MemoryCore(
        backend,
        embeddings=hash_embed,
        config=MemoryConfig(access_flush_every=10**9, shared_writes="review"),
        rules=RULES,
    )
    world = World(name, core, store, cli)
    world.ids = _seed(core, review, store)
    world.docs = _snapshot(world)
    for collection, doc in world.docs.values():
        if collection != "items":
            world.markers[doc["content"].split()[0]] = "pending" if doc["status"] == "pending" else doc["scope"]
    world.markers.update({f"zq{n}n": "note" for n in ("alice", "bob")})
    yield world
    close()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("elasticsearch", marks=pytest.mark.integration)])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from _make_world(request.param, request, tmp_path_factory)


# -- what attackers may see --------------------------------------------------------------------


def _leaks_in_text(world: World, who: Identity, text: str) -> list[str]:
    """Markers in ``text`` of memories ``who`` may not see (every seeded non-shared one, and proposals)."""
    return [m for m, scope in world.markers.items() if scope != "shared" and m in text]


def _leaks_in_memories(world: World, who: Identity, memories: list[Any]) -> list[str]:
    out = []
    for m in memories:
        if m.status == "pending" and not (m.metadata.get("provenance", {}).get("user_id") == who.user_id):
            out.append(m.id)
        elif m.scope != "shared" and m.owner not in who.owners().get(m.scope, ()):
            out.append(m.id)
    return out


# -- attempts ----------------------------------------------------------------------------------

TEXT = st.one_of(
    st.sampled_from(
        [
            "zqalicep1",
            "zqbobc",
            "parcel code",
            "secrets",
            "team fact",
            "*",
            "proposal",
            "router",
            "alice",
            "zqaliceq",
            "Leeds",
        ]
    ),
    st.text(min_size=1, max_size=30),
)


def attempt_strategy(world: World) -> st.SearchStrategy[tuple]:
    ids = world.ids
    victim_id = st.sampled_from(ids["private"] + ids["conversation"] + ids["shared"] + ids["pending"])
    shared_id = st.sampled_from(ids["shared"])
    who = st.sampled_from(ATTACKERS)
    scopes = st.lists(st.sampled_from(list(SCOPES)), min_size=1, max_size=3, unique=True)
    flt = st.one_of(
        st.none(),
        st.sampled_from(
            [
                {"term": {"owner": "user:alice"}},
                {"term": {"status": "pending"}},
                {"terms": {"scope": ["private", "conversation"]}},
                {"bool": {"should": [{"term": {"owner": "user:bob"}}], "minimum_should_match": 0}},
            ]
        ),
    )
    return st.one_of(
        st.tuples(st.just("recall"), who, TEXT, scopes, flt, st.booleans()),
        st.tuples(st.just("get"), who, victim_id),
        st.tuples(st.just("history"), who, st.one_of(victim_id, st.sampled_from(ids["keys"]))),
        st.tuples(
            st.just("export"),
            who,
            st.one_of(
                scopes.map(lambda s: {"scopes": s}),
                st.just({"preset": "handover"}),
                st.sampled_from(ids["users"]).map(lambda u: {"preset": "offboarding", "user_id": u}),
            ),
        ),
        st.tuples(
            st.just("forget"),
            who,
            st.one_of(
                victim_id.map(lambda i: {"ids": [i]}),
                st.sampled_from(ids["keys"]).map(lambda k: {"subject_key": k}),
                TEXT.map(lambda q: {"query": q, "k": 5}),
                st.sampled_from(ids["sources"]).map(lambda s: {"source": s}),
            ),
        ),
        st.tuples(st.just("supersede"), who, shared_id, TEXT, st.sampled_from(ids["keys"] + [None]), st.booleans()),
        st.tuples(
            st.just("admin"),
            who,
            st.sampled_from(["purge_user", "audit_log", "approve", "reject", "resolve"]),
            st.sampled_from(ids["users"] + ids["pending"]),
        ),
        st.tuples(st.just("outcome"), who, st.sampled_from(ids["playbooks"]), st.booleans()),
        st.tuples(st.just("import"), who, st.sampled_from(ids["users"][:2])),
        st.tuples(
            st.just("tool"),
            who,
            st.booleans(),
            st.sampled_from(["remember", "forget", "recall"]),
            victim_id,
            TEXT,
            st.sampled_from(ids["keys"]),
        ),
        st.tuples(st.just("langmem"), who, st.sampled_from(["delete", "update", "search"]), TEXT),
        st.tuples(
            st.just("cli"),
            who,
            st.sampled_from(["purge-user", "approve", "reject", "pending"]),
            st.sampled_from(ids["users"] + ids["pending"]),
            st.sampled_from(["member", None]),
        ),
    )


def _own(text: str) -> str:
    """What an attacker writes never carries a seeded marker (a marker in output then means a leak)."""
    return text.replace("zq", "") or "x"


def run_attempt(world: World, a: tuple) -> list[Any]:
    """One attempt; returns what leaked (changes are checked after the batch)."""
    op, who, *args = a
    core = world.core
    if op == "recall":
        q, scopes, flt, history = args
        found = core.recall(who, q, scopes=scopes, filters=flt, include_superseded=history, include_deleted=True, k=50)
        return _leaks_in_memories(world, who, [r.memory for r in found.memories])
    if op == "get":
        m = core.get(who, args[0])
        return _leaks_in_memories(world, who, [m] if m else [])
    if op == "history":
        return _leaks_in_memories(world, who, core.history(who, args[0]))
    if op == "export":
        out = core.export(who, **args[0])
        return _leaks_in_text(world, who, json.dumps([r for r in out if r.get("record") != "tombstone"]))
    if op == "forget":
        core.forget(who, **args[0])
        return []
    if op == "supersede":
        target, text, key, explicit = args
        core.remember(
            who,
            f"{_own(text)} overwritten",
            scope="shared",
            reason="attack",
            subject_key=key,
            replaces=[target] if explicit else (),
        )
        return []
    if op == "admin":
        action, arg = args
        if action == "purge_user":
            core.purge_user(who, arg)
        elif action == "audit_log":
            return [("audit_log", len(core.audit_log(who)))]
        elif action == "approve":
            core.approve(who, arg)
        elif action == "reject":
            core.reject(who, arg)
        else:
            core.resolve(who, "c-" + arg, winner=arg)
        return []
    if op == "outcome":
        core.record_outcome(who, args[0], success=args[1], problem="attack")
        return []
    if op == "import":
        records = core.export(VICTIMS["olga"], preset="offboarding", user_id=args[0])
        core.import_(who, records)  # never adopt: someone else's private memories
        return []
    if op == "tool":
        over_store, name, victim, text, key = args
        tools = {
            t.name: t
            for t in (create_memory_tools(world.store) if over_store else create_memory_tools(core, shared=True))
        }
        cfg = {
            "configurable": {
                "tenant_id": who.tenant,
                "user_id": who.user_id,
                "agent_id": who.agent_id,
                "thread_id": who.conversation_id,
                "roles": ["member"],
            }
        }
        call = {
            "remember": {
                "content": f"{_own(text)} x",
                "reason": "attack",
                "scope": "shared" if not over_store else "private",
                "replaces": [victim],
                "subject_key": key,
            },
            "forget": {"ids": [victim], "subject_key": key, "query": text},
            "recall": {"query": text, "k": 20, "include_history": True},
        }[name]
        try:
            out = tools[name].invoke(call, config=cfg)
        except (ValidationError, ToolException):
            return []
        return _leaks_in_text(world, who, str(out))
    if op == "langmem":
        from langmem import create_manage_memory_tool, create_search_memory_tool

        cfg = {"configurable": {"user_id": who.user_id or who.agent_id}}
        action, text = args
        if action == "search":
            out = create_search_memory_tool(("notes", "{user_id}"), store=world.store).invoke(
                {"query": text, "limit": 20}, config=cfg
            )
            return _leaks_in_text(world, who, str(out))
        manage = create_manage_memory_tool(("notes", "{user_id}"), store=world.store)
        with contextlib.suppress(Exception):  # LangMem's own errors for a wrong id are refusals
            manage.invoke({"action": action, "id": "n1", "content": f"{_own(text)} overwritten"}, config=cfg)
        return []
    if op == "cli":
        from langmem_es_cli.main import main

        command, arg, role = args
        argv = (
            [command]
            + ([arg] if command != "pending" else [])
            + ["--tenant", who.tenant, "--by", who.user_id or "bot", "--json", *world.cli]
        )
        argv += ["--role", role] if role else []
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        if code == 0 and command != "pending":
            return [("cli", command, arg, "succeeded")]
        return _leaks_in_text(world, who, out.getvalue())
    raise AssertionError(op)


def _changes(world: World) -> list[Any]:
    now = _snapshot(world)
    out = []
    for did, (collection, before) in world.docs.items():
        after = now.get(did)
        if after is None or after[1] != before:
            out.append(
                (
                    "changed",
                    collection,
                    before.get("content") or before.get("value"),
                    None if after is None else {k: v for k, v in after[1].items() if before.get(k) != v},
                )
            )
    return out


def _attack(world: World, examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(attempt_strategy(world), min_size=10, max_size=10))
    def attack(batch: list[tuple]) -> None:
        for a in batch:
            world.attempts += 1
            try:
                leaked = run_attempt(world, a)
            except LangmemEsError:
                world.refused += 1
                continue
            if leaked:
                world.breaches.append((a[0], a[1].user_id or a[1].agent_id, leaked, a[2:]))
        changed = _changes(world)
        if changed:
            world.breaches.append(("batch", changed[:3], [x[0] for x in batch]))
            world.docs = _snapshot(world)  # count each change once

    try:
        attack()
    finally:
        REPORT[world.name] = {"attempts": world.attempts, "refused": world.refused, "breaches": len(world.breaches)}
        print(
            f"\n[intra-tenant:{world.name}] attempts={world.attempts} refused={world.refused} "
            f"breaches={len(world.breaches)}"
        )
        for b in world.breaches[:10]:
            print("  BREACH", b)


@pytest.mark.slow
def test_members_cannot_reach_each_others_memories(world: World) -> None:
    examples = 60 if world.name == "sqlite" else 30
    _attack(world, examples)
    assert world.attempts >= examples * 10
    assert not world.breaches, world.breaches[:5]


def test_the_oracle_sees_breaches_when_the_rules_allow_everything(request, tmp_path_factory) -> None:
    """The attacker and its oracle can fail: with rules that allow everything, they find breaches."""
    world = next(_make_world("sqlite", request, tmp_path_factory, rules=lambda identity, r: True))
    world.name = "sqlite-permissive"
    _attack(world, 15)
    assert world.breaches, "an attacker facing no rules should have changed something"
