"""The SQLite vector leg under broad filters: exact results without listing every matching id."""

from __future__ import annotations

import numpy as np
import pytest

from langmem_es import filters as F
from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.backends.sqlite._sync import search as sqlite_backend


def _docs(n: int, tenant: str, rng: np.random.Generator, start: int = 0) -> list[dict]:
    out = []
    for i in range(start, start + n):
        v = rng.normal(size=8)
        out.append(
            {
                "id": f"{tenant}-{i}",
                "key": f"{tenant}-{i}",
                "tenant": tenant,
                "status": "active" if i % 3 else "superseded",
                "text": f"doc {i}",
                "vectors": [{"path": "content", "vector": (v / np.linalg.norm(v)).tolist()}],
            }
        )
    return out


def _brute(docs: list[dict], flt, query: np.ndarray, size: int) -> list[str]:
    scored = [(float(np.dot(d["vectors"][0]["vector"], query)), d["id"]) for d in docs if F.matches(d, flt)]
    return [i for _, i in sorted(scored, key=lambda t: -t[0])[:size]]


@pytest.mark.parametrize("selective_max", [2_000, 50])
def test_broad_filters_give_the_exact_top_k(monkeypatch, selective_max):
    monkeypatch.setattr(sqlite_backend, "SELECTIVE_MAX", selective_max)
    rng = np.random.default_rng(7)
    docs = _docs(3000, "big", rng) + _docs(40, "small", rng)
    b = SQLiteBackend(":memory:")
    b.setup()
    try:
        b.put("semantic", docs)
        calls: list[bool] = []  # per scoring: the whole collection (a broad filter, post-filtered)?
        real = b._best
        b._best = lambda conn, c, flt, size, score, *rest: real(
            conn, c, flt, size, lambda wanted: calls.append(wanted is None) or score(wanted), *rest
        )
        for _ in range(5):
            q = rng.normal(size=8)
            q /= np.linalg.norm(q)
            for flt in (
                F.all_of(F.term("tenant", "big"), F.term("status", "active")),
                F.term("tenant", "small"),
                F.all_of(F.term("tenant", "big"), F.term("status", "superseded")),
            ):
                hits = b.hybrid(["semantic"], flt, text=None, vector=q.tolist(), size=10).vector_hits
                assert [h.doc["id"] for h in hits] == _brute(docs, flt, q, 10)
                assert all(F.matches(h.doc, flt) for h in hits)
        assert any(calls) == (selective_max < 2000), "broad filters take the post-filtered path"
        b.put("semantic", _docs(5, "big", rng, start=10_000))  # a write after the matrix was built
        q = np.asarray(b.get("semantic", ["big-10001"])[0].doc["vectors"][0]["vector"])
        flt = F.all_of(F.term("tenant", "big"), F.range_("status", gte="a"))
        hits = b.hybrid(["semantic"], flt, text=None, vector=q.tolist(), size=3).vector_hits
        assert hits[0].doc["id"] == "big-10001"
    finally:
        b.close()
