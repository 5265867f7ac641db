"""The learned ranker's rank stage, made cheaper, must return exactly what it returned before.

A real small store on each backend (``MemoryCore``, a generated long conversation: our own text, with
pasted multi-line content, names, dates, sessions; a few hand-written memories with escapes,
non-ASCII text and facts) is recalled with the learned ranker; every candidate list the rank
stage is handed is recorded, and the shipped code is held to the slow reference copied from
before the change (``tests/unit/rank_reference.py``): the same feature matrix, bit for bit,
and the same order and model scores.
"""

from __future__ import annotations

import copy
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np
import pytest

import langmem_es.core._sync.retrieval as retrieval
from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.core import MemoryConfig, MemoryCore
from langmem_es.documents import LazyJSON
from langmem_es.model import Identity
from langmem_es.rank import FEATURES, learned_order, load_ranker
from langmem_es.rank.features import features
from langmem_es.rank.order import candidate_of_hit, window_features
from tests.fixtures.embed import bag_of_words
from tests.unit import rank_reference as ref

WHO = Identity(tenant="rank-eq", user_id="ann", agent_id="assistant")
START = datetime(2023, 5, 1, 9, 0, tzinfo=timezone.utc)
DIMS = 32

EXTRA = [
    {"content": 'Zoë: I said "ciao" to Jürgen in Köln — twice!\nThen we left at 7:30.', "session_id": "x1"},
    {"content": "Ann: path C:\\temp\\new and a tab\there; emoji 🎉 and \u2028 a line separator.", "session_id": "x1"},
    {"content": "Ann: nothing about time here", "session_id": None},
    {"content": "Bob: Last July 2023 we went hiking in Lisbon with Ann.", "session_id": "x2"},
    {"content": 'Ann: {"content": "not the content"} is a JSON snippet I pasted.', "session_id": "x2"},
    {"content": "Ann: these days I drive a blue Tesla; I still have 3 kids.", "session_id": "x3"},
]
FACTS = ["Ann lives in Lisbon.", "Ann's favourite food is ramen.", "Bob works at the Lisbon office."]
EXTRA_QUESTIONS = [
    "When did Ann go hiking in Lisbon?",
    "What does Ann drive these days?",
    "What happened in July 2023?",
    "Who did Zoë say ciao to in Köln?",
    "How many kids does Ann have?",
    "Which JSON snippet did Ann paste?",
    "Where does Bob work?",
    "Did Ann mention emoji?",
]


def _store(backend: Any) -> tuple[MemoryCore, list[str]]:
    from langmem_es_eval.longconv import generate

    convs = generate(seed=5, conversations=2, scale=0.1)
    core = MemoryCore(
        backend,
        embeddings=lambda texts: bag_of_words(texts, DIMS),
        config=MemoryConfig(access_flush_every=10**9),
    )
    core.setup()
    items: list[dict[str, Any]] = [
        {"content": t.memory_text, "event_time": START + timedelta(hours=3 * n), "session_id": t.session_id}
        for conv in convs
        for n, t in enumerate(conv.turns)
    ]
    items += [{**x, "event_time": START + timedelta(days=40 + n) if n % 2 else None} for n, x in enumerate(EXTRA)]
    core.remember_many(WHO, items)
    for fact in FACTS:
        core.remember(WHO, fact, kind="semantic", reason="Replies should use it.")
    questions = [q.question for conv in convs for q in conv.questions] + EXTRA_QUESTIONS
    return core, questions


def _forget_peeked() -> None:
    """Values read before are read again (half the comparisons run on a cold cache)."""
    from langmem_es import documents

    with documents._peeked_lock:
        documents._PEEKED.clear()
        documents._peeked_size[0] = 0


def _fresh(by_id: Any) -> dict[str, Any]:
    """The hits again, each value not yet decoded (as a recall's legs return them)."""

    class Hit:
        def __init__(self, doc: dict[str, Any]) -> None:
            self.doc = doc

    out = {}
    for i, h in by_id.items():
        doc = dict(h.doc)
        v = doc.get("value")
        if isinstance(v, LazyJSON):
            doc["value"] = LazyJSON(v._text, v._loads)
        out[i] = Hit(doc)
    return out


def _backend(name: str, request: pytest.FixtureRequest) -> tuple[Any, Any]:
    if name == "sqlite":
        return SQLiteBackend(":memory:"), lambda: None
    from langmem_es.backends.elasticsearch import ElasticsearchBackend

    client = request.getfixturevalue("es_basic")  # skipped locally / fails in CI without a cluster
    backend = ElasticsearchBackend(client, prefix=f"rank-eq-{uuid.uuid4().hex[:12]}", dims=DIMS)
    return backend, backend.drop


@pytest.fixture(
    scope="module",
    params=[pytest.param("sqlite"), pytest.param("elasticsearch", marks=pytest.mark.integration)],
)
def recorded(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    ranker = load_ranker()
    assert ranker is not None
    calls: list[dict[str, Any]] = []
    shipped = retrieval.learned_order

    def spy(ranker, query, ranked, by_id, stages, fused, window, reference, **kw):  # type: ignore[no-untyped-def]
        calls.append(
            {
                "query": query,
                "ranked": list(ranked),
                "by_id": _fresh(by_id),
                "stages": copy.deepcopy(stages),
                "fused": dict(fused),
                "window": window,
                "reference": reference,
            }
        )
        return shipped(ranker, query, ranked, by_id, stages, fused, window, reference, **kw)

    backend, drop = _backend(request.param, request)
    core, questions = _store(backend)
    retrieval.learned_order = spy  # type: ignore[assignment]
    try:
        for q in questions:
            core.recall(WHO, q, k=10)
        for q in EXTRA_QUESTIONS:  # short candidate lists too
            core.recall(WHO, q, k=5, candidates=12)
    finally:
        retrieval.learned_order = shipped  # type: ignore[assignment]
        core.close()
        drop()
    assert len(calls) >= 60
    return calls


#: Columns added after the reference was taken (session 38): computed by the shipped code alone
#: (their meaning: tests/unit/test_rank.py); every other column is held to the reference.
ADDED_AFTER = ("standing", "asks_request", "request_standing", "asks_recap")
_REFERENCE_FEATURES = ref.features


def reference_features(query: str, cands: list[dict[str, Any]], *, reference: Any = None) -> np.ndarray:
    """The reference's matrix in the shipped columns: its own columns where it has them, the
    columns added after it from the shipped mapping API."""
    assert set(FEATURES) - set(ref.FEATURES) == set(ADDED_AFTER) and set(ref.FEATURES) <= set(FEATURES)
    old = _REFERENCE_FEATURES(query, cands, reference=reference)
    out = features(query, cands, reference=reference).copy()
    for j, name in enumerate(ref.FEATURES):
        out[:, FEATURES.index(name)] = old[:, j]
    return out


def test_the_recorded_windows_are_realistic(recorded: list[dict[str, Any]]) -> None:
    sizes = [len(c["ranked"][: c["window"]]) for c in recorded]
    assert max(sizes) == 80 and min(sizes) < 80  # full windows and short ones
    kinds = {h.doc.get("kind") for c in recorded for h in c["by_id"].values()}
    assert {"episodic", "semantic"} <= kinds  # facts keep the rules' places
    values = [h.doc.get("value") for c in recorded for h in c["by_id"].values()]
    assert sum(isinstance(v, LazyJSON) for v in values) > len(values) / 2  # read as the legs return them


def test_the_feature_matrix_is_the_reference_bit_for_bit(recorded: list[dict[str, Any]]) -> None:
    for n, c in enumerate(recorded):
        if n % 2:
            _forget_peeked()
        head = c["ranked"][: c["window"]]
        events = [(i, s) for i, s in head if c["by_id"][i].doc.get("kind", "episodic") == "episodic"]
        old_by_id, new_by_id = _fresh(c["by_id"]), _fresh(c["by_id"])
        cands = [
            ref.candidate_of_hit(old_by_id[i].doc, c["stages"].get(i, {}), c["fused"].get(i, 0.0), s) for i, s in events
        ]
        expected = reference_features(c["query"], cands, reference=c["reference"])
        got = window_features(c["query"], events, new_by_id, c["stages"], c["fused"], c["reference"])
        assert got.dtype == expected.dtype and got.shape == (len(events), len(FEATURES))
        np.testing.assert_array_equal(got, expected, err_msg=c["query"])
        # the mapping API (training data, LearnedRanker.scores) computes the same rows
        mapped = [
            candidate_of_hit(d.doc, c["stages"].get(i, {}), c["fused"].get(i, 0.0), s)
            for (i, s), d in ((e, _fresh(c["by_id"])[e[0]]) for e in events)
        ]
        assert mapped == cands
        np.testing.assert_array_equal(features(c["query"], mapped, reference=c["reference"]), expected)


def test_the_order_and_scores_are_the_reference(
    recorded: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ref, "features", reference_features)
    ranker = load_ranker()
    for n, c in enumerate(recorded):
        if n % 2:
            _forget_peeked()
        old_stages, new_stages = copy.deepcopy(c["stages"]), copy.deepcopy(c["stages"])
        args = (c["query"], c["ranked"])
        expected = ref.learned_order(
            ranker, *args, _fresh(c["by_id"]), old_stages, c["fused"], c["window"], c["reference"]
        )
        got = learned_order(ranker, *args, _fresh(c["by_id"]), new_stages, c["fused"], c["window"], c["reference"])
        assert got == expected, c["query"]
        assert new_stages == old_stages  # the model's scores ("learned"), bit for bit


def test_a_value_decoded_or_not_gives_the_same_content() -> None:
    from langmem_es.documents import LazyJSON

    texts = [
        '{"id":"a","content":"hi \\"there\\"\\nline\\u00e9","metadata":{"content":"other"}}',
        '{"content":"first","content":"last"}',  # a duplicate key: the last one, as json.loads reads it
        ' { "kind" : "episodic" , "content" : "spaced" } ',
        '{"id":"no content here"}',
        '{"id":"x","content":null}',
        '{"id":"x","content":["not","text"]}',
        '{"a":{"content":"nested first"},"content":"top"}',
    ]
    for t in [*texts, *texts]:  # read, then read again (kept)
        doc = {"value": LazyJSON(t), "text": "indexed\ntext"}
        assert candidate_of_hit(doc, {}, 0.0, 0.0) == ref.candidate_of_hit(
            {"value": LazyJSON(t), "text": "indexed\ntext"}, {}, 0.0, 0.0
        )


def test_the_signals_read_the_same_content(recorded: list[dict[str, Any]]) -> None:
    from langmem_es.rank.signals import _own

    _forget_peeked()
    for c in recorded[:20]:
        old, new = _fresh(c["by_id"]), _fresh(c["by_id"])
        for i in old:
            assert _own(new[i].doc, 2_000) == ref._own(old[i].doc, 2_000)
