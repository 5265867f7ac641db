"""The passage splitter: covers the text, overlaps, stays within the token budget."""

from __future__ import annotations

import pytest

from langmem_es.core import passages as P


def _text(n: int) -> str:
    return " ".join(f"Sentence {i} talks about topic {i % 13}." for i in range(n))


@pytest.mark.parametrize("max_tokens,overlap", [(40, 0), (60, 15), (200, 40), (256, 128)])
def test_passages_cover_everything_overlap_and_fit(max_tokens, overlap):
    text = _text(400)
    spans = P.split(text, max_tokens=max_tokens, overlap=overlap)
    assert spans[0].start == 0 and spans[-1].end == len(text)
    for a, b in zip(spans, spans[1:], strict=False):
        assert text[a.end : b.start].strip() == ""  # no gap but whitespace
        assert b.start > a.start  # progress
        if overlap:
            assert b.start < a.end
    assert max(P.estimate_tokens(t) for t in P.texts(text, spans)) <= max_tokens
    assert all(t[0].isupper() for t in P.texts(text, spans))  # sentence-aligned starts


def test_one_endless_line_is_cut_at_token_boundaries():
    text = "-".join(f"id{i:05d}" for i in range(5_000))  # no sentence end, no newline
    spans = P.split(text, max_tokens=100, overlap=0)
    assert len(spans) > 10 and spans[-1].end == len(text)
    assert max(P.estimate_tokens(t) for t in P.texts(text, spans)) <= 100


def test_lines_are_boundaries_for_logs_and_code():
    text = "\n".join(f"2024-01-01T00:00:{i % 60:02d}Z INFO svc request {i} ok" for i in range(300))
    for t in P.texts(text, P.split(text, max_tokens=80, overlap=20)):
        assert t.startswith("2024-01-01T")


def test_short_texts_are_not_split_and_bad_settings_refused():
    assert P.split("A short note.") == []
    with pytest.raises(ValueError):
        P.split(_text(10), max_tokens=100, overlap=80)


def test_best_prefers_the_passage_with_rare_query_words_and_close_vector():
    passages = ["we met at the harbour", "the harbour budget is 4,000", "budget talks resume"]
    assert P.best("harbour budget", passages) == 1
    assert P.best("harbour budget", passages, cosines=[0.1, 0.9, 0.2]) == 1
    assert P.best("what did we do", passages, cosines=[0.9, 0.1, 0.1]) == 0
