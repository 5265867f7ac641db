"""Deploying on a LangGraph server: our store as the server's store, and its ``/store`` endpoints confined.

A LangGraph deployment (``langgraph dev``, LangGraph Platform) names both in ``langgraph.json``
(see ``examples/langgraph-server/``)::

    {"graphs": {"agent": "./agent.py:graph"},
     "store": {"path": "./store.py:generate_store"},
     "auth": {"path": "./auth.py:auth"}}

* :func:`memory_store` is an async context manager yielding the store the server hands to
  every run and to its ``/store`` endpoints: the embedded SQLite store, or Elasticsearch.
* :func:`authorize_store` is a handler for ``auth.on.store()``. Runs are confined by
  :func:`~langmem_es.integration.identity_from_config` (the authenticated user decides who
  asks); the server's ``/store`` endpoints are not runs, and a client names any namespace
  it likes there. The handler lets a caller reach only:

  ================================================  =========================================
  namespace                                         who
  ================================================  =========================================
  ``("memories", kind, tenant, "private", owner)``  ``owner`` is ``user:<the caller>``
  ``("memories", kind, tenant, "shared", tenant)``  members read; owners (role) also write
  ``(tenant, ...)``                                 every member of the tenant
  ================================================  =========================================

  ``tenant`` is always the caller's (:func:`~langmem_es.integration.identity.tenant_of_auth_user`).
  Conversation memories are refused here (the endpoint cannot prove whose thread it is: read
  them through a run on the thread). Prefixes of ``search`` and ``list_namespaces`` are
  confined too: no prefix means ``(tenant,)``; a memory prefix must name kind, tenant and
  scope, and a private one is narrowed to the caller's own owner. Anything else is an HTTP
  403 naming the rule — a forged namespace is refused, never rewritten into another.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from langgraph.store.base import BaseStore
from langgraph_sdk.auth.exceptions import HTTPException
from langgraph_sdk.auth.types import AuthContext

from ..errors import ClusterUnavailableError, IdentityError
from ..model import KINDS, ROOT
from ..settings import Connection
from .identity import AUTH_USER_KEY, roles_from_configurable, tenant_of_auth_user

__all__ = ["Caller", "authorize_store", "check_namespace", "confine_prefix", "memory_store"]

DEFAULT_PATH = "langmem-es.db"
_MEMORY_SHAPE = "('memories', kind, tenant, 'private' | 'shared', owner)"


@asynccontextmanager
async def memory_store(
    backend: str = "sqlite",
    *,
    path: str = DEFAULT_PATH,
    connection: Connection | None = None,
    prefix: str = "langmem",
) -> AsyncIterator[BaseStore]:
    """The store of a LangGraph deployment, open while the server runs.

    ``backend``: ``"sqlite"`` (the file ``path``) or ``"elasticsearch"`` (the cluster of
    ``connection``, e.g. :func:`~langmem_es.settings.connection_from_env`; indices named
    after ``prefix``). Nothing is read from the environment here: the deployment's
    ``store.py`` decides. Building the store, and loading what the async path would
    otherwise load on the event loop at first use (the token encoding, the statement
    parser: ``langgraph dev`` refuses blocking calls there), runs in a worker thread.
    """
    await asyncio.to_thread(_warm_up)
    if backend == "sqlite":
        from ..store import SQLiteMemoryStore

        store = await asyncio.to_thread(SQLiteMemoryStore, path, prefix=prefix)
        try:
            yield store
        finally:
            await asyncio.to_thread(store.close)
    elif backend == "elasticsearch":
        from ..store import AsyncElasticsearchMemoryStore

        if connection is None:
            raise ClusterUnavailableError(
                "memory_store('elasticsearch') needs its cluster: connection=require_connection() "
                "(LANGMEM_ES_URL and LANGMEM_ES_API_KEY or _USER/_PASSWORD, or `langmem-es es start`)"
            )
        async with AsyncElasticsearchMemoryStore.from_conn_string(connection, prefix=prefix) as es_store:
            yield es_store
    else:
        raise ValueError(f"memory_store backend is 'sqlite' or 'elasticsearch', got {backend!r}")


def _warm_up() -> None:
    from ..core.statements.phrases import nlp
    from ..tokens import get_encoding

    get_encoding()
    nlp()


@dataclass(frozen=True)
class Caller:
    """The authenticated caller of a ``/store`` endpoint: who, of which tenant, and whether an owner."""

    identity: str
    tenant: str
    owner: bool = False

    @property
    def private_owner(self) -> str:
        return f"user:{self.identity}"

    @classmethod
    def of(cls, user: Any) -> Caller:
        """The caller an authenticated LangGraph user is (403 without an identity or a tenant)."""
        identity = user.get("identity") if isinstance(user, Mapping) else getattr(user, "identity", None)
        if not identity:
            raise _refuse("the store needs an authenticated user")
        try:  # the rules of runs (identity.py): tenant and roles from the authenticated user only
            tenant = tenant_of_auth_user(user)
            roles = roles_from_configurable({AUTH_USER_KEY: user})
        except IdentityError as exc:
            raise _refuse(str(exc)) from None
        return cls(identity=str(identity), tenant=tenant, owner="owner" in roles)


async def authorize_store(ctx: AuthContext, value: dict[str, Any]) -> None:
    """``auth.on.store()`` handler: the namespace rules of this module, for every store action.

    ``get``, ``put`` and ``delete`` must name an allowed namespace (a put or delete is a
    write); ``search`` and ``list_namespaces`` have their prefix confined in place.
    """
    caller = Caller.of(ctx.user)
    namespace = value.get("namespace")
    if ctx.action in ("search", "list_namespaces"):
        value["namespace"] = confine_prefix(caller, namespace)
    else:
        check_namespace(caller, tuple(namespace or ()), write=ctx.action in ("put", "delete"))


def check_namespace(caller: Caller, namespace: Sequence[str], *, write: bool) -> None:
    """Raise 403 unless ``caller`` may read (or, with ``write``, write) items at ``namespace``.

    >>> check_namespace(Caller("mallory", "acme"), ("memories", "semantic", "acme", "private", "user:alice"), write=False)
    Traceback (most recent call last):
    ...
    langgraph_sdk.auth.exceptions.HTTPException: ...private memories of user:alice are not yours...
    """
    ns = tuple(namespace)
    if not ns:
        raise _refuse(f"name a namespace: {_MEMORY_SHAPE} or ({caller.tenant!r}, ...)")
    if ns[0] != ROOT:
        if ns[0] != caller.tenant:
            raise _refuse(f"namespaces outside 'memories' start with your tenant: ({caller.tenant!r}, ...)")
        return
    if len(ns) < 5:
        raise _refuse(f"a memory namespace is {_MEMORY_SHAPE}")
    _check_memory(caller, ns, write=write)


def confine_prefix(caller: Caller, prefix: Sequence[str] | None) -> tuple[str, ...]:
    """The prefix a ``search``/``list_namespaces`` of ``caller`` may use: ``prefix`` itself,
    ``(tenant,)`` for none, a private memory prefix narrowed to the caller; else 403.

    >>> confine_prefix(Caller("mallory", "acme"), ("memories", "semantic", "acme", "private"))
    ('memories', 'semantic', 'acme', 'private', 'user:mallory')
    >>> confine_prefix(Caller("mallory", "acme"), None)
    ('acme',)
    """
    ns = tuple(prefix or ())
    if not ns:
        return (caller.tenant,)
    if ns[0] != ROOT:
        check_namespace(caller, ns, write=False)
        return ns
    if len(ns) < 4:
        raise _refuse(
            "a memory prefix names kind, tenant and scope: ('memories', kind, tenant, 'private' | 'shared'); "
            "a shorter one would reach other tenants and other users"
        )
    _check_memory(caller, ns, write=False)
    if len(ns) == 4 and ns[3] == "private":
        return (*ns, caller.private_owner)
    return ns


def _check_memory(caller: Caller, ns: tuple[str, ...], *, write: bool) -> None:
    """``ns``: ``("memories", kind, tenant, scope[, owner, ...])``."""
    kind, tenant, scope = ns[1], ns[2], ns[3]
    owner = ns[4] if len(ns) > 4 else None
    if kind not in KINDS:
        raise _refuse(f"unknown memory kind {kind!r}; kinds: {list(KINDS)}")
    if tenant != caller.tenant:
        raise _refuse(f"tenant {tenant!r} is not yours ({caller.tenant!r})")
    if scope == "private":
        if owner is not None and owner != caller.private_owner:
            raise _refuse(f"the private memories of {owner} are not yours ({caller.private_owner})")
    elif scope == "shared":
        if owner is not None and owner != caller.tenant:
            raise _refuse(f"shared memories belong to the tenant: owner {caller.tenant!r}, not {owner!r}")
        if write and not caller.owner:
            raise _refuse("shared memories are written by an owner of the tenant (role 'owner')")
    elif scope == "conversation":
        raise _refuse("conversation memories are reached through a run on their thread, not through /store")
    else:
        raise _refuse(f"unknown memory scope {scope!r}; scopes here: 'private', 'shared'")


def _refuse(detail: str) -> HTTPException:
    return HTTPException(status_code=403, detail=f"store namespace refused: {detail}")
