"""Optional LLM reconciliation of a semantic write, pure: the prompt and the reading of the answer.

With ``MemoryConfig(reconcile_model=chat_model)``, the write path asks the model first on
the hard cases — a write that bears on held facts the caller did not name (no ``replaces=``,
no fact held under its own key), which the rules would otherwise act on by meaning (a
keyless update, a key mapped by synonym, a denial read from a negation) or cannot decide.
It shows the model the new statement and the held facts it is read against, and asks for
one decision, as Mem0 does: ``ADD`` (new information), ``UPDATE`` (it replaces memory *id*),
``DELETE`` (it denies memory *id*), ``NONE`` (it repeats memory *id*). The decision is then
carried out by the same write path under the same rules (a weaker statement still only opens
a conflict; a denial still waits for confirmation). An answer that cannot be used — no JSON,
an unknown event, an id that was not offered, an exception — takes the safe side: the rules
replace nothing by meaning, both facts stay active and the write names the held ones as
``unsure``. A duplicate is recoverable; a lost fact is not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..model import Memory

Event = Literal["ADD", "UPDATE", "DELETE", "NONE"]

SYSTEM_PROMPT = """\
You keep a user's memory consistent. Given a NEW statement and EXISTING memories (with ids), \
decide one action and answer with JSON only: {"event": "ADD"|"UPDATE"|"DELETE"|"NONE", "id": "<id or null>"}.
- ADD: the new statement is new information (also when it is about someone or something else).
- UPDATE: it replaces the existing memory <id> (the same attribute of the same subject, a new value).
- DELETE: it says the existing memory <id> is false, without a new value.
- NONE: it says the same as the existing memory <id> (a repeat or paraphrase)."""


@dataclass(frozen=True)
class Decision:
    event: Event
    target: str | None = None


def messages(new: Memory, candidates: Sequence[Memory]) -> list[tuple[str, str]]:
    """The chat messages asking for a decision."""
    listed = "\n".join(f"- id={m.id} key={m.subject_key or '-'}: {m.content}" for m in candidates) or "(none)"
    return [("system", SYSTEM_PROMPT), ("human", f"EXISTING:\n{listed}\n\nNEW: {new.content}")]


def read(answer: Any, candidates: Sequence[Memory]) -> Decision | None:
    """The decision in a chat model's reply (tool-call arguments or JSON text), or ``None`` if unusable."""
    args: Any = None
    calls = getattr(answer, "tool_calls", None) or []
    if calls and isinstance(calls[0], dict):
        args = calls[0].get("args")
    if args is None:
        text = getattr(answer, "content", answer)
        if isinstance(text, list):
            text = " ".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in text)
        match = re.search(r"\{.*\}", str(text), re.DOTALL)
        if not match:
            return None
        try:
            args = json.loads(match.group(0))
        except ValueError:
            return None
    if not isinstance(args, dict):
        return None
    event = str(args.get("event") or args.get("action") or "").upper()
    target = args.get("id")
    ids = {m.id for m in candidates}
    if event == "ADD":
        return Decision("ADD")
    if event in ("UPDATE", "DELETE", "NONE") and isinstance(target, str) and target in ids:
        return Decision(event, target)  # type: ignore[arg-type]
    return None
