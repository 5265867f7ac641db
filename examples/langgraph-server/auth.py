"""Who calls the server: a bearer token becomes a user with a tenant (replace USERS with your
identity provider). Threads are their creator's; the ``/store`` endpoints are confined by
the handler langmem-es ships."""

from typing import Any

from langgraph_sdk import Auth

from langmem_es.integration.langgraph_server import authorize_store

# token -> the user the server hands to every run (configurable["langgraph_auth_user"]).
# `identity` is the user, `tenant_id` the tenant; "memory:owner" makes alice an owner of acme.
USERS: dict[str, dict[str, Any]] = {
    "alice-token": {"identity": "alice", "tenant_id": "acme", "permissions": ["memory:owner"]},
    "mallory-token": {"identity": "mallory", "tenant_id": "acme", "permissions": []},
}

auth = Auth()


@auth.authenticate
async def authenticate(authorization: str | None) -> dict[str, Any]:
    scheme, _, token = (authorization or "").partition(" ")
    user = USERS.get(token.strip()) if scheme.lower() == "bearer" else None
    if user is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown or missing bearer token")
    return dict(user)


@auth.on.threads
async def own_threads(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> dict[str, str]:
    """A thread (and its runs) belongs to the user who created it."""
    owner = {"owner": ctx.user.identity}
    if ctx.action in ("create", "create_run"):
        if value.get("metadata") is None:
            value["metadata"] = {}
        value["metadata"].update(owner)  # in place: the server keeps this dict
    return owner


@auth.on.assistants
async def read_assistants(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> bool:
    """Everyone may use the deployed graphs; nobody creates or changes assistants."""
    return ctx.action in ("read", "search")


@auth.on.crons
async def no_crons(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> bool:
    return False


auth.on.store()(authorize_store)
