"""The benchmark report's PNG plots (``docs/img/bench-*.png``): latency against corpus size,
ingest throughput and write latency."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langmem_es_bench.report_format import succeeded, system_label, system_results
from langmem_es_bench.report_targets import TARGET_MS


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
    for key, res in system_results(results):
        pts = (res.get("scale") or {}).get("pre_recall") or []
        if pts:
            xs = [p["size"] for p in pts]
            line = ax.plot(xs, [p["p95"] for p in pts], marker="o", label=f"{system_label(key, res)} p95")[0]
            ax.plot(
                xs,
                [p["p50"] for p in pts],
                marker=".",
                ls="--",
                color=line.get_color(),
                alpha=0.6,
                label=f"{system_label(key, res)} p50",
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
        for key, res in system_results(results)
        if succeeded(res.get("ingest"))
        for v in ("no_sessions", "with_sessions")
        if res["ingest"].get(v)
    ]
    if rows:
        fig, ax = plt.subplots(figsize=(7.5, 4.0))
        labels = [
            f"{system_label(k, r)}\n{'with session_id' if v == 'with_sessions' else 'no session_id'}"
            for k, r, v in rows
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
        for key, res in system_results(results)
        if succeeded((res.get("scale") or {}).get("writes"))
    ]
    if rows2:
        fig, ax = plt.subplots(figsize=(7.5, 4.0))
        labels = [system_label(k, r) for k, r, _ in rows2]
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
