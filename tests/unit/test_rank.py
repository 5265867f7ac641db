"""The learned ranker: its features, the shipped model, refusal and fallback, and its step in recall."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

from langmem_es.core.config import MemoryConfig
from langmem_es.rank import FEATURES, MODEL_FILE, features, learned_order, load_ranker
from langmem_es.rank.features import question_kind
from langmem_es.rank.model import LearnedRanker
from langmem_es_eval.ranker_data import TRAINING_SEEDS

NOW = datetime(2026, 12, 6, tzinfo=timezone.utc)


def cand(content: str, **kw):
    return {"content": content, "fused": 0.5, "rules": 0.5, **kw}


def column(rows: np.ndarray, name: str) -> list[float]:
    return [round(float(v), 4) for v in rows[:, FEATURES.index(name)]]


def test_features_read_the_question_against_each_candidate() -> None:
    rows = features(
        "When did Caroline go to the LGBTQ support group?",
        [
            cand("Caroline: I went to the LGBTQ support group yesterday.", bm25=9.0, bm25_rank=1, session_id="s1"),
            cand("Melanie: I painted a lake.", dense=0.4, dense_rank=1, session_id="s1"),
            cand("Caroline: The support group was great.", fused=1.0, session_id="s2", kind="semantic"),
        ],
        reference=NOW,
    )
    assert rows.shape == (3, len(FEATURES)) and rows.dtype == np.float32
    assert column(rows, "asks_when_states_time") == [1.0, 0.0, 0.0]  # a "when" question, a candidate stating a time
    assert column(rows, "speaker_named") == [1.0, 0.0, 1.0]
    assert column(rows, "bm25_missing") == [0.0, 1.0, 1.0] and column(rows, "dense_missing") == [1.0, 0.0, 1.0]
    assert column(rows, "fused") == [0.5, 0.5, 1.0]  # share of the best
    assert column(rows, "session_share")[:2] == [round(1 / 3, 4)] * 2 and column(rows, "session_share")[2] == 0.0
    assert column(rows, "kind_semantic") == [0.0, 0.0, 1.0]
    assert column(rows, "asks_when") == [1.0] * 3
    shares = column(rows, "word_share")
    assert shares[0] > shares[2] > shares[1] == 0.0
    assert features("anything", []).shape == (0, len(FEATURES))


def test_features_read_a_request_against_standing_wishes_and_a_recap_question() -> None:
    wishes = [
        cand("Ann: When you write Python for me, always add type hints."),
        cand("Ann: From now on keep your answers short."),
        cand("Ann: I'd rather have a quiet cabin than a beach resort."),
        cand("Ann: I wrote some Python today."),
        cand("Ann: The market was lovely."),
    ]
    rows = features("Could you write a helper that reads the export?", wishes)
    assert column(rows, "standing") == [1.0, 1.0, 1.0, 0.0, 0.0]
    assert column(rows, "asks_request") == [1.0] * 5 and column(rows, "request_standing") == [1.0, 1.0, 1.0, 0.0, 0.0]
    asked = features("What did Ann write about Python?", wishes)
    assert column(asked, "asks_request") == [0.0] * 5 and column(asked, "request_standing") == [0.0] * 5
    for q in ("Summarise how my garden has been doing.", "In what order did my move happen?", "Give me a recap."):
        assert column(features(q, wishes[:1]), "asks_recap") == [1.0], q
    assert column(features("Where does Ann live?", wishes[:1]), "asks_recap") == [0.0]
    long_paste = "Ann: here is the log\n" + "x " * 1_500 + "always retry"  # a wish is said, not pasted
    assert column(features("Could you help?", [cand(long_paste)]), "standing") == [0.0]


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When did Jon go to Rome?", "when"),
        ("Which cities has Jon visited?", "which"),
        ("How many kids does Melanie have?", "how_many"),
        ("Where does Sam work?", "where"),
        ("Did Jon go to Rome?", "yes_no"),
    ],
)
def test_what_a_question_asks_for(question: str, kind: str) -> None:
    assert question_kind(question) == kind


def test_the_shipped_model_loads_with_its_training_record() -> None:
    ranker = load_ranker()
    assert isinstance(ranker, LearnedRanker), "the package ships langmem_es/rank/ranker.txt and ranker.json"
    meta = json.loads(MODEL_FILE.with_suffix(".json").read_text())
    assert tuple(meta["features"]) == FEATURES
    assert len(meta["data_sha256"]) == 64 and ranker.data_sha256 == meta["data_sha256"]
    cv = meta["cross_validated"]["locomo_dev_cv"]
    assert cv["learned"]["recall@10"] > cv["rules"]["recall@10"]  # what it was shipped for, cross-validated
    # eval --ranker-cv's fold models are trained on the data the shipped model was
    assert tuple(meta["trained_on"]["longconv_seeds"]) == TRAINING_SEEDS
    assert meta["trained_on"]["window"] == MemoryConfig().rerank_window
    scores = ranker.scores("When did Jon go to Rome?", [cand("Jon: I flew to Rome last May."), cand("Bob: hi")])
    assert scores.shape == (2,) and np.isfinite(scores).all()


def test_a_model_trained_on_other_features_is_refused(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    model = tmp_path / "ranker.txt"
    model.write_text(MODEL_FILE.read_text())
    meta = json.loads(MODEL_FILE.with_suffix(".json").read_text())
    meta["features"] = [*meta["features"][:-1], "a_feature_this_code_does_not_compute"]
    model.with_suffix(".json").write_text(json.dumps(meta))
    assert load_ranker(model) is None
    assert "refused" in caplog.text
    assert load_ranker(tmp_path / "missing.txt") is None  # no model: recall keeps the rules


class _Hit:
    def __init__(self, doc: dict) -> None:
        self.doc = doc


def test_learned_order_reorders_the_window_on_the_rules_scale() -> None:
    import lightgbm as lgb

    # a real (tiny) model that prefers candidates sharing the question's words
    rng = np.random.default_rng(0)
    x = rng.random((400, len(FEATURES))).astype(np.float32)
    y = (x[:, FEATURES.index("word_share")] > 0.7).astype(int)
    booster = lgb.train(
        {"objective": "binary", "verbosity": -1, "num_threads": 1}, lgb.Dataset(x, y), num_boost_round=20
    )
    ranker = LearnedRanker(booster, {"features": list(FEATURES)})
    ranked = [("a", 3.0), ("f", 2.5), ("b", 2.0), ("c", 1.0), ("d", 0.5)]
    docs = {
        "a": {"value": {"content": "Sam likes tea."}},
        "f": {"kind": "semantic", "value": {"content": "The Lisbon office opens at nine."}},
        "b": {"value": {"content": "Sam likes tea and coffee."}},
        "c": {"value": {"content": "The Lisbon office opens at nine, Sam says."}},
        "d": {"value": {"content": "Outside the window."}},
    }
    hits = {i: _Hit(d) for i, d in docs.items()}
    stages: dict[str, dict[str, float]] = {}
    out = learned_order(ranker, "When does the Lisbon office open?", ranked, hits, stages, {}, 4, NOW)
    assert out[0][0] == "c" and out[-1] == ("d", 0.5)  # the window's events reordered, the rest kept after it
    assert out[1] == ("f", 2.5)  # a fact keeps the rules' place: the model was trained on events
    assert [s for _, s in out[:4]] == [3.0, 2.5, 2.0, 1.0]  # the rules' scores, best first
    assert set(stages) == {"a", "b", "c"} and all("learned" in s for s in stages.values())
    few: dict[str, dict[str, float]] = {}  # fewer events than the model learned from: the rules' order
    assert learned_order(ranker, "When?", ranked, hits, few, {}, 4, NOW, min_events=4) == ranked and not few
