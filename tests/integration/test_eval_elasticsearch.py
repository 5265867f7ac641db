"""The evaluation's Elasticsearch baseline (langchain-elasticsearch) on a real cluster.

A tiny synthetic LoCoMo-format file (never the real data) and a deterministic
bag-of-words embedder, so the test needs no model and checks the plumbing: one index
per conversation, turn ids back in rank order, the hybrid→dense fallback recorded when
the cluster cannot run RRF, and every index removed on close.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from langmem_es_eval.baselines import LangChainElasticsearchSystem
from langmem_es_eval.locomo import load_dataset
from langmem_es_eval.runner import run_eval
from langmem_es_eval.scoring import tokenize
from langmem_es_eval.systems import EvalContext

DIMS = 384


class HashEmbeddings:
    def _vec(self, text: str) -> list[float]:
        v = np.zeros(DIMS)
        for tok in tokenize(text):
            v[int(hashlib.md5(tok.encode()).hexdigest(), 16) % DIMS] += 1.0
        n = np.linalg.norm(v)
        return (v / n if n else v).tolist()

    def embed_documents(self, texts):
        return [self._vec(t) for t in texts]

    def embed_query(self, text):
        return self._vec(text)


FACTS = {
    "conv-x": [
        "I adopted a beagle named Pixel.",
        "We went paddling on the lake.",
        "My sister teaches chemistry in Lisbon.",
        "The bakery sells rye sourdough.",
    ],
    "conv-y": [
        "The violin recital went well.",
        "Training for the Berlin marathon.",
        "Tomatoes are ripening in the garden.",
    ],
}
QUESTIONS = {
    "conv-x": [
        ("Which beagle was adopted and named?", 4, ["D1:1"]),
        ("Where does the sister teach chemistry?", 1, ["D1:3"]),
        ("What bread does the bakery sell?", 5, ["D1:4"]),
    ],
    "conv-y": [("Which marathon is the training for?", 2, ["D1:2"])],
}


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.jsonl"
    with path.open("w") as fh:
        for conv_id, facts in FACTS.items():
            turns = [
                {"turn_id": f"D1:{i + 1}", "speaker": "Ann" if i % 2 == 0 else "Bob", "text": t}
                for i, t in enumerate(facts)
            ]
            fh.write(
                json.dumps(
                    {
                        "conv_id": conv_id,
                        "speakers": ["Ann", "Bob"],
                        "sessions": [
                            {
                                "session_id": "session_1",
                                "date_time": "1 May 2023",
                                "timestamp": "2023-05-01T10:00:00",
                                "turns": turns,
                            }
                        ],
                        "questions": [
                            {"qid": f"{conv_id}:q{j}", "question": q, "category": c, "evidence": ev}
                            for j, (q, c, ev) in enumerate(QUESTIONS[conv_id])
                        ],
                    }
                )
                + "\n"
            )
    return path


def _eval_indices(client, prefix: str) -> list[str]:
    rows = client.cat.indices(index=f"{prefix}-*", format="json", h="index")
    return [r["index"] for r in rows]


def test_langchain_es_system_indexes_searches_and_cleans_up(es_basic, dataset):
    context = EvalContext(es=es_basic, embeddings_factory=HashEmbeddings)
    system = LangChainElasticsearchSystem(context)
    convs = load_dataset(dataset)
    try:
        for conv in convs:
            system.index(conv)
        assert len(_eval_indices(es_basic, system._prefix)) == 2
        assert system.info["strategy"] in ("hybrid (BM25 + kNN, RRF)", "dense kNN")
        if system.info["strategy"] == "dense kNN":
            assert "fell back to dense" in system.info["note"]
        top = system.search("conv-x", "Which beagle was adopted and named?", 10)
        assert top[0] == "D1:1"
        assert len(top) == len(set(top)) == 4  # whole conversation, no duplicates
        # isolation: the other conversation's index answers only with its own turns
        assert set(system.search("conv-y", "beagle", 10)) <= {"D1:1", "D1:2", "D1:3"}
    finally:
        system.close()
    assert _eval_indices(es_basic, system._prefix) == []
    es_basic.cluster.health()  # the shared client is still open


def test_run_eval_side_by_side_with_elasticsearch(es_basic, dataset, tmp_path):
    context = EvalContext(es=es_basic, embeddings_factory=HashEmbeddings)
    res = run_eval(
        dataset,
        ["bm25", "dense", "langchain_es"],
        out_dir=tmp_path / "out",
        progress=False,
        context=context,
        print_report=False,
    )
    assert res["errors"] == {}
    es = res["systems"]["langchain_es"]
    assert es["overall"]["n"] == 3 and es["adversarial"]["n"] == 1
    assert es["overall"]["hit@10"] == 1.0
    assert es["info"]["elasticsearch"]
    # exact dense and Elasticsearch kNN agree on a four-document index
    if es["info"]["strategy"] == "dense kNN":
        assert es["overall"]["recall@10"] == res["systems"]["dense"]["overall"]["recall@10"]
    assert (tmp_path / "out" / "recall_by_category.png").is_file()
