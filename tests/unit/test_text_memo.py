"""Results read off long texts, kept by digest: bounded, shared, never stale across texts."""

from __future__ import annotations

import threading

import pytest

from langmem_es import model
from langmem_es.core import passages as P
from langmem_es.text_memo import TextMemo, digest, fingerprint


def test_the_least_recently_used_result_goes_first():
    memo: TextMemo[str] = TextMemo(2)
    calls: list[str] = []

    def read(text: str) -> str:
        return memo.get(text, None, lambda: calls.append(text) or text.upper())

    assert read("a") == "A" and read("b") == "B" and read("a") == "A"  # "a" used last
    assert read("c") == "C"  # drops "b"
    assert len(memo) == 2
    assert read("a") == "A" and read("b") == "B"
    assert calls == ["a", "b", "c", "b"]


def test_parameters_and_texts_are_told_apart():
    memo: TextMemo[tuple[str, int]] = TextMemo(8)
    assert memo.get("same text", 1, lambda: ("same text", 1)) == ("same text", 1)
    assert memo.get("same text", 2, lambda: ("same text", 2)) == ("same text", 2)
    assert memo.get("same text.", 1, lambda: ("same text.", 1)) == ("same text.", 1)
    assert digest("\ud800 lone surrogate") != digest("\ud801 lone surrogate")
    assert fingerprint("same text") == fingerprint("same " + "text") != fingerprint("same text.")
    by_digest: TextMemo[str] = TextMemo(2, key=digest)
    assert by_digest.get("x" * 5000, None, lambda: "a") == by_digest.get("x" * 5000, None, lambda: "b") == "a"


def test_a_memo_keeps_at_least_one_result():
    with pytest.raises(ValueError, match="at least one"):
        TextMemo(0)


def test_threads_reading_one_memo_all_get_the_result():
    memo: TextMemo[int] = TextMemo(16)
    seen: list[int] = []

    def work(n: int) -> None:
        for i in range(300):
            seen.append(memo.get(f"text {(n + i) % 40}", None, lambda i=i, n=n: (n + i) % 40))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 1200 and len(memo) <= 16


def test_a_kept_split_is_the_split_and_a_copy():
    text = " ".join(f"Sentence {i} of a pasted report says something new." for i in range(600))
    first = P.split(text, max_tokens=60, overlap=15)
    assert first == P._split(text, 60, 15)
    first.clear()  # a caller's list is its own
    again = P.split(text, max_tokens=60, overlap=15)
    assert again == P._split(text, 60, 15) and again
    assert P.split(text, max_tokens=200, overlap=40) == P._split(text, 200, 40) != again


def test_a_long_texts_hash_is_kept_and_unchanged():
    text = "Café — naïve résumé. " * 400
    assert len(text) > 4096
    assert model.content_hash(text) == model._hash(text) == model.content_hash(text)
    assert model.content_hash(text + "x") != model.content_hash(text)


def test_a_long_memorys_passage_vectors_are_read_once_per_content():
    from types import SimpleNamespace

    from langmem_es.core import MemoryConfig
    from langmem_es.core._sync.long_events import LongEvents

    reads: list[list[str]] = []

    def content(topic: str) -> str:
        return " ".join(f"Line {i} of the {topic} report names figure {i * 7}." for i in range(300))

    def stored(text: str) -> list[dict[str, object]]:
        spans = P.split(text, max_tokens=200, overlap=40)
        return [{"path": f"passage.{j}", "vector": [1.0, float(j)]} for j in range(len(spans))]

    docs = {"d1": content("budget")}

    class Backend:
        def vectors(self, collection: str, ids: list[str]) -> dict[str, list[dict[str, object]]]:
            reads.append(list(ids))
            return {i: stored(docs[i]) for i in ids}

    events = LongEvents(SimpleNamespace(config=MemoryConfig(), backend=Backend()))  # type: ignore[arg-type]
    first = events.matched_passages("figure 700", [0.0, 1.0], [("episodic", "d1", docs["d1"])])
    again = events.matched_passages("figure 700", [0.0, 1.0], [("episodic", "d1", docs["d1"])])
    assert first == again and "figure 700" in first["d1"] and reads == [["d1"]]
    docs["d1"] = content("travel")  # the same memory, rewritten: its vectors are read anew
    changed = events.matched_passages("figure 700", [0.0, 1.0], [("episodic", "d1", docs["d1"])])
    assert "travel" in changed["d1"] and reads == [["d1"], ["d1"]]


@pytest.mark.parametrize("batch", [False, True])
def test_a_long_memory_just_written_names_its_passage_without_reading_its_vectors(batch):
    """The vectors a write embedded are the ones recall would read back: kept, so the first
    recall of a long paste does not read them from the backend."""
    import uuid

    from langmem_es.backends.sqlite import SQLiteBackend
    from langmem_es.core import MemoryCore
    from langmem_es.model import Identity

    backend = SQLiteBackend(":memory:", prefix=f"memo_{uuid.uuid4().hex[:8]}")
    backend.setup()
    core = MemoryCore(backend)
    me = Identity(tenant="t", user_id="u", conversation_id="c")
    topic = uuid.uuid4().hex[:6]
    paste = " ".join(f"Row {i} of the {topic} export lists invoice {1000 + i} as settled." for i in range(400))
    if batch:
        core.remember_many(me, [{"content": paste}], kind="episodic")
    else:
        core.remember(me, paste, kind="episodic")
    reads: list[object] = []
    real = backend.vectors

    def counted(collection, ids):  # type: ignore[no-untyped-def]
        reads.append(ids)
        return real(collection, ids)

    backend.vectors = counted  # type: ignore[method-assign]
    [hit] = core.recall(me, "which row lists invoice 1333", kinds=["episodic"], k=1).memories
    assert hit.memory.content == paste and reads == []
    core.close()
