"""The offline embedder in int8 arithmetic: its ONNX file with dynamically quantized matrix products.

The pinned model file stores its weights as int8 but multiplies in float32 (each weight is
cast back to float on load). ONNX Runtime's dynamic quantization — weights int8 per output
channel, each run's activations quantized on the fly — does the same products in int8 and
runs the model about twice as fast on a CPU (200-token passages and 20-word turns alike).
Its vectors stay close to the float ones (cosine 0.992 on average over conversation turns,
0.98 at worst), so an index written with one still answers queries embedded with the other.

The int8 file is derived once from the verified pinned file (ONNX Runtime folds the weight
casts into constants, then quantizes), checked against it (both embed probe inputs: a file
whose vectors stray below :data:`MIN_AGREEMENT` is refused) and kept in the cache directory
under a name that says what it was derived from and by which versions; writes are atomic,
so processes that derive it at once do not see each other's half-written file.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from ..errors import EmbeddingError

__all__ = ["PRECISIONS", "default_precision", "int8_model"]

PRECISIONS = ("int8", "float")
"""``int8``: the products in int8 (the default); ``float``: the pinned file as it is."""

_log = logging.getLogger(__name__)


def default_precision() -> str:
    """``$LANGMEM_ES_EMBEDDER_PRECISION`` (``int8`` or ``float``), ``int8`` when unset."""
    value = (os.environ.get("LANGMEM_ES_EMBEDDER_PRECISION") or "int8").strip().lower()
    if value not in PRECISIONS:
        raise ValueError(f"LANGMEM_ES_EMBEDDER_PRECISION={value!r}: expected one of {', '.join(PRECISIONS)}")
    return value


def int8_model(source: Path, digest: str, directory: Path | None = None, *, again: bool = False) -> Path:
    """The int8 version of the ONNX file ``source`` (whose SHA-256 is ``digest``), derived on
    first need (or ``again``: over a copy that would not load) into ``directory`` (default:
    ``models`` in the cache directory)."""
    import onnxruntime

    try:  # its version names the file; the module itself is imported only to derive one (~0.65 s)
        onnx_version = metadata.version("onnx")
    except metadata.PackageNotFoundError:  # pragma: no cover - a broken install
        from ..errors import MissingDependencyError

        raise MissingDependencyError("the int8 embedder needs the onnx package; reinstall langmem-es") from None
    if directory is None:
        from ..settings import home_dir

        directory = home_dir() / "models"
    name = f"{source.stem}-int8-{digest[:16]}-ort{onnxruntime.__version__}-onnx{onnx_version}.onnx"
    target = directory / name
    if target.is_file() and not again:
        return target
    try:
        directory.mkdir(parents=True, exist_ok=True)
        _derive(source, target)
    except OSError:  # a read-only cache: derive it for this process only
        target = Path(tempfile.mkdtemp(prefix="langmem-es-model-")) / name
        _derive(source, target)
    return target


def _derive(source: Path, target: Path) -> None:
    started = time.perf_counter()
    _log.info("deriving the int8 embedder from %s (once, a few seconds)", source)
    quiet = _QuantizerChatter()
    logging.getLogger().addFilter(quiet)  # the quantizer logs its advice on the root logger
    try:
        _quantize(source, target)
    finally:
        logging.getLogger().removeFilter(quiet)
    _log.info("int8 embedder ready in %.1f s: %s", time.perf_counter() - started, target)


class _QuantizerChatter(logging.Filter):
    """Drops the quantizer's own records (its advice, per-tensor notes) from the root logger."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "onnxruntime/quantization/" not in record.pathname.replace("\\", "/")


def _quantize(source: Path, target: Path) -> None:
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(prefix="langmem-es-quantize-", dir=target.parent) as work:
        folded = Path(work) / "folded.onnx"
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC  # constant folding only
        opts.optimized_model_filepath = str(folded)
        try:
            float_session = ort.InferenceSession(str(source), sess_options=opts, providers=["CPUExecutionProvider"])
            partial = Path(work) / target.name
            quantize_dynamic(folded, partial, weight_type=QuantType.QInt8, per_channel=True)
            agreement = _agreement(
                float_session, ort.InferenceSession(str(partial), providers=["CPUExecutionProvider"])
            )
        except Exception as exc:  # onnxruntime and onnx raise their own exception types
            raise EmbeddingError(f"cannot derive the int8 embedder from {source}: {exc}") from exc
        if agreement < MIN_AGREEMENT:
            raise EmbeddingError(
                f"the int8 embedder derived from {source} embeds too far from it (cosine {agreement:.3f} < "
                f"{MIN_AGREEMENT}); set LANGMEM_ES_EMBEDDER_PRECISION=float"
            )
        os.replace(partial, target)


MIN_AGREEMENT = 0.95
"""The lowest cosine between the float and the int8 model's vectors of :data:`_PROBES` that
lets a derived file be kept (measured: 0.98 and more on conversation turns)."""

_PROBES = (
    [101, 1045, 2333, 2000, 11867, 2197, 2095, 2007, 2026, 4256, 1012, 102],  # a short sentence's word pieces
    [101, *range(2000, 2190), 102],  # a long passage's width
)


def _agreement(float_session: Any, int8_session: Any) -> float:
    """The lowest cosine between the two sessions' mean-pooled vectors of the probe inputs."""
    import numpy as np

    names = {i.name for i in float_session.get_inputs()}
    lowest = 1.0
    for probe in _PROBES:
        ids = np.array([probe], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        if "token_type_ids" in names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        a, b = (s.run(None, feeds)[0][0].mean(axis=0) for s in (float_session, int8_session))
        lowest = min(lowest, float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))))
    return lowest
