"""Adversarial isolation: ≥10,000 generated attempts to read another tenant's or scope's memory.

Three worlds (see ``conftest.py``): ``library-es`` (Basic licence: the library's choke
point), ``library-sqlite`` (embedded backend, same choke point) and ``dls`` (trial
licence: per-tenant credentials whose roles carry DLS queries; attacks also go around
the library with raw ``Elasticsearch`` calls). Each hypothesis example runs a batch of
attempts from many tenants in parallel threads; every returned memory is checked
against the ground truth (tenant, scope, owner) of the seeded data. Private→shared
leakage is the same oracle with ``scopes=("shared",)``.

Prints attempts and leaked documents per world; asserts zero leaks.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from langmem_es.errors import LangmemEsError
from langmem_es.model import KINDS, SCOPES, Identity

from .conftest import DIMS, TENANTS, World, hash_embed, identities

pytestmark = [pytest.mark.slow, pytest.mark.integration]

BATCH = 25
_lock = threading.Lock()
REPORT: dict[str, dict[str, int]] = {}
ERRORS: dict[str, int] = {}
RETURNED: dict[str, int] = {}

INJECTIONS = [
    "*",
    "?",
    "tenant:*",
    "tenant:globex OR *",
    "owner:user\\:bob",
    "scope:private AND tenant:acme",
    "/.*/",
    '" OR 1=1 --',
    "') OR ('1'='1",
    '{"match_all":{}}',
    "{{_user.username}}",
    "${jndi:ldap://x}",
    "_id:*",
    "acme* OR globex",
    "NOT tenant:acme",
    "*:*",
    "text:/zq.*/",
    "\\",
    "\u0000",
    "\ud800",
    "🙂" * 50,
    "ßẞ İı",
    "a" * 5000,
    "zq0pr",
    "zq1sh",
    "secret",
    "codeword",
    "AND OR NOT",
    "((((",
    "\u202e",
    "\x1f",
    "memories\x1facme",
]
QUERY = st.one_of(
    st.sampled_from(INJECTIONS),
    st.text(min_size=1, max_size=60),
    st.text(alphabet="*?~\\/:()[]{}^\"'!+-&|zq0123n ", min_size=1, max_size=40),
)
SUBSET = lambda xs: st.lists(st.sampled_from(xs), min_size=1, max_size=len(xs), unique=True)  # noqa: E731


def other_values(world: World) -> dict[str, list[Any]]:
    t = world.truth
    return {
        "keys": list(t.memories),
        "subject_keys": sorted(set(t.subject_keys)),
        "tenants": TENANTS + ["*", "", "acme\\*"],
        "owners": sorted({o for (_, _, o, _) in t.memories.values()}) + ["*", "user:*"],
        "markers": list(t.markers),
    }


def filter_strategy(values: dict[str, list[Any]]) -> st.SearchStrategy[Any]:
    """Caller filters that try to widen: other tenants, owners, scopes, should/must_not tricks."""
    leaf = st.one_of(
        st.builds(lambda v: {"term": {"tenant": v}}, st.sampled_from(values["tenants"])),
        st.builds(
            lambda v: {"terms": {"owner": v}}, st.lists(st.sampled_from(values["owners"]), min_size=1, max_size=4)
        ),
        st.builds(lambda v: {"term": {"scope": v}}, st.sampled_from(list(SCOPES) + ["*"])),
        st.builds(lambda v: {"term": {"key": v}}, st.sampled_from(values["keys"])),
        st.builds(lambda v: {"terms": {"status": v}}, SUBSET(["active", "superseded", "soft_deleted", "forgotten"])),
        st.just({"match_all": {}}),
        st.just({"exists": {"field": "tenant"}}),
        st.builds(
            lambda v: {"range": {"written_at": {"gte": v}}},
            st.sampled_from(["1970-01-01T00:00:00Z", "2100-01-01T00:00:00Z"]),
        ),
    )
    return st.one_of(
        st.none(),
        leaf,
        st.builds(
            lambda xs: {"bool": {"should": xs, "minimum_should_match": 1}}, st.lists(leaf, min_size=1, max_size=3)
        ),
        st.builds(lambda xs: {"bool": {"must_not": xs}}, st.lists(leaf, min_size=1, max_size=2)),
        st.builds(
            lambda xs: {"bool": {"should": xs, "minimum_should_match": 0}}, st.lists(leaf, min_size=1, max_size=2)
        ),
    )


def attempt_strategy(world: World) -> st.SearchStrategy[tuple]:
    values = other_values(world)
    idents = [i for t in TENANTS for i in identities(t)]
    who = st.sampled_from(idents)
    as_of = st.one_of(
        st.none(),
        st.sampled_from([datetime(2000, 1, 1, tzinfo=timezone.utc), datetime.now(timezone.utc) + timedelta(days=1)]),
    )
    recall = st.tuples(
        st.just("recall"),
        who,
        QUERY,
        SUBSET(list(KINDS)),
        SUBSET(list(SCOPES)),
        st.integers(1, 1000),
        filter_strategy(values),
        st.booleans(),
        st.booleans(),
        as_of,
    )
    get = st.tuples(st.just("get"), who, st.one_of(st.sampled_from(values["keys"]), QUERY))
    history = st.tuples(
        st.just("history"), who, st.one_of(st.sampled_from(values["keys"] + values["subject_keys"]), QUERY)
    )
    export = st.tuples(st.just("export"), who, SUBSET(list(SCOPES)))
    forget = st.tuples(st.just("forget"), who, st.sampled_from(values["keys"]))
    shared = st.tuples(st.just("recall_shared"), who, st.sampled_from(values["markers"] + ["secret codeword"]))
    options = [recall, recall, recall, get, history, export, forget, shared]
    if world.raw:
        options += [raw_strategy(values)] * 4
    return st.one_of(*options)


def raw_strategy(values: dict[str, list[Any]]) -> st.SearchStrategy[tuple]:
    """Around the library: raw Elasticsearch calls with a tenant's credential."""
    query = st.one_of(
        st.just({"match_all": {}}),
        st.builds(lambda q: {"query_string": {"query": q, "lenient": True}}, QUERY),
        st.builds(lambda q: {"simple_query_string": {"query": q, "fields": ["*"]}}, QUERY),
        st.builds(lambda v: {"wildcard": {"tenant": {"value": v}}}, st.sampled_from(["*", "a*", "g*", "?cme*"])),
        st.builds(lambda v: {"regexp": {"owner": v}}, st.sampled_from([".*", "user:.*", "agent:.*"])),
        st.builds(lambda v: {"prefix": {"ns_key": v}}, st.sampled_from(["memories", "memories\x1fsemantic", ""])),
        st.builds(lambda v: {"term": {"tenant": v}}, st.sampled_from(values["tenants"])),
        st.builds(lambda v: {"match": {"text": v}}, st.sampled_from(values["markers"])),
    )
    return st.one_of(
        st.tuples(
            st.just("raw_search"),
            st.sampled_from(list(TENANTS) + ["acme/alice"]),
            query,
            st.sampled_from(["*", "{p}-*", "{p}-semantic", "{p}-*,-{p}-items", "_all"]),
            st.integers(0, 200),
            st.integers(0, 200),
            st.booleans(),
        ),
        st.tuples(
            st.just("raw_mget"),
            st.sampled_from(list(TENANTS) + ["acme/alice"]),
            st.lists(st.sampled_from(values["keys"]), min_size=1, max_size=5),
        ),
        st.tuples(
            st.just("store"),
            st.sampled_from(list(TENANTS)),
            st.sampled_from(
                [
                    (),
                    ("memories",),
                    ("memories", "semantic"),
                    ("memories", "semantic", "acme"),
                    ("memories", "semantic", "globex"),
                    ("*",),
                    ("memories", "*"),
                ]
            ),
            st.integers(0, 50),
        ),
    )


def raw_ok(world: World, who: str, src: dict[str, Any]) -> bool:
    """Would the credential ``who`` be allowed to see this stored document?"""
    from langmem_es.core import scope

    tenant = who.split("/")[0]
    if src.get("tenant") != tenant:
        return False
    if "/" in who:  # narrowed: acme/alice
        ident = Identity(tenant="acme", user_id="alice")
        if src.get("record") == "memory":
            return scope.visible(src, ident)
        return src.get("owner") in [o for per in ident.owners().values() for o in per] + ["alice"]
    return True


def run_attempt(world: World, a: tuple) -> tuple[int, list[Any]]:
    """One attempt; returns (errors, leaked items)."""
    op, *args = a
    leaks: list[Any] = []
    try:
        if op in ("recall", "recall_shared", "get", "history", "export", "forget"):
            ident: Identity = args[0]
            core = world.cores[ident.tenant]
            if op == "recall":
                _, q, kinds, scopes, k, flt, sup, dele, as_of = args
                res = core.recall(
                    ident,
                    q,
                    kinds=kinds,
                    scopes=scopes,
                    k=k,
                    filters=flt,
                    include_superseded=sup,
                    include_deleted=dele,
                    as_of=as_of,
                )
                _seen(world, len(res.memories))
                leaks = [
                    (op, ident, m.memory.id, m.memory.content)
                    for m in res.memories
                    if world.truth.leaks(ident, [m.memory.id], scopes)
                ]
            elif op == "recall_shared":  # private → shared: a shared-only recall must not carry private memories
                res = core.recall(ident, args[1], scopes=["shared"], k=50, include_superseded=True)
                leaks = [
                    (op, ident, m.memory.id, m.memory.content)
                    for m in res.memories
                    if world.truth.leaks(ident, [m.memory.id], ["shared"]) or m.memory.scope != "shared"
                ]
            elif op == "get":
                m = core.get(ident, args[1])
                if m is not None and world.truth.leaks(ident, [m.id]):
                    leaks = [(op, ident, m.id, m.content)]
            elif op == "history":
                leaks = [
                    (op, ident, m.id, m.content)
                    for m in core.history(ident, args[1])
                    if world.truth.leaks(ident, [m.id])
                ]
            elif op == "export":
                out = core.export(ident, scopes=args[1], include_tombstones=True)
                leaks = [
                    (op, ident, r.get("id"), r.get("content"))
                    for r in out
                    if r.get("record") != "tombstone" and world.truth.leaks(ident, [r["id"]], args[1])
                ]
                leaks += [(op, ident, "tombstone", r) for r in out if r.get("record") == "tombstone"]  # none were made
            elif op == "forget":
                key = args[1]
                if key in world.truth.allowed(ident):
                    return 0, []  # forgetting one's own memory would change the world: not an attack
                try:
                    core.forget(ident, ids=[key])
                    leaks = [(op, ident, key, "forget of another's memory succeeded")]
                except LangmemEsError:
                    pass
        elif op == "raw_search":
            who, query, index, size, offset, aggs = args
            client = world.raw[who]
            body: dict[str, Any] = {"query": query, "size": size, "from": offset}
            if aggs:
                body["aggs"] = {
                    "t": {"terms": {"field": "tenant", "size": 50}},
                    "o": {"terms": {"field": "owner", "size": 500}},
                }
            try:
                r = client.search(
                    index=index.format(p=world.prefix), body=body, ignore_unavailable=True, allow_no_indices=True
                )
            except Exception as exc:  # noqa: BLE001 - a refusal is not a leak
                if type(exc).__name__ in ("BadRequestError", "AuthorizationException", "NotFoundError", "ApiError"):
                    return 0, []
                raise
            _seen(world, len(r["hits"]["hits"]))
            leaks = [
                (op, who, h["_id"], h["_source"].get("text"))
                for h in r["hits"]["hits"]
                if not raw_ok(world, who, h["_source"])
            ]
            if aggs:
                tenant = who.split("/")[0]
                leaks += [
                    (op, who, "agg-tenant", b["key"]) for b in r["aggregations"]["t"]["buckets"] if b["key"] != tenant
                ]
                if "/" in who:
                    ok = {"acme", "user:alice", "alice"}
                    leaks += [
                        (op, who, "agg-owner", b["key"])
                        for b in r["aggregations"]["o"]["buckets"]
                        if b["key"] not in ok
                    ]
        elif op == "raw_mget":
            who, keys = args
            client = world.raw[who]
            ids = [s for s, (t, *_rest) in _doc_ids(world).items() if _rest and _rest[-1] in keys]
            for index in ("semantic", "episodic", "procedural"):
                r = client.mget(index=f"{world.prefix}-{index}-000001", ids=ids or ["x"])
                leaks += [
                    (op, who, d["_id"], d["_source"].get("text"))
                    for d in r["docs"]
                    if d.get("found") and not raw_ok(world, who, d["_source"])
                ]
        elif op == "store":
            who, prefix, offset = args
            store = _store(world, who)
            namespaces = store.list_namespaces(prefix=prefix or None, limit=1000)
            _seen(world, len(namespaces))
            for ns in namespaces:
                if len(ns) >= 3 and ns[0] == "memories" and ns[2] != who:
                    leaks.append((op, who, "namespace", ns))
            for item in store.search(prefix or ("memories",), limit=50, offset=offset):
                if len(item.namespace) >= 3 and item.namespace[2] != who:
                    leaks.append((op, who, item.key, item.value.get("content")))
        else:
            raise AssertionError(op)
    except LangmemEsError as exc:
        with _lock:
            ERRORS[f"{op}:{type(exc).__name__}"] = ERRORS.get(f"{op}:{type(exc).__name__}", 0) + 1
        return 1, []
    return 0, leaks


_ids_cache: dict[str, dict[str, tuple]] = {}
_stores: dict[tuple[str, str], Any] = {}


def _doc_ids(world: World) -> dict[str, tuple]:
    """Stored ``_id`` -> (tenant, scope, owner, key) of every seeded memory (admin view)."""
    if world.prefix not in _ids_cache:
        r = world.admin.search(
            index=f"{world.prefix}-episodic,{world.prefix}-semantic,{world.prefix}-procedural",
            query={"term": {"record": "memory"}},
            size=5000,
        )
        _ids_cache[world.prefix] = {
            h["_id"]: (h["_source"]["tenant"], h["_source"]["scope"], h["_source"]["owner"], h["_source"]["key"])
            for h in r["hits"]["hits"]
        }
    return _ids_cache[world.prefix]


def _store(world: World, who: str) -> Any:
    from elasticsearch import Elasticsearch

    from langmem_es.store import ElasticsearchMemoryStore

    with _lock:
        if (world.prefix, who) not in _stores:
            cred = world.creds[who]
            client = Elasticsearch(**cred.client_kwargs(world.url), request_timeout=30)
            _stores[(world.prefix, who)] = ElasticsearchMemoryStore(
                client, prefix=world.prefix, index={"dims": DIMS, "embed": hash_embed, "fields": ["content"]}
            )
        return _stores[(world.prefix, who)]


def run_batch(world: World, batch: list[tuple]) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:  # many tenants in parallel
        results = list(pool.map(lambda a: run_attempt(world, a), batch))
    with _lock:
        stats = REPORT.setdefault(world.mode, {"attempts": 0, "leaks": 0, "typed_errors": 0})
        stats["attempts"] += len(batch)
        for errors, leaks in results:
            stats["typed_errors"] += errors
            stats["leaks"] += len(leaks)
            world.leaked.extend(leaks)


def _seen(world: World, n: int) -> None:
    with _lock:
        RETURNED[world.mode] = RETURNED.get(world.mode, 0) + n


def _check_intact(world: World) -> None:
    """Nothing was forgotten by an attacker: every seeded memory still exists."""
    for tenant in TENANTS:
        ident = Identity(tenant=tenant, user_id="alice", agent_id="helper", conversation_id="c1")
        have = {m["id"] for m in world.cores[tenant].export(ident, scopes=list(SCOPES), include_tombstones=False)}
        assert world.truth.allowed(ident) <= have, f"{world.mode}: memories of {tenant} disappeared"


def _report(world: World) -> None:
    stats = REPORT.get(world.mode, {})
    print(
        f"\n[isolation:{world.mode}] attempts={stats.get('attempts')} leaks={stats.get('leaks')} "
        f"typed_errors={stats.get('typed_errors')} items_returned={RETURNED.get(world.mode)}"
    )
    print("  typed errors by op:", dict(sorted(ERRORS.items())))
    ERRORS.clear()
    for leak in world.leaked[:20]:
        print("  LEAK", leak)


EXAMPLES = {"library-es": 140, "library-sqlite": 200, "dls": 140}  # × BATCH attempts each  # × BATCH attempts each


@pytest.mark.parametrize("world_name", ["library_sqlite_world", "library_es_world", "dls_world"])
def test_no_leaks(world_name: str, request: pytest.FixtureRequest) -> None:
    world: World = request.getfixturevalue(world_name)

    @settings(
        max_examples=EXAMPLES[world.mode],
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(attempt_strategy(world), min_size=BATCH, max_size=BATCH))
    def attack(batch: list[tuple]) -> None:
        run_batch(world, batch)

    try:
        attack()
    finally:
        _report(world)
    _check_intact(world)
    assert REPORT[world.mode]["attempts"] >= EXAMPLES[world.mode] * BATCH
    assert not world.leaked, f"{len(world.leaked)} leaked documents in {world.mode}: {world.leaked[:5]}"


def test_total_attempts() -> None:
    """Runs last in this module: the three worlds together made at least 10,000 attempts."""
    total = sum(s["attempts"] for s in REPORT.values())
    leaks = sum(s["leaks"] for s in REPORT.values())
    print(f"\n[isolation:total] attempts={total} leaks={leaks} per mode={REPORT}")
    if len(REPORT) < 3:
        pytest.skip("run with the whole module to count all worlds")
    assert total >= 10_000 and leaks == 0
