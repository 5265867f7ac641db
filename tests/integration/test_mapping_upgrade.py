"""A store made before ``text.dv`` existed (mapping version 1) keeps recalling after the upgrade.

``setup()`` puts the new multi-field on the old indices; memories written before it have
no doc-value copy of their text, so recall's legs read theirs from ``_source`` — the
reranker and the rendered block see the same text either way.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest

from langmem_es.backends.elasticsearch import ElasticsearchBackend, mappings
from langmem_es.core import MemoryConfig, MemoryCore
from langmem_es.model import Identity
from tests.fixtures.embed import bag_of_words

pytestmark = pytest.mark.integration

DIMS = 32
ALICE = Identity(tenant="acme", user_id="alice")


def embed(texts: list[str]) -> list[list[float]]:
    return bag_of_words(texts, DIMS)


CURRENT = mappings.mappings


def _version_1(dims: int) -> dict[str, Any]:
    body = copy.deepcopy(CURRENT(dims, packed=False))  # made before the pack
    body["properties"]["text"].pop("fields")
    body["_meta"]["langmem_es_mapping_version"] = 1
    return body


def test_memories_written_before_text_doc_values_still_recall_with_their_text(es_basic, monkeypatch) -> None:
    prefix = f"upg-{uuid.uuid4().hex[:10]}"
    config = MemoryConfig(access_flush_every=10**9)
    old = ElasticsearchBackend(es_basic, prefix=prefix, dims=DIMS)
    try:
        with monkeypatch.context() as m:  # the mapping of the previous release
            m.setattr(mappings, "mappings", _version_1)
            m.setattr(mappings, "MAPPING_VERSION", 1)
            core = MemoryCore(old, embeddings=embed, config=config)
            core.setup()
            before = core.remember(ALICE, "The staging deploy fails with E-4012 since Tuesday.", kind="episodic").memory
        alias = old.alias("episodic")
        assert (
            "fields"
            not in es_basic.indices.get_mapping(index=alias).body.popitem()[1]["mappings"]["properties"]["text"]
        )

        core = MemoryCore(ElasticsearchBackend(es_basic, prefix=prefix, dims=DIMS), embeddings=embed, config=config)
        core.setup()  # the upgrade: additive, in place
        (body,) = es_basic.indices.get_mapping(index=alias).body.values()
        assert body["mappings"]["_meta"]["langmem_es_mapping_version"] == mappings.MAPPING_VERSION
        assert body["mappings"]["properties"]["text"]["fields"]["dv"]["type"] == "keyword"
        after = core.remember(ALICE, "The production deploy fails with E-4012 as well.", kind="episodic").memory

        result = core.recall(ALICE, "why does the deploy fail with E-4012?", k=5)
        assert before is not None and after is not None
        got = {r.memory.id: r.memory.content for r in result.memories}
        assert got == {before.id: before.content, after.id: after.content}
        mgets: list[int] = []
        mget = es_basic.mget

        def counting(**kwargs: Any) -> Any:
            mgets.append(len(kwargs["docs"]))
            return mget(**kwargs)

        monkeypatch.setattr(es_basic, "mget", counting)
        fresh = ElasticsearchBackend(es_basic, prefix=prefix, dims=DIMS)  # nothing read before
        for _ in range(2):
            legs = fresh.hybrid(
                ["episodic"],
                {"term": {"tenant": "acme"}},
                text="E-4012",
                vector=embed(["deploy fails with E-4012"])[0],
                size=5,
                fields=["id", "key", "text"],
            )
            for hits in (legs.text_hits, legs.vector_hits):
                assert {h.doc["key"]: h.doc["text"].split("\n")[0] for h in hits} == got
        # the old memory's text, once for both legs; the second recall knows that version's text
        assert mgets == [1]
    finally:
        old.drop()
