"""The MCP server: the LangChain memory tools (:mod:`langmem_es.tools`) spoken over MCP.

The tools are the very ones :func:`~langmem_es.tools.create_memory_tools` builds —
same argument schemas, texts, scopes and errors — so an MCP client and a LangGraph
agent see one behaviour. What MCP adds is where the identity comes from:

* streamable HTTP (mounted by :func:`~langmem_es.server.create_app`): the request's
  bearer token (``identity_for`` reads what the authentication middleware stored);
* stdio (``langmem-es mcp``): the identity the server was started with.

Never from a tool argument: an argument the tool does not declare (``tenant_id``,
``user_id`` ...) is refused, not ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from langchain_core.tools import ToolException
from mcp import types
from mcp.server.lowlevel import Server
from pydantic import BaseModel, ValidationError

from .. import __version__
from ..errors import LangmemEsError
from ..model import Identity
from ..tools import create_memory_tools

__all__ = ["build_mcp_server", "config_for", "identity_from_request", "run_stdio"]

INSTRUCTIONS = (
    "Long-term memory of this user and workspace. Recall before answering questions that may depend "
    "on what was said or learned before; remember durable facts (with a reason and a subject_key), "
    "events and how-to playbooks; forget on request; record whether a playbook worked."
)

IdentityFor = Callable[[Any], Identity]


def config_for(identity: Identity) -> dict[str, Any]:
    """The LangChain run config carrying ``identity`` (what the tools read it from)."""
    configurable: dict[str, Any] = {"tenant_id": identity.tenant, "roles": sorted(identity.roles)}
    for key, value in (
        ("user_id", identity.user_id),
        ("agent_id", identity.agent_id),
        ("thread_id", identity.conversation_id),
    ):
        if value:
            configurable[key] = value
    return {"configurable": configurable}


def identity_from_request(ctx: Any) -> Identity:
    """The identity the HTTP authentication middleware stored on the request (``scope["state"]``)."""
    request = getattr(ctx, "request", None)
    identity = getattr(request, "scope", {}).get("state", {}).get("langmem_identity") if request is not None else None
    if not isinstance(identity, Identity):
        raise LangmemEsError("no authenticated identity on this connection")
    return identity


def build_mcp_server(
    core: Any, identity_for: IdentityFor, *, recall_budget_tokens: int = 1200, shared: bool = False
) -> Server:
    """A low-level MCP server exposing remember, recall, forget and record_outcome over ``core``.

    ``shared``: remember and forget may act on the shared scope (as ``create_memory_tools(shared=True)``);
    the core's policy still decides who may.
    """
    tools = {t.name: t for t in create_memory_tools(core, recall_budget_tokens=recall_budget_tokens, shared=shared)}
    listed = [
        types.Tool(name=t.name, description=t.description, input_schema=_model_schema(t).model_json_schema())
        for t in tools.values()
    ]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            return _error(f"unknown tool {params.name!r}; tools: {sorted(tools)}")
        arguments = dict(params.arguments or {})
        schema = _model_schema(tool)
        unknown = sorted(set(arguments) - set(schema.model_fields))
        if unknown:
            return _error(
                f"unknown argument(s) {unknown} for {tool.name}: the identity comes from the connection, "
                f"never from tool arguments; arguments: {sorted(schema.model_fields)}"
            )
        try:
            args = schema.model_validate(arguments)
            identity = identity_for(ctx)
            text = await tool.coroutine(config_for(identity), **dict(args))  # type: ignore[misc]
        except ValidationError as exc:
            return _error(
                "invalid arguments: "
                + "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in exc.errors())
            )
        except ToolException as exc:
            return _error(str(exc))
        except LangmemEsError as exc:
            return _error(f"{type(exc).__name__}: {exc}")
        return types.CallToolResult(content=[types.TextContent(type="text", text=str(text))], is_error=False)

    return Server(
        "langmem-es", version=__version__, instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool
    )


def _model_schema(tool: Any) -> type[BaseModel]:
    """The arguments a model (here: an MCP client) gives: the graph's injected state is not one."""
    return cast("type[BaseModel]", tool.tool_call_schema)


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


async def run_stdio(core: Any, identity: Identity, *, shared: bool = False) -> None:
    """Serve MCP on stdin/stdout for one fixed identity (a desktop client's ``command``)."""
    from mcp.server.stdio import stdio_server

    server = build_mcp_server(core, lambda ctx: identity, shared=shared)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
