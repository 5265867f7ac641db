"""Tenant credentials as Elasticsearch API keys: install the stamp pipeline on a prefix's
indices, issue, list, revoke and rotate keys whose role descriptor carries the identity's
DLS query (:mod:`langmem_es_cli.tenants_dls`), and whether the cluster can enforce them
(``dls`` or ``library`` isolation). See :mod:`langmem_es_cli.tenants` for the whole design."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langmem_es.errors import AuthorizationError, LangmemEsError
from langmem_es.model import Identity
from langmem_es_cli.tenants_dls import (
    KEY_PREFIX,
    STAMP_FIELD,
    STAMP_MAPPING,
    check_tenant,
    credential_metadata,
    credential_name,
    index_pattern,
    pipeline_name,
    role_descriptor,
)

__all__ = ["IssuedKey", "install", "isolation_status", "issue_key", "list_keys", "revoke", "rotate", "summary"]


@dataclass(frozen=True)
class IssuedKey:
    """A freshly issued key. ``encoded`` (base64 ``id:key``) is shown once: store it."""

    id: str
    name: str
    tenant: str
    encoded: str
    expiration: int | None = None

    def client_kwargs(self, url: str) -> dict[str, Any]:
        return {"hosts": [url], "api_key": self.encoded}


def install(client: Any, prefix: str = "langmem") -> dict[str, Any]:
    """Install the stamp pipeline, its mapping and ``index.final_pipeline`` on the prefix's indices.

    Idempotent; run after the backend's ``setup()`` (and after any rollover). Returns
    what was done. Needs the ``manage_pipeline`` and ``manage`` privileges (an admin).
    """
    client.ingest.put_pipeline(
        id=pipeline_name(prefix),
        description="langmem-es: record the writer (user / API key and its tenant) server-side",
        processors=[
            {"set_security_user": {"field": STAMP_FIELD, "properties": ["username", "api_key", "authentication_type"]}}
        ],
    )
    indices = sorted(client.indices.get(index=index_pattern(prefix), ignore_unavailable=True, allow_no_indices=True))
    if indices:
        names = ",".join(indices)
        client.indices.put_mapping(index=names, properties={STAMP_FIELD: STAMP_MAPPING})
        client.indices.put_settings(index=names, settings={"index.final_pipeline": pipeline_name(prefix)})
    return {"pipeline": pipeline_name(prefix), "indices": indices}


def issue_key(
    client: Any,
    tenant: str,
    *,
    user_id: str | None = None,
    agent_id: str | None = None,
    conversation_id: str | None = None,
    prefix: str = "langmem",
    expiration: str | None = None,
    write: bool = True,
) -> IssuedKey:
    """Create an API key whose reads Elasticsearch limits to ``tenant`` (and the given owners).

    ``expiration`` is an Elasticsearch duration (``"30d"``); ``None`` never expires.
    The key can write (documents are stamped, see :func:`install`) unless ``write=False``.
    """
    identity = Identity(tenant=tenant, user_id=user_id, agent_id=agent_id, conversation_id=conversation_id)
    body: dict[str, Any] = {
        "name": credential_name(identity),
        "role_descriptors": {"langmem_tenant": role_descriptor(identity, prefix, write=write)},
        "metadata": credential_metadata(identity, prefix),
    }
    if expiration:
        body["expiration"] = expiration
    response = _call(lambda: client.security.create_api_key(**body))
    return IssuedKey(response["id"], response["name"], tenant, response["encoded"], response.get("expiration"))


def list_keys(client: Any, tenant: str | None = None, *, include_invalidated: bool = False) -> list[dict[str, Any]]:
    """The langmem-es keys (of ``tenant``, or all), newest first: id, name, tenant, owners, created, state."""
    must: list[dict[str, Any]] = [{"prefix": {"name": f"{KEY_PREFIX}:"}}]
    if tenant is not None:
        must.append({"term": {"metadata.langmem_tenant": tenant}})
    if not include_invalidated:
        must.append({"term": {"invalidated": False}})
    response = _call(
        lambda: client.security.query_api_keys(
            query={"bool": {"filter": must}}, size=1000, sort=[{"creation": {"order": "desc"}}]
        )
    )
    out = []
    for k in response.get("api_keys", []):
        meta = k.get("metadata") or {}
        out.append(
            {
                "id": k["id"],
                "name": k["name"],
                "tenant": meta.get("langmem_tenant"),
                "owners": meta.get("langmem_owners"),
                "prefix": meta.get("langmem_prefix"),
                "created": k.get("creation"),
                "expiration": k.get("expiration"),
                "invalidated": k.get("invalidated", False),
            }
        )
    return out


def revoke(client: Any, tenant: str | None = None, *, ids: Sequence[str] = ()) -> list[str]:
    """Invalidate keys by id, or every key of ``tenant``; returns the invalidated ids.

    Takes effect at once for new requests (Elasticsearch checks the key on each one).
    """
    targets = list(ids) or [k["id"] for k in list_keys(client, check_tenant(tenant) if tenant else None)]
    if not targets:
        return []
    if not ids and tenant is None:
        raise ValueError("revoke needs a tenant or key ids")
    response = _call(lambda: client.security.invalidate_api_key(ids=targets))
    return list(response.get("invalidated_api_keys", []))


def rotate(
    client: Any,
    tenant: str,
    *,
    user_id: str | None = None,
    agent_id: str | None = None,
    conversation_id: str | None = None,
    prefix: str = "langmem",
    expiration: str | None = None,
) -> tuple[IssuedKey, list[str]]:
    """Issue a new key for the same identity, then invalidate the identity's older keys.

    Returns the new key and the ids invalidated. Documents written with the old keys
    stay the tenant's (the stamp carries the tenant, not the key).
    """
    identity = Identity(tenant=tenant, user_id=user_id, agent_id=agent_id, conversation_id=conversation_id)
    old = [k["id"] for k in list_keys(client, tenant) if k["name"] == credential_name(identity)]
    new = issue_key(
        client,
        tenant,
        user_id=user_id,
        agent_id=agent_id,
        conversation_id=conversation_id,
        prefix=prefix,
        expiration=expiration,
    )
    return new, revoke(client, ids=old) if old else []


def isolation_status(client: Any, prefix: str = "langmem") -> dict[str, Any]:
    """``{"mode": "dls" | "library", "reason", "licence", "stamped_indices", "unstamped_indices"}``.

    ``dls`` needs a licence that allows DLS, security enabled, and the stamp pipeline as
    final pipeline of every index of the prefix; otherwise the library's choke point
    is the isolation (it always runs, DLS or not).
    """
    from langmem_es.backends.elasticsearch.licence import PAID

    try:
        lic = client.license.get()["license"]
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return {"mode": "library", "reason": f"licence unreadable: {exc}", "licence": None}
    kind, active = str(lic.get("type")).lower(), str(lic.get("status")).lower() == "active"
    settings = client.indices.get_settings(
        index=index_pattern(prefix), name="index.final_pipeline", ignore_unavailable=True, allow_no_indices=True
    )
    stamped = sorted(
        i
        for i, s in settings.items()
        if s.get("settings", {}).get("index", {}).get("final_pipeline") == pipeline_name(prefix)
    )
    unstamped = sorted(set(settings) - set(stamped))
    if not (active and kind in PAID):
        mode, reason = "library", f"licence {kind} ({lic.get('status')}) does not allow document-level security"
    elif not settings:
        mode, reason = "library", f"no indices under {prefix}-*"
    elif unstamped:
        mode, reason = "library", f"run `langmem-es tenants install`: {len(unstamped)} indices lack the stamp pipeline"
    else:
        mode, reason = "dls", "tenant API keys carry DLS queries; writes are stamped by the final pipeline"
    return {
        "mode": mode,
        "reason": reason,
        "licence": f"{kind} ({lic.get('status')})",
        "stamped_indices": stamped,
        "unstamped_indices": unstamped,
    }


_SAFE = re.compile(r"[^A-Za-z0-9_.:=@-]")


def _call(fn: Any) -> Any:
    """Run one security API call; licence and privilege problems become typed errors."""
    import elasticsearch as es

    from langmem_es.backends.elasticsearch.errors import translate_errors

    try:
        with translate_errors():
            return fn()
    except es.ApiError as exc:
        text = str(exc)
        if "pattern_capture" in text or "analysis" in text and "Unknown filter type" in text:
            raise LangmemEsError(
                "this cluster cannot create its .security index (the distribution lacks the analysis-common "
                f"module), so API keys are unavailable ({text}); issue file-realm credentials instead: "
                "`langmem-es tenants issue TENANT --realm file --cluster NAME` / tenants.FileRealm"
            ) from exc
        if "security_exception" in text and "licen" in text.lower():
            raise AuthorizationError(f"API keys with DLS need a trial/platinum/enterprise licence: {text}") from exc
        raise LangmemEsError(f"Elasticsearch refused the security call: {text}") from exc


def summary(keys: Sequence[Mapping[str, Any]]) -> str:
    """One line per key, for the CLI."""
    lines = [f"{'id':<22} {'tenant':<16} {'name'}"]
    lines += [f"{k['id']:<22} {str(k['tenant']):<16} {_SAFE.sub('?', k['name'])}" for k in keys]
    return "\n".join(lines)
