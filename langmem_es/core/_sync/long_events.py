# generated from the _async twin by scripts/unasync.py — do not edit
"""Long events as passages (async source; ``_sync/long_events.py`` is generated).

Two small hooks around the pure splitter (:mod:`langmem_es.core.passages`): writes embed
a long content passage by passage (``passage.<i>`` vectors beside the event's own
``content`` vector, so the kNN leg scores the event by its best passage), and recall
names the passage of each returned long event that the query matched.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...text_memo import TextMemo
from .. import passages, scoring
from .shared import CoreContext

#: Passages embedded per call to the embedder (bounds memory on megabyte events).
EMBED_BATCH = 64
#: Stored passage vectors kept for naming the matched passage (the same long memories come
#: back turn after turn; reading a long document's vectors from Elasticsearch takes tens of
#: milliseconds), by collection, document id and content: a changed content is read anew.
#: A long memory of more than :data:`KEPT_PASSAGES` passages is read each time (bounds memory).
_STORED: TextMemo[np.ndarray] = TextMemo(128)
KEPT_PASSAGES = 128


def _matrix(rows: Sequence[Sequence[float]]) -> np.ndarray:
    """Passage vectors as one read-only matrix (shared by the recalls that read it)."""
    matrix = np.asarray(rows, dtype=np.float64)
    matrix.setflags(write=False)
    return matrix


class LongEvents:
    """Passage vectors for long contents, and the matched passage at recall."""

    def __init__(self, ctx: CoreContext) -> None:
        self._ctx = ctx

    def _spans(self, content: str) -> list[passages.Passage]:
        config = self._ctx.config
        return passages.split(content, max_tokens=config.passage_tokens, overlap=config.passage_overlap)

    def passage_vectors(
        self, contents: Sequence[str], keys: Sequence[tuple[str, str]] | None = None
    ) -> list[list[tuple[str, list[float]]]]:
        """Per content, one ``("passage.<i>", vector)`` per passage; ``[]`` for a content
        that fits in one passage. Embedded :data:`EMBED_BATCH` passages at a time. With the
        ``(collection, document id)`` each content is written under, the vectors are also kept
        for naming the passage a recall matched (the memory just written is often the next
        one recalled), when they are exactly what the backend will give back (float32 values)."""
        out: list[list[tuple[str, list[float]]]] = [[] for _ in contents]
        todo = [(i, j, c[p.start : p.end]) for i, c in enumerate(contents) for j, p in enumerate(self._spans(c))]
        for start in range(0, len(todo), EMBED_BATCH):
            chunk = todo[start : start + EMBED_BATCH]
            vectors = self._ctx.embeddings.embed_documents([text for _, _, text in chunk])
            for (i, j, _), vector in zip(chunk, vectors, strict=False):
                out[i].append((f"passage.{j}", list(vector)))
        for content, key, found in zip(contents, keys or (), out, strict=False):
            if found and len(found) <= KEPT_PASSAGES:
                matrix = _matrix([v for _, v in found])
                if np.array_equal(matrix.astype(np.float32), matrix):
                    _STORED.keep(content, key, matrix)
        return out

    def matched_passages(
        self, query: str, vector: Sequence[float], found: Sequence[tuple[str, str, str]]
    ) -> dict[str, str]:
        """For ``(collection, doc id, content)`` of recalled memories: the passage of each
        long content that best matches the query (stored passage vectors and the query's
        words), by doc id. Short contents are left out."""
        spans = {did: self._spans(content) for _, did, content in found}
        wanted: dict[str, list[str]] = {}
        for collection, did, _ in found:
            if spans[did]:
                wanted.setdefault(collection, []).append(did)
        if not wanted:
            return {}
        matrices: dict[str, np.ndarray] = {}
        content_of = {did: content for _, did, content in found}
        for collection, ids in list(wanted.items()):
            for did in ids:
                kept = _STORED.find(content_of[did], (collection, did))
                if kept is not None:
                    matrices[did] = kept
            wanted[collection] = [did for did in ids if did not in matrices]
        fetch = getattr(self._ctx.backend, "vectors", None)
        if fetch is not None:
            for collection, ids in wanted.items():
                if not ids:
                    continue
                for did, vectors in (fetch(collection, ids)).items():
                    paths = {v["path"]: v["vector"] for v in vectors}
                    n = len(spans.get(did, ()))
                    if n and all(f"passage.{j}" in paths for j in range(n)):
                        matrices[did] = _matrix([paths[f"passage.{j}"] for j in range(n)])
                        if n <= KEPT_PASSAGES:
                            _STORED.keep(content_of[did], (collection, did), matrices[did])
        out: dict[str, str] = {}
        for _, did, content in found:
            if not spans[did]:
                continue
            texts = passages.texts(content, spans[did])
            matrix = matrices.get(did)
            cosines = scoring.cosines(vector, matrix) if matrix is not None and len(matrix) == len(texts) else None
            out[did] = texts[passages.best(query, texts, cosines)]
        return out
