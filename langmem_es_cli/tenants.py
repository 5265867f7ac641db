"""Per-tenant credentials: Elasticsearch itself enforces tenant isolation (DLS mode).

Under a trial/platinum/enterprise licence, each tenant (optionally narrowed to one
user, agent or conversation) gets its own credential — an **API key**, or a
**file-realm user** (:class:`FileRealm`) where the cluster cannot create its
``.security`` index (the integ-test distribution). The credential's role descriptor
carries a document-level-security (DLS) query built from the same visibility rules as
:func:`langmem_es.core.scope.visibility_filter`, so a client holding the key — even one
that bypasses this library and sends ``match_all`` — sees only its tenant's documents:

* tenant-wide key (``issue_key(client, "acme")``): every document whose ``tenant`` is
  ``acme`` (all scopes, memories and audit records), plus generic store items written
  with an ``acme`` key;
* narrowed key (``issue_key(client, "acme", user_id="alice")``): shared memories of
  ``acme`` plus the private/conversation memories the identity owns
  (``Identity.owners()``), and the audit records of those owners.

**Writes are stamped server-side.** :func:`install` puts an ingest pipeline
``{prefix}-stamp`` with the ``set_security_user`` processor (shipped in
``x-pack-security``) as ``index.final_pipeline`` of every index of the prefix: each
written document records who wrote it in ``stamp`` (username, API key id/name and the
key's metadata, including ``langmem_tenant``). The client cannot skip or forge it — a
final pipeline runs after any request pipeline and overwrites the field. Every DLS
query also excludes documents stamped by another tenant's key, so a document forged
into tenant B with tenant A's key is **quarantined**: invisible to B and to A.

What the integ-test distribution cannot do (no ``ingest-common``, no ``painless``):
*refuse* such a write — there is no ``fail``/``script``/``drop`` processor. DLS does
not apply to writes, so a key can still overwrite or delete a document whose ``_id``
it knows (ids are deterministic). Reads and injection are closed; that integrity hole
is closed by per-tenant prefixes (:func:`issue_key` with ``prefix=f"lm-{tenant}"``:
index privileges then bound writes), see ``docs/isolation.md``.

Without a licence that allows DLS, the library's choke point (``scope.visibility_filter``
plus the fail-closed ``scope.visible``) is the isolation: ``library`` mode.
"""

from __future__ import annotations

import base64
import builtins
import hashlib
import json
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langmem_es import filters as F
from langmem_es.core import scope
from langmem_es.errors import AuthorizationError, LangmemEsError
from langmem_es.model import Identity

__all__ = [
    "STAMP_FIELD",
    "IssuedKey",
    "dls_query",
    "install",
    "isolation_status",
    "issue_key",
    "list_keys",
    "revoke",
    "role_descriptor",
    "rotate",
]

STAMP_FIELD = "stamp"
KEY_PREFIX = "langmem-es"
_STAMPED_TENANT = f"{STAMP_FIELD}.api_key.metadata.langmem_tenant"
_STAMPED_USER = f"{STAMP_FIELD}.username"
USER_PREFIX = "lm."
_STAMP_MAPPING: dict[str, Any] = {
    "properties": {
        "username": {"type": "keyword"},
        "authentication_type": {"type": "keyword"},
        "api_key": {
            "properties": {
                "id": {"type": "keyword"},
                "name": {"type": "keyword"},
                "metadata": {
                    "properties": {"langmem_tenant": {"type": "keyword"}, "langmem_owners": {"type": "keyword"}}
                },
            }
        },
    }
}


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


def pipeline_name(prefix: str) -> str:
    return f"{prefix}-stamp"


def _index_pattern(prefix: str) -> str:
    return f"{prefix}-*"


def _check_tenant(tenant: str) -> str:
    Identity(tenant=tenant)  # same rules as every identity value
    return tenant


def tenant_tag(tenant: str) -> str:
    """A short, stable, name-safe tag of a tenant (file-realm user names carry it)."""
    return hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:16]


def _not_forged(tenant: str) -> F.Filter:
    """Exclude documents a credential of another tenant wrote (stamped by the final pipeline).

    API keys carry the tenant in their metadata; file-realm users in their name
    (``lm.<tenant tag>.<key tag>``).
    """
    other_key = F.all_of(F.exists(_STAMPED_TENANT), F.none_of(F.term(_STAMPED_TENANT, tenant)))
    other_user = F.all_of(
        {"prefix": {_STAMPED_USER: USER_PREFIX}},
        F.none_of({"prefix": {_STAMPED_USER: f"{USER_PREFIX}{tenant_tag(tenant)}."}}),
    )
    return F.none_of(other_key, other_user)


def _own_writes(tenant: str) -> F.Filter:
    return F.any_of(F.term(_STAMPED_TENANT, tenant), {"prefix": {_STAMPED_USER: f"{USER_PREFIX}{tenant_tag(tenant)}."}})


def dls_query(identity: Identity) -> F.Filter:
    """The DLS query of a key for ``identity`` (pure).

    Tenant-wide (no user/agent/conversation): every document of the tenant. Narrowed:
    the memories :func:`scope.visibility_filter` allows (without its ``record``
    clause, so the core's audit records of those owners pass too). Generic store items
    (no ``tenant`` field) are visible when a key of the same tenant wrote them.
    """
    tenant = _check_tenant(identity.tenant)
    narrowed = bool(identity.user_id or identity.agent_id or identity.conversation_id)
    own_items = F.all_of(F.none_of(F.exists("tenant")), _own_writes(tenant))
    if not narrowed:
        docs = F.term("tenant", tenant)
    else:
        owners = sorted({o for per in identity.owners().values() for o in per})
        raw = sorted({v for v in (identity.user_id, identity.agent_id) if v})  # audit entries name the actor bare
        memories = scope.visibility_filter(identity)
        memories = F.all_of(*[c for c in memories["bool"]["filter"] if c != F.term("record", "memory")])
        audit = F.all_of(
            F.term("tenant", tenant),
            F.terms("record", ["tombstone", "conflict", "head", "audit"]),
            F.terms("owner", owners + raw),
        )
        docs = F.any_of(memories, audit)
    return F.all_of(F.any_of(docs, own_items), _not_forged(tenant))


def role_descriptor(identity: Identity, prefix: str = "langmem", *, write: bool = True) -> dict[str, Any]:
    """The role descriptor of a tenant key: the prefix's indices, DLS on every read."""
    privileges = ["read", "view_index_metadata"] + (["write", "maintenance"] if write else [])
    # monitor: setup() reads the licence and node info
    return {
        "cluster": ["monitor"],
        "indices": [{"names": [_index_pattern(prefix)], "privileges": privileges, "query": dls_query(identity)}],
    }


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
    indices = sorted(client.indices.get(index=_index_pattern(prefix), ignore_unavailable=True, allow_no_indices=True))
    if indices:
        names = ",".join(indices)
        client.indices.put_mapping(index=names, properties={STAMP_FIELD: _STAMP_MAPPING})
        client.indices.put_settings(index=names, settings={"index.final_pipeline": pipeline_name(prefix)})
    return {"pipeline": pipeline_name(prefix), "indices": indices}


def _name(identity: Identity) -> str:
    parts = [identity.tenant] + [
        f"{k}={v}"
        for k, v in (
            ("user", identity.user_id),
            ("agent", identity.agent_id),
            ("conversation", identity.conversation_id),
        )
        if v
    ]
    return f"{KEY_PREFIX}:" + ":".join(parts)


def _metadata(identity: Identity, prefix: str) -> dict[str, Any]:
    owners = sorted({o for per in identity.owners().values() for o in per})
    return {
        "langmem_tenant": identity.tenant,
        "langmem_owners": owners,
        "langmem_prefix": prefix,
        "langmem_user": identity.user_id,
        "langmem_agent": identity.agent_id,
        "langmem_conversation": identity.conversation_id,
        "langmem_issued_at": int(time.time()),
    }


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
        "name": _name(identity),
        "role_descriptors": {"langmem_tenant": role_descriptor(identity, prefix, write=write)},
        "metadata": _metadata(identity, prefix),
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
    targets = list(ids) or [k["id"] for k in list_keys(client, _check_tenant(tenant) if tenant else None)]
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
    old = [k["id"] for k in list_keys(client, tenant) if k["name"] == _name(identity)]
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
        index=_index_pattern(prefix), name="index.final_pipeline", ignore_unavailable=True, allow_no_indices=True
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


# --------------------------------------------------------------------------- file realm
#
# Where the `.security` system index cannot be created (the integ-test distribution lacks
# analysis-common, so API keys and native users fail with "Unknown filter type
# [pattern_capture]"), the same role descriptors go into the file realm every node
# reads: `roles.yml` (one role per credential, with its DLS query), `users` (PBKDF2
# hashes) and `users_roles`. Elasticsearch reloads these files within ~5 seconds.

_BEGIN, _END = "# BEGIN langmem-es tenants (managed; do not edit)", "# END langmem-es tenants"


def _pbkdf2(password: str, cost: int = 10_000) -> str:
    """A file-realm hash Elasticsearch verifies (``{PBKDF2}cost$salt$hash``, HMAC-SHA512, 256 bits)."""
    salt = secrets.token_bytes(32)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, cost, dklen=32)
    return f"{{PBKDF2}}{cost}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


@dataclass(frozen=True)
class FileCredential:
    """A file-realm user of one tenant identity. ``password`` is shown once: store it."""

    username: str
    password: str
    tenant: str
    role: str

    def client_kwargs(self, url: str) -> dict[str, Any]:
        return {"hosts": [url], "basic_auth": (self.username, self.password)}


class FileRealm:
    """Tenant credentials in the file realm of a self-managed cluster (every node's config dir).

    >>> realm = FileRealm(["/path/to/node-0/config"])          # doctest: +SKIP
    >>> cred = realm.issue("acme", prefix="langmem")            # doctest: +SKIP
    >>> Elasticsearch(url, basic_auth=(cred.username, cred.password))  # doctest: +SKIP
    """

    def __init__(self, config_dirs: Sequence[str | Path]) -> None:
        if not config_dirs:
            raise ValueError("FileRealm needs the config directory of every node")
        self.dirs = [Path(d) for d in config_dirs]

    @classmethod
    def for_local_cluster(cls, name: str = "default") -> FileRealm:
        """The file realm of a cluster started by ``langmem-es es start --name NAME``."""
        from langmem_es_cli.local_es import read_info

        info = read_info(name)
        if not info:
            raise LangmemEsError(f"no local cluster {name!r}; start it with `langmem-es es start --name {name}`")
        return cls([Path(n) / "config" for n in info["paths"]["nodes"]])

    # -- files ---------------------------------------------------------------

    def _read(self) -> dict[str, dict[str, Any]]:
        """username -> {"hash", "role", "descriptor"} of the managed credentials."""
        roles_file = self.dirs[0] / "roles.yml"
        text = roles_file.read_text() if roles_file.exists() else ""
        block = text.split(_BEGIN, 1)[1].split(_END, 1)[0] if _BEGIN in text else ""
        roles = {}
        for line in block.splitlines():
            if line.strip() and not line.startswith("#"):
                name, _, body = line.partition(": ")
                roles[name] = json.loads(body)
        hashes = (
            dict(
                line.split(":", 1)
                for line in (self.dirs[0] / "users").read_text().splitlines()
                if line.startswith(USER_PREFIX)
            )
            if (self.dirs[0] / "users").exists()
            else {}
        )
        out = {}
        for user, h in hashes.items():
            role = "lm_" + user.split(".")[-1]
            if role in roles:
                out[user] = {"hash": h, "role": role, "descriptor": roles[role]}
        return out

    def _write(self, creds: Mapping[str, Mapping[str, Any]]) -> None:
        for d in self.dirs:
            roles_file, users_file, ur_file = d / "roles.yml", d / "users", d / "users_roles"
            text = roles_file.read_text() if roles_file.exists() else ""
            if _BEGIN in text:
                text = text.split(_BEGIN, 1)[0] + text.split(_END, 1)[1].lstrip("\n")
            block = (
                [_BEGIN]
                + [f"{c['role']}: {json.dumps(c['descriptor'], separators=(',', ':'))}" for c in creds.values()]
                + [_END]
            )
            _rewrite(roles_file, text.rstrip("\n") + "\n" + "\n".join(block) + "\n")
            users = [ln for ln in _lines(users_file) if not ln.startswith(USER_PREFIX)]
            _rewrite(users_file, "\n".join(users + [f"{u}:{c['hash']}" for u, c in creds.items()]) + "\n")
            kept = [ln for ln in _lines(ur_file) if not ln.startswith("lm_")]
            _rewrite(ur_file, "\n".join(kept + [f"{c['role']}:{u}" for u, c in creds.items()]) + "\n")

    # -- operations ------------------------------------------------------------

    def issue(
        self,
        tenant: str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        conversation_id: str | None = None,
        prefix: str = "langmem",
        write: bool = True,
    ) -> FileCredential:
        """A new user for the identity (a second credential if one exists: rotate replaces)."""
        identity = Identity(tenant=tenant, user_id=user_id, agent_id=agent_id, conversation_id=conversation_id)
        tag = secrets.token_hex(6)
        username = f"{USER_PREFIX}{tenant_tag(tenant)}.{tag}"
        password = secrets.token_urlsafe(24)
        descriptor = role_descriptor(identity, prefix, write=write)
        descriptor["metadata"] = {**_metadata(identity, prefix), "langmem_name": _name(identity)}
        creds = self._read()
        creds[username] = {"hash": _pbkdf2(password), "role": f"lm_{tag}", "descriptor": descriptor}
        self._write(creds)
        return FileCredential(username, password, tenant, f"lm_{tag}")

    def list(self, tenant: str | None = None) -> list[dict[str, Any]]:
        out = []
        for user, c in self._read().items():
            meta = c["descriptor"].get("metadata", {})
            if tenant is None or meta.get("langmem_tenant") == tenant:
                out.append(
                    {
                        "id": user,
                        "name": meta.get("langmem_name", ""),
                        "tenant": meta.get("langmem_tenant"),
                        "owners": meta.get("langmem_owners"),
                        "prefix": meta.get("langmem_prefix"),
                        "created": meta.get("langmem_issued_at"),
                        "invalidated": False,
                    }
                )
        return sorted(out, key=lambda k: -(k["created"] or 0))

    def revoke(self, tenant: str | None = None, *, ids: Sequence[str] = ()) -> builtins.list[str]:
        if not ids and tenant is None:
            raise ValueError("revoke needs a tenant or user names")
        creds = self._read()
        gone = [
            u
            for u, c in creds.items()
            if u in ids or (not ids and c["descriptor"].get("metadata", {}).get("langmem_tenant") == tenant)
        ]
        self._write({u: c for u, c in creds.items() if u not in gone})
        return gone

    def rotate(
        self,
        tenant: str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        conversation_id: str | None = None,
        prefix: str = "langmem",
    ) -> tuple[FileCredential, builtins.list[str]]:
        """A new credential for the identity; the identity's older ones are removed."""
        name = _name(Identity(tenant=tenant, user_id=user_id, agent_id=agent_id, conversation_id=conversation_id))
        old = [k["id"] for k in self.list(tenant) if k["name"] == name]
        new = self.issue(tenant, user_id=user_id, agent_id=agent_id, conversation_id=conversation_id, prefix=prefix)
        return new, self.revoke(ids=old) if old else []


def _lines(path: Path) -> list[str]:
    return [ln for ln in path.read_text().splitlines() if ln.strip()] if path.exists() else []


def _rewrite(path: Path, text: str) -> None:
    """Rewrite in place: the file keeps its owner and mode (the node runs as another user)."""
    with open(path, "r+" if path.exists() else "w") as f:
        f.seek(0)
        f.write(text)
        f.truncate()


def wait_for_auth(
    url: str,
    auth: Mapping[str, Any],
    *,
    expect: bool = True,
    timeout: float = 30.0,
    cluster: Sequence[str] = ("monitor",),
) -> bool:
    """Poll until the credential works (``expect``) or fails to authenticate (not ``expect``).

    Working means it authenticates *and* holds the ``cluster`` privileges its role grants
    (every tenant role grants ``monitor``): the file realm reloads ``users`` and
    ``roles.yml`` separately, and a user whose role is not loaded yet authenticates with
    no privileges at all. API keys apply at once.
    """
    from elasticsearch import AuthenticationException, Elasticsearch

    deadline = time.monotonic() + timeout
    with Elasticsearch(url, request_timeout=10, **auth) as client:
        while True:
            try:
                client.security.authenticate()
                # refused means refused: only a working credential is asked for its privileges
                ok = not (expect and cluster) or bool(
                    client.security.has_privileges(cluster=list(cluster))["has_all_requested"]
                )
            except AuthenticationException:
                ok = False
            if ok == expect:
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.5)


__all__ += ["FileCredential", "FileRealm", "tenant_tag", "wait_for_auth"]
