"""The rules of the memory core, pure: scoping, validation, ids, belief classification.

Scoping is a security property. :func:`visibility_filter` is the one choke point that
every read of the memory core passes through (it is added to every query), and
:func:`visible` re-checks each returned document: a document whose tenant, scope or
owner cannot be proven to belong to the caller is dropped (fail closed).
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from .. import filters as F
from ..documents import iso
from ..errors import InvalidMemoryError
from ..model import KINDS, SCOPES, Identity, Kind, Memory, Scope

MAX_CONTENT_CHARS = 32_000
NOTHING: F.Filter = {"bool": {"must_not": [F.MATCH_ALL]}}


def visibility_filter(identity: Identity, scopes: Iterable[Scope] = SCOPES) -> F.Filter:
    """Only memories of the caller's tenant, in the asked scopes it may read."""
    owners = identity.owners()
    per_scope = [
        F.all_of(F.term("scope", scope), F.terms("owner", owners[scope]))
        for scope in check_scopes(scopes)
        if owners[scope]
    ]
    if not per_scope:
        return NOTHING
    return F.all_of(F.term("record", "memory"), F.term("tenant", identity.tenant), F.any_of(*per_scope))


def visible(doc: Mapping[str, Any], identity: Identity, scopes: Iterable[Scope] = SCOPES) -> bool:
    """Fail closed: true only if tenant, scope and owner are present and the caller's."""
    tenant, scope, owner = doc.get("tenant"), doc.get("scope"), doc.get("owner")
    if not (isinstance(tenant, str) and isinstance(scope, str) and isinstance(owner, str)):
        return False
    if tenant != identity.tenant or doc.get("record") != "memory":
        return False
    value = doc.get("value")
    if not isinstance(value, Mapping) or (value.get("tenant"), value.get("scope"), value.get("owner")) != (tenant, scope, owner):
        return False
    return owner in identity.owners().get(scope, ()) and scope in set(scopes)  # type: ignore[call-overload]


def status_filter(*, include_superseded: bool, include_deleted: bool, as_of: datetime | None) -> F.Filter:
    statuses = ["active"]
    if include_superseded or as_of is not None:
        statuses.append("superseded")
    if include_deleted:
        statuses.append("soft_deleted")
    clauses = [F.terms("status", statuses)]
    if as_of is not None:
        t = iso(as_of)
        clauses.append(F.range_("written_at", lte=t))
        clauses.append(F.any_of(F.none_of(F.exists("valid_to")), F.range_("valid_to", gt=t)))
    return F.all_of(*clauses)


def check_kinds(kinds: Iterable[str]) -> list[Kind]:
    out = list(dict.fromkeys(kinds))
    bad = [k for k in out if k not in KINDS]
    if bad or not out:
        raise InvalidMemoryError(f"unknown kind(s) {bad or '[]'}; use some of {list(KINDS)}")
    return out  # type: ignore[return-value]


def check_scopes(scopes: Iterable[str]) -> list[Scope]:
    out = list(dict.fromkeys(scopes))
    bad = [s for s in out if s not in SCOPES]
    if bad or not out:
        raise InvalidMemoryError(f"unknown scope(s) {bad or '[]'}; use some of {list(SCOPES)}")
    return out  # type: ignore[return-value]


def clean_text(text: Any, what: str = "content", *, limit: int = MAX_CONTENT_CHARS) -> str:
    """Validated text: a string, not blank, no control characters, within ``limit``."""
    if not isinstance(text, str):
        raise InvalidMemoryError(f"{what} must be a string, got {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidMemoryError(f"{what} is not valid unicode (lone surrogate at {exc.start})") from None
    cleaned = "".join(c for c in text if c in "\n\t" or unicodedata.category(c) != "Cc").strip()
    if not cleaned:
        raise InvalidMemoryError(f"{what} is empty; say what to remember")
    if len(cleaned) > limit:
        raise InvalidMemoryError(f"{what} is {len(cleaned)} characters; the limit is {limit} — split it or summarise")
    return cleaned


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


_DENY = re.compile(
    r"\b(never|not true|wasn'?t|isn'?t|didn'?t|did not|was not|is not|don'?t|do not|haven'?t|have not|hasn'?t|"
    r"no,|nope|that'?s wrong|incorrect|false that)\b",
    re.IGNORECASE,
)
_CHANGE = re.compile(r"\b(no longer|any ?more|moved|now|switched|changed|since|started|became|new)\b", re.IGNORECASE)


def classify_polarity(content: str) -> str:
    """``deny`` for a flat denial ("I never lived in Bristol"), else ``assert``.

    A statement of change ("I moved to Edinburgh", "I no longer live in Bristol") is an
    update, not a denial: it asserts the new state.
    """
    if _DENY.search(content) and not _CHANGE.search(content):
        return "deny"
    return "assert"


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def decay_score(memory: Memory, now: datetime, half_life_days: Mapping[str, float]) -> float:
    """Decay score in 0..1: recency (half-life per kind), access, confidence, contradictions."""
    ref = memory.last_accessed_at or memory.written_at
    age_days = max(0.0, (now - ref).total_seconds() / 86400)
    recency = math.exp(-math.log(2) * age_days / half_life_days[memory.kind])
    access = min(1.0, math.log1p(memory.access_count) / math.log1p(50))
    penalty = min(1.0, 0.25 * memory.contradiction_count)
    return max(0.0, 0.6 * recency + 0.2 * access + 0.2 * memory.confidence - penalty)
