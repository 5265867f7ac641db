"""Pure building blocks of the LangGraph store adapters (no I/O).

The async core (``_async/store.py``) and its generated sync twin only execute what this
module plans: op validation, batching (repeated reads merged, the last put per
``(namespace, key)`` kept), the documents a put writes (see :mod:`langmem_es.documents`),
the filters a read sends to the storage port, fusion of the hybrid legs, and the
conversion of stored documents back into LangGraph ``Item`` / ``SearchItem``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    SearchItem,
    SearchOp,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)
from langgraph.store.base import InvalidNamespaceError as _LangGraphInvalidNamespaceError

from .. import documents, filters
from ..errors import (
    DimensionMismatchError,
    DocumentTooLargeError,
    InvalidArgumentError,
    InvalidNamespaceError,
    NotSerializableError,
)
from ..model import KINDS, ROOT, collection_for
from ..port import Collection, Doc
from .ranking import HYBRID_CANDIDATES, RRF_K, Ranked, best_cosine, by_score, fuse_hits

__all__ = [
    "DEFAULT_MAX_DOCUMENT_BYTES",
    "HYBRID_CANDIDATES",
    "RESERVED_ROOT",
    "RRF_K",
    "STORE_COLLECTIONS",
    "PreparedPut",
    "Ranked",
    "ResolvedIndex",
    "StoreIndexConfig",
    "best_cosine",
    "by_score",
    "build_document",
    "check_dims",
    "collections_for_prefix",
    "dedupe_ops",
    "fuse_hits",
    "is_expired",
    "list_namespaces_result",
    "namespace_prefilter",
    "not_expired",
    "prepare_put",
    "resolve_index",
    "search_filter",
    "to_item",
    "to_search_item",
    "ttl_refreshed",
    "validate_op",
]

#: The collections LangGraph store items can live in (``audit`` belongs to the core).
STORE_COLLECTIONS: tuple[Collection, ...] = ("items", "episodic", "semantic", "procedural")
#: LangGraph reserves this namespace root for its own use.
RESERVED_ROOT = "langgraph"
#: Largest item (value JSON plus indexed text) a put accepts, in bytes.
DEFAULT_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024


class StoreIndexConfig(IndexConfig, total=False):
    """LangGraph's ``IndexConfig`` (``dims``, ``embed``, ``fields``) as this store reads it.

    ``embed`` may also be a ``"provider:model"`` string resolved by
    :func:`langmem_es.embeddings.resolve_embeddings` (``"default"`` is the offline
    MiniLM model, 384 dims).
    """


@dataclass(frozen=True)
class ResolvedIndex:
    """An index config with its embedder resolved and its paths tokenized."""

    dims: int
    embeddings: Embeddings
    fields: tuple[str, ...]
    tokenized: tuple[tuple[str, Any], ...]


def _resolve_embeddings(spec: Any) -> Embeddings:
    from ..embeddings import resolve_embeddings

    return resolve_embeddings(spec)


def _tokenize(path: str) -> tuple[str, Any]:
    return (path, "$") if path == "$" else (path, tokenize_path(path))


def _index_fields(index: Mapping[str, Any]) -> tuple[str, ...]:
    """``fields``, or ``text_fields`` as ``SqliteStore`` names them; default ``("$",)``."""
    fields, text_fields = index.get("fields"), index.get("text_fields")
    if fields is not None and text_fields is not None and list(fields) != list(text_fields):
        raise ValueError(f"index config has fields={fields!r} and text_fields={text_fields!r}; give one")
    chosen = fields if fields is not None else text_fields
    if isinstance(chosen, str):
        chosen = [chosen]
    if chosen is not None and (not isinstance(chosen, (list, tuple)) or not all(isinstance(p, str) for p in chosen)):
        raise ValueError(f"index fields are a list of paths like ['text', 'meta.title'], got {chosen!r}")
    return tuple(chosen or ("$",))


def resolve_index(index: IndexConfig | Mapping[str, Any] | None) -> ResolvedIndex | None:
    """Check an index config and resolve its embedder (no I/O: models load lazily)."""
    if index is None:
        return None
    if "dims" not in index or not isinstance(index["dims"], int) or index["dims"] <= 0:
        raise ValueError("index config needs 'dims', the positive vector length of the embedder")
    fields = _index_fields(index)
    return ResolvedIndex(
        dims=index["dims"],
        embeddings=_resolve_embeddings(index.get("embed")),
        fields=fields,
        tokenized=tuple(_tokenize(p) for p in fields),
    )


def check_dims(vectors: Sequence[Sequence[float]], dims: int, expected_count: int) -> list[list[float]]:
    """Vectors as float lists; raise :class:`DimensionMismatchError` on any wrong length."""
    if len(vectors) != expected_count:
        raise DimensionMismatchError(
            f"the embedder returned {len(vectors)} vectors for {expected_count} texts; "
            "check that it embeds every input text"
        )
    out = []
    for vec in vectors:
        if len(vec) != dims:
            raise DimensionMismatchError(
                f"the embedder returns {len(vec)}-dimensional vectors but the index config says "
                f"dims={dims}: set index={{'dims': {len(vec)}, ...}} or use a model with {dims} dimensions"
            )
        out.append([float(x) for x in vec])
    return out


# --------------------------------------------------------------------------------------
# validation and batching
# --------------------------------------------------------------------------------------
def _utf8(text: str, what: str, error: type[Exception]) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise error(
            f"{what} {text!r} is not valid unicode (lone surrogate at {exc.start}); "
            "decode bytes with errors='replace' first"
        ) from None


@contextmanager
def typed_namespace_errors() -> Iterator[None]:
    """LangGraph's ``BaseStore.put`` checks namespaces before ``batch``: give its error our type."""
    try:
        yield
    except _LangGraphInvalidNamespaceError as exc:
        if isinstance(exc, InvalidNamespaceError):
            raise
        raise InvalidNamespaceError(
            f"{exc} Use non-empty string labels without '.', not starting with {RESERVED_ROOT!r}."
        ) from exc


def validate_op(op: Op) -> None:
    """Raise :class:`InvalidNamespaceError` or :class:`InvalidArgumentError` for an op no store accepts."""
    for label in getattr(op, "namespace", None) or getattr(op, "namespace_prefix", None) or ():
        if isinstance(label, str):
            _utf8(label, "namespace label", InvalidNamespaceError)
    try:
        validate_op_namespace(op)
    except _LangGraphInvalidNamespaceError as exc:
        raise InvalidNamespaceError(
            f"{exc} Use non-empty string labels without '.' (use separate labels instead)."
        ) from exc
    if isinstance(op, PutOp):
        if not op.namespace:
            raise InvalidNamespaceError(
                "a namespace cannot be empty; put items under at least one label, e.g. ('memories',)"
            )
        # the reserved root ("langgraph") is refused by the public put() only, as in
        # LangGraph's stores: LangGraph itself writes under it through batch()
        if not isinstance(op.key, str):
            raise InvalidArgumentError(f"item keys are strings, got {type(op.key).__name__}: pass str(key)")
        _utf8(op.key, "item key", InvalidArgumentError)
        if op.value is not None and not isinstance(op.value, Mapping):
            raise InvalidArgumentError(
                f"an item value is a dict, got {type(op.value).__name__}: wrap it, e.g. {{'items': [...]}}"
            )
        if op.ttl is not None and (not isinstance(op.ttl, (int, float)) or op.ttl <= 0):
            raise InvalidArgumentError(f"ttl is a positive number of minutes, got {op.ttl!r}")
    elif isinstance(op, ListNamespacesOp):
        for cond in op.match_conditions or ():
            if cond.match_type not in ("prefix", "suffix"):
                raise InvalidArgumentError(f"unsupported match type {cond.match_type!r}; use 'prefix' or 'suffix'")
    elif not isinstance(op, (GetOp, SearchOp)):
        raise InvalidArgumentError(f"unknown operation type: {type(op).__name__}")
    if isinstance(op, (SearchOp, ListNamespacesOp)) and isinstance(op.offset, int) and op.offset < 0:
        raise InvalidArgumentError(f"offset must be >= 0, got {op.offset}")


def dedupe_ops(ops: Iterable[Op]) -> tuple[list[int], list[Op]]:
    """Merge repeated reads and keep the last put per ``(namespace, key)``.

    Returns ``(listen, deduped)``: the result of ``ops[i]`` is ``results[listen[i]]``
    of running ``deduped``. Like LangGraph's batching: a put's slot is that key's first
    put, holding its last value.
    """
    deduped: list[Op] = []
    listen: list[int] = []
    puts: dict[tuple[tuple[str, ...], str], int] = {}
    reads: dict[Op, int] = {}
    for op in ops:
        if isinstance(op, PutOp):
            putkey = (tuple(op.namespace), op.key)
            if putkey in puts:
                ix = puts[putkey]
                deduped[ix] = op
            else:
                ix = puts[putkey] = len(deduped)
                deduped.append(op)
            listen.append(ix)
            continue
        try:
            ix = reads.setdefault(op, len(deduped))
        except TypeError:  # an op holding a dict or a list is unhashable
            ix = next((j for j, d in enumerate(deduped) if d == op and type(d) is type(op)), len(deduped))
        if ix == len(deduped):
            deduped.append(op)
        listen.append(ix)
    return listen, deduped


# --------------------------------------------------------------------------------------
# puts → documents
# --------------------------------------------------------------------------------------
@dataclass
class PreparedPut:
    """A validated put: where it goes, its value as JSON, and the texts to embed."""

    op: PutOp
    id: str
    collection: Collection
    value: dict[str, Any]
    texts: list[tuple[str, str]] = field(default_factory=list)  # (path label, text)


def _unserialisable_path(value: Any, path: str) -> str | None:
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                return f"{path}.{k!r}" if path else repr(k)
            found = _unserialisable_path(v, f"{path}.{k}" if path else k)
            if found is not None:
                return found
        return None
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            found = _unserialisable_path(v, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else path
    return path


def _json_value(op: PutOp) -> tuple[dict[str, Any], str]:
    try:
        text = json.dumps(op.value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        where = _unserialisable_path(op.value, "") or "?"
        raise NotSerializableError(
            f"the value of item {op.key!r} in {op.namespace} is not JSON-serialisable at key "
            f"{where!r} ({exc}); store plain dicts, lists, strings, finite numbers, booleans and None "
            "(convert datetimes with .isoformat(), models with .model_dump(mode='json'))"
        ) from exc
    _utf8_value(op, text)
    return json.loads(text), text


def _utf8_value(op: PutOp, text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise NotSerializableError(
            f"the value of item {op.key!r} in {op.namespace} holds invalid unicode (a lone surrogate); "
            "decode bytes with errors='replace' before storing"
        ) from exc


def prepare_put(op: PutOp, index: ResolvedIndex | None, *, max_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES) -> PreparedPut:
    """Validate a put's value and pick the texts its index paths select (no I/O)."""
    value, text = _json_value(op)
    size = len(text.encode("utf-8"))
    prep = PreparedPut(
        op=op, id=documents.doc_id(op.namespace, op.key), collection=collection_for(op.namespace), value=value
    )
    if index is not None and op.index is not False:
        paths = index.tokenized if op.index is None else tuple(_tokenize(p) for p in op.index)
        for path, tokens in paths:
            found = get_text_at_path(value, tokens)
            if len(found) > 1:
                prep.texts.extend((f"{path}.{i}", t) for i, t in enumerate(found))
            elif found:
                prep.texts.append((path, found[0]))
    size += sum(len(t.encode("utf-8")) for _, t in prep.texts)
    if size > max_bytes:
        raise DocumentTooLargeError(
            f"item {op.key!r} in {op.namespace} is {size} bytes (value JSON plus indexed text), over "
            f"the {max_bytes}-byte limit: split it into several items, index fewer fields "
            "(index=[...] or index=False), or raise max_document_bytes"
        )
    return prep


def build_document(
    prep: PreparedPut,
    vectors: Sequence[Sequence[float]],
    *,
    now: datetime,
    created_at: str | None = None,
) -> Doc:
    """The stored document of a put (see the schema in :mod:`langmem_es.documents`)."""
    from ..model import memory_fields

    op = prep.op
    stamp = documents.iso(now)
    doc: Doc = {
        "id": prep.id,
        "key": op.key,
        **documents.namespace_fields(op.namespace),
        "value": prep.value,
        "text": "\n".join(t for _, t in prep.texts),
        "vectors": [{"path": path, "vector": list(vec)} for (path, _), vec in zip(prep.texts, vectors, strict=False)],
        **documents.value_fields(prep.value),
        "created_at": created_at or stamp,
        "updated_at": stamp,
    }
    if op.ttl is not None:
        doc["ttl"] = float(op.ttl)
        doc["expires_at"] = documents.iso(now + timedelta(minutes=float(op.ttl)))
    for name, v in memory_fields(op.namespace, prep.value).items():
        if v is not None and name not in doc:
            doc[name] = v
    return doc


def ttl_refreshed(doc: Doc, now: datetime) -> Doc | None:
    """The document with its expiry moved to ``now + ttl``, or ``None`` without a TTL."""
    ttl = doc.get("ttl")
    if not ttl:
        return None
    return {**doc, "expires_at": documents.iso(now + timedelta(minutes=float(ttl)))}


# --------------------------------------------------------------------------------------
# reads
# --------------------------------------------------------------------------------------
def not_expired(now: datetime) -> filters.Filter:
    """Documents without an expiry, or expiring after ``now``."""
    return filters.any_of(
        filters.none_of(filters.exists("expires_at")), filters.range_("expires_at", gt=documents.iso(now))
    )


def is_expired(doc: Mapping[str, Any], now: datetime) -> bool:
    exp = doc.get("expires_at")
    return bool(exp) and str(exp) <= documents.iso(now)


def collections_for_prefix(prefix: Sequence[str]) -> tuple[Collection, ...]:
    """The collections a namespace prefix can reach."""
    if len(prefix) >= 2 and prefix[0] == ROOT and prefix[1] in KINDS:
        return (prefix[1],)
    if prefix and prefix[0] != ROOT:
        return ("items",)
    if len(prefix) >= 2:  # ("memories", <not a kind>, ...)
        return ("items",)
    return STORE_COLLECTIONS


def search_filter(op: SearchOp, now: datetime) -> filters.Filter:
    """The port filter of a search: namespace prefix, value filter, not expired."""
    ns = filters.term("ns_prefixes", documents.ns_join(op.namespace_prefix)) if op.namespace_prefix else None
    try:
        values = documents.value_filter(op.filter)
    except ValueError as exc:
        raise InvalidArgumentError(str(exc)) from None
    return filters.all_of(ns, values, not_expired(now))


def _parse(ts: Any) -> datetime:
    return ts if isinstance(ts, datetime) else documents.parse_iso(str(ts))


def to_item(doc: Mapping[str, Any]) -> Item:
    return Item(
        value=doc["value"],
        key=doc["key"],
        namespace=tuple(doc["ns"]),
        created_at=_parse(doc["created_at"]),
        updated_at=_parse(doc["updated_at"]),
    )


def to_search_item(doc: Mapping[str, Any], score: float | None = None) -> SearchItem:
    return SearchItem(
        namespace=tuple(doc["ns"]),
        key=doc["key"],
        value=doc["value"],
        created_at=_parse(doc["created_at"]),
        updated_at=_parse(doc["updated_at"]),
        score=score,
    )


# --------------------------------------------------------------------------------------
# list namespaces
# --------------------------------------------------------------------------------------
def _does_match(cond: MatchCondition, ns: tuple[str, ...]) -> bool:
    path = tuple(cond.path)
    if len(ns) < len(path):
        return False
    pairs = (
        zip(ns, path, strict=False) if cond.match_type == "prefix" else zip(reversed(ns), reversed(path), strict=False)
    )
    return all(p == "*" or k == p for k, p in pairs)


def namespace_prefilter(op: ListNamespacesOp, now: datetime) -> tuple[tuple[Collection, ...], filters.Filter]:
    """Collections and port filter that narrow a namespace listing inside the engine.

    The wildcard-free leading labels of a prefix condition become a ``term`` on
    ``ns_prefixes``; every fixed label of a suffix condition must be among ``ns``; a
    namespace is at least as deep as the longest condition. The exact match (wildcards,
    suffix positions) then runs in Python on the few namespaces left.
    """
    clauses: list[filters.Filter] = [not_expired(now)]
    lead: tuple[str, ...] = ()
    conditions = op.match_conditions or ()
    for cond in conditions:
        if cond.match_type == "prefix":
            fixed: list[str] = []
            for label in cond.path:
                if label == "*":
                    break
                fixed.append(label)
            if fixed:
                clauses.append(filters.term("ns_prefixes", documents.ns_join(fixed)))
                if len(fixed) > len(lead):
                    lead = tuple(fixed)
        else:
            clauses.extend(filters.term("ns", label) for label in cond.path if label != "*")
    depth = max((len(c.path) for c in conditions), default=0)
    if depth > 1:
        clauses.append(filters.range_("ns_depth", gte=depth))
    return collections_for_prefix(lead), filters.all_of(*clauses)


def list_namespaces_result(namespaces: Iterable[Sequence[str]], op: ListNamespacesOp) -> list[tuple[str, ...]]:
    """Match, truncate to ``max_depth``, dedupe, sort and page namespaces like InMemoryStore."""
    found = {tuple(ns) for ns in namespaces}
    if op.match_conditions:
        found = {ns for ns in found if all(_does_match(c, ns) for c in op.match_conditions)}
    if op.max_depth is not None:
        found = {ns[: op.max_depth] for ns in found}
    ordered = sorted(found)
    return ordered[op.offset : op.offset + op.limit]
