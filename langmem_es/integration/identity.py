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
================  ==============================  ====================================

A missing key raises :class:`~langmem_es.errors.IdentityError` listing the keys that
were present and the keys that are needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import IdentityError
from ..model import Identity

__all__ = ["IDENTITY_KEYS", "identity_from_config"]

IDENTITY_KEYS = ("tenant_id", "workspace_id", "user_id", "agent_id", "thread_id", "conversation_id")
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
    conversation = values.get("thread_id") or values.get("conversation_id")
    missing = []
    if not tenant:
        missing.append("tenant_id (or workspace_id)")
    if not (user_id or agent_id):
        missing.append("user_id or agent_id")
    if missing:
        present = sorted({k for k in configurable if not k.startswith("__") and not k.startswith("checkpoint_")}
                         | set(_as_mapping(context)))
        raise IdentityError(
            f"memory identity incomplete: missing {' and '.join(missing)}. "
            f"Keys present in config['configurable'] / context: {present or 'none'}. "
            f"Needed: {_NEEDED}. Set them where the graph or tool is invoked, e.g. "
            "config={'configurable': {'tenant_id': ..., 'user_id': ...}} — never from model output."
        )
    try:
        return Identity(tenant=str(tenant), user_id=_str(user_id), agent_id=_str(agent_id),
                        conversation_id=_str(conversation))
    except ValueError as exc:
        raise IdentityError(f"memory identity invalid: {exc}") from None


def _has_identity(configurable: Mapping[str, Any]) -> bool:
    return bool((configurable.get("tenant_id") or configurable.get("workspace_id"))
                and (configurable.get("user_id") or configurable.get("agent_id")))


def _str(v: Any) -> str | None:
    return None if v is None else str(v)
