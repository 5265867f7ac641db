"""Query-time signals over the reranked window (rank/signals.py)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from langmem_es.rank.signals import (
    SignalWeights,
    about_another,
    adjust,
    asks_about_asker,
    asks_when,
    question_names,
    session_neighbours,
    states_time,
)

REF = datetime(2023, 5, 20, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("When did Ann go hiking?", True),
        ("what year did she move?", True),
        ("How long ago was his birthday?", True),
        ("Which month did they marry?", True),
        ("What did Ann paint?", False),
        ("Where did Ann go when it rained?", False),
    ],
)
def test_asks_when(query: str, expected: bool) -> None:
    assert asks_when(query) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went hiking yesterday!", True),
        ("We moved two years ago.", True),
        ("Last weekend was great", True),
        ("It happened in 2022.", True),
        ("See you in August", True),
        ("A sensible cadence would be every Monday at 17:00.", True),
        ("The go-live date moved to 27 May 2023.", True),
        ("May I ask you something?", False),
        ("I love hiking in the mountains.", False),
    ],
)
def test_states_time(text: str, expected: bool) -> None:
    assert states_time(text) is expected


def test_question_names() -> None:
    assert question_names("What did Caroline's friend Mel paint in July?") == ["caroline", "mel"]
    assert question_names("When did I adopt a cat?") == []


def _docs(**texts: str) -> dict[str, dict[str, object]]:
    return {i: {"text": t} for i, t in texts.items()}


def test_no_weights_or_no_clue_keep_the_order() -> None:
    docs = _docs(a="I love hiking.", b="I went hiking yesterday!")
    ranked = [("a", 1.0), ("b", 0.9)]
    assert adjust("When did Ann go hiking?", ranked, docs, SignalWeights()) == ranked
    assert adjust("Why does Ann like hiking?", ranked, docs, SignalWeights(when=0.3)) == ranked


def test_when_question_lifts_a_candidate_stating_a_time() -> None:
    docs = _docs(a="I love hiking.", b="I went hiking yesterday!")
    out = adjust("When did Ann go hiking?", [("a", 1.0), ("b", 0.9)], docs, SignalWeights(when=0.3))
    assert [i for i, _ in out] == ["b", "a"]
    assert out[0][1] == pytest.approx(1.2)


def test_named_time_lifts_events_told_in_it() -> None:
    docs = {
        "a": {"text": "we painted", "event_time": "2023-03-02T10:00:00+00:00"},
        "b": {"text": "we painted", "event_time": "2023-07-14T10:00:00+00:00"},
    }
    out = adjust("What did they paint in July 2023?", [("a", 1.0), ("b", 0.9)], docs, SignalWeights(window=0.2))
    assert [i for i, _ in out] == ["b", "a"]
    # a relative phrase reads against the reference
    docs["b"]["event_time"] = "2023-05-06T10:00:00+00:00"
    out = adjust(
        "What did they paint two weeks ago?", [("a", 1.0), ("b", 0.9)], docs, SignalWeights(window=0.2), reference=REF
    )
    assert [i for i, _ in out] == ["b", "a"]


def test_names_prefer_the_candidate_holding_the_rare_name() -> None:
    docs = _docs(a="Mel: I paint a lot.", b="Caroline: I paint a lot.", c="Mel: hi")
    out = adjust("What does Caroline paint?", [("a", 1.0), ("b", 0.95), ("c", 0.5)], docs, SignalWeights(names=0.2))
    assert out[0][0] == "b"


def _session(*contents: str, session: str = "s1") -> dict[str, dict[str, object]]:
    """Events indexed as ingest does: content, then up to two neighbours each side."""
    docs = {}
    for k, c in enumerate(contents):
        context = [n for j, n in enumerate(contents) if j != k and abs(j - k) <= 2]
        docs[f"e{k}"] = {"text": "\n".join([c, *context, "8 May 2023"]), "session_id": session}
    return docs


def test_session_neighbours_are_read_from_the_indexed_context() -> None:
    docs = _session("Ann: a", "Bob: the first reply", "Ann: the second one", "Bob: the third", "Ann: and a fourth")
    docs.update({"x": {"text": "Bob: the first reply\nsomething else", "session_id": "s2"}})
    ids = list(docs)
    assert sorted(session_neighbours("e2", ids, docs)) == ["e1", "e3", "e4"]  # e0's lead is too short
    assert "x" not in session_neighbours("e0", ids, docs)  # another session
    assert session_neighbours("x", ids, docs) == []


def test_neighbour_support_lifts_a_candidate_next_to_a_strong_one() -> None:
    docs = _session("Ann: I adopted a puppy yesterday", "Bob: What a lovely thing to hear")
    docs["far"] = {"text": "Ann: something unrelated entirely", "session_id": "s9"}
    ranked = [("e0", 1.0), ("far", 0.6), ("e1", 0.5)]
    out = adjust("What did Ann adopt?", ranked, docs, SignalWeights(neighbours=0.5))
    assert [i for i, _ in out] == ["e0", "e1", "far"]


def test_only_the_window_is_rescored() -> None:
    docs = _docs(a="I love hiking.", b="nothing", c="I went hiking yesterday!")
    out = adjust(
        "When did Ann go hiking?", [("a", 1.0), ("b", 0.9), ("c", 0.8)], docs, SignalWeights(when=0.3), window=2
    )
    assert [i for i, _ in out] == ["a", "b", "c"]


def test_decompose_reads_lists_objects_and_tool_calls() -> None:
    from langchain_core.messages import AIMessage

    from langmem_es.core.decompose import read

    q = "Which instruments does Tim play?"
    assert read(AIMessage(content='Sure: ["Tim violin", "Tim clarinet", "tim violin", ""]'), q) == [
        "Tim violin",
        "Tim clarinet",
    ]
    assert read('{"queries": ["a", "b", "c", "d", "e"]}', q) == ["a", "b", "c", "d"]
    assert read(AIMessage(content="", tool_calls=[{"name": "q", "args": {"queries": ["x"]}, "id": "1"}]), q) == ["x"]
    assert read(f'["{q}"]', q) == []  # the question itself adds nothing
    assert read("no json here", q) == [] and read("[1, 2]", q) == []


def test_weights_are_shares_of_the_best_score_whatever_the_scale() -> None:
    docs = _docs(a="I love hiking.", b="I went hiking yesterday!", c="hiking is fun")
    ranked = [("a", 0.033), ("c", 0.032), ("b", 0.025)]  # raw RRF scores, no rescorer
    out = adjust("When did Ann go hiking?", ranked, docs, SignalWeights(when=0.3))
    assert [i for i, _ in out] == ["b", "a", "c"]
    assert out[0][1] == pytest.approx(0.025 + 0.3 * 0.033)


@pytest.mark.parametrize(
    ("query", "about_me"),
    [
        ("where do I live?", True),
        ("what's my job?", True),
        ("where does the user live?", True),
        ("where does my sister live?", False),  # names one of the asker's people
        ("what did my boy lose?", False),
        ("who do I live with?", False),  # asks for a person
        ("what did Priya recommend?", False),  # names someone
        ("where is the office?", False),  # not about the asker
    ],
)
def test_a_question_about_the_asker_names_no_one_else(query, about_me):
    assert asks_about_asker(query) is about_me


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("My brother lives in Glasgow.", True),
        ("The user's wife works as a nurse.", True),
        ("My older sister is allergic to nuts.", True),
        ("My brother and I grew up in Leeds.", False),  # the speaker too
        ("My mum visits us every Sunday.", False),
        ("My sister's car failed its MOT.", False),  # a thing of hers, not her
        ("My dog is called Rex.", False),
        ("I live in Bristol.", False),
    ],
)
def test_a_sentence_about_another_person_of_the_speakers(text, other):
    assert about_another(text) is other


def test_a_question_about_the_asker_puts_another_persons_fact_after_theirs():
    docs = {"a": {"text": "My brother lives in Glasgow."}, "b": {"text": "We moved into a house in Stockport."}}
    ranked = [("a", 1.09), ("b", 1.05)]
    weights = SignalWeights(others=0.1)
    assert [i for i, _ in adjust("where do I live?", ranked, docs, weights)] == ["b", "a"]
    assert [i for i, _ in adjust("where does my brother live?", ranked, docs, weights)] == ["a", "b"]
    assert adjust("where do I live?", ranked, docs, SignalWeights()) == ranked
