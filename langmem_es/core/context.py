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

from collections.abc import Sequence
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


def in_context(own: Sequence[float], neighbours: Sequence[Sequence[float]], weight: float = 0.6) -> list[float] | None:
    """The event's in-context vector from its own and its neighbours' vectors: the normalised
    sum of its own direction and ``weight`` × each neighbour's (each vector normalised first,
    so no turn weighs more for being longer). ``None`` without neighbours."""
    if not neighbours:
        return None
    m = np.asarray([own, *neighbours], dtype=np.float64)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    m /= norms
    v = m[0] + weight * m[1:].sum(axis=0)
    n = float(np.linalg.norm(v))
    return (v / n).tolist() if n else None


def spoken_date(when: datetime | None) -> str:
    """A date as people write it ("8 May 2023"), so questions naming it match."""
    return f"{when.day} {when:%B %Y}" if when else ""


def text_context(neighbours: Sequence[str], when: datetime | None) -> str | None:
    parts = [*neighbours, spoken_date(when)]
    text = "\n".join(p for p in parts if p)
    return text or None


def combine(own: Sequence[float], contextual: Sequence[float] | None) -> list[float]:
    """Normalised sum of the event's vector and its in-context vector."""
    if contextual is None:
        return list(own)
    v = np.asarray(own, dtype=np.float64) + np.asarray(contextual, dtype=np.float64)
    n = float(np.linalg.norm(v))
    return (v / n).tolist() if n else list(own)
