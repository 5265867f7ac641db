"""What every part of the server shares: the memory core, the tokens, the limits."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.validation import MAX_CONTENT_BYTES
from ..errors import InvalidMemoryError
from ..model import Identity
from .auth import RateLimiter, TokenTable
from .http_errors import RateLimited

__all__ = ["ServerSettings", "ServerState", "forget_json", "in_conversation", "to_json"]


@dataclass(frozen=True)
class ServerSettings:
    """Limits and options of one server."""

    max_body_bytes: int = MAX_CONTENT_BYTES
    """Larger request bodies are refused with 413 (1 MiB: an import of a few thousand memories; the
    Python API's ``remember`` takes content up to the same size, :data:`~langmem_es.core.validation.MAX_CONTENT_BYTES`)."""
    rate_per_second: float = 50.0
    """Sustained requests per second per token (HTTP API, MCP and console alike)."""
    burst: int = 100
    """Requests a token may send at once before the rate applies."""
    recall_budget_tokens: int = 1200
    """Token budget of the MCP ``recall`` tool's text (as for the LangChain tools)."""
    mcp_shared: bool = False
    """The MCP tools remember and forget may act on the shared scope (the core's policy still decides)."""
    cookie_secure: bool = False
    """Mark the console's session cookie ``Secure`` (set it behind HTTPS)."""


@dataclass
class ServerState:
    """The memory core (async), the accepted tokens and the limiter; ``health`` adds engine details."""

    core: Any
    tokens: TokenTable
    settings: ServerSettings = field(default_factory=ServerSettings)
    health: Callable[[], Mapping[str, Any]] | None = None
    limiter: RateLimiter = field(init=False)

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.settings.rate_per_second, self.settings.burst)

    def authenticate(self, authorization: str | None, conversation: str | None = None) -> Identity:
        """The identity behind an ``Authorization`` header, counted against its token's rate limit.

        ``conversation`` (the ``X-Conversation-Id`` header) names the caller's conversation:
        its conversation-scoped memories are the caller's own in that conversation (the id is
        qualified by the token's user, else agent, so one member never reaches another's)."""
        key, identity = self.tokens.identify(authorization)
        wait = self.limiter.allow(key)
        if wait:
            raise RateLimited(
                f"rate limit: at most {self.settings.rate_per_second:g} requests/s per token "
                f"(burst {self.settings.burst}); retry in {wait:.2f}s",
                wait,
            )
        if conversation is None:
            return identity
        return in_conversation(identity, conversation)


#: Characters of an ``X-Conversation-Id`` (a client's thread or chat id).
CONVERSATION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}")


def in_conversation(identity: Identity, conversation: str) -> Identity:
    """``identity`` in its own conversation ``conversation`` (qualified by its user, else agent)."""
    conversation = conversation.strip()
    if not CONVERSATION_ID.fullmatch(conversation):
        raise InvalidMemoryError(
            "X-Conversation-Id: 1-128 characters, letters, digits and . _ : @ - (starting with a letter or digit)"
        )
    principal = identity.user_owner or identity.agent_owner
    try:
        return Identity.model_validate({**identity.model_dump(), "conversation_id": f"{principal}/{conversation}"})
    except ValueError:
        raise InvalidMemoryError("X-Conversation-Id: too long with the caller's id (at most 256 characters)") from None


def to_json(value: Any) -> Any:
    """Results of the core (dataclasses, pydantic models, lists) as JSON-ready data."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def forget_json(report: Any) -> dict[str, Any]:
    """A :class:`~langmem_es.core.results.ForgetReport` as JSON."""
    return {
        "ids": list(report.ids),
        "counts": to_json(report.counts),
        "dry_run": bool(report.dry_run),
        "denied": list(getattr(report, "denied", [])),
        "copies": list(getattr(report, "copies", [])),
    }
