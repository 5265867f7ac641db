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
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import StructuredTool, ToolException
from langgraph.prebuilt import InjectedState
from pydantic import BaseModel, Field, create_model

from .core import scoring
from .core import validation as V
from .errors import InvalidMemoryError, ScopeViolationError
from .integration.identity import identity_from_config
from .integration.render import render_block
from .integration.resolve import acall, is_async_core, sync_core
from .model import KINDS, SCOPES, Kind, Scope

__all__ = ["create_memory_tools"]

_KIND_HELP = {
    "semantic": "semantic = a fact or preference that stays true until it changes (home city, devices owned)",
    "episodic": "episodic = something that happened, with its time",
    "procedural": "procedural = a how-to/fix playbook with steps, whose outcomes are tracked",
}
_SCOPE_HELP = {
    "private": "private = only this user (or agent) sees it",
    "shared": "shared = everyone in the workspace sees it",
    "conversation": "conversation = only this conversation thread",
}
_MODEL_ERRORS = (InvalidMemoryError, ScopeViolationError)
_INJECTED_STATE: Any = (Annotated[dict | None, InjectedState], Field(None))


def _literal(values: Sequence[str]) -> Any:
    return Literal[tuple(values)]  # type: ignore[valid-type]


def _schemas(kinds: Sequence[Kind], scopes: Sequence[Scope], default_scope: Scope) -> dict[str, type[BaseModel]]:
    kind_t, scope_t = _literal(kinds), _literal(scopes)
    default_kind = "semantic" if "semantic" in kinds else kinds[0]
    remember_fields: dict[str, Any] = {
        "content": (
            str,
            Field(
                description="The memory as one self-contained sentence, e.g. 'The user lives in "
                "Edinburgh.' Name who it is about; no pronouns without a referent."
            ),
        ),
        "kind": (kind_t, Field(default_kind, description="; ".join(_KIND_HELP[k] for k in kinds) + ".")),
        "reason": (
            str | None,
            Field(
                None,
                description="One sentence: why this is worth remembering. Required "
                "for semantic and procedural memories.",
            ),
        ),
        "subject_key": (
            str | None,
            Field(
                None,
                description="A stable dotted key naming what the fact is about, "
                "e.g. 'user.home_city', 'user.devices.thermostat'. A "
                "new fact with the same key replaces the old one.",
            ),
        ),
        "replaces": (
            list[str],
            Field(
                default_factory=list,
                description="Ids of existing memories this one corrects or replaces (ids as shown by recall).",
            ),
        ),
        "scope": (scope_t, Field(default_scope, description="; ".join(_SCOPE_HELP[s] for s in scopes) + ".")),
    }
    if "procedural" in kinds:
        remember_fields["steps"] = (
            list[str],
            Field(default_factory=list, description="For a procedural playbook: the steps, in order."),
        )
    recall_fields: dict[str, Any] = {
        "query": (
            str,
            Field(description="What to look for, in natural language, e.g. 'which devices does the user have?'"),
        ),
        "kinds": (list[kind_t] | None, Field(None, description="Only these kinds (default: all).")),
        "k": (int, Field(5, ge=1, le=20, description="How many memories to return (1-20).")),
        "include_history": (bool, Field(False, description="Also return superseded (outdated) versions of facts.")),
    }
    recall_fields["state"] = (
        _INJECTED_STATE  # the graph's state, to leave out the current turn (not shown to the model)
    )
    if "procedural" in kinds:
        recall_fields["problem"] = (
            str | None,
            Field(
                None,
                description=(
                    "When looking for a fix: the problem to solve, e.g. 'smart hub offline'. Then only playbooks are "
                    "returned, best first (relevance x success rate); ones that already failed for this problem are "
                    "withheld and listed separately."
                ),
            ),
        )
    return {
        "remember": create_model("RememberInput", __doc__="Save a memory.", **remember_fields),
        "recall": create_model("RecallInput", __doc__="Search memories.", **recall_fields),
        "forget": create_model(
            "ForgetInput",
            __doc__="Forget memories, for good.",
            ids=(list[str], Field(default_factory=list, description="Ids of the memories to forget.")),
            subject_key=(str | None, Field(None, description="Forget every version of the fact with this key.")),
            query=(str | None, Field(None, description="Forget the single best match for this description.")),
        ),
        "record_outcome": create_model(
            "RecordOutcomeInput",
            __doc__="Record whether a playbook worked.",
            playbook_id=(str, Field(description="Id of the procedural memory (playbook) that was tried.")),
            success=(bool, Field(description="True if it solved the problem, False if it did not.")),
            problem=(
                str | None,
                Field(
                    None,
                    description="The problem it was tried on, e.g. 'smart hub offline' "
                    "(a fix that failed for a problem is not offered again "
                    "for it).",
                ),
            ),
            note=(str | None, Field(None, description="One short sentence on what happened.")),
        ),
    }


# -- pure: arguments in, core call out; result in, text out ---------------------------------


def _remember_call(args: dict[str, Any], scopes: Sequence[Scope]) -> dict[str, Any]:
    if args.get("scope") not in scopes:
        raise InvalidMemoryError(f"scope must be one of {list(scopes)}")
    return {k: v for k, v in args.items() if v not in (None, [], ())}


def _remember_text(result: Any) -> str:
    if result.action == "suppressed":
        return f"Not saved: {result.note} [{result.id}]."
    scope = result.memory.scope if result.memory else ""
    text = f"Remembered [{result.memory.kind if result.memory else 'memory'} {result.id}] ({result.action}, {scope})."
    if result.superseded:
        text += f" It replaces {', '.join(result.superseded)} (kept in history)."
    if result.conflict_id:
        text += f" Conflict {result.conflict_id} opened: {result.note}."
    elif result.note and result.action != "created":
        text += f" {result.note}."
    return text


def _recall_call(args: dict[str, Any], kinds: Sequence[Kind], scopes: Sequence[Scope]) -> dict[str, Any]:
    wanted = [k for k in (args.get("kinds") or kinds) if k in kinds]
    if not wanted:
        raise InvalidMemoryError(f"kinds must be some of {list(kinds)}")
    return {
        "kinds": wanted,
        "scopes": list(scopes),
        "k": int(args.get("k") or 5),
        "include_superseded": bool(args.get("include_history")),
    }


def _current_turn_source(state: Any) -> str | None:
    """``message:<id>`` of the run's latest user message: its episodic memory is the question itself."""
    from .nodes import _message_id, latest_human

    messages = state.get("messages") if isinstance(state, dict) else getattr(state, "messages", None)
    msg = latest_human(messages or [])
    return f"message:{_message_id(msg)}" if msg is not None else None


def _without_current_turn(result: Any, source: str | None, k: int) -> Any:
    if source is None:
        return result
    kept = [r for r in result.memories if not (r.memory.kind == "episodic" and source in r.memory.sources)][:k]
    from dataclasses import replace

    return replace(result, memories=kept)


def _recall_text(result: Any, budget_tokens: int) -> str:
    if not result.memories:
        return "No memories found."
    n = len(result.memories)
    return render_block(result.memories, budget_tokens, header=f"{n} memor{'y' if n == 1 else 'ies'}:")


def _forget_call(args: dict[str, Any]) -> dict[str, Any]:
    call = {"ids": list(args.get("ids") or ()), "subject_key": args.get("subject_key"), "query": args.get("query")}
    if not (call["ids"] or call["subject_key"] or call["query"]):
        raise InvalidMemoryError("say what to forget: ids, subject_key or query")
    return call


def _forget_text(report: Any) -> str:
    ids = list(getattr(report, "ids", report))
    text = f"Forgot {len(ids)}: {', '.join(ids)}." if ids else "Nothing matched; nothing forgotten."
    denied = list(getattr(report, "denied", ()))
    if denied:
        text += f" Not forgotten, not yours to forget (its author or an owner may): {', '.join(denied)}."
    return text


def _write_scopes(scopes: Sequence[Scope], shared: bool) -> tuple[Scope, ...]:
    """The scopes remember/forget may act on: shared only when the developer opted in."""
    out = tuple(s for s in scopes if s != "shared" or shared)
    if not out:
        raise ValueError(
            f"remember and forget need a scope to act on: scopes={list(scopes)} with shared={shared} "
            "leaves none (add 'private' or 'conversation', or pass shared=True)"
        )
    return out


def _outcome_text(memory: Any, success: bool) -> str:
    return (
        f"Recorded {'success' if success else 'failure'} for playbook [{memory.id}]: "
        f"worked {memory.success_count}x, failed {memory.failure_count}x."
    )


# -- the factory -------------------------------------------------------------------------------


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
    write_scopes = _write_scopes(scopes, shared)
    if default_scope not in write_scopes:
        raise ValueError(
            f"default_scope {default_scope!r} is not among the scopes remember may write "
            f"{list(write_scopes)}" + ("" if shared else " (shared needs shared=True)")
        )
    schemas = _schemas(kinds, write_scopes, default_scope)

    def run_sync(fn: Callable[[Any, Any], Any], config: RunnableConfig) -> str:
        core = sync_core(store)
        identity = identity_from_config(config)
        try:
            return fn(core, identity)
        except _MODEL_ERRORS as exc:
            raise ToolException(str(exc)) from exc

    async def run_async(fn: Callable[[Any, Any], Any], config: RunnableConfig) -> str:
        identity = identity_from_config(config)
        try:
            return await acall(store, lambda core: fn(core, identity))
        except _MODEL_ERRORS as exc:
            raise ToolException(str(exc)) from exc

    # each operation once, as (core, identity) -> text; `_maybe` awaits only for an async core
    def op_remember(args: dict[str, Any]) -> Callable[[Any, Any], Any]:
        call = _remember_call(args, write_scopes)
        content = call.pop("content")
        return _then(lambda core, ident: core.remember(ident, content, **call), _remember_text)

    def op_recall(args: dict[str, Any]) -> Callable[[Any, Any], Any]:
        if args.get("problem") and "procedural" in kinds:
            return _playbooks_op(
                V.clean_text(args["problem"], "problem", limit=2000),
                int(args.get("k") or 5),
                scopes,
                recall_budget_tokens,
            )
        call = _recall_call(args, kinds, scopes)
        own = _current_turn_source(args.get("state"))
        k = call["k"]
        call["k"] = k + (own is not None)
        return _then(
            lambda core, ident: core.recall(ident, args["query"], **call),
            lambda r: _recall_text(_without_current_turn(r, own, k), recall_budget_tokens),
        )

    def op_forget(args: dict[str, Any]) -> Callable[[Any, Any], Any]:
        call = {**_forget_call(args), "scopes": list(write_scopes)}
        return _then(lambda core, ident: core.forget(ident, **call), _forget_text)

    def op_outcome(args: dict[str, Any]) -> Callable[[Any, Any], Any]:
        return _then(
            lambda core, ident: core.record_outcome(
                ident, args["playbook_id"], bool(args["success"]), note=args.get("note"), problem=args.get("problem")
            ),
            lambda m: _outcome_text(m, bool(args["success"])),
        )

    def tool(name: str, op: Callable[[dict[str, Any]], Callable[[Any, Any], Any]], description: str) -> StructuredTool:
        defaults = {
            n: f.get_default(call_default_factory=True)
            for n, f in schemas[name].model_fields.items()
            if not f.is_required()
        }

        def func(config: RunnableConfig, **kwargs: Any) -> str:
            try:
                fn = op({**defaults, **kwargs})
            except _MODEL_ERRORS as exc:
                raise ToolException(str(exc)) from exc
            return run_sync(fn, config)

        async def coroutine(config: RunnableConfig, **kwargs: Any) -> str:
            try:
                fn = op({**defaults, **kwargs})
            except _MODEL_ERRORS as exc:
                raise ToolException(str(exc)) from exc
            return await run_async(fn, config)

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
            op_remember,
            f"Save a memory ({kinds_text}) so it is available in later turns and conversations. Give a reason "
            "and a subject_key for facts; a new fact with the same subject_key replaces the old one (kept in "
            f"history). Scopes: {', '.join(write_scopes)}. Returns the memory id.",
        ),
        tool(
            "recall",
            op_recall,
            f"Search memories ({kinds_text}; scopes {scopes_text}) by meaning and keywords. Returns one line per "
            "memory with its id, kind, date and confidence; playbooks show their steps and past outcomes.",
        ),
        tool(
            "forget",
            op_forget,
            "Forget memories for good (by ids, subject_key or a description). Use when the user asks to forget, "
            "or a memory is wrong and should not come back.",
        ),
        tool(
            "record_outcome",
            op_outcome,
            "After trying a procedural playbook (a fix or how-to), record whether it worked; give the problem "
            "on failure so the same fix is not suggested again for it.",
        ),
    ]


def _playbooks_op(problem: str, k: int, scopes: Sequence[Scope], budget: int) -> Callable[[Any, Any], Any]:
    """Playbooks for ``problem`` from the core (failed ones withheld), plus which were withheld and why."""

    def call(core: Any, identity: Any) -> Any:
        def offered_and_withheld(offered: Any, everything: Any) -> tuple[Any, Any]:
            shown = {r.memory.id for r in offered}
            withheld = [
                r
                for r in everything.memories
                if r.memory.id not in shown and scoring.failed_for_query(r.memory, problem)
            ]
            return offered, withheld

        if is_async_core(core):

            async def both() -> tuple[Any, Any]:
                return offered_and_withheld(
                    await core.playbooks(identity, problem, k=k, scopes=scopes),
                    await core.recall(identity, problem, kinds=["procedural"], scopes=scopes, k=20),
                )

            return both()
        return offered_and_withheld(
            core.playbooks(identity, problem, k=k, scopes=scopes),
            core.recall(identity, problem, kinds=["procedural"], scopes=scopes, k=20),
        )

    def text(result: tuple[Any, Any]) -> str:
        offered, withheld = result
        out = (
            render_block(offered, budget, header=f"{len(offered)} playbook(s) for {problem!r}, best first:")
            if offered
            else f"No playbook left to try for {problem!r}."
        )
        if withheld:
            out += "\n" + render_block(withheld, budget // 2, header="Withheld — already failed for this problem:")
        return out

    return _then(call, text)


def _then(call: Callable[[Any, Any], Any], render: Callable[[Any], str]) -> Callable[[Any, Any], Any]:
    """``core, identity -> text``, whether ``call`` returns a value or (async core) a coroutine."""

    def run(core: Any, identity: Any) -> Any:
        out = call(core, identity)
        if asyncio.iscoroutine(out):

            async def finish() -> str:
                return render(await out)

            return finish()
        return render(out)

    return run
