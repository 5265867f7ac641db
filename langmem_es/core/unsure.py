"""When unsure, both stay — and what a model reads says which statement may replace which.

A write that the rules could not tell from an update ("Home is Leeds." after "I'm based in
York.": same holder and attribute, another value, no change said) keeps both facts active and
names the held ones in :attr:`~.results.WriteResult.unsure`. The new memory also records them
(``metadata["may_replace"]``), so that a recall returning both can say so: the later statement's
:attr:`~.results.RecalledMemory.may_replace` names the held fact, and the rendered line too. Recall
does not reorder them: of the read belief stories the rules kept both and called unsure, half
were updates and half were not ("I grew up in Leeds." after "I live in Bath."), so which one is
current is left to the reader. A held fact said again since (a repeat reinforces it and stamps
``metadata["reaffirmed_at"]``) is the later word: the other no longer names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..model import Memory

__all__ = ["MAY_REPLACE", "REAFFIRMED", "noting", "open_replacements"]

#: The metadata key of the held facts a memory may replace (the write could not tell).
MAY_REPLACE = "may_replace"
#: The metadata key of when a fact was last said again (a repeat reinforces it).
REAFFIRMED = "reaffirmed_at"


def noting(memory: Memory, held: Sequence[str]) -> Memory:
    """``memory`` recording the held facts it may replace (itself unchanged when none)."""
    held = [i for i in dict.fromkeys(held) if i != memory.id]
    if not held:
        return memory
    return memory.model_copy(update={"metadata": {**memory.metadata, MAY_REPLACE: held}})


def open_replacements(memories: Sequence[Memory]) -> list[list[str]]:
    """Per memory, the ids of the others in ``memories`` it may replace and was said after
    (the held fact not said again since).

    >>> from datetime import datetime, timezone
    >>> def m(i, content, day, **meta):
    ...     when = datetime(2026, 1, day, tzinfo=timezone.utc)
    ...     return Memory(id=i, kind="semantic", scope="private", tenant="t", owner="u", content=content,
    ...                   written_at=when, metadata=meta)
    >>> york, leeds = m("a", "I'm based in York.", 1), m("c", "Home is Leeds.", 3, may_replace=["a", "gone"])
    >>> open_replacements([york, m("b", "I speak French.", 2), leeds])
    [[], [], ['a']]
    >>> york_again = york.model_copy(update={"metadata": {REAFFIRMED: "2026-01-04T00:00:00+00:00"}})
    >>> open_replacements([leeds, york_again])  # York said again since
    [[], []]
    """
    by_id = {m.id: m for m in memories}
    out: list[list[str]] = []
    for later in memories:
        held = later.metadata.get(MAY_REPLACE)
        ids = [str(i) for i in held] if isinstance(held, list) else []
        out.append([i for i in ids if i in by_id and _said_last(by_id[i]) < _said_last(later)])
    return out


def _said_last(memory: Memory) -> datetime:
    """When ``memory`` was last said: written, or said again since."""
    again = memory.metadata.get(REAFFIRMED)
    try:
        when = datetime.fromisoformat(str(again)) if again else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        return memory.written_at
    return max(memory.written_at, when)
