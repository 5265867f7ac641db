"""Identity comes from config["configurable"] / the runtime context, never from the model."""

from __future__ import annotations

import doctest
from dataclasses import dataclass

import pytest
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict

from langmem_es.errors import IdentityError, LangmemEsError
from langmem_es.integration import identity as identity_mod
from langmem_es.integration import identity_from_config
from langmem_es.model import Identity


def test_all_keys() -> None:
    ident = identity_from_config(
        {"configurable": {"tenant_id": "acme", "user_id": "sam", "agent_id": "helpdesk", "thread_id": "t-1"}}
    )
    assert ident == Identity(tenant="acme", user_id="sam", agent_id="helpdesk", conversation_id="t-1")


def test_workspace_alias_and_agent_only() -> None:
    ident = identity_from_config({"configurable": {"workspace_id": "team", "agent_id": "bot"}})
    assert (ident.tenant, ident.user_id, ident.agent_id, ident.conversation_id) == ("team", None, "bot", None)


def test_non_string_values_are_stringified() -> None:
    assert identity_from_config({"configurable": {"tenant_id": 7, "user_id": 42}}).user_id == "42"


def test_missing_tenant_lists_present_and_needed_keys() -> None:
    with pytest.raises(IdentityError) as err:
        identity_from_config(
            {"configurable": {"user_id": "sam", "thread_id": "t", "__pregel_send": object(), "checkpoint_ns": ""}}
        )
    msg = str(err.value)
    assert "missing tenant_id (or workspace_id)" in msg
    assert "['thread_id', 'user_id']" in msg  # present keys, internal ones left out
    assert "Needed: tenant_id (or workspace_id), and user_id or agent_id" in msg
    assert isinstance(err.value, LangmemEsError) and isinstance(err.value, KeyError)


def test_missing_principal() -> None:
    with pytest.raises(IdentityError, match=r"missing user_id or agent_id.*\['tenant_id'\]"):
        identity_from_config({"configurable": {"tenant_id": "acme"}})


def test_nothing_at_all() -> None:
    with pytest.raises(IdentityError, match="present in config.*none"):
        identity_from_config({})


def test_invalid_value() -> None:
    with pytest.raises(IdentityError, match="invalid"):
        identity_from_config({"configurable": {"tenant_id": "acme", "user_id": "   "}})


def test_context_dict_dataclass_and_pydantic() -> None:
    @dataclass
    class Ctx:
        tenant_id: str
        user_id: str

    from pydantic import BaseModel

    class PCtx(BaseModel):
        tenant_id: str
        agent_id: str

    assert identity_from_config({}, context={"tenant_id": "a", "user_id": "u"}).user_id == "u"
    assert identity_from_config({}, context=Ctx("a", "u2")).user_id == "u2"
    assert identity_from_config({}, context=PCtx(tenant_id="a", agent_id="bot")).agent_id == "bot"


def test_config_wins_over_context() -> None:
    ident = identity_from_config(
        {"configurable": {"tenant_id": "acme", "user_id": "from-config"}},
        context={"tenant_id": "other", "user_id": "from-context"},
    )
    assert (ident.tenant, ident.user_id) == ("acme", "from-config")


def test_inside_a_graph_config_and_runtime_context() -> None:
    seen: list[Identity] = []

    class S(TypedDict):
        x: int

    def node(state: S) -> dict:
        seen.append(identity_from_config())
        return {}

    @dataclass
    class Ctx:
        tenant_id: str
        user_id: str

    b = StateGraph(S, context_schema=Ctx)
    b.add_node("n", node)
    b.add_edge(START, "n")
    g = b.compile()
    g.invoke({"x": 1}, {"configurable": {"tenant_id": "acme", "user_id": "sam", "thread_id": "t9"}})
    g.invoke({"x": 1}, context=Ctx("ctx-tenant", "ctx-user"))
    assert seen[0] == Identity(tenant="acme", user_id="sam", conversation_id="t9")
    assert (seen[1].tenant, seen[1].user_id) == ("ctx-tenant", "ctx-user")


def test_module_doctests() -> None:
    failures, _ = doctest.testmod(identity_mod, optionflags=doctest.ELLIPSIS)
    assert failures == 0
