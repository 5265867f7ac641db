"""A local cross-encoder: ONNX through onnxruntime, or sentence-transformers' ``CrossEncoder``."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import MissingDependencyError, RerankError
from .base import Candidate

_CROSS_ENCODER_HINT = (
    "pip install onnxruntime tokenizers (model dir with model.onnx + tokenizer.json) "
    "or pip install 'langmem-es[cross-encoder]'"
)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0)))


class CrossEncoderReranker:
    """A local cross-encoder from a model directory the user already has.

    ``model_dir`` holds ``model.onnx`` (or ``onnx/model.onnx``) and ``tokenizer.json``
    → onnxruntime; otherwise, if sentence-transformers is installed, its
    ``CrossEncoder(model_dir)``. Pairs are ``(query, text)``; a single logit (or the
    positive-minus-negative logit of a 2-class head) is the score, passed through a
    sigmoid when ``sigmoid=True``. Loaded lazily and thread-safely on first use.
    """

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        batch_size: int = 32,
        max_length: int = 512,
        intra_op_num_threads: int = 2,
        sigmoid: bool = True,
    ) -> None:
        self.model_dir = Path(model_dir).expanduser()
        self.batch_size = max(1, batch_size)
        self.max_length = max_length
        self.intra_op_num_threads = intra_op_num_threads
        self.sigmoid = sigmoid
        self._lock = threading.Lock()
        self._backend: str | None = None
        self._session: Any = None
        self._tokenizer: Any = None
        self._st_model: Any = None
        self._input_names: frozenset[str] = frozenset()

    def _onnx_file(self) -> Path | None:
        for cand in (self.model_dir / "model.onnx", self.model_dir / "onnx" / "model.onnx"):
            if cand.is_file():
                return cand
        return None

    def _load(self) -> None:
        if self._backend is not None:
            return
        with self._lock:
            if self._backend is not None:
                return
            if not self.model_dir.is_dir():
                raise RerankError(f"cross-encoder model directory not found: {self.model_dir}")
            onnx_file = self._onnx_file()
            tok_file = self.model_dir / "tokenizer.json"
            if onnx_file is not None and tok_file.is_file():
                try:
                    import onnxruntime as ort
                    from tokenizers import Tokenizer
                except ImportError as exc:
                    raise MissingDependencyError(
                        f"cross-encoder needs onnxruntime and tokenizers; run: {_CROSS_ENCODER_HINT}"
                    ) from exc
                tokenizer = Tokenizer.from_file(str(tok_file))
                tokenizer.no_padding()
                tokenizer.enable_truncation(max_length=self.max_length)
                opts = ort.SessionOptions()
                opts.intra_op_num_threads = self.intra_op_num_threads
                try:
                    session = ort.InferenceSession(
                        str(onnx_file), sess_options=opts, providers=["CPUExecutionProvider"]
                    )
                except Exception as exc:
                    raise RerankError(f"cannot load cross-encoder {onnx_file}: {exc}") from exc
                self._input_names = frozenset(i.name for i in session.get_inputs())
                self._tokenizer, self._session = tokenizer, session
                self._backend = "onnx"
                return
            try:
                from sentence_transformers import CrossEncoder
            except ImportError as exc:
                raise MissingDependencyError(
                    f"{self.model_dir} has no model.onnx + tokenizer.json and "
                    f"sentence-transformers is not installed; run: {_CROSS_ENCODER_HINT}"
                ) from exc
            self._st_model = CrossEncoder(str(self.model_dir), max_length=self.max_length)
            self._backend = "sentence-transformers"

    @property
    def backend(self) -> str | None:
        """``"onnx"`` or ``"sentence-transformers"`` once loaded, else ``None``."""
        return self._backend

    def _logits_onnx(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        encs = self._tokenizer.encode_batch(pairs)
        width = max(len(e.ids) for e in encs)
        n = len(encs)
        ids = np.zeros((n, width), dtype=np.int64)
        mask = np.zeros((n, width), dtype=np.int64)
        types = np.zeros((n, width), dtype=np.int64)
        for row, e in enumerate(encs):
            ln = len(e.ids)
            ids[row, :ln] = e.ids
            mask[row, :ln] = 1
            types[row, :ln] = e.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        feeds = {k: v for k, v in feeds.items() if k in self._input_names}
        try:
            out = np.asarray(self._session.run(None, feeds)[0], dtype=np.float64)
        except Exception as exc:
            raise RerankError(f"cross-encoder inference failed: {exc}") from exc
        if out.ndim == 2 and out.shape[1] == 2:
            return out[:, 1] - out[:, 0]
        if out.ndim == 2:
            return out[:, -1] if out.shape[1] > 1 else out[:, 0]
        return out.reshape(n)

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        if not candidates:
            return []
        self._load()
        pairs = [(query, str(c.get("text", "") or "")) for c in candidates]
        if self._backend == "sentence-transformers":
            logits = np.asarray(
                self._st_model.predict(pairs, batch_size=self.batch_size, activation_fn=None),
                dtype=np.float64,
            ).reshape(len(pairs), -1)
            raw = logits[:, 1] - logits[:, 0] if logits.shape[1] == 2 else logits[:, -1]
        else:
            order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
            raw = np.empty(len(pairs), dtype=np.float64)
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                raw[chunk] = self._logits_onnx([pairs[i] for i in chunk])
        scores = _sigmoid(raw) if self.sigmoid else raw
        return [float(s) for s in scores]

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return await asyncio.to_thread(self.rerank, query, candidates)

    def __repr__(self) -> str:
        return f"CrossEncoderReranker({str(self.model_dir)!r}, backend={self._backend!r})"
