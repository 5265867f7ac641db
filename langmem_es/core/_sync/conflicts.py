# generated from the _async twin by scripts/unasync.py — do not edit
"""Conflicts between writers of the shared scope, their resolution, and the audit log (async source).

Two agents asserting different values under one subject key in the shared scope open a
conflict record (who said what, when, from which sources); a writer who may not replace
the other's value (core/authz.py) leaves it standing beside its own, both flagged in recall,
until an owner resolves the conflict. Resolution is audited.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from ... import documents as D
from ... import filters as F
from ...errors import InvalidMemoryError, ScopeViolationError, WriteError
from ...model import Identity, Memory
from .. import authz
from .. import scope as S
from .. import validation as V
from ..records import AUDIT, audit_document, memory_of, restamp
from ..results import Conflict
from .base import CoreBase


class Conflicts(CoreBase):
    """Conflicts, their resolution, and the audit log."""

    def _open_conflict(self, memory: Memory, rivals: list[Memory], now: datetime) -> str:
        """Record who asserted what, when and from which sources, for one subject key."""
        members = [*rivals, memory]
        cid = V.memory_id("conflict", memory.tenant, memory.owner, memory.subject_key, *sorted(m.id for m in members))
        body = Conflict(
            id=cid,
            subject_key=memory.subject_key or "",
            memory_ids=[m.id for m in members],
            writers=[m.written_by for m in members],
            contents=[m.content for m in members],
            sources=[m.sources for m in members],
            opened_at=D.iso(now),
            written_at=[D.iso(m.written_at) for m in members],
        ).__dict__
        self.backend.put(
            AUDIT,
            [
                audit_document(
                    "conflict",
                    cid,
                    memory.tenant,
                    memory.owner,
                    body,
                    now=now,
                    extra={"status": "open", "scope": memory.scope, "subject_key": memory.subject_key},
                )
            ],
        )
        return cid

    def conflicts(
        self, identity: Identity, *, status: str = "open", subject_key: str | None = None
    ) -> list[Conflict]:
        """Open (or resolved) conflicts in the shared scope of the caller's tenant, oldest first."""
        flt = F.all_of(
            F.term("record", "conflict"),
            F.term("tenant", identity.tenant),
            F.term("owner", identity.tenant),
            F.term("status", status),
            F.term("subject_key", subject_key) if subject_key else None,
        )
        found = self.backend.find([AUDIT], flt, size=1000, sort=(("created_at", "asc"),))
        return [_conflict(s.doc["value"]) for s in found if s.doc.get("tenant") == identity.tenant]

    def resolve(self, identity: Identity, conflict_id: str, winner: str) -> Conflict:
        """Close a conflict: ``winner`` becomes the active fact, the others superseded; audited (owners only)."""
        self._authorize(identity, authz.Request("resolve", "shared"))
        flt = F.all_of(
            F.term("record", "conflict"),
            F.term("tenant", identity.tenant),
            F.term("owner", identity.tenant),
            F.term("key", conflict_id),
        )
        found = self.backend.find([AUDIT], flt, size=1)
        if not found:
            raise InvalidMemoryError(f"no conflict {conflict_id!r} in your workspace")
        stored = found[0]
        conflict = _conflict(stored.doc["value"])
        if conflict.status != "open":
            raise InvalidMemoryError(f"conflict {conflict_id!r} is already resolved (winner {conflict.winner!r})")
        if winner not in conflict.memory_ids:
            raise InvalidMemoryError(f"winner must be one of {conflict.memory_ids}")
        now = self.clock()
        win = self._get_visible(identity, winner, collection="semantic")
        if win is None:
            raise ScopeViolationError(f"memory {winner!r} is not in your scopes")
        # every fact that is still active under the key loses to the winner, not only the members
        losers = [m for m in conflict.memory_ids if m != winner]
        if conflict.subject_key:
            scope_filter = F.all_of(S.visibility_filter(identity, ["shared"]), F.term("owner", identity.tenant))
            losers += [s.doc["key"] for s in self._actives(scope_filter, conflict.subject_key)]
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
        if not self.backend.put_if("semantic", restamp(win.doc, restored, now=now), version=win.version):
            raise WriteError("the winning memory changed while resolving; retry")
        if restored.subject_key:
            self._claim_head(restored, now, withdraw=False)
        self._supersede_any(losers, identity, restored, now)
        conflict.status, conflict.winner = "resolved", winner
        conflict.resolved_by = identity.agent_id or identity.user_id
        conflict.resolved_at = D.iso(now)
        doc = {
            **stored.doc,
            "value": conflict.__dict__,
            **D.value_fields(conflict.__dict__),
            "status": "resolved",
            "updated_at": D.iso(now),
        }
        self.backend.put(AUDIT, [doc])
        self._audit(
            identity,
            "resolve",
            {"conflict_id": conflict_id, "winner": winner, "losers": ",".join(sorted(set(losers) - {winner}))},
            now,
        )
        return conflict

    def _supersede_any(self, ids: Iterable[str], identity: Identity, by: Memory, now: datetime) -> list[str]:
        """Like :meth:`_supersede` but also re-points already superseded ids at ``by`` (resolution)."""
        return self._supersede_with(
            lambda old: {
                "status": "superseded",
                "superseded_by": by.id,
                "valid_to": old.valid_to or now,
                "conflict_id": None,
                "confidence": old.confidence
                if old.frozen or old.status != "active"
                else round(old.confidence * self.config.contradiction_factor, 6),
            },
            ids,
            identity,
            by,
            now,
        )

    def audit_log(self, identity: Identity, *, action: str | None = None) -> list[dict[str, Any]]:
        """Audit entries of the caller's tenant (resolutions, forgetting, purges, reviews), oldest first (owners only)."""
        self._authorize(identity, authz.Request("audit_log"))
        flt = F.all_of(
            F.term("record", "audit"),
            F.term("tenant", identity.tenant),
            D.value_filter({"action": action}) if action else None,
        )
        found = self.backend.find([AUDIT], flt, size=1000, sort=(("created_at", "asc"),))
        return [dict(s.doc["value"]) for s in found]


def _conflict(value: Mapping[str, Any]) -> Conflict:
    known = set(Conflict.__dataclass_fields__)
    return Conflict(**{k: v for k, v in value.items() if k in known})
