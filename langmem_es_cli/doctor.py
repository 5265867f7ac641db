"""``langmem-es doctor``: what the cluster is and which guarantees are in force.

::

    langmem-es doctor                         # the default connection, prefix langmem
    langmem-es doctor --cluster trial --prefix acme-prod --json

Reports the cluster version and licence, the isolation mode (``dls``: tenant
credentials carry DLS queries and writes are stamped; ``library``: the library's
choke point alone), the fusion mode (``server``: the rrf retriever; ``client``:
fusion in Python), and per index: health, document count, mapping version and vector
dimensions, replicas. Exit status 1 when something needs attention (red index, old
mapping, missing indices). Warnings (an index without replicas on a cluster with two
or more data nodes: losing one node loses its acknowledged writes and makes its reads
fail) are printed but keep the exit status, since ``replicas=0`` may be chosen.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["diagnose", "register"]


def diagnose(client: Any, prefix: str = "langmem") -> dict[str, Any]:
    """The doctor's report as a dict (no printing)."""
    from langmem_es.backends.elasticsearch.errors import translate_errors
    from langmem_es.backends.elasticsearch.licence import capabilities_from
    from langmem_es.backends.elasticsearch.mappings import MAPPING_VERSION
    from langmem_es.port import COLLECTIONS
    from langmem_es_cli.tenants_keys import isolation_status

    with translate_errors():
        try:
            licence = client.license.get()["license"]
        except Exception:  # noqa: BLE001 - no licence endpoint: report none
            licence = {"type": "none", "status": "none"}
        nodes = client.nodes.info(metric="plugins", filter_path="nodes.*.version,nodes.*.modules.name")
        caps = capabilities_from(licence, nodes)
        health = client.cluster.health()
        pattern = f"{prefix}-*"
        index_health = client.cluster.health(index=pattern, level="indices").get("indices", {})
        mappings = client.indices.get_mapping(index=pattern, ignore_unavailable=True, allow_no_indices=True)
        rows = client.cat.indices(index=pattern, format="json", h="index,docs.count,rep") if mappings else []
        counts = {r["index"]: int(r["docs.count"] or 0) for r in rows}
        replicas = {r["index"]: int(r["rep"]) for r in rows if str(r.get("rep", "")).isdigit()}
        isolation = isolation_status(client, prefix)
    indices = []
    problems = []
    warnings = []
    data_nodes = int(health.get("number_of_data_nodes") or 0)
    for name in sorted(mappings):
        meta = mappings[name]["mappings"].get("_meta", {})
        version = meta.get("langmem_es_mapping_version")
        state = index_health.get(name, {}).get("status", "unknown")
        indices.append(
            {
                "index": name,
                "health": state,
                "docs": counts.get(name),
                "mapping_version": version,
                "dims": meta.get("dims"),
                "replicas": replicas.get(name),
                "stamped": name in isolation.get("stamped_indices", []),
            }
        )
        if replicas.get(name) == 0 and data_nodes >= 2:
            warnings.append(
                f"{name} has no replicas on a cluster of {data_nodes} data nodes: losing one node loses "
                f"its acknowledged writes and fails its reads; PUT {name}/_settings "
                '{"index.number_of_replicas": 1}'
            )
        if state == "red":
            problems.append(f"{name} is red")
        if version is None or version < MAPPING_VERSION:
            problems.append(
                f"{name} has mapping version {version}, current is {MAPPING_VERSION}: "
                f"run `langmem-es setup --prefix {prefix}`"
            )
    missing = [c for c in COLLECTIONS if not any(i["index"].startswith(f"{prefix}-{c}-") for i in indices)]
    if missing:
        problems.append(f"no index for {', '.join(missing)} under {pattern}: run `langmem-es setup --prefix {prefix}`")
    return {
        "cluster": {
            "name": health.get("cluster_name"),
            "version": caps.version,
            "nodes": health.get("number_of_nodes"),
            "data_nodes": data_nodes,
            "health": health.get("status"),
        },
        "licence": {"type": licence.get("type"), "status": licence.get("status")},
        "isolation": {"mode": isolation["mode"], "reason": isolation["reason"]},
        "fusion": {
            "mode": "server" if caps.server_rrf else "client",
            "reason": "rrf retriever available"
            if caps.server_rrf
            else "rank-rrf module or licence missing: reciprocal rank fusion runs in Python",
        },
        "prefix": prefix,
        "mapping_version": MAPPING_VERSION,
        "indices": indices,
        "problems": problems,
        "warnings": warnings,
    }


def _render(report: dict[str, Any]) -> str:
    c, lic = report["cluster"], report["licence"]
    lines = [
        f"cluster    {c['name']}  Elasticsearch {c['version']}  nodes={c['nodes']}  health={c['health']}",
        f"licence    {lic['type']} ({lic['status']})",
        f"isolation  {report['isolation']['mode']}: {report['isolation']['reason']}",
        f"fusion     {report['fusion']['mode']}: {report['fusion']['reason']}",
        f"indices    prefix {report['prefix']}-*, current mapping version {report['mapping_version']}",
    ]
    for i in report["indices"]:
        lines.append(
            f"  {i['index']:<40} {i['health']:<7} docs={i['docs']!s:<8} mapping=v{i['mapping_version']} "
            f"dims={i['dims']} replicas={i.get('replicas')} stamped={'yes' if i['stamped'] else 'no'}"
        )
    lines += [f"WARNING    {w}" for w in report.get("warnings", ())]
    lines += [f"PROBLEM    {p}" for p in report["problems"]] or ["ok"]
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:

    from langmem_es_cli._checks import es_client

    with es_client(args.cluster, request_timeout=args.timeout, max_retries=0) as client:
        report = diagnose(client, args.prefix)
    print(json.dumps(report, indent=2) if args.json else _render(report))
    return 1 if report["problems"] else 0


def register(sub: Any) -> None:
    """Add ``doctor`` to the ``langmem-es`` subcommands."""
    p = sub.add_parser(
        "doctor",
        help="cluster version, licence, isolation and fusion modes, index health",
        description=__doc__.split("::")[0].strip() if __doc__ else None,
    )
    p.add_argument("--cluster", default="default", help="connection name (LANGMEM_ES_<NAME>_URL or local cluster)")
    p.add_argument("--prefix", default="langmem", help="index prefix of the deployment (default: langmem)")
    p.add_argument("--timeout", type=float, default=10.0, help="request timeout in seconds")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=_run)
