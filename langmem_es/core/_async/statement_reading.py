"""Reading a new statement against the facts held (async source; ``_sync/statement_reading.py`` is generated).

The rules are pure (:mod:`langmem_es.core.belief_rules`, :mod:`langmem_es.core.statements`);
these hooks apply them to the nearest held facts of a write: a repeat in other words, a
negation of a held fact, a key to take or to map, a look-alike about another holder, or a
chat model's decision when one is configured.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ...model import Memory
from ...port import Hit, StoredDoc
from .. import belief_rules, meaning_learned
from .. import reconcile as LLM
from ..keyed_values import same_value_under_key
from ..records import document_id, memory_of
from ..results import WriteResult
from .denials import AsyncDenials
from .shared import AsyncCoreContext


class AsyncStatementReading:
    """What a new statement does to the facts nearest to it.

    Collaborators: the shared context, and the denials (which held facts a statement is
    read against; a repeat the chat model names reinforces the fact it repeats).
    """

    def __init__(self, ctx: AsyncCoreContext, denials: AsyncDenials) -> None:
        self._ctx = ctx
        self._denials = denials
        # the last answer of _related: one write asks it up to five times about the same facts
        self._last: tuple[Sequence[Hit], Memory, list[tuple[Hit, Memory, str]]] | None = None

    def _related(self, near: Sequence[Hit], memory: Memory) -> list[tuple[Hit, Memory, str]]:
        """Held facts close enough to read against ``memory``, with what ``memory`` does to each."""
        last = self._last
        if last is not None and last[0] is near and last[1] == memory:
            return last[2]
        related = self._read_related(near, memory)
        self._last = (near, memory, related)
        return related

    def _read_related(self, near: Sequence[Hit], memory: Memory) -> list[tuple[Hit, Memory, str]]:
        held = [
            (hit, old)
            for hit in near
            if hit.doc.get("id")
            for old in [memory_of(hit.doc)]
            if old.id != memory.id and self._denials.read_against(hit, old, memory)
        ]
        if held:  # what the learned reading may embed, in one batch (cached: later calls embed nothing)
            meaning_learned.prepare([(memory.content, memory.owner), *((old.content, old.owner) for _, old in held)])
        return [(hit, old, belief_rules.relation(old, memory)) for hit, old in held]

    def repeated(self, near: Sequence[Hit], memory: Memory) -> Hit | None:
        """The held fact ``memory`` repeats in other words (same polarity, compatible key): read as
        a repeat, or — filed under the held fact's own key — giving the same value in whatever
        words (:func:`~langmem_es.core.keyed_values.same_value_under_key`: two agents that agree)."""
        for hit, old, rel in self._related(near, memory):
            if old.polarity != memory.polarity or old.confidence <= 0:
                continue
            if rel == "reinforcement" and memory.subject_key in (None, old.subject_key):
                return hit
            if (
                rel not in ("denial", "lookalike")
                and memory.subject_key is not None
                and memory.subject_key == old.subject_key
                and same_value_under_key(old.content, memory.content)
            ):
                return hit
        return None

    def negates_held(self, near: Sequence[Hit], memory: Memory, set_confidence: bool) -> Memory:
        """A negative habit ("I don't live in Bristol") that negates a held fact is a denial of it."""
        if memory.polarity != "assert" or not any(
            rel == "denial" for _, old, rel in self._related(near, memory) if old.polarity == "assert"
        ):
            return memory
        update: dict[str, Any] = {"polarity": "deny"}
        if set_confidence:
            update["confidence"] = self._ctx.config.denial_confidence
        return memory.model_copy(update=update)

    def infer_key(self, near: Sequence[Hit], memory: Memory) -> Memory:
        """A keyless statement that updates a keyed fact (same holder and attribute) takes its key."""
        for _, old, rel in self._related(near, memory):
            if old.polarity == "assert" and old.subject_key and rel == "update":
                return memory.model_copy(update={"subject_key": old.subject_key})
        return memory

    def updated_unkeyed(self, near: Sequence[Hit], memory: Memory) -> list[str]:
        """Held facts without a key that a keyless statement updates (same holder and attribute,
        a new value or an ending): it replaces them by id, under the usual strength rules."""
        return [
            old.id
            for _, old, rel in self._related(near, memory)
            if rel == "update" and old.polarity == "assert" and not old.subject_key
        ]

    def undecided(self, near: Sequence[Hit], memory: Memory) -> list[str]:
        """Held facts the rules cannot decide ``memory`` replaces or repeats (:func:`belief_rules.undecided`):
        both stay active, and the write says so."""
        return [old.id for _, old, _ in self._related(near, memory) if belief_rules.undecided(old, memory)]

    async def canonical_key(self, near: Sequence[Hit], memory: Memory, *, held: bool) -> Memory:
        """Map the caller's key to a held key for the same subject (``user.location.city`` → ``user.home_city``).

        Only when no fact is held under the caller's key (``held``: from the write's batched
        read), the statements agree that the two are about one attribute of one holder, and
        the keys are close (shared words or close in meaning) — or the new statement gives a
        new value of the one named attribute the held fact sets.
        """
        key = memory.subject_key or ""
        if held:
            return memory
        for hit in near:  # a statement that cannot be read against a held fact: the keys' heads decide
            old = memory_of(hit.doc)
            if old.id != memory.id and old.subject_key != key and belief_rules.keyed_by_head(old, memory):
                return memory.model_copy(update={"subject_key": old.subject_key})
        others = [
            (old, rel)
            for _, old, rel in self._related(near, memory)
            if old.subject_key and old.subject_key != key and rel in ("update", "reinforcement", "denial")
        ]
        if not others:
            return memory
        vectors = await self._ctx.embeddings.aembed_documents(
            [_key_text(key), *(_key_text(o.subject_key or "") for o, _ in others)]
        )
        from ..scoring import cosine

        for (old, rel), vec in zip(others, vectors[1:], strict=False):
            close = belief_rules.keys_close(
                key, old.subject_key or "", cosine(vectors[0], vec), self._ctx.config.key_similarity
            )
            # or, whatever the keys' words, a new value of the one named attribute the held fact sets
            # ("I moved to Leeds" as user.location ← "I live in Bristol" as user.home_city)
            if close or (
                rel == "update"
                and belief_rules.one_attribute(old, memory)
                and belief_rules.same_key_ids(key, old.subject_key)
            ):
                return memory.model_copy(update={"subject_key": old.subject_key})
        return memory

    def guard_lookalike(self, memory: Memory, actives: Sequence[StoredDoc]) -> Memory:
        """Another fact under a held key gets its own key instead of replacing the held ones:
        about another holder ("my sister lives in York" as ``user.home_city``), one more ("also
        has a cat" as ``user.pets``), another of a kind (``user.health``): :func:`R.another_fact_under_key`."""
        held = [memory_of(s.doc) for s in actives]
        if belief_rules.another_fact_under_key(held, memory):
            from ..statements import parse

            own = f"{memory.subject_key}.{parse(memory.content).key}"
            return memory.model_copy(update={"subject_key": own})
        return memory

    def candidates(self, near: Sequence[Hit], memory: Memory) -> list[Memory]:
        """The held facts a write is read against (close in meaning, one attribute, one topic, one
        meaning): what the rules could act on, and what a chat model is shown."""
        return [old for _, old, _ in self._related(near, memory)]

    def held_under(self, near: Sequence[Hit], key: str | None) -> list[str]:
        """The ids of the held facts among ``near`` under ``key``."""
        return [old.id for h in near for old in [memory_of(h.doc)] if key and old.subject_key == key]

    async def reconcile(self, memory: Memory, near: Sequence[Hit]) -> LLM.Decision | None:
        """The configured chat model's decision over the candidates (:meth:`candidates`); ``None``
        when it raises or its answer cannot be used (no JSON, an unknown event, an id it was not shown)."""
        candidates = self.candidates(near, memory)
        try:
            answer = await self._ctx.config.reconcile_model.ainvoke(LLM.messages(memory, candidates))
        except Exception:  # noqa: BLE001 - any model failure: the rules decide
            return None
        return LLM.read(answer, candidates)

    async def apply_decision(
        self, decision: LLM.Decision, memory: Memory, near: Sequence[Hit], now: datetime
    ) -> tuple[Memory, list[str], WriteResult | None]:
        """Carry out a model's decision through the ordinary path: (memory, replaces, a finished result)."""
        target = next((memory_of(h.doc) for h in near if h.doc.get("key") == decision.target), None)
        if decision.event == "ADD" or target is None:
            return memory, [], None
        if decision.event == "NONE":
            [stored] = await self._ctx.backend.get("semantic", [document_id(target)])
            if stored is not None:
                return memory, [], await self._denials.reinforce(stored, memory, now)
            return memory, [], None
        if decision.event == "DELETE":
            denial = memory.model_copy(
                update={"polarity": "deny", "confidence": min(memory.confidence, self._ctx.config.denial_confidence)}
            )
            return denial, [target.id], None
        key = memory.subject_key or target.subject_key
        return memory.model_copy(update={"subject_key": key}), [target.id], None


def _key_text(key: str) -> str:
    """A subject key as words, for embedding: ``user.home_city`` → ``user home city``."""
    return " ".join(w for w in key.replace("_", ".").replace("-", ".").split(".") if w)
