"""The memory model: kinds, scopes, statuses, identity, and the memory record itself.

A memory lives in the LangGraph store namespace
``("memories", <kind>, <tenant>, <scope>, <owner>)`` under its id as key, so the
LangGraph store and the memory core see the same documents: the store adapter routes
a namespace to its kind's collection (:func:`collection_for`) and promotes the memory's
fields to top-level document fields (:func:`memory_fields`) for filtering.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .port import Collection
from .text_memo import TextMemo, digest

Kind = Literal["episodic", "semantic", "procedural"]
Scope = Literal["conversation", "shared", "private"]
Status = Literal["active", "superseded", "soft_deleted", "forgotten", "pending"]
"""``pending``: a shared write waiting for an owner's review (``MemoryConfig.shared_writes="review"``)."""
KINDS: tuple[Kind, ...] = get_args(Kind)
SCOPES: tuple[Scope, ...] = get_args(Scope)
STATUSES: tuple[Status, ...] = get_args(Status)
ROOT = "memories"


def memory_namespace(kind: Kind, tenant: str, scope: Scope, owner: str) -> tuple[str, ...]:
    return (ROOT, kind, tenant, scope, owner)


def collection_for(namespace: Sequence[str]) -> Collection:
    """The collection a store namespace lives in: its kind's index, or ``items``."""
    if len(namespace) >= 2 and namespace[0] == ROOT and namespace[1] in KINDS:
        return namespace[1]
    return "items"


def content_hash(text: str) -> str:
    """Exact-duplicate fingerprint: case, accents, punctuation and spacing folded.

    >>> content_hash("Café  au lait!") == content_hash("cafe au LAIT")
    True
    """
    return _short_hash(text) if len(text) <= 4096 else _LONG_HASHES.get(text, None, lambda: _hash(text))


def _hash(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).casefold()
    if not folded.isascii():  # ASCII text has no combining marks to drop
        folded = "".join(c for c in folded if not unicodedata.combining(c))
    folded = " ".join(_WORD.findall(folded))
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()[:32]


_WORD = re.compile(r"\w+")
#: a write hashes its text several times (id, dedupe, stored field): short texts are remembered
_short_hash = functools.lru_cache(maxsize=4096)(_hash)
#: long texts by their digest (recall checks the long memories it returns turn after turn)
_LONG_HASHES: TextMemo[str] = TextMemo(1024, key=digest)  # a collision would merge two memories


ROLES = ("member", "owner")
"""Roles inside a tenant: ``member`` (the default) and ``owner`` (administers the workspace)."""


class Identity(BaseModel):
    """Who is asking: set by the application from config, never by the model.

    ``tenant`` is the workspace/team; ``user_id`` and ``agent_id`` own private memories;
    ``conversation_id`` owns conversation-scoped ones. ``roles`` says what the caller may
    do inside the tenant (``member`` by default; ``owner`` administers the workspace);
    they come from the application's configuration or authentication, never from a model.
    """

    model_config = ConfigDict(frozen=True)

    tenant: str
    user_id: str | None = None
    agent_id: str | None = None
    conversation_id: str | None = None
    roles: frozenset[str] = frozenset({"member"})

    @field_validator("roles", mode="before")
    @classmethod
    def _known_roles(cls, v: object) -> frozenset[str]:
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, (list, tuple, set, frozenset)) and v is not None:
            raise ValueError(f"roles must be a list of role names, got {type(v).__name__}")
        roles = frozenset(str(r) for r in v or ())
        unknown = roles - set(ROLES)
        if unknown:
            raise ValueError(f"unknown role(s) {sorted(unknown)}; known: {list(ROLES)}")
        return roles or frozenset({"member"})

    @property
    def is_owner(self) -> bool:
        """True when the caller administers the tenant (role ``owner``)."""
        return "owner" in self.roles

    @field_validator("tenant", "user_id", "agent_id", "conversation_id")
    @classmethod
    def _no_blank(cls, v: str | None) -> str | None:
        if v is not None and (not v.strip() or len(v) > 256 or any(ord(c) < 32 for c in v)):
            raise ValueError("identity values must be 1-256 printable characters")
        return v

    def owners(self) -> dict[Scope, list[str]]:
        """The owners whose memories this identity may read, per scope."""
        private = [o for o in (self.user_owner, self.agent_owner) if o]
        return {
            "shared": [self.tenant],
            "private": private,
            "conversation": [f"conversation:{self.conversation_id}"] if self.conversation_id else [],
        }

    @property
    def user_owner(self) -> str | None:
        return f"user:{self.user_id}" if self.user_id else None

    @property
    def agent_owner(self) -> str | None:
        return f"agent:{self.agent_id}" if self.agent_id else None

    def owner_for(self, scope: Scope) -> str:
        """The owner a new memory of ``scope`` gets; raises if the identity lacks it."""
        if scope == "shared":
            return self.tenant
        if scope == "conversation":
            if not self.conversation_id:
                raise ValueError(
                    "a conversation-scoped memory needs a conversation: conversation_id in the identity "
                    "(LangGraph: the thread_id; the HTTP API and MCP: the X-Conversation-Id header; "
                    "langmem-es mcp: --conversation)"
                )
            return f"conversation:{self.conversation_id}"
        owner = self.user_owner or self.agent_owner
        if not owner:
            raise ValueError("a private memory needs user_id or agent_id in the identity")
        return owner


class Memory(BaseModel):
    """One memory. Stable JSON: ``Memory.model_json_schema()`` documents every field."""

    model_config = ConfigDict(extra="forbid")

    id: str
    kind: Kind
    scope: Scope
    tenant: str
    owner: str
    content: str
    reason: str | None = Field(None, description="One sentence: why this is worth keeping.")
    subject_key: str | None = Field(None, description="What the fact is about, e.g. user.home_city.")
    confidence: float = Field(1.0, ge=0.0, le=1.0)
    sources: list[str] = Field(default_factory=list, description="message/turn/document refs")
    written_at: datetime
    written_by: str | None = None
    status: Status = "active"
    supersedes: list[str] = Field(default_factory=list)
    superseded_by: str | None = None
    valid_to: datetime | None = None
    access_count: int = 0
    last_accessed_at: datetime | None = None
    contradiction_count: int = 0
    frozen: bool = Field(False, description="Confidence no longer decays: stable and unchallenged.")
    polarity: Literal["assert", "deny"] = "assert"
    conflict_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    # episodic
    event_time: datetime | None = None
    session_id: str | None = None
    # procedural
    steps: list[str] = Field(default_factory=list)
    success_count: int = 0
    failure_count: int = 0

    @model_validator(mode="after")
    def _check(self) -> Memory:
        if not self.content or not self.content.strip():
            raise ValueError("memory content is empty")
        return self

    @property
    def content_hash(self) -> str:
        return content_hash(self.content)

    @property
    def namespace(self) -> tuple[str, ...]:
        return memory_namespace(self.kind, self.tenant, self.scope, self.owner)


def memory_fields(namespace: Sequence[str], value: Mapping[str, Any]) -> dict[str, Any]:
    """Top-level document fields promoted from a memory value stored at ``namespace``.

    The scope fields come from the namespace (where the store put it), never from the
    value alone; a value that does not look like a memory promotes nothing, and without
    ``tenant``/``scope``/``owner`` no scoped recall will ever return the document.
    """
    if collection_for(namespace) == "items" or len(namespace) != 5:
        return {}
    _, kind, tenant, scope, owner = namespace
    if scope not in SCOPES:
        return {}
    from .documents import iso

    def when(key: str) -> str | None:
        v = value.get(key)
        if isinstance(v, datetime):
            return iso(v)
        return v if isinstance(v, str) else None

    text = value.get("content") if isinstance(value.get("content"), str) else ""
    return {
        "record": "memory",
        "tenant": tenant,
        "scope": scope,
        "owner": owner,
        "kind": kind,
        "status": value.get("status", "active"),
        "subject_key": value.get("subject_key"),
        "content_hash": content_hash(text) if text else None,
        "confidence": value.get("confidence", 1.0),
        "written_at": when("written_at"),
        "written_by": value.get("written_by"),
        "valid_to": when("valid_to"),
        "event_time": when("event_time"),
        "session_id": value.get("session_id"),
        "source_refs": list(value.get("sources") or []),
        "access_count": value.get("access_count", 0),
        "last_accessed_at": when("last_accessed_at"),
        "contradiction_count": value.get("contradiction_count", 0),
        "success_count": value.get("success_count", 0),
        "failure_count": value.get("failure_count", 0),
        "conflict_id": value.get("conflict_id"),
    }
