"""Pure SQL for the embedded backend: table layout, DDL, row building (filters: :mod:`.filter_sql`).

Nothing here opens a connection; :mod:`._async.backend` executes what this module builds.

Layout (``P`` is the prefix, ``C`` a logical collection)::

    P_C            one row per document: rid (stable rowid), id, seq_no, doc (JSON
                   without vectors) and one column per scalar field of
                   documents.FIELD_TYPES, so filters and sorts hit indexed columns
    P_C_fts        FTS5 over P_C."text" (external content, kept in sync by the backend),
                   with fts5vocab tables P_C_fts_vocab (documents per term) and
                   P_C_fts_instances (every term occurrence: the in-memory postings' source)
    P_C_arrays     (rid, field, value)  elements of documents.ARRAY_FIELDS
    P_C_nums       (rid, p, v)          the ``nums`` nested field
    P_C_vectors    (rid, path, vec)     one float32 blob per indexed path
    P_seq          (tbl, seq)           the seq_no counter of each collection
    P_schema_version (version)          applied migrations
    P_embedders    (tbl, embedder)      the embedder each collection's vectors come from

Documents get an explicit ``rid INTEGER PRIMARY KEY`` beside ``id TEXT UNIQUE``: FTS5 is
keyed by rowid, and only an INTEGER PRIMARY KEY survives ``VACUUM``. Side tables are per
collection, keyed by rid (index entries ~60 bytes smaller, bulk loads 2.5x faster).

The text index uses ``unicode61 remove_diacritics 2``: like Elasticsearch's
``standard`` analyzer it splits on Unicode punctuation and spaces and lowercases, and
it also folds accents (``café`` finds ``cafe``). User text never reaches ``MATCH`` as
such: :mod:`.fulltext` keeps word tokens only, each double-quoted, OR-ed together.

Filters and sorts become parametrised SQL in :mod:`.filter_sql`.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...documents import ARRAY_FIELDS, FIELD_TYPES
from ...errors import NotSerializableError
from ...port import COLLECTIONS
from .fulltext import TOKENIZE, vocab_ddl

SCHEMA_VERSION = 1

#: scalar fields (one column each); array fields live in the side table
SCALAR_FIELDS: tuple[str, ...] = tuple(f for f in FIELD_TYPES if f not in ARRAY_FIELDS and f != "id")
_TEXT_COLUMN = SCALAR_FIELDS.index("text")
#: columns with a b-tree index of their own
INDEXED_FIELDS: tuple[str, ...] = (
    "ns_key",
    "tenant",
    "scope",
    "owner",
    "status",
    "subject_key",
    "content_hash",
    "attribute",
    "updated_at",
    "expires_at",
)
TEXT_KINDS = frozenset({"keyword", "text", "date"})
NUMBER_KINDS = frozenset({"integer", "long", "double", "float"})
_SQL_TYPES = {
    "keyword": "TEXT",
    "text": "TEXT",
    "date": "TEXT",
    "integer": "INTEGER",
    "long": "INTEGER",
    "double": "REAL",
    "float": "REAL",
}
_PREFIX = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,40}$")


def q(name: str) -> str:
    """A quoted SQL identifier (names come from FIELD_TYPES or a validated prefix)."""
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class Names:
    """The physical table names of one backend prefix."""

    prefix: str

    def __post_init__(self) -> None:
        if not _PREFIX.match(self.prefix):
            raise ValueError(f"prefix must match {_PREFIX.pattern}, got {self.prefix!r}")

    def table(self, collection: str) -> str:
        if collection not in COLLECTIONS:
            raise ValueError(f"unknown collection {collection!r}; expected one of {COLLECTIONS}")
        return f"{self.prefix}_{collection}"

    def fts(self, collection: str) -> str:
        return self.table(collection) + "_fts"

    def vocab(self, collection: str) -> str:
        """The ``fts5vocab`` table counting the documents of each term of :meth:`fts`."""
        return self.fts(collection) + "_vocab"

    def instances(self, collection: str) -> str:
        """The ``fts5vocab`` table listing every term occurrence of :meth:`fts` (postings)."""
        return self.fts(collection) + "_instances"

    def arrays(self, collection: str) -> str:
        return self.table(collection) + "_arrays"

    def nums(self, collection: str) -> str:
        return self.table(collection) + "_nums"

    def vectors(self, collection: str) -> str:
        return self.table(collection) + "_vectors"

    def side_tables(self, collection: str) -> tuple[str, str, str]:
        return self.arrays(collection), self.nums(collection), self.vectors(collection)

    @property
    def seq(self) -> str:
        return f"{self.prefix}_seq"

    @property
    def schema_version(self) -> str:
        return f"{self.prefix}_schema_version"

    @property
    def embedders(self) -> str:
        """The embedder each collection's vectors come from (``AsyncStoragePort.setup``)."""
        return f"{self.prefix}_embedders"


# ---------------------------------------------------------------------------- DDL


def column_ddl(name: str) -> str:
    return f"{q(name)} {_SQL_TYPES[FIELD_TYPES[name]]}"


def shared_ddl(names: Names) -> list[str]:
    return [
        f"CREATE TABLE IF NOT EXISTS {q(names.schema_version)} (version INTEGER NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {q(names.seq)} (tbl TEXT PRIMARY KEY, seq INTEGER NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {q(names.embedders)} (tbl TEXT PRIMARY KEY, embedder TEXT NOT NULL)",
    ]


def collection_ddl(names: Names, collection: str) -> list[str]:
    t, f = names.table(collection), names.fts(collection)
    a, n, v = names.side_tables(collection)
    cols = ", ".join(column_ddl(c) for c in SCALAR_FIELDS)
    stmts = [
        f"CREATE TABLE IF NOT EXISTS {q(t)} (rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, "
        f"seq_no INTEGER NOT NULL, doc TEXT NOT NULL, {cols})",
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {q(f)} USING fts5(\"text\", content={q(t)}, content_rowid='rid', "
        f"tokenize='{TOKENIZE}')",
        vocab_ddl(f, names.vocab(collection)),
        vocab_ddl(f, names.instances(collection), "instance"),
        # the FTS index is kept in sync by the backend, in bulk (row triggers cost 5x)
        *(f"DROP TRIGGER IF EXISTS {q(t + suffix)}" for suffix in ("_ai", "_ad", "_au")),
        f"INSERT OR IGNORE INTO {q(names.seq)} (tbl, seq) VALUES ('{t}', 0)",
        f"CREATE TABLE IF NOT EXISTS {q(a)} (rid INTEGER NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL)",
        f"CREATE INDEX IF NOT EXISTS {q(a + '_fv')} ON {q(a)} (field, value, rid)",
        f"CREATE INDEX IF NOT EXISTS {q(a + '_rid')} ON {q(a)} (rid)",
        f"CREATE TABLE IF NOT EXISTS {q(n)} (rid INTEGER NOT NULL, p TEXT NOT NULL, v REAL NOT NULL)",
        f"CREATE INDEX IF NOT EXISTS {q(n + '_pv')} ON {q(n)} (p, v, rid)",
        f"CREATE INDEX IF NOT EXISTS {q(n + '_rid')} ON {q(n)} (rid)",
        f"CREATE TABLE IF NOT EXISTS {q(v)} (rid INTEGER NOT NULL, path TEXT NOT NULL, vec BLOB NOT NULL)",
        f"CREATE INDEX IF NOT EXISTS {q(v + '_rid')} ON {q(v)} (rid)",
    ]
    return stmts


def field_index_ddl(names: Names, collection: str) -> list[str]:
    """The b-tree indices of :data:`INDEXED_FIELDS`: created once the columns exist (an index on
    a column a file does not have yet would index the quoted name as a string literal, and the
    column added after it would leave the file malformed)."""
    t = names.table(collection)
    return [f"CREATE INDEX IF NOT EXISTS {q(t + '_' + c)} ON {q(t)} ({q(c)})" for c in INDEXED_FIELDS]


def add_column_ddl(names: Names, collection: str, column: str) -> list[str]:
    """Additive migration: a field added to FIELD_TYPES gets a column, back-filled from ``doc``."""
    t = q(names.table(collection))
    return [
        f"ALTER TABLE {t} ADD COLUMN {column_ddl(column)}",
        f"UPDATE {t} SET {q(column)} = json_extract(doc, '$.' || json_quote(?))",
    ]


# ------------------------------------------------------------------ rows from docs


@dataclass
class Row:
    """One document split into the main row and its side-table rows."""

    id: str
    doc_json: str
    columns: list[Any]
    arrays: list[tuple[str, str]] = field(default_factory=list)  # (field, value)
    nums: list[tuple[str, float]] = field(default_factory=list)  # (p, v)
    vectors: list[tuple[str, bytes]] = field(default_factory=list)  # (path, float32 blob)

    @property
    def text(self) -> str | None:
        value: str | None = self.columns[_TEXT_COLUMN]
        return value


def _bad(doc_id: Any, name: str, want: str, got: Any) -> ValueError:
    return ValueError(f"document {doc_id!r}: field {name!r} must be {want}, got {got!r}")


def to_row(doc: Mapping[str, Any]) -> Row:
    """Validate a document against FIELD_TYPES and split it into table rows.

    Scalar fields must hold one value of their type (or ``None``); array fields a
    string or a list of strings. Rejecting anything else keeps SQL filtering equal to
    :func:`langmem_es.filters.matches`.
    """
    doc_id = doc.get("id")
    if not isinstance(doc_id, str) or not doc_id:
        raise ValueError(f"a document needs a non-empty string 'id', got {doc_id!r}")
    columns: list[Any] = []
    for name in SCALAR_FIELDS:
        value = doc.get(name)
        kind = FIELD_TYPES[name]
        if value is not None:
            if kind in TEXT_KINDS and not isinstance(value, str):
                raise _bad(doc_id, name, f"a string ({kind})", value)
            if kind in NUMBER_KINDS and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            ):
                raise _bad(doc_id, name, f"a finite number ({kind})", value)
            if isinstance(value, int) and not -(2**63) <= value < 2**63:
                value = float(value)  # beyond SQLite's int64
        columns.append(value)
    row = Row(id=doc_id, doc_json="", columns=columns)
    for name in ARRAY_FIELDS:
        value = doc.get(name)
        if value is None:
            continue
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)) or not all(isinstance(x, str) for x in items):
            raise _bad(doc_id, name, "a string or a list of strings", value)
        row.arrays.extend((name, x) for x in dict.fromkeys(items))
    for n in doc.get("nums") or ():
        p, v = n.get("p") if isinstance(n, Mapping) else None, n.get("v") if isinstance(n, Mapping) else None
        if not isinstance(p, str) or isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise _bad(doc_id, "nums", "a list of {p: str, v: finite number}", n)
        row.nums.append((p, float(v)))
    for vec in doc.get("vectors") or ():
        path, values = (vec.get("path"), vec.get("vector")) if isinstance(vec, Mapping) else (None, None)
        if not isinstance(path, str) or values is None:
            raise _bad(doc_id, "vectors", "a list of {path: str, vector: [float]}", vec)
        arr = np.asarray(values, dtype=np.float32)
        if arr.ndim != 1 or not arr.size or not np.isfinite(arr).all():
            raise _bad(doc_id, "vectors", "finite one-dimensional vectors", path)
        row.vectors.append((path, arr.tobytes()))
    source = {k: v for k, v in doc.items() if k != "vectors"}
    try:
        row.doc_json = json.dumps(source, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise NotSerializableError(f"document {doc_id!r} is not JSON-serialisable: {exc}") from None
    return row


def upsert_sql(names: Names, collection: str) -> str:
    """The upsert statement of a collection's table (built once per table: writes call it per row)."""
    return _upsert_sql(names.table(collection))


@functools.lru_cache(maxsize=64)
def _upsert_sql(table: str) -> str:
    t = q(table)
    cols = ["id", "seq_no", "doc", *SCALAR_FIELDS]
    sets = ", ".join(f"{q(c)} = excluded.{q(c)}" for c in cols[1:])
    return (
        f"INSERT INTO {t} ({', '.join(q(c) for c in cols)}) VALUES ({', '.join('?' * len(cols))}) "
        f"ON CONFLICT(id) DO UPDATE SET {sets}"
    )
