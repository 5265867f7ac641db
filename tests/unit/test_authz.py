"""The authorisation rules (core/authz.py): the default policy, fail-closed decisions, roles from config."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from langmem_es.core import authz
from langmem_es.core.authz import Policy, Request
from langmem_es.errors import IdentityError, PermissionDeniedError, ScopeViolationError
from langmem_es.integration.identity import identity_from_config
from langmem_es.model import Identity, Memory

T = "acme"
ALICE = Identity(tenant=T, user_id="alice", agent_id="support", conversation_id="c1")
BOB = Identity(tenant=T, user_id="bob", agent_id="support", conversation_id="c2")
OWNER = Identity(tenant=T, user_id="olga", roles={"owner"})
CURATOR = Identity(tenant=T, user_id="bob", agent_id="kb-curator")
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


def mem(scope: str, owner: str, by: Identity, **kw) -> Memory:
    return Memory(
        id="m1",
        kind="semantic",
        scope=scope,
        tenant=T,
        owner=owner,
        content="x",
        written_at=NOW,
        written_by=by.agent_id or by.user_id,
        metadata={"provenance": authz.provenance(by)},
        **kw,
    )


def ok(rules, who, req) -> bool:
    return authz.allowed(rules, who, req)


def test_members_write_private_and_conversation_not_shared() -> None:
    p = Policy()
    for scope in ("private", "conversation"):
        assert ok(p, ALICE, Request("write", scope))
    assert not ok(p, ALICE, Request("write", "shared"))
    assert ok(p, OWNER, Request("write", "shared"))
    with pytest.raises(PermissionDeniedError, match="shared_writers") as err:
        authz.authorize(p, ALICE, Request("write", "shared"))
    assert isinstance(err.value, ScopeViolationError) and isinstance(err.value, PermissionError)


def test_shared_writes_enabled_per_agent() -> None:
    p = Policy(shared_writers={"kb-curator"})
    assert ok(p, CURATOR, Request("write", "shared")) and not ok(p, ALICE, Request("write", "shared"))
    assert ok(Policy(shared_writers={"*"}), ALICE, Request("write", "shared"))
    assert not ok(Policy(shared_writers={"*"}), Identity(tenant=T, user_id="u"), Request("write", "shared"))


def test_forget_and_supersede_shared_take_the_author_or_an_owner() -> None:
    p = Policy(shared_writers={"support"})
    playbook = mem("shared", T, ALICE)
    assert ok(p, ALICE, Request("forget", target=playbook))
    assert not ok(p, BOB, Request("forget", target=playbook))  # same agent, another user: not the author
    assert ok(p, OWNER, Request("forget", target=playbook))
    assert ok(p, ALICE, Request("supersede", target=playbook))
    assert not ok(p, BOB, Request("supersede", target=playbook))
    assert ok(p, BOB, Request("supersede", target=playbook, conflict=True))  # recorded as an open conflict
    assert not ok(Policy(), BOB, Request("supersede", target=playbook, conflict=True))  # not a shared writer


def test_private_memories_are_only_their_owners() -> None:
    p = Policy()
    note = mem("private", "user:alice", ALICE)
    assert ok(p, ALICE, Request("forget", target=note))
    for who in (BOB, OWNER):
        assert not ok(p, who, Request("forget", target=note)) and not ok(p, who, Request("supersede", target=note))


def test_owner_only_operations() -> None:
    p = Policy(shared_writers={"*"})
    for action in ("resolve", "audit_log", "purge_user", "review"):
        assert not ok(p, ALICE, Request(action)) and ok(p, OWNER, Request(action))  # type: ignore[arg-type]
    assert ok(p, ALICE, Request("export", user_id="alice")) and ok(p, ALICE, Request("export"))
    assert not ok(p, ALICE, Request("export", user_id="bob")) and ok(p, OWNER, Request("export", user_id="bob"))


def test_import_of_anothers_private_memories_needs_adopt() -> None:
    p = Policy()
    assert ok(p, BOB, Request("import", "private"))
    assert not ok(p, BOB, Request("import", "private", user_id="alice"))
    assert ok(p, BOB, Request("import", "private", user_id="alice", adopt=True))
    assert not ok(p, BOB, Request("import", "shared"))


def test_pending_shared_writes_are_seen_by_author_and_owners() -> None:
    pending = mem("shared", T, ALICE, status="pending")
    p = Policy()
    assert ok(p, ALICE, Request("read", target=pending)) and ok(p, OWNER, Request("read", target=pending))
    assert not ok(p, BOB, Request("read", target=pending))


def test_outcomes_are_counted_by_readers_and_pass_the_rules(tmp_path) -> None:
    from langmem_es.backends.sqlite import SQLiteBackend
    from langmem_es.core import MemoryCore

    playbook = mem("shared", T, OWNER)
    assert ok(Policy(), BOB, Request("outcome", "shared", target=playbook))  # feedback on what one may read
    assert not ok(Policy(), BOB, Request("outcome", "shared", target=mem("shared", T, ALICE, status="pending")))

    def no_feedback(identity, request):
        return request.action != "outcome" or "outcomes are recorded by the ops team"

    core = MemoryCore(
        SQLiteBackend(str(tmp_path / "m.db")), embeddings=lambda texts: [[1.0, 0.0]] * len(texts), rules=no_feedback
    )
    core.setup()
    pid = core.remember(
        OWNER, "Restart the hub, then re-pair it.", kind="procedural", scope="shared", reason="Team playbook."
    ).id
    with pytest.raises(PermissionDeniedError, match="ops team"):
        core.record_outcome(BOB, pid, success=False, problem="hub offline")
    assert core.get(OWNER, pid).failure_count == 0
    core.close()


@pytest.mark.parametrize("verdict", [False, None, "", "no", 1, "yes", [True]])
def test_custom_rules_fail_closed(verdict) -> None:
    assert not ok(lambda i, r: verdict, OWNER, Request("write", "private"))


def test_broken_custom_rules_deny_with_the_cause() -> None:
    def broken(identity, request):
        raise RuntimeError("db down")

    with pytest.raises(PermissionDeniedError, match="rules failed.*db down"):
        authz.authorize(broken, OWNER, Request("write", "private"))
    assert not ok(Policy(), OWNER, Request("launch_missiles"))  # type: ignore[arg-type]


def test_custom_rules_replace_the_policy() -> None:
    def read_only(identity, request):
        return request.action == "read" or "this deployment is read-only"

    assert ok(read_only, ALICE, Request("read"))
    with pytest.raises(PermissionDeniedError, match="read-only"):
        authz.authorize(read_only, OWNER, Request("write", "private"))


# -- roles come from the config only -----------------------------------------------------------


def cfg(**kw):
    return {"configurable": {"tenant_id": T, "user_id": "alice", **kw}}


def test_roles_from_configurable() -> None:
    assert identity_from_config(cfg()).roles == {"member"}
    assert identity_from_config(cfg(roles=["owner"])).is_owner
    assert identity_from_config(cfg(role="owner")).is_owner
    with pytest.raises(IdentityError, match="unknown role"):
        identity_from_config(cfg(role="admin"))


def test_the_authenticated_user_decides_over_the_configurable() -> None:
    """On a LangGraph server a client can send a configurable; it cannot forge its authenticated user."""
    member = {"identity": "alice", "tenant_id": T, "permissions": ["threads:write"]}
    assert not identity_from_config(cfg(roles=["owner"], langgraph_auth_user=member)).is_owner
    assert identity_from_config(cfg(langgraph_auth_user={**member, "permissions": ["memory:owner"]})).is_owner

    class User:  # like langgraph_sdk's BaseUser: attributes, not a mapping
        identity = "alice"
        permissions = ("owner",)
        tenant_id = T

    assert identity_from_config(cfg(langgraph_auth_user=User())).is_owner


def test_the_authenticated_user_decides_who_asks() -> None:
    """The user and tenant are the authenticated user's; a configurable naming others is refused."""
    mallory = {"identity": "mallory", "org_id": T}
    ident = identity_from_config(
        {"configurable": {"thread_id": "t1", "agent_id": "bot", "langgraph_auth_user": mallory}}
    )
    assert (ident.tenant, ident.user_id, ident.agent_id, ident.conversation_id) == (T, "mallory", "bot", "t1")
    assert identity_from_config(cfg(user_id="mallory", langgraph_auth_user=mallory)).user_id == "mallory"
    for forged in (
        cfg(langgraph_auth_user=mallory),
        cfg(user_id="mallory", tenant_id="other", langgraph_auth_user=mallory),
    ):
        with pytest.raises(IdentityError, match="authenticated user is 'mallory'"):
            identity_from_config(forged)
    with pytest.raises(IdentityError, match="authenticated user is 'mallory'"):  # nor through the runtime context
        identity_from_config({"configurable": {"langgraph_auth_user": mallory}}, context={"user_id": "alice"})
    with pytest.raises(IdentityError, match="has no tenant"):
        identity_from_config(cfg(user_id="mallory", langgraph_auth_user={"identity": "mallory"}))
    with pytest.raises(IdentityError, match="not authenticated"):
        identity_from_config(cfg(langgraph_auth_user={"identity": "", "tenant_id": T}))


def test_an_application_names_the_tenant_of_its_authenticated_users() -> None:
    from langmem_es.integration.identity import set_tenant_resolver

    user = {"identity": "sam", "team": "blue", "tenant_id": "ignored"}
    try:
        set_tenant_resolver("team")
        assert identity_from_config({"configurable": {"langgraph_auth_user": user}}).tenant == "blue"
        set_tenant_resolver(lambda u: f"org-{u['team']}")
        assert identity_from_config({"configurable": {"langgraph_auth_user": user}}).tenant == "org-blue"
        set_tenant_resolver(lambda u: None)
        with pytest.raises(IdentityError, match="resolver returned none"):
            identity_from_config({"configurable": {"langgraph_auth_user": user}})
        with pytest.raises(TypeError):
            set_tenant_resolver(42)  # type: ignore[arg-type]
    finally:
        set_tenant_resolver(None)
    assert identity_from_config({"configurable": {"langgraph_auth_user": user}}).tenant == "ignored"


def test_roles_never_come_from_the_runtime_context() -> None:
    ident = identity_from_config({"configurable": {}}, context={"tenant_id": T, "user_id": "a", "roles": ["owner"]})
    assert not ident.is_owner
