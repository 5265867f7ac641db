"""The SQLite BM25 leg's in-memory postings rank and score exactly as FTS5's ``-bm25()`` in SQL."""

from __future__ import annotations

import doctest
import random
import sqlite3

import numpy as np
import pytest

from langmem_es import filters as F
from langmem_es.backends.sqlite import SQLiteBackend, bm25, fulltext, matrix
from langmem_es.backends.sqlite import filter_sql as FS
from langmem_es.backends.sqlite import schema as S
from langmem_es.backends.sqlite._sync import search
from langmem_es.backends.sqlite.bm25 import Postings
from langmem_es.backends.sqlite.fulltext import fts_terms, match_expression, weighted_terms
from langmem_es.lexical import content_words

C = "items"
COMMON = ["the", "my", "is"]  # in most documents: the leg leaves them out, as the SQL leg does
# ("the" and "is" are also function words: a hit of "the my is" holds "my")
WORDS = [f"w{i}" for i in range(40)] + ["disk", "printer", "kafka", "4012", "e"]
UNICODE = ["Café", "naïve", "ÜBER", "straße", "日本語", "Ελλάδα", "résumé"]
BROAD = F.all_of(F.term("tenant", "a"), F.term("status", "active"))
SELECTIVE = F.all_of(F.term("tenant", "small"), F.terms("scope", ["shared", "private"]))
FILTERS = [BROAD, SELECTIVE, F.term("tenant", "b"), F.MATCH_ALL, F.term("tenant", "nobody")]


def _text(r: random.Random) -> str | None:
    roll = r.random()
    if roll < 0.02:
        return None  # not in the index
    if roll < 0.04:
        return r.choice(["", "!!! ...", "  "])  # in the index, no tokens
    words = r.sample(COMMON, r.randint(2, 3)) if r.random() < 0.9 else []
    words += r.choices(WORDS, k=r.randint(0, 12)) + r.choices(UNICODE, k=r.randint(0, 2))
    words += [r.choice(WORDS)] * r.randint(0, 4)  # repeated terms
    r.shuffle(words)
    return " ".join(words) + r.choice(["", ".", "!", " (E-4012)"])


def _docs(r: random.Random, n: int, tenant: str) -> list[dict]:
    """Documents whose ids do not sort like their insertion order (ties break by id)."""
    return [
        {
            "id": f"{tenant}-{r.getrandbits(40):010x}",
            "tenant": tenant,
            "scope": r.choice(["shared", "private", "team"]),
            "status": r.choice(["active"] * 6 + ["superseded", "deleted"]),
            "text": _text(r),
        }
        for _ in range(n)
    ]


def _reference(b: SQLiteBackend, flt: F.Filter, text: str, size: int) -> list[tuple[str, float]]:
    """FTS5's own ranking in SQL: ``-bm25()`` under the filter, ties by id (the terms in most
    documents left out as the SQL leg leaves them out; a hit holds one of the words that are
    not function words, langmem_es.lexical)."""
    conn, n = b._connect(), b.names
    terms = weighted_terms(conn, n.fts(C), n.vocab(C), fts_terms(text))
    if not terms:
        return []
    fts, w_p = S.q(n.fts(C)), FS.where(n, C, flt)
    holds = match_expression(fts_terms(content_words(text) or ""))
    also = f" AND t.rid IN (SELECT rowid FROM {fts} WHERE {fts} MATCH :h)" if holds else ""
    sql = (
        f"SELECT t.id, -bm25({fts}) AS s FROM {fts} JOIN {S.q(n.table(C))} t ON t.rid = {fts}.rowid "
        f"WHERE {fts} MATCH :m AND {w_p[0]}{also} ORDER BY s DESC, t.id LIMIT :k"
    )
    params = {**w_p[1], "m": match_expression(terms), "k": size, **({"h": holds} if holds else {})}
    return [(i, float(s)) for i, s in conn.execute(sql, params)]


def _queries(r: random.Random, n: int) -> list[str]:
    out = ["the my is", "the disk", "café", "CAFE naive", "straße über", "日本語", "nothing-here zzz", "w1 w1 w2"]
    for _ in range(n):
        out.append(" ".join(r.sample(COMMON, r.randint(0, 2)) + r.sample(WORDS + UNICODE, r.randint(1, 6))))
    return out


def _same_as_sql(b: SQLiteBackend, queries: list[str]) -> int:
    """Every query under every filter and a few sizes; the number of hits compared."""
    compared = 0
    for q in queries:
        for flt in FILTERS:
            for size in (1, 7, 40, 500):
                got = [(h.doc["id"], h.score) for h in b.hybrid([C], flt, text=q, vector=None, size=size).text_hits]
                want = _reference(b, flt, q, size)
                assert [i for i, _ in got] == [i for i, _ in want], (q, flt, size)
                assert np.allclose([s for _, s in got], [s for _, s in want], rtol=0, atol=1e-6), (q, flt, size)
                assert all(F.matches(h.doc, flt) for h in b.hybrid([C], flt, text=q, vector=None).text_hits)
                compared += len(got)
    assert b.names.table(C) in b._postings, "the postings answered, not the SQL fallback"
    return compared


@pytest.fixture(params=[2_000, 5], ids=["selective-listed", "all-post-filtered"])
def backend(request, tmp_path, monkeypatch):
    monkeypatch.setattr(search, "SELECTIVE_MAX", request.param)
    monkeypatch.setattr(search, "POSTINGS_MIN", 0)
    b = SQLiteBackend(str(tmp_path / "m.db"))
    b.setup()
    yield b
    b.close()


def test_rankings_and_scores_equal_fts5_through_writes(backend, tmp_path):
    r = random.Random(11)
    docs = _docs(r, 500, "a") + _docs(r, 120, "b") + _docs(r, 12, "small")
    r.shuffle(docs)
    b = backend
    for i in range(0, len(docs), 100):
        b.put(C, docs[i : i + 100])
    assert _same_as_sql(b, _queries(r, 12)) > 1000
    table = b.names.table(C)
    built = b._postings[table]

    # writes through this backend: re-written texts, new documents, deletes (patched, not rebuilt)
    rewritten = [dict(d, text=_text(r), status=r.choice(["active", "superseded"])) for d in r.sample(docs, 40)]
    b.put(C, rewritten + _docs(r, 30, "a") + _docs(r, 3, "small"))
    b.delete(C, [d["id"] for d in r.sample(docs, 25)])
    b.delete_where([C], F.all_of(F.term("tenant", "b"), F.term("scope", "team")))
    assert _same_as_sql(b, _queries(r, 8)) > 500
    assert b._postings[table] is built and built.changed > 0

    # a commit by another connection: the next searches run in SQL (POSTINGS_AFTER_COMMITS of
    # them, twice as many after each such commit), then the postings are rebuilt
    other = SQLiteBackend(str(tmp_path / "m.db"))
    other.put(C, _docs(r, 20, "a") + [dict(d, text="kafka kafka disk") for d in r.sample(docs, 10)])
    other.delete(C, [d["id"] for d in r.sample(docs, 10)])
    other.close()
    b.hybrid([C], F.MATCH_ALL, text="kafka disk", vector=None)
    assert table not in b._postings and b._postings_gates[table].uses == 1 and b._postings_gates[table].after == 4
    assert _same_as_sql(b, _queries(r, 8)) > 500
    assert b._postings[table] is not built

    # many writes at once: rebuilt rather than patched
    rebuilt = b._postings[table]
    b.put(C, _docs(r, 2_000, "a"))
    assert _same_as_sql(b, _queries(r, 4)) > 200
    assert b._postings[table] is not rebuilt


def test_postings_equal_the_index_vocabulary(tmp_path, monkeypatch):
    """Built and patched postings hold what the index holds: per term the same documents."""
    monkeypatch.setattr(search, "POSTINGS_MIN", 0)
    r = random.Random(3)
    with SQLiteBackend(str(tmp_path / "m.db")) as b:
        docs = _docs(r, 300, "a")
        b.put(C, docs)
        b.hybrid([C], F.MATCH_ALL, text="disk", vector=None)
        b.put(C, [dict(d, text=_text(r)) for d in docs[:50]] + _docs(r, 20, "a"))
        b.delete(C, [d["id"] for d in docs[50:70]])
        b.hybrid([C], F.MATCH_ALL, text="disk", vector=None)
        p = b._postings[b.names.table(C)]
        conn = b._connect()
        vocab = conn.execute(f"SELECT term, doc FROM {S.q(b.names.vocab(C))}").fetchall()
        assert vocab and all(p.postings(term)[0].size == n for term, n in vocab)
        rows = conn.execute(f"SELECT doc, count(*) FROM {S.q(b.names.instances(C))} WHERE term = 'disk' GROUP BY doc")
        want = dict(rows.fetchall())
        rids, tfs = p.postings("disk")
        assert dict(zip(rids.tolist(), tfs.tolist(), strict=True)) == want
        (docs_in_index,) = conn.execute(f"SELECT count(*) FROM {S.q(b.names.fts(C) + '_docsize')}").fetchone()
        assert p.n == docs_in_index


def test_without_the_instance_vocabulary_the_sql_leg_answers(tmp_path, monkeypatch):
    monkeypatch.setattr(search, "POSTINGS_MIN", 0)
    r = random.Random(5)
    path = str(tmp_path / "m.db")
    with SQLiteBackend(path) as b:
        b.put(C, _docs(r, 200, "a"))
        queries = _queries(r, 5)
        with_postings = [b.hybrid([C], BROAD, text=q, vector=None).text_hits for q in queries]
    conn = sqlite3.connect(path)
    conn.execute(f"DROP TABLE {S.q(S.Names('langmem').instances(C))}")
    conn.close()
    b = SQLiteBackend(path)
    b._setup_tx = lambda conn: setattr(b, "_ready", True)  # an index made before the table existed
    try:
        without = [b.hybrid([C], BROAD, text=q, vector=None).text_hits for q in queries]
        assert b._no_postings and not b._postings
        assert [[(h.doc["id"], h.score) for h in hits] for hits in without] == [
            [(h.doc["id"], h.score) for h in hits] for hits in with_postings
        ]
    finally:
        b.close()


def test_a_small_index_is_searched_in_sql(tmp_path, monkeypatch):
    monkeypatch.setattr(search, "POSTINGS_MIN", 50)
    r = random.Random(9)
    with SQLiteBackend(str(tmp_path / "m.db")) as b:
        b.put(C, _docs(r, 49, "a"))
        assert b.hybrid([C], F.MATCH_ALL, text="disk w1", vector=None).text_hits
        assert not b._postings
        b.put(C, _docs(r, 30, "a"))  # 50 or more in the index now
        assert _same_as_sql(b, _queries(r, 3))


def test_build_refuses_vocabularies_that_do_not_line_up():
    with pytest.raises(ValueError):
        Postings.build(0, [("a", 1, 2)], np.array([1, 2]), np.array([1, 2]))  # 'a' in two documents, not one
    with pytest.raises(ValueError):
        Postings.build(0, [("a", 2, 2)], np.array([2, 1]), np.array([1, 2]))  # not in doc order
    with pytest.raises(ValueError):
        Postings.build(0, [("a", 1, 1)], np.array([1, 1]), np.array([1]))  # counts differ


@pytest.mark.parametrize("module", [bm25, fulltext, matrix])
def test_examples(module):
    assert doctest.testmod(module).failed == 0
