"""What ``--dataset`` names: a LoCoMo JSONL file, or the generated ``longconv`` yardstick.

Both give :class:`~langmem_es_eval.locomo.Conversation` objects and are scored by the same
protocol; they differ in their question categories and which of those form the headline.

>>> ds = load("longconv:conversations=1,scale=0.02")
>>> ds.name, ds.headline
('longconv', (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))
>>> load("longconv:conversations=1,scale=0.02,version=1").headline
(1, 2, 3, 4, 5, 6, 7)
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langmem_es_eval import locomo, longconv
from langmem_es_eval.locomo import Conversation

__all__ = ["Dataset", "is_dataset", "load"]


@dataclass
class Dataset:
    name: str
    conversations: list[Conversation]
    category_names: dict[int, str]
    headline: tuple[int, ...]
    """Categories averaged into the overall figures."""
    apart: tuple[int, ...]
    """Categories reported apart (LoCoMo's adversarial questions)."""
    meta: dict[str, Any]
    """Recorded in results: file name and checksum, or generator parameters and checksum."""


def is_dataset(spec: str | os.PathLike[str]) -> bool:
    """True when ``spec`` is an existing file or a generator spec."""
    return longconv.is_spec(spec) or Path(spec).is_file()


def load(spec: str | os.PathLike[str], limit_conversations: int | None = None) -> Dataset:
    """Load a LoCoMo JSONL file, or generate ``longconv[:key=value,...]``."""
    if longconv.is_spec(spec):
        convs, params = longconv.load_spec(spec, limit_conversations)
        digest = hashlib.sha256("".join(longconv.to_jsonl(convs)).encode()).hexdigest()
        meta = {"name": str(spec), "generator": "langmem_es_eval.longconv", "params": params, "sha256": digest}
        names = longconv.category_names(params["version"])
        return Dataset("longconv", convs, names, tuple(names), (), meta)
    path = Path(spec)
    if not path.is_file():
        raise FileNotFoundError(f"dataset not found: {path}")
    convs = locomo.load_dataset(path, limit_conversations)
    meta = {"name": path.name, "sha256": locomo.file_sha256(path)}
    return Dataset("locomo", convs, locomo.CATEGORY_NAMES, locomo.HEADLINE_CATEGORIES, (5,), meta)
