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
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langmem_es.errors import LangmemEsError
from langmem_es.model import Identity
from langmem_es_cli.tenants_dls import (
    USER_PREFIX,
    credential_metadata,
    credential_name,
    dls_query,
    pipeline_name,
    role_descriptor,
    tenant_tag,
)
from langmem_es_cli.tenants_keys import install, isolation_status, issue_key, list_keys, revoke

# the API-key operations and the DLS query live in tenants_keys and tenants_dls; tests reach
# these through this module
__all__ = [
    "USER_PREFIX",
    "FileCredential",
    "FileRealm",
    "dls_query",
    "install",
    "isolation_status",
    "issue_key",
    "list_keys",
    "pipeline_name",
    "revoke",
    "tenant_tag",
    "wait_for_auth",
]


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
        descriptor["metadata"] = {**credential_metadata(identity, prefix), "langmem_name": credential_name(identity)}
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
        name = credential_name(
            Identity(tenant=tenant, user_id=user_id, agent_id=agent_id, conversation_id=conversation_id)
        )
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
