"""Input checks of the memory core, pure: every caller-supplied value is checked here first.

Bad input raises :class:`~langmem_es.errors.InvalidMemoryError` with a one-line message
saying what was wrong and what to do; nothing is written.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..errors import EmbeddingError, InvalidMemoryError
from ..model import KINDS, SCOPES, Kind, Scope

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings

MAX_CONTENT_CHARS = 32_000
#: Largest content one ``remember`` call takes, in bytes of UTF-8: 1 MiB, the HTTP API's
#: request-body limit too (``ServerSettings.max_body_bytes``, ``langmem-es serve --max-body``).
#: A long event is embedded passage by passage (:mod:`langmem_es.core.passages`: about 200
#: word pieces each, 40 shared with the next): 1 MiB of prose is about 1,600 passages, some
#: 90 s of embedding with the default embedder on two CPU cores, and ``remember`` reports no
#: progress. Longer content is refused at once (:func:`check_content_size`); a long document
#: goes in as its sections through ``remember_many(items, progress=...)``.
MAX_CONTENT_BYTES = 1_048_576
#: Longest recall query; a longer user message is recalled for by :func:`query_of` it.
MAX_QUERY_CHARS = 4000

# Unicode category Cc (C0 controls, DEL, C1 controls) except newline and tab.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _check_choices(values: Iterable[str], allowed: tuple[str, ...], what: str) -> list[Any]:
    out = list(dict.fromkeys(values))
    bad = [v for v in out if v not in allowed]
    if bad or not out:
        raise InvalidMemoryError(f"unknown {what}(s) {bad or '[]'}; use some of {list(allowed)}")
    return out


def check_kinds(kinds: Iterable[str]) -> list[Kind]:
    return _check_choices(kinds, KINDS, "kind")


def check_scopes(scopes: Iterable[str]) -> list[Scope]:
    return _check_choices(scopes, SCOPES, "scope")


def clean_text(text: Any, what: str = "content", *, limit: int = MAX_CONTENT_CHARS) -> str:
    """Validated text: a string, not blank, no control characters, within ``limit``."""
    if not isinstance(text, str):
        raise InvalidMemoryError(f"{what} must be a string, got {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidMemoryError(f"{what} is not valid unicode (lone surrogate at {exc.start})") from None
    cleaned = _CONTROL.sub("", text).strip()  # megabyte events: one regex pass, not a loop
    if not cleaned:
        raise InvalidMemoryError(f"{what} is empty; say what to remember" if what == "content" else f"{what} is empty")
    if len(cleaned) > limit:
        raise InvalidMemoryError(f"{what} is {len(cleaned)} characters; the limit is {limit} — split it or summarise")
    return cleaned


def check_content_size(text: str, what: str = "content", *, limit: int = MAX_CONTENT_BYTES) -> None:
    """Refuse ``text`` over ``limit`` bytes of UTF-8 (:data:`MAX_CONTENT_BYTES`) at once, with one line.

    >>> check_content_size("x" * 2_000_000)
    Traceback (most recent call last):
    ...
    langmem_es.errors.InvalidMemoryError: content is 2,000,000 bytes; remember takes at most 1,048,576 (1 MiB, the HTTP API's limit too): write a long document as its sections with remember_many(items, progress=...)
    """
    if not isinstance(text, str) or len(text) * 4 <= limit:  # UTF-8: at most 4 bytes a character
        return
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > limit:
        raise InvalidMemoryError(
            f"{what} is {size:,} bytes; remember takes at most {limit:,} ({limit / 1_048_576:g} MiB, the HTTP API's "
            "limit too): write a long document as its sections with remember_many(items, progress=...)"
        )


def check_ref(value: Any, what: str = "memory id") -> str:
    """A caller-supplied id or key (memory id, subject key): a string of valid unicode, 1-512 characters."""
    if not isinstance(value, str):
        raise InvalidMemoryError(f"{what} must be a string, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidMemoryError(f"{what} is not valid unicode (lone surrogate at {exc.start})") from None
    if not value.strip() or len(value) > 512:
        raise InvalidMemoryError(f"{what} must be 1-512 characters, got {len(value)}")
    return value


_FILTER_CLAUSES = ("match_all", "term", "terms", "range", "exists", "bool", "nested")


def check_filter(flt: Any, where: str = "filters") -> None:
    """Caller filters must be the filter language (:mod:`langmem_es.filters`); anything else is refused."""
    if not isinstance(flt, Mapping) or len(flt) != 1:
        raise InvalidMemoryError(f"{where} must be one clause like {{'term': {{field: value}}}}, got {flt!r:.80}")
    ((kind, body),) = flt.items()
    if kind not in _FILTER_CLAUSES or not isinstance(body, Mapping):
        raise InvalidMemoryError(f"{where}: unsupported filter clause {kind!r}; use one of {list(_FILTER_CLAUSES)}")
    if kind == "bool":
        for part in ("filter", "must_not", "should"):
            clauses = body.get(part, ())
            if not isinstance(clauses, (list, tuple)):
                raise InvalidMemoryError(f"{where}: bool.{part} must be a list of clauses")
            for c in clauses:
                check_filter(c, f"{where}.bool.{part}")
    elif kind == "nested":
        check_filter(body.get("query"), f"{where}.nested.query")
    elif kind in ("term", "terms", "range") and len(body) != 1:
        raise InvalidMemoryError(f"{where}: {kind} takes one field, got {sorted(map(str, body))}")


def check_recall_args(*, k: Any, candidates: Any, filters: Any, as_of: Any) -> None:
    """Types and ranges of recall's arguments (the query and scopes are checked on their own)."""
    for name, v in (("k", k), ("candidates", candidates)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise InvalidMemoryError(f"{name} must be an integer, got {type(v).__name__} {v!r:.40}")
    if filters is not None:
        check_filter(filters)
    if as_of is not None and not isinstance(as_of, datetime):
        raise InvalidMemoryError(f"as_of must be a datetime, got {type(as_of).__name__} {as_of!r:.40}")


def check_write_args(*, confidence: Any, event_time: Any, sources: Any, metadata: Any, steps: Any) -> None:
    """Types of remember's optional arguments, before any of them is used."""
    if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float))):
        raise InvalidMemoryError(
            f"confidence must be a number between 0 and 1, got {type(confidence).__name__} {confidence!r:.40}"
        )
    if event_time is not None and not isinstance(event_time, datetime):
        raise InvalidMemoryError(f"event_time must be a datetime, got {type(event_time).__name__} {event_time!r:.40}")
    for name, v in (("sources", sources), ("steps", steps)):
        if isinstance(v, (str, bytes)) or not isinstance(v, Iterable) or not all(isinstance(x, str) for x in v):
            raise InvalidMemoryError(f"{name} must be a list of strings, got {v!r:.60}")
    if metadata is not None:
        if not isinstance(metadata, Mapping):
            raise InvalidMemoryError(f"metadata must be a dict, got {type(metadata).__name__}")
        try:
            json.dumps(metadata, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InvalidMemoryError(f"metadata must be JSON (strings, finite numbers, lists, dicts): {exc}") from None


def checked_embeddings(embeddings: Embeddings) -> Embeddings:
    """``embeddings`` whose vectors are checked: NaN/inf or empty vectors raise a clear EmbeddingError."""
    from langchain_core.embeddings import Embeddings

    if isinstance(embeddings, _Checked):
        return embeddings

    def check(vectors: list[list[float]]) -> list[list[float]]:
        if not all(len(v) for v in vectors) or not _finite(vectors):
            raise EmbeddingError(
                f"the embedder {embeddings!r:.60} returned an invalid vector (empty, NaN or inf); "
                "check the model and its input"
            )
        return vectors

    class Checked(_Checked, Embeddings):
        def __init__(self) -> None:
            self.inner = embeddings

        def __getattr__(self, name: str) -> Any:
            return getattr(embeddings, name)

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return check(list(embeddings.embed_documents(texts)))

        def embed_query(self, text: str) -> list[float]:
            return check([list(embeddings.embed_query(text))])[0]

        async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
            return check(list(await embeddings.aembed_documents(texts)))

        async def aembed_query(self, text: str) -> list[float]:
            return check([list(await embeddings.aembed_query(text))])[0]

        def __repr__(self) -> str:
            return repr(embeddings)

    return Checked()


def _finite(vectors: list[list[float]]) -> bool:
    """Every number of every vector is finite (checked in one numpy pass when they are all numbers)."""
    import numpy as np

    try:
        return bool(np.isfinite(np.asarray(vectors, dtype=np.float64)).all())
    except (TypeError, ValueError):  # ragged, or not numbers
        return all(isinstance(x, (int, float)) and math.isfinite(x) for v in vectors for x in v)


class _Checked:
    """Marker of :func:`checked_embeddings` wrappers."""


def check_reason(kind: Kind, reason: str | None) -> str | None:
    """State it to save it: semantic and procedural writes need a one-sentence reason."""
    if kind == "episodic":
        return clean_text(reason, "reason", limit=500) if reason else None
    if reason is None or not str(reason).strip():
        raise InvalidMemoryError(
            f"a {kind} memory needs a reason: add one sentence saying why it is worth keeping "
            "(e.g. reason='The user will want replies about Edinburgh, not Bristol.')"
        )
    return clean_text(reason, "reason", limit=500)


def memory_id(*parts: Any) -> str:
    """Deterministic memory id, so a retried write never duplicates."""
    raw = "\x1f".join("" if p is None else str(p) for p in parts)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:24]


def query_of(text: str, limit: int = MAX_QUERY_CHARS) -> str:
    """A recall query for a message of any length: the message itself, or — past ``limit``
    characters (a pasted log, file or document) — its opening and its end, where people
    put what they ask about it.

    >>> q = query_of("why does this fail? " + "x" * 9000 + " any idea?")
    >>> len(q) <= MAX_QUERY_CHARS and q.startswith("why does this fail?") and q.endswith("any idea?")
    True
    """
    text = text.strip()
    if len(text) <= limit:
        return text
    half = (limit - 5) // 2
    return f"{text[:half].rstrip()} … {text[-half:].lstrip()}"
