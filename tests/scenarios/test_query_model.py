"""The opt-in LLM query decomposition at recall, with a scripted chat model."""

from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langmem_es.core import MemoryConfig

CHATTER = [f"Tim: which instruments does shop {i} sell? Instruments are pricey, Tim says." for i in range(30)]
#: other talk, so that the question's words are not in most memories (a search engine gives
#: words in most documents no weight, and then only the meaning of the question counts)
OTHER = [f"Ann: the ferry to island {i} was late again, the weather grey." for i in range(40)]
QUESTION = "Which instruments does Tim play?"


def _ingest(core, alice) -> list[str]:
    items = [{"content": c, "session_id": "s0"} for c in OTHER]
    items += [{"content": c, "session_id": "s1"} for c in CHATTER[:15]]
    items.append({"content": "Tim: I started learning the violin this spring.", "session_id": "s1"})
    items += [{"content": c, "session_id": "s2"} for c in CHATTER[15:]]
    items.append({"content": "Tim: The clarinet was my first love, I still practise daily.", "session_id": "s2"})
    return core.remember_many(alice, items)


@pytest.fixture
def model() -> FakeListChatModel:
    return FakeListChatModel(responses=['["learning the violin", "practising the clarinet"]'] * 10)


@pytest.fixture
def config(model: FakeListChatModel) -> MemoryConfig:
    return MemoryConfig(access_flush_every=1_000, query_model=model)


def test_sub_queries_bring_both_facts(core, alice) -> None:
    ids = _ingest(core, alice)
    found = core.recall(alice, QUESTION, k=4)
    assert {ids[len(OTHER) + 15], ids[-1]} <= {m.id for m in found.memories}
    core.config = MemoryConfig(access_flush_every=1_000)  # the question alone finds the chatter
    assert {ids[len(OTHER) + 15], ids[-1]} - {m.id for m in core.recall(alice, QUESTION, k=4).memories}


@pytest.mark.parametrize("answer", ["I cannot help with that.", "[]", '{"queries": 3}'])
def test_an_unusable_answer_leaves_recall_as_without_a_model(core, alice, model, answer) -> None:
    ids = _ingest(core, alice)
    model.responses = [answer] * 10
    with_model = [m.id for m in core.recall(alice, QUESTION, k=5).memories]
    core.config = MemoryConfig(access_flush_every=1_000)
    assert with_model == [m.id for m in core.recall(alice, QUESTION, k=5).memories]
    assert ids  # ingested


class _Broken:
    def invoke(self, *_a, **_k):
        raise RuntimeError("model down")

    async def ainvoke(self, *_a, **_k):
        raise RuntimeError("model down")


def test_a_failing_model_is_ignored(core, alice) -> None:
    _ingest(core, alice)
    core.config = MemoryConfig(access_flush_every=1_000, query_model=_Broken())
    assert core.recall(alice, QUESTION, k=3).memories
