"""Nearest labelled exemplars (pure): the exemplars with their vectors, how sure a label must be,
and the label a vector is nearest to. :mod:`.meaning_learned` embeds and asks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["Exemplars", "Settings", "decide", "nearest"]


@dataclass(frozen=True)
class Settings:
    """How sure the nearest exemplars must be: the mean cosine of the ``k`` nearest of the best
    label at least ``floor``, and above the next label's by ``margin``."""

    k: int = 3
    floor: float = 0.55
    margin: float = 0.04
    key_floor: float = 0.6
    key_margin: float = 0.05


@dataclass(frozen=True)
class Exemplars:
    """Labelled example sentences (kind ``s``), key phrases (kind ``k``) and dated event sentences
    (kind ``d``, labelled by event: for :func:`same_event`'s cross-validation) with their vectors."""

    kinds: tuple[str, ...]
    labels: tuple[str, ...]
    sources: tuple[str, ...]
    texts: tuple[str, ...]
    vectors: np.ndarray

    @cached_property
    def words(self) -> dict[str, frozenset[str]]:
        """Per label, the words its example sentences use ("flat", "payroll", "date" …)."""
        out: dict[str, set[str]] = {}
        for kind, lab, text in zip(self.kinds, self.labels, self.texts, strict=True):
            if kind == "s":
                out.setdefault(lab, set()).update(re.findall(r"[a-z]+", text.casefold()))
        return {lab: frozenset(w) for lab, w in out.items()}

    @cached_property
    def _grouped(self) -> dict[str, tuple[list[str], np.ndarray, np.ndarray]]:
        """Per kind: its labels (sorted), its rows in label order (each label's in file order),
        and where each label's rows start — worked out once (a write asks many times)."""
        out: dict[str, tuple[list[str], np.ndarray, np.ndarray]] = {}
        for kind in set(self.kinds):
            order = sorted(
                (lab, i) for i, (lab, kk) in enumerate(zip(self.labels, self.kinds, strict=True)) if kk == kind
            )
            ordered = [lab for lab, _ in order]
            labels = sorted(set(ordered))
            starts = np.array([ordered.index(lab) for lab in labels], dtype=np.intp)
            out[kind] = (labels, np.array([i for _, i in order], dtype=np.intp), starts)
        return out

    def groups(self, kind: str) -> tuple[list[str], np.ndarray, np.ndarray]:
        """The exemplars of ``kind`` grouped by label: the labels, the rows in label order, and
        where each label's rows start."""
        return self._grouped.get(kind, ([], np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)))

    def rows_of(self, kind: str, lab: str) -> np.ndarray:
        """The rows of the exemplars of ``kind`` labelled ``lab``, in file order."""
        labels, rows, starts = self.groups(kind)
        if lab not in labels:
            return rows[:0]
        at = labels.index(lab)
        return rows[starts[at] : starts[at + 1] if at + 1 < len(starts) else len(rows)]

    @cached_property
    def attributes(self) -> frozenset[str]:
        """The attributes the labels name (every label but ``none``, its value dropped: ``diet:vegan`` → ``diet``)."""
        return frozenset(lab.split(":", 1)[0] for lab in self.labels if lab != "none")

    def subset(self, keep: np.ndarray) -> Exemplars:
        idx = [int(i) for i in np.flatnonzero(keep)]
        return Exemplars(
            tuple(self.kinds[i] for i in idx),
            tuple(self.labels[i] for i in idx),
            tuple(self.sources[i] for i in idx),
            tuple(self.texts[i] for i in idx),
            self.vectors[idx],
        )


def nearest(vector: np.ndarray, ex: Exemplars, kind: str, k: int) -> list[tuple[str, float]]:
    """Labels of ``kind`` by the mean cosine of their ``k`` nearest exemplars, best first."""
    labels, rows, starts = ex.groups(kind)
    sims = ex.vectors[rows] @ vector
    if k == 1:  # the shipped setting: each label's best exemplar, in one pass
        best = np.maximum.reduceat(sims, starts)
        scores = {lab: float(v) for lab, v in zip(labels, best, strict=True)}
    else:
        ends = [*starts[1:], len(rows)]
        scores = {
            lab: float(np.sort(sims[a:b])[::-1][:k].mean()) for lab, a, b in zip(labels, starts, ends, strict=True)
        }
    return sorted(scores.items(), key=lambda kv: -kv[1])


def decide(ranked: list[tuple[str, float]], floor: float, margin: float) -> str | None:
    """The best label when it is sure (``floor``, ``margin``) and not ``none``."""
    if not ranked:
        return None
    best, score = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else -1.0
    return best if best != "none" and score >= floor and score - second >= margin else None
