"""The owner's console: server-rendered pages (Jinja2, plain forms, no JavaScript build).

Sign-in is the owner's bearer token, kept in an HttpOnly, SameSite=Strict cookie
(or sent as ``Authorization``). Every page but ``/console/mine`` needs the role
``owner``; a member gets 403 there and sees their own memories on ``/console/mine``.
Writes are POST forms answered by a redirect (post/redirect/get); a POST whose
``Origin`` is another site is refused.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ..core.authz import author_of
from ..errors import LangmemEsError
from ..model import KINDS, SCOPES, Identity, Memory
from .http_errors import NotFound, PermissionDeniedError, status_for
from .state import ServerState, forget_json, to_json

__all__ = ["error_page", "router"]

COOKIE = "langmem_token"
LIST_LIMIT = 500
router = APIRouter(prefix="/console", include_in_schema=False)
templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))


def _state(request: Request) -> ServerState:
    return cast(ServerState, request.app.state.server)


def _identity(request: Request) -> Identity:
    header = request.headers.get("authorization")
    cookie = request.cookies.get(COOKIE)
    return _state(request).authenticate(header or (f"Bearer {cookie}" if cookie else None))


def _owner(request: Request) -> Identity:
    identity = _identity(request)
    if not identity.is_owner:
        raise PermissionDeniedError(
            "the console's pages are for the workspace owner (role owner); your own memories are on /console/mine"
        )
    return identity


def _same_origin(request: Request) -> None:
    origin = request.headers.get("origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.headers.get("host"):
        raise PermissionDeniedError("cross-site form post refused")


def _page(request: Request, name: str, identity: Identity | None, code: int = 200, **ctx: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, {"me": identity, **ctx}, status_code=code)


def error_page(request: Request, exc: Exception) -> Response:
    """An error as a page (the API answers JSON; the console answers HTML); 401 goes to sign-in
    (with the reason, unless the visitor simply has not signed in yet)."""
    if not isinstance(exc, LangmemEsError):
        return _page(
            request,
            "error.html",
            None,
            code=500,
            error="InternalError",
            message=f"{type(exc).__name__} (see the server log)",
        )
    status = status_for(exc)
    if status == 401 and request.method == "GET":
        if not (request.headers.get("authorization") or request.cookies.get(COOKIE)):
            return RedirectResponse("/console/login", status_code=303)  # not signed in yet: nothing went wrong
        return RedirectResponse(f"/console/login?{urlencode({'error': str(exc)})}", status_code=303)
    return _page(request, "error.html", None, code=status, error=type(exc).__name__, message=str(exc))


def _back(url: str, **params: str) -> RedirectResponse:
    return RedirectResponse(f"{url}?{urlencode(params)}" if params else url, status_code=303)


# ------------------------------------------------------------------ sign-in


@router.get("/login", response_class=HTMLResponse)
async def login_form(request: Request, error: str = "") -> HTMLResponse:
    return _page(request, "login.html", None, error=error)


@router.post("/login")
async def login(request: Request, token: str = Form(..., max_length=512)) -> Response:
    _same_origin(request)
    identity = _state(request).authenticate(f"Bearer {token.strip()}")
    response = _back("/console/" if identity.is_owner else "/console/mine")
    response.set_cookie(
        COOKIE,
        token.strip(),
        httponly=True,
        samesite="strict",
        path="/console",
        secure=_state(request).settings.cookie_secure,
    )
    return response


@router.post("/logout")
async def logout() -> Response:
    response = _back("/console/login")
    response.delete_cookie(COOKIE, path="/console")
    return response


# ------------------------------------------------------------------ memories


async def _memories(
    request: Request, identity: Identity, q: str, kind: str, scope: str, user: str, status: str
) -> list[Memory]:
    core = _state(request).core
    if q.strip():
        found = await core.recall(identity, q, k=50, include_superseded=True)
        memories = [r.memory for r in found.memories]
    else:
        records = await core.export(
            identity,
            scopes=["private", "shared", "conversation"] if identity.conversation_id else ["private", "shared"],
            include_tombstones=False,
        )
        memories = [Memory.model_validate(r) for r in records]
        memories.sort(key=lambda m: m.written_at, reverse=True)
    return [
        m
        for m in memories
        if (not kind or m.kind == kind)
        and (not scope or m.scope == scope)
        and (not status or m.status == status)
        and (not user or m.owner == f"user:{user}" or m.written_by == user or author_of(m).get("user_id") == user)
    ][:LIST_LIMIT]


@router.get("/", response_class=HTMLResponse)
async def memories(
    request: Request, q: str = "", kind: str = "", scope: str = "", user: str = "", status: str = ""
) -> HTMLResponse:
    identity = _owner(request)
    rows = await _memories(request, identity, q, kind, scope, user, status)
    return _page(
        request,
        "memories.html",
        identity,
        rows=rows,
        q=q,
        kind=kind,
        scope=scope,
        user=user,
        status=status,
        kinds=KINDS,
        scopes=SCOPES,
        statuses=("active", "superseded", "soft_deleted"),
    )


@router.get("/mine", response_class=HTMLResponse)
async def mine(request: Request, q: str = "") -> HTMLResponse:
    identity = _identity(request)
    rows = [
        m
        for m in await _memories(request, identity, q, "", "", "", "")
        if m.owner in (identity.user_owner, identity.agent_owner)
    ]
    return _page(request, "mine.html", identity, rows=rows, q=q)


@router.get("/memory/{memory_id}", response_class=HTMLResponse)
async def memory_history(request: Request, memory_id: str) -> HTMLResponse:
    identity = _owner(request)
    versions = await _state(request).core.history(identity, memory_id)
    if not versions:
        raise NotFound(f"no memory {memory_id!r} in your scopes")
    return _page(request, "history.html", identity, versions=versions, memory_id=memory_id)


# ------------------------------------------------------------------ review


@router.get("/conflicts", response_class=HTMLResponse)
async def conflicts(request: Request, done: str = "") -> HTMLResponse:
    identity = _owner(request)
    core = _state(request).core
    return _page(
        request,
        "conflicts.html",
        identity,
        open=await core.conflicts(identity),
        resolved=(await core.conflicts(identity, status="resolved"))[-20:],
        done=done,
    )


@router.post("/conflicts/{conflict_id}/resolve")
async def resolve(request: Request, conflict_id: str, winner: str = Form(..., max_length=256)) -> Response:
    _same_origin(request)
    identity = _owner(request)
    await _state(request).core.resolve(identity, conflict_id, winner)
    return _back("/console/conflicts", done=f"{conflict_id} resolved: {winner} kept")


@router.get("/pending", response_class=HTMLResponse)
async def pending(request: Request, done: str = "") -> HTMLResponse:
    identity = _owner(request)
    core = _state(request).core
    rows = await core.pending(identity)
    return _page(request, "pending.html", identity, rows=rows, done=done)


@router.post("/pending/{memory_id}/{decision}")
async def review(request: Request, memory_id: str, decision: str) -> Response:
    _same_origin(request)
    identity = _owner(request)
    if decision not in ("approve", "reject"):
        raise NotFound(f"no action {decision!r}: approve or reject")
    await getattr(_state(request).core, decision)(identity, memory_id)
    return _back("/console/pending", done=f"{memory_id} {decision}d")


# ------------------------------------------------------------------ forgetting and purge


def _forget_args(ids: str, subject_key: str, query: str) -> dict[str, Any]:
    return {
        "ids": [i for i in ids.replace(",", " ").split() if i],
        "subject_key": subject_key.strip() or None,
        "query": query.strip() or None,
    }


@router.get("/forget", response_class=HTMLResponse)
async def forget_form(request: Request, done: str = "") -> HTMLResponse:
    return _page(request, "forget.html", _owner(request), preview=None, done=done, ids="", subject_key="", query="")


@router.post("/forget", response_class=HTMLResponse)
async def forget(
    request: Request,
    ids: str = Form("", max_length=20_000),
    subject_key: str = Form("", max_length=256),
    query: str = Form("", max_length=4000),
    confirm: str = Form(""),
) -> Response:
    _same_origin(request)
    identity = _owner(request)
    core = _state(request).core
    args = _forget_args(ids, subject_key, query)
    if confirm != "yes":
        report = forget_json(await core.forget(identity, **args, dry_run=True))
        previewed = [await core.get(identity, i) for i in report["ids"]]
        return _page(
            request,
            "forget.html",
            identity,
            preview=report,
            previewed=[m for m in previewed if m],
            done="",
            ids=ids,
            subject_key=subject_key,
            query=query,
        )
    report = forget_json(await core.forget(identity, **args))
    return _back("/console/forget", done=f"forgot {len(report['ids'])}: {', '.join(report['ids'])}")


@router.get("/purge", response_class=HTMLResponse)
async def purge_form(request: Request, done: str = "") -> HTMLResponse:
    return _page(request, "purge.html", _owner(request), done=done)


@router.post("/purge")
async def purge(
    request: Request,
    user_id: str = Form(..., max_length=256),
    confirm_user: str = Form(""),
    keep_shared: str = Form(""),
) -> Response:
    _same_origin(request)
    identity = _owner(request)
    if confirm_user.strip() != user_id.strip():
        return _page(
            request,
            "purge.html",
            identity,
            code=422,
            done="",
            error=f"type the user id {user_id!r} again to confirm the purge",
        )
    removed = await _state(request).core.purge_user(identity, user_id.strip(), keep_shared=bool(keep_shared))
    return _back("/console/purge", done=f"purged user {user_id.strip()}; removed: {_counts(to_json(removed))}")


def _counts(removed: dict[str, Any]) -> str:
    parts = [
        f"{n} {kind} {scope}" for kind, per in removed.items() if isinstance(per, dict) for scope, n in per.items() if n
    ]
    return ", ".join(parts) or "nothing"


# ------------------------------------------------------------------ audit and health


@router.get("/audit", response_class=HTMLResponse)
async def audit(request: Request, action: str = "") -> HTMLResponse:
    identity = _owner(request)
    entries = await _state(request).core.audit_log(identity, action=action or None)
    return _page(request, "audit.html", identity, entries=list(reversed(entries))[:LIST_LIMIT], action=action)


@router.get("/health", response_class=HTMLResponse)
async def health(request: Request) -> HTMLResponse:
    identity = _owner(request)
    state = _state(request)
    caps = state.core.capabilities
    details: dict[str, Any] = {}
    if state.health is not None:
        try:
            details = dict(await asyncio.to_thread(state.health))
        except Exception as exc:  # noqa: BLE001 - the panel shows why the engine did not answer
            details = {"error": f"{type(exc).__name__}: {exc}"}
    return _page(request, "health.html", identity, caps=to_json(caps), details=details)
