"""Tests for langmem_es.rerank: protocol, Jina (local fake), ONNX cross-encoder, rescoring."""

from __future__ import annotations

import asyncio
import dataclasses
import doctest
import importlib.util
import math
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from langmem_es import rerank as rerank_mod
from langmem_es.embeddings import MissingDependencyError, RerankError, _find_tokenizer_file
from langmem_es.rerank import (
    Candidate,
    CrossEncoderReranker,
    JinaReranker,
    MemoryAwareRescorer,
    NoReranker,
    Reranker,
    RescoreWeights,
    literal_tokens,
    resolve_reranker,
)

try:
    from jina_fake_server import JinaFakeServer, fake_relevance
except ImportError:  # pragma: no cover - when tests/ is a package
    from tests.unit.jina_fake_server import JinaFakeServer, fake_relevance

NOW = datetime(2025, 6, 1, tzinfo=timezone.utc)


def cands(*texts: str, **common: object) -> list[Candidate]:
    return [{"id": f"c{i}", "text": t, "score": 0.5, **common} for i, t in enumerate(texts)]  # type: ignore[misc]


def test_protocol_and_none() -> None:
    c: list[Candidate] = [{"id": "a", "text": "x", "score": 0.3}, {"id": "b", "text": "y"}]
    for r in (NoReranker(), MemoryAwareRescorer(), JinaReranker(), CrossEncoderReranker("/nope")):
        assert isinstance(r, Reranker)
    assert NoReranker().rerank("q", c) == [0.3, 0.0]
    assert asyncio.run(NoReranker().arerank("q", c)) == [0.3, 0.0]


# ---------------------------------------------------------------------------- Jina
def test_jina_rerank_request_shape_and_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JINA_API_KEY", JinaFakeServer.api_key)
    docs = ["the blue whale is big", "whale songs are long and blue", "cats sleep"]
    with JinaFakeServer() as srv:
        r = JinaReranker(base_url=srv.url)
        scores = r.rerank("blue whale", cands(*docs))
    # the fake returns results sorted by relevance; they must be mapped back by index
    assert scores == pytest.approx([fake_relevance("blue whale", d) for d in docs])
    (req,) = srv.requests
    assert req.path == "/v1/rerank"
    assert req.headers["authorization"] == f"Bearer {JinaFakeServer.api_key}"
    assert req.body == {
        "model": "jina-reranker-v2-base-multilingual",
        "query": "blue whale",
        "documents": docs,
        "top_n": 3,
        "return_documents": False,
    }


async def test_jina_rerank_async_batches_and_retry() -> None:
    docs = [f"doc {i} whale" if i % 2 else f"doc {i}" for i in range(5)]
    with JinaFakeServer() as srv:
        srv.fail_next("/v1/rerank", 502, times=1)
        r = JinaReranker("jina-reranker-m0", base_url=srv.url, api_key=srv.api_key, batch_size=2, backoff=0.01)
        scores = await r.arerank("whale", cands(*docs))
    assert scores == pytest.approx([fake_relevance("whale", d) for d in docs])
    bodies = [q.body for q in srv.requests]
    assert len(bodies) == 4  # 1 failed + 3 batches
    assert [b["documents"] for b in bodies[1:]] == [docs[0:2], docs[2:4], docs[4:5]]
    assert all(b["model"] == "jina-reranker-m0" and b["top_n"] == len(b["documents"]) for b in bodies[1:])


def test_jina_rerank_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JINA_API_KEY", raising=False)
    with pytest.raises(RerankError, match="JINA_API_KEY"):
        JinaReranker(base_url="http://127.0.0.1:9").rerank("q", cands("a"))
    with JinaFakeServer() as srv:
        srv.fail_next("/v1/rerank", 400, body='{"detail":"bad model name"}')
        with pytest.raises(RerankError, match=r"HTTP 400.*bad model name"):
            JinaReranker(base_url=srv.url, api_key=srv.api_key).rerank("q", cands("a"))
        assert JinaReranker(base_url=srv.url, api_key=srv.api_key).rerank("q", []) == []
        assert len(srv.requests) == 1  # 4xx is not retried; empty input sends nothing


# ---------------------------------------------------------------------------- cross-encoder
def _tiny_cross_encoder(tmp_path: Path) -> Path:
    """An ONNX 'cross-encoder': logit = (#'cat' tokens in the document segment) - 0.5."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    from tokenizers import Tokenizer

    tok_file = _find_tokenizer_file()
    vocab = Tokenizer.from_file(str(tok_file)).get_vocab_size()
    cat_id = Tokenizer.from_file(str(tok_file)).token_to_id("cat")
    table = np.zeros((vocab, 1), dtype=np.float32)
    table[cat_id, 0] = 1.0
    nodes = [
        helper.make_node("Gather", ["table", "input_ids"], ["g3"], axis=0),
        helper.make_node("Squeeze", ["g3", "ax2"], ["g"]),
        helper.make_node("Cast", ["token_type_ids"], ["tt"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["attention_mask"], ["m"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["g", "tt"], ["gt"]),
        helper.make_node("Mul", ["gt", "m"], ["gm"]),
        helper.make_node("ReduceSum", ["gm", "ax1"], ["s"], keepdims=1),
        helper.make_node("Sub", ["s", "half"], ["logits"]),
    ]
    ins = [
        helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "seq"])
        for n in ("input_ids", "attention_mask", "token_type_ids")
    ]
    out = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1])
    inits = [
        numpy_helper.from_array(table, "table"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "ax2"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "ax1"),
        numpy_helper.from_array(np.array(0.5, dtype=np.float32), "half"),
    ]
    graph = helper.make_graph(nodes, "tiny_ce", ins, [out], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    d = tmp_path / "tiny-ce"
    d.mkdir()
    onnx.save(model, str(d / "model.onnx"))
    shutil.copy(tok_file, d / "tokenizer.json")
    return d


def test_cross_encoder_onnx(tmp_path: Path) -> None:
    model_dir = _tiny_cross_encoder(tmp_path)
    docs = ["a dog", "a cat and another cat", "cat", "Cat naps; CAT wakes; cat eats", ""]
    r = CrossEncoderReranker(model_dir, batch_size=2)
    assert r.backend is None  # lazy
    scores = r.rerank("cat cat cat", cands(*docs))  # query tokens (segment A) don't count
    assert r.backend == "onnx"
    expected = [1 / (1 + math.exp(-(n - 0.5))) for n in (0, 2, 1, 3, 0)]
    assert scores == pytest.approx(expected, abs=1e-6)
    raw = CrossEncoderReranker(model_dir, sigmoid=False).rerank("cat", cands(*docs))
    assert raw == pytest.approx([-0.5, 1.5, 0.5, 2.5, -0.5], abs=1e-6)
    assert asyncio.run(r.arerank("cat", cands(*docs))) == pytest.approx(expected, abs=1e-6)
    assert r.rerank("cat", []) == []
    assert resolve_reranker(f"cross-encoder:{model_dir}").rerank("x", cands("cat")) == pytest.approx(
        [1 / (1 + math.exp(-0.5))]
    )


def test_cross_encoder_errors(tmp_path: Path) -> None:
    with pytest.raises(RerankError, match="not found"):
        CrossEncoderReranker(tmp_path / "missing").rerank("q", cands("a"))
    empty = tmp_path / "empty"
    empty.mkdir()
    if importlib.util.find_spec("sentence_transformers") is None:
        with pytest.raises(MissingDependencyError, match="pip install"):
            CrossEncoderReranker(empty).rerank("q", cands("a"))
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "model.onnx").write_bytes(b"not an onnx model")
    shutil.copy(_find_tokenizer_file(), bad / "tokenizer.json")
    with pytest.raises(RerankError, match="cannot load"):
        CrossEncoderReranker(bad).rerank("q", cands("a"))


# ---------------------------------------------------------------------------- rescoring
def test_literal_tokens() -> None:
    assert literal_tokens("Why does E-4012 happen on v2.3.1, in 2024 with user_id?") == [
        "e-4012",
        "v2.3.1",
        "2024",
        "user_id",
    ]
    assert literal_tokens("plain words only") == []


def test_rare_literal_lifts_candidate() -> None:
    c: list[Candidate] = [
        {"id": "a", "text": "The deploy failed again yesterday", "score": 0.9},
        {"id": "b", "text": "Billing threw error E-4012 after the upgrade", "score": 0.6},
        {"id": "c", "text": "Upgrade notes for the billing service", "score": 0.7},
    ]
    r = MemoryAwareRescorer(now=NOW)
    scores = r.rerank("what was error E-4012 about?", c)
    assert int(np.argmax(scores)) == 1
    # without literals in the query, the fused order holds
    plain = r.rerank("what went wrong?", c)
    assert sorted(range(3), key=lambda i: -plain[i]) == [0, 2, 1]
    # a literal every candidate contains carries no information (IDF 0)
    common = [{**x, "text": x["text"] + " v1.0"} for x in c]
    assert r.rerank("v1.0", common) == pytest.approx(plain)  # type: ignore[arg-type]


def test_rare_literal_boundaries() -> None:
    f = MemoryAwareRescorer(now=NOW).features(
        "4012", cands("code E-4012 seen", "code 40120 seen", "nothing"), [0.5] * 3
    )["rare"]
    assert list(f) == [1.0, 0.0, 0.0]


def test_recency_half_life_per_kind() -> None:
    w = RescoreWeights()
    c: list[Candidate] = [
        {"id": "e30", "text": "x", "kind": "episodic", "written_at": (NOW - timedelta(days=30)).isoformat()},
        {"id": "s30", "text": "x", "kind": "semantic", "written_at": (NOW - timedelta(days=30)).isoformat()},
        {"id": "new", "text": "x", "kind": "episodic", "written_at": NOW.isoformat().replace("+00:00", "Z")},
        {"id": "future", "text": "x", "kind": "episodic", "written_at": (NOW + timedelta(days=3)).isoformat()},
        {"id": "none", "text": "x", "kind": "episodic"},
        {"id": "naive", "text": "x", "kind": "other", "written_at": "2025-03-03T00:00:00"},
    ]
    rec = MemoryAwareRescorer(w, now=NOW).features("q", c, [0.0] * len(c))["recency"]
    assert rec[0] == pytest.approx(0.5)
    assert rec[1] == pytest.approx(0.5 ** (30 / 365))
    assert rec[2] == pytest.approx(1.0) and rec[3] == pytest.approx(1.0)
    assert rec[4] == 0.0
    assert rec[5] == pytest.approx(0.5 ** (90 / 90))  # default half-life, naive = UTC


def test_all_features_and_weights() -> None:
    c: list[Candidate] = [
        {"id": "a", "text": "t", "score": 2.0, "kind": "semantic", "confidence": 0.9, "access_count": 10},
        {"id": "b", "text": "t", "score": 1.0, "kind": "episodic", "confidence": 1.7, "access_count": 0},
        {"id": "c", "text": "t", "score": 0.0},
    ]
    w = RescoreWeights(fused=1.0, recency=0.0, confidence=0.5, access=0.25, kind={"semantic": 0.1}, rare=0.0)
    r = MemoryAwareRescorer(w, now=NOW)
    f = r.features("q", c, [2.0, 1.0, 0.0])
    assert list(f["fused"]) == [1.0, 0.5, 0.0]
    # positive scores keep proportions; negative ones (logits) are min-max normalised
    assert r.features("q", c, [0.2, 0.3, 0.1])["fused"] == pytest.approx([2 / 3, 1.0, 1 / 3])
    assert r.features("q", c, [-1.0, 1.0, 0.0])["fused"] == pytest.approx([0.0, 1.0, 0.5])
    assert list(r.features("q", c, [0.0, 0.0, 0.0])["fused"]) == [0.0, 0.0, 0.0]
    assert list(f["confidence"]) == [0.9, 1.0, 0.5]  # clipped; missing → 0.5
    assert list(f["access"]) == [1.0, 0.0, 0.0]
    assert list(f["kind"]) == [0.1, 0.0, 0.0]
    assert r.rerank("q", c) == pytest.approx([1 + 0.45 + 0.25 + 0.1, 0.5 + 0.5, 0.25])
    assert asyncio.run(r.arerank("q", c)) == pytest.approx(r.rerank("q", c))
    assert r.rerank("q", []) == []
    one = r.rerank("q", c[:1])  # a single candidate normalises to 1.0
    assert one == pytest.approx([1 + 0.45 + 0.25 + 0.1])


def test_rescorer_over_base_reranker() -> None:
    class Reverse:
        def rerank(self, query: str, candidates):  # type: ignore[no-untyped-def]
            return [float(-i) for i in range(len(candidates))][::-1]

        async def arerank(self, query: str, candidates):  # type: ignore[no-untyped-def]
            return self.rerank(query, candidates)

    c = cands("a", "b", "c")
    w = RescoreWeights(recency=0, confidence=0, access=0, rare=0)
    r = MemoryAwareRescorer(w, base=Reverse(), now=NOW)
    assert r.rerank("q", c) == pytest.approx([0.0, 0.5, 1.0])
    assert asyncio.run(r.arerank("q", c)) == pytest.approx([0.0, 0.5, 1.0])


def test_weights_frozen() -> None:
    w = RescoreWeights(kind={"semantic": 0.1})
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.rare = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        w.kind["semantic"] = 2.0  # type: ignore[index]
    with pytest.raises(ValueError):
        RescoreWeights(half_life_days={"episodic": 0})
    assert dataclasses.replace(w, rare=0.5).rare == 0.5


def test_resolve_reranker(tmp_path: Path) -> None:
    assert isinstance(resolve_reranker(None), NoReranker)
    assert isinstance(resolve_reranker("none"), NoReranker)
    assert isinstance(resolve_reranker("memory"), MemoryAwareRescorer)
    j = resolve_reranker("jina:jina-reranker-v3")
    assert isinstance(j, JinaReranker) and j.model == "jina-reranker-v3"
    assert resolve_reranker("jina").model == "jina-reranker-v2-base-multilingual"  # type: ignore[attr-defined]
    ce = resolve_reranker(f"cross-encoder:{tmp_path}")
    assert isinstance(ce, CrossEncoderReranker) and ce.model_dir == tmp_path
    m = resolve_reranker("memory+jina:x")
    assert isinstance(m, MemoryAwareRescorer) and isinstance(m.base, JinaReranker)
    inst = MemoryAwareRescorer()
    assert resolve_reranker(inst) is inst
    with pytest.raises(ValueError, match="unknown reranker"):
        resolve_reranker("bogus")
    with pytest.raises(TypeError):
        resolve_reranker(3)  # type: ignore[arg-type]


def test_module_doctests() -> None:
    failures, _ = doctest.testmod(rerank_mod)
    assert failures == 0


def test_public_api_pinned() -> None:
    assert sorted(rerank_mod.__all__) == [
        "Candidate",
        "CrossEncoderReranker",
        "JinaReranker",
        "MemoryAwareRescorer",
        "NoReranker",
        "Reranker",
        "RescoreWeights",
        "literal_tokens",
        "resolve_reranker",
    ]
