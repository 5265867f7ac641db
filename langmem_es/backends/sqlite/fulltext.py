"""The SQLite backend's full-text queries: safe ``MATCH`` expressions without weightless terms.

User text never reaches ``MATCH`` as such: its word tokens are double-quoted and OR-ed
(Elasticsearch's ``match`` semantics).

FTS5 weighs a term by ``IDF = log((N - n + 0.5) / (n + 0.5))`` and clamps it to 1e-6
when that is not positive: a term found in more than half of the documents ("the",
"my") adds nothing to any score, yet an OR query walks every one of its postings to
rank — at 100k memories most of the BM25 leg's time. :func:`weighted_terms` leaves such
terms out (the ranking is unchanged but for those 1e-6 weights), unless no term the
index holds would be left. Document counts come from an ``fts5vocab`` table beside each index.

:class:`Tokenizer` runs the index's own tokenizer on strings, for the in-memory postings
of :mod:`.bm25` (documents re-read after a write, query words that are not plain ASCII).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping, Sequence

__all__ = [
    "TOKENIZE",
    "Tokenizer",
    "fts_terms",
    "match_expression",
    "total_rows",
    "vocab_ddl",
    "weighted",
    "weighted_terms",
]

#: the tokenizer of every text index (and of :class:`Tokenizer`)
TOKENIZE = "unicode61 remove_diacritics 2"
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


def vocab_ddl(fts: str, vocab: str, kind: str = "row") -> str:
    """The ``fts5vocab`` table of index ``fts``: per term its documents (``row``) or every
    occurrence of it (``instance``: term, doc, column, offset)."""
    return f'CREATE VIRTUAL TABLE IF NOT EXISTS "{vocab}" USING fts5vocab("{fts}", \'{kind}\')'


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
    nothing in FTS5's BM25); all of them when no term the index holds would be left (see
    :func:`weighted`), or when the counts cannot be read (an index made before the
    vocabulary table existed)."""
    if len(terms) < 2:
        return list(terms)
    try:
        total = total_rows(conn, fts)
        marks = ", ".join("?" * len(terms))
        counts = dict(conn.execute(f'SELECT term, doc FROM "{vocab}" WHERE term IN ({marks})', list(terms)))
    except sqlite3.OperationalError:
        return list(terms)
    return weighted(terms, counts, total)


def weighted(terms: Sequence[str], counts: Mapping[str, int], total: int) -> list[str]:
    """``terms`` without those ``counts`` finds in more than half of ``total`` documents —
    unless no term left is one ``counts`` finds at all: then every term stays (in a store of
    one or two memories each word of a memory is in most of them, and only the words it
    lacks would be left to match).

    >>> weighted(["the", "disk", "my"], {"the": 6, "disk": 1}, 10)
    ['disk', 'my']
    >>> weighted(["the", "ledger", "on"], {"the": 1, "ledger": 1}, 1)
    ['the', 'ledger', 'on']
    """
    kept = [t for t in terms if 2 * int(counts.get(t, 0)) <= total]
    if any(int(counts.get(t, 0)) > 0 for t in kept):
        return kept
    return list(terms)


class Tokenizer:
    """The text index's tokenizer (:data:`TOKENIZE`) run on strings, through a private
    in-memory FTS5 table: tokens come out exactly as the index stores them."""

    def __init__(self) -> None:
        self._conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self._conn.execute(f"CREATE VIRTUAL TABLE f USING fts5(x, tokenize='{TOKENIZE}')")
        self._conn.execute(vocab_ddl("f", "f_instances", "instance"))

    def __call__(self, texts: Mapping[int, str]) -> dict[int, list[str]]:
        """Each text's tokens (every occurrence, in order) by its key.

        >>> Tokenizer()({1: "Café, CAFE!", 2: "..."})
        {1: ['cafe', 'cafe'], 2: []}
        """
        out: dict[int, list[str]] = {key: [] for key in texts}
        self._conn.execute("DELETE FROM f")
        self._conn.executemany("INSERT INTO f (rowid, x) VALUES (?, ?)", texts.items())
        for term, doc in self._conn.execute("SELECT term, doc FROM f_instances ORDER BY doc, offset"):
            out[doc].append(term)
        return out

    def close(self) -> None:
        self._conn.close()
