"""The ``langmem-es`` command line.

Each command group is registered by one small function that receives the
subparsers object and adds its parser(s), setting ``func`` to a handler
``handler(args) -> int``. To add a group (``demo``, ``eval``, ``bench``, ``doctor``,
``decay``, ``tenants`` ...), write such a function and decorate it with
:func:`command_group`; import heavy modules inside the handler so that
``langmem-es --help`` stays fast.

Errors derived from :class:`~langmem_es.errors.LangmemEsError` are printed as one
line ``langmem-es: error: TypeName: message`` and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import Any

from langmem_es.errors import LangmemEsError

__all__ = ["build_parser", "command_group", "main"]

CommandGroup = Callable[[Any], object]
"""``register(subparsers)``: adds a command's parser(s) to ``langmem-es``."""
_GROUPS: list[CommandGroup] = []


def command_group(fn: CommandGroup) -> CommandGroup:
    """Register ``fn(subparsers)`` as a command group of ``langmem-es``."""
    _GROUPS.append(fn)
    return fn


def _progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- es


def _es_start(args: argparse.Namespace) -> int:
    from langmem_es_cli.local_es import start_cluster

    info = start_cluster(
        args.name,
        port=args.port,
        nodes=args.nodes,
        license=args.license,
        heap=args.heap,
        version=args.version,
        fresh=args.fresh,
        timeout=args.timeout,
        progress=_progress,
    )
    if info.get("already_running"):
        print(f"already running: {info['url']}  (user elastic, password {info['password']})")
        return 0
    print(
        f"Elasticsearch {info['version']} ({info['license']} licence, "
        f"{info['nodes']} node(s), health {info['health']}) started in "
        f"{info['startup_seconds']}s ({info['total_seconds']}s in all; "
        f"distribution {'downloaded' if info['downloaded'] else 'cached'})"
    )
    print(f"  URL:      {info['url']}")
    print("  user:     elastic")
    print(f"  password: {info['password']}")
    print(
        f'  credentials: {_info_path(args.name)}   (eval "$(langmem-es es env'
        f'{"" if args.name == "default" else " --name " + args.name})")'
    )
    return 0


def _info_path(name: str) -> str:
    from langmem_es.settings import cluster_file

    return str(cluster_file(name))


def _es_stop(args: argparse.Namespace) -> int:
    from langmem_es_cli.local_es import clean, stop_cluster

    pids = stop_cluster(args.name, grace=args.grace, progress=_progress)
    print(f"stopped cluster {args.name!r} ({len(pids)} node(s))" if pids else f"cluster {args.name!r}: not running")
    if args.purge:
        _print_removed(clean(args.name))
    return 0


def _print_removed(paths: list) -> None:
    print("removed: " + ", ".join(str(p) for p in paths) if paths else "nothing to remove")


def _es_clean(args: argparse.Namespace) -> int:
    from langmem_es_cli.local_es import clean

    _print_removed(clean(args.name, keep_download=args.keep_download))
    return 0


def _es_status(args: argparse.Namespace) -> int:
    from langmem_es_cli.local_es import cluster_status

    st = cluster_status(args.name)
    if args.json:
        print(json.dumps(st, indent=2))
        return 0 if st["running"] else 1
    if not st["running"]:
        print(f"cluster {args.name!r}: not running")
        return 1
    print(f"cluster {args.name!r}: running")
    print(f"  URL:      {st['url']}")
    print(f"  version:  {st['version']}")
    print(f"  licence:  {st['license']} ({st['license_status']})")
    print(f"  nodes:    {st['nodes']}   health: {st['health']}")
    return 0


def _es_env(args: argparse.Namespace) -> int:
    from langmem_es.errors import ClusterUnavailableError
    from langmem_es.settings import cluster_file
    from langmem_es_cli.local_es import read_info

    info = read_info(args.name)
    if info is None:
        raise ClusterUnavailableError(
            f"no local cluster {args.name!r} (no {cluster_file(args.name)}); "
            f"run `langmem-es es start --name {args.name}`"
        )
    prefix = args.prefix
    for key, value in (("URL", info["url"]), ("USER", info.get("user", "elastic")), ("PASSWORD", info["password"])):
        print(f"export {prefix}_{key}={shlex.quote(str(value))}")
    return 0


@command_group
def add_es_commands(sub: argparse._SubParsersAction) -> None:
    """``langmem-es es start|stop|status|env|clean``: a local Elasticsearch without Docker."""
    es = sub.add_parser("es", help="run a local Elasticsearch (fetched from Maven Central)")
    es_sub = es.add_subparsers(dest="es_command", metavar="{start,stop,status,env,clean}")
    es_sub.required = True

    def name_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--name", default="default", help="cluster name (default: %(default)s)")

    from langmem_es_cli.local_es._config import DEFAULT_HEAP, ES_VERSION

    p = es_sub.add_parser("start", help="fetch (once), start and wait for health")
    name_arg(p)
    p.add_argument(
        "--port",
        default=None,
        help="HTTP port of the first node (node i gets PORT+i), or a range LOW-HIGH that "
        "Elasticsearch binds from (default: 9200-9299; transport from 9300-9399)",
    )
    p.add_argument(
        "--nodes",
        type=int,
        choices=(1, 2, 3),
        default=1,
        help="nodes on 127.0.0.1 (with 2, losing the elected master stops the cluster; 3 survive any one)",
    )
    p.add_argument("--license", choices=("basic", "trial"), default="basic")
    p.add_argument("--heap", default=DEFAULT_HEAP, help="JVM heap per node (default: %(default)s)")
    p.add_argument("--version", default=ES_VERSION, help="Elasticsearch version (default: %(default)s)")
    p.add_argument("--fresh", action="store_true", help="wipe this cluster's data first")
    p.add_argument("--timeout", type=float, default=180.0, help="seconds to wait for health (default: %(default)s)")
    p.set_defaults(func=_es_start)

    p = es_sub.add_parser("stop", help="stop all nodes (SIGTERM, then SIGKILL)")
    name_arg(p)
    p.add_argument("--grace", type=float, default=60.0, help="seconds to wait after SIGTERM (default: %(default)s)")
    p.add_argument("--purge", action="store_true", help="then remove its data, logs and credential file")
    p.set_defaults(func=_es_stop)

    p = es_sub.add_parser("clean", help="remove what `start` left under LANGMEM_ES_HOME (stopped clusters only)")
    p.add_argument(
        "--name",
        default=None,
        help="only this cluster's data and credentials (default: every cluster, the unpacked "
        "distribution and the download)",
    )
    p.add_argument("--keep-download", action="store_true", help="keep the downloaded zip (no re-download)")
    p.set_defaults(func=_es_clean)

    p = es_sub.add_parser("status", help="URL, version, licence, node count")
    name_arg(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_es_status)

    p = es_sub.add_parser("env", help="print `export LANGMEM_ES_...` lines")
    name_arg(p)
    p.add_argument(
        "--prefix", default="LANGMEM_ES", help="variable prefix (default: %(default)s; e.g. LANGMEM_ES_TRIAL)"
    )
    p.set_defaults(func=_es_env)


# the other command groups live beside the code they drive; each imports only the
# standard library at module level, so `langmem-es --help` stays fast.
from langmem_es_bench.cli import register as add_bench_command  # noqa: E402
from langmem_es_cli.decay import register as add_decay_command  # noqa: E402
from langmem_es_cli.demo import register as add_demo_command  # noqa: E402
from langmem_es_cli.doctor import register as add_doctor_command  # noqa: E402
from langmem_es_cli.ingest import register as add_ingest_command  # noqa: E402
from langmem_es_cli.load import register as add_load_command
from langmem_es_cli.serve import register as add_serve_command  # noqa: E402
from langmem_es_cli.setup_cli import register as add_setup_command  # noqa: E402
from langmem_es_cli.tenants_cli import register as add_tenants_command  # noqa: E402
from langmem_es_cli.trust import register as add_trust_commands  # noqa: E402
from langmem_es_eval.cli import register as add_eval_command  # noqa: E402
from langmem_es_eval.ranker_cli import register as add_train_ranker_command  # noqa: E402

for _group in (
    add_demo_command,
    add_setup_command,
    add_eval_command,
    add_train_ranker_command,
    add_bench_command,
    add_ingest_command,
    add_load_command,
    add_decay_command,
    add_doctor_command,
    add_tenants_command,
    add_trust_commands,
    add_serve_command,
):
    command_group(_group)


# --------------------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    from langmem_es import __version__

    parser = argparse.ArgumentParser(
        prog="langmem-es",
        description="Persistent memory for LangGraph/LangChain agents on Elasticsearch.",
    )
    parser.add_argument("--version", action="version", version=f"langmem-es {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for register in _GROUPS:
        register(sub)
    return parser


def _chosen(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the command given (``langmem-es es start`` → the one of ``es start``)."""
    while True:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        name = getattr(args, subs[0].dest, None) if subs else None
        if not name or name not in subs[0].choices:
            return parser
        parser = subs[0].choices[name]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:  # a mistyped flag: the usage of the command it was given to, not the top level's
        _chosen(parser, args).error(f"unrecognized arguments: {' '.join(extras)}")
    try:
        return int(args.func(args) or 0)
    except LangmemEsError as exc:
        print(f"langmem-es: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("langmem-es: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
