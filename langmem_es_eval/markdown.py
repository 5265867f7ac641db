"""The README's recall table, generated from an eval run's ``results.json``.

    python -m langmem_es_eval.markdown eval-results/results.json

prints the Markdown table (headline metrics, per-category recall@10, adversarial
questions apart) so the README is pasted from a run, never typed by hand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

LABELS = {
    "bm25": "BM25",
    "dense": "dense",
    "hybrid_rrf": "hybrid RRF (80 per leg, k=60)",
    "langgraph_inmemory": "LangGraph `InMemoryStore` (what LangMem searches)",
    "langchain_es": "langchain-elasticsearch `ElasticsearchStore` (dense: no `rrf` here)",
    "postgres": "LangGraph `PostgresStore` (pgvector HNSW)",
}


def table(results: dict[str, Any]) -> str:
    """Markdown rows for every system of one run; ours last and in bold."""
    meta = results.get("metadata", {})
    counts = meta.get("dataset", {}).get("questions_by_category", {})
    names = meta.get("categories", {})
    headline = [str(c) for c in meta.get("headline_categories", [])]
    apart = [c for c in sorted(counts) if c not in headline]
    cats = [f"{names.get(c, c)} ({counts.get(c, 0)})" for c in headline]
    cats += [f"{names.get(c, c)}, cat. {c} ({counts.get(c, 0)})" for c in apart]
    head = ["system", "recall@10", "recall@5", "MRR@10", *cats]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    systems = results["systems"]
    order = [s for s in systems if s != "langmem_es"] + (["langmem_es"] if "langmem_es" in systems else [])
    for name in order:
        r = systems[name]
        ours = name == "langmem_es"
        cv = ", learned ranker cross-validated" if meta.get("options", {}).get("ranker_folds") else ""
        label = f"**langmem-es** ({meta.get('backend', '?')} backend{cv})" if ours else LABELS.get(name, name)
        main = [r["overall"]["recall@10"], r["overall"]["recall@5"], r["overall"]["mrr@10"]]
        cells = [f"**{v:.3f}**" if ours else f"{v:.3f}" for v in main]
        cells += [f"{r['by_category'][c]['recall@10']:.3f}" for c in headline]
        cells += [f"{r['adversarial']['recall@10']:.3f}" for _ in apart[:1]]
        lines.append("| " + " | ".join([label, *cells]) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m langmem_es_eval.markdown RESULTS.json", file=sys.stderr)
        return 2
    path = Path(args[0])
    try:
        results = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        print(f"langmem_es_eval.markdown: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
