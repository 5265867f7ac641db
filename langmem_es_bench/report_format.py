"""What every part of the benchmark report shares: a figure as a table cell, a system's
label, the systems and the side-by-side points of ``results.json``, and a table as
markdown or as plain text."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, TypeGuard


def number_text(x: Any, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:,.{digits}f}"


def times_text(x: Any) -> str:
    return "—" if x is None else f"{x:.2f}×"


def megabytes_text(b: Any) -> str:
    return "—" if not b else f"{b / 1e6:,.0f} MB"


def system_label(key: str, res: dict[str, Any]) -> str:
    scale = res.get("scale") or {}
    if scale.get("label"):
        return scale["label"]
    return {
        "langgraph_inmemory": "LangGraph InMemoryStore",
        "langchain_es": "langchain-elasticsearch ElasticsearchStore (dense)",
    }.get(key, key)


def system_results(results: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield from results.get("systems", {}).items()


def succeeded(d: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(d, dict) and "error" not in d


def paired_points(paired: dict[str, Any]) -> list[dict[str, Any]]:
    """The side-by-side pre-recall points: one a size, then the many-tenants one (if it ran)."""
    return [*(paired.get("pre_recall") or []), *([paired["tenants"]] if succeeded(paired.get("tenants")) else [])]


def markdown_table(head: list[str], rows: list[list[str]]) -> str:
    if not rows:
        return "_no figures (phase skipped or failed)_\n"
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def plain_table(head: list[str], rows: list[list[str]]) -> str:
    if not rows:
        return "  (none)\n"
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join([fmt.format(*head), *(fmt.format(*r) for r in rows)]) + "\n"
