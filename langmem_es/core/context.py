"""Conversational context for episodic events (pure).

A turn such as "Yes, last Tuesday!" means little alone; its neighbours in the session
say what it answers. Events are indexed with that context: BM25 sees the neighbouring
turns' words and the event's date, and the vector is the normalised sum of the event's
own embedding and an in-context vector. On the LoCoMo dev split this lifted recall@10
from 0.58 (plain hybrid) to about 0.71.

The in-context vector is derived from vectors already computed — the mean direction of
the event's and its neighbours' own embeddings — instead of embedding the event's text
with its neighbours' text a second time: bulk ingest then embeds each turn once and runs
at the embedder's own rate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import numpy as np

from ..model import Memory

#: Characters of a neighbour taken as context: a pasted document next to "thanks!" is
#: context for it, not its content.
NEIGHBOUR_CHARS = 2_000


def session_neighbours(memories: Sequence[Memory], window: int) -> list[list[str]]:
    """For each event, the contents of up to ``window`` events before and after it in its
    session (each cut to :data:`NEIGHBOUR_CHARS`)."""
    out: list[list[str]] = []
    for i, m in enumerate(memories):
        if window <= 0 or not m.session_id:
            out.append([])
            continue
        lo, hi = max(0, i - window), i + window + 1
        out.append(
            [n.content[:NEIGHBOUR_CHARS] for n in memories[lo:hi] if n is not m and n.session_id == m.session_id]
        )
    return out


def session_neighbour_indices(memories: Sequence[Memory], window: int) -> list[list[int]]:
    """For each event, the positions of up to ``window`` events before and after it in its session."""
    out: list[list[int]] = []
    for i, m in enumerate(memories):
        if window <= 0 or not m.session_id:
            out.append([])
            continue
        lo, hi = max(0, i - window), min(len(memories), i + window + 1)
        out.append([j for j in range(lo, hi) if j != i and memories[j].session_id == m.session_id])
    return out


def indexed_vectors(
    own: Mapping[int, Sequence[float]],
    events: Sequence[int],
    neighbours: Sequence[Sequence[int]],
    weight: float = 0.6,
) -> list[list[float]]:
    """The vector each of ``events`` is indexed with, from the vectors ``own`` (by event index).

    An event with session neighbours gets the normalised sum of its own vector and its
    in-context vector; that is the normalised sum of its own direction and ``weight`` ×
    each neighbour's (every vector normalised first, so no turn weighs more for being
    longer). An event without neighbours keeps its own vector. One numpy pass per call.

    >>> [round(x, 3) for x in indexed_vectors({0: [1.0, 0.0], 1: [0.0, 2.0]}, [0], [[1]], 1.0)[0]]
    [0.924, 0.383]
    """
    rows = sorted({j for i in events for j in (i, *neighbours[i])})
    if not rows:
        return []
    at = {j: r for r, j in enumerate(rows)}
    raw = np.asarray([own[j] for j in rows], dtype=np.float64)
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit = np.vstack([raw / norms, np.zeros((1, raw.shape[1]))])  # a zero row pads short contexts
    # each event's context: its own direction, plus ``weight`` × each neighbour's — gathered and
    # summed elementwise, not as a matrix product: a multi-threaded BLAS product leaves its
    # threads spinning after it (measured here: ~0.1 s of a core after each batch's product)
    width = 1 + max(len(neighbours[i]) for i in events)
    sources = np.full((len(events), width), len(rows))
    weights = np.zeros((len(events), width))
    for r, i in enumerate(events):
        sources[r, : 1 + len(neighbours[i])] = [at[j] for j in (i, *neighbours[i])]
        weights[r, 0], weights[r, 1 : 1 + len(neighbours[i])] = 1.0, weight
    context = (unit[sources] * weights[:, :, None]).sum(axis=1)
    n = np.linalg.norm(context, axis=1, keepdims=True)
    own_rows = raw[[at[i] for i in events]]
    v = own_rows + np.divide(context, n, out=np.zeros_like(context), where=n > 0)
    vn = np.linalg.norm(v, axis=1, keepdims=True)
    out: list[list[float]] = np.divide(v, vn, out=np.zeros_like(v), where=vn > 0).tolist()
    for r, i in enumerate(events):  # no neighbours, or nothing to add: the event's own vector
        if not neighbours[i] or not n[r, 0] or not vn[r, 0]:
            out[r] = list(own[i])
    return out


def spoken_date(when: datetime | None) -> str:
    """A date as people write it ("8 May 2023"), so questions naming it match."""
    return f"{when.day} {when:%B %Y}" if when else ""


def text_context(neighbours: Sequence[str], when: datetime | None) -> str | None:
    parts = [*neighbours, spoken_date(when)]
    text = "\n".join(p for p in parts if p)
    return text or None
