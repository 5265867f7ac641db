"""Write → visible latency through the memory tools, on the embedded and the Elasticsearch backend.

What an agent does within one turn: ``remember`` a fact, then ``recall`` it in the next tool
call. For each of N facts this measures the ``remember`` call, and the time from the start of
``remember`` until a ``recall`` result cites the new memory id (recall is retried until it does;
with synchronous writes the first recall should already see it). Prints p50/p95 per backend.

    python -m langmem_es_bench.same_turn [-n 50] [--backend sqlite|elasticsearch|both]

Elasticsearch comes from the environment (``LANGMEM_ES_URL`` …, or ``langmem-es es start``);
indices are created under a fresh prefix and deleted afterwards.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from langmem_es_bench.stats import percentile

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

DEVICES = ["thermostat", "smart plug", "door sensor", "camera", "speaker", "light strip", "robot vacuum", "hub"]
ROOMS = ["kitchen", "hallway", "garage", "attic", "bedroom", "study", "porch", "cellar"]


def run(store: Any, n: int, label: str) -> dict[str, Any]:
    from langmem_es.tools import create_memory_tools

    remember, recall, *_ = create_memory_tools(store)
    cfg: RunnableConfig = {
        "configurable": {"tenant_id": f"bench-{uuid.uuid4().hex[:6]}", "user_id": "sam", "thread_id": "t"}
    }
    # warm up: setup, embedding model, first queries
    remember.invoke(
        {"content": "The user has a warm-up gadget.", "reason": "Warm-up.", "subject_key": "warmup"}, config=cfg
    )
    recall.invoke({"query": "warm-up gadget"}, config=cfg)
    write_ms, visible_ms, recall_ms, first_try = [], [], [], 0
    for i in range(n):
        device, room = DEVICES[i % len(DEVICES)], ROOMS[(i // len(DEVICES)) % len(ROOMS)]
        tag = uuid.uuid4().hex[:6]
        t0 = time.perf_counter()
        out = remember.invoke(
            {
                "content": f"The user put a {device} ({tag}) in the {room}.",
                "reason": "Device support needs the user's devices.",
                "subject_key": f"user.devices.{tag}",
            },
            config=cfg,
        )
        t1 = time.perf_counter()
        mid = out.split("[semantic ")[1].split("]")[0]
        tries = 0
        while True:
            tries += 1
            t2 = time.perf_counter()
            found = recall.invoke({"query": f"where is the user's {device} {tag}?", "kinds": ["semantic"]}, config=cfg)
            t3 = time.perf_counter()
            if mid in found:
                break
            if t3 - t0 > 10:
                raise RuntimeError(f"{label}: memory {mid} not visible after 10 s")
        first_try += tries == 1
        write_ms.append((t1 - t0) * 1000)
        recall_ms.append((t3 - t2) * 1000)
        visible_ms.append((t3 - t0) * 1000)
    return {
        "backend": label,
        "n": n,
        "first_try": first_try,
        "write": (percentile(write_ms, 50), percentile(write_ms, 95)),
        "recall": (percentile(recall_ms, 50), percentile(recall_ms, 95)),
        "visible": (percentile(visible_ms, 50), percentile(visible_ms, 95)),
        "mean_visible": statistics.fmean(visible_ms),
    }


def sqlite_store() -> tuple[Any, Callable[[], None]]:
    from langmem_es.store import SQLiteMemoryStore

    store = SQLiteMemoryStore()
    return store, store.close


def es_store() -> tuple[Any, Callable[[], None]]:

    from langmem_es.settings import require_connection
    from langmem_es.store import ElasticsearchMemoryStore

    client = require_connection().client(request_timeout=30)
    prefix = f"bench-same-turn-{uuid.uuid4().hex[:8]}"
    store = ElasticsearchMemoryStore(client, prefix=prefix)

    def close() -> None:
        try:  # the indices of this run, by their prefix (no reach into the store)
            client.indices.delete(index=f"{prefix}-*", expand_wildcards="all", allow_no_indices=True)
        finally:
            client.close()

    return store, close


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=50, help="facts per backend (default: %(default)s)")
    parser.add_argument("--backend", choices=("sqlite", "elasticsearch", "both"), default="both")
    args = parser.parse_args(argv)
    rows = []
    for label, factory in (("sqlite", sqlite_store), ("elasticsearch", es_store)):
        if args.backend not in (label, "both"):
            continue
        try:
            store, close = factory()
        except Exception as exc:  # noqa: BLE001 - report and go on with the other backend
            print(f"{label}: unavailable ({type(exc).__name__}: {exc})", file=sys.stderr)
            continue
        try:
            rows.append(run(store, args.n, label))
        finally:
            close()
    print("\nwrite → visible through the tools (remember, then recall until it cites the new id); ms")
    print(
        f"{'backend':<14}{'n':>4}{'remember p50/p95':>20}{'recall p50/p95':>18}{'write→visible p50/p95':>25}"
        f"{'visible on 1st recall':>24}"
    )
    for r in rows:
        print(
            f"{r['backend']:<14}{r['n']:>4}{r['write'][0]:>11.1f} /{r['write'][1]:>6.1f}"
            f"{r['recall'][0]:>10.1f} /{r['recall'][1]:>6.1f}{r['visible'][0]:>16.1f} /{r['visible'][1]:>6.1f}"
            f"{r['first_try']:>17}/{r['n']}"
        )
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
