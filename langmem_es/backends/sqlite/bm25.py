"""In-memory postings of a collection's FTS5 index, scored as FTS5's ``bm25()`` (pure numpy: no I/O).

Built from the index itself (its ``fts5vocab`` tables), so the terms are the index's
tokens. The score of a document is FTS5's, operation for operation: per query phrase
``idf * (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * D / avgdl))`` summed in phrase order,
with ``k1 = 1.2``, ``b = 0.75``, ``D`` the document's length in tokens, ``avgdl`` the
index's mean and ``idf = log((N - n + 0.5) / (n + 0.5))``, 1e-6 when not positive; ``N``
counts the index's documents and ``n`` those holding the phrase (one column, weight 1).
The backend patches the postings after its own writes (see :mod:`._async.search`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["B", "K1", "Postings"]

K1 = 1.2
B = 0.75


class Postings:
    """Per term the rids of the documents holding it and how often, per rid its length.

    The arrays read at build time stay as they are: a document re-read later is masked
    out of them and kept in small per-term maps instead. Writes through this backend
    mark their rids ``stale``; a commit by another connection (``PRAGMA data_version``)
    means a rebuild.
    """

    def __init__(
        self,
        data_version: int,
        terms: Sequence[str],
        starts: np.ndarray,
        rids: np.ndarray,
        tfs: np.ndarray,
        lengths: np.ndarray,
        present: np.ndarray,
    ) -> None:
        self.data_version = data_version
        self.stale: set[int] = set()
        self._index = {t: i for i, t in enumerate(terms)}
        self._starts, self._rids, self._tfs = starts, rids, tfs
        self._length = lengths.astype(np.float64)  # by rid
        self._present = present  # by rid: in the index (a document may have no tokens)
        self._live = np.ones(lengths.size, bool)  # by rid: its postings above are current
        self._dead = 0
        self._extra: dict[str, dict[int, int]] = {}  # term -> {rid: tf} of re-read documents
        self._extra_docs: dict[int, Counter[str]] = {}
        self.n = int(present.sum())
        self.total = int(lengths[present].sum())

    @classmethod
    def build(
        cls,
        data_version: int,
        vocab: Sequence[tuple[str, int, int]],
        stream: np.ndarray,
        present: np.ndarray,
    ) -> Postings:
        """From the index's ``row`` vocabulary ``(term, docs, occurrences)`` and its ``instance``
        vocabulary's ``doc`` column, both in the index's term order, and the rids the index
        holds. Raises ``ValueError`` if the two do not line up.

        >>> p = Postings.build(0, [("a", 2, 3), ("b", 1, 1)], np.array([1, 1, 2, 2]), np.array([1, 2]))
        >>> [a.tolist() for a in p.postings("a")], p.n, p.total
        ([[1, 2], [2.0, 1.0]], 2, 4)
        """
        counts = np.fromiter((c for _, _, c in vocab), np.int64, len(vocab))
        docs = np.fromiter((d for _, d, _ in vocab), np.int64, len(vocab))
        if stream.size != counts.sum() or (stream.size and stream.min() < 0):
            raise ValueError("the instance vocabulary does not match the row vocabulary")
        top = int(max(stream.max(initial=-1), present.max(initial=-1))) + 1
        if top > min(8 * (present.size + 10_000), 2**31 - 1):
            raise ValueError("rids too sparse for by-rid arrays")
        term = np.repeat(np.arange(len(vocab)), counts)
        same = term[1:] == term[:-1]
        if (same & (stream[1:] < stream[:-1])).any():
            raise ValueError("the instance vocabulary is not in (term, doc) order")
        first = np.flatnonzero(np.concatenate([[True], ~same | (stream[1:] != stream[:-1])])) if stream.size else term
        starts = np.searchsorted(term[first], np.arange(len(vocab) + 1))
        if not np.array_equal(np.diff(starts), docs):
            raise ValueError("the instance vocabulary's documents differ from the row vocabulary's")
        tfs = np.diff(np.append(first, stream.size)).astype(np.uint32)
        is_present = np.zeros(top, bool)
        is_present[present] = True
        lengths = np.bincount(stream, minlength=top)
        rids = stream[first].astype(np.int32)  # top is far below 2**31 (checked above)
        return cls(data_version, [t for t, _, _ in vocab], starts, rids, tfs, lengths, is_present)

    @property
    def changed(self) -> int:
        """Documents re-read since the build."""
        return self._dead + len(self._extra_docs)

    def patch(self, docs: Mapping[int, Sequence[str] | None]) -> None:
        """Replace re-read documents: rid -> its tokens now (``None``: not in the index)."""
        top = max(docs, default=-1) + 1
        if top > self._length.size:
            grow = max(top, int(self._length.size * 1.25) + 1024) - self._length.size
            self._length = np.concatenate([self._length, np.zeros(grow)])
            self._present = np.concatenate([self._present, np.zeros(grow, bool)])
        for rid, tokens in docs.items():
            if self._present[rid]:
                self.n -= 1
                self.total -= int(self._length[rid])
            old = self._extra_docs.pop(rid, None)
            for term in old or ():
                del self._extra[term][rid]
            if old is None and rid < self._live.size and self._live[rid]:
                self._live[rid] = False
                self._dead += 1
            self._present[rid] = tokens is not None
            self._length[rid] = len(tokens or ())
            if tokens is not None:
                self.n += 1
                self.total += len(tokens)
                self._extra_docs[rid] = counted = Counter(tokens)
                for term, tf in counted.items():
                    self._extra.setdefault(term, {})[rid] = tf

    def documents(self, term: str) -> int:
        """How many documents hold ``term`` now (the length of its :meth:`postings`, counted
        without building them).

        >>> p = Postings.build(0, [("a", 2, 3), ("b", 1, 1)], np.array([1, 1, 2, 2]), np.array([1, 2]))
        >>> p.patch({2: ["b", "c"]}); [(p.documents(t), p.postings(t)[0].size) for t in ("a", "b", "c", "zz")]
        [(1, 1), (1, 1), (1, 1), (0, 0)]
        """
        i = self._index.get(term)
        held = 0
        if i is not None:
            base = self._rids[self._starts[i] : self._starts[i + 1]]
            held = int(self._live[base].sum()) if self._dead else int(base.size)
        return held + len(self._extra.get(term, ()))

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """``(rids, tfs)`` of the documents holding ``term`` now."""
        i = self._index.get(term)
        lo, hi = (self._starts[i], self._starts[i + 1]) if i is not None else (0, 0)
        rids, tfs = self._rids[lo:hi], self._tfs[lo:hi]
        if self._dead and rids.size:
            keep = self._live[rids]
            rids, tfs = rids[keep], tfs[keep]
        extra = self._extra.get(term)
        if extra:
            rids = np.concatenate([rids, np.fromiter(extra, np.int64, len(extra))])
            tfs = np.concatenate([tfs, np.fromiter(extra.values(), np.uint32, len(extra))])
        return rids, tfs.astype(np.float64)

    def scores(
        self, terms: Sequence[str], wanted: np.ndarray | None = None, required: Sequence[str] = ()
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(rids, scores)`` of the documents holding any of ``terms`` (one query phrase
        each, repeats count again), rids ascending; only the rids in ``wanted`` if given,
        and only those holding one of ``required`` if any.

        >>> p = Postings.build(0, [("a", 2, 3), ("b", 1, 1)], np.array([1, 1, 2, 2]), np.array([1, 2, 3]))
        >>> r, s = p.scores(["a", "b"]); r.tolist(), [round(float(x), 6) for x in s]  # FTS5 says the same
        ([1, 2], [1e-06, 0.424082])
        >>> p.scores(["a", "b"], required=["b"])[0].tolist()
        [2]
        """
        if not self.n:
            return np.zeros(0, np.int64), np.zeros(0)
        avgdl = self.total / self.n
        rids: list[np.ndarray] = []
        parts: list[np.ndarray] = []
        holding: dict[str, np.ndarray] = {}  # the postings of each required term, read once
        for term in terms:
            r, tf = self.postings(term)
            if term in required:
                holding[term] = r
            if not r.size:
                continue
            idf = math.log((self.n - r.size + 0.5) / (r.size + 0.5))
            if idf <= 0.0:
                idf = 1e-6
            d = self._length[r]
            rids.append(r)
            parts.append(idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * d / avgdl))))
        if not rids:
            return np.zeros(0, np.int64), np.zeros(0)
        every, weights = np.concatenate(rids), np.concatenate(parts)
        if wanted is not None:
            keep = np.isin(every, wanted)
            every, weights = every[keep], weights[keep]
        summed = np.bincount(every, weights=weights)  # per rid, in phrase order: as FTS5 adds
        found = np.flatnonzero(np.bincount(every))
        if required:
            holds = np.zeros(summed.size, dtype=bool)
            for term in required:
                r = holding[term] if term in holding else self.postings(term)[0]
                holds[r[r < summed.size]] = True
            found = found[holds[found]]
        return found, summed[found]
