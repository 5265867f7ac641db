"""``langmem-es bench``: the performance benchmarks, printed, saved, and written to the docs.

    langmem-es bench --backend both --docs docs/benchmarks.md     # the full run (~25 min)
    langmem-es bench --backend sqlite --smoke                     # CI: tiny sizes, < 1 min
    langmem-es bench --backend both --sizes 1k,10k --tenants 100  # a small run (~10 min)

The report ends with the issue-13 ratio targets (pre-recall p95 ÷ langchain-elasticsearch,
write→visible ÷ add_texts, slowest ÷ median recall, ingest ÷ embedder, SQLite largest ÷
smallest), the requests one recall and one superseding write send, and the load average.
    langmem-es bench --report-only bench-results/results.json --docs docs/benchmarks.md

The main CLI calls :func:`register` with its subparsers; heavy modules are imported in
the handler so ``langmem-es --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

__all__ = ["main", "register", "run_command"]


def _sizes(value: str) -> list[int]:
    try:
        sizes = sorted({int(v.replace("_", "").replace("k", "000")) for v in value.split(",") if v.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"--sizes wants comma-separated integers, got {value!r}") from None
    if not sizes or sizes[0] < 10:
        raise argparse.ArgumentTypeError("--sizes must be integers >= 10")
    return sizes


def _size(value: str) -> int:
    """One corpus size (``10k`` reads as 10,000)."""
    try:
        [size] = _sizes(value)
    except (argparse.ArgumentTypeError, ValueError):
        raise argparse.ArgumentTypeError(f"--paired wants one size >= 10 (e.g. 10k), got {value!r}") from None
    return size


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--backend",
        choices=("sqlite", "elasticsearch", "both"),
        default="both",
        help="backend(s) of langmem-es (default: %(default)s); langchain-elasticsearch runs with elasticsearch",
    )
    p.add_argument(
        "--sizes",
        type=_sizes,
        default=None,
        help="corpus sizes for one tenant (default: 1000,10000,100000; smoke: 100,300)",
    )
    p.add_argument(
        "--tenants",
        type=int,
        default=None,
        help="tenants sharing the largest corpus (default: 1000; smoke: 10; 0 or 1 skips)",
    )
    p.add_argument("--queries", type=_count, default=None, help="timed queries per point (default: 100)")
    p.add_argument("--writes", type=_count, default=None, help="timed writes and write→visible probes (default: 50)")
    p.add_argument(
        "--paired-queries",
        type=_count,
        default=None,
        help="timed pre-recalls of each system per side-by-side point (default: 300)",
    )
    p.add_argument(
        "--paired-writes",
        type=_count,
        default=None,
        help="remember→visible probes of each system side by side (default: 150)",
    )
    p.add_argument(
        "--ingest", type=_count, default=None, help="texts in the real-embedding ingest slice (default: 500)"
    )
    p.add_argument(
        "--no-competitors", action="store_true", help="skip LangGraph InMemoryStore and langchain-elasticsearch"
    )
    p.add_argument(
        "--peers",
        type=_peers,
        default=None,
        help="peer stores measured beside langmem-es, comma-separated, or 'none': 'postgres' (LangGraph's "
        "PostgresStore on a PostgreSQL with pgvector the run starts; pip install 'langmem-es[peers]'). "
        "Default: every installed peer in a full run, none with --smoke or --no-competitors",
    )
    p.add_argument("--smoke", action="store_true", help="tiny sizes (CI): figures printed, nothing asserted")
    p.add_argument(
        "--out", type=Path, default=Path("bench-out"), help="folder for results.json and plots (default: ./bench-out)"
    )
    p.add_argument(
        "--docs",
        type=Path,
        default=None,
        help="also write this markdown report (e.g. docs/benchmarks.md) with plots in its img/",
    )
    p.add_argument(
        "--paired",
        type=_size,
        default=None,
        metavar="SIZE",
        help="only the interleaved pre-recall of langmem-es (Elasticsearch) and langchain-elasticsearch on one "
        "SIZE-memory corpus, queries alternating (--paired-queries each, default 300), after warming the cluster as the full run does "
        "(--smoke: 5 recalls), then --paired-writes remember→visible probes of each in turns (default none here); "
        "writes paired.json in --out",
    )
    p.add_argument(
        "--ranker-cost",
        action="store_true",
        help="only the learned ranker's cost: recall with and without it, alternating, on one generated "
        "conversation per --backend (--queries questions, default 150); writes ranker_cost.json in --out",
    )
    p.add_argument(
        "--concurrency",
        type=_levels,
        default=None,
        metavar="LEVELS",
        help="only the concurrency point: N concurrent callers for each N of LEVELS (e.g. 1,8,32) through the "
        "async core and the HTTP server on each --backend, beside langchain-elasticsearch, the plain hybrid "
        "requests and --peers; reads only, then 70%% reads; with the CPU of one recall and one write by stage. "
        "Corpus: the first --sizes (default 10k) over --tenants (default 10); --seconds a run; writes concurrency.json",
    )
    p.add_argument(
        "--long-content",
        type=float,
        default=None,
        metavar="MB",
        help="only the long-content point: the embedder's batching on short and long texts, and a generated "
        "conversation of about MB megabytes ingested on each --backend beside the embedder alone on the same "
        "texts; writes long_content.json",
    )
    p.add_argument(
        "--million",
        type=_size_or_million,
        nargs="?",
        const=1_000_000,
        default=None,
        metavar="N",
        help="only the scale point: N memories (default 1,000,000) over --tenants tenants (default 10,000) on one "
        "Elasticsearch node beside langchain-elasticsearch, from cached vectors of at most 100k distinct texts; "
        "pre-recall at N/10 and N, write→visible, bytes per memory (start the cluster with --heap 2g or more); "
        "writes million.json",
    )
    p.add_argument(
        "--three-nodes",
        action="store_true",
        help="with --million: the same corpus also on a three-node local cluster with one replica (started and stopped)",
    )
    p.add_argument(
        "--seconds", type=float, default=None, help="seconds of each --concurrency run (default 15; smoke 2)"
    )
    p.add_argument(
        "--server-workers",
        type=lambda v: sorted({int(x) for x in v.split(",") if x.strip()}),
        default=[1, 2],
        metavar="COUNTS",
        help="--concurrency: the HTTP server's worker processes, one server per count (default: 1,2)",
    )
    p.add_argument(
        "--report-only",
        type=Path,
        default=None,
        metavar="RESULTS_JSON",
        help="no run: print and (with --docs) write the report of a saved results.json",
    )


def _size_or_million(value: str) -> int:
    [size] = _sizes(value)
    return size


def _levels(value: str) -> list[int]:
    try:
        levels = sorted({int(v) for v in value.split(",") if v.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"--concurrency wants comma-separated integers, got {value!r}") from None
    if not levels or levels[0] < 1 or levels[-1] > 256:
        raise argparse.ArgumentTypeError(f"--concurrency wants callers between 1 and 256, got {value!r}")
    return levels


def _peers(value: str) -> list[str]:
    from langmem_es_bench.peers import PEERS

    names = [v.strip() for v in value.split(",") if v.strip() and v.strip() != "none"]
    unknown = [n for n in names if n not in PEERS]
    if unknown:
        raise argparse.ArgumentTypeError(f"--peers: unknown {', '.join(unknown)}; known: {', '.join(PEERS)}, none")
    return names


def _count(value: str) -> int:
    """A count option's value: an integer >= 1."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"wants an integer >= 1, got {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"wants an integer >= 1, got {n}")
    return n


def _config(args: argparse.Namespace):  # noqa: ANN202 - BenchConfig, imported lazily
    from langmem_es_bench.config import BenchConfig

    backends = ["sqlite", "elasticsearch"] if args.backend == "both" else [args.backend]
    cfg = BenchConfig.smoke_config(backends) if args.smoke else BenchConfig(backends=backends)
    if args.sizes:
        cfg.sizes = args.sizes
    if args.tenants is not None:
        cfg.tenants = args.tenants
    for name in ("queries", "writes", "paired_queries", "paired_writes", "ingest"):
        if getattr(args, name) is not None:
            setattr(cfg, name, getattr(args, name))
    cfg.competitors = not args.no_competitors
    if args.peers is not None:
        cfg.peers = args.peers
    elif cfg.competitors and not args.smoke:
        from langmem_es_eval.peers import peer_installed

        cfg.peers = ["postgres"] if peer_installed() else []
    return cfg


def _command_line(argv: list[str]) -> str:
    return "langmem-es bench " + " ".join(shlex.quote(a) for a in argv if a)


def _saved_results(path: Path) -> dict[str, Any]:
    """The saved ``results.json`` at ``path``, or a one-line :class:`ConfigurationError`."""
    from langmem_es.errors import ConfigurationError

    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigurationError(f"--report-only {str(path)!r}: no such file (give a saved results.json)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationError(f"--report-only {str(path)!r}: cannot read it ({exc.__class__.__name__})") from None
    except ValueError as exc:
        raise ConfigurationError(f"--report-only {str(path)!r} is not JSON: {exc}") from None
    if not isinstance(results, dict) or "systems" not in results:
        raise ConfigurationError(f"--report-only {str(path)!r} is not a results.json of `langmem-es bench`")
    return results


def run_command(args: argparse.Namespace) -> int:
    from langmem_es_bench.report import summary
    from langmem_es_bench.report_markdown import write_markdown
    from langmem_es_bench.report_plots import plot

    argv = getattr(args, "_argv", None) or sys.argv[2:]
    if args.paired:
        from langmem_es_bench.config import BenchConfig
        from langmem_es_bench.paired import run_paired

        paired = run_paired(
            args.paired,
            args.paired_queries or args.queries or BenchConfig.paired_queries,
            writes=args.paired_writes if args.paired_writes is not None else 0,
            cluster_warmup=_config(args).cluster_warmup,
            say=lambda m: print(m, file=sys.stderr, flush=True),
        )
        paired["command"] = _command_line(argv)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "paired.json").write_text(json.dumps(paired, indent=2))
        print(f"results: {args.out / 'paired.json'}")
        return 0
    if args.ranker_cost:
        from langmem_es_bench.ranker_cost import run_ranker_cost

        backends = ["sqlite", "elasticsearch"] if args.backend == "both" else [args.backend]
        say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
        costs = [run_ranker_cost(b, questions=args.queries or 150, say=say) for b in backends]
        for c in costs:
            print(json.dumps(c))
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "ranker_cost.json").write_text(
            json.dumps({"command": _command_line(argv), "runs": costs}, indent=2)
        )
        return 0
    if args.concurrency or args.long_content is not None or args.million:
        from langmem_es_bench.scale_cli import run_scale_point

        return run_scale_point(args, _command_line(argv))
    if args.report_only:
        results = _saved_results(args.report_only)
        command = results.get("command") or _command_line(argv)
    else:
        from langmem_es_bench.runner import run_bench

        command = _command_line(argv)
        config = _config(args)
        if config.peers:
            from langmem_es_eval.peers import PeerUnavailable, require_peer

            try:
                require_peer()
            except PeerUnavailable as exc:
                print(f"langmem-es bench: --peers postgres: {exc}", file=sys.stderr)
                return 2
        results = run_bench(config, out_dir=args.out)
        results["command"] = command
        (args.out / "results.json").write_text(json.dumps(results, indent=2, default=str))
        plot(results, args.out)
    print(summary(results))
    if args.docs:
        path = write_markdown(results, args.docs, command=command)
        print(f"wrote {path} (plots in {path.parent / 'img'})")
    if not args.report_only:
        print(f"results: {args.out / 'results.json'}")
    failed = [
        k for res in results.get("systems", {}).values() for k, v in res.items() if isinstance(v, dict) and "error" in v
    ]
    return 1 if failed else 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``bench`` to the ``langmem-es`` subcommands."""
    p = subparsers.add_parser(
        "bench",
        help="performance benchmarks (latency, writes, ingest, footprint)",
        description=__doc__.split("\n\n")[0],
    )
    add_arguments(p)
    p.set_defaults(func=run_command)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="langmem-es bench", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    args._argv = argv
    return run_command(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
