"""Pure helpers of the baselines, no I/O: tokenisers (a simple one, and one closer to
Elasticsearch's standard analyzer), a BM25 Okapi index in numpy, reciprocal rank fusion of
id lists, and the indices of the highest scores."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from langmem_es.fusion import rrf

__all__ = ["TOKENIZERS", "BM25Index", "rrf_fuse", "tokenize", "tokenize_standard", "top_indices"]


_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def tokenize(text: str) -> list[str]:
    """Lowercased runs of letters and digits; no stemming, no stopwords.

    >>> tokenize("Ana's chess-club, 2024!")
    ['ana', 's', 'chess', 'club', '2024']
    """
    return _TOKEN.findall(text.lower())


# Letters/digits joined by word-internal apostrophes or dots, as UAX#29 (Elasticsearch's
# standard tokenizer) keeps "ana's" and "3.5" whole.
_STANDARD_TOKEN = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*", re.UNICODE)


def tokenize_standard(text: str) -> list[str]:
    """Closer to Elasticsearch's standard analyzer: keeps word-internal ``'`` and ``.``.

    >>> tokenize_standard("Ana's 3.5 km, e.g. here")
    ["ana's", '3.5', 'km', 'e.g', 'here']
    """
    return _STANDARD_TOKEN.findall(text.lower())


#: Tokenisers for BM25 by name (``EvalContext.options["bm25_tokenizer"]``).
TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "simple": tokenize,
    "standard": tokenize_standard,
}


def rrf_fuse(rankings: Sequence[Sequence[str]], k: int = 60) -> list[str]:
    """Reciprocal rank fusion (``langmem_es.fusion.rrf``), ids only, best first.

    >>> rrf_fuse([["a", "b", "c"], ["b", "c", "d"]])
    ['b', 'c', 'a', 'd']
    """
    return [doc for doc, _ in rrf(rankings, k=k)]


def top_indices(scores: np.ndarray, n: int) -> np.ndarray:
    """Indices of the ``n`` highest scores, best first, stable on ties."""
    n = min(n, len(scores))
    if n <= 0:
        return np.empty(0, dtype=int)
    return np.argsort(-scores, kind="stable")[:n]


class BM25Index:
    """BM25 Okapi over a fixed list of texts (Lucene's idf, k1=1.2, b=0.75).

    >>> idx = BM25Index(["the cat sat", "the dog ran", "a cat and a dog"])
    >>> idx.top("cat", 2).tolist()
    [0, 2]
    """

    def __init__(
        self,
        texts: Sequence[str],
        k1: float = 1.2,
        b: float = 0.75,
        tokenizer: Callable[[str], list[str]] = tokenize,
    ) -> None:
        self.k1, self.b = k1, b
        self.tokenizer = tokenizer
        docs = [Counter(tokenizer(t)) for t in texts]
        self.vocab: dict[str, int] = {}
        rows, cols, vals = [], [], []
        for i, counts in enumerate(docs):
            for term, count in counts.items():
                j = self.vocab.setdefault(term, len(self.vocab))
                rows.append(i)
                cols.append(j)
                vals.append(count)
        n_docs, n_terms = len(docs), len(self.vocab)
        tf = np.zeros((n_docs, n_terms), dtype=np.float32)
        if vals:
            tf[rows, cols] = vals
        lengths = np.array([sum(c.values()) for c in docs], dtype=np.float32)
        avgdl = float(lengths.mean()) if n_docs and lengths.mean() > 0 else 1.0
        df = (tf > 0).sum(axis=0).astype(np.float64)
        self.idf = np.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))
        norm = k1 * (1.0 - b + b * lengths / avgdl)
        # Saturated term weights, (k1+1) factor dropped as in Lucene (rank-neutral).
        self.weights = tf / (tf + norm[:, None]) if n_docs else tf

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every document; repeated query terms count again (as Lucene)."""
        total = np.zeros(self.weights.shape[0], dtype=np.float64)
        for term, qtf in Counter(self.tokenizer(query)).items():
            j = self.vocab.get(term)
            if j is not None:
                total += qtf * self.idf[j] * self.weights[:, j]
        return total

    def top(self, query: str, n: int) -> np.ndarray:
        """Indices of the best ``n`` documents with a positive score, best first."""
        s = self.scores(query)
        idx = top_indices(s, n)
        return idx[s[idx] > 0]
