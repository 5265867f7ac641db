"""Recall's legs bring the candidates' texts back only when the query's ranking reads them.

A text is the costly part of a hit (on Elasticsearch a long one costs as much from doc
values as from ``_source``): the rescorer reads texts for a literal-looking token, the
"when" signal for a question asking when, the names and neighbours signals always.
"""

from __future__ import annotations

from typing import Any

import pytest

from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.core import MemoryConfig, MemoryCore
from langmem_es.model import Identity
from langmem_es.rank import signals as Q
from langmem_es.rerank import CrossEncoderReranker, MemoryAwareRescorer, NoReranker
from langmem_es.rerank.base import reads_text
from tests.fixtures.embed import bag_of_words

ALICE = Identity(tenant="acme", user_id="alice")


def test_which_rerankers_read_texts_for_which_queries() -> None:
    rescorer = MemoryAwareRescorer()
    assert not reads_text(rescorer, "what did I book in Hanoi?")
    assert reads_text(rescorer, "why does Kafka fail with 0xB646ACA0?")
    assert reads_text(rescorer, "what changed in v2.3.1?")
    assert not reads_text(NoReranker(), "why does Kafka fail with 0xB646ACA0?")
    assert reads_text(CrossEncoderReranker.__new__(CrossEncoderReranker), "anything")  # says nothing: reads

    class Custom:  # a reranker of the user's, without the hook: assumed to read texts
        def rerank(self, query: str, candidates: Any) -> list[float]:
            return [0.0] * len(candidates)

    assert reads_text(Custom(), "what did I book in Hanoi?")


@pytest.mark.parametrize(
    "query,weights,reads",
    [
        ("When did I move to Lisbon?", Q.SignalWeights(when=0.35, window=0.2), True),
        ("When did I move to Lisbon?", Q.SignalWeights(window=0.2), False),
        ("what did I book in July 2023?", Q.SignalWeights(when=0.35, window=0.2), False),  # window: event_time
        ("what did Priya recommend?", Q.SignalWeights(names=0.2), True),
        ("what did I recommend?", Q.SignalWeights(names=0.2), False),
        ("what did I book?", Q.SignalWeights(neighbours=0.3), True),
    ],
)
def test_which_signals_read_texts(query: str, weights: Q.SignalWeights, reads: bool) -> None:
    assert Q.reads_text(query, weights) is reads


def test_recall_asks_its_legs_for_texts_only_when_its_ranking_reads_them() -> None:
    backend = SQLiteBackend(":memory:")
    core = MemoryCore(
        backend,
        embeddings=lambda texts: bag_of_words(texts, 32),
        config=MemoryConfig(access_flush_every=10**9),
    )
    core.setup()
    for text in ("I booked a hotel in Hanoi.", "Kafka fails with 0xB646ACA0 on start.", "I moved to Lisbon in May."):
        core.remember(ALICE, text, kind="episodic")
    asked: list[tuple[str, ...]] = []
    hybrid = backend.hybrid

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(tuple(kwargs.get("fields") or ()))
        return hybrid(*args, **kwargs)

    backend.hybrid = spy  # type: ignore[method-assign]
    plain = core.recall(ALICE, "what did I book in Hanoi?", k=3)
    literal = core.recall(ALICE, "why does Kafka fail with 0xB646ACA0?", k=3)
    when = core.recall(ALICE, "When did I move to Lisbon?", k=3)
    assert ["text" in f for f in asked] == [False, True, True]
    assert "id" in asked[0] and "tenant" in asked[0]
    assert plain.memories[0].memory.content == "I booked a hotel in Hanoi."
    assert literal.memories[0].memory.content == "Kafka fails with 0xB646ACA0 on start."
    assert when.memories[0].memory.content == "I moved to Lisbon in May."
