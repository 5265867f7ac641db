"""Fail closed on partial reads: find the shards a response could not read (pure).

Elasticsearch answers a search even when some shards have no active copy: the hits
of the shards that answered, and ``_shards.failed`` counting the others. A read that
a decision depends on (a tombstone check, a dedupe, a head, a scope check, an export)
must not take such an answer as whole. :func:`require_complete` raises
:class:`~langmem_es.errors.ShardsUnavailableError` naming the missing shards;
:func:`missing_shards` lists them for the one caller allowed to degrade (recall with
``allow_partial=True``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ... import errors
from ...errors import UnavailableShard

#: Shard failure types that are a query's own fault, not the cluster's (reported as QueryError).
QUERY_FAULTS = frozenset(
    {
        "query_shard_exception",
        "parsing_exception",
        "x_content_parse_exception",
        "illegal_argument_exception",
        "search_parse_exception",
        "script_exception",
        "too_many_clauses",
        "too_many_nested_clauses",
        "number_format_exception",
        "class_cast_exception",
    }
)

#: Failure types that mean a shard copy could not be reached or has none active.
UNAVAILABLE = frozenset(
    {
        "no_shard_available_action_exception",
        "unavailable_shards_exception",
        "primary_missing_action_exception",
        "shard_not_found_exception",
        "node_disconnected_exception",
        "node_not_connected_exception",
        "node_closed_exception",
        "connect_transport_exception",
        "illegal_index_shard_state_exception",
        "index_shard_closed_exception",
        "node_disconnected",
        "send_request_transport_exception",
    }
)

_SHARD_REF = re.compile(r"\[\[?([^\[\]\s]+)\]\[(\d+)\]\]?")


def _reason(failure: Mapping[str, Any]) -> tuple[str, str]:
    """(type, text) of a shard failure or an error body."""
    reason = failure.get("reason", failure)
    if isinstance(reason, Mapping):
        cause = reason.get("caused_by") if reason.get("type") == "search_phase_execution_exception" else None
        reason = cause or reason
        return str(reason.get("type") or "unknown"), str(reason.get("reason") or "")
    return "unknown", str(reason or "")


def _why(kind: str, text: str) -> str:
    """``kind: text``, without Elasticsearch's advice to accept partial results."""
    text = text.split(" Consider using `allow_partial_search_results`")[0]
    return f"{kind}: {text}" if text and text != kind else kind


def _shard(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _described(failures: Iterable[Mapping[str, Any]]) -> list[tuple[UnavailableShard, str]]:
    out = []
    for f in failures:
        kind, text = _reason(f)
        out.append(
            (UnavailableShard(f.get("index") or f.get("_index"), _shard(f.get("shard")), _why(kind, text)), kind)
        )
    return out


def missing_shards(response: Mapping[str, Any]) -> list[UnavailableShard]:
    """The shards a search/count/msearch-part response is missing (empty when whole).

    Counts every shard that neither answered nor was skipped, and a ``timed_out``
    response (whose answering shards may have stopped early).
    """
    return [s for s, _ in _missing(response)]


def _missing(response: Mapping[str, Any]) -> list[tuple[UnavailableShard, str]]:
    shards = response.get("_shards") or {}
    out = _described(shards.get("failures") or ())
    total, ok = int(shards.get("total", 0)), int(shards.get("successful", 0)) + int(shards.get("skipped", 0))
    unaccounted = max(int(shards.get("failed", 0)), total - ok) - len(out)
    if unaccounted > 0:
        out.append((UnavailableShard(None, None, f"{unaccounted} of {total} shard(s) did not answer"), "unknown"))
    if response.get("timed_out"):
        out.append((UnavailableShard(None, None, "the search timed out: some shards answered only in part"), "timeout"))
    return out


def require_complete(response: Mapping[str, Any], what: str) -> None:
    """Raise unless every shard answered ``what`` (a search, count or msearch part) in full."""
    found = _missing(response)
    if found:
        raise shards_error(found, what)


def failed_gets(response: Mapping[str, Any]) -> list[UnavailableShard]:
    """The ``mget`` items that failed (their shard unavailable) instead of answering found or not."""
    return [
        s
        for s, _ in _described(
            {
                "index": item.get("_index"),
                "reason": item["error"],
                "shard": item["error"].get("shard") if isinstance(item["error"], Mapping) else None,
            }
            for item in response.get("docs", ())
            if item.get("error")
        )
    ]


def shards_error(found: list[tuple[UnavailableShard, str]], what: str, *, read: bool = True) -> errors.LangmemEsError:
    """The typed error for shard failures: QueryError when every failure is the query's fault."""
    shards = [s for s, _ in found]
    if all(kind in QUERY_FAULTS for _, kind in found):
        return errors.QueryError(f"{what} failed on {_names(shards)}: {shards[0].reason}")
    refused = "a partial answer is refused rather than taken as whole" if read else "the write did not happen"
    return errors.ShardsUnavailableError(
        f"{what}: shards unavailable: {_names(shards)} ({shards[0].reason}). Elasticsearch is reachable, but "
        f"these shards have no active copy; {refused}. Check `GET _cluster/health?level=indices` and "
        "`GET _cluster/allocation/explain`; with number_of_replicas >= 1 on two or more data nodes, losing one "
        "node keeps every shard available. Retrying once the shards are back is safe",
        shards,
    )


def _names(shards: Iterable[UnavailableShard]) -> str:
    named = sorted({str(s) for s in shards if s.index is not None})
    return ", ".join(named) if named else "some shards"


def from_error_body(status: int | None, body: Any) -> list[tuple[UnavailableShard, str]]:
    """Unavailable shards described by an error response (503 on missing shards, failed writes).

    Empty when the error is about something else (a bad query, an overload, ...).
    """
    if not isinstance(body, Mapping):
        return []
    err = body.get("error", body)
    if not isinstance(err, Mapping):
        return []
    kind = str(err.get("type") or "")
    raw_cause = err.get("caused_by")
    cause: Mapping[str, Any] = raw_cause if isinstance(raw_cause, Mapping) else {}
    # "Search rejected due to missing shards [[index][0]]" is the cause (the top reason may say "start")
    text = str(cause.get("reason") or err.get("reason") or "")
    if kind == "search_phase_execution_exception":
        found = _described(err.get("failed_shards") or ())
        if status != 503 and not any(k in UNAVAILABLE for _, k in found):
            return []
        if not found:  # "Search rejected due to missing shards [[index][0]]" carries no list
            found = [(UnavailableShard(i, int(n), _why(kind, text)), kind) for i, n in _SHARD_REF.findall(text)]
        return [(s, "unavailable") for s, _ in found] or [(UnavailableShard(None, None, _why(kind, text)), kind)]
    if kind in UNAVAILABLE:
        refs = _SHARD_REF.findall(text)
        index = err.get("index") or (refs[0][0] if refs else None)
        shard = _shard(err.get("shard")) if err.get("shard") is not None else (int(refs[0][1]) if refs else None)
        return [(UnavailableShard(index, shard, _why(kind, text)), kind)]
    return []


def numbered(found: Sequence[UnavailableShard], health: Mapping[str, Any]) -> list[UnavailableShard]:
    """Fill in the shard numbers an error left out (mget names only the index) from shard-level health.

    ``health`` is ``GET _cluster/health/<indices>?level=shards``; every shard of a named
    index whose primary is not active takes the place of the unnumbered entry.
    """
    out: list[UnavailableShard] = []
    for s in found:
        if s.index is None or s.shard is not None:
            candidates = [s]
        else:
            table = ((health.get("indices") or {}).get(s.index) or {}).get("shards") or {}
            down = sorted(int(n) for n, h in table.items() if not h.get("primary_active", True))
            candidates = [dataclasses.replace(s, shard=n) for n in down] or [s]
        out += [c for c in candidates if c not in out]
    return out
