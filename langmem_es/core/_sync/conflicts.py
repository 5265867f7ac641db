# generated from the _async twin by scripts/unasync.py — do not edit
"""Conflicts between writers of the shared scope, their resolution, and the audit log (async source).

Two agents asserting different values under one subject key in the shared scope open a
conflict record (who said what, when, from which sources); a writer who may not replace
the other's value (core/authz.py) leaves it standing beside its own, both flagged in recall,
until an owner resolves the conflict — or writes a new value for the key, which decides it.
Resolution is audited.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ... import documents, filters
from ...errors import InvalidMemoryError, ScopeViolationError, WriteError
from ...model import Identity, Memory
from ...port import StoredDoc
from .. import authz, validation
from .. import scope as scoping
from ..records import AUDIT, audit_document, memory_of, restamp
from ..results import Conflict
from .shared import CoreContext
from .supersession import Supersession


class Conflicts:
    """Conflicts, their resolution, and the audit log.

    Collaborators: the shared context, and the supersession (the winner of a resolved
    conflict claims its key's head; the losers are superseded by it).
    """

    def __init__(self, ctx: CoreContext, supersession: Supersession) -> None:
        self._ctx = ctx
        self._supersession = supersession

    def open_conflict(self, memory: Memory, rivals: list[Memory], now: datetime) -> str:
        """Record who asserted what, when and from which sources, for one subject key."""
        record = _conflict_record(memory, rivals, now)
        self._ctx.backend.put(AUDIT, [record])
        return str(record["key"])

    def conflicts(
        self, identity: Identity, *, status: str = "open", subject_key: str | None = None
    ) -> list[Conflict]:
        """Open (or resolved) conflicts in the shared scope of the caller's tenant, oldest first."""
        flt = filters.all_of(
            filters.term("record", "conflict"),
            filters.term("tenant", identity.tenant),
            filters.term("owner", identity.tenant),
            filters.term("status", status),
            filters.term("subject_key", subject_key) if subject_key else None,
        )
        found = self._ctx.backend.find([AUDIT], flt, size=1000, sort=(("created_at", "asc"),))
        return [_conflict(s.doc["value"]) for s in found if s.doc.get("tenant") == identity.tenant]

    def resolve(self, identity: Identity, conflict_id: str, winner: str) -> Conflict:
        """Close a conflict: ``winner`` becomes the active fact, the others superseded; audited (owners only)."""
        self._ctx.authorize(identity, authz.Request("resolve", "shared"))
        found = self._ctx.backend.find([AUDIT], _conflicts_of(identity, [conflict_id]), size=1)
        if not found:
            raise InvalidMemoryError(f"no conflict {conflict_id!r} in your workspace")
        stored = found[0]
        conflict = _conflict(stored.doc["value"])
        if conflict.status != "open":
            raise InvalidMemoryError(f"conflict {conflict_id!r} is already resolved (winner {conflict.winner!r})")
        if winner not in conflict.memory_ids:
            raise InvalidMemoryError(f"winner must be one of {conflict.memory_ids}")
        now = self._ctx.clock()
        win = self._ctx.get_visible(identity, winner, collection="semantic")
        if win is None:
            raise ScopeViolationError(f"memory {winner!r} is not in your scopes")
        # every fact that is still active under the key loses to the winner, not only the members
        losers = [m for m in conflict.memory_ids if m != winner]
        if conflict.subject_key:
            scope_filter = filters.all_of(
                scoping.visibility_filter(identity, ["shared"]), filters.term("owner", identity.tenant)
            )
            losers += [s.doc["key"] for s in self._supersession.actives(scope_filter, conflict.subject_key)]
        held = memory_of(win.doc)
        # a value that stood through the dispute was contradicted once (one superseded by it counted it then)
        disputed = held.contradiction_count + (1 if held.status == "active" and held.conflict_id is None else 0)
        restored = held.model_copy(
            update={
                "status": "active",
                "superseded_by": None,
                "valid_to": None,
                "conflict_id": None,
                "contradiction_count": disputed,
            }
        )
        if not self._ctx.backend.put_if("semantic", restamp(win.doc, restored, now=now), version=win.version):
            raise WriteError("the winning memory changed while resolving; retry")
        if restored.subject_key:
            self._supersession.claim_head(restored, now, withdraw=False)
        self._supersede_any(losers, identity, restored, now)
        return self._close_conflict(identity, stored, conflict, winner, losers, now)

    def _close_conflict(
        self,
        identity: Identity,
        stored: StoredDoc,
        conflict: Conflict,
        winner: str,
        losers: Iterable[str],
        now: datetime,
    ) -> Conflict:
        """Mark a conflict resolved with ``winner`` (a member, or an owner's new value), audited."""
        conflict.status, conflict.winner = "resolved", winner
        conflict.resolved_by = identity.user_id or identity.agent_id
        conflict.resolved_at = documents.iso(now)
        doc = {
            **stored.doc,
            "value": conflict.__dict__,
            **documents.value_fields(conflict.__dict__),
            "status": "resolved",
            "updated_at": documents.iso(now),
        }
        self._ctx.backend.put(AUDIT, [doc])
        self._ctx.audit(
            identity,
            "resolve",
            {"conflict_id": conflict.id, "winner": winner, "losers": ",".join(sorted(set(losers) - {winner}))},
            now,
        )
        return conflict

    def decide(
        self, identity: Identity, by: Memory, held: Sequence[Memory], now: datetime
    ) -> tuple[list[str], str | None]:
        """A shared value written by one who may resolve conflicts (an owner) decides: the open
        conflicts of the facts it replaces close with it as the winner (their values still
        active are superseded by it), and other writers' values it replaced outright go on
        record as a conflict resolved at once. Returns the ids superseded and that record's id."""
        if not self._ctx.allowed(identity, authz.Request("resolve", "shared")):
            return [], None
        superseded: list[str] = []
        settled: set[str] = set()
        disputes = sorted({m.conflict_id for m in held if m.conflict_id and m.id != by.id})
        if disputes:
            found = self._ctx.backend.find([AUDIT], _conflicts_of(identity, disputes, "open"), size=len(disputes))
            for stored in found:
                conflict = _conflict(stored.doc["value"])
                losers = [m.id for m in held if m.conflict_id == conflict.id or m.id in conflict.memory_ids]
                superseded += self._supersession.supersede([i for i in losers if i != by.id], identity, by, now)
                self._close_conflict(identity, stored, conflict, by.id, losers, now)
                settled |= {*losers, *conflict.memory_ids}
        overridden = [
            m
            for m in held
            if m.polarity == "assert" and m.id not in settled and m.id != by.id and authz.someone_elses(identity, m)
        ]
        if not overridden:
            return superseded, None
        record = _conflict_record(by, overridden, now)
        conflict = _conflict(record["value"])
        self._close_conflict(identity, StoredDoc(AUDIT, record), conflict, by.id, [m.id for m in overridden], now)
        return superseded, conflict.id

    def _supersede_any(self, ids: Iterable[str], identity: Identity, by: Memory, now: datetime) -> list[str]:
        """Like :meth:`AsyncSupersession.supersede` but also re-points already superseded ids at ``by`` (resolution)."""
        return self._supersession.supersede_with(
            lambda old: {
                "status": "superseded",
                "superseded_by": by.id,
                "valid_to": old.valid_to or now,
                "conflict_id": None,
                "confidence": old.confidence
                if old.frozen or old.status != "active"
                else round(old.confidence * self._ctx.config.contradiction_factor, 6),
            },
            ids,
            identity,
            by,
            now,
        )

    def audit_log(self, identity: Identity, *, action: str | None = None) -> list[dict[str, Any]]:
        """Audit entries of the caller's tenant (resolutions, forgetting, purges, reviews), oldest first (owners only)."""
        self._ctx.authorize(identity, authz.Request("audit_log"))
        flt = filters.all_of(
            filters.term("record", "audit"),
            filters.term("tenant", identity.tenant),
            documents.value_filter({"action": action}) if action else None,
        )
        found = self._ctx.backend.find([AUDIT], flt, size=1000, sort=(("created_at", "asc"),))
        return [dict(s.doc["value"]) for s in found]


def _conflicts_of(identity: Identity, ids: Sequence[str], status: str | None = None) -> filters.Filter:
    """The shared conflict records ``ids`` of the caller's workspace (of ``status``, if given)."""
    return filters.all_of(
        filters.term("record", "conflict"),
        filters.term("tenant", identity.tenant),
        filters.term("owner", identity.tenant),
        filters.terms("key", list(ids)),
        filters.term("status", status) if status else None,
    )


def _conflict_record(memory: Memory, rivals: Sequence[Memory], now: datetime) -> dict[str, Any]:
    """The audit record of an open conflict: ``memory`` against ``rivals``, under its key."""
    members = [*rivals, memory]
    cid = validation.memory_id(
        "conflict", memory.tenant, memory.owner, memory.subject_key, *sorted(m.id for m in members)
    )
    body = Conflict(
        id=cid,
        subject_key=memory.subject_key or "",
        memory_ids=[m.id for m in members],
        writers=[_writer(m) for m in members],
        contents=[m.content for m in members],
        sources=[m.sources for m in members],
        opened_at=documents.iso(now),
        written_at=[documents.iso(m.written_at) for m in members],
    ).__dict__
    extra = {"status": "open", "scope": memory.scope, "subject_key": memory.subject_key}
    return audit_document("conflict", cid, memory.tenant, memory.owner, body, now=now, extra=extra)


def _writer(memory: Memory) -> str | None:
    """Who wrote a disputed value: the user (members often share one agent), else the agent."""
    author = authz.author_of(memory)
    return author.get("user_id") or author.get("agent_id") or memory.written_by


def _conflict(value: Mapping[str, Any]) -> Conflict:
    known = set(Conflict.__dataclass_fields__)
    return Conflict(**{k: v for k, v in value.items() if k in known})
