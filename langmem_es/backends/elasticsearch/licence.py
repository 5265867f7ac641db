"""What a cluster can do, read from its info, licence, modules and nodes (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...port import Capabilities

#: Licences under which the rrf retriever and document-level security are allowed.
PAID = frozenset({"platinum", "enterprise", "trial"})


def module_names(nodes_plugins: Mapping[str, Any]) -> set[str]:
    names: set[str] = set()
    for node in (nodes_plugins.get("nodes") or {}).values():
        names.update(m["name"] for m in node.get("modules", ()))
    return names


def capabilities_from(licence: Mapping[str, Any], nodes_plugins: Mapping[str, Any]) -> Capabilities:
    """Server-side RRF needs the rank-rrf module and a paid/trial licence; DLS needs security and the licence."""
    kind = str(licence.get("type", "none")).lower()
    active = str(licence.get("status", "active")).lower() == "active"
    modules = module_names(nodes_plugins)
    paid = active and kind in PAID
    return Capabilities(
        engine="elasticsearch",
        version=min((n.get("version", "") for n in (nodes_plugins.get("nodes") or {}).values()), default=""),
        license=kind,
        server_rrf=paid and bool({"x-pack-rank-rrf", "rank-rrf"} & modules),
        document_level_security=paid and "x-pack-security" in modules,
    )


def data_nodes(nodes_info: Mapping[str, Any]) -> int:
    """How many nodes hold data (any ``data*`` role; nodes listed without roles count)."""
    nodes = (nodes_info.get("nodes") or {}).values()
    return sum(1 for n in nodes if "roles" not in n or any(r.startswith("data") for r in n["roles"]))


def default_replicas(nodes_info: Mapping[str, Any]) -> int:
    """Replicas the cluster can hold: 1 with two or more data nodes (one node may fail), else 0."""
    return 1 if data_nodes(nodes_info) >= 2 else 0
