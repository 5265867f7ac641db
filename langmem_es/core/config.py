"""Settings of the memory core, with the reason for each default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class MemoryConfig:
    candidates: int = 80
    """Candidates per retrieval leg: a reranker can only reorder what it is shown."""
    rrf_k: int = 25
    """RRF rank constant. Elasticsearch's default is 60; a smaller one lets a memory that one leg
    ranks near the top beat memories both legs rank middling (docs/recall-experiments.md: 30 gave
    +0.02 recall@10 over 60 on the LoCoMo dev split; 25 with ``signal_when`` 0.35 +0.002 on SQLite
    and +0.004 on Elasticsearch; 20 gained more on SQLite but cost multi-hop 0.014 on Elasticsearch)."""
    leg_weights: tuple[float, float] = (1.0, 1.0)
    """RRF weights of the (BM25, dense) legs."""
    leg_score_weights: tuple[float, float] = (0.0, 0.0)
    """The (BM25, dense) legs' own scores as a second vote in fusion (:func:`~langmem_es.fusion.rrf_scored`):
    each leg's score, min-max normalised within its list, times this share of a first rank's vote.
    (0, 0) is plain RRF. Client-side fusion: with a vote of scores, ``fusion="auto"`` does not use the
    server's RRF (ranks only)."""
    fusion: Literal["auto", "client", "server"] = "auto"
    """``auto``: server-side RRF when the cluster's licence and modules allow it."""
    rerank_window: int = 80
    """How many fused candidates the reranker (and the learned ranker after it) sees."""
    ranker: Literal["learned", "rules"] = "learned"
    """``learned``: the shipped model (:mod:`langmem_es.rank`) orders the window after the rules
    (reranker and query-time signals), whose score is one of its features; recall then fuses on
    the client, which gives the model each leg's score and rank. ``rules``: the rules' order as is.
    Without LightGBM or the model file, ``learned`` falls back to the rules; with another reranker
    than the default memory-aware rescorer (whose score the model reads), or when the opt-in second
    hop or query model added candidates (not what it was trained on), the rules decide."""
    ranker_min_events: int = 40
    """The learned order needs a window of at least this many events; a smaller one (a store of a
    few dozen memories) keeps the rules' order. The model was trained on full windows (80 events
    of conversations hundreds of turns long) and reads shares of the window's best and counts
    within it, which mean something else over a handful: it put a 60,000-character paste that
    both legs ranked first below a one-line reply in a store of four events."""
    ranker_model: str | None = None
    """Another model file for ``ranker="learned"`` (``langmem-es train-ranker --out``); default: the shipped one."""
    context_window_text: int = 2
    """Bulk ingest: neighbouring events (each side, same session) indexed for BM25 with an event."""
    context_window_vector: int = 1
    """Bulk ingest: neighbouring events whose vectors make an event's in-context vector (its vector
    is own + in-context, normalised)."""
    context_neighbour_weight: float = 0.6
    """Weight of each neighbour's vector in the in-context vector (the event's own counts 1). Each
    turn is embedded once; on the LoCoMo dev split (SQLite) recall@10 / MRR were 0.718 / 0.453 at
    0.6, 0.717 / 0.445 at 1.0, 0.716 / 0.460 at 0.4, 0.717 / 0.437 at 1.6 — re-embedding the turn
    with its neighbours' text, as before, gave 0.718 / 0.461 at 2× the embedding work."""
    passage_tokens: int = 200
    """A content longer than this (estimated word pieces) is also embedded passage by passage
    (sentence-aligned, overlapping): the default embedder reads 256 word pieces, so the
    middle of a pasted document would be invisible to the vector leg otherwise."""
    passage_overlap: int = 40
    """Tokens two neighbouring passages share, so a fact on a boundary is whole in one."""
    max_content_chars: int = 32_000
    """Longest fact or playbook a caller may write (``remember``)."""
    max_event_chars: int = 4_000_000
    """Longest content of an event (``remember(kind="episodic")``, ``remember_many``, the
    ``episodic_write`` node: conversation turns, pasted documents, logs); passages keep it searchable."""
    second_hop: bool = False
    """Search again (BM25) with the words the first hop's best hits add, fused as a third
    ranking (client-side fusion only; one more BM25 query per recall). Off: on the LoCoMo
    dev split (SQLite) recall@10 0.718 → 0.745 (multi-hop 0.385 → 0.376, temporal 0.827 →
    0.855, open-domain 0.314 → 0.343, single-hop 0.833 → 0.871), but on the generated long
    conversations 0.785 → 0.771 (short-message facts 1.000 → 0.950, assistant answers
    0.750 → 0.688): it has not earned its place on both kinds of conversation."""
    second_hop_seeds: int = 3
    """Best first-hop hits whose words seed the second hop."""
    second_hop_terms: int = 5
    """Words added to the question for the second hop."""
    second_hop_weight: float = 0.5
    """RRF weight of the second hop's ranking (the two first-hop legs weigh ``leg_weights``)."""
    signal_when: float = 0.35
    """Recall: weight of "the candidate states a time" for questions asking *when*
    (:mod:`langmem_es.rank.signals`; added to the reranked score, whose best is about 1). On
    the LoCoMo dev split (SQLite) with ``signal_window`` 0.2: recall@10 0.718 → 0.739 (temporal
    0.818 → 0.892, single-hop 0.837 → 0.846, adversarial 0.795 → 0.804, the rest unchanged),
    long conversations 0.800 → 0.804; 0.6 ms per recall. 0.35 goes with ``rrf_k`` 25 (a smaller
    constant makes the fused scores steeper); see docs/recall-experiments.md."""
    signal_window: float = 0.2
    """Recall: weight of "the event falls in the time the question names" ("in July 2023",
    "two weeks ago" read against ``as_of`` or now; :mod:`langmem_es.rank.temporal`)."""
    signal_names: float = 0.0
    """Recall: weight of the question's names (capitalised words, rarity-weighted) held by
    the candidate's own content. Off: a question naming the wrong person (LoCoMo's
    adversarial category) then finds the distorted turn less often (0.795 → 0.736 at 0.2)."""
    signal_neighbours: float = 0.0
    """Recall: share of the best session neighbour's reranked score added to a candidate
    (a conversation spreads one topic over neighbouring turns). Opt-in: see
    docs/recall-experiments.md for its figures on both yardsticks."""
    signal_now: float = 0.2
    """Recall: for a question about the present ("these days", "now", "still"), times a
    candidate's place among the window's event times (newest 1): an update is told after
    what it replaces. Long conversations 0.802 → 0.814 (knowledge updates 0.688 → 0.781, no
    category lower); the LoCoMo dev split unchanged (0.741, every category equal); reads
    event times only (docs/recall-experiments.md)."""
    signal_others: float = 0.1
    """Recall: for a question about the asker naming no one else ("where do I live?"),
    subtracted from a candidate about another person of theirs ("My brother lives in
    Glasgow"); reads the candidates' own contents (:func:`langmem_es.rank.signals.about_another`).
    Set a priori, then measured on a store of 25 memories written for it (docs/recall-experiments.md)."""
    time_in_text: bool = True
    """Index an event's date as words ("8 May 2023") beside it, for questions that name the date."""
    denial_confidence: float = 0.5
    """Confidence of a flat denial when written; it does not supersede below ``apply_denial_at``."""
    apply_denial_at: float = 0.75
    reinforce_step: float = 0.25
    """Confidence added by an independent confirmation (another source or writer)."""
    contradiction_factor: float = 0.8
    """A superseded or contradicted memory's confidence is multiplied by this (unless frozen)."""
    occ_retries: int = 30
    """Optimistic-concurrency retries before a write gives up with a retryable error."""
    occ_backoff_ms: float = 4.0
    """Base of the jittered, growing pause between two optimistic-concurrency retries."""
    origin_confidence: Mapping[str, float] = field(default_factory=lambda: {"user": 0.8, "tool": 0.7, "extracted": 0.6})
    """Default confidence of a semantic statement by where it comes from (``remember(origin=)``):
    the user said it, a tool reported it, extraction inferred it. Below 1.0, so independent
    confirmations have room to raise it."""
    max_confidence: float = 0.99
    """Reinforcement never lifts confidence above this: certainty is not for sale."""
    key_similarity: float = 0.6
    """Cosine between two subject keys (as words) for a caller's new key to map to a held key of the
    same subject (with the statements agreeing they are about one attribute)."""
    relation_similarity: float = 0.3
    """Least cosine for a held fact to be read against a new statement (update, denial, repeat)."""
    reconcile_model: Any = None
    """Optional chat model deciding add / update / delete / none over the candidate memories of a
    semantic write (Mem0-style), applied through the same rules; ``None`` (default): rules only.
    It is asked first on the hard cases (held facts the caller did not name); a failed or
    nonsensical answer replaces nothing: both facts stay and the write says it was unsure."""
    query_model: Any = None
    """Optional chat model that splits a question into search queries at recall (query
    decomposition, :mod:`langmem_es.core.decompose`); each is searched with both legs and
    fused (client-side fusion only). ``None`` (default): off — a model call per recall."""
    query_model_weight: float = 0.5
    """RRF weight of each sub-query's rankings (the question's own legs weigh ``leg_weights``)."""
    access_flush_every: int = 32
    """Recalls between two batched writes of access statistics (each written once recalls
    pause, see ``access_flush_quiet_ms``)."""
    access_flush_chunk: int = 32
    """Access records written per round of a background flush (one read and one batched write
    each), with ``access_flush_pause_ms`` between rounds: a flush's Python work and writes come
    in short bursts instead of one long one that recalls running meanwhile wait behind (SQLite,
    10k memories, back-to-back recalls: slowest of 300 72 → 49 ms against 128 records and no
    pause, p50 unchanged)."""
    access_flush_pause_ms: float = 2.0
    """Pause between two rounds of a background flush (see ``access_flush_chunk``)."""
    access_flush_quiet_ms: float = 50.0
    """A due background flush (and each of its rounds) waits until no recall began or ended
    for this long: bookkeeping runs between turns, not beside a recall (on 2 cores, a flush
    beside a recall slowed it by ~3 ms at the median). ``0``: it starts at once."""
    access_flush_max_wait_s: float = 30.0
    """The longest a due flush (or one of its rounds) waits for recalls to pause; then it
    writes beside them. ``close``, ``flush_access``, decay and forget never wait."""
    freeze_after_days: float = 30.0
    """A memory unchallenged this long is frozen: its confidence stops changing."""
    half_life_days: Mapping[str, float] = field(
        default_factory=lambda: {"episodic": 14.0, "semantic": 180.0, "procedural": 90.0}
    )
    """Decay half-life per kind: episodic memories fade fastest."""
    decay_threshold: Mapping[str, float] = field(
        default_factory=lambda: {"episodic": 0.15, "semantic": 0.08, "procedural": 0.08}
    )
    """Memories whose decay score falls below this are soft-deleted."""
    shared_writes: Literal["direct", "review"] = "direct"
    """``direct``: a shared write the rules allow applies at once. ``review``: a member's shared
    write is ``pending`` — seen only by its author and owners — until an owner approves it
    (:meth:`~langmem_es.core.MemoryCore.approve`) or rejects it; owners write directly."""
    forget_similarity: float = 0.35
    """Forgetting by a description (``forget(query=...)``) takes a recalled memory only when it
    is about the description: this close to it (cosine), or holding every content word of it
    (core/copies.py). all-MiniLM-L6-v2 puts "my address" and "My home address is 12 Elm Street"
    at 0.60, "my sister" and "My sister Anna lives in Leeds" at 0.37, "the office Wi-Fi
    password" and "My locker combination is 31-07-99" at 0.17."""
    copy_similarity: float = 0.6
    """Forgetting a fact also forgets the episodic events that state it: events linked to it by a
    source, and events this close (cosine) to it that also say it in its words (core/copies.py).
    all-MiniLM-L6-v2 puts "Alice has a red bike" and "I have a red bike" at 0.65; the lexical
    test, not this threshold, is what keeps unrelated events."""
