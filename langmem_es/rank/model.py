"""The learned ranker: a LightGBM LambdaMART model over :mod:`.features`, shipped with the package.

``ranker.txt`` is the model (LightGBM's text format) and ``ranker.json`` what it was trained
on: the feature names in order, the SHA-256 of the training data, the parameters and the
cross-validated figures (``langmem-es train-ranker`` writes both). :func:`load_ranker`
returns ``None`` — and recall keeps the hand-set rules — when LightGBM is not installed, the
files are missing, or the model was trained on other features than this code computes
(refused, with a warning: a model must never read columns it was not trained on).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .features import FEATURES, features

__all__ = ["MODEL_FILE", "LearnedRanker", "load_ranker"]

logger = logging.getLogger("langmem_es.rank")
MODEL_FILE = Path(__file__).with_name("ranker.txt")


class LearnedRanker:
    """Scores recall's candidates with the shipped model (higher is better)."""

    def __init__(self, booster: Any, meta: Mapping[str, Any]) -> None:
        self.booster = booster
        self.meta = dict(meta)

    @property
    def data_sha256(self) -> str:
        """The hash of the data the model was trained on."""
        return str(self.meta.get("data_sha256", ""))

    def scores(
        self, query: str, candidates: Sequence[Mapping[str, Any]], *, reference: datetime | None = None
    ) -> np.ndarray:
        """One score per candidate (see :func:`~langmem_es.rank.features.features` for what a candidate holds)."""
        if not candidates:
            return np.zeros(0)
        return self.predict(features(query, candidates, reference=reference))

    def predict(self, rows: np.ndarray) -> np.ndarray:
        """One score per row of :data:`~langmem_es.rank.features.FEATURES` (float64)."""
        # one thread: 80 rows are scored in well under a millisecond, and a pool would spin
        return np.asarray(self.booster.predict(rows, num_threads=1), dtype=np.float64)

    def __repr__(self) -> str:
        return f"LearnedRanker(data_sha256={self.data_sha256[:12]!r}, trees={self.booster.num_trees()})"


@lru_cache(maxsize=4)
def load_ranker(path: Path = MODEL_FILE) -> LearnedRanker | None:
    """The model at ``path`` (default: the shipped one), or ``None`` when it cannot be used."""
    meta_path = path.with_suffix(".json")
    if not path.is_file() or not meta_path.is_file():
        logger.info("no learned ranker at %s: recall keeps the rules ranker", path)
        return None
    try:
        import lightgbm
    except ImportError:
        logger.warning("lightgbm is not installed: recall keeps the rules ranker (pip install lightgbm)")
        return None
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if tuple(meta.get("features") or ()) != FEATURES:
        logger.warning(
            "learned ranker %s refused: trained on other features than this code computes "
            "(retrain with `langmem-es train-ranker`); recall keeps the rules ranker",
            path,
        )
        return None
    booster = lightgbm.Booster(model_str=path.read_text(encoding="utf-8"))
    from ..longlived import freeze_long_lived

    freeze_long_lived()  # LightGBM's modules (and what the first recall imported) live as long as the process
    return LearnedRanker(booster, meta)
