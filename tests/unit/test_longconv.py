"""The generated long-conversation yardstick: deterministic, well-formed, long, measurable."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from langmem_es_eval import cli as eval_cli
from langmem_es_eval import longconv
from langmem_es_eval.datasets import load
from langmem_es_eval.locomo import load_dataset
from langmem_es_eval.runner import run_eval
from langmem_es_eval.scoring import tokenize
from langmem_es_eval.systems import EvalContext


class HashEmbeddings:
    """Bag-of-words vectors (shared words → high cosine); no model needed."""

    def _vec(self, text: str) -> list[float]:
        v = [0.0] * 64
        for tok in tokenize(text):
            v[sum(tok.encode()) % 64] += 1.0
        n = sum(x * x for x in v) ** 0.5 or 1.0
        return [x / n for x in v]

    def embed_documents(self, texts):
        return [self._vec(t) for t in texts]

    def embed_query(self, text):
        return self._vec(text)


@pytest.fixture(scope="module")
def full():
    return longconv.generate(seed=11, conversations=2)


def test_same_seed_same_conversations_other_seed_other_text():
    a = longconv.generate(seed=5, conversations=1, scale=0.05)[0]
    b = longconv.generate(seed=5, conversations=1, scale=0.05)[0]
    c = longconv.generate(seed=6, conversations=1, scale=0.05)[0]
    assert [(t.turn_id, t.text) for t in a.turns] == [(t.turn_id, t.text) for t in b.turns]
    assert [q.question for q in a.questions] == [q.question for q in b.questions]
    assert [t.text for t in a.turns] != [t.text for t in c.turns]
    assert a.speakers[0] != c.speakers[0]


def test_every_category_is_asked_and_evidence_points_at_turns(full):
    for conv in full:
        ids = [t.turn_id for t in conv.turns]
        assert len(ids) == len(set(ids))
        assert set(Counter(q.category for q in conv.questions)) == set(longconv.CATEGORY_NAMES)
        for q in conv.questions:
            assert q.evidence and set(q.evidence) <= conv.turn_ids, q
        multi = [q for q in conv.questions if q.category == 1]
        sessions = {t.turn_id: t.session_id for t in conv.turns}
        assert all(len({sessions[e] for e in q.evidence}) >= 2 for q in multi)


def test_messages_range_from_short_to_over_300k_chars_with_facts_mid_message(full):
    for conv in full:
        lengths = sorted(len(t.text) for t in conv.turns)
        assert lengths[0] < 300 and lengths[-1] > 300_000
        assert sum(n > 4_000 for n in lengths) >= 8
        texts = {t.turn_id: t.text for t in conv.turns}
        for q in conv.questions:
            if q.category in (6, 7):
                [e] = q.evidence
                at = texts[e].find(str(q.answer))
                assert at >= 0
                assert 0.15 < at / len(texts[e]) < 0.85  # in the middle, not at either end


def test_knowledge_update_evidence_is_the_latest_statement(full):
    for conv in full:
        order = {t.turn_id: i for i, t in enumerate(conv.turns)}
        texts = {t.turn_id: t.text for t in conv.turns}
        for q in (q for q in conv.questions if q.category == 3):
            [e] = q.evidence
            assert q.answer in texts[e]
            if q.answer.isdigit() or q.answer.endswith("day"):
                continue  # ports and weekdays also occur in filler text
            assert not any(q.answer in texts[t] for t in order if order[t] > order[e])


def test_version_1_makes_the_first_generator_s_conversations_exactly():
    """The first version's data (every figure before session 38) stays reproducible: this
    checksum is the first generator's, taken from its own code."""
    convs, params = longconv.load_spec("longconv:seed=3,conversations=2,scale=0.05,version=1")
    digest = hashlib.sha256("".join(longconv.to_jsonl(convs)).encode()).hexdigest()
    assert digest == "7873e776c4768331dd7724933c1fc37a790e0d674bd686d52ce200ec6679b053"
    assert {q.category for c in convs for q in c.questions} == set(range(1, 8)) and params["version"] == 1
    with pytest.raises(ValueError, match="version"):
        longconv.generate(seed=3, conversations=1, version=3)


def test_threads_through_a_conversation_point_at_every_message_they_need(full):
    """Instructions, contradictions, event orders and summaries (version 2): each question's
    evidence is every message it needs, in the sessions the story puts them in."""
    for conv in full:
        texts = {t.turn_id: t.text.lower() for t in conv.turns}  # said in passing: "By the way, i've …"
        session = {t.turn_id: int(t.session_id.split("_")[1]) for t in conv.turns}
        for q in conv.questions:
            if q.category == 8:
                [e] = q.evidence
                assert q.answer.lower() in texts[e] and conv.speakers[0] == next(
                    t.speaker for t in conv.turns if t.turn_id == e
                )
            elif q.category == 9:
                claim, contrary = q.evidence
                assert session[claim] < session[contrary]
                assert all(part.lower() in texts[e] for part, e in zip(q.answer.split(" / "), q.evidence, strict=True))
            elif q.category == 10:
                steps = [session[e] for e in q.evidence]
                assert len(steps) >= 3 and steps == sorted(set(steps))  # one a session, in order
                assert all(s.lower() in texts[e] for s, e in zip(q.answer.split(" → "), q.evidence, strict=True))
            elif q.category == 11:
                assert len(set(q.evidence)) >= 3
                assert all(part.lower() in texts[e] for part, e in zip(q.answer.split(" / "), q.evidence, strict=True))


def test_spec_parsing_and_max_chars():
    assert longconv.is_spec("longconv") and longconv.is_spec("longconv:seed=3")
    assert not longconv.is_spec("locomo-dev.jsonl")
    with pytest.raises(ValueError, match="bad option"):
        longconv.parse_spec("longconv:size=3")
    convs, params = longconv.load_spec("longconv:conversations=1,max_chars=5000")
    assert params["max_chars"] == 5000 and max(len(t.text) for t in convs[0].turns) == 5000


def test_jsonl_round_trips_through_the_locomo_loader(tmp_path):
    convs = longconv.generate(seed=2, conversations=2, scale=0.02)
    path = tmp_path / "lc.jsonl"
    assert longconv.main(["longconv:seed=2,conversations=2,scale=0.02", str(path)]) == 0
    back = load_dataset(path)
    assert [t.text for t in back[1].turns] == [t.text for t in convs[1].turns]
    assert [q.evidence for q in back[0].questions] == [q.evidence for q in convs[0].questions]
    assert json.loads(path.read_text().splitlines()[0])["source"] == "longconv"


def test_eval_runs_on_the_generated_dataset(tmp_path):
    ctx = EvalContext(embeddings_factory=HashEmbeddings)
    res = run_eval(
        "longconv:conversations=1,scale=0.02",
        ["bm25", "dense"],
        out_dir=tmp_path,
        progress=False,
        context=ctx,
        print_report=False,
    )
    meta = res["metadata"]
    assert meta["dataset"]["kind"] == "longconv" and meta["headline_categories"] == list(range(1, 12))
    assert res["systems"]["bm25"]["overall"]["n"] == sum(meta["dataset"]["questions_by_category"].values())
    assert res["systems"]["bm25"]["by_category"]["6"]["name"] == "long-message middle"
    assert 0.0 < res["systems"]["bm25"]["overall"]["recall@10"] <= 1.0
    assert (tmp_path / "results.json").is_file()
    assert load("longconv:conversations=1,scale=0.02").meta["sha256"] == meta["dataset"]["sha256"]


def test_cli_accepts_the_generator_and_rejects_bad_options(tmp_path, capsys):
    assert eval_cli.main(["--dataset", "longconv:nope=1", "--systems", "bm25"]) == 2
    assert "bad option" in capsys.readouterr().err
    assert (
        eval_cli.main(
            [
                "--dataset",
                "longconv:conversations=1,scale=0.02",
                "--systems",
                "bm25",
                "--out",
                str(tmp_path),
                "--no-progress",
            ]
        )
        == 0
    )
    assert (tmp_path / "results.json").is_file()
