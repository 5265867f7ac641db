"""The SQLite BM25 leg leaves out terms that weigh nothing, and ranks as before."""

from __future__ import annotations

import random
import sqlite3

import pytest

from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.backends.sqlite import fulltext as T
from langmem_es.backends.sqlite.fulltext import fts_terms, match_expression, total_rows, weighted_terms
from langmem_es.filters import MATCH_ALL

COMMON = ["the", "user", "my", "is"]
RARE = [f"w{i}" for i in range(60)]


def _index(n: int, seed: int = 0) -> tuple[sqlite3.Connection, dict[str, int]]:
    """An FTS5 index of ``n`` random documents (the first common words in most, the rare ones
    in few), and each word's document count."""
    r = random.Random(seed)
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(t, tokenize='unicode61 remove_diacritics 2')")
    conn.execute(T.vocab_ddl("f", "f_vocab"))
    texts = [" ".join(COMMON[: r.randint(2, 4)] + r.sample(RARE, r.randint(1, 6)) * r.randint(1, 2)) for _ in range(n)]
    conn.executemany("INSERT INTO f (t) VALUES (?)", [(t,) for t in texts])
    counts: dict[str, int] = {}
    for text in texts:
        for word in set(text.split()):
            counts[word] = counts.get(word, 0) + 1
    return conn, counts


def _ranking(conn: sqlite3.Connection, terms: list[str], k: int = 20) -> list[tuple[int, float]]:
    match = match_expression(terms)
    rows = conn.execute("SELECT rowid, -bm25(f) AS s FROM f WHERE f MATCH ? ORDER BY s DESC, rowid LIMIT ?", (match, k))
    return [(int(a), float(b)) for a, b in rows]


def _same_ranking(a: list[tuple[int, float]], b: list[tuple[int, float]]) -> None:
    """Same scores rank by rank (the left-out terms weigh 1e-6 each), and each document
    scores the same in both (ties may order differently)."""
    assert len(a) == len(b)
    assert [s for _, s in a] == pytest.approx([s for _, s in b], abs=1e-3)
    full = dict(b)
    assert all(abs(full[i] - s) < 1e-3 for i, s in a if i in full)
    assert sum(i in full for i, _ in a) >= len(a) - sum(1 for _, s in a if abs(s - a[-1][1]) < 1e-3)


def test_total_rows_reads_the_index_count():
    for n in (1, 127, 128, 20_000):
        conn = sqlite3.connect(":memory:")
        conn.execute("CREATE VIRTUAL TABLE f USING fts5(t)")
        conn.executemany("INSERT INTO f (t) VALUES (?)", [("x",)] * n)
        assert total_rows(conn, "f") == n


def test_terms_in_most_documents_are_left_out_and_the_ranking_stays():
    conn, counts = _index(2_000)
    assert {w for w, c in counts.items() if 2 * c > 2_000} == {"the", "user", "my"}  # "is": a third
    for seed in range(20):
        r = random.Random(seed)
        terms = fts_terms(" ".join(r.sample(COMMON, 2) + r.sample(RARE, 3)))
        kept = weighted_terms(conn, "f", "f_vocab", terms)
        assert kept == [t for t in terms if 2 * counts.get(t, 0) <= 2_000]
        _same_ranking(_ranking(conn, kept), _ranking(conn, terms))


def test_a_query_of_common_terms_only_keeps_them():
    conn, _ = _index(500)
    assert weighted_terms(conn, "f", "f_vocab", ["the", "user"]) == ["the", "user"]


def test_terms_in_half_the_documents_or_fewer_stay():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(t)")
    conn.execute(T.vocab_ddl("f", "f_vocab"))
    conn.executemany("INSERT INTO f (t) VALUES (?)", [("half x",)] * 5 + [("y",)] * 5)
    assert weighted_terms(conn, "f", "f_vocab", ["half", "y", "z"]) == ["half", "y", "z"]
    conn.execute("INSERT INTO f (t) VALUES ('half')")
    assert weighted_terms(conn, "f", "f_vocab", ["half", "y", "z"]) == ["y", "z"]


def test_an_index_without_a_vocabulary_table_keeps_every_term():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(t)")
    conn.executemany("INSERT INTO f (t) VALUES (?)", [("the a",), ("the b",)])
    assert weighted_terms(conn, "f", "missing_vocab", ["the", "a"]) == ["the", "a"]


@pytest.mark.parametrize("n", [50, 400])
@pytest.mark.parametrize("postings", [True, False], ids=["postings", "sql"])
def test_the_backend_text_leg_ranks_as_the_full_query(tmp_path, monkeypatch, n, postings):
    """Through the backend: the pruned leg returns, in the same order, what the leg with every
    term returns before it reaches documents that match nothing but the left-out terms."""
    from langmem_es.backends.sqlite._sync import search

    monkeypatch.setattr(search, "POSTINGS_MIN", 0 if postings else 10**9)

    r = random.Random(n)
    docs = [
        {
            "id": f"d{i}",
            "record": "memory",
            "tenant": "t",
            "text": " ".join(["the", "user", *r.sample(RARE, r.randint(1, 5))]),
        }
        for i in range(n)
    ]
    backend = SQLiteBackend(str(tmp_path / "m.db"))
    backend.setup()
    backend.put("episodic", docs)
    queries = [" ".join(["the", "user", *r.sample(RARE, 2)]) for _ in range(15)]

    def leg(q: str) -> list[str]:
        return [h.doc["id"] for h in backend.hybrid(["episodic"], MATCH_ALL, text=q, vector=None, size=10).text_hits]

    seen: list[list[str]] = []
    prune = "weighted" if postings else "weighted_terms"  # the postings' and the SQL leg's
    real = getattr(search, prune)
    monkeypatch.setattr(search, prune, lambda *a: seen.append(real(*a)) or seen[-1])
    pruned = [leg(q) for q in queries]
    assert seen and all("the" not in kept and "user" not in kept for kept in seen)
    monkeypatch.setattr(search, prune, lambda *a: list(a[0] if postings else a[-1]))
    full = [leg(q) for q in queries]
    text = {d["id"]: set(d["text"].split()) for d in docs}
    for q, a, b in zip(queries, pruned, full, strict=True):
        assert a and b[: len(a)] == a
        assert all(not text[i] & (set(q.split()) - {"the", "user"}) for i in b[len(a) :])
    backend.close()


def test_words_the_index_lacks_are_not_all_that_is_left():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(t)")
    conn.execute(T.vocab_ddl("f", "f_vocab"))
    conn.execute("INSERT INTO f (t) VALUES ('the ledger and harbour schedule')")
    terms = ["the", "document", "on", "ledger", "harbour"]
    assert weighted_terms(conn, "f", "f_vocab", terms) == terms
    conn.execute("INSERT INTO f (t) VALUES ('the document')")
    conn.execute("INSERT INTO f (t) VALUES ('a harbour walk')")
    conn.commit()  # the index's document count is written at commit
    assert weighted_terms(conn, "f", "f_vocab", terms) == ["document", "on", "ledger"]


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("postings", [True, False], ids=["postings", "sql"])
def test_a_small_store_finds_a_memory_by_a_question_in_full_words(tmp_path, monkeypatch, n, postings):
    """In a store of a few memories every word of a memory is in most of them: the text leg
    still finds it by a question that also holds words no memory has."""
    from langmem_es.backends.sqlite._sync import search

    monkeypatch.setattr(search, "POSTINGS_MIN", 0 if postings else 10**9)
    texts = ["The ledger and harbour schedule were sent on Monday", "Harbour schedule changes", "A ledger"]
    backend = SQLiteBackend(str(tmp_path / "m.db"))
    backend.setup()
    backend.put(
        "episodic", [{"id": f"d{i}", "record": "memory", "tenant": "t", "text": t} for i, t in enumerate(texts[:n])]
    )
    query = "where is the document on the ledger and harbour schedule"
    hits = backend.hybrid(["episodic"], MATCH_ALL, text=query, vector=None, size=10).text_hits
    assert [h.doc["id"] for h in hits][:1] == ["d0"]
    backend.close()
