"""Who is asking: an :class:`~langmem_es.model.Identity` from the run's config, never from the model.

The application sets the identity once, where it invokes the graph::

    graph.invoke({"messages": [...]}, config={"configurable": {
        "tenant_id": "acme", "user_id": "sam", "agent_id": "helpdesk", "thread_id": "t-42"}})

or through LangGraph's runtime context (``context=...`` with the same names, as a dict,
dataclass or pydantic object). Keys read:

================  ==============================  ====================================
key               becomes                         needed
================  ==============================  ====================================
``tenant_id``     ``Identity.tenant``             yes (``workspace_id`` is an alias)
``user_id``       ``Identity.user_id``            ``user_id`` or ``agent_id``
``agent_id``      ``Identity.agent_id``           ``user_id`` or ``agent_id``
``thread_id``     ``Identity.conversation_id``    no (conversation scope needs it)
``roles``         ``Identity.roles``              no (``member`` by default; ``role``
                                                  takes one name)
================  ==============================  ====================================

**Who the caller is, where it is proven.** On a LangGraph server a client sends the
configurable itself; only ``configurable["langgraph_auth_user"]`` (set by the server from
the deployment's auth handler) is proven. Where it is present it decides *who* asks: the
user is its ``identity``, the tenant a field of it (``tenant_id``, else ``org_id``, else
``workspace_id``; :func:`set_tenant_resolver` names another field or a function). A
configurable or context that names another user or tenant is refused with
:class:`~langmem_es.errors.IdentityError` — never obeyed, never silently replaced; agent
and thread ids may still come from it. An authenticated user without an identity or a
tenant is refused too (fail closed).

**Roles** (``member``, ``owner``; see :mod:`langmem_es.core.authz`) are read from
``config["configurable"]`` only — never from the runtime context a tool call could
reach, never from model output. Where the authenticated user is present, its
``permissions`` (``"owner"`` or ``"memory:owner"``) or ``role``/``roles`` decide alone,
and ``roles`` in the configurable are ignored. An unknown role name is an
:class:`~langmem_es.errors.IdentityError` (fail closed, never a silent member).

A missing key raises :class:`~langmem_es.errors.IdentityError` listing the keys that
were present and the keys that are needed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import IdentityError
from ..model import Identity

__all__ = ["IDENTITY_KEYS", "TENANT_FIELDS", "identity_from_config", "set_tenant_resolver", "tenant_of_auth_user"]

IDENTITY_KEYS = ("tenant_id", "workspace_id", "user_id", "agent_id", "thread_id", "conversation_id")
AUTH_USER_KEY = "langgraph_auth_user"
_ROLE_PERMISSION_PREFIX = "memory:"
TENANT_FIELDS = ("tenant_id", "org_id", "workspace_id")
"""The fields of an authenticated user read as its tenant, first present wins (unless a resolver is set)."""
TenantResolver = str | Callable[[Any], Any]
_tenant_resolver: TenantResolver | None = None
_NEEDED = "tenant_id (or workspace_id), and user_id or agent_id; thread_id is optional (conversation scope)"


def _as_mapping(context: Any) -> Mapping[str, Any]:
    if context is None:
        return {}
    if isinstance(context, Mapping):
        return context
    if hasattr(context, "model_dump"):
        return context.model_dump()
    return {k: getattr(context, k) for k in IDENTITY_KEYS if getattr(context, k, None) is not None}


def _current_config() -> Mapping[str, Any] | None:
    try:
        from langgraph.config import get_config

        return get_config()
    except (ImportError, RuntimeError):
        return None


def _runtime_context() -> Any:
    try:
        from langgraph.runtime import get_runtime

        return get_runtime().context
    except Exception:  # outside a graph, or an older langgraph
        return None


def identity_from_config(config: Mapping[str, Any] | None = None, *, context: Any = None) -> Identity:
    """The identity in ``config["configurable"]`` (the running graph's if ``config`` is None),
    completed from the runtime ``context`` (the running graph's if not given).

    >>> identity_from_config({"configurable": {"tenant_id": "acme", "user_id": "sam", "thread_id": "t1"}})
    Identity(tenant='acme', user_id='sam', agent_id=None, conversation_id='t1', roles=frozenset({'member'}))
    >>> identity_from_config({"configurable": {"user_id": "sam"}})
    Traceback (most recent call last):
    ...
    langmem_es.errors.IdentityError: memory identity incomplete: missing tenant_id (or workspace_id). ...
    """
    if config is None:
        config = _current_config()
    configurable = dict((config or {}).get("configurable") or {})
    if context is None and not _has_identity(configurable):
        context = _runtime_context()
    values: dict[str, Any] = {k: v for k, v in _as_mapping(context).items() if k in IDENTITY_KEYS and v is not None}
    values.update({k: v for k, v in configurable.items() if k in IDENTITY_KEYS and v is not None})
    tenant = values.get("tenant_id") or values.get("workspace_id")
    user_id, agent_id = values.get("user_id"), values.get("agent_id")
    auth = configurable.get(AUTH_USER_KEY)
    if auth is not None:
        user_id, tenant = _proven(auth, values)
    conversation = values.get("thread_id") or values.get("conversation_id")
    missing = []
    if not tenant:
        missing.append("tenant_id (or workspace_id)")
    if not (user_id or agent_id):
        missing.append("user_id or agent_id")
    if missing:
        present = sorted(
            {k for k in configurable if not k.startswith("__") and not k.startswith("checkpoint_")}
            | set(_as_mapping(context))
        )
        raise IdentityError(
            f"memory identity incomplete: missing {' and '.join(missing)}. "
            f"Keys present in config['configurable'] / context: {present or 'none'}. "
            f"Needed: {_NEEDED}. Set them where the graph or tool is invoked, e.g. "
            "config={'configurable': {'tenant_id': ..., 'user_id': ...}} — never from model output."
        )
    try:
        return Identity(
            tenant=str(tenant),
            user_id=_str(user_id),
            agent_id=_str(agent_id),
            conversation_id=_str(conversation),
            roles=roles_from_configurable(configurable),
        )
    except ValueError as exc:
        detail = "; ".join(str(e.get("msg", "")) for e in exc.errors()) if hasattr(exc, "errors") else str(exc)
        raise IdentityError(f"memory identity invalid: {detail}") from None


def set_tenant_resolver(resolver: TenantResolver | None) -> None:
    """How an authenticated user's tenant is found: the name of one of its fields, or a
    function of the user returning the tenant id; ``None`` restores :data:`TENANT_FIELDS`.

    Set it once, where the deployment starts (the module of the graph or of the auth handler).
    """
    global _tenant_resolver
    if resolver is not None and not (isinstance(resolver, str) and resolver) and not callable(resolver):
        raise TypeError(f"set_tenant_resolver needs a field name or a function, got {type(resolver).__name__}")
    _tenant_resolver = resolver


def tenant_of_auth_user(user: Any) -> str:
    """The tenant of a LangGraph authenticated user (see :func:`set_tenant_resolver`).

    >>> tenant_of_auth_user({"identity": "sam", "org_id": "acme"})
    'acme'
    >>> tenant_of_auth_user({"identity": "sam"})
    Traceback (most recent call last):
    ...
    langmem_es.errors.IdentityError: the authenticated user 'sam' has no tenant: ...
    """
    resolver = _tenant_resolver
    if callable(resolver):
        tenant = resolver(user)
    else:
        fields = (resolver,) if resolver else TENANT_FIELDS
        tenant = next((v for v in (_field(user, f) for f in fields) if v not in (None, "")), None)
    if tenant in (None, ""):
        where = (
            "the application's tenant resolver returned none"
            if callable(resolver)
            else f"none of its fields {list((resolver,) if resolver else TENANT_FIELDS)} is set"
        )
        raise IdentityError(
            f"the authenticated user {_field(user, 'identity')!r} has no tenant: {where}. Return the tenant "
            "from the deployment's auth handler, or name the field with "
            "langmem_es.integration.identity.set_tenant_resolver(...)"
        )
    return str(tenant)


def _proven(auth: Any, claimed: Mapping[str, Any]) -> tuple[str, str]:
    """``(user_id, tenant)`` of the authenticated user; a claim naming another is refused."""
    identity = _field(auth, "identity")
    if identity in (None, "") or _field(auth, "is_authenticated") is False:
        raise IdentityError("memory identity refused: the LangGraph user is not authenticated (no identity)")
    user_id, tenant = str(identity), tenant_of_auth_user(auth)
    claims = {
        "user_id": (claimed.get("user_id"), user_id),
        "tenant_id": (claimed.get("tenant_id"), tenant),
        "workspace_id": (claimed.get("workspace_id"), tenant),
    }
    for key, (said, proven) in claims.items():
        if said is not None and str(said) != proven:
            raise IdentityError(
                f"memory identity refused: the config names {key}={str(said)!r}, but the authenticated user is "
                f"{user_id!r} of tenant {tenant!r}. The identity comes from the server's authentication; "
                f"leave {key} out of the configurable or set it to the authenticated one."
            )
    return user_id, tenant


def roles_from_configurable(configurable: Mapping[str, Any]) -> frozenset[str]:
    """The caller's roles: the authenticated user's where present, else ``roles``/``role``.

    >>> sorted(roles_from_configurable({"roles": ["owner"]}))
    ['owner']
    >>> sorted(roles_from_configurable({"roles": ["owner"], "langgraph_auth_user": {"permissions": ["read"]}}))
    ['member']
    """
    auth = configurable.get(AUTH_USER_KEY)
    if auth is not None:
        names = [
            *_names(_field(auth, "roles")),
            *_names(_field(auth, "role")),
            *(
                p[len(_ROLE_PERMISSION_PREFIX) :] if isinstance(p, str) and p.startswith(_ROLE_PERMISSION_PREFIX) else p
                for p in _names(_field(auth, "permissions"))
            ),
        ]
        from ..model import ROLES

        # an authenticated user's other permissions ("read", "threads:write") are not memory roles
        return frozenset(n for n in names if n in ROLES) or frozenset({"member"})
    names = [*_names(configurable.get("roles")), *_names(configurable.get("role"))]
    return frozenset(names) or frozenset({"member"})


def _field(obj: Any, name: str) -> Any:
    """A field of an authenticated user: a mapping's key, an attribute, or an item of a user
    object that serves its extra fields by subscription (LangGraph's proxy of the auth result)."""
    if isinstance(obj, Mapping):
        return obj.get(name)
    try:
        value = getattr(obj, name, None)
        if value is None and hasattr(obj, "__getitem__"):
            value = obj[name]
        return value
    except Exception:  # noqa: BLE001 - a user object that cannot answer has no such field
        return None


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    try:
        return [str(v) for v in value]
    except TypeError:
        raise IdentityError(f"roles must be a name or a list of names, got {type(value).__name__}") from None


def _has_identity(configurable: Mapping[str, Any]) -> bool:
    return bool(
        (configurable.get("tenant_id") or configurable.get("workspace_id"))
        and (configurable.get("user_id") or configurable.get("agent_id"))
    )


def _str(v: Any) -> str | None:
    return None if v is None else str(v)
