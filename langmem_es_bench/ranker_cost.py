"""``langmem-es bench --ranker-cost``: what the learned ranker adds to a recall, as an A/B.

One generated long conversation (``langmem_es_eval.longconv``, our own text) is ingested by the
full pipeline; its questions are then recalled with the learned ranker and with the rules
alone, alternating query by query (the order flipped every round), after every query was
asked once so that both sides read warm caches. Prints p50/p95 of the whole recall and of its
rank stage for each side, and the machine's load.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["run_ranker_cost"]


def _pct(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)


def run_ranker_cost(
    backend: str = "sqlite",
    *,
    rounds: int = 2,
    questions: int = 150,
    scale: float = 0.25,
    say: Callable[[str], None] = print,
) -> dict[str, Any]:
    """p50/p95 (ms) of recall with ``ranker="learned"`` and ``ranker="rules"`` on one backend."""
    from langmem_es_eval.longconv import generate
    from langmem_es_eval.pipeline import MemoryPipelineSystem
    from langmem_es_eval.systems import EvalContext

    [conv] = generate(seed=1, conversations=1, scale=scale)
    system = MemoryPipelineSystem(EvalContext(backend=backend), mode="full")
    try:
        say(f"ranker cost: ingesting {len(conv.turns)} turns ({backend}) ...")
        system.index(conv)
        identity = system._identity(conv.conv_id)
        asked = [q.question for q in conv.questions][:questions]
        core = system.core
        sides = {"learned": core.config, "rules": dataclasses.replace(core.config, ranker="rules")}
        for q in asked:  # both sides then read warm caches (query vectors, per-text facts)
            core.recall(identity, q, kinds=["episodic"], k=10)
        total: dict[str, list[float]] = {name: [] for name in sides}
        stage: dict[str, list[float]] = {name: [] for name in sides}
        for r in range(rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for q in asked:
                for name in order:
                    core.config = sides[name]
                    started = time.perf_counter()
                    result = core.recall(identity, q, kinds=["episodic"], k=10)
                    total[name].append((time.perf_counter() - started) * 1000)
                    stage[name].append(result.timings_ms.get("rerank", 0.0))
        out: dict[str, Any] = {"backend": backend, "recalls": len(total["learned"]), "load": os.getloadavg()[0]}
        for name in sides:
            out[name] = {
                "p50_ms": _pct(total[name], 0.5),
                "p95_ms": _pct(total[name], 0.95),
                "rank_stage_p50_ms": _pct(stage[name], 0.5),
                "rank_stage_p95_ms": _pct(stage[name], 0.95),
            }
        say(
            f"ranker cost ({backend}, {out['recalls']} recalls a side, load {out['load']:.2f}): "
            + "; ".join(
                f"{n} p50 {out[n]['p50_ms']} ms, p95 {out[n]['p95_ms']} ms (rank stage p50 {out[n]['rank_stage_p50_ms']})"
                for n in sides
            )
        )
        return out
    finally:
        system.close()
