"""How a namespace, a key and a value become a stored document (pure, no I/O).

Namespaces are stored three ways so every match is an exact ``term`` lookup — no
wildcard or prefix query ever sees a label, so ``*``, ``?`` or ``\\`` in a label are
literal: ``ns`` (the labels), ``ns_key`` (labels joined by :data:`SEP`) and
``ns_prefixes`` (every leading run of labels, joined), which makes a prefix match stop
on segment boundaries.

Value filters use two derived fields: ``flat`` holds one equality token per leaf, list
and object of the value (``path SEP json``), ``nums`` holds every numeric leaf for range
filters.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, Sequence, ValuesView
from datetime import datetime, timezone
from functools import lru_cache
from json.scanner import make_scanner
from typing import Any, cast

from . import filters

SEP = "\x1f"


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def iso(dt: datetime) -> str:
    """ISO 8601 in UTC with microseconds: sorts and compares as text."""
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_iso(text: str) -> datetime:
    """ISO 8601 text as a datetime (a trailing ``Z`` read as UTC); ``ValueError`` when it is not one."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def parse_time(value: Any) -> datetime | None:
    """A datetime or ISO 8601 text as an aware datetime (naive ones taken as UTC);
    ``None`` when blank or not a time.

    >>> parse_time("2024-05-08T10:00:00Z").isoformat()
    '2024-05-08T10:00:00+00:00'
    >>> parse_time("soon") is None
    True
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        when = value
    else:
        try:
            when = parse_iso(str(value))
        except ValueError:
            return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def doc_id(namespace: Sequence[str], key: str) -> str:
    """Deterministic id of an item: the same namespace and key always give the same id."""
    raw = json.dumps([list(namespace), key], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha1(raw.encode("utf-8")).hexdigest()


def ns_join(labels: Sequence[str]) -> str:
    return SEP.join(labels)


def namespace_fields(namespace: Sequence[str]) -> dict[str, Any]:
    labels = list(namespace)
    return {
        "ns": labels,
        "ns_key": ns_join(labels),
        "ns_prefixes": [ns_join(labels[: i + 1]) for i in range(len(labels))],
        "ns_depth": len(labels),
    }


def canonical(value: Any) -> str:
    """A JSON text that is equal for values Python's ``==`` calls equal (1 == 1.0): numbers
    that are whole (below 2**53) written as integers, keys as strings and sorted, other
    objects as their ``str``, no spaces, non-ASCII unescaped — in one pass, without the
    ``json`` encoder's per-call set-up (stored tokens are compared with it: never change it).

    >>> canonical({"b": 1.0, "a": [True, None, "é"]})
    '{"a":[true,null,"é"],"b":1}'
    """
    if isinstance(value, str):
        return _STRING(value)
    if value is None or isinstance(value, bool):
        return _CONSTANTS[value]
    if isinstance(value, (int, float)):
        f = float(value)
        if f.is_integer() and abs(f) < 2**53:
            return int.__repr__(int(f))
        return float.__repr__(f) if math.isfinite(f) else _NON_FINITE[str(f)]
    if isinstance(value, Mapping):
        items = {str(k): x for k, x in value.items()}
        return "{" + ",".join(_STRING(k) + ":" + canonical(items[k]) for k in sorted(items)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical(x) for x in value) + "]"
    return _STRING(str(value))


_STRING = json.encoder.encode_basestring
_CONSTANTS = {None: "null", True: "true", False: "false"}
_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}  # what json writes for them


#: Longest ``flat`` token: a keyword term must stay under 32,766 UTF-8 bytes (Lucene), so
#: equality filters do not apply to longer leaves (e.g. a pasted document's content).
MAX_FLAT_CHARS = 8_000


def value_fields(value: Mapping[str, Any]) -> dict[str, Any]:
    """The ``flat`` equality tokens and ``nums`` numeric leaves of an item's value.

    Every path of the value — each nested key, down to the leaves — gives a token
    ``path SEP canonical(its value)``, in document order (a path before the paths under it);
    each value is written once, a mapping's text from its children's.
    """
    flat: list[str] = []
    nums: list[dict[str, Any]] = []

    def walk(path: str, v: Any) -> str:
        at = len(flat)
        if isinstance(v, Mapping):
            texts: dict[str, str] = {}
            for k, x in v.items():
                texts[str(k)] = walk(f"{path}.{k}" if path else str(k), x)
            text = "{" + ",".join(_STRING(k) + ":" + texts[k] for k in sorted(texts)) + "}"
        else:
            text = canonical(v)
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                nums.append({"p": path, "v": float(v)})
        if path:
            token = path + SEP + text
            if len(token) <= MAX_FLAT_CHARS:  # a megabyte content is not an equality key
                flat.insert(at, token)
        return text

    walk("", value)
    return {"flat": flat, "nums": nums}


def value_filter(store_filter: Mapping[str, Any] | None) -> filters.Filter:
    """Translate a LangGraph ``SearchOp.filter`` into the shared filter language.

    Same semantics as LangGraph's ``InMemoryStore``: plain values and lists compare for
    equality, dicts without operators recurse into nested keys, and ``$eq $ne $gt $gte
    $lt $lte`` compare (ranges numerically).
    """
    clauses: list[filters.Filter] = []

    def walk(path: str, expected: Any) -> None:
        if isinstance(expected, Mapping) and any(str(k).startswith("$") for k in expected):
            for op, operand in expected.items():
                if op == "$eq":
                    clauses.append(filters.term("flat", path + SEP + canonical(operand)))
                elif op == "$ne":
                    clauses.append(filters.none_of(filters.term("flat", path + SEP + canonical(operand))))
                elif op in ("$gt", "$gte", "$lt", "$lte"):
                    if isinstance(operand, bool) or not isinstance(operand, (int, float)):
                        raise ValueError(f"filter {op} on {path!r} needs a number, got {operand!r}")
                    clauses.append(filters.num_range(path, **{op[1:]: float(operand)}))
                else:
                    raise ValueError(f"unsupported filter operator {op!r}; use $eq $ne $gt $gte $lt $lte")
        elif isinstance(expected, Mapping):
            for k, v in expected.items():
                walk(f"{path}.{k}", v)
        else:
            clauses.append(filters.term("flat", path + SEP + canonical(expected)))

    for key, expected in (store_filter or {}).items():
        walk(str(key), expected)
    return filters.all_of(*clauses)


#: Every top-level field a document may carry, with its type. The Elasticsearch mapping
#: and the SQLite columns are both generated from this table. ``value`` (stored, not
#: indexed), ``vectors`` (nested: ``path`` + ``vector``) and ``nums`` (nested: ``p`` +
#: ``v``) are the structured fields beside these.
FIELD_TYPES: dict[str, str] = {
    # item identity and namespace
    "id": "keyword",
    "key": "keyword",
    "ns": "keyword",
    "ns_key": "keyword",
    "ns_prefixes": "keyword",
    "ns_depth": "integer",
    # retrieval and value filters
    "text": "text",
    "flat": "keyword",
    # lifecycle
    "created_at": "date",
    "updated_at": "date",
    "expires_at": "date",
    "ttl": "double",
    # memory fields promoted from memory values (absent on plain store items)
    "record": "keyword",  # memory | conflict | tombstone | audit
    "tenant": "keyword",
    "scope": "keyword",
    "owner": "keyword",
    "kind": "keyword",
    "status": "keyword",
    "subject_key": "keyword",
    "content_hash": "keyword",
    "confidence": "double",
    "written_at": "date",
    "written_by": "keyword",
    "valid_to": "date",
    "event_time": "date",
    "session_id": "keyword",
    "user_id": "keyword",
    "agent_id": "keyword",
    "workspace_id": "keyword",
    "conversation_id": "keyword",
    "source_refs": "keyword",
    "access_count": "long",
    "last_accessed_at": "date",
    "contradiction_count": "long",
    "success_count": "long",
    "failure_count": "long",
    "conflict_id": "keyword",
    # the attribute a semantic statement sets, as read from its words (``user.contact``): belief
    # maintenance reads the facts held for it, however differently they were worded
    "attribute": "keyword",
}
#: Fields that hold a list of values (any element matches a ``term``).
ARRAY_FIELDS = frozenset({"ns", "ns_prefixes", "flat", "source_refs"})


_JSON_SPACE = r"[ \t\n\r]*"  # what json.loads skips between tokens
_JSON_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_JSON_SCALAR = rf"(?:{_JSON_STRING}|null|true|false|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)"
#: json.loads's own scanner (its C one when built): one JSON value at an index, and where it ends
_scan_value: Callable[[str, int], tuple[Any, int]] = make_scanner(cast(Any, json.JSONDecoder()))


@lru_cache(maxsize=16)
def _up_to_key(key: str) -> tuple[re.Pattern[str], str]:
    """What matches an object's start, the top-level ``"name": scalar,`` pairs before ``key``, and
    ``key``'s ``:``; and ``key`` as JSON writes it."""
    quoted = json.dumps(key)
    pair = rf"{_JSON_SPACE}{_JSON_STRING}{_JSON_SPACE}:{_JSON_SPACE}{_JSON_SCALAR}{_JSON_SPACE},"
    return re.compile(
        rf"{_JSON_SPACE}\{{(?:{pair})*?{_JSON_SPACE}{re.escape(quoted)}{_JSON_SPACE}:{_JSON_SPACE}"
    ), quoted


def _peek_field(text: str, key: str) -> tuple[Any] | None:
    """``(value,)`` of the top-level ``key`` of the JSON object ``text`` as ``json.loads`` reads it,
    or ``None`` when that cannot be told without decoding it all: ``key`` absent, named again
    later, or after a field whose value is an object or a list."""
    up_to, quoted = _up_to_key(key)
    start = up_to.match(text)
    if start is None:
        return None
    try:
        value, end = _scan_value(text, start.end())
    except (StopIteration, ValueError):
        return None
    # json.loads keeps a repeated key's last value: a later mention is left to it (the writers,
    # json.dumps and orjson of a dict, never repeat a key, nor spell one with escapes)
    return None if text.find(quoted, end) >= 0 else (value,)


#: Text values :meth:`LazyJSON.peek` has read, by (loads, JSON text, key): the same memories come
#: back recall after recall, and a value's text is hashed faster than its field is found and
#: decoded (an Elasticsearch pack is inflated first). The oldest go first past
#: :data:`_PEEKED_CHARS` characters of texts and values (~16 MB) or :data:`_PEEKED_ENTRIES`.
_PEEKED: dict[tuple[Any, Any, str], str] = {}
_PEEKED_CHARS = 8_000_000
_PEEKED_ENTRIES = 8_192
_peeked_size = [0]
_peeked_lock = threading.Lock()


def _keep_peeked(kept: tuple[Any, Any, str], value: str) -> None:
    size = len(kept[1]) + len(value)
    if size > _PEEKED_CHARS // 64:  # a very long value: not kept
        return
    with _peeked_lock:
        while _PEEKED and (_peeked_size[0] + size > _PEEKED_CHARS or len(_PEEKED) >= _PEEKED_ENTRIES):
            old = next(iter(_PEEKED))
            _peeked_size[0] -= len(old[1]) + len(_PEEKED.pop(old))
        if kept not in _PEEKED:
            _PEEKED[kept] = value
            _peeked_size[0] += size


class LazyJSON(Mapping[str, Any]):
    """A JSON object read from its text (by ``loads``) on first use: a search hit can carry a document's
    value at the cost of a string, and only the few hits kept pay for decoding it.

    >>> v = LazyJSON('{"content": "hi", "n": 2}')
    >>> v["content"], len(v), dict(v)
    ('hi', 2, {'content': 'hi', 'n': 2})
    """

    __slots__ = ("_known", "_loads", "_text", "_value")

    def __init__(
        self, text: str | bytes, loads: Callable[[Any], Any] = json.loads, known: Mapping[str, Any] | None = None
    ) -> None:
        self._text = text
        self._loads = loads
        self._value: dict[str, Any] | None = None
        self._known = known  # fields known without decoding (the writer vouched for them): peek's answers

    def _data(self) -> dict[str, Any]:
        if self._value is None:
            value = self._loads(self._text)
            if not isinstance(value, dict):
                raise ValueError("the JSON text is not an object")
            self._value = value
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def peek(self, key: str, default: Any = None) -> Any:
        """``self.get(key, default)``, without decoding the other fields when the text is JSON read
        by ``json.loads``: the object's top-level scalar fields before ``key`` are matched and its
        value decoded as ``json.loads`` decodes it. Whatever this cannot vouch for (a later field
        of the same name, an object or list before it, text that is not one JSON object) is read
        by decoding the whole value instead, so the answer is always ``get``'s. A text value is
        kept by the value's text (:data:`_PEEKED`): read again, it is only looked up.

        >>> v = LazyJSON('{"id": "a", "content": "hi", "n": 2}')
        >>> v.peek("content"), v._value is None, v.peek("missing", 0)
        ('hi', True, 0)
        """
        if self._value is not None:
            return self._value.get(key, default)
        if self._known is not None and key in self._known:
            return self._known[key]
        kept = (self._loads, self._text, key)
        value = _PEEKED.get(kept)
        if value is not None:
            return value
        found = _peek_field(self._text, key) if self._loads is json.loads and isinstance(self._text, str) else None
        if found is None:  # decoded whole
            data = self._data()
            found = (data[key],) if key in data else None
        if found is None:
            return default
        if isinstance(found[0], str):
            _keep_peeked(kept, found[0])
        return found[0]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())

    # the decoded dict's own methods: Mapping's mixins would go through __getitem__ key by key
    # (a recall's validation and filters read each kept value's fields dozens of times)
    def get(self, key: str, default: Any = None) -> Any:
        return self._data().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data()

    def keys(self) -> KeysView[str]:
        return self._data().keys()

    def items(self) -> ItemsView[str, Any]:
        return self._data().items()

    def values(self) -> ValuesView[Any]:
        return self._data().values()

    def __repr__(self) -> str:
        return f"LazyJSON({self._text[:60]!r}{'…' if len(self._text) > 60 else ''})"
