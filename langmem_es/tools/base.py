"""The memory tools without I/O: the schemas the model sees, arguments in, core calls out, results in, text out.

Shared by :func:`langmem_es.tools.create_memory_tools` and the core calls in
``langmem_es/tools/_async/calls.py`` (and its generated sync twin).

>>> write_scopes(["private", "shared"], shared=False)
('private',)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from types import GenericAlias
from typing import Annotated, Any, Literal

from langgraph.prebuilt import InjectedState
from pydantic import BaseModel, Field, create_model

from ..core import scoring
from ..core.results import ForgetReport, RecalledMemory, RecallResult, WriteResult
from ..errors import InvalidMemoryError, ScopeViolationError
from ..integration.render import render_block
from ..model import Kind, Memory, Scope
from ..nodes.base import latest_human, message_id

__all__ = [
    "MODEL_ERRORS",
    "current_turn_source",
    "failed_before",
    "forget_call",
    "forget_text",
    "outcome_text",
    "playbooks_text",
    "recall_call",
    "recall_text",
    "remember_call",
    "remember_text",
    "schemas",
    "without_current_turn",
    "write_scopes",
]

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
MODEL_ERRORS = (InvalidMemoryError, ScopeViolationError)
_INJECTED_STATE: Any = (Annotated[dict | None, InjectedState], Field(None))


def _literal(values: Sequence[str]) -> Any:
    return Literal[tuple(values)]


def schemas(kinds: Sequence[Kind], scopes: Sequence[Scope], default_scope: Scope) -> dict[str, type[BaseModel]]:
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
        "kinds": (GenericAlias(list, (kind_t,)) | None, Field(None, description="Only these kinds (default: all).")),
        "k": (int, Field(5, ge=1, le=20, description="How many memories to return (1-20).")),
        "include_history": (bool, Field(False, description="Also return superseded (outdated) versions of facts.")),
    }
    # the graph's state (never shown to the model): the current turn's message, which a
    # remembered fact cites as its source and recall tells apart from the facts taken from it
    remember_fields["state"] = _INJECTED_STATE
    recall_fields["state"] = _INJECTED_STATE
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


# -- arguments in, core call out; result in, text out ---------------------------------------


def remember_call(args: dict[str, Any], scopes: Sequence[Scope]) -> dict[str, Any]:
    """The ``core.remember`` keywords (with ``content``) for the tool's arguments.

    A memory written during a turn is linked to the turn's user message (``sources``): what
    it states and the message that stated it are one piece of evidence, forgotten together.
    """
    if args.get("scope") not in scopes:
        raise InvalidMemoryError(f"scope must be one of {list(scopes)}")
    call = {k: v for k, v in args.items() if k != "state" and v not in (None, [], ())}
    source = current_turn_source(args.get("state"))
    if source is not None:
        call["sources"] = [source]
    return call


#: how a write's action reads after the new memory's id (``superseded`` is what the *old* fact became)
_ACTION_WORDS = {"superseded": "new version"}


def remember_text(result: WriteResult) -> str:
    """What the model reads after a write: the new memory's id, what happened, and to what.

    >>> from langmem_es.core.results import WriteResult
    >>> remember_text(WriteResult("n1", "superseded", None, ["o1"]))
    'Remembered [memory n1] (new version, ). It replaces o1, which is kept in history as superseded.'
    >>> remember_text(WriteResult("n2", "created", None, note="kept beside o2: unsure", unsure=["o2"]))
    'Remembered [memory n2] (created, ). kept beside o2: unsure. Unsure: kept beside o2 (both stay active).'
    """
    if result.action == "suppressed":
        return f"Not saved: {result.note} [{result.id}]."
    scope = result.memory.scope if result.memory else ""
    action = _ACTION_WORDS.get(result.action, result.action)
    text = f"Remembered [{result.memory.kind if result.memory else 'memory'} {result.id}] ({action}, {scope})."
    if result.superseded:
        which = "which is" if len(result.superseded) == 1 else "which are"
        text += f" It replaces {', '.join(result.superseded)}, {which} kept in history as superseded."
    if result.conflict_id:
        text += f" Conflict {result.conflict_id} opened: {result.note}."
    elif result.note and (result.action != "created" or result.unsure):
        text += f" {result.note}."
    if result.unsure and "could not tell" not in text:
        text += f" Unsure: kept beside {', '.join(result.unsure)} (both stay active)."
    return text


def recall_call(args: dict[str, Any], kinds: Sequence[Kind], scopes: Sequence[Scope]) -> dict[str, Any]:
    """The ``core.recall`` keywords for the tool's arguments (``k`` as the model asked)."""
    wanted = [k for k in (args.get("kinds") or kinds) if k in kinds]
    if not wanted:
        raise InvalidMemoryError(f"kinds must be some of {list(kinds)}")
    return {
        "kinds": wanted,
        "scopes": list(scopes),
        "k": int(args.get("k") or 5),
        "include_superseded": bool(args.get("include_history")),
    }


def current_turn_source(state: Any) -> str | None:
    """``message:<id>`` of the run's latest user message: its episodic memory is the question itself."""
    messages = state.get("messages") if isinstance(state, dict) else getattr(state, "messages", None)
    msg = latest_human(messages or [])
    return f"message:{message_id(msg)}" if msg is not None else None


def without_current_turn(result: RecallResult, source: str | None, k: int) -> RecallResult:
    """``result`` cut to ``k``, without the current turn's own message where a fact taken from
    it is already there (the message is then an echo); where nothing was taken from it, the
    message itself is what the turn stated, and a tool call of the same turn sees it."""
    memories = result.memories
    if source is not None:
        own = [r for r in memories if r.memory.kind == "episodic" and source in r.memory.sources]
        stated = any(r.memory.kind != "episodic" and source in r.memory.sources for r in memories)
        if own and (stated or only_asks(own[0].memory.content)):
            memories = [r for r in memories if r not in own]
    return replace(result, memories=list(memories[:k]))


_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


def only_asks(text: str) -> bool:
    """Is every sentence of ``text`` a question (it states nothing a recall could add)?

    >>> only_asks("Which devices do I have?"), only_asks("I bought a Sonos. Which devices do I have?")
    (True, False)
    """
    sentences = [s.strip() for s in _SENTENCE.findall(text) if s.strip(" \t.!?")]
    return bool(sentences) and all(s.endswith("?") for s in sentences)


def recall_text(result: RecallResult, budget_tokens: int) -> str:
    if not result.memories:
        return "No memories found."
    n = len(result.memories)
    return render_block(result.memories, budget_tokens, header=f"{n} memor{'y' if n == 1 else 'ies'}:")


def failed_before(offered: Sequence[RecalledMemory], everything: RecallResult, problem: str) -> list[RecalledMemory]:
    """The playbooks withheld from ``offered`` because they already failed for ``problem``."""
    shown = {r.memory.id for r in offered}
    return [r for r in everything.memories if r.memory.id not in shown and scoring.failed_for_query(r.memory, problem)]


def playbooks_text(
    offered: Sequence[RecalledMemory], withheld: Sequence[RecalledMemory], problem: str, budget: int
) -> str:
    out = (
        render_block(offered, budget, header=f"{len(offered)} playbook(s) for {problem!r}, best first:")
        if offered
        else f"No playbook left to try for {problem!r}."
    )
    if withheld:
        out += "\n" + render_block(withheld, budget // 2, header="Withheld — already failed for this problem:")
    return out


def forget_call(args: dict[str, Any]) -> dict[str, Any]:
    """The ``core.forget`` keywords for the tool's arguments."""
    call = {"ids": list(args.get("ids") or ()), "subject_key": args.get("subject_key"), "query": args.get("query")}
    if not (call["ids"] or call["subject_key"] or call["query"]):
        raise InvalidMemoryError("say what to forget: ids, subject_key or query")
    return call


def forget_text(report: ForgetReport) -> str:
    ids = list(report.ids)
    text = f"Forgot {len(ids)}: {', '.join(ids)}." if ids else "Nothing matched; nothing forgotten."
    messages = sum(report.counts.get("episodic", {}).values())
    if messages and len(ids) > messages:
        text += (
            f" Among them {messages} message{'s' if messages != 1 else ''} that stated it, forgotten whole"
            " (with anything else they said)."
        )
    if report.denied:
        text += f" Not forgotten, not yours to forget (its author or an owner may): {', '.join(report.denied)}."
    return text


def write_scopes(scopes: Sequence[Scope], shared: bool) -> tuple[Scope, ...]:
    """The scopes remember/forget may act on: shared only when the developer opted in."""
    out = tuple(s for s in scopes if s != "shared" or shared)
    if not out:
        raise ValueError(
            f"remember and forget need a scope to act on: scopes={list(scopes)} with shared={shared} "
            "leaves none (add 'private' or 'conversation', or pass shared=True)"
        )
    return out


def outcome_text(memory: Memory, success: bool) -> str:
    return (
        f"Recorded {'success' if success else 'failure'} for playbook [{memory.id}]: "
        f"worked {memory.success_count}x, failed {memory.failure_count}x."
    )
