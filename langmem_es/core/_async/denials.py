"""Reinforcement and denials (async source; ``_sync/denials.py`` is generated).

The same claim again reinforces the fact (an independent confirmation raises its
confidence); a flat denial is held at reduced confidence until confirmed, then
supersedes what it denies.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from ... import filters
from ...errors import WriteError
from ...model import Identity, Memory
from ...port import Hit, StoredDoc
from .. import authz, belief_rules
from ..records import memory_document, memory_of
from ..results import WriteResult
from ..unsure import REAFFIRMED
from .shared import AsyncCoreContext, identity_of
from .supersession import AsyncSupersession


class AsyncDenials:
    """Reinforcing held facts, and denials held until confirmed.

    Collaborators: the shared context, and the supersession (the active facts under a key;
    a confirmed denial supersedes what it denies).
    """

    def __init__(self, ctx: AsyncCoreContext, supersession: AsyncSupersession) -> None:
        self._ctx = ctx
        self._supersession = supersession

    async def reinforce(self, stored: StoredDoc, incoming: Memory, now: datetime) -> WriteResult:
        """Merge ``incoming`` into the same active claim; an independent confirmation raises confidence.

        Independent means another source or another writer. A denial whose confidence
        reaches ``apply_denial_at`` this way is applied (supersedes what it denies).
        """
        independent = False

        def merge(old: Memory) -> dict[str, Any]:
            nonlocal independent
            independent = bool(set(incoming.sources) - set(old.sources)) or incoming.written_by != old.written_by
            update: dict[str, Any] = {
                "sources": sorted(set(old.sources) | set(incoming.sources)),
                "metadata": {**old.metadata, REAFFIRMED: now.isoformat()},  # said again: core/unsure.py
            }
            if independent and not old.frozen:
                update["confidence"] = belief_rules.reinforced(
                    old.confidence,
                    self._ctx.config.reinforce_step,
                    max(self._ctx.config.max_confidence, old.confidence),
                )
            return update

        done = await self._ctx.update("semantic", stored.doc["id"], merge, now, what="reinforce")
        if done is None:
            raise WriteError("could not reinforce: the memory changed or vanished meanwhile; retry")
        old, update = done
        new = old.model_copy(update=update)
        if new.polarity == "deny" and old.confidence < self._ctx.config.apply_denial_at <= new.confidence:
            superseded = await self._apply_denial(new, now, confirmed_by=authz.actor_of(incoming))
            return WriteResult(
                new.id, "reinforced", new, superseded, note="the denial is confirmed and now supersedes what it denies"
            )
        return WriteResult(
            new.id, "reinforced", new, note="" if independent else "same source and writer: confidence unchanged"
        )

    def read_against(self, hit: Hit, old: Memory, memory: Memory) -> bool:
        """Is the held fact ``old`` (found as ``hit``) read against the new statement ``memory``?
        When close in meaning (``relation_similarity``), when both set one attribute, when
        both speak of one life domain, or when both mean one attribute of one holder in
        everyday equivalents ("I don't drink" / "I'm teetotal")."""
        return (
            hit.score >= self._ctx.config.relation_similarity
            or belief_rules.one_attribute(old, memory)
            or belief_rules.one_topic(old, memory)
            or belief_rules.one_meaning(old, memory)
        )

    async def write_denial(
        self,
        scope_filter: filters.Filter,
        memory: Memory,
        vector: Sequence[float],
        near: Sequence[Hit],
        replaces: Sequence[str],
        now: datetime,
    ) -> WriteResult:
        """A flat denial is kept at reduced confidence, naming what it denies; it applies once reinforced.

        It denies the ids in ``replaces``, the active claims under its subject key, or —
        without either — the active claims it negates (close in meaning, same content
        words). A second denial of the same claim from another source or writer is an
        independent confirmation: it reinforces the pending denial instead of adding one.
        ``near`` are the active claims nearest to it, from the write's batched read.
        """
        denied = list(replaces)
        pending: list[Hit] = []
        if memory.subject_key:
            for s in await self._supersession.actives(scope_filter, memory.subject_key):
                if memory_of(s.doc).polarity == "assert":
                    denied.append(s.doc["key"])
                else:
                    pending.append(Hit(s.collection, s.doc, 1.0))
        for hit in near:
            old = memory_of(hit.doc)
            if old.polarity == "deny":
                pending.append(hit)
            elif (
                not replaces
                and not memory.subject_key
                and self.read_against(hit, old, memory)
                and belief_rules.relation(old, memory) == "denial"
            ):
                denied.append(old.id)
        denied = [d for d in dict.fromkeys(denied) if d != memory.id]
        for hit in pending:  # the same claim already denied and waiting: this confirms it
            if denied and set(memory_of(hit.doc).supersedes) & set(denied):
                return await self.reinforce(StoredDoc("semantic", hit.doc), memory, now)
        held = await self.memories(denied)
        own = bool(memory.subject_key) and belief_rules.own_correction(memory, held)
        memory = memory.model_copy(update={"supersedes": denied, "subject_key": memory.subject_key or _first_key(held)})
        if own:  # the user is the authority on themselves: their correction under the fact's key applies
            memory = memory.model_copy(update={"confidence": max(memory.confidence, self._ctx.config.apply_denial_at)})
        await self._ctx.backend.put("semantic", [memory_document(memory, [("content", vector)], now=now)])
        if memory.confidence >= self._ctx.config.apply_denial_at:
            superseded = await self._apply_denial(memory, now)
            note = "the user's own correction of their fact applies at once" if own else ""
            return WriteResult(memory.id, "superseded" if superseded else "created", memory, superseded, note=note)
        return WriteResult(
            memory.id,
            "pending_denial",
            memory,
            note=f"a denial is held at confidence {memory.confidence:.2f} until an independent "
            "confirmation; it supersedes nothing yet",
        )

    async def memories(self, ids: Sequence[str]) -> list[Memory]:
        if not ids:
            return []
        found = await self._ctx.backend.find(["semantic"], filters.terms("key", list(ids)), size=len(ids) * 2)
        return [memory_of(s.doc) for s in found]

    async def _apply_denial(self, denial: Memory, now: datetime, confirmed_by: Identity | None = None) -> list[str]:
        """Supersede what a (now confirmed) denial denies. Frozen facts keep their standing.

        It acts with the authority of its writer or of whoever confirmed it (core/authz.py)."""
        return await self._supersession.supersede(
            denial.supersedes, identity_of(denial), denial, now, spare_frozen=True, confirmed_by=confirmed_by
        )


def _first_key(memories: Iterable[Memory]) -> str | None:
    return next((m.subject_key for m in memories if m.subject_key), None)
