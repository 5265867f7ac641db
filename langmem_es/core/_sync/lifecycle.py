# generated from the _async twin by scripts/unasync.py — do not edit
"""What happens to memories over time (async source): decay and procedural outcomes."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ... import filters
from ...errors import ScopeViolationError
from ...model import KINDS, Identity, Memory
from ...port import StoredDoc
from .. import authz, scoring, validation
from .. import scope as scoping
from ..records import memory_of
from ..results import DecayReport
from .access import with_access
from .shared import CoreContext


class Lifecycle:
    """Decay into soft deletion, freezing stable facts, and counting playbook outcomes.

    Collaborators: the shared context only (decay reads the access log among it).
    """

    def __init__(self, ctx: CoreContext) -> None:
        self._ctx = ctx

    def record_outcome(
        self, identity: Identity, playbook_id: str, success: bool, note: str | None = None, problem: str | None = None
    ) -> Memory:
        """Count a playbook's success or failure atomically; a failure remembers the problem it failed on.

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.record_outcome`.
        """
        note = validation.clean_text(note, "note", limit=2000) if note else None
        problem = validation.clean_text(problem, "problem", limit=2000) if problem else None
        visible = self._ctx.get_visible(identity, playbook_id, collection="procedural")
        if visible is None:
            raise ScopeViolationError(f"no playbook {playbook_id!r} in your scopes")
        playbook = memory_of(visible.doc)
        self._ctx.authorize(identity, authz.Request("outcome", scope=playbook.scope, target=playbook))

        def count(m: Memory) -> dict[str, Any]:
            meta = dict(m.metadata)
            if not success and problem and problem not in meta.get("failed_for", []):
                meta["failed_for"] = [*meta.get("failed_for", []), problem]
            if success and problem:
                meta["succeeded_for"] = [*meta.get("succeeded_for", []), problem][-20:]
            if note:
                meta["notes"] = [*meta.get("notes", []), note][-20:]
            return {
                "success_count": m.success_count + (1 if success else 0),
                "failure_count": m.failure_count + (0 if success else 1),
                "metadata": meta,
            }

        done = self._ctx.update(
            "procedural", visible.doc["id"], count, self._ctx.clock(), what="record the outcome"
        )
        if done is None:
            raise ScopeViolationError(f"playbook {playbook_id!r} was forgotten")
        old, update = done
        return old.model_copy(update=update)

    def decay(
        self, identity: Identity, *, now: datetime | None = None, tenant_wide: bool = False, dry_run: bool = False
    ) -> DecayReport:
        """Score active memories on age, access and contradictions; soft-delete each kind's weakest.

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.decay`.
        """
        now = now or self._ctx.clock()
        self._ctx.access.flush_now()  # decay scores on every access counted so far
        report = DecayReport()
        if tenant_wide:
            flt = filters.all_of(
                filters.term("record", "memory"),
                filters.term("tenant", identity.tenant),
                filters.term("status", "active"),
            )
        else:
            flt = filters.all_of(scoping.visibility_filter(identity), filters.term("status", "active"))
        for kind in KINDS:
            docs: list[StoredDoc] = []
            while True:  # read every page first: the writes below change what the filter matches
                page = self._ctx.backend.find(
                    [kind], flt, size=1000, offset=len(docs), sort=(("written_at", "asc"),)
                )
                docs.extend(page)
                if len(page) < 1000:
                    break
            docs = [s for s in docs if tenant_wide or scoping.visible(s.doc, identity)]
            records: list[StoredDoc | None] = []
            for start in range(0, len(docs), 1000):
                records += self._ctx.access.records([(kind, s.doc) for s in docs[start : start + 1000]])
            report.scored[kind] = len(docs)
            deleted: list[str] = []
            frozen = 0

            def decide(m: Memory, kind: str = kind) -> dict[str, Any] | None:
                if m.status != "active":
                    return None
                if (
                    scoring.decay_score(m, now, self._ctx.config.half_life_days)
                    < self._ctx.config.decay_threshold[kind]
                ):
                    return {"status": "soft_deleted"}
                age_days = (now - m.written_at).total_seconds() / 86400
                if not m.frozen and m.contradiction_count == 0 and age_days >= self._ctx.config.freeze_after_days:
                    return {"frozen": True}
                return None

            for s, record in zip(docs, records, strict=False):
                # decide on the real-time document, with its access record added
                seen = record.doc if record else None
                if dry_run:
                    [exact] = self._ctx.backend.get(kind, [s.doc["id"]])
                    update = decide(with_access(memory_of(exact.doc), seen)) if exact else None
                else:

                    def decide_seen(m: Memory, record: Mapping[str, Any] | None = seen) -> dict[str, Any] | None:
                        return decide(with_access(m, record))

                    changed = self._ctx.update(kind, s.doc["id"], decide_seen, now, what="decay")
                    update = changed[1] if changed else None
                if update is None:
                    continue
                if update.get("status"):
                    deleted.append(s.doc["key"])
                else:
                    frozen += 1
            report.soft_deleted[kind] = len(deleted)
            report.frozen[kind] = frozen
            report.soft_deleted_ids[kind] = deleted
        return report
