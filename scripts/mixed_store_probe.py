"""A user's facts among many events: is each fact still found first? (issue 44, session 41)

The small-store profiles of ``tests/scenarios/test_small_store_recall.py`` (a user's facts and a
few events, questions in other words) are loaded into a store that also holds N events of the
bench's synthetic corpus (device errors, bookings, incidents …, "The user" as "me"), and each
question is asked of our recall and of a plain dense search over the same memories.

    python scripts/mixed_store_probe.py --noise 200

Session 41 (SQLite): with 200 events the learned ranker orders the events and the facts keep the
rules' places, where a text match on one everyday word ("for a living" → "… the living room")
comes before the fact the dense leg ranks first — first for 13 / 15 / 18 questions of the three
profiles against plain dense's 13 / 21 / 21 (17 or 18 for the third, by ties).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import uuid
from pathlib import Path

import numpy as np

from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.core import MemoryCore, Policy
from langmem_es.model import Identity
from langmem_es_bench.corpus import corpus

ROOT = Path(__file__).resolve().parents[1]


def _profiles() -> dict[str, dict[str, list[tuple[str, str]]]]:
    path = ROOT / "tests" / "scenarios" / "test_small_store_recall.py"
    spec = importlib.util.spec_from_file_location("small_store_profiles", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {"first": module.FIRST, "second": module.SECOND, "third": module.THIRD}


def _figures(ranks: list[int]) -> str:
    first, top3 = sum(r == 1 for r in ranks), sum(r <= 3 for r in ranks)
    return f"first {first:2d}  top 3 {top3:2d}  MRR {np.mean([1 / r for r in ranks]):.3f}"


def probe(profile: dict[str, list[tuple[str, str]]], noise: list[str]) -> tuple[list[int], list[int]]:
    backend = SQLiteBackend(":memory:", prefix=f"probe_{uuid.uuid4().hex[:8]}")
    backend.setup()
    core = MemoryCore(backend, rules=Policy())
    me = Identity(tenant="probe", user_id="alice", agent_id="assistant")
    if noise:
        core.remember_many(me, [{"content": t} for t in noise], kind="episodic")
    for fact, _ in profile["facts"]:
        core.remember(me, fact, reason="Helps personalise answers.")
    for event, _ in profile["events"]:
        core.remember(me, event, kind="episodic")
    pairs = [*profile["facts"], *profile["events"]]
    texts = noise + [t for t, _ in pairs]
    embeddings = core._ctx.embeddings  # the same embedder for the plain dense search
    matrix = np.asarray(embeddings.embed_documents(texts))
    ours, dense = [], []
    for text, question in pairs:
        got = [m.memory.content for m in core.recall(me, question, k=10).memories]
        ours.append(got.index(text) + 1 if text in got else 11)
        order = list(np.argsort(-(matrix @ np.asarray(embeddings.embed_query(question)))))
        dense.append(min(order.index(texts.index(text)) + 1, 11))
    return ours, dense


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--noise", type=int, default=200, help="events of the bench corpus beside the profile")
    args = parser.parse_args(argv)
    noise = [it.text.replace("The user's", "My").replace("the user", "me") for it in corpus(args.noise)]
    for name, profile in _profiles().items():
        ours, dense = probe(profile, noise if args.noise else [])
        print(f"{name:6s} ours: {_figures(ours)}   plain dense: {_figures(dense)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
