"""Bearer tokens mapped to identities, and a per-token rate limit.

A token file (TOML, Python 3.11+, or JSON) lists the tokens a server accepts::

    # tokens.toml
    [[tokens]]
    token = "s3cret-sam"                 # or token_sha256 = "<hex sha256 of the token>"
    tenant = "acme"
    user_id = "sam"
    agent_id = "desktop"                 # optional
    roles = ["owner"]                    # optional: "member" (default) or "owner"
    expires = "2027-01-31T00:00:00Z"     # optional: refused from then on

JSON: ``{"tokens": [{"token": "...", "tenant": "acme", "user_id": "sam"}]}``.
The identity of a request comes only from its token — never from a request body or a
tool argument. ``token_sha256`` keeps clear-text secrets out of the file.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..documents import parse_time
from ..errors import AuthenticationError, ConfigurationError
from ..model import Identity

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: JSON token files only
    tomllib = None

__all__ = ["RateLimiter", "TokenEntry", "TokenTable", "digest"]


def digest(token: str) -> str:
    """The hex SHA-256 of a token (what ``token_sha256`` holds)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TokenEntry:
    """One accepted token: whose it is and until when."""

    identity: Identity
    expires: datetime | None = None
    name: str = ""


class TokenTable:
    """The accepted tokens, by SHA-256; :meth:`identify` turns an ``Authorization`` header into an identity."""

    def __init__(self, entries: Mapping[str, TokenEntry]) -> None:
        self._by_digest = dict(entries)

    def __len__(self) -> int:
        return len(self._by_digest)

    @classmethod
    def from_records(cls, records: Iterable[Mapping[str, Any]]) -> TokenTable:
        """Build from dicts shaped like the file's ``tokens`` entries (see the module docstring)."""
        entries: dict[str, TokenEntry] = {}
        for n, rec in enumerate(records, 1):
            where = f"token entry {n}"
            if not isinstance(rec, Mapping):
                raise ConfigurationError(f"{where}: expected a table/object, got {type(rec).__name__}")
            unknown = set(rec) - {"token", "token_sha256", "tenant", "user_id", "agent_id", "roles", "expires", "name"}
            if unknown:
                raise ConfigurationError(f"{where}: unknown key(s) {sorted(unknown)}")
            secret, hashed = rec.get("token"), rec.get("token_sha256")
            if bool(secret) == bool(hashed):
                raise ConfigurationError(f"{where}: give exactly one of token / token_sha256")
            key = digest(str(secret)) if secret else str(hashed).lower()
            if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
                raise ConfigurationError(f"{where}: token_sha256 must be 64 hex digits")
            if secret is not None and len(str(secret)) < 8:
                raise ConfigurationError(f"{where}: a token must have at least 8 characters")
            try:
                identity = Identity.model_validate(
                    {
                        "tenant": rec.get("tenant"),
                        "user_id": rec.get("user_id"),
                        "agent_id": rec.get("agent_id"),
                        "roles": rec.get("roles") or ["member"],
                    }
                )
            except ValueError as exc:
                raise ConfigurationError(
                    f"{where}: {exc.errors()[0]['msg'] if hasattr(exc, 'errors') else exc}"
                ) from None
            if not (identity.user_id or identity.agent_id):
                raise ConfigurationError(f"{where}: needs user_id or agent_id")
            if key in entries:
                raise ConfigurationError(f"{where}: the same token appears twice")
            entries[key] = TokenEntry(identity, _when(rec.get("expires"), where), str(rec.get("name") or ""))
        return cls(entries)

    @classmethod
    def load(cls, path: str | Path) -> TokenTable:
        """Read a TOML (``.toml``) or JSON token file."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigurationError(f"cannot read token file {path}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise ConfigurationError(
                f"token file {path} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
                "save it as UTF-8"
            ) from None
        if path.suffix.lower() == ".toml":
            if tomllib is None:  # Python 3.10
                raise ConfigurationError("TOML token files need Python 3.11+; use a .json file")

            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise ConfigurationError(f"token file {path}: {exc}") from None
        else:
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise ConfigurationError(f"token file {path}: not JSON ({exc})") from None
        if not isinstance(data, Mapping) or not isinstance(data.get("tokens"), list):
            raise ConfigurationError(f"token file {path}: needs a list 'tokens' ([[tokens]] in TOML)")
        return cls.from_records(data["tokens"])

    def identify(self, authorization: str | None, *, now: datetime | None = None) -> tuple[str, Identity]:
        """``(token digest, identity)`` for an ``Authorization: Bearer ...`` header, else :class:`AuthenticationError`."""
        if not authorization:
            raise AuthenticationError("missing bearer token: send 'Authorization: Bearer <token>'")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise AuthenticationError("malformed Authorization header: expected 'Bearer <token>'")
        key = digest(token.strip())
        entry = self._by_digest.get(key)
        if entry is None:
            raise AuthenticationError("unknown bearer token")
        if entry.expires is not None and (now or datetime.now(timezone.utc)) >= entry.expires:
            raise AuthenticationError("bearer token expired")
        return key, entry.identity


def _when(value: Any, where: str) -> datetime | None:
    if value in (None, ""):
        return None
    when = parse_time(value)
    if when is None:
        raise ConfigurationError(f"{where}: expires must be an ISO 8601 time, got {value!r}")
    return when


class RateLimiter:
    """A token bucket per key: ``burst`` requests at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: int) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate, self.burst = float(rate), int(burst)
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> float:
        """0.0 when the request may go ahead; else the seconds to wait before retrying."""
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
