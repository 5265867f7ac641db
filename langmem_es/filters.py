"""The filter language shared by every backend: a small subset of Elasticsearch query DSL.

Supported clauses, over top-level document fields (see :mod:`langmem_es.documents`)::

    {"match_all": {}}
    {"term": {field: value}}                  # array fields match if any element equals
    {"terms": {field: [v1, v2]}}
    {"range": {field: {"gt"|"gte"|"lt"|"lte": v}}}
    {"exists": {"field": field}}
    {"bool": {"filter": [...], "must_not": [...], "should": [...], "minimum_should_match": 1}}
    {"nested": {"path": "nums", "query": {"bool": {"filter": [{"term": {"nums.p": p}},
                                                               {"range": {"nums.v": {...}}}]}}}}

The Elasticsearch backend sends filters as they are; the SQLite backend translates them.
:func:`matches` evaluates a filter in Python: the memory core uses it to re-check every
document a backend returns (fail closed), and the contract tests use it as the oracle.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

Filter = Mapping[str, Any]
MATCH_ALL: Filter = {"match_all": {}}
MATCH_NONE: Filter = {"bool": {"must_not": [MATCH_ALL]}}


def term(field: str, value: Any) -> Filter:
    return {"term": {field: value}}


def terms(field: str, values: Iterable[Any]) -> Filter:
    return {"terms": {field: list(values)}}


def range_(field: str, **bounds: Any) -> Filter:
    """A range clause; bounds are finite (JSON, hence Elasticsearch, has no Infinity/NaN)."""
    unknown = set(bounds) - {"gt", "gte", "lt", "lte"}
    if unknown:
        raise ValueError(f"unknown range bounds {sorted(unknown)}; use gt, gte, lt, lte")
    for op, bound in bounds.items():
        if isinstance(bound, float) and not math.isfinite(bound):
            raise ValueError(
                f"range bound {op}={bound!r} on {field!r} is not finite; "
                "resolve infinite and NaN bounds before building the filter"
            )
    return {"range": {field: dict(bounds)}}


def exists(field: str) -> Filter:
    return {"exists": {"field": field}}


def all_of(*clauses: Filter | None) -> Filter:
    kept = [c for c in clauses if c and c != MATCH_ALL]
    if not kept:
        return MATCH_ALL
    return kept[0] if len(kept) == 1 else {"bool": {"filter": kept}}


def any_of(*clauses: Filter) -> Filter:
    return {"bool": {"should": list(clauses), "minimum_should_match": 1}}


def none_of(*clauses: Filter) -> Filter:
    return {"bool": {"must_not": list(clauses)}}


def num_range(path: str, **bounds: Any) -> Filter:
    """A range over one numeric leaf of an item's value (the ``nums`` nested field).

    Stored numbers are finite, so an infinite bound either holds for every number
    (``lt=inf``, ``gte=-inf``: the leaf only has to be a number) or for none
    (``gt=inf``, ``lte=-inf``), and a NaN bound holds for none — as Python's float
    comparisons in LangGraph's ``InMemoryStore`` answer.
    """
    finite: dict[str, Any] = {}
    for op, bound in bounds.items():
        if isinstance(bound, float) and not math.isfinite(bound):
            if math.isnan(bound) or (op in ("lt", "lte")) != (bound > 0):
                return MATCH_NONE
            continue  # true for every number
        finite[op] = bound
    leg = [term("nums.p", path)] + ([range_("nums.v", **finite)] if finite else [])
    return {"nested": {"path": "nums", "query": {"bool": {"filter": leg}}}}


def _values(doc: Mapping[str, Any], field: str) -> list[Any]:
    value: Any = doc
    for part in field.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return []
        value = value[part]
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _cmp(a: Any, b: Any) -> tuple[Any, Any] | None:
    if isinstance(a, bool) or isinstance(b, bool):
        return (a, b) if isinstance(a, bool) and isinstance(b, bool) else None
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a), float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a, b
    return None


def _equal(a: Any, b: Any) -> bool:
    pair = _cmp(a, b)
    return pair is not None and pair[0] == pair[1]


_RANGE_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
}


def _in_range(value: Any, bounds: Mapping[str, Any]) -> bool:
    for op, bound in bounds.items():
        pair = _cmp(value, bound)
        if pair is None:
            return False
        a, b = pair
        if not _RANGE_OPS[op](a, b):
            return False
    return True


def matches(doc: Mapping[str, Any], flt: Filter) -> bool:
    """Evaluate ``flt`` against one document, as Elasticsearch would."""
    if len(flt) != 1:
        raise ValueError(f"a filter clause has exactly one key, got {sorted(flt)}")
    ((kind, body),) = flt.items()
    if kind == "match_all":
        return True
    if kind == "term":
        ((field, value),) = body.items()
        return any(_equal(v, value) for v in _values(doc, field))
    if kind == "terms":
        ((field, wanted),) = body.items()
        values = _values(doc, field)
        return any(_equal(v, w) for w in wanted for v in values)
    if kind == "range":
        ((field, bounds),) = body.items()
        return any(_in_range(v, bounds) for v in _values(doc, field))
    if kind == "exists":
        return bool(_values(doc, body["field"]))
    if kind == "bool":
        filters: Sequence[Filter] = body.get("filter", ())
        must_not: Sequence[Filter] = body.get("must_not", ())
        should: Sequence[Filter] = body.get("should", ())
        if not all(matches(doc, f) for f in filters):
            return False
        if any(matches(doc, f) for f in must_not):
            return False
        if should:  # stops at the clause that makes enough (a later one may read what is costly)
            need = body.get("minimum_should_match", 1)
            return need <= 0 or any(n >= need for n in itertools.accumulate(matches(doc, f) for f in should))
        return True
    if kind == "nested":
        path = body["path"]
        inner = body["query"]
        prefix = path + "."
        for element in doc.get(path) or ():
            scoped = {prefix + k: v for k, v in element.items()}
            if matches(_unflatten(scoped), inner):
                return True
        return False
    raise ValueError(f"unsupported filter clause {kind!r}")


def fields(flt: Filter) -> set[str]:
    """Every field ``flt`` reads (a nested clause's by their full paths).

    >>> sorted(fields(all_of(term("tenant", "t"), any_of(exists("valid_to"), num_range("n", gt=1)))))
    ['nums', 'nums.p', 'nums.v', 'tenant', 'valid_to']
    """
    ((kind, body),) = flt.items()
    if kind in ("term", "terms", "range"):
        return set(body)
    if kind == "exists":
        return {body["field"]}
    if kind == "bool":
        return {f for part in ("filter", "must_not", "should") for c in body.get(part, ()) for f in fields(c)}
    if kind == "nested":
        return {body["path"], *fields(body["query"])}
    return set()


def _unflatten(flat: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for dotted, value in flat.items():
        node = out
        *parents, last = dotted.split(".")
        for p in parents:
            node = node.setdefault(p, {})
        node[last] = value
    return out
