"""``langmem-es bench --concurrency LEVELS`` and ``--long-content MB``: run one point, save its
JSON in ``--out``, print its table, and with ``--docs`` write it into its own section of the
markdown report (between ``<!-- name:start -->`` and ``<!-- name:end -->`` markers; the rest
of the file is left as the full run wrote it)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

__all__ = [
    "concurrency_markdown",
    "kept_sections",
    "long_content_markdown",
    "million_markdown",
    "replace_section",
    "run_scale_point",
]


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_scale_point(args: argparse.Namespace, command: str) -> int:
    backends = ["sqlite", "elasticsearch"] if args.backend == "both" else [args.backend]
    args.out.mkdir(parents=True, exist_ok=True)
    sections: list[tuple[str, str]] = []
    if args.concurrency:
        from langmem_es_bench.concurrency_run import run_concurrency

        size = (args.sizes or [300 if args.smoke else 10_000])[0]
        seconds = args.seconds or (2.0 if args.smoke else 15.0)
        tenants = args.tenants if args.tenants and args.tenants > 1 else 10
        result = run_concurrency(
            backends,
            args.concurrency,
            size=size,
            tenants=tenants,
            seconds=seconds,
            peers=args.peers or (),
            server_workers=args.server_workers,
            say=_say,
        )
        result["command"] = command
        (args.out / "concurrency.json").write_text(json.dumps(result, indent=2))
        sections.append(("concurrency", concurrency_markdown(result)))
    if args.long_content is not None:
        from langmem_es_bench.long_content import run_long_content

        if not args.long_content > 0:
            print("langmem-es bench: --long-content wants a positive number of megabytes", file=sys.stderr)
            return 2
        result = run_long_content(
            backends, args.long_content, sample=200 if args.smoke else 2000, texts=16 if args.smoke else 128, say=_say
        )
        result["command"] = command
        (args.out / "long_content.json").write_text(json.dumps(result, indent=2))
        sections.append(("long-content", long_content_markdown(result)))
    if args.million:
        from langmem_es_bench.million import run_million

        result = run_million(
            args.million,
            tenants=args.tenants or max(1, args.million // 100),
            queries=args.queries or (10 if args.smoke else 100),
            writes=args.writes or (3 if args.smoke else 30),
            competitors=not args.no_competitors,
            three_nodes=args.three_nodes,
            cluster_warmup=5 if args.smoke else None,
            say=_say,
        )
        result["command"] = command
        (args.out / "million.json").write_text(json.dumps(result, indent=2, default=str))
        sections.append(("million", million_markdown(result)))
    for name, text in sections:
        print(text)
        if args.docs:
            replace_section(args.docs, name, text)
            print(f"wrote the {name} section of {args.docs}")
    return 0


def kept_sections(path: Path) -> str:
    """The marked sections of ``path`` (each ``<!-- name:start -->`` … ``<!-- name:end -->``), in
    order, so a full run that rewrites the report keeps the points it did not run."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    return "\n\n".join(m.group(0) for m in re.finditer(r"<!-- ([\w-]+):start -->.*?<!-- \1:end -->", old, re.S))


def replace_section(path: Path, name: str, text: str) -> None:
    """Put ``text`` between the ``name`` markers of ``path`` (appended, with markers, when absent)."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    block = f"{start}\n{text.rstrip()}\n{end}"
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    new = pattern.sub(lambda _m: block, old) if pattern.search(old) else f"{old.rstrip()}\n\n{block}\n"
    path.write_text(new, encoding="utf-8")


def _ms(record: dict[str, Any] | None, key: str) -> str:
    return f"{record[key]:.0f}" if record and key in record else "–"


def concurrency_markdown(result: dict[str, Any]) -> str:
    """Throughput and latency per system and level, reads and writes apart, and the CPU split."""
    lines = [
        "## Concurrent callers",
        "",
        f"`{result.get('command', 'langmem-es bench --concurrency')}` — {result['size']:,} memories over "
        f"{result['tenants']} tenants, {result['seconds']:g} s a run, every read a query never asked before; "
        f"load average {result.get('loadavg_start')} at the start, {result.get('loadavg_end')} at the end.",
        "",
        "| system | callers | reads only: ops/s | read p50 / p95 / p99 ms | CPU ms a read: here · server · "
        "engine | 70 % reads: ops/s | read p50 / p99 ms | write p50 / p99 ms | errors | load |",
        "|---|---:|---:|---|---|---:|---|---|---:|---:|",
    ]
    for name, by_level in result["systems"].items():
        for level, rec in by_level.items():
            r, m = rec["reads"], rec["mixed"]
            rr, mr, mw = r.get("read"), m.get("read"), m.get("write")
            lines.append(
                f"| {name} | {level} | {r['ops_per_s']} | {_ms(rr, 'p50')} / {_ms(rr, 'p95')} / {_ms(rr, 'p99')} | "
                f"{_cpu_cell(r.get('cpu_ms_per_op'))} | {m['ops_per_s']} | {_ms(mr, 'p50')} / {_ms(mr, 'p99')} | {_ms(mw, 'p50')} / {_ms(mw, 'p99')} | "
                f"{r['errors'] + m['errors']} | {m['loadavg']} |"
            )
    lines += ["", *_targets(result), "", *_cpu_lines(result.get("cpu", {}))]
    return "\n".join(lines)


def _cpu_cell(cpu: dict[str, float] | None) -> str:
    """CPU ms one read cost during its run: this process (the bench's callers, and the core
    when it runs in process), the HTTP server's processes, the Elasticsearch nodes."""
    if not cpu:
        return "–"
    return " · ".join(f"{cpu[k]:.1f}" if k in cpu else "–" for k in ("here", "server", "engine"))


def _targets(result: dict[str, Any]) -> list[str]:
    systems, levels = result["systems"], [str(n) for n in result["levels"]]
    top, mid = levels[-1], levels[-2] if len(levels) > 1 else levels[-1]
    out = ["Targets at the most callers:", ""]
    plain = systems.get("plain_hybrid", {}).get(top, {}).get("reads", {}).get("ops_per_s")
    for name, by_level in systems.items():
        if not name.startswith(("core[", "http[", "mcp[")) or top not in by_level:
            continue
        reads = by_level[top]["reads"]
        parts = []
        if plain and "[elasticsearch" in name:
            parts.append(f"reads ÷ plain hybrid {reads['ops_per_s'] / plain:.2f} (target ≥ 0.9)")
        if mid in by_level and mid != top:
            before = by_level[mid]["reads"]["ops_per_s"]
            parts.append(f"reads at {top} ÷ at {mid} callers {reads['ops_per_s'] / before:.2f} (target ≥ 1.0)")
        read = reads.get("read") or {}
        if read.get("p50"):
            parts.append(f"p99 ÷ p50 {read['p99'] / read['p50']:.2f} (target ≤ 3)")
        out.append(f"- {name}: " + "; ".join(parts))
    return out


def _cpu_lines(cpu: dict[str, Any]) -> list[str]:
    if not cpu:
        return []
    lines = [
        "CPU of one call on the sync core, by stage (process CPU ms; the split from cProfile scaled to the "
        "unprofiled total; engine = the Elasticsearch server's CPU per call from its node statistics):",
        "",
        "| backend | call | wall ms | client CPU ms | embedding | parsing | scoring | serialisation | "
        "engine client | other | engine CPU ms |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for backend, calls in cpu.items():
        for call in ("recall", "write"):
            rec = calls.get(call)
            if not rec:
                continue
            st = rec["client_cpu_by_stage_ms"]
            cells = [
                f"{st.get(k, 0):.1f}"
                for k in ("embedding", "parsing", "scoring", "serialisation", "engine client", "other")
            ]
            lines.append(
                f"| {backend} | {call} | {rec['wall_ms']:.1f} | {rec['client_cpu_ms']:.1f} | {' | '.join(cells)} | "
                f"{rec.get('engine_cpu_ms', '–')} |"
            )
    return lines


def long_content_markdown(result: dict[str, Any]) -> str:
    """The embedder's batching A/B and the long-conversation ingest per backend."""
    e = result["embedder"]
    lines = [
        "## Long content",
        "",
        f"`{result.get('command', 'langmem-es bench --long-content')}` — load average "
        f"{result.get('loadavg_start', 0):.2f} at the start, {result.get('loadavg_end', 0):.2f} at the end.",
        "",
        f"The embedder (texts/s, median of alternating rounds; {e['texts']['short']} turns under 40 word pieces, "
        f"{e['texts']['long']} passages):",
        "",
        f"| texts | float, fixed batches of 32 | float, batches of ≤ {e['batch_tokens']:,} padded tokens | "
        f"{e.get('precision', 'int8')} (shipped) | shipped ÷ float | shipped ÷ fixed batches |",
        "|---|---:|---:|---:|---:|---:|",
        *(
            f"| {label} | {e['fixed_32'][k]} | {e.get('float', {}).get(k, '—')} | {e['shipped'][k]} | "
            f"{e.get('int8_ratio', {}).get(k, '—')} | {e['ratio'][k]} |"
            for k, label in (("short", "short"), ("long", "long (passages)"))
        ),
        "",
        "One generated long conversation through `remember_many`, beside the embedder alone on what the ingest "
        "embeds (each message once and each passage of a long one; timed on an even sample right before and after):",
        "",
        "| backend | MB | messages | passages | ingest s | MB/min | embedder alone MB/min | ingest ÷ embedder | load |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for backend in ("sqlite", "elasticsearch"):
        r = result.get(backend)
        if r:
            lines.append(
                f"| {backend} | {r['megabytes']} | {r['messages']:,} | {r['passages']:,} | {r['ingest_s']} | "
                f"{r['mb_per_min']} | {r['embedder_mb_per_min']} | {r['ratio']} | {r['loadavg']:.2f} |"
            )
    return "\n".join(lines)


def million_markdown(result: dict[str, Any]) -> str:
    """Pre-recall at a tenth and at all of the corpus (p50, p95, the engine's search p50, the load
    average when measured), write → visible and bytes a memory, per system."""
    lines = [
        f"## {result['memories']:,} memories",
        "",
        f"`{result.get('command', 'langmem-es bench --million')}` — {result['memories']:,} memories over "
        f"{result['tenants']:,} tenants ({result['copies']} tenants hold each of the corpus's texts, with its cached "
        f"vector); load average {result.get('loadavg_start')} at the start, {result.get('loadavg_end')} at the end. "
        "Each point: 100 pre-recalls, each for one tenant, query embedding included, timed once the segment "
        "merges its load left have finished (*merges waited*); *search* is the engine's part of a recall "
        "(langmem-es's own stage timing).",
        "",
        "| system | memories | merges waited s | pre-recall p50 ms | p95 ms | search p50 ms | load average (1 min) | "
        "p95 ÷ the tenth's (target ≤ 1.5) | write→visible p95 ms | bytes a memory |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, rec in result.items():
        if isinstance(rec, dict) and "pre_recall" in rec:
            first, last = rec["pre_recall"]
            for point in (first, last):
                at_all = point is last
                search = point.get("search_p50")
                load = (point.get("loadavg") or [None])[0]
                tail = (
                    f"{rec['p95_largest_over_tenth']} | {rec['writes']['write_visible']['p95']:.1f} | "
                    f"{rec['bytes_per_memory']:,.0f}"
                    if at_all
                    else " | | "
                )
                waited = point.get("settled_s")
                lines.append(
                    f"| {name} | {point['size']:,} | {'—' if waited is None else waited} | "
                    f"{point['p50']:.1f} | {point['p95']:.1f} | "
                    f"{'—' if search is None else f'{search:.1f}'} | {'—' if load is None else load} | {tail} |"
                )
    if any("3 nodes" in name for name in result):
        lines += [
            "",
            f"The three-node cluster (one replica) runs on this same machine, {os.cpu_count()} cores for three "
            "nodes and the bench: its figures show the cost of a replica and of nodes sharing the cores, not "
            "what three machines would give.",
        ]
    return "\n".join(lines)
