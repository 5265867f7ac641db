"""Turn elasticsearch-py exceptions into langmem-es errors that say what to do."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import elasticsearch as es

from ... import errors
from . import shards


@contextmanager
def translate_errors(what: str = "the request", *, read: bool = True) -> Iterator[None]:
    """Re-raise elasticsearch-py errors as langmem-es errors; ``what`` names the request in messages."""
    try:
        yield
    except es.AuthenticationException as exc:
        raise errors.AuthenticationError(
            "Elasticsearch rejected the credentials; check LANGMEM_ES_USER/LANGMEM_ES_PASSWORD or LANGMEM_ES_API_KEY"
        ) from exc
    except es.AuthorizationException as exc:
        raise errors.AuthorizationError(
            f"these credentials may not do that: {_reason(exc)}; grant the role the index privileges it needs"
        ) from exc
    except es.ConnectionTimeout as exc:  # it may be up: a write waits (1m) for an unavailable primary
        raise errors.ClusterUnavailableError(
            f"Elasticsearch did not answer in time ({exc}); if it is running, it may be overloaded or waiting for "
            "a shard without an active copy (check `GET _cluster/health?level=indices`); retrying later is safe"
        ) from exc
    except es.ConnectionError as exc:
        raise errors.ClusterUnavailableError(
            f"cannot reach Elasticsearch ({exc.__class__.__name__}: {exc}); is it running? "
            "`langmem-es es start` starts a local one; retrying later is safe"
        ) from exc
    except es.ApiError as exc:
        status = getattr(exc, "status_code", None) or getattr(getattr(exc, "meta", None), "status", None)
        reason = _reason(exc)
        if status == 429:
            raise errors.OverloadedError(f"Elasticsearch is overloaded (429: {reason}); retry with backoff") from exc
        found = shards.from_error_body(status, getattr(exc, "body", None) or getattr(exc, "info", None))
        if found:  # reachable, but shards without an active copy: not "cannot reach"
            raise shards.shards_error(found, what, read=read) from exc
        if status in (502, 503, 504):
            raise errors.ClusterUnavailableError(
                f"Elasticsearch is unavailable ({status}: {reason}); retry later"
            ) from exc
        if "mapper_parsing_exception" in reason or "illegal_argument_exception" in reason and "mapper" in reason:
            raise errors.MappingConflictError(
                f"a document does not fit the index mapping ({reason}); check the field types, or use a new prefix"
            ) from exc
        raise


def _reason(exc: Exception) -> str:
    info = getattr(exc, "info", None) or getattr(exc, "body", None)
    if isinstance(info, dict):
        err = info.get("error", info)
        if isinstance(err, dict):
            root = (err.get("root_cause") or [err])[0]
            return f"{root.get('type')}: {root.get('reason')}"
    return str(exc)
