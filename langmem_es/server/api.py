"""The HTTP API under ``/v1``: the memory core's public operations, one route each.

Every route but ``/v1/health`` needs ``Authorization: Bearer <token>``; the identity
comes from the token alone (bodies have no identity fields and refuse unknown ones).
What a caller may do is the core's decision (scopes and roles); errors come back as
``{"error": TypeName, "message": ...}`` (see :mod:`langmem_es.server.http_errors`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ..model import Identity, Kind, Scope
from .http_errors import NotFound
from .state import ServerState, forget_json, to_json

__all__ = ["router"]

router = APIRouter(prefix="/v1")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RememberBody(_Body):
    content: str = Field(min_length=1)  # the core's limits apply (facts 32,000 characters; events more)
    kind: Kind = "semantic"
    scope: Scope = "private"
    reason: str | None = Field(None, max_length=2000)
    subject_key: str | None = Field(None, max_length=256)
    replaces: list[str] = Field(default_factory=list, max_length=100)
    steps: list[str] = Field(default_factory=list, max_length=50)
    sources: list[str] = Field(default_factory=list, max_length=50)
    event_time: datetime | None = None
    session_id: str | None = Field(None, max_length=256)


class RecallBody(_Body):
    query: str = Field(min_length=1, max_length=4000)
    kinds: list[Kind] | None = None
    scopes: list[Scope] | None = None
    k: int = Field(10, ge=1, le=100)
    include_superseded: bool = False


class ForgetBody(_Body):
    ids: list[str] = Field(default_factory=list, max_length=1000)
    subject_key: str | None = Field(None, max_length=256)
    query: str | None = Field(None, max_length=4000)
    source: str | None = Field(None, max_length=1000)
    k: int = Field(1, ge=1, le=100)
    dry_run: bool = False


class ResolveBody(_Body):
    winner: str = Field(min_length=1, max_length=256)


class OutcomeBody(_Body):
    playbook_id: str = Field(min_length=1, max_length=256)
    success: bool
    problem: str | None = Field(None, max_length=2000)
    note: str | None = Field(None, max_length=2000)


class ImportBody(_Body):
    records: list[dict[str, Any]] = Field(max_length=10_000)
    scope: Scope | None = "private"
    adopt: bool = False


class PurgeBody(_Body):
    user_id: str = Field(min_length=1, max_length=256)
    keep_shared: bool = False


def _state(request: Request) -> ServerState:
    return cast(ServerState, request.app.state.server)


def caller(request: Request) -> Identity:
    """The request's identity (from its bearer token); rate-limited per token."""
    return _state(request).authenticate(request.headers.get("authorization"), request.headers.get("x-conversation-id"))


Caller = Annotated[Identity, Depends(caller)]


def _core(request: Request) -> Any:
    return _state(request).core


@router.get("/health", tags=["meta"])
async def health(request: Request) -> Any:
    """Liveness and the engine's capabilities (no token needed; no tenant data)."""
    caps = _core(request).capabilities
    return {"status": "ok", "engine": caps.engine, "version": caps.version, "license": caps.license}


@router.get("/whoami", tags=["meta"])
async def whoami(identity: Caller) -> Any:
    """The identity behind the token."""
    return {**identity.model_dump(mode="json", exclude={"roles"}), "roles": sorted(identity.roles)}


@router.post("/memories", tags=["memories"], status_code=201)
async def remember(identity: Caller, body: RememberBody, request: Request) -> Any:
    """Write one memory (dedupe, supersession, conflicts as in ``MemoryCore.remember``).

    The answer is the write's result: ``action``, ``superseded``, ``conflict_id``, ``note`` and
    ``unsure`` — the held facts kept active beside this one because the belief rules (or a chat
    model whose answer could not be used) could not tell whether it replaces them; empty when
    they decided."""
    args = body.model_dump(exclude_none=True)
    content = args.pop("content")
    return to_json(await _core(request).remember(identity, content, **{k: v for k, v in args.items() if v != []}))


@router.get("/memories/{memory_id}", tags=["memories"])
async def get_memory(identity: Caller, memory_id: str, request: Request) -> Any:
    """One memory by id, if the caller may see it (else 404, whether it exists or not)."""
    memory = await _core(request).get(identity, memory_id)
    if memory is None:
        raise NotFound(f"no memory {memory_id!r} in your scopes")
    return to_json(memory)


@router.post("/recall", tags=["memories"])
async def recall(identity: Caller, body: RecallBody, request: Request) -> Any:
    """Hybrid recall within the caller's scopes."""
    args: dict[str, Any] = {"k": body.k, "include_superseded": body.include_superseded}
    if body.kinds:
        args["kinds"] = body.kinds
    if body.scopes:
        args["scopes"] = body.scopes
    result = await _core(request).recall(identity, body.query, **args)
    return {
        "query": result.query,
        "memories": [{"memory": to_json(r.memory), "score": r.score, "conflict": r.conflict} for r in result.memories],
    }


@router.get("/history/{key_or_id}", tags=["memories"])
async def history(identity: Caller, key_or_id: str, request: Request) -> Any:
    """Every version of a fact (by subject key or id), oldest first."""
    versions = await _core(request).history(identity, key_or_id)
    if not versions:
        raise NotFound(f"no memory or subject key {key_or_id!r} in your scopes")
    return to_json(versions)


@router.post("/forget", tags=["memories"])
async def forget(identity: Caller, body: ForgetBody, request: Request) -> Any:
    """Forget by ids, subject key, query or source; ``dry_run`` lists every copy it would remove."""
    return forget_json(await _core(request).forget(identity, **body.model_dump()))


@router.post("/outcomes", tags=["memories"])
async def record_outcome(identity: Caller, body: OutcomeBody, request: Request) -> Any:
    """Count a playbook's success or failure."""
    return to_json(
        await _core(request).record_outcome(
            identity, body.playbook_id, body.success, note=body.note, problem=body.problem
        )
    )


@router.get("/conflicts", tags=["review"])
async def conflicts(identity: Caller, request: Request, status: Literal["open", "resolved"] = "open") -> Any:
    """Conflicts in the shared scope of the caller's tenant."""
    return to_json(await _core(request).conflicts(identity, status=status))


@router.post("/conflicts/{conflict_id}/resolve", tags=["review"])
async def resolve(identity: Caller, conflict_id: str, body: ResolveBody, request: Request) -> Any:
    """Close a conflict: ``winner`` becomes the active fact (owner)."""
    return to_json(await _core(request).resolve(identity, conflict_id, body.winner))


@router.get("/pending", tags=["review"])
async def pending(identity: Caller, request: Request) -> Any:
    """Shared writes waiting for review (``shared_writes="review"``; owner)."""
    return to_json(await _core(request).pending(identity))


@router.post("/pending/{memory_id}/approve", tags=["review"])
async def approve(identity: Caller, memory_id: str, request: Request) -> Any:
    """Publish a pending shared write (owner)."""
    return to_json(await _core(request).approve(identity, memory_id))


@router.post("/pending/{memory_id}/reject", tags=["review"])
async def reject(identity: Caller, memory_id: str, request: Request) -> Any:
    """Drop a pending shared write (owner)."""
    await _core(request).reject(identity, memory_id)
    return {"rejected": memory_id}


@router.get("/audit", tags=["review"])
async def audit(identity: Caller, request: Request, action: Annotated[str | None, Query(max_length=64)] = None) -> Any:
    """The tenant's audit log, oldest first (owner)."""
    return to_json(await _core(request).audit_log(identity, action=action))


@router.get("/export", tags=["transfer"])
async def export(
    identity: Caller,
    request: Request,
    scopes: Annotated[tuple[Scope, ...], Query()] = ("private",),
    preset: Literal["handover", "offboarding"] | None = None,
    user_id: Annotated[str | None, Query(max_length=256)] = None,
) -> Any:
    """The caller's memories (and tombstones) as JSON records; ``preset`` (and ``user_id`` for
    ``offboarding``) as in ``MemoryCore.export``."""
    args: dict[str, Any] = {"preset": preset, "user_id": user_id} if preset else {"scopes": list(scopes)}
    return to_json(await _core(request).export(identity, **args))


@router.post("/import", tags=["transfer"])
async def import_(identity: Caller, body: ImportBody, request: Request) -> Any:
    """Import exported records as the caller's own (tombstones respected).

    ``scope`` moves every record into one scope (default private; ``null``: each keeps its own); ``adopt``
    makes another user's private records the caller's own (else they are refused)."""
    ids = await _core(request).import_(identity, body.records, scope=body.scope, adopt=body.adopt)
    memories = sum(1 for r in body.records if r.get("record") != "tombstone")
    out: dict[str, Any] = {"ids": ids, "skipped": memories - len(ids)}
    if out["skipped"]:
        out["note"] = (
            "records not imported: shared records of this workspace (already here), records a "
            "tombstone covers (forgotten), or repeats of one memory"
        )
    return out


@router.post("/purge", tags=["transfer"])
async def purge(identity: Caller, body: PurgeBody, request: Request) -> Any:
    """Remove everything of one user in the caller's tenant (owner); returns what was removed."""
    removed = await _core(request).purge_user(identity, body.user_id, keep_shared=body.keep_shared)
    return {"user_id": body.user_id, "removed": to_json(removed)}
