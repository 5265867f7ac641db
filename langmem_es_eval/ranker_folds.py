"""Cross-validated figures through ``langmem-es eval``: a fold model per conversation.

``langmem-es eval --ranker-cv`` ranks each conversation of the dataset with a
learned ranker trained *without* it (on the dataset's other conversations and the generated
long conversations the shipped model is trained with), so the figures the eval prints for
a dataset the shipped model was trained on are cross-validated, not in-sample. The
training data come from the same cache as ``langmem-es train-ranker``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["FoldModels"]


class FoldModels:
    """Per conversation of ``spec``, the path of a model trained without it (trained on first use)."""

    def __init__(self, spec: str, *, seeds: tuple[int, ...] | None = None, conversations: int = 4) -> None:
        self.spec = spec
        from langmem_es.core.config import MemoryConfig
        from langmem_es_eval.ranker_data import TRAINING_SEEDS, collected, training_spec

        window = MemoryConfig().rerank_window
        self.data = collected(spec, window, use_cache=True)
        self.extra = [
            collected(training_spec(s, conversations), window, use_cache=True)
            for s in (TRAINING_SEEDS if seeds is None else seeds)
        ]
        self._dir = Path(tempfile.mkdtemp(prefix="langmem-es-folds-"))
        self._models: dict[str, Path] = {}

    def __repr__(self) -> str:
        return f"FoldModels({Path(self.spec).name!r})"  # no machine path in saved results

    def model_for(self, conversation_id: str) -> Path:
        if conversation_id not in self._models:
            import numpy as np

            from langmem_es.rank.features import FEATURES
            from langmem_es_eval.ranker_train import fit_with

            train = np.isin(self.data.group, np.flatnonzero(self.data.conv != conversation_id))
            model: Any = fit_with(self.data, train, self.extra)
            path = self._dir / f"fold-{len(self._models)}.txt"
            path.write_text(model.model_to_string(), encoding="utf-8")
            path.with_suffix(".json").write_text(json.dumps({"features": list(FEATURES)}), encoding="utf-8")
            self._models[conversation_id] = path
        return self._models[conversation_id]
