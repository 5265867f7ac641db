"""Run retrieval systems side by side on a LoCoMo file; print, save, plot.

>>> # result = run_eval("../shared/data/locomo-dev.jsonl", ["bm25", "dense"], out_dir="/tmp/ev")

``run_eval`` returns (and writes as ``results.json``)::

    {"metadata": {date, machine, versions, dataset {path, sha256, ...}, embedder, ...},
     "systems": {name: {"overall": {metric: mean, "n": questions},     # categories 1-4
                        "by_category": {"1": {..., "n", "name"}, ...},  # 1-5
                        "adversarial": {...},                           # category 5
                        "timing": {...}, "info": {...}}},
     "errors": {name: "why it could not run"}}
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from importlib import metadata as _metadata
from pathlib import Path
from typing import Any, TextIO

from langmem_es_eval.datasets import Dataset, load
from langmem_es_eval.locomo import CATEGORY_NAMES, HEADLINE_CATEGORIES, Conversation
from langmem_es_eval.metrics import CANDIDATE_DEPTHS, dedupe, mean_metrics, question_metrics, recall_at_k
from langmem_es_eval.registry import make_system
from langmem_es_eval.report import plot_recall_by_category, print_results
from langmem_es_eval.systems import EvalContext, RetrievalSystem, SystemUnavailable, describe_embeddings

__all__ = [
    "CLUSTER_SYSTEMS",
    "OPT_IN_SYSTEMS",
    "PEER_SYSTEMS",
    "aggregate",
    "default_systems",
    "run_eval",
]

#: Systems that need a configured Elasticsearch cluster.
CLUSTER_SYSTEMS: frozenset[str] = frozenset({"langchain_es"})

#: Registered systems that run only when named (variants of our pipeline).
OPT_IN_SYSTEMS: frozenset[str] = frozenset({"langmem_es_bm25", "langmem_es_dense", "langmem_es_hybrid"})


#: Peers that run by default only where their extra is installed (``langmem-es[peers]``).
PEER_SYSTEMS: frozenset[str] = frozenset({"postgres"})


def default_systems() -> list[str]:
    """Every registered system but the opt-in ones, minus those needing a cluster when
    none is configured and the peers when their extra is not installed."""
    from langmem_es_eval.peers.postgres import peer_installed
    from langmem_es_eval.registry import SYSTEMS

    try:
        from langmem_es.settings import connection_from_env

        have_cluster = connection_from_env() is not None
    except Exception:
        have_cluster = False
    have_peers = peer_installed()
    return [
        n
        for n in SYSTEMS
        if n not in OPT_IN_SYSTEMS
        and (have_cluster or n not in CLUSTER_SYSTEMS)
        and (have_peers or n not in PEER_SYSTEMS)
    ]


_PACKAGES = (
    "langmem-es",
    "elasticsearch",
    "langgraph",
    "langchain-core",
    "langchain-elasticsearch",
    "langgraph-checkpoint-postgres",
    "numpy",
    "onnxruntime",
)


def _version(dist: str) -> str | None:
    try:
        return _metadata.version(dist)
    except _metadata.PackageNotFoundError:
        return None


def _machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
    }


def aggregate(
    rows: Sequence[dict[str, Any]],
    names: dict[int, str] = CATEGORY_NAMES,
    headline_categories: Sequence[int] = HEADLINE_CATEGORIES,
    apart: Sequence[int] = (5,),
) -> dict[str, Any]:
    """Average per-question rows (``category`` + metric values) into the result shape.

    ``overall`` averages ``headline_categories``; ``adversarial`` the categories reported
    ``apart`` (LoCoMo's category 5; none for the generated yardstick)."""
    headline = [r["metrics"] for r in rows if r["category"] in headline_categories]
    by_category: dict[str, Any] = {}
    for cat in sorted({r["category"] for r in rows}):
        m: dict[str, Any] = dict(mean_metrics(r["metrics"] for r in rows if r["category"] == cat))
        m["name"] = names.get(cat, str(cat))
        by_category[str(cat)] = m
    adversarial = mean_metrics(r["metrics"] for r in rows if r["category"] in apart)
    return {"overall": mean_metrics(headline), "by_category": by_category, "adversarial": adversarial}


def _build_systems(
    systems: Sequence[str | RetrievalSystem], context: EvalContext, errors: dict[str, str]
) -> list[RetrievalSystem]:
    built: list[RetrievalSystem] = []
    for s in systems:
        if not isinstance(s, str):
            built.append(s)
            continue
        try:
            built.append(make_system(s, context))
        except SystemUnavailable as exc:
            errors[s] = str(exc)
    return built


def _progress(total: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, unit="q", desc="eval", dynamic_ncols=True, file=sys.stderr)


def run_eval(
    dataset_path: str | os.PathLike[str],
    systems: Sequence[str | RetrievalSystem] | None = None,
    k: int = 10,
    out_dir: str | os.PathLike[str] | None = None,
    limit_conversations: int | None = None,
    progress: bool = True,
    *,
    backend: str = "sqlite",
    context: EvalContext | None = None,
    dump_misses: str | os.PathLike[str] | None = None,
    print_report: bool = True,
    stream: TextIO | None = None,
) -> dict[str, Any]:
    """Run ``systems`` on the dataset at ``dataset_path`` and return the results.

    ``dataset_path`` is a LoCoMo JSONL file or a generator spec such as ``"longconv"``
    (see :mod:`langmem_es_eval.datasets`).

    ``systems`` are names from ``SYSTEMS`` or ready objects (default:
    :func:`default_systems`). Each system indexes each conversation into a fresh space,
    then answers its questions with the top ``max(k, 10)`` turn ids. ``backend`` (or
    ``context.backend`` when a context is given) picks where our pipeline stores. A system that cannot start (no cluster, missing
    extra) or fails is reported under ``errors`` and the others go on.
    ``out_dir`` receives ``results.json`` and ``recall_by_category.png``;
    ``dump_misses`` a JSONL file with, per question, its evidence and each system's top
    ids (keep it outside the repository: it quotes the dataset).
    """
    started = time.perf_counter()
    dataset = load(dataset_path, limit_conversations)
    conversations = dataset.conversations
    context = context or EvalContext(backend=backend)
    depth = max(int(k), 10)
    errors: dict[str, str] = {}
    built = _build_systems(default_systems() if systems is None else systems, context, errors)

    warmup = _warm_embeddings(context, conversations, built, errors)
    n_questions = sum(len(c.questions) for c in conversations)
    bar = _progress(n_questions * len(built), progress)
    per_system: dict[str, dict[str, Any]] = {}
    rows: dict[str, list[dict[str, Any]]] = {}
    try:
        for system in built:
            name = system.name
            timing = {"index_s": 0.0, "search_s": 0.0, "queries": 0}
            rows[name] = []
            done_before = bar.n if bar is not None else 0
            try:
                for conv in conversations:
                    if bar is not None:
                        bar.set_description(f"{name} {conv.conv_id}")
                    t0 = time.perf_counter()
                    system.index(conv)
                    timing["index_s"] += time.perf_counter() - t0
                    rows[name].extend(_ask(system, conv, depth, k, timing, bar))
            except Exception as exc:  # one broken system must not sink the run
                errors[name] = f"{type(exc).__name__}: {exc}"
                rows.pop(name, None)
                if bar is not None:  # skip what this system will not ask
                    bar.update(done_before + n_questions - bar.n)
                continue
            finally:
                try:
                    system.close()
                except Exception:
                    pass
            result = aggregate(rows[name], dataset.category_names, dataset.headline, dataset.apart)
            q = max(timing["queries"], 1)
            result["timing"] = {
                "index_s": round(timing["index_s"], 3),
                "search_s": round(timing["search_s"], 3),
                "search_ms_mean": round(1000 * timing["search_s"] / q, 3),
            }
            result["info"] = dict(getattr(system, "info", {}) or {})
            per_system[name] = result
    finally:
        if bar is not None:
            bar.close()

    results: dict[str, Any] = {
        "metadata": _metadata_block(dataset, context, k, limit_conversations, context.backend),
        "systems": per_system,
        "errors": errors,
    }
    results["metadata"]["embedding_warmup"] = warmup
    results["metadata"]["runtime_s"] = round(time.perf_counter() - started, 2)

    if dump_misses is not None:
        _dump_questions(Path(dump_misses), dataset, rows)
    if out_dir is not None:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(results, indent=2, sort_keys=False) + "\n")
        if per_system:
            try:
                plot_recall_by_category(results, out / "recall_by_category.png")
            except ImportError:
                print("langmem-es eval: no plot: pip install 'langmem-es[eval]' (matplotlib)", file=sys.stderr)
    if print_report:
        print_results(results, stream=stream)
    return results


def _warm_embeddings(
    context: EvalContext,
    conversations: list[Conversation],
    systems: Sequence[RetrievalSystem],
    errors: dict[str, str],
) -> dict[str, Any] | None:
    """Embed every turn and question once, up front, so no system's timings carry the
    shared embedding cost (systems embedding other texts still pay for those)."""
    if not any(getattr(s, "needs_embeddings", True) for s in systems):
        return None
    texts = [t.memory_text for c in conversations for t in c.turns]
    questions = [q.question for c in conversations for q in c.questions]
    t0 = time.perf_counter()
    try:
        context.embeddings.embed_documents(texts)
        for q in questions:
            context.embeddings.embed_query(q)
    except Exception as exc:  # systems that embed will report the failure themselves
        errors.setdefault("embeddings", f"{type(exc).__name__}: {exc}")
        return None
    seconds = time.perf_counter() - t0
    return {
        "documents": len(texts),
        "queries": len(questions),
        "seconds": round(seconds, 2),
        "per_text_ms": round(1000 * seconds / max(len(texts) + len(questions), 1), 3),
    }


def _ask(
    system: RetrievalSystem,
    conv: Conversation,
    depth: int,
    k: int,
    timing: dict[str, Any],
    bar: Any,
) -> list[dict[str, Any]]:
    out = []
    for q in conv.questions:
        t0 = time.perf_counter()
        ranked = dedupe(system.search(conv.conv_id, q.question, depth))[:depth]
        timing["search_s"] += time.perf_counter() - t0
        timing["queries"] += 1
        metrics = question_metrics(ranked, q.evidence)
        pool = getattr(system, "candidates", None)
        if callable(pool):  # candidate recall of the fused list, outside the search timing
            for n in CANDIDATE_DEPTHS:
                metrics[f"cand@{n}"] = recall_at_k(pool(conv.conv_id, q.question, n), q.evidence, n)
        if k not in (5, 10):
            metrics[f"recall@{k}"] = len(set(q.evidence) & set(ranked[:k])) / len(set(q.evidence))
        out.append(
            {"qid": q.qid, "conv_id": conv.conv_id, "category": q.category, "ranked": ranked[:10], "metrics": metrics}
        )
        if bar is not None:
            bar.update(1)
    return out


def _metadata_block(
    dataset: Dataset,
    context: EvalContext,
    k: int,
    limit: int | None,
    backend: str,
) -> dict[str, Any]:
    conversations = dataset.conversations
    counts: dict[str, int] = {}
    for c in conversations:
        for q in c.questions:
            counts[str(q.category)] = counts.get(str(q.category), 0) + 1
    return {
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": _machine(),
        "versions": {p: _version(p) for p in _PACKAGES},
        "dataset": {
            # by name and checksum: no path of the machine that ran it in saved results
            "kind": dataset.name,
            **dataset.meta,
            "conversations": [c.conv_id for c in conversations],
            "turns": sum(len(c.turns) for c in conversations),
            "questions_by_category": dict(sorted(counts.items())),
            "limit_conversations": limit,
        },
        "embedder": describe_embeddings(context.embeddings) if context.embeddings_loaded else None,
        "k": k,
        "backend": backend,
        "protocol": "../shared/data/README.md: one memory per turn '{speaker}: {text}' "
        "[+ ' [shares image: {caption}]'], question text as query, top 10 turn ids",
        "headline_categories": list(dataset.headline),
        "categories": {str(c): n for c, n in dataset.category_names.items()},
        "options": {k: v if isinstance(v, (str, int, float, bool)) else repr(v) for k, v in context.options.items()},
        "timing_note": "turn and question embeddings are computed once, up front "
        "(embedding_warmup), and shared by every system: index_s and search ms/q exclude "
        "them; texts a system embeds beyond those are in its own timings",
    }


def _dump_questions(path: Path, dataset: Dataset, rows: dict[str, list[dict[str, Any]]]) -> None:
    conversations = dataset.conversations
    by_q: dict[str, dict[str, dict[str, Any]]] = {}
    for name, rs in rows.items():
        for r in rs:
            by_q.setdefault(r["qid"], {})[name] = {
                "top10": r["ranked"],
                "recall@10": r["metrics"]["recall@10"],
            }
    repo = Path(__file__).resolve().parents[2]
    if repo in path.resolve().parents:
        print(f"warning: {path} is inside the repository; keep dataset excerpts out of it", file=sys.stderr)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for conv in conversations:
            texts = {t.turn_id: t.memory_text for t in conv.turns}
            for q in conv.questions:
                fh.write(
                    json.dumps(
                        {
                            "qid": q.qid,
                            "conv_id": conv.conv_id,
                            "category": q.category,
                            "category_name": dataset.category_names.get(q.category, ""),
                            "question": q.question,
                            "answer": q.answer,
                            "evidence": list(q.evidence),
                            "evidence_text": {e: texts.get(e) for e in q.evidence},
                            "missed_by": [name for name, r in by_q.get(q.qid, {}).items() if r["recall@10"] < 1.0],
                            "systems": by_q.get(q.qid, {}),
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
