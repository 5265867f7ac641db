"""Library errors as HTTP answers: ``{"error": TypeName, "message": ...}`` with a fitting status.

==========================================  ======
error                                       status
==========================================  ======
AuthenticationError (missing/bad/expired)   401
ScopeViolationError, PermissionDeniedError  403
NotFound (an id the caller cannot see)      404
body too large                              413
InvalidMemoryError, IdentityError,          422
InvalidArgumentError, request validation
rate limit                                  429
WriteError (concurrent writers: retry)      409
ClusterUnavailableError, OverloadedError    503
any other LangmemEsError                    500
==========================================  ======

The message is the library's own (the same text a Python caller sees).
"""

from __future__ import annotations

from typing import Any

from .. import errors as E
from ..errors import PermissionDeniedError

__all__ = ["NotFound", "PermissionDeniedError", "RateLimited", "TooLarge", "error_body", "status_for"]


class NotFound(E.LangmemEsError):
    """Nothing with this id in the caller's scopes (unknown and foreign ids answer alike)."""


class TooLarge(E.LangmemEsError):
    """The request body is larger than the server accepts."""


class RateLimited(E.LangmemEsError):
    """Too many requests for this token; retry after the given seconds."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


_STATUS: tuple[tuple[type[BaseException], int], ...] = (
    (E.AuthenticationError, 401),
    (E.ScopeViolationError, 403),
    (E.AuthorizationError, 403),
    (NotFound, 404),
    (TooLarge, 413),
    (RateLimited, 429),
    (E.WriteError, 409),
    (E.InvalidMemoryError, 422),
    (E.IdentityError, 422),
    (E.InvalidArgumentError, 422),
    (E.ConfigurationError, 422),
    (E.DocumentTooLargeError, 413),
    (E.InvalidNamespaceError, 422),
    (E.ClusterUnavailableError, 503),
    (E.MemoryError_, 400),
)


def status_for(exc: BaseException) -> int:
    """The HTTP status of a library error (500 for any error not listed)."""
    for cls, status in _STATUS:
        if isinstance(exc, cls):
            return status
    return 500


def error_body(exc: BaseException) -> dict[str, Any]:
    """The JSON body of an error answer."""
    return {"error": type(exc).__name__, "message": str(exc)}
