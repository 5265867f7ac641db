"""The ``eval`` subcommand: ``langmem-es eval [--dataset PATH] [--systems ...] ...``.

The main CLI calls :func:`register` with its ``subparsers``; the parsed namespace
carries ``func``, which runs the command and returns the exit code::

    args = parser.parse_args()
    sys.exit(args.func(args))

Until then: ``python -m langmem_es_eval [options]``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["DATASET_NAME", "default_dataset", "main", "register", "run_command"]

DATASET_NAME = "locomo-dev.jsonl"
_RELATIVE = Path("..") / "shared" / "data" / DATASET_NAME


def _repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def default_dataset(cwd: Path | None = None) -> Path | None:
    """``$LANGMEM_ES_EVAL_DATASET``, else ``../shared/data/locomo-dev.jsonl`` next to the
    current directory or the repository root, when present."""
    env = os.environ.get("LANGMEM_ES_EVAL_DATASET")
    if env:
        return Path(env)
    for base in (cwd or Path.cwd(), _repo_root()):
        candidate = (base / _RELATIVE).resolve()
        if candidate.is_file():
            return candidate
    return None


def _systems_arg(value: str) -> list[str]:
    """Split ``--systems``; names are checked against the registry when the command runs."""
    return [v.strip() for v in value.split(",") if v.strip()]


def _resolve_systems(names: list[str] | None) -> list[str] | None:
    from langmem_es_eval.registry import SYSTEMS

    if names is None:
        return None
    if names == ["all"]:
        return list(SYSTEMS)
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown:
        raise ValueError(f"unknown system(s) {', '.join(unknown)}; known: {', '.join(SYSTEMS)}, or 'all'")
    return names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dataset",
        type=str,
        default=None,
        help=f"LoCoMo JSONL file (default: {_RELATIVE} when present), or the "
        "generated long-conversation yardstick: 'longconv' or "
        "'longconv:seed=N,conversations=N,scale=F,max_chars=N,version=V,families=all|a|b'",
    )
    parser.add_argument(
        "--systems",
        type=_systems_arg,
        default=None,
        help="comma-separated names, or 'all' (see --list-systems; default: "
        "every system but the opt-in variants, langchain_es only when "
        "a cluster is configured, postgres (LangGraph's PostgresStore on a "
        "PostgreSQL the run starts) only with langmem-es[peers] installed)",
    )
    parser.add_argument("--list-systems", action="store_true", help="print the registered systems and exit")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("eval-results"),
        help="directory for results.json and recall_by_category.png (default: ./eval-results)",
    )
    parser.add_argument(
        "--limit-conversations", type=int, default=None, metavar="N", help="only the first N conversations"
    )
    parser.add_argument(
        "--backend",
        choices=("sqlite", "elasticsearch"),
        default="sqlite",
        help="backend of the langmem_es pipeline (baselines ignore it)",
    )
    parser.add_argument("-k", type=int, default=10, help="retrieval depth (default 10)")
    parser.add_argument(
        "--dump-misses",
        type=Path,
        default=None,
        metavar="FILE",
        help="write per-question JSONL (question, category, evidence, each "
        "system's top 10); keep it outside the repository",
    )
    parser.add_argument(
        "--bm25-tokenizer",
        choices=("simple", "standard"),
        default="simple",
        help="tokens of the numpy BM25 (bm25, hybrid_rrf): 'simple' splits on "
        "non-alphanumerics; 'standard' also keeps word-internal ' and . "
        "like Elasticsearch's standard tokenizer",
    )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a MemoryConfig setting of our pipeline for this run, e.g. "
        "--set second_hop=true (repeatable; recorded in results)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--ranker-cv",
        action="store_true",
        help="rank each conversation with a learned ranker trained without it (cross-validated figures "
        "on a dataset the shipped model was trained on; see `langmem-es train-ranker`)",
    )


def _settings(pairs: list[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` → ``{"a": "1", "b": "x"}``; names are checked against MemoryConfig."""
    from langmem_es.core import MemoryConfig

    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in MemoryConfig.__dataclass_fields__:
            raise ValueError(f"--set {pair!r}: expected KEY=VALUE with a MemoryConfig field as KEY")
        out[key] = value
    return out


def run_command(args: argparse.Namespace) -> int:
    """Run the evaluation from parsed arguments; return the exit code."""
    from langmem_es_eval.registry import SYSTEMS
    from langmem_es_eval.runner import OPT_IN_SYSTEMS, run_eval
    from langmem_es_eval.systems import EvalContext

    if getattr(args, "list_systems", False):
        for name in SYSTEMS:
            print(f"{name}{'  (opt-in)' if name in OPT_IN_SYSTEMS else ''}")
        return 0
    try:
        systems = _resolve_systems(args.systems)
    except ValueError as exc:
        print(f"langmem-es eval: {exc}", file=sys.stderr)
        return 2
    from langmem_es_eval.datasets import is_dataset

    dataset = args.dataset or default_dataset()
    if dataset is None or not is_dataset(dataset):
        where = dataset or f"{_RELATIVE} (from {Path.cwd()} or {_repo_root()})"
        print(
            f"langmem-es eval: dataset not found: {where}; pass --dataset PATH "
            f"(the LoCoMo JSONL described in ../shared/data/README.md)",
            file=sys.stderr,
        )
        return 2
    if args.limit_conversations is not None and args.limit_conversations < 1:
        print("langmem-es eval: --limit-conversations must be >= 1", file=sys.stderr)
        return 2
    try:
        from langmem_es_eval.longconv import is_spec, parse_spec

        if is_spec(dataset):
            parse_spec(dataset)
    except ValueError as exc:
        print(f"langmem-es eval: {exc}", file=sys.stderr)
        return 2
    try:
        settings = _settings(getattr(args, "settings", []))
    except ValueError as exc:
        print(f"langmem-es eval: {exc}", file=sys.stderr)
        return 2
    folds = None
    if getattr(args, "ranker_cv", False):
        from langmem_es_eval.ranker_folds import FoldModels

        folds = FoldModels(str(dataset))
    results: dict[str, Any] = run_eval(
        dataset,
        systems=systems,
        k=args.k,
        out_dir=args.out,
        limit_conversations=args.limit_conversations,
        progress=not args.no_progress,
        backend=args.backend,
        context=EvalContext(
            backend=args.backend,
            options={
                "bm25_tokenizer": getattr(args, "bm25_tokenizer", "simple"),
                **settings,
                **({"ranker_folds": folds} if folds is not None else {}),
            },
        ),
        dump_misses=args.dump_misses,
    )
    written = [Path(args.out) / n for n in ("results.json", "recall_by_category.png")]
    print("wrote " + " and ".join(str(p) for p in written if p.is_file()))
    if args.dump_misses:
        print(f"wrote {args.dump_misses}")
    return 1 if results["errors"] and not results["systems"] else 0


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``eval`` subcommand to an ``argparse`` subparsers object."""
    parser = subparsers.add_parser(
        "eval",
        help="run the LoCoMo retrieval protocol, systems side by side",
        description="Run the LoCoMo retrieval protocol (../shared/data/README.md) on each "
        "system; print recall@5/@10, hit@10, MRR@10, nDCG@10 (categories 1-4), "
        "recall@10 per category, category 5 apart; write results.json and a PNG.",
    )
    add_arguments(parser)
    parser.set_defaults(func=run_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry point (``python -m langmem_es_eval``)."""
    parser = argparse.ArgumentParser(prog="python -m langmem_es_eval")
    add_arguments(parser)
    return run_command(parser.parse_args(argv))
