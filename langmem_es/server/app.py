"""One ASGI app: the HTTP API (``/v1``), MCP over streamable HTTP (``/mcp``), the console (``/console``).

Serve it with uvicorn, e.g.::

    app = create_app(AsyncMemoryCore(AsyncSQLiteBackend("memory.db")), TokenTable.load("tokens.toml"))
    uvicorn.run(app, host="127.0.0.1", port=8080)
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..errors import LangmemEsError
from . import api, console
from .auth import TokenTable
from .http_errors import NotFound, RateLimited, TooLarge, error_body, status_for
from .mcp_server import build_mcp_server, identity_from_request
from .state import ServerSettings, ServerState

__all__ = ["create_app"]

log = logging.getLogger("langmem_es.server")


def create_app(
    core: Any,
    tokens: TokenTable,
    *,
    settings: ServerSettings | None = None,
    health: Callable[[], Mapping[str, Any]] | None = None,
    setup: bool = True,
) -> FastAPI:
    """The server over an **async** memory core (``AsyncMemoryCore``); ``setup`` runs ``core.setup()`` at start.

    ``health`` (optional) adds engine details to the console's health panel (the CLI
    passes index sizes and the isolation mode of the backend it opened).
    """
    state = ServerState(core, tokens, settings or ServerSettings(), health)
    mcp = build_mcp_server(
        core,
        identity_from_request,
        recall_budget_tokens=state.settings.recall_budget_tokens,
        shared=state.settings.mcp_shared,
    )
    mcp_app = mcp.streamable_http_app(
        streamable_http_path="/",
        stateless_http=True,
        json_response=True,
        max_request_body_size=state.settings.max_body_bytes,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if setup:
            await core.setup()
        async with mcp.session_manager.run():
            yield
        await core.close()

    app = FastAPI(
        title="langmem-es",
        version=__version__,
        lifespan=lifespan,
        description="Persistent, scoped memory: HTTP API, MCP server (/mcp) and owner's console (/console).",
    )
    app.state.server = state
    app.include_router(api.router)
    app.include_router(console.router)
    app.mount("/mcp", _McpAuth(mcp_app, state))

    @app.get("/", include_in_schema=False)
    async def root() -> RedirectResponse:
        return RedirectResponse("/console/")

    @app.exception_handler(LangmemEsError)
    async def library_error(request: Request, exc: LangmemEsError) -> Response:
        if request.url.path.startswith("/console"):
            return console.error_page(request, exc)
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if isinstance(exc, RateLimited) else None
        if status_for(exc) == 401:
            headers = {"WWW-Authenticate": "Bearer"}
        return JSONResponse(error_body(exc), status_code=status_for(exc), headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": "InvalidRequest", "message": _validation_text(exc.errors())}, status_code=422)

    @app.exception_handler(ValidationError)
    async def bad_value(request: Request, exc: ValidationError) -> JSONResponse:
        return JSONResponse({"error": "InvalidRequest", "message": _validation_text(exc.errors())}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """Unknown routes, wrong methods and bodies that do not parse answer in the API's shape."""
        names = {400: "BadRequest", 404: "NotFound", 405: "MethodNotAllowed"}
        message = str(exc.detail)
        if exc.status_code == 400 and "parsing the body" in message:
            message = "the request body does not parse: send UTF-8 JSON"
        elif exc.status_code == 404:
            message = f"no route {request.method} {request.url.path} (the API is under /v1, see /docs)"
            if request.url.path.startswith("/console"):
                return console.error_page(request, NotFound(f"no page {request.url.path}"))
        return JSONResponse(
            {"error": names.get(exc.status_code, "HTTPError"), "message": message},
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        if request.url.path.startswith("/console"):
            return console.error_page(request, exc)
        return JSONResponse(
            {"error": "InternalError", "message": f"{type(exc).__name__} (see the server log)"}, status_code=500
        )

    app.add_middleware(_BodyLimit, limit=state.settings.max_body_bytes)
    return app


def _validation_text(errors: Any) -> str:
    parts = []
    for e in errors[:5]:
        if e.get("type") == "json_invalid":
            where = [p for p in e.get("loc", ()) if p != "body"]
            at = f" at character {where[0]}" if where else ""
            parts.append(f"body: not valid JSON{at} ({(e.get('ctx') or {}).get('error', 'invalid')})")
            continue
        loc = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
        parts.append(f"{loc}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)


async def _send_error(send: Send, exc: LangmemEsError, headers: Mapping[str, str] | None = None) -> None:
    await JSONResponse(error_body(exc), status_code=status_for(exc), headers=dict(headers or {}))(
        {"type": "http"}, _no_receive, send
    )


async def _no_receive() -> Message:  # pragma: no cover - a response never reads the body
    return {"type": "http.disconnect"}


class _BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, by ``Content-Length`` or while streaming."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        too_large = TooLarge(f"request body over {self.limit} bytes")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _send_error(send, too_large)
            return
        if declared is None and scope.get("method") in ("POST", "PUT", "PATCH"):
            # a streamed (chunked) body: read it up to the limit first, then hand it on
            messages: list[Message] = []
            size = 0
            while True:
                message = await receive()
                messages.append(message)
                size += len(message.get("body", b""))
                if size > self.limit:
                    await _send_error(send, too_large)
                    return
                if message["type"] != "http.request" or not message.get("more_body"):
                    break

            async def replay() -> Message:
                return messages.pop(0) if messages else await receive()

            await self.app(scope, replay, send)
            return
        await self.app(scope, receive, send)


class _McpAuth:
    """Authenticate MCP requests by bearer token; the identity goes on ``scope["state"]`` for the tools."""

    def __init__(self, app: ASGIApp, state: ServerState) -> None:
        self.app, self.state = app, state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or ()}
            try:
                identity = self.state.authenticate(headers.get("authorization"), headers.get("x-conversation-id"))
            except LangmemEsError as exc:
                extra = {"WWW-Authenticate": "Bearer"} if status_for(exc) == 401 else {}
                if isinstance(exc, RateLimited):
                    extra["Retry-After"] = str(max(1, round(exc.retry_after)))
                await _send_error(send, exc, extra)
                return
            scope.setdefault("state", {})["langmem_identity"] = identity
        await self.app(scope, receive, send)
