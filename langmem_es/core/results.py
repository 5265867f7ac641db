"""What the memory core returns (pure data)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import UnavailableShard
from ..model import Memory
from ..tokens import render_memories

WriteAction = Literal[
    "created", "reinforced", "superseded", "pending_denial", "conflict", "suppressed", "updated", "pending"
]


@dataclass
class WriteResult:
    """The outcome of one write: what happened and to which memories.

    ``unsure``: held facts the belief rules could not decide about — the same holder and
    single-valued attribute with another value, said without a change ("I'm based in Leeds"
    beside "I live in York"). Both stay active (a duplicate is recoverable, a lost fact is
    not) and ``note`` says so; an empty list means the rules decided.
    """

    id: str
    action: WriteAction
    memory: Memory | None = None
    superseded: list[str] = field(default_factory=list)
    conflict_id: str | None = None
    note: str = ""
    unsure: list[str] = field(default_factory=list)


@dataclass(eq=False)
class ForgetReport:
    """What ``forget`` removed (or, with ``dry_run``, would remove).

    ``ids``: every memory forgotten — the matches and their copies (events and
    playbooks that state them or were their sources); ``counts``: per kind, per scope;
    ``denied``: matches the caller may not forget (left untouched). It iterates, counts
    and compares like the list of ``ids``.
    """

    ids: list[str] = field(default_factory=list)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    dry_run: bool = False
    denied: list[str] = field(default_factory=list)
    copies: list[str] = field(default_factory=list)

    def __iter__(self) -> Any:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, item: object) -> bool:
        return item in self.ids

    def __getitem__(self, index: Any) -> Any:
        return self.ids[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ForgetReport):
            return (self.ids, self.counts, self.dry_run, self.denied) == (
                other.ids,
                other.counts,
                other.dry_run,
                other.denied,
            )
        return isinstance(other, (list, tuple)) and list(other) == self.ids

    __hash__ = None  # type: ignore[assignment]


@dataclass
class RecalledMemory:
    """A recalled memory with its score at every stage of the pipeline."""

    memory: Memory
    score: float
    stages: dict[str, float] = field(default_factory=dict)
    conflict: bool = False
    passage: str | None = None
    """For a long memory: the passage the query matched (rendering shows it instead of
    the whole content)."""
    may_replace: list[str] = field(default_factory=list)
    """The ids of the memories of the same recall this one may replace: a later statement the
    rules could not tell from an update (both stay; :mod:`~langmem_es.core.unsure`)."""

    # what tokens.render_memories reads
    @property
    def id(self) -> str:
        return self.memory.id

    @property
    def kind(self) -> str:
        return self.memory.kind

    @property
    def content(self) -> str:
        return self.memory.content

    @property
    def written_at(self) -> Any:
        return self.memory.event_time or self.memory.written_at

    @property
    def confidence(self) -> float:
        return self.memory.confidence

    @property
    def status(self) -> str:
        return self.memory.status


@dataclass
class RecallResult:
    """Ranked memories, per-stage timings (ms), and how fusion ran.

    ``unavailable_shards`` is only ever non-empty for ``recall(..., allow_partial=True)``:
    the memories then come from the rest of the store, and ``partial`` is true.
    """

    query: str
    memories: list[RecalledMemory] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    fusion: Literal["client", "server", "none"] = "client"
    candidates: int = 0
    unavailable_shards: list[UnavailableShard] = field(default_factory=list)

    @property
    def partial(self) -> bool:
        """True when some shards did not answer (the memories may be incomplete)."""
        return bool(self.unavailable_shards)

    def render(self, budget_tokens: int = 800, *, header: str | None = "Relevant memories:") -> str:
        """The memories as a prompt block within a token budget (best first).

        A partial result says so in the header: some memories could not be read.
        """
        if header and self.partial:
            header = f"{header.rstrip(':')} (partial: part of the memory store is unavailable):"
        return render_memories(self.memories, budget_tokens, header=header)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.memories)

    def __len__(self) -> int:
        return len(self.memories)


@dataclass
class Conflict:
    """Two writers asserted different values for one subject key in a shared scope."""

    id: str
    subject_key: str
    memory_ids: list[str]
    writers: list[str | None]
    contents: list[str]
    sources: list[list[str]]
    opened_at: str
    status: Literal["open", "resolved"] = "open"
    winner: str | None = None
    resolved_by: str | None = None
    resolved_at: str | None = None
    written_at: list[str] = field(default_factory=list)
    """When each member assertion was written (same order as ``memory_ids``)."""


@dataclass
class DecayReport:
    """What one decay pass did, per kind."""

    scored: dict[str, int] = field(default_factory=dict)
    soft_deleted: dict[str, int] = field(default_factory=dict)
    frozen: dict[str, int] = field(default_factory=dict)
    soft_deleted_ids: dict[str, list[str]] = field(default_factory=dict)
