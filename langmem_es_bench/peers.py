"""Peers side by side (``langmem-es bench --peers postgres``): langmem-es on each backend and a
peer store grown together through the corpus sizes, and at each size the pre-recall and the
write → visible of both, taking turns (as :mod:`.paired` does for langchain-elasticsearch), so
a ratio is read on one machine state.

The peer is LangGraph's ``PostgresStore`` on a private PostgreSQL
(:mod:`langmem_es_bench.postgres_target`); the run also measures it alone as the other
competitors are measured (``systems["postgres"]``: ingest, each size, footprint, tenants).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from langmem_es_bench.corpus import CorpusItem, QueryStream
from langmem_es_bench.paired import _turns, in_turns
from langmem_es_bench.points import new_facts, write_until_visible
from langmem_es_bench.report_format import number_text, times_text
from langmem_es_bench.targets import tenant_of
from langmem_es_bench.timing import Say, load_average, progress_printer, ratio_of, stats

__all__ = ["PEERS", "PEER_HEAD", "peer_phase", "peer_rows", "peer_target_lines"]

PEERS = ("postgres",)
"""The peers ``--peers`` knows."""


def _visible_in_turns(ours: Any, peer: Any, stream: QueryStream, n: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """``n`` write → visible probes of each, taking turns, after three untimed writes each. A
    write a search does not return within 10 s counts in ``never_visible`` (out of the times):
    an approximate index can miss one for good."""
    tenant = tenant_of(0, 1)
    for i, q in enumerate(stream.take(3)):
        for target in (ours, peer):
            target.write(f"Warm-up note {i}: {q}", tenant)
    ours_facts, peer_facts = new_facts(stream.take(n)), new_facts(stream.take(n))
    missed = {id(ours): 0, id(peer): 0}

    def probe(target: Any, text: str) -> float:
        try:
            return write_until_visible(target, text, tenant)[0]
        except RuntimeError:  # not visible after 10 s
            missed[id(target)] += 1
            return math.nan

    a, b = _turns(n, lambda i: probe(ours, ours_facts[i]), lambda i: probe(peer, peer_facts[i]))
    ours.between_points()
    return (
        {**stats([t for t in a if not math.isnan(t)]), "never_visible": missed[id(ours)]},
        {**stats([t for t in b if not math.isnan(t)]), "never_visible": missed[id(peer)]},
    )


def peer_phase(
    make_ours: dict[str, Callable[[], Any]],
    make_peer: Callable[[], Any],
    items: Sequence[CorpusItem],
    sizes: Sequence[int],
    *,
    queries: int,
    writes: int,
    stream: QueryStream,
    say: Say = print,
) -> dict[str, Any]:
    """One peer beside langmem-es on each backend of ``make_ours``: all grown through ``sizes``;
    at each size, per backend, ``queries`` pre-recalls and ``writes`` write → visible probes of
    each side, taking turns."""
    out: dict[str, Any] = {"points": []}
    targets: list[Any] = []
    try:
        peer = make_peer()
        targets.append(peer)
        ours = {backend: make() for backend, make in make_ours.items()}
        targets += ours.values()
        out["label"] = peer.label
        loaded = 0
        for size in sizes:
            for target in (peer, *ours.values()):
                target.load(items[loaded:size], 1, progress=progress_printer(say, f"{target.name} load", loaded, size))
                target.settle()
            loaded = size
            for backend, mine in ours.items():
                start_load = load_average()
                q_ours, q_peer = in_turns(mine, peer, stream, queries, 1)
                w_ours, w_peer = _visible_in_turns(mine, peer, stream, writes) if writes else ({}, {})
                point: dict[str, Any] = {
                    "size": size,
                    "backend": backend,
                    "pre_recall": {
                        "langmem_es": q_ours,
                        peer.name: q_peer,
                        "p95_ratio": ratio_of(q_ours["p95"], q_peer["p95"]),
                    },
                    "write_visible": {
                        "langmem_es": w_ours,
                        peer.name: w_peer,
                        "p95_ratio": ratio_of(w_ours.get("p95"), w_peer.get("p95")) if writes else None,
                    },
                    "load_average_start": start_load,
                    "load_average_end": load_average(),
                }
                out["points"].append(point)
                say(
                    f"    {backend} beside {peer.name} at {size:,}: pre-recall p95 {q_ours['p95']:.1f} vs "
                    f"{q_peer['p95']:.1f} ms ({point['pre_recall']['p95_ratio']}×)"
                    + (
                        f"; write→visible p95 {w_ours['p95']:.1f} vs {w_peer['p95']:.1f} ms "
                        f"({point['write_visible']['p95_ratio']}×; never visible in 10 s: "
                        f"{w_ours['never_visible']} vs {w_peer['never_visible']} of {writes})"
                        if writes
                        else ""
                    )
                )
    finally:
        for target in targets:
            target.close()
    return out


PEER_HEAD = [
    "peer",
    "memories",
    "langmem-es on",
    "ours pre-recall p50 / p95 ms",
    "peer p50 / p95 ms",
    "p95 ours ÷ peer",
    "ours write→visible p50 / p95 ms",
    "peer p50 / p95 ms",
    "p95 ours ÷ peer",
    "never visible in 10 s (ours / peer)",
]


def _pair(s: dict[str, Any]) -> str:
    return f"{number_text(s.get('p50'))} / {number_text(s.get('p95'))}" if s else "—"


def peer_rows(results: dict[str, Any]) -> list[list[str]]:
    """One row a size and backend of each peer's side-by-side phase."""
    rows = []
    for name, res in (results.get("peers") or {}).items():
        if not isinstance(res, dict) or "error" in res:
            continue
        for p in res.get("points", []):
            q, w = p["pre_recall"], p["write_visible"]
            rows.append(
                [
                    res.get("label", name),
                    f"{p['size']:,}",
                    p["backend"],
                    _pair(q["langmem_es"]),
                    _pair(q[name]),
                    times_text(q["p95_ratio"]),
                    _pair(w["langmem_es"]),
                    _pair(w[name]),
                    times_text(w["p95_ratio"]),
                    f"{w['langmem_es'].get('never_visible', '—')} / {w[name].get('never_visible', '—')}" if w else "—",
                ]
            )
    return rows


def peer_target_lines(results: dict[str, Any]) -> list[str]:
    """The issue-47 target on each peer: our pre-recall p95 at or below the peer's at every size."""
    lines = []
    for name, res in (results.get("peers") or {}).items():
        points = res.get("points", []) if isinstance(res, dict) else []
        if not points:
            continue
        ratios = [p["pre_recall"]["p95_ratio"] for p in points]
        held = all(r is not None and r <= 1.0 for r in ratios)
        worst = max((r for r in ratios if r is not None), default=None)
        lines.append(
            f"pre-recall p95 ≤ 1.0× {name}'s at every size and backend: {'held' if held else 'MISSED'} "
            f"(worst {times_text(worst)}, {len(points)} points)"
        )
    return lines
