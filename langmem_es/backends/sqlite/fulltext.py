"""The SQLite backend's full-text queries: safe ``MATCH`` expressions without weightless terms.

User text never reaches ``MATCH`` as such: its word tokens are double-quoted and OR-ed
(Elasticsearch's ``match`` semantics).

FTS5 weighs a term by ``IDF = log((N - n + 0.5) / (n + 0.5))`` and clamps it to 1e-6
when that is not positive: a term found in more than half of the documents ("the",
"my") adds nothing to any score, yet an OR query walks every one of its postings to
rank — at 100k memories most of the BM25 leg's time. :func:`weighted_terms` leaves such
terms out (the ranking is unchanged but for those 1e-6 weights), unless every term is
one of them. Document counts come from an ``fts5vocab`` table beside each index.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

__all__ = ["fts_terms", "match_expression", "total_rows", "vocab_ddl", "weighted_terms"]

_TOKEN = re.compile(r"[^\W_]+")
#: the most distinct terms one BM25 query ORs together (Elasticsearch's default
#: ``indices.query.bool.max_clause_count`` floor is 1024)
MAX_QUERY_TERMS = 1024


def fts_terms(text: str | None) -> list[str]:
    """The distinct lowercased word tokens of ``text``, in order (at most ``MAX_QUERY_TERMS``).

    >>> fts_terms('Why does "E-4012" happen? why')
    ['why', 'does', 'e', '4012', 'happen']
    """
    if not text:
        return []
    return list(dict.fromkeys(t.lower() for t in _TOKEN.findall(text)))[:MAX_QUERY_TERMS]


def match_expression(terms: Sequence[str]) -> str | None:
    """``terms`` quoted and OR-ed; ``None`` when there is none."""
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def vocab_ddl(fts: str, vocab: str) -> str:
    """The ``fts5vocab`` table that counts, per term, the documents of index ``fts``."""
    return f'CREATE VIRTUAL TABLE IF NOT EXISTS "{vocab}" USING fts5vocab("{fts}", \'row\')'


def total_rows(conn: sqlite3.Connection, fts: str) -> int:
    """Documents in index ``fts``: the first varint of FTS5's averages record (one row read).

    Falls back to counting the index's ``docsize`` rows if the record cannot be read.
    """
    row = conn.execute(f'SELECT block FROM "{fts}_data" WHERE id = 1').fetchone()
    if row is not None and isinstance(row[0], bytes) and row[0]:
        value = _varint(row[0])
        if value is not None:
            return value
    (count,) = conn.execute(f'SELECT count(*) FROM "{fts}_docsize"').fetchone()
    return int(count)


def _varint(data: bytes) -> int | None:
    """SQLite's big-endian varint at the start of ``data`` (9 bytes at most; the 9th is whole).

    >>> _varint(bytes([0x86, 0x8D, 0x20]))
    100000
    """
    value = 0
    for i, byte in enumerate(data[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    return None


def weighted_terms(conn: sqlite3.Connection, fts: str, vocab: str, terms: Sequence[str]) -> list[str]:
    """``terms`` without those in more than half of the documents of ``fts`` (they weigh
    nothing in FTS5's BM25); all of them when every one is that common, or when the
    counts cannot be read (an index made before the vocabulary table existed)."""
    if len(terms) < 2:
        return list(terms)
    try:
        total = total_rows(conn, fts)
        marks = ", ".join("?" * len(terms))
        counts = dict(conn.execute(f'SELECT term, doc FROM "{vocab}" WHERE term IN ({marks})', list(terms)))
    except sqlite3.OperationalError:
        return list(terms)
    kept = [t for t in terms if 2 * int(counts.get(t, 0)) <= total]
    return kept or list(terms)
