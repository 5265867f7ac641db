"""Turn ``results.json`` of :func:`~langmem_es_bench.runner.run_bench` into text: the
terminal summary, ``docs/benchmarks.md`` and its PNG plots (``docs/img/bench-*.png``)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeGuard

__all__ = ["plot", "summary", "write_markdown"]

TARGET_MS = 50.0


def _f(x: Any, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:,.{digits}f}"


def _x(x: Any) -> str:
    return "—" if x is None else f"{x:.2f}×"


def _mb(b: Any) -> str:
    return "—" if not b else f"{b / 1e6:,.0f} MB"


def _label(key: str, res: dict[str, Any]) -> str:
    scale = res.get("scale") or {}
    if scale.get("label"):
        return scale["label"]
    return {
        "langgraph_inmemory": "LangGraph InMemoryStore",
        "langchain_es": "langchain-elasticsearch ElasticsearchStore (dense)",
    }.get(key, key)


def _systems(results: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield from results.get("systems", {}).items()


def _ok(d: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(d, dict) and "error" not in d


# --------------------------------------------------------------------------- tables


def latency_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for key, res in _systems(results):
        points = list((res.get("scale") or {}).get("pre_recall") or [])
        if _ok(res.get("tenants")):
            points.append(res["tenants"])
        first = points[0] if points else None
        for p in points:
            rows.append(
                [
                    *_point_cells(key, res, p),
                    _f(p["p95"]),
                    _f(p.get("max")),
                    _f(p["embed_query"]["p95"]),
                    _x(p.get("p95_over_embed_p95")),
                    _x(p["p95"] / first["p95"]) if first and first["p95"] else "—",
                    _f(p.get("search_p50")),
                    str(p["n"]),
                ]
            )
        for phase in ("scale", "tenants"):
            if isinstance(res.get(phase), dict) and "error" in res[phase]:
                rows.append(
                    [_label(key, res), phase, "", "failed: " + res[phase]["error"][:80], "", "", "", "", "", "", ""]
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
    return [_label(key, res), f"{p['size']:,}", f"{p['tenants']:,}", _f(p["p50"])]


def _latency_points(results: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(system key, its results, one pre-recall point) for every point of every system."""
    for key, res in _systems(results):
        points = list((res.get("scale") or {}).get("pre_recall") or [])
        if _ok(res.get("tenants")):
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
                _f(p.get("embed_p50")),
                _f(p.get("search_p50")),
                _f(p.get("fuse_p50"), 2),
                _f(p.get("rerank_p50"), 2),
                _f(p.get("fetch_p50")),
                _f(p.get("total_p50")),
                _f(p["p50"] - p["total_p50"]),
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
                _f(p["max"]),
                _x(p.get("max_over_median")),
                stages or "—",
                _f(p["gc"]["in_slowest_ms"]),
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
    for key, res in _systems(results):
        w = (res.get("scale") or {}).get("writes")
        if not _ok(w):
            continue
        rows.append(
            [
                _label(key, res),
                f"{w['at_size']:,}",
                _f(w["write"]["p50"]),
                _f(w["write"]["p95"]),
                _f(w["write_visible"]["p50"]),
                _f(w["write_visible"]["p95"]),
                f"{w['visible_first_try']}/{w['write_visible']['n']}",
                _f(w["embed_query"]["p95"]),
                _x(w.get("visible_p95_over_embed_p95")),
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
    for key, res in _systems(results):
        st = res.get("same_turn_tools")
        if _ok(st) and "n" in st:
            rows.append(
                [
                    _label(key, res),
                    str(st["n"]),
                    " / ".join(_f(x) for x in st["remember_p50_p95"]),
                    " / ".join(_f(x) for x in st["visible_p50_p95"]),
                    f"{st['first_try']}/{st['n']}",
                ]
            )
    return rows


SAME_TURN_HEAD = ["system", "facts", "remember p50 / p95 ms", "write→visible p50 / p95 ms", "visible on 1st recall"]


def ingest_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for key, res in _systems(results):
        ing = res.get("ingest")
        if not _ok(ing):
            if isinstance(ing, dict):
                rows.append([_label(key, res), "failed: " + ing["error"][:80], "", "", "", ""])
            continue
        for variant, name in (("no_sessions", "no session_id"), ("with_sessions", "with session_id (sessions of 10)")):
            v = ing.get(variant)
            if v:
                rows.append(
                    [
                        _label(key, res),
                        name,
                        str(ing["n"]),
                        _f(v["per_s"], 0),
                        _f(v["embedder_per_s"], 0),
                        _x(v["ratio"]),
                    ]
                )
    return rows


INGEST_HEAD = ["system", "variant", "memories", "memories/s", "embedder alone texts/s", "ratio"]


def footprint_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for key, res in _systems(results):
        scale = res.get("scale") or {}
        fp = scale.get("footprint")
        if not fp:
            continue
        rows.append(
            [
                _label(key, res),
                f"{fp['memories']:,}",
                fp["stored_in"],
                _mb(fp.get("index_bytes_per_100k")),
                _x(fp.get("index_over_raw_vectors")),
                _mb(fp.get("rss_growth_per_100k")),
                _x(fp.get("rss_over_raw_vectors")),
                _f(scale.get("load_per_s_cached_vectors"), 0),
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
    for key, res in _systems(results):
        r = (res.get("scale") or {}).get("requests")
        if not _ok(r):
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
                    _label(key, res),
                    label,
                    f"{r['at_size']:,}",
                    str(req.get("p50", "—")),
                    str(req.get("max", "—")),
                    _f(lat["p50"]),
                    _f(lat["p95"]),
                    _f(lat["max"]),
                    _x(lat.get("max_over_median")),
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

#: The issue-13 targets: (what, our figure ÷ baseline figure, the bound, whether lower is better).
RATIO_BOUND = {
    "pre_recall_vs_langchain": 1.5,
    "visible_vs_add_texts": 1.5,
    "max_over_median": 3.0,
    "ingest_with_context": 0.9,
    "sqlite_largest_vs_smallest": 2.0,
}


def ratio_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target as ``{"target", "ours", "baseline", "ratio", "bound", "meets"}`` (same run, same machine)."""
    systems = results.get("systems", {})
    ours, lc = systems.get("langmem_es[elasticsearch]") or {}, systems.get("langchain_es") or {}
    out: list[dict[str, Any]] = []

    def add(
        target: str, a: float | None, b: float | None, bound: float, lower: bool = True, ratio: float | None = None
    ) -> None:
        ratio = ratio if ratio is not None else (a / b if a is not None and b else None)
        out.append(
            {
                "target": target,
                "ours": a,
                "baseline": b,
                "ratio": None if ratio is None else round(ratio, 2),
                "bound": bound,
                "meets": None if ratio is None else (ratio <= bound if lower else ratio >= bound),
            }
        )

    paired = results.get("paired")
    if _ok(paired):  # both systems side by side, queries alternating: the steady measure
        for p in _paired_points(paired):
            who = f"{p['size']:,} (1 tenant)" if p["tenants"] <= 1 else f"{p['size']:,} over {p['tenants']:,} tenants"
            add(
                f"Elasticsearch pre-recall p95 at {who} ÷ langchain-es similarity_search p95 (side by side, in turns)",
                p["langmem_es"]["p95"],
                p["langchain_es"]["p95"],
                RATIO_BOUND["pre_recall_vs_langchain"],
            )
    else:
        lc_points = {p["size"]: p for p in (lc.get("scale") or {}).get("pre_recall") or []}
        for p in (ours.get("scale") or {}).get("pre_recall") or []:
            if p["size"] in lc_points:
                add(
                    f"Elasticsearch pre-recall p95 at {p['size']:,} (1 tenant) ÷ langchain-es similarity_search p95",
                    p["p95"],
                    lc_points[p["size"]]["p95"],
                    RATIO_BOUND["pre_recall_vs_langchain"],
                )
        if _ok(ours.get("tenants")) and _ok(lc.get("tenants")):
            add(
                f"Elasticsearch pre-recall p95, {ours['tenants']['size']:,} over {ours['tenants']['tenants']:,} "
                "tenants ÷ langchain-es",
                ours["tenants"]["p95"],
                lc["tenants"]["p95"],
                RATIO_BOUND["pre_recall_vs_langchain"],
            )
    ow, lw = (ours.get("scale") or {}).get("writes"), (lc.get("scale") or {}).get("writes")
    if _ok(paired) and _ok(paired.get("writes")):
        pw = paired["writes"]
        add(
            "Elasticsearch semantic remember→visible p95 ÷ langchain-es add_texts(refresh)→visible p95 "
            "(side by side, in turns)",
            pw["langmem_es"]["p95"],
            pw["langchain_es"]["p95"],
            RATIO_BOUND["visible_vs_add_texts"],
        )
    elif _ok(ow) and _ok(lw):
        add(
            "Elasticsearch semantic remember→visible p95 ÷ langchain-es add_texts(refresh)→visible p95",
            ow["write_visible"]["p95"],
            lw["write_visible"]["p95"],
            RATIO_BOUND["visible_vs_add_texts"],
        )
    for key, res in systems.items():
        if not key.startswith("langmem_es"):
            continue
        scale = res.get("scale") or {}
        points = [*(scale.get("pre_recall") or []), *([res["tenants"]] if _ok(res.get("tenants")) else [])]
        if points:
            worst = max(points, key=lambda p: p.get("max_over_median") or 0)
            if worst.get("max") is not None:
                gc_ms = (worst.get("gc") or {}).get("in_slowest_ms")
                add(
                    f"{key} slowest recall ÷ median (worst point: {worst['size']:,} / {worst['tenants']} tenants"
                    + (f"; Python GC inside it: {gc_ms:.1f} ms" if gc_ms is not None else "")
                    + ")",
                    worst["max"],
                    worst["p50"],
                    RATIO_BOUND["max_over_median"],
                )
        ing = (res.get("ingest") or {}).get("with_sessions") if _ok(res.get("ingest")) else None
        if ing:
            add(
                f"{key} ingest with session context ÷ the embedder alone (texts/s)",
                ing["per_s"],
                ing["embedder_per_s"],
                RATIO_BOUND["ingest_with_context"],
                lower=False,
                ratio=ing["ratio"],  # the median of the rounds' ratios (the rates are medians too)
            )
        if key == "langmem_es[sqlite]" and len(scale.get("pre_recall") or []) > 1:
            first, last = scale["pre_recall"][0], scale["pre_recall"][-1]
            add(
                f"SQLite pre-recall p95 at {last['size']:,} ÷ at {first['size']:,}",
                last["p95"],
                first["p95"],
                RATIO_BOUND["sqlite_largest_vs_smallest"],
            )
    return out


def _paired_points(paired: dict[str, Any]) -> list[dict[str, Any]]:
    """The side-by-side pre-recall points: one a size, then the many-tenants one (if it ran)."""
    return [*(paired.get("pre_recall") or []), *([paired["tenants"]] if _ok(paired.get("tenants")) else [])]


def paired_rows(results: dict[str, Any]) -> list[list[str]]:
    """The side-by-side points (:mod:`langmem_es_bench.paired`), one row each."""
    paired = results.get("paired")
    if not _ok(paired):
        return []
    return [
        [
            f"{p['size']:,}",
            f"{p['tenants']:,}",
            _f(p["langmem_es"]["p50"]),
            _f(p["langmem_es"]["p95"]),
            _f(p["langchain_es"]["p50"]),
            _f(p["langchain_es"]["p95"]),
            _x(p["p50_ratio"]),
            _x(p["p95_ratio"]),
            _f((p.get("plain_hybrid") or {}).get("p95")),
            _f((p.get("langmem_es_beside_plain_hybrid") or {}).get("p95")),
            _x(p.get("p95_ratio_plain_hybrid")),
            str(p["queries"]),
            f"{p.get('load_average_start')} → {p.get('load_average_end')}",
        ]
        for p in _paired_points(paired)
    ]


def paired_write_rows(results: dict[str, Any]) -> list[list[str]]:
    """The side-by-side write → visible probes, one row."""
    paired = results.get("paired")
    if not _ok(paired) or not _ok(paired.get("writes")):
        return []
    w = paired["writes"]
    return [
        [
            f"{w['size']:,}",
            _f(w["langmem_es"]["p50"]),
            _f(w["langmem_es"]["p95"]),
            _f(w["langchain_es"]["p50"]),
            _f(w["langchain_es"]["p95"]),
            _x(w["p95_ratio"]),
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


def ratio_rows(results: dict[str, Any]) -> list[list[str]]:
    return [
        [
            t["target"],
            _f(t["ours"]),
            _f(t["baseline"]),
            _x(t["ratio"]),
            ("≥ " if t["target"].find("ingest") >= 0 else "≤ ") + f"{t['bound']:g}×",
            {True: "meets", False: "misses", None: "—"}[t["meets"]],
        ]
        for t in ratio_targets(results)
    ]


RATIO_HEAD = ["target (issue 13)", "ours", "baseline", "ratio", "bound", ""]


def _table(head: list[str], rows: list[list[str]]) -> str:
    if not rows:
        return "_no figures (phase skipped or failed)_\n"
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def _plain(head: list[str], rows: list[list[str]]) -> str:
    if not rows:
        return "  (none)\n"
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join([fmt.format(*head), *(fmt.format(*r) for r in rows)]) + "\n"


def headline(results: dict[str, Any]) -> list[str]:
    """One line per target of the issue: the figure, its ratio, and whether it meets the target."""
    out = []
    for key, res in _systems(results):
        if not key.startswith("langmem_es"):
            continue
        scale = res.get("scale") or {}
        pts = scale.get("pre_recall") or []
        if pts:
            last, ratio = pts[-1], scale["largest_over_smallest"]
            out.append(
                f"{key}: pre-recall p95 at {last['size']:,} = {last['p95']:.1f} ms "
                f"({'meets' if last['p95'] <= TARGET_MS else 'misses'} ≤ {TARGET_MS:.0f} ms); "
                f"{last['size']:,}/{pts[0]['size']:,} p95 ratio {ratio['p95']:.2f}× "
                f"({'meets' if ratio['p95'] <= 2 else 'misses'} ≤ 2×); the embedder alone: p95 "
                f"{last['embed_query']['p95']:.1f} ms, so recall + render add "
                f"{last['p95'] - last['embed_query']['p95']:.1f} ms at p95 "
                f"({last['p50'] - last['embed_query']['p50']:.1f} ms at p50)"
            )
            if last.get("search_p50") and last.get("total_p50"):
                out.append(
                    f"{key}: at {last['size']:,} the backend search is {last['search_p50']:.1f} ms of the "
                    f"{last['total_p50']:.1f} ms recall median ({100 * last['search_p50'] / last['total_p50']:.0f}%), "
                    f"query embedding {last.get('embed_p50') or 0:.1f} ms"
                )
            t = res.get("tenants")
            if _ok(t):
                out.append(
                    f"{key}: {t['size']:,} memories over {t['tenants']:,} tenants: pre-recall p95 "
                    f"{t['p95']:.1f} ms, p50 {t['p50']:.1f} ms ({_x(t.get('p95_over_embed_p95'))} the "
                    f"embedder's p95)"
                )
        w = scale.get("writes")
        if _ok(w):
            out.append(
                f"{key}: write p95 {w['write']['p95']:.1f} ms, write→visible p95 "
                f"{w['write_visible']['p95']:.1f} ms (target ≤ {TARGET_MS:.0f} ms: "
                f"{'meets' if max(w['write']['p95'], w['write_visible']['p95']) <= TARGET_MS else 'misses'})"
            )
        ing = res.get("ingest")
        if _ok(ing):
            for variant in ("no_sessions", "with_sessions"):
                v = ing.get(variant)
                if v:
                    out.append(
                        f"{key}: ingest {variant.replace('_', ' ')} {v['per_s']:,.0f}/s = {v['ratio']:.2f}× "
                        f"the embedder alone ({'meets' if v['ratio'] >= 0.9 else 'misses'} ≥ 0.9)"
                    )
    return out


def summary(results: dict[str, Any]) -> str:
    """The figures as plain-text tables (printed at the end of a run)."""
    parts = [
        "",
        "pre-recall latency (pre_recall node: embed raw message + recall + render; query embedding included)",
        _plain(LATENCY_HEAD, latency_rows(results)),
        *(
            [
                "pre-recall side by side on Elasticsearch (langmem-es and langchain-es loaded together, queries "
                "taking turns; then langmem-es in turns with the plain hybrid requests: one BM25 + kNN msearch of "
                "ids on langchain-es's index, RRF in Python, mget of the top 9)",
                _plain(PAIRED_HEAD, paired_rows(results)),
            ]
            if paired_rows(results)
            else []
        ),
        "where a pre-recall goes (medians of the core's stage timings, ms)",
        _plain(BREAKDOWN_HEAD, breakdown_rows(results)),
        "write (remember, semantic with reason) and write→visible (remember, then recall until it returns)",
        _plain(WRITE_HEAD, write_rows(results)),
        *(
            [
                "write→visible side by side on Elasticsearch (the same stores as above, writes taking turns)",
                _plain(PAIRED_WRITE_HEAD, paired_write_rows(results)),
            ]
            if paired_write_rows(results)
            else []
        ),
    ]
    st = same_turn_rows(results)
    if st:
        parts += [
            "write→visible through the memory tools (langmem_es_bench/same_turn.py, empty store)",
            _plain(SAME_TURN_HEAD, st),
        ]
    parts += [
        "bulk ingest with real embedding (ratio = memories/s ÷ embedder texts/s on the same texts, same run)",
        _plain(INGEST_HEAD, ingest_rows(results)),
        "footprint (raw vectors = memories × 384 × 4 bytes)",
        _plain(FOOTPRINT_HEAD, footprint_rows(results)),
        "targets:",
    ]
    parts += [f"  {line}" for line in headline(results)] or ["  (none)"]
    if request_rows(results):
        parts += [
            "requests of one recall and one superseding write (counted through the Elasticsearch client)",
            _plain(REQUEST_HEAD, request_rows(results)),
        ]
    meta = results.get("meta", {})
    parts += [
        f"ratio targets (same run; load average {meta.get('load_average_start')} at the start, "
        f"{meta.get('load_average_end')} at the end, {meta.get('machine', {}).get('nproc')} CPUs)",
        _plain(RATIO_HEAD, ratio_rows(results)),
    ]
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------- plots


def plot(results: dict[str, Any], img_dir: Path, prefix: str = "bench") -> list[Path]:
    """PNG plots of latency vs corpus size, write latency and ingest throughput."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    img_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    embed = []
    for key, res in _systems(results):
        pts = (res.get("scale") or {}).get("pre_recall") or []
        if pts:
            xs = [p["size"] for p in pts]
            line = ax.plot(xs, [p["p95"] for p in pts], marker="o", label=f"{_label(key, res)} p95")[0]
            ax.plot(
                xs,
                [p["p50"] for p in pts],
                marker=".",
                ls="--",
                color=line.get_color(),
                alpha=0.6,
                label=f"{_label(key, res)} p50",
            )
            embed += [p["embed_query"]["p95"] for p in pts]
    if embed:
        ax.axhline(sum(embed) / len(embed), color="grey", ls=":", label="embedder alone, p95 (mean of points)")
    ax.axhline(TARGET_MS, color="red", ls="-.", lw=0.8, label=f"target p95 {TARGET_MS:.0f} ms")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("memories (one tenant)")
    ax.set_ylabel("pre-recall latency, ms")
    ax.set_title("Pre-recall latency vs corpus size (query embedding included)")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    paths.append(img_dir / f"{prefix}-latency.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    rows = [
        (key, res, v)
        for key, res in _systems(results)
        if _ok(res.get("ingest"))
        for v in ("no_sessions", "with_sessions")
        if res["ingest"].get(v)
    ]
    if rows:
        fig, ax = plt.subplots(figsize=(7.5, 4.0))
        labels = [
            f"{_label(k, r)}\n{'with session_id' if v == 'with_sessions' else 'no session_id'}" for k, r, v in rows
        ]
        ratios = [r["ingest"][v]["ratio"] for _, r, v in rows]
        ax.barh(labels, ratios, color=["tab:blue" if k.startswith("langmem") else "tab:grey" for k, _, _ in rows])
        ax.axvline(0.9, color="red", ls="-.", lw=0.8, label="target 0.9")
        ax.axvline(1.0, color="black", lw=0.5)
        for i, (_k, r, v) in enumerate(rows):
            ax.text(ratios[i], i, f" {ratios[i]:.2f}× ({r['ingest'][v]['per_s']:,.0f}/s)", va="center", fontsize=7)
        ax.set_xlabel("ingest throughput ÷ embedder throughput on the same texts")
        ax.set_title("Bulk ingest with real embedding")
        ax.tick_params(axis="y", labelsize=7)
        ax.set_xlim(0, max(1.3, max(ratios) * 1.35))
        ax.legend(fontsize=7)
        fig.tight_layout()
        paths.append(img_dir / f"{prefix}-ingest.png")
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)

    rows2 = [
        (key, res, res["scale"]["writes"])
        for key, res in _systems(results)
        if _ok((res.get("scale") or {}).get("writes"))
    ]
    if rows2:
        fig, ax = plt.subplots(figsize=(7.5, 4.0))
        labels = [_label(k, r) for k, r, _ in rows2]
        ys = range(len(rows2))
        ax.barh([y + 0.2 for y in ys], [w["write"]["p95"] for _, _, w in rows2], height=0.4, label="write p95")
        ax.barh(
            [y - 0.2 for y in ys],
            [w["write_visible"]["p95"] for _, _, w in rows2],
            height=0.4,
            label="write→visible p95",
        )
        ax.axvline(TARGET_MS, color="red", ls="-.", lw=0.8, label=f"target {TARGET_MS:.0f} ms")
        ax.set_yticks(list(ys), labels, fontsize=7)
        ax.set_xscale("log")
        ax.set_xlabel("ms (log)")
        ax.set_title(f"Write and write→visible latency at {rows2[0][2]['at_size']:,} memories")
        ax.legend(fontsize=7)
        fig.tight_layout()
        paths.append(img_dir / f"{prefix}-writes.png")
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)
    return paths


# --------------------------------------------------------------------------- markdown


def _git_line(git: Any) -> list[str]:
    if not git:
        return []
    mods = git.get("modified_files") or []
    return [
        f"- **Code**: commit `{git['commit']}`"
        + (
            f", working tree with {len(mods)} modified file(s): " + ", ".join(f"`{m}`" for m in mods[:8])
            if mods
            else ""
        )
    ]


def eval_section(results_dir: Path) -> list[str]:
    """Retrieval quality from the saved ``langmem-es eval`` results (``results/eval-*.json``)."""
    import json

    files = sorted(results_dir.glob("eval-*.json"))
    if not files:
        return []
    lines = [
        "## Retrieval quality (LoCoMo dev split, `langmem-es eval`)",
        "",
        "recall@10 over categories 1–4 and per category (question counts in brackets); each file is one run "
        "with the same embedder for every system.",
        "",
    ]
    for f in files:
        data = json.loads(f.read_text())
        meta = data.get("metadata", {})
        lines += [f"**{f.name}** — backend of our pipeline: {meta.get('backend', '?')}, {meta.get('date', '')}", ""]
        rows = []
        counts: dict[str, int] = {}
        for name, r in data.get("systems", {}).items():
            cats = r.get("by_category", {})
            counts.update({c: v.get("n", 0) for c, v in cats.items()})
            o = r.get("overall", {})
            rows.append(
                [
                    name,
                    _f(o.get("recall@10"), 3),
                    _f(o.get("mrr@10"), 3),
                    *[_f(cats.get(c, {}).get("recall@10"), 3) for c in ("1", "2", "3", "4", "5")],
                ]
            )
        head = [
            "system",
            "recall@10",
            "MRR@10",
            *[f"cat. {c} ({counts.get(c, '?')})" for c in ("1", "2", "3", "4", "5")],
        ]
        lines += [_table(head, rows), ""]
    if (results_dir.parent / "img" / "eval-recall-by-category.png").is_file():
        lines += ["![recall@10 by category](img/eval-recall-by-category.png)", ""]
    lines += [
        "Regenerate: `langmem-es eval --systems langmem_es,bm25,dense,hybrid_rrf,langgraph_inmemory,langchain_es "
        "--backend sqlite --out DIR`, copy `DIR/results.json` to `docs/results/eval-locomo-dev-<backend>.json`, "
        "then `langmem-es bench --report-only bench-out/results.json`.",
        "",
    ]
    return lines


def write_markdown(results: dict[str, Any], path: Path, *, command: str, notes: list[str] | None = None) -> Path:
    """Write ``docs/benchmarks.md`` (and its plots into ``<dir of path>/img/``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    images = plot(results, path.parent / "img")
    meta, ds, cfg = results["meta"], results["dataset"], results["config"]
    m, v = meta["machine"], meta["versions"]
    mem = f"{m['memory_bytes'] / 2**30:.1f} GiB" if m.get("memory_bytes") else "?"
    cache = ds.get("vector_cache", {})
    lines = [
        "# Benchmarks",
        "",
        f"_Generated by `{command}` on {meta['date']} ({meta.get('seconds', 0) / 60:.1f} min). "
        "Do not edit by hand: rerun the command._",
        "",
        "Every figure sits next to a baseline measured in the **same run on the same machine**. The machine is small "
        "and shared with other engineers running tests (load average "
        f"{meta.get('load_average_start')} at the start, {meta.get('load_average_end')} at the end), so absolute "
        "milliseconds move from run to run, and so do ratios between systems measured minutes apart: the same code "
        "has given langmem-es ÷ langchain-es pre-recall p95 ratios from 1.3× to 2.2× at one size in runs of one "
        "day when each system's points ran in turn. The pre-recall targets are therefore taken from points where "
        "both systems are loaded side by side and their queries alternate (*side by side* below).",
        "",
        "## Setup",
        "",
        f"- **Machine**: {m['nproc']} CPU(s) (`nproc`), {mem} RAM, {m['cpu']}; {m['platform']}",
        f"- **Versions**: Python {v['python']}, langmem_es {v['langmem_es']}, Elasticsearch server "
        f"{v.get('elasticsearch_server', 'not used')} (local distribution, basic licence), elasticsearch-py "
        f"{v['elasticsearch_client']}, langgraph {v['langgraph']}, langchain-elasticsearch "
        f"{v['langchain_elasticsearch']}, onnxruntime {v['onnxruntime']}, numpy {v['numpy']}, SQLite {v['sqlite']}",
        *_git_line(meta.get("git")),
        "- **Embedder**: all-MiniLM-L6-v2 int8 ONNX (384 dims), the offline default, shared by every system.",
        f"- **Dataset**: {ds['memories']:,} synthetic memories from `{ds['generator']}` (seed {ds['seed']}, corpus hash "
        f"`{ds['corpus_hash']}`, mean {ds['mean_chars']} characters): short texts from 30 templates with varied people, "
        "cities, devices, brands, software, error codes, versions, amounts and dates. Queries are distinct questions "
        "from 24 templates, never repeated within a run (so no query cache answers them). Examples:",
        *[f"  - memory: “{t}”" for t in ds["examples"][:3]],
        *[f"  - query: “{q}”" for q in ds["query_examples"][:3]],
        f"- **Sizes**: {', '.join(f'{s:,}' for s in cfg['sizes'])} memories for one tenant (one store grown through "
        f"the sizes); {max(cfg['sizes']):,} memories over {cfg['tenants']:,} tenants, each query for one tenant. "
        f"{cfg['queries']} timed queries per point after {cfg['warmup']} warm-up queries "
        f"({cfg['slow_queries']} for a system slower than 100 ms a query); on Elasticsearch each point first waits "
        "until the cluster has no segment merge running (a load leaves merges behind on the cores the queries need)"
        + (
            f"; before Elasticsearch is first measured, {cfg['cluster_warmup']} untimed recalls and writes on a "
            "throwaway index warm the cluster's JIT (a just-started node measured up to 2x slower)."
            if cfg.get("cluster_warmup")
            else "."
        ),
        "- **Vectors at scale**: embedding 100k texts takes tens of minutes here, so the at-scale loads take the "
        "corpus vectors from an on-disk cache (`~/.cache/langmem-es/bench/`, keyed by corpus hash and model; "
        f"{'hit' if cache.get('cached') else 'computed in this run'}) through a caching `Embeddings` wrapper. "
        "Query embedding is always real (and in every latency figure); the ingest-throughput figures use real "
        f"embedding on the first {cfg['ingest']:,} texts.",
        "",
        "## Pre-recall latency",
        "",
        "What the `pre_recall` node does before the model runs: embed the raw user message, hybrid recall (BM25 + kNN, "
        "fused, scope-checked; no cross-encoder), render the token-budgeted block (k = 8). Measured by invoking the "
        "node. The competitors do their own search for the same k + 1 = 9 results: `InMemoryStore.search` "
        "(brute-force cosine in one namespace per tenant) and `ElasticsearchStore.similarity_search` (dense kNN, "
        "tenant as a term filter; the local distribution has no RRF module, so no hybrid). The queries come back "
        "to back, so langmem-es's access statistics (a flush due every 32 recalls waits until recalls pause for "
        "`access_flush_quiet_ms`) are written untimed after the warm-up and after the point, before the next system's point starts.",
        "Baselines: *embedder p95* is `embed_query` alone on as many distinct texts, measured just before each "
        "point; *smallest p95* is the first size of the same system in the same run.",
        "",
        _table(LATENCY_HEAD, latency_rows(results)),
    ]
    if images:
        lines += [f"![pre-recall latency](img/{images[0].name})", ""]
    if paired_rows(results):
        lines += [
            "**Side by side.** The points above run each system in turn, minutes apart. Here langmem-es and "
            "langchain-es are loaded together on Elasticsearch (grown through the same sizes; the many-tenants "
            "point loads langmem-es again over the tenants, and langchain-es filters its index on a second tag), "
            "and their queries take turns (which goes first alternates), so both are measured on the same machine "
            "state. The ratio targets for pre-recall are taken from these points. In a second pass at each point, "
            "langmem-es takes turns with the plainest requests that do a hybrid recall's job, on langchain-es's "
            "index (two systems at a time: three in turn slowed all of them at 100k): embed the query, one "
            "`msearch` of a BM25 and a kNN leg (80 ids each), reciprocal rank fusion in Python, the top 9's texts "
            "by `mget` (*plain hybrid*: no reranking, scope check or rendering). Its ratio shows what "
            "langmem-es's recall adds over the engine's own requests:",
            "",
            _table(PAIRED_HEAD, paired_rows(results)),
        ]
    if breakdown_rows(results):
        lines += [
            "Where the time of a pre-recall goes (medians of the memory core's own stage timings; the stages' "
            "medians need not add up to the total's):",
            "",
            _table(BREAKDOWN_HEAD, breakdown_rows(results)),
        ]
    if tail_rows(results):
        lines += [
            "",
            "The slowest pre-recall of each point, and the garbage collections around it: the Python "
            "collector's pauses inside that call (`gc.callbacks`) and the Elasticsearch node's young-generation "
            "pauses during the whole point (`_nodes/stats/jvm`, shared with whatever else the cluster served). "
            "Before each timed point the objects the process holds (the run's corpus, the loaded stores) are "
            "frozen out of the Python collector's passes, as the model's load does in an application, so a "
            "full collection walks what the calls made (LangGraph's InMemoryStore keeps its memories as Python "
            "objects: its own data are left out of its pauses too). A stall that slows every stage at once is the "
            "machine's, not a stage's:",
            "",
            _table(TAIL_HEAD, tail_rows(results)),
        ]
    lines += [
        "## Write and write → visible",
        "",
        "`remember` of a new semantic fact with a reason (dedupe check, key inference, supersession — the whole "
        "belief-maintenance path) on the store at its largest size; *write → visible* starts a `remember` and "
        "stops when a `recall` for the fact returns its id (retried until it does). Three untimed warm-up writes "
        "go first (a first write loads the statement model). Competitors: `put` / `add_texts("
        "refresh_indices=True)` and their search.",
        "",
        _table(WRITE_HEAD, write_rows(results)),
    ]
    if paired_write_rows(results):
        lines += [
            "Side by side (the stores of the side-by-side pre-recall points, at their largest size; each "
            "system's write → visible probes take turns with the other's, and the ratio target is read from "
            "these):",
            "",
            _table(PAIRED_WRITE_HEAD, paired_write_rows(results)),
        ]
    if request_rows(results):
        lines += [
            "Requests one recall and one superseding `remember` send on Elasticsearch (every HTTP request "
            "counted through the client's transport, any background flush included (a due access flush waits for recalls to pause, so the recalls ran without one); the superseding write "
            "replaces the active fact under its subject key), with their latency distribution:",
            "",
            _table(REQUEST_HEAD, request_rows(results)),
        ]
    lines += [
        "## Ratio targets (issue 13)",
        "",
        f"Same run, same cluster, embedder and corpus; load average {results['meta'].get('load_average_start')} "
        f"at the start, {results['meta'].get('load_average_end')} at the end.",
        "",
        _table(RATIO_HEAD, ratio_rows(results)),
    ]
    st = same_turn_rows(results)
    if st:
        lines += [
            "The same through the LangChain memory tools on an empty store "
            "(`langmem_es_bench/same_turn.py`, called by this command):",
            "",
            _table(SAME_TURN_HEAD, st),
        ]
    img = {p.stem.split("-")[-1]: p.name for p in images}
    if "writes" in img:
        lines += [f"![write latency](img/{img['writes']})", ""]
    lines += [
        "## Bulk ingest",
        "",
        f"`remember_many` of {cfg['ingest']:,} events with real embedding into fresh storage; the baseline is "
        "`embed_documents` alone on the same texts, measured right before and after each ingest (their mean), in "
        f"{cfg.get('ingest_rounds', 1)} round(s) on fresh storage; a ratio is the median of the rounds' ratios (one "
        "sample of the embedder alone moves by ±10% here). With `session_id`, "
        "each event is still embedded once: its in-context vector is derived from its session neighbours' vectors "
        "(and its indexed text carries their words), so the ceiling of both variants is 1×. Competitors: one "
        "`InMemoryStore.batch` of puts, one `ElasticsearchStore.add_texts`.",
        "",
        _table(INGEST_HEAD, ingest_rows(results)),
    ]
    if "ingest" in img:
        lines += [f"![ingest throughput](img/{img['ingest']})", ""]
    lines += [
        "## Footprint",
        "",
        "Index size after loading the largest single-tenant corpus (Elasticsearch: `_stats` primaries store size "
        "without force-merge; SQLite: database file + WAL), and the growth of this Python process's RSS over the "
        "load and the queries (for Elasticsearch the index lives in the server's JVM and page cache, not in this "
        "process). Scaled to 100k memories; baseline: the raw float32 vectors (384 × 4 bytes a memory, 154 MB "
        "per 100k). RSS growth is approximate (the allocator keeps freed memory; phases run one after another).",
        "",
        _table(FOOTPRINT_HEAD, footprint_rows(results)),
        "## Against the targets",
        "",
        *[f"- {line}" for line in headline(results)],
        "",
    ]
    notes = [*(results.get("notes") or []), *(notes or [])]
    if notes:
        lines += ["## Notes on this run", ""] + [f"- {note}" for note in notes] + [""]
    errors = [
        (k, ph, res[ph]["error"])
        for k, res in _systems(results)
        for ph in res
        if isinstance(res[ph], dict) and "error" in res[ph]
    ]
    if isinstance(results.get("paired"), dict) and "error" in results["paired"]:
        errors.append(("side by side", "paired", results["paired"]["error"]))
    if errors:
        lines += ["", "## Failed phases", ""] + [f"- {k} / {ph}: `{e}`" for k, ph, e in errors]
    lines += ["", *eval_section(path.parent / "results")]
    lines += [
        "",
        "## Reproduce",
        "",
        "```sh",
        "langmem-es es start            # or point LANGMEM_ES_URL/_USER/_PASSWORD at a cluster",
        command,
        "```",
        "",
        "Raw figures: `results.json` in the `--out` folder. `--smoke` runs tiny sizes in under a minute per "
        "backend (CI).",
        "",
    ]
    path.write_text("\n".join(lines))
    return path
