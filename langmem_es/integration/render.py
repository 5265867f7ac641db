"""Memories as text a model reads: one line each, full ids (so it can cite, replace, forget), token-budgeted."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..tokens import count_tokens, truncate_to_tokens

__all__ = ["failed_for", "format_line", "render_block"]

_WS = re.compile(r"\s+")


def failed_for(memory: Any) -> list[str]:
    """The problems a procedural playbook already failed for (``record_outcome(success=False, problem=...)``)."""
    meta = getattr(memory, "metadata", None) or {}
    return [str(p) for p in meta.get("failed_for", []) if p]


def format_line(recalled: Any) -> str:
    """``- [semantic 3cec5b25…full id] content (2026-11-30, private, confidence 1.00)``."""
    m = getattr(recalled, "memory", recalled)
    text = _WS.sub(" ", m.content).strip()
    if m.kind == "procedural" and m.steps:
        text += " Steps: " + "; ".join(f"{i}) {s}" for i, s in enumerate(m.steps, 1))
    when = (m.event_time or m.written_at).date().isoformat()
    meta = [when, m.scope]
    if m.kind != "episodic":
        meta.append(f"confidence {m.confidence:.2f}")
    if m.kind == "procedural" and (m.success_count or m.failure_count):
        meta.append(f"worked {m.success_count}x, failed {m.failure_count}x")
    if m.status != "active":
        meta.append(m.status + (f" by {m.superseded_by}" if m.superseded_by else ""))
    if getattr(recalled, "conflict", False):
        meta.append("CONFLICT open: another agent asserted otherwise")
    held = getattr(recalled, "may_replace", None)
    if held:  # a write the rules could not tell from an update: both stay (core/unsure.py)
        meta.append(f"said after {', '.join(held)}, which it may replace")
    line = f"- [{m.kind} {m.id}] {text} ({', '.join(meta)})"
    failed = failed_for(m)
    if failed:
        line += f" FAILED before for: {'; '.join(dict.fromkeys(failed))} — do not suggest it again for that"
    return line


def render_block(recalled: Iterable[Any], budget_tokens: int = 800, *, header: str = "Relevant memories:") -> str:
    """The lines, best first, within ``budget_tokens`` (header included); ``""`` when none fit."""
    block = header
    used = count_tokens(header)
    n = 0
    for r in recalled:
        line = format_line(r)
        cost = count_tokens("\n" + line)
        if used + cost > budget_tokens:
            if n == 0 and budget_tokens - used > 8:
                block += "\n" + truncate_to_tokens(line, budget_tokens - used - 2, ellipsis="…")
                n += 1
            break
        block += "\n" + line
        used += cost
        n += 1
    return block if n else ""
