"""LangChain tools over the memory core: ``remember``, ``recall``, ``forget``, ``record_outcome``.

>>> from langmem_es.tools import create_memory_tools
>>> from langmem_es.store import SQLiteMemoryStore
>>> remember, recall, forget, record_outcome = create_memory_tools(SQLiteMemoryStore())
>>> cfg = {"configurable": {"tenant_id": "acme", "user_id": "sam"}}
>>> remember.invoke({"content": "Sam lives in Edinburgh.", "reason": "Local advice depends on it.",
...                  "subject_key": "user.home_city"}, config=cfg)  # doctest: +ELLIPSIS
'Remembered [semantic ...] (created, private).'
>>> print(recall.invoke({"query": "where does Sam live?"}, config=cfg))  # doctest: +ELLIPSIS
1 memory:
- [semantic ...] Sam lives in Edinburgh. (..., private, confidence 0.80)

The **identity** (tenant, user, agent, conversation) comes only from the run's
``config["configurable"]`` (see :mod:`langmem_es.integration.identity`): it is not an
argument the model sees or can set. The **store** is resolved on every call: the
``store`` given to the factory, else the running graph's (``get_store()``). Each tool
has a sync and an async function; results are short texts citing full memory ids, which
the model can pass back as ``replaces``, ``ids`` or ``playbook_id``. Mistakes the model
can fix (a missing reason, an unknown id) come back as the tool's text result.

The calls on the core are written once, async, in ``langmem_es/tools/_async/calls.py``; the
sync twin is generated; what the model sees and reads is built in :mod:`langmem_es.tools.base`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import StructuredTool, ToolException

from ..core import validation
from ..integration.identity import identity_from_config
from ..integration.resolve import CoreCall
from ..model import KINDS, SCOPES, Identity, Kind, Scope
from . import base
from ._async import calls as async_ops
from ._sync import calls as sync_ops

__all__ = ["create_memory_tools"]


class _Call:
    """A tool's operation (a function of ``langmem_es/tools/_async/calls.py`` and its generated
    twin, by name) with its arguments after ``core, identity``."""

    def __init__(self, op: str, *args: Any, **kwargs: Any) -> None:
        self.op, self.args, self.kwargs = op, args, kwargs

    def on(self, identity: Identity) -> CoreCall[str]:
        return CoreCall(getattr(sync_ops, self.op), getattr(async_ops, self.op), (identity, *self.args), self.kwargs)


def create_memory_tools(
    store: Any = None,
    *,
    kinds: Sequence[Kind] = KINDS,
    scopes: Sequence[Scope] = SCOPES,
    shared: bool = False,
    default_scope: Scope = "private",
    recall_budget_tokens: int = 1200,
) -> list[StructuredTool]:
    """``[remember, recall, forget, record_outcome]`` over ``store`` (else the graph's store).

    ``kinds`` and ``scopes`` limit what the tools may write and read (the schemas the model
    sees only offer those); ``default_scope`` is where ``remember`` writes unless told.
    ``remember`` and ``forget`` act on private and conversation memories only, unless the
    developer opts in with ``shared=True`` (an agent that curates team knowledge); the
    core's authorisation rules still decide (:mod:`langmem_es.core.authz`: by default a
    shared write needs the agent in ``Policy(shared_writers=...)``, and a shared memory is
    forgotten by its author or an owner). ``recall`` reads every scope in ``scopes``.
    ``store`` may also be a :class:`~langmem_es.core.MemoryCore` (see
    :func:`langmem_es.integration.memory_for`).
    """
    kinds = tuple(dict.fromkeys(kinds))
    scopes = tuple(dict.fromkeys(scopes))
    bad = [k for k in kinds if k not in KINDS] + [s for s in scopes if s not in SCOPES]
    if bad or not kinds or not scopes:
        raise ValueError(f"unknown or empty kinds/scopes {bad}; kinds from {KINDS}, scopes from {SCOPES}")
    write_scopes = base.write_scopes(scopes, shared)
    if default_scope not in write_scopes:
        raise ValueError(
            f"default_scope {default_scope!r} is not among the scopes remember may write "
            f"{list(write_scopes)}" + ("" if shared else " (shared needs shared=True)")
        )
    schemas = base.schemas(kinds, write_scopes, default_scope)

    # each tool: the model's arguments -> one core operation (validated before any I/O)
    def plan_remember(args: dict[str, Any]) -> _Call:
        return _Call("remember", base.remember_call(args, write_scopes))

    def plan_recall(args: dict[str, Any]) -> _Call:
        if args.get("problem") and "procedural" in kinds:
            problem = validation.clean_text(args["problem"], "problem", limit=2000)
            k = int(args.get("k") or 5)
            return _Call("playbooks", problem, k=k, scopes=scopes, budget_tokens=recall_budget_tokens)
        call = base.recall_call(args, kinds, scopes)
        own = base.current_turn_source(args.get("state"))
        return _Call("recall", args["query"], call, own_source=own, budget_tokens=recall_budget_tokens)

    def plan_forget(args: dict[str, Any]) -> _Call:
        return _Call("forget", {**base.forget_call(args), "scopes": list(write_scopes)})

    def plan_outcome(args: dict[str, Any]) -> _Call:
        return _Call(
            "record_outcome",
            args["playbook_id"],
            bool(args["success"]),
            note=args.get("note"),
            problem=args.get("problem"),
        )

    def tool(name: str, plan: Callable[[dict[str, Any]], _Call], description: str) -> StructuredTool:
        defaults = {
            n: f.get_default(call_default_factory=True)
            for n, f in schemas[name].model_fields.items()
            if not f.is_required()
        }

        def func(config: RunnableConfig, **kwargs: Any) -> str:
            try:
                call = plan({**defaults, **kwargs})
                return call.on(identity_from_config(config)).run(store)
            except base.MODEL_ERRORS as exc:
                raise ToolException(str(exc)) from exc

        async def coroutine(config: RunnableConfig, **kwargs: Any) -> str:
            try:
                call = plan({**defaults, **kwargs})
                return await call.on(identity_from_config(config)).arun(store)
            except base.MODEL_ERRORS as exc:
                raise ToolException(str(exc)) from exc

        return StructuredTool.from_function(
            func=func,
            coroutine=coroutine,
            name=name,
            description=description,
            args_schema=schemas[name],
            handle_tool_error=True,
        )

    kinds_text = ", ".join(kinds)
    scopes_text = ", ".join(scopes)
    return [
        tool(
            "remember",
            plan_remember,
            f"Save a memory ({kinds_text}) so it is available in later turns and conversations. Give a reason "
            "and a subject_key for facts; a new fact with the same subject_key replaces the old one (kept in "
            f"history). Scopes: {', '.join(write_scopes)}. Returns the memory id.",
        ),
        tool(
            "recall",
            plan_recall,
            f"Search memories ({kinds_text}; scopes {scopes_text}) by meaning and keywords. Returns one line per "
            "memory with its id, kind, date and confidence; playbooks show their steps and past outcomes.",
        ),
        tool(
            "forget",
            plan_forget,
            "Forget memories for good (by ids, subject_key or a description). Use when the user asks to forget, "
            "or a memory is wrong and should not come back.",
        ),
        tool(
            "record_outcome",
            plan_outcome,
            "After trying a procedural playbook (a fix or how-to), record whether it worked; give the problem "
            "on failure so the same fix is not suggested again for it.",
        ),
    ]
