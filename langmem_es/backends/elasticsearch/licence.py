"""What a cluster can do, read from its info, licence and modules (pure)."""

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
