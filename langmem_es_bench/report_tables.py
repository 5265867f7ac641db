"""The benchmark report's tables: one function of ``results.json`` a table (its rows), each
beside its header row (``*_HEAD``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from langmem_es_bench.report_format import (
    megabytes_text,
    number_text,
    paired_points,
    succeeded,
    system_label,
    system_results,
    times_text,
)


def latency_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for key, res in system_results(results):
        points = list((res.get("scale") or {}).get("pre_recall") or [])
        if succeeded(res.get("tenants")):
            points.append(res["tenants"])
        first = points[0] if points else None
        for p in points:
            rows.append(
                [
                    *_point_cells(key, res, p),
                    number_text(p["p95"]),
                    number_text(p.get("max")),
                    number_text(p["embed_query"]["p95"]),
                    times_text(p.get("p95_over_embed_p95")),
                    times_text(p["p95"] / first["p95"]) if first and first["p95"] else "—",
                    number_text(p.get("search_p50")),
                    str(p["n"]),
                ]
            )
        for phase in ("scale", "tenants"):
            if isinstance(res.get(phase), dict) and "error" in res[phase]:
                rows.append(
                    [
                        system_label(key, res),
                        phase,
                        "",
                        "failed: " + res[phase]["error"][:80],
                        "",
                        "",
                        "",
                        "",
                        "",
                        "",
                        "",
                    ]
                )
    return rows


LATENCY_HEAD = [
    "system",
    "memories",
    "tenants",
    "p50 ms",
    "p95 ms",
    "max ms",
    "embedder p95 ms",
    "p95 / embedder p95",
    "p95 / smallest p95",
    "search p50 ms",
    "queries",
]


def _point_cells(key: str, res: dict[str, Any], p: dict[str, Any]) -> list[str]:
    """The cells that open a point's row: system, memories, tenants, p50."""
    return [system_label(key, res), f"{p['size']:,}", f"{p['tenants']:,}", number_text(p["p50"])]


def _latency_points(results: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(system key, its results, one pre-recall point) for every point of every system."""
    for key, res in system_results(results):
        points = list((res.get("scale") or {}).get("pre_recall") or [])
        if succeeded(res.get("tenants")):
            points.append(res["tenants"])
        for p in points:
            yield key, res, p


def breakdown_rows(results: dict[str, Any]) -> list[list[str]]:
    """Where a pre-recall goes, from the core's own ``timings_ms`` (p50 of each stage)."""
    rows = []
    for key, res, p in _latency_points(results):
        if p.get("total_p50") is None:
            continue
        rows.append(
            [
                *_point_cells(key, res, p),
                number_text(p.get("embed_p50")),
                number_text(p.get("search_p50")),
                number_text(p.get("fuse_p50"), 2),
                number_text(p.get("rerank_p50"), 2),
                number_text(p.get("fetch_p50")),
                number_text(p.get("total_p50")),
                number_text(p["p50"] - p["total_p50"]),
            ]
        )
    return rows


def tail_rows(results: dict[str, Any]) -> list[list[str]]:
    """Each point's slowest pre-recall: where it went, and the garbage collections around it."""
    rows = []
    for key, res, p in _latency_points(results):
        if "gc" not in p:
            continue
        slow = p.get("slowest_stages") or {}
        stages = ", ".join(f"{k} {v:.1f}" for k, v in slow.items() if k in ("embed", "search", "fetch"))
        server = p.get("server_gc")
        rows.append(
            [
                *_point_cells(key, res, p),
                number_text(p["max"]),
                times_text(p.get("max_over_median")),
                stages or "—",
                number_text(p["gc"]["in_slowest_ms"]),
                f"{p['gc']['full']}",
                f"{server['young']} ({server['young_ms']} ms)" if server else "—",
                f"{server['heap_mb']:,.0f}" if server else "—",
            ]
        )
    return rows


TAIL_HEAD = [
    "system",
    "memories",
    "tenants",
    "p50 ms",
    "max ms",
    "max / p50",
    "slowest: embed, search, fetch ms",
    "Python GC in the slowest ms",
    "full Python GCs in the point",
    "Elasticsearch young GC pauses in the point (total)",
    "heap MB",
]


BREAKDOWN_HEAD = [
    "system",
    "memories",
    "tenants",
    "node p50 ms",
    "embed p50",
    "search p50",
    "fuse p50",
    "rerank p50",
    "fetch p50",
    "recall total p50",
    "node − recall (render, graph)",
]


def write_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for key, res in system_results(results):
        w = (res.get("scale") or {}).get("writes")
        if not succeeded(w):
            continue
        rows.append(
            [
                system_label(key, res),
                f"{w['at_size']:,}",
                number_text(w["write"]["p50"]),
                number_text(w["write"]["p95"]),
                number_text(w["write_visible"]["p50"]),
                number_text(w["write_visible"]["p95"]),
                f"{w['visible_first_try']}/{w['write_visible']['n']}",
                number_text(w["embed_query"]["p95"]),
                times_text(w.get("visible_p95_over_embed_p95")),
            ]
        )
    return rows


WRITE_HEAD = [
    "system",
    "at memories",
    "write p50 ms",
    "write p95 ms",
    "write→visible p50 ms",
    "write→visible p95 ms",
    "visible on 1st recall",
    "embedder p95 ms",
    "visible p95 / embedder p95",
]


def same_turn_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for key, res in system_results(results):
        st = res.get("same_turn_tools")
        if succeeded(st) and "n" in st:
            rows.append(
                [
                    system_label(key, res),
                    str(st["n"]),
                    " / ".join(number_text(x) for x in st["remember_p50_p95"]),
                    " / ".join(number_text(x) for x in st["visible_p50_p95"]),
                    f"{st['first_try']}/{st['n']}",
                ]
            )
    return rows


SAME_TURN_HEAD = ["system", "facts", "remember p50 / p95 ms", "write→visible p50 / p95 ms", "visible on 1st recall"]


def ingest_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for key, res in system_results(results):
        ing = res.get("ingest")
        if not succeeded(ing):
            if isinstance(ing, dict):
                rows.append([system_label(key, res), "failed: " + ing["error"][:80], "", "", "", ""])
            continue
        for variant, name in (("no_sessions", "no session_id"), ("with_sessions", "with session_id (sessions of 10)")):
            v = ing.get(variant)
            if v:
                rows.append(
                    [
                        system_label(key, res),
                        name,
                        str(ing["n"]),
                        number_text(v["per_s"], 0),
                        number_text(v["embedder_per_s"], 0),
                        times_text(v["ratio"]),
                    ]
                )
    return rows


INGEST_HEAD = ["system", "variant", "memories", "memories/s", "embedder alone texts/s", "ratio"]


def footprint_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for key, res in system_results(results):
        scale = res.get("scale") or {}
        fp = scale.get("footprint")
        if not fp:
            continue
        rows.append(
            [
                system_label(key, res),
                f"{fp['memories']:,}",
                fp["stored_in"],
                megabytes_text(fp.get("index_bytes_per_100k")),
                times_text(fp.get("index_over_raw_vectors")),
                megabytes_text(fp.get("rss_growth_per_100k")),
                times_text(fp.get("rss_over_raw_vectors")),
                number_text(scale.get("load_per_s_cached_vectors"), 0),
            ]
        )
    return rows


FOOTPRINT_HEAD = [
    "system",
    "memories",
    "index measured as",
    "index / 100k",
    "index / raw vectors",
    "process RSS growth / 100k",
    "RSS / raw vectors",
    "load memories/s (cached vectors)",
]


def request_rows(results: dict[str, Any]) -> list[list[str]]:
    """Requests one recall and one superseding write send (counted through the client), with latencies."""
    rows = []
    for key, res in system_results(results):
        r = (res.get("scale") or {}).get("requests")
        if not succeeded(r):
            continue
        for name, label in (
            ("recall", "recall (k = 9)"),
            ("superseding_write", "superseding remember (keyed)"),
            ("keyless_update", "superseding remember (keyless, found by meaning)"),
        ):
            if name not in r:
                continue
            p = r[name]
            req, lat = p.get("requests") or {}, p["latency_ms"]
            kinds = ", ".join(f"{k} ×{v:g}" for k, v in list((req.get("per_call_by_kind") or {}).items())[:6])
            rows.append(
                [
                    system_label(key, res),
                    label,
                    f"{r['at_size']:,}",
                    str(req.get("p50", "—")),
                    str(req.get("max", "—")),
                    number_text(lat["p50"]),
                    number_text(lat["p95"]),
                    number_text(lat["max"]),
                    times_text(lat.get("max_over_median")),
                    kinds,
                    str(r.get("loadavg")),
                ]
            )
    return rows


REQUEST_HEAD = [
    "system",
    "call",
    "at memories",
    "requests p50",
    "requests max",
    "p50 ms",
    "p95 ms",
    "max ms",
    "max / median",
    "requests per call (mean)",
    "load average",
]


def paired_rows(results: dict[str, Any]) -> list[list[str]]:
    """The side-by-side points (:mod:`langmem_es_bench.paired`), one row each."""
    paired = results.get("paired")
    if not succeeded(paired):
        return []
    return [
        [
            f"{p['size']:,}",
            f"{p['tenants']:,}",
            number_text(p["langmem_es"]["p50"]),
            number_text(p["langmem_es"]["p95"]),
            number_text(p["langchain_es"]["p50"]),
            number_text(p["langchain_es"]["p95"]),
            times_text(p["p50_ratio"]),
            times_text(p["p95_ratio"]),
            number_text((p.get("plain_hybrid") or {}).get("p95")),
            number_text((p.get("langmem_es_beside_plain_hybrid") or {}).get("p95")),
            times_text(p.get("p95_ratio_plain_hybrid")),
            str(p["queries"]),
            f"{p.get('load_average_start')} → {p.get('load_average_end')}",
        ]
        for p in paired_points(paired)
    ]


def paired_write_rows(results: dict[str, Any]) -> list[list[str]]:
    """The side-by-side write → visible probes, one row."""
    paired = results.get("paired")
    if not succeeded(paired) or not succeeded(paired.get("writes")):
        return []
    w = paired["writes"]
    return [
        [
            f"{w['size']:,}",
            number_text(w["langmem_es"]["p50"]),
            number_text(w["langmem_es"]["p95"]),
            number_text(w["langchain_es"]["p50"]),
            number_text(w["langchain_es"]["p95"]),
            times_text(w["p95_ratio"]),
            str(w["writes"]),
            f"{w.get('load_average_start')} → {w.get('load_average_end')}",
        ]
    ]


PAIRED_WRITE_HEAD = [
    "memories",
    "langmem-es remember→visible p50 ms",
    "p95 ms",
    "langchain-es add_texts→visible p50 ms",
    "p95 ms",
    "p95 ratio",
    "writes each",
    "load average",
]

PAIRED_HEAD = [
    "memories",
    "tenants",
    "langmem-es p50 ms",
    "p95 ms",
    "langchain-es p50 ms",
    "p95 ms",
    "p50 ratio",
    "p95 ratio",
    "plain hybrid p95 ms",
    "langmem-es p95 beside it",
    "p95 ÷ plain hybrid",
    "queries each",
    "load average",
]
