"""The results of ``langmem-es eval`` as text and as a plot: the tables printed at the end of
a run (headline categories, recall@10 by category, adversarial questions) and the bar chart
of recall by category."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, TextIO

from langmem_es_eval.locomo import HEADLINE_CATEGORIES
from langmem_es_eval.metrics import CANDIDATE_DEPTHS, METRIC_NAMES

__all__ = ["format_report", "plot_recall_by_category", "print_results"]


def _headline_label(results: dict[str, Any]) -> str:
    """``"categories 1-4"`` (LoCoMo) or the dataset's own headline range."""
    cats = results.get("metadata", {}).get("headline_categories") or list(HEADLINE_CATEGORIES)
    return f"categories {min(cats)}-{max(cats)}"


def _cat_label(cat: str, entry: dict[str, Any]) -> str:
    return f"{cat} {entry.get('name', '')} (n={entry.get('n', 0)})"


def format_report(results: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The printed tables as ``(title, header, rows)`` (plain data, for any renderer)."""
    systems = results.get("systems", {})
    tables = []
    if systems:
        first = next(iter(systems.values()))
        n = first["overall"].get("n", 0)
        extra = [f"cand@{d}" for d in CANDIDATE_DEPTHS if any(f"cand@{d}" in r["overall"] for r in systems.values())]
        header = ["system", *METRIC_NAMES, *extra, "index s", "search ms/q"]
        rows = [
            [
                name,
                *(f"{r['overall'].get(m, 0.0):.3f}" for m in METRIC_NAMES),
                *(f"{r['overall'][m]:.3f}" if m in r["overall"] else "-" for m in extra),
                f"{r['timing']['index_s']:.1f}",
                f"{r['timing']['search_ms_mean']:.2f}",
            ]
            for name, r in systems.items()
        ]
        tables.append((f"{_headline_label(results).capitalize()} ({n} questions)", header, rows))

        cats = sorted({c for r in systems.values() for c in r["by_category"]}, key=int)
        labels = {c: _cat_label(c, first["by_category"].get(c, {"n": 0})) for c in cats}
        header = ["system", *(labels[c] for c in cats)]
        rows = [
            [name, *(f"{r['by_category'].get(c, {}).get('recall@10', float('nan')):.3f}" for c in cats)]
            for name, r in systems.items()
        ]
        tables.append(("recall@10 by category", header, rows))
        for m in extra:
            rows = [
                [name, *(f"{r['by_category'].get(c, {}).get(m, float('nan')):.3f}" for c in cats)]
                for name, r in systems.items()
                if m in r["overall"]
            ]
            tables.append((f"{m} (fused candidates before reranking) by category", header, rows))

        if first["adversarial"].get("n"):
            header = ["system", *METRIC_NAMES]
            rows = [
                [name, *(f"{r['adversarial'].get(m, 0.0):.3f}" for m in METRIC_NAMES)] for name, r in systems.items()
            ]
            tables.append((f"Category 5, adversarial ({first['adversarial']['n']} questions)", header, rows))
    return tables


def print_results(results: dict[str, Any], stream: TextIO | None = None) -> None:
    """Print the side-by-side tables (rich when available), notes and errors."""
    stream = stream or sys.stdout
    tables = format_report(results)
    notes = [
        f"{n}: {r['info']['note']}" for n, r in results.get("systems", {}).items() if r.get("info", {}).get("note")
    ]
    errors = [f"{n}: {e}" for n, e in results.get("errors", {}).items()]
    meta = results.get("metadata", {})
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # pragma: no cover - rich is a dependency
        Console = None  # type: ignore[assignment,misc]
    if Console is not None:
        console = Console(file=stream, width=max(120, Console(file=stream).width))
        for title, header, rows in tables:
            table = Table(title=title, title_justify="left")
            for i, h in enumerate(header):
                if i == 0:
                    table.add_column(h, justify="left", no_wrap=True)
                else:
                    table.add_column(h, justify="right")
            for row in rows:
                table.add_row(*row)
            console.print(table)

        def emit(line: str) -> None:
            console.print(line, markup=False, highlight=False)

    else:
        for title, header, rows in tables:
            widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
            print(title, file=stream)
            for row in [header, *rows]:
                print("  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=False)), file=stream)
            print(file=stream)

        def emit(line: str) -> None:
            print(line, file=stream)

    for line in notes:
        emit(f"note  {line}")
    for line in errors:
        emit(f"error {line}")
    if meta:
        ds = meta.get("dataset", {})
        emit(
            f"dataset {ds.get('name') or ds.get('path')} (sha256 {str(ds.get('sha256'))[:12]}), "
            f"embedder {meta.get('embedder')}, runtime {meta.get('runtime_s')} s"
        )


def plot_recall_by_category(results: dict[str, Any], path: str | os.PathLike[str]) -> Path:
    """Grouped bars: recall@10 per category (plus categories 1-4 overall), one bar per system."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    import numpy as np

    systems = results["systems"]
    names = list(systems)
    first = systems[names[0]]
    cats = sorted({c for r in systems.values() for c in r["by_category"]}, key=int)
    headline = [str(c) for c in results.get("metadata", {}).get("headline_categories", HEADLINE_CATEGORIES)]
    groups = [("overall", "{}\n(n={})".format(_headline_label(results), first["overall"].get("n", 0)))]
    groups += [
        (
            c,
            "{} {}\n(n={}{})".format(
                c,
                first["by_category"][c].get("name", ""),
                first["by_category"][c].get("n", 0),
                ", apart" if c not in headline else "",
            ),
        )
        for c in cats
    ]

    def value(r: dict[str, Any], g: str) -> float:
        entry = r["overall"] if g == "overall" else r["by_category"].get(g, {})
        return float(entry.get("recall@10", 0.0))

    x = np.arange(len(groups))
    width = 0.8 / max(len(names), 1)
    fig, ax = plt.subplots(figsize=(max(8.0, 1.6 * len(groups) + 0.4 * len(names)), 5.0))
    cmap = plt.get_cmap("tab10")
    for i, name in enumerate(names):
        vals = [value(systems[name], g) for g, _ in groups]
        bars = ax.bar(x - 0.4 + width * (i + 0.5), vals, width, label=name, color=cmap(i % 10))
        ax.bar_label(
            bars, labels=[f"{v:.3f}" for v in vals], fontsize=7, padding=1, rotation=90 if len(names) > 3 else 0
        )
    ax.set_xticks(x, [label for _, label in groups], fontsize=9)
    ax.set_ylabel("recall@10")
    ax.set_ylim(0, 1.08)
    ax.axvline(0.5, color="0.6", linewidth=0.8, linestyle="--")
    if any(c not in headline for c in cats):  # e.g. LoCoMo's category 5: set it apart
        ax.axvline(len(groups) - 1.5, color="0.6", linewidth=0.8, linestyle="--")
    meta = results.get("metadata", {})
    ds = meta.get("dataset", {})
    label = "LoCoMo" if ds.get("kind", "locomo") == "locomo" else str(ds.get("kind"))
    ax.set_title(
        f"{label} retrieval recall@10 by category — {ds.get('name') or Path(str(ds.get('path', ''))).name}"
        f", {len(ds.get('conversations', []))} conversations"
        + (f" (langmem_es on {meta.get('backend')})" if "langmem_es" in systems else ""),
        fontsize=11,
    )
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=min(len(names), 6), frameon=False, fontsize=9)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=130)
    plt.close(fig)
    return out
