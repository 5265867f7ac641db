"""Filters and sorts → parametrised SQL over one collection's table (embedded backend).

A filter (:mod:`langmem_es.filters`) becomes one SQL expression that is never NULL (so
``NOT`` and ``should`` counting stay two-valued) and selects exactly the documents
:func:`langmem_es.filters.matches` accepts. Values are always bound parameters;
identifiers come only from ``FIELD_TYPES`` and a validated prefix (:class:`.schema.Names`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...documents import ARRAY_FIELDS, FIELD_TYPES
from .schema import NUMBER_KINDS, TEXT_KINDS, Names, q


@dataclass(frozen=True)
class _Col:
    """A filterable field in the current scope: a SQL expression or a side-table lookup."""

    kind: str  # a FIELD_TYPES type
    expr: str | None = None  # scalar column expression
    array: str | None = None  # field name in the arrays side table


class FilterSQL:
    """Translate one filter to a parametrised SQL expression over table alias ``t``.

    Values become named parameters (``:p0``, ``:p1``…) added to ``params``; pass the
    same dict for several tables of one statement.

    >>> w = FilterSQL(Names("lm"), "items")
    >>> w.where({"term": {"tenant": "acme"}}), w.params
    ('(t."tenant" IS :p0)', {'p0': 'acme'})
    """

    def __init__(self, names: Names, collection: str, alias: str = "t", params: dict[str, Any] | None = None) -> None:
        self.names = names
        self.collection = collection
        names.table(collection)  # validates
        self.alias = alias
        self.params: dict[str, Any] = {} if params is None else params

    # scopes ----------------------------------------------------------------
    def _top(self, name: str) -> _Col | None:
        if name in ARRAY_FIELDS:
            return _Col(FIELD_TYPES[name], array=name)
        if name == "id":
            return _Col("keyword", expr=f"{self.alias}.id")
        if name in FIELD_TYPES:
            return _Col(FIELD_TYPES[name], expr=f"{self.alias}.{q(name)}")
        return None

    @staticmethod
    def _nested(name: str) -> _Col | None:
        return {"nums.p": _Col("keyword", expr="n.p"), "nums.v": _Col("double", expr="n.v")}.get(name)

    # entry -----------------------------------------------------------------
    def where(self, flt: Mapping[str, Any]) -> str:
        return self._clause(flt, nested=False)

    def _field(self, name: str, nested: bool) -> _Col | None:
        if not isinstance(name, str):
            raise ValueError(f"a field name must be a string, got {name!r}")
        col = self._nested(name) if nested else self._top(name)
        if col is None and not nested and name not in ("nums", "vectors", "value"):
            raise ValueError(
                f"cannot filter on {name!r}: not a field of documents.FIELD_TYPES "
                "(numeric value leaves go through a nested query on 'nums')"
            )
        return col

    def _bind(self, value: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**63:
            value = float(value)  # beyond SQLite's int64: compare as a double, like the oracle
        name = f"p{len(self.params)}"
        self.params[name] = value
        return ":" + name

    def _array_in(self, name: str, cond: Callable[[], str] = lambda: "") -> str:
        """Any element of array field ``name`` meets ``cond`` (built after the own binds)."""
        head = (
            f"{self.alias}.rid IN (SELECT a.rid FROM {q(self.names.arrays(self.collection))} a "
            f"WHERE a.field = {self._bind(name)}"
        )
        return head + cond() + ")"

    @staticmethod
    def _accepts(kind: str, value: Any) -> bool:
        """Whether a filter operand can equal/compare with a stored value of ``kind``."""
        if isinstance(value, bool) or value is None:
            return False
        if kind in TEXT_KINDS:
            return isinstance(value, str)
        if kind in NUMBER_KINDS:
            return isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value))
        return False

    def _clause(self, flt: Mapping[str, Any], nested: bool) -> str:
        if not isinstance(flt, Mapping) or len(flt) != 1:
            raise ValueError(f"a filter clause has exactly one key, got {flt!r}")
        ((kind, body),) = flt.items()
        if kind == "match_all":
            return "1"
        if kind == "term":
            ((name, value),) = body.items()
            return self._terms(name, [value], nested)
        if kind == "terms":
            ((name, values),) = body.items()
            if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
                raise ValueError(f"terms on {name!r} needs a list of values, got {values!r}")
            return self._terms(name, list(values), nested)
        if kind == "range":
            ((name, bounds),) = body.items()
            return self._range(name, bounds, nested)
        if kind == "exists":
            return self._exists(body["field"], nested)
        if kind == "bool":
            return self._bool(body, nested)
        if kind == "nested":
            if nested:
                raise ValueError("a nested query inside a nested query is not supported")
            if body.get("path") != "nums":
                raise ValueError(f"nested queries are supported on 'nums' only, got {body.get('path')!r}")
            inner = self._clause(body["query"], nested=True)
            return f"{self.alias}.rid IN (SELECT n.rid FROM {q(self.names.nums(self.collection))} n WHERE {inner})"
        raise ValueError(f"unsupported filter clause {kind!r}")

    def _terms(self, name: str, values: list[Any], nested: bool) -> str:
        col = self._field(name, nested)
        if col is None:
            return "0"
        kept = list(dict.fromkeys(v for v in values if self._accepts(col.kind, v)))
        if not kept:
            return "0"
        if col.array is not None:
            if len(kept) == 1:
                return self._array_in(col.array, lambda: f" AND a.value = {self._bind(kept[0])}")
            return self._array_in(col.array, lambda: f" AND a.value IN ({', '.join(self._bind(v) for v in kept)})")
        if len(kept) == 1:
            return f"({col.expr} IS {self._bind(kept[0])})"
        marks = ", ".join(self._bind(v) for v in kept)
        return f"({col.expr} IS NOT NULL AND {col.expr} IN ({marks}))"

    def _range(self, name: str, bounds: Any, nested: bool) -> str:
        if not isinstance(bounds, Mapping):
            raise ValueError(f"range on {name!r} needs a mapping of bounds, got {bounds!r}")
        unknown = set(bounds) - {"gt", "gte", "lt", "lte"}
        if unknown:
            raise ValueError(f"unknown range bounds {sorted(unknown)}; use gt, gte, lt, lte")
        col = self._field(name, nested)
        if col is None or not all(self._accepts(col.kind, b) for b in bounds.values()):
            return "0"
        ops = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
        if col.array is not None:
            return self._array_in(
                col.array, lambda: "".join(f" AND a.value {ops[op]} {self._bind(b)}" for op, b in bounds.items())
            )
        parts = [f"{col.expr} IS NOT NULL"] + [f"{col.expr} {ops[op]} {self._bind(b)}" for op, b in bounds.items()]
        return "(" + " AND ".join(parts) + ")"

    def _exists(self, name: str, nested: bool) -> str:
        if not nested and name in ("nums", "vectors"):
            side = (self.names.nums if name == "nums" else self.names.vectors)(self.collection)
            return f"{self.alias}.rid IN (SELECT s.rid FROM {q(side)} s)"
        if not nested and name == "value":
            j = f"json_type({self.alias}.doc, '$.value')"
            return (
                f"(coalesce({j} NOT IN ('null', 'array'), 0) "
                f"OR coalesce({j} = 'array' AND json_array_length({self.alias}.doc, '$.value') > 0, 0))"
            )
        col = self._field(name, nested)
        if col is None:
            return "0"
        if col.array is not None:
            return self._array_in(col.array)
        return f"({col.expr} IS NOT NULL)"

    def _bool(self, body: Mapping[str, Any], nested: bool) -> str:
        unknown = set(body) - {"filter", "must", "must_not", "should", "minimum_should_match"}
        if unknown:
            raise ValueError(f"unsupported bool keys {sorted(unknown)}")
        if "must" in body:
            raise ValueError("filters have no scoring: use bool.filter instead of bool.must")
        parts = [self._clause(f, nested) for f in _as_list(body.get("filter"))]
        parts += [f"NOT {self._clause(f, nested)}" for f in _as_list(body.get("must_not"))]
        should = [self._clause(f, nested) for f in _as_list(body.get("should"))]
        if should:
            need = body.get("minimum_should_match", 1)
            if isinstance(need, bool) or not isinstance(need, int):
                raise ValueError(f"minimum_should_match must be an integer, got {need!r}")
            if need == 1:
                parts.append("(" + " OR ".join(should) + ")")
            else:
                parts.append("((" + ") + (".join(should) + f")) >= {self._bind(need)}")
        if not parts:
            return "1"
        return "(" + " AND ".join(parts) + ")"


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def where(
    names: Names, collection: str, flt: Mapping[str, Any], alias: str = "t", params: dict[str, Any] | None = None
) -> tuple[str, dict[str, Any]]:
    """``(sql, params)`` for one collection's table aliased ``alias`` (named parameters).

    A filter met again (a recall asks the same scope filter of several legs and collections)
    is translated once: kept by its JSON text, up to :data:`WHERE_CACHE_SIZE` of them."""
    if params is not None:
        w = FilterSQL(names, collection, alias, params)
        return w.where(flt), w.params
    try:
        key = (names, collection, alias, json.dumps(flt, sort_keys=True, default=repr))
    except (TypeError, ValueError):  # keys of other types, or a cycle: translated (and refused) as given
        key = None
    if key is not None and (hit := _where_cache.get(key)) is not None:
        return hit[0], dict(hit[1])
    w = FilterSQL(names, collection, alias)
    sql = w.where(flt)
    if key is not None:
        if len(_where_cache) >= WHERE_CACHE_SIZE:
            _where_cache.clear()
        _where_cache[key] = (sql, dict(w.params))
    return sql, w.params


#: how many translated filters :func:`where` keeps
WHERE_CACHE_SIZE = 1024
_where_cache: dict[tuple[Names, str, str, str], tuple[str, dict[str, Any]]] = {}


def sort_spec(sort: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(column, "ASC"|"DESC")`` pairs for a port sort, validated against FIELD_TYPES.

    Callers order missing values last either way (as Elasticsearch does) and break ties
    by id, so paging with ``offset`` is stable.
    """
    spec: list[tuple[str, str]] = []
    for name, direction in sort:
        if name in ARRAY_FIELDS or name not in FIELD_TYPES:
            raise ValueError(f"cannot sort on {name!r}: sort on a single-valued field of documents.FIELD_TYPES")
        if direction not in ("asc", "desc"):
            raise ValueError(f"sort direction must be 'asc' or 'desc', got {direction!r}")
        spec.append(("id" if name == "id" else q(name), direction.upper()))
    return spec
