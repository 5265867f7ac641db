"""Memories ⇄ stored documents, and the other records the core keeps (pure)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from .. import documents
from ..model import Memory, memory_fields, memory_namespace
from ..port import LEG_FIELDS, Collection, Doc


def indexed_text(memory: Memory, context: str | None = None) -> str:
    """What BM25 searches: the content, its reason and steps (searchable, as promised), and context."""
    parts = [memory.content]
    if memory.reason:
        parts.append(memory.reason)
    parts.extend(memory.steps)
    if context:
        parts.append(context)
    return "\n".join(parts)


def memory_document(
    memory: Memory,
    vectors: Sequence[tuple[str, Sequence[float]]],
    *,
    now: datetime,
    created_at: str | None = None,
    context: str | None = None,
    attribute: str | None | Literal[False] = False,
) -> Doc:
    """The stored document of a memory: a store item in the memory's namespace.

    A semantic fact carries the attribute its statement sets (read from its words unless
    ``attribute`` gives it: ``None`` for none)."""
    value = memory.model_dump(mode="json")
    if context:
        value["metadata"] = {**value.get("metadata", {}), "context": context}
    stamp = documents.iso(now)
    doc: Doc = {
        "id": document_id(memory),
        "key": memory.id,
        **documents.namespace_fields(memory.namespace),
        "value": value,
        "text": indexed_text(memory, context),
        "vectors": [{"path": path, "vector": list(vec)} for path, vec in vectors],
        **documents.value_fields(value),
        "created_at": created_at or stamp,
        "updated_at": stamp,
    }
    for name, v in memory_fields(memory.namespace, value).items():
        if v is not None:
            doc[name] = v
    if memory.kind == "semantic":
        if attribute is False:
            from .belief_rules import attribute as read  # the statement reader (spaCy) only for facts

            attribute = read(memory)
        if attribute:
            doc["attribute"] = attribute
    return doc


def document_id(memory: Memory) -> str:
    """The id of a memory's stored document (computable: no document is built)."""
    return documents.doc_id(memory.namespace, memory.id)


def memory_of(doc: Mapping[str, Any]) -> Memory:
    value = doc["value"]
    return Memory.model_validate(value if isinstance(value, dict) else dict(value))


#: What :func:`memory_document` writes that its value does not determine: a filter on one of
#: these is checked on the document as stored, never on :func:`as_searched`.
WRITE_FIELDS = frozenset({"text", "vectors", "attribute", "created_at", "updated_at"})


def as_searched(doc: Mapping[str, Any]) -> Doc:
    """A recall hit that carries its memory's value, with every field :func:`memory_document`
    derives from that value (namespace, status, times as written; ``flat``/``nums`` when
    read, see :class:`Searched`), and the scope fields the hit read from the index (record,
    tenant, scope, owner, kind: so the choke point still compares the index with the value),
    for the whole choke point and filter to run on.

    >>> hit = {"id": "d", "record": "memory", "kind": "episodic", "tenant": "t", "scope": "private",
    ...        "owner": "user:u", "value": {"tenant": "t", "scope": "private", "owner": "user:x",
    ...        "status": "superseded", "content": "hi"}}
    >>> doc = as_searched(hit)
    >>> doc["status"], doc["owner"], doc["value"]["owner"], "flat" in doc
    ('superseded', 'user:u', 'user:x', False)
    >>> Searched(doc)["flat"][-1]
    'content\\x1f"hi"'
    """
    value = doc["value"]
    ns = memory_namespace(doc["kind"], doc["tenant"], doc["scope"], doc["owner"])
    out: Doc = {
        "key": value.get("id"),
        **documents.namespace_fields(ns),
        **{k: v for k, v in memory_fields(ns, value).items() if v is not None},
    }
    out.update({k: doc[k] for k in ("id", "record", "tenant", "scope", "owner", "kind") if k in doc})
    out["value"] = value
    return out


class Searched(Mapping[str, Any]):
    """:func:`as_searched`'s document as a filter reads it: the ``flat``/``nums`` of its value
    are worked out only if a clause reads them (most recalls' filters reach them only for a
    pending proposal: that walk of the value was a tenth of a recall's own work)."""

    __slots__ = ("_derived", "_doc")

    def __init__(self, doc: Mapping[str, Any]) -> None:
        self._doc = doc
        self._derived: dict[str, Any] | None = None

    def _value_fields(self) -> dict[str, Any]:
        if self._derived is None:
            self._derived = documents.value_fields(self._doc["value"])
        return self._derived

    def __getitem__(self, key: str) -> Any:
        if key in _VALUE_FIELDS:
            return self._value_fields()[key]
        return self._doc[key]

    def __contains__(self, key: object) -> bool:
        return key in _VALUE_FIELDS or key in self._doc

    def __iter__(self) -> Iterator[str]:
        yield from self._doc
        yield from _VALUE_FIELDS

    def __len__(self) -> int:
        return len(self._doc) + len(_VALUE_FIELDS)


_VALUE_FIELDS = ("flat", "nums")


def restamp(doc: Mapping[str, Any], memory: Memory, *, now: datetime) -> Doc:
    """The same document with an updated memory value (vectors and text kept; the attribute
    kept too while the content is unchanged, so a status change reads no sentence again)."""
    vectors = [(v["path"], v["vector"]) for v in doc.get("vectors") or ()]
    value = doc.get("value") or {}
    context = value.get("metadata", {}).get("context")
    same = value.get("content") == memory.content
    return memory_document(
        memory,
        vectors,
        now=now,
        created_at=doc.get("created_at"),
        context=context,
        attribute=doc.get("attribute") if same else False,
    )


def audit_document(
    record: str,
    rid: str,
    tenant: str,
    owner: str,
    body: Mapping[str, Any],
    *,
    now: datetime,
    extra: Mapping[str, Any] | None = None,
) -> Doc:
    """A conflict, tombstone or audit entry (collection ``audit``)."""
    namespace = ("memories-audit", record, tenant, owner)
    value = dict(body)
    doc: Doc = {
        "id": documents.doc_id(namespace, rid),
        "key": rid,
        **documents.namespace_fields(namespace),
        "value": value,
        **documents.value_fields(value),
        "record": record,
        "tenant": tenant,
        "owner": owner,
        "created_at": documents.iso(now),
        "updated_at": documents.iso(now),
    }
    doc.update({k: v for k, v in (extra or {}).items() if v is not None})
    return doc


AUDIT: Collection = "audit"

#: :data:`~langmem_es.port.LEG_FIELDS` for a query whose ranking reads no text (texts are the
#: costly part of a hit: a long one costs as much from doc values as from ``_source``).
LEG_FIELDS_NO_TEXT: tuple[str, ...] = tuple(f for f in LEG_FIELDS if f != "text")
