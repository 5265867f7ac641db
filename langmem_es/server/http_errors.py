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

from .. import errors as errors
from ..errors import PermissionDeniedError

__all__ = ["NotFound", "PermissionDeniedError", "RateLimited", "TooLarge", "error_body", "status_for"]


class NotFound(errors.LangmemEsError):
    """Nothing with this id in the caller's scopes (unknown and foreign ids answer alike)."""


class TooLarge(errors.LangmemEsError):
    """The request body is larger than the server accepts."""


class RateLimited(errors.LangmemEsError):
    """Too many requests for this token; retry after the given seconds."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


_STATUS: tuple[tuple[type[BaseException], int], ...] = (
    (errors.AuthenticationError, 401),
    (errors.ScopeViolationError, 403),
    (errors.AuthorizationError, 403),
    (NotFound, 404),
    (TooLarge, 413),
    (RateLimited, 429),
    (errors.WriteError, 409),
    (errors.InvalidMemoryError, 422),
    (errors.IdentityError, 422),
    (errors.InvalidArgumentError, 422),
    (errors.ConfigurationError, 422),
    (errors.DocumentTooLargeError, 413),
    (errors.InvalidNamespaceError, 422),
    (errors.ClusterUnavailableError, 503),
    (errors.MemoryError_, 400),
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
