"""What the learned ranker adds to a recall: the rules alone against the learned ranker.

One process, one store, two arms asked the same questions in turn (the order alternated every
round, after every question was asked once by each arm so that both read warm caches): the rules
alone (``ranker="rules"``) and the learned ranker. Prints p50/p95 of the whole recall, of its rank
stage (``timings_ms["rerank"]``) and the recall's CPU time per arm, with the machine's load.
``langmem-es bench --ranker-cost`` is the same A/B on a generated conversation only. (Until
session 39 a third arm ran the ranker as it was before session 31 made it cheaper,
``tests/unit/rank_reference.py``; that reference computes 40 of today's 44 features.)

    python scripts/ranker_ab.py --backend sqlite --locomo ../shared/data/locomo-dev.jsonl
    python scripts/ranker_ab.py --backend elasticsearch   # a generated long conversation
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ARMS = ("rules", "learned")


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)


def run(backend: str, locomo: str | None, rounds: int, questions: int) -> None:
    from langmem_es_eval.longconv import generate
    from langmem_es_eval.pipeline import MemoryPipelineSystem
    from langmem_es_eval.systems import EvalContext

    if locomo:
        from langmem_es_eval.locomo import load_dataset

        conv = load_dataset(locomo, limit_conversations=1)[0]
    else:
        [conv] = generate(seed=1, conversations=1, scale=0.25)
    system = MemoryPipelineSystem(EvalContext(backend=backend), mode="full")
    try:
        system.index(conv)
        identity = system._identity(conv.conv_id)
        asked = [q.question for q in conv.questions][:questions]
        core = system.core
        configs = {"rules": dataclasses.replace(core.config, ranker="rules"), "learned": core.config}
        for name in ARMS:
            core.config = configs[name]
            for q in asked:
                core.recall(identity, q, kinds=["episodic"], k=10)
        total: dict[str, list[float]] = {n: [] for n in ARMS}
        stage: dict[str, list[float]] = {n: [] for n in ARMS}
        cpu: dict[str, list[float]] = {n: [] for n in ARMS}
        loads = []
        for r in range(rounds):
            order = ARMS if r % 2 == 0 else ARMS[::-1]
            loads.append(os.getloadavg()[0])
            for q in asked:
                for name in order:
                    core.config = configs[name]
                    wall, proc = time.perf_counter(), time.process_time()
                    result = core.recall(identity, q, kinds=["episodic"], k=10)
                    cpu[name].append((time.process_time() - proc) * 1000)
                    total[name].append((time.perf_counter() - wall) * 1000)
                    stage[name].append(result.timings_ms.get("rerank", 0.0))
        print(
            f"{backend} ({conv.conv_id}, {len(conv.turns)} turns): {len(total['rules'])} recalls an arm, "
            f"load {min(loads):.2f}-{max(loads):.2f}"
        )
        for n in ARMS:
            print(
                f"  {n:15s} recall p50 {_pct(total[n], 0.5)} p95 {_pct(total[n], 0.95)} ms | "
                f"rank stage p50 {_pct(stage[n], 0.5)} p95 {_pct(stage[n], 0.95)} ms | "
                f"recall CPU p50 {_pct(cpu[n], 0.5)} ms"
            )
    finally:
        system.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "elasticsearch", "both"], default="sqlite")
    parser.add_argument("--locomo", help="a LoCoMo JSONL file: its first conversation (default: a generated one)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--questions", type=int, default=150)
    args = parser.parse_args()
    for backend in ("sqlite", "elasticsearch") if args.backend == "both" else (args.backend,):
        run(backend, args.locomo, args.rounds, args.questions)


if __name__ == "__main__":
    main()
