"""``langmem-es train-ranker``: collect the candidates, cross-validate by conversation, train, ship.

    langmem-es train-ranker                       # LoCoMo dev split + generated long conversations
    langmem-es train-ranker --cv-only             # the figures, no model written

The training data are the LoCoMo development split (read from ``../shared/data``, never
copied) and conversations of the long-conversation generator (seeds given by
``--longconv-seeds``; the seeds a model was trained on are recorded, so its figures on
other seeds are figures on unseen data). The figures printed — and stored in the model's
``ranker.json`` — are cross-validated: a conversation is only ever ranked by a model trained
without it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from langmem_es_eval.longconv_threads import FAMILIES

__all__ = ["register", "run_command"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``train-ranker`` subcommand to an ``argparse`` subparsers object."""
    parser = subparsers.add_parser(
        "train-ranker",
        help="train the learned ranker of recall (cross-validated by conversation)",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument("--dataset", default=None, help="LoCoMo JSONL (default: ../shared/data/locomo-dev.jsonl)")
    parser.add_argument(
        "--longconv-seeds",
        default=None,
        help="seeds of generated long conversations added to the training data ('' for none; default: "
        "the shipped model's, 1-12)",
    )
    parser.add_argument("--longconv-conversations", type=int, default=4, help="conversations per seed (default 4)")
    parser.add_argument(
        "--longconv-families",
        choices=FAMILIES,
        default="all",
        help="template families of the generated conversations (default all; 'a' trains on one half, "
        "so that conversations of 'b' measure phrasings it never saw)",
    )
    parser.add_argument("--rounds", type=int, default=None, help="boosting rounds (default: the shipped model's)")
    parser.add_argument("--cv-only", action="store_true", help="print the cross-validated figures; write no model")
    parser.add_argument("--out", default=None, help="model file (default: the package's langmem_es/rank/ranker.txt)")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="collect again instead of reading the cache (~/.cache/langmem-es/ranker-data)",
    )
    parser.set_defaults(func=run_command)
    return parser


def run_command(args: argparse.Namespace) -> int:
    from langmem_es.core.config import MemoryConfig
    from langmem_es.rank.features import FEATURES
    from langmem_es.rank.model import MODEL_FILE
    from langmem_es_eval.cli import default_dataset
    from langmem_es_eval.ranker_data import TRAINING_SEEDS, collected, data_hash, training_spec
    from langmem_es_eval.ranker_train import DEFAULT_PARAMS, ROUNDS, cross_validate, fit, merge

    spec = args.dataset or default_dataset()
    if spec is None:
        print(
            "langmem-es train-ranker: no dataset: pass --dataset or put ../shared/data/locomo-dev.jsonl",
            file=sys.stderr,
        )
        return 2
    window = MemoryConfig().rerank_window
    try:
        seeds = (
            list(TRAINING_SEEDS)
            if args.longconv_seeds is None
            else [int(s) for s in str(args.longconv_seeds).split(",") if s.strip()]
        )
    except ValueError:
        print(
            f"langmem-es train-ranker: --longconv-seeds must be integers, got {args.longconv_seeds!r}", file=sys.stderr
        )
        return 2
    use_cache = not args.no_cache
    rounds = ROUNDS if args.rounds is None else args.rounds
    locomo = collected(str(spec), window, use_cache)
    generated = [
        collected(training_spec(s, args.longconv_conversations, args.longconv_families), window, use_cache)
        for s in seeds
    ]
    report: dict[str, Any] = {}
    cv = cross_validate(locomo, rounds=rounds, extra=generated)
    report["locomo_dev_cv"] = {"rules": cv["rules"], "learned": cv["learned"]}
    print(
        "LoCoMo dev split, leave-one-conversation-out (recall@10 of categories 1-4; per category: recall, questions):"
    )
    for name in ("rules", "learned"):
        print(f"  {name:8s} {cv[name]['recall@10']:.4f}  by category {cv[name]['by_category']}")
    if generated:
        gen = merge(generated)
        from langmem_es_eval.longconv import HEADLINE_CATEGORIES

        cv_gen = cross_validate(gen, rounds=rounds, extra=[locomo], headline=HEADLINE_CATEGORIES)
        report["longconv_cv"] = {"rules": cv_gen["rules"], "learned": cv_gen["learned"]}
        print("generated long conversations (seeds above), leave-one-conversation-out (all categories):")
        for name in ("rules", "learned"):
            print(f"  {name:8s} {cv_gen[name]['recall@10']:.4f}  by category {cv_gen[name]['by_category']}")
    if args.cv_only:
        return 0
    everything = merge([locomo, *generated])
    model = fit(everything, everything.y >= 0, rounds=rounds)
    out = Path(args.out) if args.out else MODEL_FILE
    import lightgbm

    out.write_text(model.model_to_string(), encoding="utf-8")
    meta: dict[str, Any] = {
        "features": list(FEATURES),
        "data_sha256": data_hash(locomo.source, *(g.source for g in generated)),
        "trained_on": {
            "locomo": str(Path(spec).name),
            "longconv_seeds": seeds,
            "longconv_families": args.longconv_families,
            "window": window,
        },
        "params": DEFAULT_PARAMS,
        "rounds": rounds,
        "lightgbm": lightgbm.__version__,
        "cross_validated": report,
    }
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} and {out.with_suffix('.json').name} (data {meta['data_sha256'][:12]})")
    return 0
