"""The evaluation runner on a tiny synthetic LoCoMo-format file (never the real data)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from langmem_es_eval import cli as eval_cli
from langmem_es_eval.baselines import DenseSystem, LangGraphInMemorySystem
from langmem_es_eval.locomo import load_dataset, memory_text
from langmem_es_eval.registry import SYSTEMS, make_system
from langmem_es_eval.report import format_report
from langmem_es_eval.runner import aggregate, run_eval
from langmem_es_eval.scoring import BM25Index, rrf_fuse, tokenize
from langmem_es_eval.systems import EvalContext, RetrievalSystem, SystemUnavailable

DIMS = 384


class HashEmbeddings:
    """Deterministic bag-of-words vectors: shared words → high cosine. No model needed."""

    def _vec(self, text: str) -> list[float]:
        v = np.zeros(DIMS, dtype=np.float64)
        for tok in tokenize(text):
            h = int(hashlib.md5(tok.encode()).hexdigest(), 16)
            v[h % DIMS] += 1.0
        n = np.linalg.norm(v)
        return (v / n if n else v).tolist()

    def embed_documents(self, texts):
        return [self._vec(t) for t in texts]

    def embed_query(self, text):
        return self._vec(text)


def _conv(conv_id: str, facts: list[tuple[str, str]], questions: list[dict]) -> dict:
    turns = [{"turn_id": f"D1:{i + 1}", "speaker": speaker, "text": text} for i, (speaker, text) in enumerate(facts)]
    turns[1]["image_caption"] = "a photo of a red kayak"
    return {
        "conv_id": conv_id,
        "source": "synthetic",
        "speakers": ["Ann", "Bob"],
        "sessions": [
            {
                "session_id": "session_1",
                "date_time": "1 May 2023",
                "timestamp": "2023-05-01T10:00:00",
                "turns": turns[:3],
            },
            {
                "session_id": "session_2",
                "date_time": "2 May 2023",
                "timestamp": None,
                "turns": [dict(t, turn_id=t["turn_id"].replace("D1", "D2")) for t in turns[3:]],
            },
        ],
        "questions": questions,
    }


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    facts_a = [
        ("Ann", "I adopted a beagle named Pixel last spring."),
        ("Bob", "Weekend plans: paddling on the lake."),
        ("Ann", "My sister lives in Lisbon and teaches chemistry."),
        ("Bob", "I finally fixed the bicycle gears yesterday."),
        ("Ann", "Pottery class starts on Tuesday evenings."),
        ("Bob", "The bakery downtown sells rye sourdough."),
    ]
    facts_b = [
        ("Ann", "Our violin recital went wonderfully."),
        ("Bob", "I am training for a marathon in Berlin."),
        ("Ann", "The garden tomatoes are ripening."),
        ("Bob", "Chess club meets on Thursdays."),
    ]
    qa = [
        {
            "qid": "a:q1",
            "question": "What is the name of Ann's beagle?",
            "category": 4,
            "evidence": ["D1:1"],
            "answer": "Pixel",
        },
        {
            "qid": "a:q2",
            "question": "Where does Ann's sister teach chemistry?",
            "category": 1,
            "evidence": ["D1:3", "D2:4"],
            "answer": "Lisbon",
        },
        {
            "qid": "a:q3",
            "question": "When did Bob fix the bicycle gears?",
            "category": 2,
            "evidence": ["D2:4"],
            "answer": "yesterday",
        },
        {
            "qid": "a:q4",
            "question": "What colour is the kayak in Bob's photo?",
            "category": 3,
            "evidence": ["D1:2"],
            "answer": "red",
        },
        {
            "qid": "a:q5",
            "question": "What does the bakery sell?",
            "category": 5,
            "evidence": ["D2:6"],
            "answer": None,
            "adversarial_answer": "rye",
        },
        {"qid": "a:q6", "question": "dropped: no evidence", "category": 4, "evidence": []},
    ]
    qb = [
        {
            "qid": "b:q1",
            "question": "Which city is Bob's marathon in?",
            "category": 4,
            "evidence": ["D1:2"],
            "answer": "Berlin",
        },
        {
            "qid": "b:q2",
            "question": "When does the chess club meet?",
            "category": 2,
            "evidence": ["D2:4"],
            "answer": "Thursdays",
        },
    ]
    path = tmp_path / "synthetic.jsonl"
    with path.open("w") as fh:
        fh.write(json.dumps(_conv("conv-a", facts_a, qa)) + "\n\n")
        fh.write(json.dumps(_conv("conv-b", facts_b, qb)) + "\n")
    return path


@pytest.fixture
def context() -> EvalContext:
    return EvalContext(embeddings_factory=HashEmbeddings)


def test_loader_builds_memory_texts_and_drops_questions_without_evidence(dataset):
    convs = load_dataset(dataset)
    assert [c.conv_id for c in convs] == ["conv-a", "conv-b"]
    a = convs[0]
    assert [t.turn_id for t in a.turns] == ["D1:1", "D1:2", "D1:3", "D2:4", "D2:5", "D2:6"]
    assert a.turns[1].memory_text == (
        "Bob: Weekend plans: paddling on the lake. [shares image: a photo of a red kayak]"
    )
    assert a.turns[0].metadata == {
        "turn_id": "D1:1",
        "session_id": "session_1",
        "speaker": "Ann",
        "timestamp": "2023-05-01T10:00:00",
    }
    assert a.turns[3].metadata["timestamp"] is None
    assert [q.qid for q in a.questions] == ["a:q1", "a:q2", "a:q3", "a:q4", "a:q5"]
    assert load_dataset(dataset, limit_conversations=1)[0].conv_id == "conv-a"
    assert memory_text("X", "y", None) == "X: y"


def test_loader_reports_bad_lines(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"conv_id": "x", "sessions": [{"turns": []}]}\n')
    with pytest.raises(ValueError, match="bad.jsonl:1"):
        load_dataset(bad)


def test_tokenize_and_bm25():
    assert tokenize("Ana's chess-club, 2024!") == ["ana", "s", "chess", "club", "2024"]
    idx = BM25Index(["red red kayak", "blue kayak on the lake", "nothing here"])
    # idf(kayak) low (2 of 3 docs), idf(red) high; a doc without query terms is never returned
    assert idx.top("red kayak", 10).tolist() == [0, 1]
    assert idx.top("unknownword", 10).tolist() == []
    s = idx.scores("lake")
    n, df = 3, 1
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    lengths = np.array([3, 5, 2])
    tf_norm = 1 / (1 + 1.2 * (1 - 0.75 + 0.75 * lengths[1] / lengths.mean()))
    assert s[1] == pytest.approx(idf * tf_norm, rel=1e-5)
    assert s[0] == s[2] == 0


def test_standard_tokenizer_option():
    from langmem_es_eval.baselines import BM25System
    from langmem_es_eval.scoring import tokenize_standard

    assert tokenize_standard("Ana's 3.5 km") == ["ana's", "3.5", "km"]
    ctx = EvalContext(options={"bm25_tokenizer": "standard"})
    assert BM25System(ctx).info["tokenizer"] == "standard"
    with pytest.raises(ValueError, match="bm25_tokenizer"):
        BM25System(EvalContext(options={"bm25_tokenizer": "nope"}))


def test_rrf_fuse():
    assert rrf_fuse([["a", "b"], ["b", "c"]], k=60) == ["b", "a", "c"]


def test_registry_and_protocol(context):
    assert {"langmem_es", "bm25", "dense", "hybrid_rrf", "langgraph_inmemory", "langchain_es"} <= set(SYSTEMS)
    for name in ("bm25", "dense", "hybrid_rrf", "langgraph_inmemory"):
        system = make_system(name, context)
        assert isinstance(system, RetrievalSystem)
        assert system.name == name
    with pytest.raises(ValueError, match="known: .*bm25"):
        make_system("nope", context)


def test_default_systems_need_a_cluster_only_when_configured(monkeypatch):
    from langmem_es import settings
    from langmem_es_eval.runner import OPT_IN_SYSTEMS, default_systems

    monkeypatch.setattr(settings, "connection_from_env", lambda *a, **k: None)
    names = default_systems()
    assert "langchain_es" not in names and "bm25" in names and "langmem_es" in names
    assert not OPT_IN_SYSTEMS & set(names)
    monkeypatch.setattr(settings, "connection_from_env", lambda *a, **k: object())
    assert "langchain_es" in default_systems()


def test_inmemory_store_ranks_like_dense(dataset, context):
    conv = load_dataset(dataset)[0]
    dense, store = DenseSystem(context), LangGraphInMemorySystem(context)
    dense.index(conv)
    store.index(conv)
    for q in conv.questions:
        assert store.search(conv.conv_id, q.question, 5) == dense.search(conv.conv_id, q.question, 5)


def test_run_eval_end_to_end(dataset, context, tmp_path, capsys):
    out = tmp_path / "out"
    dump = tmp_path / "misses.jsonl"
    res = run_eval(
        dataset,
        ["bm25", "dense", "hybrid_rrf", "langgraph_inmemory"],
        out_dir=out,
        progress=False,
        context=context,
        dump_misses=dump,
    )
    assert res["errors"] == {}
    assert list(res["systems"]) == ["bm25", "dense", "hybrid_rrf", "langgraph_inmemory"]
    bm25 = res["systems"]["bm25"]
    assert bm25["overall"]["n"] == 6  # categories 1-4 over both conversations
    assert bm25["adversarial"]["n"] == 1
    assert {k: v["n"] for k, v in bm25["by_category"].items()} == {"1": 1, "2": 2, "3": 1, "4": 2, "5": 1}
    assert bm25["by_category"]["4"]["name"] == "single-hop"
    # the questions share rare words with their evidence, except the multi-hop one's
    # second turn: BM25 never returns a turn without a query word
    assert bm25["overall"]["hit@10"] == 1.0
    assert bm25["by_category"]["1"]["recall@10"] == 0.5
    assert bm25["overall"]["recall@10"] == pytest.approx((0.5 + 5) / 6)
    for name, r in res["systems"].items():
        for metric in ("recall@5", "recall@10", "hit@10", "mrr@10", "ndcg@10"):
            assert 0.0 <= r["overall"][metric] <= 1.0, (name, metric)
        assert r["timing"]["search_ms_mean"] >= 0
    assert res["systems"]["dense"]["overall"] == res["systems"]["langgraph_inmemory"]["overall"]

    meta = res["metadata"]
    assert meta["dataset"]["sha256"] == hashlib.sha256(dataset.read_bytes()).hexdigest()
    assert meta["dataset"]["questions_by_category"] == {"1": 1, "2": 2, "3": 1, "4": 2, "5": 1}
    assert meta["machine"]["cpu_count"] >= 1
    assert {"langmem-es", "elasticsearch", "langgraph"} <= set(meta["versions"])
    assert meta["embedder"].startswith("HashEmbeddings")
    assert meta["date"] and meta["runtime_s"] >= 0
    assert meta["embedding_warmup"]["documents"] == 10
    assert meta["embedding_warmup"]["queries"] == 7

    saved = json.loads((out / "results.json").read_text())
    assert saved["systems"]["bm25"]["overall"] == bm25["overall"]
    png = (out / "recall_by_category.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"

    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    assert len(rows) == 7
    first = rows[0]
    assert first["qid"] == "a:q1" and first["evidence"] == ["D1:1"] and first["category"] == 4
    assert first["evidence_text"]["D1:1"].startswith("Ann: I adopted a beagle")
    assert set(first["systems"]) == set(res["systems"])
    assert first["systems"]["bm25"]["top10"][0] == "D1:1"
    assert first["missed_by"] == []
    multi_hop = next(r for r in rows if r["qid"] == "a:q2")
    assert "bm25" in multi_hop["missed_by"]
    assert len(first["systems"]["bm25"]["top10"]) <= 10

    printed = capsys.readouterr().out
    assert "Categories 1-4 (6 questions)" in printed
    assert "recall@10 by category" in printed
    assert "adversarial" in printed


def test_limit_conversations(dataset, context):
    res = run_eval(dataset, ["bm25"], progress=False, context=context, limit_conversations=1, print_report=False)
    assert res["metadata"]["dataset"]["conversations"] == ["conv-a"]
    assert res["metadata"]["embedding_warmup"] is None  # BM25 alone embeds nothing
    assert res["systems"]["bm25"]["overall"]["n"] == 4


class Broken:
    name = "broken"

    def index(self, conversation):
        raise RuntimeError("boom")

    def search(self, conversation_id, question, k):  # pragma: no cover
        return []

    def close(self):
        self.closed = True


class Unavailable:
    def __init__(self, context):
        raise SystemUnavailable("needs a cluster")


def test_failing_systems_are_reported_not_fatal(dataset, context, monkeypatch):
    monkeypatch.setitem(SYSTEMS, "unavailable", Unavailable)
    broken = Broken()
    res = run_eval(dataset, ["bm25", broken, "unavailable"], progress=False, context=context, print_report=False)
    assert list(res["systems"]) == ["bm25"]
    assert res["errors"] == {"broken": "RuntimeError: boom", "unavailable": "needs a cluster"}
    assert broken.closed


def test_report_tables(dataset, context):
    res = run_eval(dataset, ["bm25", "dense"], progress=False, context=context, print_report=False)
    titles = [t for t, _, _ in format_report(res)]
    assert titles == ["Categories 1-4 (6 questions)", "recall@10 by category", "Category 5, adversarial (1 questions)"]
    assert aggregate([])["overall"] == {"n": 0}


def test_cli_runs_and_reports_missing_dataset(dataset, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("langmem_es_eval.systems._default_embeddings", lambda: HashEmbeddings())
    out = tmp_path / "cli-out"
    code = eval_cli.main(
        [
            "--dataset",
            str(dataset),
            "--systems",
            "bm25,hybrid_rrf",
            "--out",
            str(out),
            "--no-progress",
            "--bm25-tokenizer",
            "standard",
        ]
    )
    assert code == 0
    saved = json.loads((out / "results.json").read_text())
    assert set(saved["systems"]) == {"bm25", "hybrid_rrf"}
    assert saved["systems"]["bm25"]["info"]["tokenizer"] == "standard"
    assert eval_cli.main(["--dataset", str(tmp_path / "none.jsonl"), "--out", str(out)]) == 2
    assert "dataset not found" in capsys.readouterr().err
    assert eval_cli.main(["--dataset", str(dataset), "--systems", "bm25,nope"]) == 2
    assert "unknown system(s) nope" in capsys.readouterr().err
    assert eval_cli.main(["--list-systems"]) == 0
    listed = capsys.readouterr().out.split()
    assert "langchain_es" in listed and "(opt-in)" in listed


def test_cli_register_adds_eval_subcommand(dataset):
    import argparse

    parser = argparse.ArgumentParser(prog="langmem-es")
    eval_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        [
            "eval",
            "--dataset",
            str(dataset),
            "--systems",
            "bm25",
            "--limit-conversations",
            "1",
            "--backend",
            "elasticsearch",
        ]
    )
    assert args.func is eval_cli.run_command
    assert args.systems == ["bm25"] and args.limit_conversations == 1
    assert args.backend == "elasticsearch"


def test_default_dataset_lookup(tmp_path, monkeypatch):
    monkeypatch.delenv("LANGMEM_ES_EVAL_DATASET", raising=False)
    work = tmp_path / "work" / "repo"
    work.mkdir(parents=True)
    data = tmp_path / "work" / "shared" / "data"
    data.mkdir(parents=True)
    (data / "locomo-dev.jsonl").write_text("")
    assert eval_cli.default_dataset(cwd=work) == (data / "locomo-dev.jsonl").resolve()
    monkeypatch.setenv("LANGMEM_ES_EVAL_DATASET", "/x/y.jsonl")
    assert eval_cli.default_dataset(cwd=work) == Path("/x/y.jsonl")


def test_smoke_with_the_offline_embedder(dataset, tmp_path):
    """The default path end to end: real MiniLM embeddings, every in-process baseline."""
    pytest.importorskip("onnxruntime")
    res = run_eval(
        dataset,
        ["bm25", "dense", "hybrid_rrf", "langgraph_inmemory"],
        out_dir=tmp_path / "smoke",
        progress=False,
        print_report=False,
    )
    assert res["errors"] == {}
    assert res["metadata"]["embedder"].startswith("OnnxMiniLMEmbeddings")
    for name, r in res["systems"].items():
        assert r["overall"]["hit@10"] == 1.0, name  # six turns: everything is in the top 10
    assert res["systems"]["dense"]["overall"] == res["systems"]["langgraph_inmemory"]["overall"]


def test_set_values_take_the_type_of_the_setting():
    from langmem_es_eval.pipeline import _coerce

    assert _coerce("20", 30) == 20
    assert _coerce("0.4", 0.3) == 0.4
    assert _coerce("true", False) is True
    assert _coerce("0.7,1", (1.0, 1.0)) == (0.7, 1.0)
    with pytest.raises(ValueError):
        _coerce("x,1", (1.0, 1.0))
