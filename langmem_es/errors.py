"""The exceptions langmem-es raises.

Every error the package raises on purpose derives from :class:`LangmemEsError`, so
``except LangmemEsError`` catches them all; the CLI prints them as one line
(``TypeName: message``) and exits with status 2.

The whole tree (each section below adds its part and says who owns it)::

    LangmemEsError
    ├── ConfigurationError             (also ValueError) a setting, environment variable or
    │                                  command-line value is invalid (e.g. a mistyped path)
    ├── ClusterUnavailableError        no reachable Elasticsearch (nothing configured,
    │   │                              local cluster not running, connection refused);
    │   │                              its subclasses: reachable, but cannot serve now
    │   ├── OverloadedError            429: retry with backoff
    │   └── ShardsUnavailableError     some shards have no active copy: a read refuses
    │                                  a partial answer; names them (``.shards``)
    ├── ElasticsearchStartError        `langmem-es es start` could not bring a cluster up
    │   ├── JavaNotFoundError          no JDK, or one older than Elasticsearch needs
    │   ├── MavenNotFoundError         no `mvn` to fetch the distribution with
    │   ├── DownloadError              `mvn dependency:copy` failed
    │   ├── NotEnoughDiskError         too little free space to unpack / run
    │   ├── PortInUseError             the requested HTTP/transport port is taken
    │   └── HealthTimeoutError         nodes started but the cluster never got healthy
    │                                  (message carries the last log lines)
    ├── EmbeddingError                 an embedding model failed to load or answer
    ├── RerankError                    a reranker failed to load or answer
    ├── MissingDependencyError         (also ImportError) optional extra missing: install hint
    ├── AuthenticationError            credentials rejected
    ├── AuthorizationError             credentials valid, privilege missing
    ├── StoreError                     a store / backend operation failed
    │   ├── InvalidNamespaceError      (also langgraph's InvalidNamespaceError)
    │   ├── NotSerializableError       (also TypeError)
    │   ├── DocumentTooLargeError      (also ValueError)
    │   ├── DimensionMismatchError     (also ValueError)
    │   ├── EmbedderMismatchError      (also ValueError) indices filled by another embedder
    │   ├── MappingConflictError
    │   ├── WriteError                 partial bulk failure; says whether a retry is safe
    │   └── QueryError
    └── MemoryError_                   a memory operation was refused
        ├── InvalidMemoryError         (also ValueError) bad input
        ├── IdentityError              (also KeyError) identity keys missing from config
        └── ScopeViolationError        (also PermissionError) outside the caller's scopes
            └── PermissionDeniedError  in scope, but the caller's role may not do this
                                       (the policy of core/authz.py decided)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ClusterUnavailableError",
    "ConfigurationError",
    "DownloadError",
    "ElasticsearchStartError",
    "HealthTimeoutError",
    "JavaNotFoundError",
    "LangmemEsError",
    "MavenNotFoundError",
    "NotEnoughDiskError",
    "PortInUseError",
]


class LangmemEsError(Exception):
    """Base class of every error raised on purpose by langmem-es."""


class ConfigurationError(LangmemEsError, ValueError):
    """A setting, environment variable or command-line value is invalid; nothing was changed."""


class ClusterUnavailableError(LangmemEsError):
    """No Elasticsearch cluster can be reached with the configured settings."""


class ElasticsearchStartError(LangmemEsError):
    """A local Elasticsearch cluster could not be started."""


class JavaNotFoundError(ElasticsearchStartError):
    """No Java runtime, or one too old for the Elasticsearch version."""


class MavenNotFoundError(ElasticsearchStartError):
    """`mvn` is needed to fetch the distribution from Maven Central and is missing."""


class DownloadError(ElasticsearchStartError):
    """Fetching the Elasticsearch distribution failed."""


class NotEnoughDiskError(ElasticsearchStartError):
    """Not enough free disk space to unpack or run Elasticsearch."""


class PortInUseError(ElasticsearchStartError):
    """A port the cluster needs is already taken."""


class HealthTimeoutError(ElasticsearchStartError):
    """The nodes did not reach yellow/green health in time."""


# --- embeddings, rerankers, optional extras (appended by the embeddings/rerank owner) ---
# Tree:  LangmemEsError ├── EmbeddingError ├── RerankError
#                       └── MissingDependencyError (also an ImportError)


class EmbeddingError(LangmemEsError):
    """An embedding model could not be loaded or called (HTTP status and body included)."""


class RerankError(LangmemEsError):
    """A reranker could not be loaded or called (HTTP status and body included)."""


class MissingDependencyError(LangmemEsError, ImportError):
    """An optional dependency or model file is missing; the message is a one-line install hint."""


__all__ += ["EmbeddingError", "MissingDependencyError", "RerankError"]


# --- storage, store and memory errors ---
# Tree:  LangmemEsError
#        ├── ClusterUnavailableError ┬─ OverloadedError (429: retry with backoff)
#        │                           └─ ShardsUnavailableError (shards without an active copy)
#        ├── AuthenticationError, AuthorizationError
#        ├── StoreError ┬─ InvalidNamespaceError (also langgraph's), NotSerializableError,
#        │              ├─ DocumentTooLargeError, DimensionMismatchError, EmbedderMismatchError,
#        │              ├─ MappingConflictError
#        │              └─ WriteError, QueryError
#        └── MemoryError_ ┬─ InvalidMemoryError (bad input: empty content, missing reason, …)
#                         ├─ IdentityError (identity keys missing from config)
#                         └─ ScopeViolationError (a write or read outside the caller's scopes)

from langgraph.store.base import InvalidNamespaceError as _LangGraphInvalidNamespace  # noqa: E402


class OverloadedError(ClusterUnavailableError):
    """Elasticsearch answered 429 (too many requests): retry with backoff."""


@dataclass(frozen=True)
class UnavailableShard:
    """One shard a request could not read or write: ``index[shard]`` and why."""

    index: str | None
    shard: int | None
    reason: str = ""

    def __str__(self) -> str:
        return f"{self.index or '?'}[{'?' if self.shard is None else self.shard}]"


class ShardsUnavailableError(ClusterUnavailableError):
    """The cluster answered, but some shards had no active copy (or timed out).

    A read that a decision depends on refuses the partial answer instead of taking it
    as whole; ``shards`` names what was missing. Retrying once the shards are back is
    safe.
    """

    def __init__(self, message: str, shards: Sequence[UnavailableShard] = ()) -> None:
        super().__init__(message)
        self.shards: tuple[UnavailableShard, ...] = tuple(shards)


class AuthenticationError(LangmemEsError):
    """The cluster rejected the credentials."""


class AuthorizationError(LangmemEsError):
    """The credentials are valid but lack a privilege."""


class StoreError(LangmemEsError):
    """A store or storage backend operation failed."""


class InvalidNamespaceError(StoreError, _LangGraphInvalidNamespace):
    """A namespace is empty, has an empty label, a '.' in a label, or the reserved root."""


class NotSerializableError(StoreError, TypeError):
    """A value cannot be stored as JSON."""


class DocumentTooLargeError(StoreError, ValueError):
    """A document is larger than the configured limit."""


class DimensionMismatchError(StoreError, ValueError):
    """Vectors do not have the number of dimensions the index was created with."""


class EmbedderMismatchError(StoreError, ValueError):
    """The indices were filled by another embedder than the one configured (vectors of two
    models are not comparable, even at the same size)."""

    @classmethod
    def of(cls, where: str, recorded: str, configured: str) -> EmbedderMismatchError:
        return cls(
            f"{where} holds vectors of embedder {recorded!r} but this store embeds with {configured!r}; "
            f"configure {recorded!r} again, or export and import into a new prefix (re-embeds every memory)"
        )


class MappingConflictError(StoreError):
    """A document does not fit the index mapping."""


class InvalidArgumentError(StoreError, ValueError):
    """An argument no store accepts (bad key, value type, filter operator, offset, text)."""


class WriteError(StoreError):
    """Some documents of a bulk write failed; the message says which and whether a retry is safe."""


class QueryError(StoreError):
    """A search failed inside the engine."""


class MemoryError_(LangmemEsError):
    """A memory operation was refused (named with a trailing _ not to shadow the builtin)."""


class InvalidMemoryError(MemoryError_, ValueError):
    """Bad input to a memory operation; the message says what to change."""


class IdentityError(MemoryError_, KeyError):
    """The identity (tenant, user, agent, conversation) is missing from the config."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class ScopeViolationError(MemoryError_, PermissionError):
    """An operation tried to touch memories outside the caller's scopes."""


class PermissionDeniedError(ScopeViolationError):
    """The caller's role may not do this (see :mod:`langmem_es.core.authz`); the message says who may."""


__all__ += [
    "AuthenticationError",
    "AuthorizationError",
    "DimensionMismatchError",
    "DocumentTooLargeError",
    "EmbedderMismatchError",
    "IdentityError",
    "InvalidArgumentError",
    "InvalidMemoryError",
    "InvalidNamespaceError",
    "MappingConflictError",
    "MemoryError_",
    "NotSerializableError",
    "OverloadedError",
    "PermissionDeniedError",
    "QueryError",
    "ScopeViolationError",
    "ShardsUnavailableError",
    "StoreError",
    "UnavailableShard",
    "WriteError",
]
