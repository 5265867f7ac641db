"""Training data of the learned ranker: every question's fused candidates with their features.

Each conversation is ingested into a fresh memory space by the full pipeline (as
``langmem-es eval`` does); each question is recalled with the hand-set rules ranker and
*every* fused candidate kept, in the rules' order, with the scores recall gives it. The
features are :func:`langmem_es.rank.features.features` — the very function recall calls —
and a candidate's label is 1 when its turn is one of the question's evidence turns.

The result is cached as an ``.npz`` keyed by the dataset's checksum and the feature names,
so cross-validation and training re-read it in a second.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from langmem_es.rank.features import FEATURES, FEATURES_VERSION, features
from langmem_es.rank.order import candidate_of_hit
from langmem_es_eval.datasets import Dataset

__all__ = ["CACHE", "TRAINING_SEEDS", "RankerData", "collect", "collected", "data_hash", "training_spec"]

TRAINING_SEEDS: tuple[int, ...] = tuple(range(1, 13))
"""The long-conversation generator's seeds (version 2) the shipped ranker is trained on (with the
LoCoMo dev split): ``langmem-es train-ranker``'s default, and the extra data of ``eval
--ranker-cv``'s fold models. Seeds 19 and 23 compared settings in session 38; 29 and 31 were
measured after every choice; version 1's 7 and 11 (session 29) and 13 and 17 are other data."""


def training_spec(seed: int, conversations: int = 4, families: str = "all") -> str:
    """The generated conversations of one training seed (half-length pastes: ``scale=0.5``), as
    ``train-ranker`` and ``eval --ranker-cv``'s fold models collect them.

    >>> training_spec(3), training_spec(3, families="a")
    ('longconv:seed=3,conversations=4,scale=0.5', 'longconv:seed=3,conversations=4,scale=0.5,families=a')
    """
    tail = "" if families == "all" else f",families={families}"
    return f"longconv:seed={seed},conversations={conversations},scale=0.5{tail}"


@dataclass
class RankerData:
    """Candidates of every question, stacked: ``x`` (rows × features), ``y`` (0/1), ``group``
    (question index of each row); per question: ``conv``, ``category``, ``evidence`` (how many
    evidence turns: recall's denominator), ``turns`` (the candidates' turn ids, rows in order)."""

    x: np.ndarray
    y: np.ndarray
    group: np.ndarray
    conv: np.ndarray
    category: np.ndarray
    evidence: np.ndarray
    turns: np.ndarray
    source: str

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{k: getattr(self, k) for k in self.__dataclass_fields__ if k != "source"})
        path.with_suffix(".json").write_text(json.dumps({"source": self.source, "features": list(FEATURES)}))

    @classmethod
    def load(cls, path: Path) -> RankerData:
        raw = np.load(path, allow_pickle=False)
        meta = json.loads(path.with_suffix(".json").read_text())
        return cls(**{k: raw[k] for k in raw.files}, source=meta["source"])

    def rows_of(self, questions: np.ndarray) -> np.ndarray:
        return np.isin(self.group, questions)


def data_hash(*parts: str) -> str:
    """The SHA-256 naming one set of training data: the datasets' checksums and the features."""
    return hashlib.sha256("\n".join([*parts, ",".join(FEATURES), f"v{FEATURES_VERSION}"]).encode()).hexdigest()


def collect(
    dataset: Dataset,
    make_system: Callable[[], Any],
    *,
    window: int = 80,
    progress: bool = True,
) -> RankerData:
    """Recall every question of ``dataset`` with the rules ranker (``make_system`` builds an
    eval pipeline whose ``ranker`` setting is ``rules``), keeping its first ``window``
    candidates (the ones the ranker reorders at query time, :data:`MemoryConfig.rerank_window`)."""
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    groups: list[np.ndarray] = []
    convs: list[str] = []
    cats: list[int] = []
    evidence: list[int] = []
    turns: list[str] = []
    total = sum(len(c.questions) for c in dataset.conversations)
    now = datetime.now(timezone.utc)  # as recall's reference for relative times (its clock)
    done = 0
    for conv in dataset.conversations:
        system = make_system()
        try:
            system.index(conv)
            turn_of = system._turn_of[conv.conv_id]
            identity = system._identity(conv.conv_id)
            for q in conv.questions:
                result = system.core.recall(identity, q.question, kinds=["episodic"], k=window)
                cands, ids = [], []
                for r in result.memories:
                    m = r.memory
                    cands.append(candidate_of(m, r.stages, r.score))
                    ids.append(turn_of.get(m.id, ""))
                if not cands:
                    continue
                wanted = set(q.evidence)
                xs.append(features(q.question, cands, reference=now))
                ys.append(np.array([1 if t in wanted else 0 for t in ids], dtype=np.int8))
                groups.append(np.full(len(cands), len(convs), dtype=np.int32))
                turns.extend(ids)
                convs.append(conv.conv_id)
                cats.append(int(q.category))
                evidence.append(len(wanted))
                done += 1
                if progress and done % 50 == 0:
                    print(f"  ranker data: {done}/{total} questions", file=sys.stderr, flush=True)
        finally:
            system.close()
    return RankerData(
        np.concatenate(xs),
        np.concatenate(ys),
        np.concatenate(groups),
        np.array(convs),
        np.array(cats, dtype=np.int16),
        np.array(evidence, dtype=np.int16),
        np.array(turns),
        dataset.meta.get("sha256", dataset.name),
    )


def candidate_of(memory: Any, stages: dict[str, float], rules: float) -> dict[str, Any]:
    """What recall's ranker sees of one candidate, from a recalled memory (as recall reads a hit)."""
    doc = {
        "value": {"content": memory.content},
        "kind": memory.kind,
        "session_id": memory.session_id,
        "event_time": memory.event_time,
        "written_at": memory.written_at,
    }
    return candidate_of_hit(doc, stages, stages.get("fused") or 0.0, rules)


CACHE = Path.home() / ".cache" / "langmem-es" / "ranker-data"
"""Where collected candidates are kept, by the data's hash (never in the repository)."""


def collected(spec: str, window: int, use_cache: bool = True) -> RankerData:
    """The ranker data of one dataset spec, from the cache when its checksum and features match."""
    from langmem_es.embeddings.int8 import default_precision
    from langmem_es_eval.datasets import load
    from langmem_es_eval.pipeline import MemoryPipelineSystem
    from langmem_es_eval.systems import EvalContext

    dataset = load(spec)
    # the candidates' dense scores depend on the embedder's arithmetic
    key = data_hash(str(dataset.meta.get("sha256")), f"window={window}", f"embedder={default_precision()}")
    path = CACHE / f"{key[:24]}.npz"
    if use_cache and path.is_file():
        return RankerData.load(path)
    context = EvalContext(backend="sqlite")
    started = time.perf_counter()
    print(f"collecting candidates of {dataset.name} ({spec}) ...", file=sys.stderr, flush=True)
    rules = {"ranker": "rules"}  # the candidates in the rules' order: the model's input at query time
    data = collect(dataset, lambda: MemoryPipelineSystem(context, mode="full", options=rules), window=window)
    data.source = key
    CACHE.mkdir(parents=True, exist_ok=True)
    data.save(path)
    print(f"  {len(data.conv)} questions in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return data
