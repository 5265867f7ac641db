"""Tests for langmem_es.tokens (real tiktoken, offline cl100k_base)."""

from __future__ import annotations

import doctest
from dataclasses import dataclass
from datetime import datetime, timezone

import pytest

from langmem_es import tokens
from langmem_es.tokens import count_tokens, get_encoding, render_memories, truncate_to_tokens


def test_offline_encoding_is_cl100k(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    # an empty cache dir: anything not bundled would need the network
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    get_encoding.cache_clear()
    enc = get_encoding()
    assert enc is get_encoding()  # cached
    # well-known cl100k_base ids
    assert enc.encode_ordinary("hello world") == [15339, 1917]
    assert enc.n_vocab >= 100257
    assert count_tokens("") == 0
    assert count_tokens("<|endoftext|>") > 1  # special text counted as plain text


def test_truncate() -> None:
    text = "one two three four five six seven eight nine ten"
    assert truncate_to_tokens(text, 100) == text
    assert truncate_to_tokens(text, 0) == ""
    cut = truncate_to_tokens(text, 3)
    assert cut == "one two three" and count_tokens(cut) == 3
    cut = truncate_to_tokens(text, 4, ellipsis="…")
    assert cut.endswith("…") and count_tokens(cut) <= 4
    # multi-byte characters: never produce replacement characters
    emoji = "🙂" * 20
    out = truncate_to_tokens(emoji, 5)
    assert "\ufffd" not in out and emoji.startswith(out) and count_tokens(out) <= 5


@dataclass
class Mem:
    id: str
    kind: str
    content: str
    written_at: datetime | None = None
    confidence: float | None = None
    status: str | None = None
    conflict: bool = False


def _items(n: int) -> list[dict]:
    return [
        {
            "id": f"{i:04d}abcdefgh",
            "kind": "episodic",
            "content": f"Memory number {i} about the user's trip to Lisbon in spring",
            "written_at": "2024-05-01T10:00:00+00:00",
            "confidence": 0.8,
        }
        for i in range(n)
    ]


def test_line_format_dict_and_object() -> None:
    out = render_memories(
        [
            {
                "id": "abcdef1234",
                "kind": "semantic",
                "content": "Prefers tea\nover coffee",
                "written_at": "2024-05-01T10:00:00Z",
                "confidence": 0.9,
                "status": "active",
            },
            Mem(
                "zzzzyyyyxxxx",
                "procedural",
                "Run tests before deploy",
                datetime(2025, 1, 2, tzinfo=timezone.utc),
                0.456,
                conflict=True,
            ),
            {"id": "q1", "kind": "episodic", "content": "no metadata", "status": "superseded"},
        ],
        200,
    )
    assert out.splitlines() == [
        "Relevant memories:",
        "- [semantic abcdef12] Prefers tea over coffee (2024-05-01, confidence 0.90)",
        "- [procedural zzzzyyyy] Run tests before deploy (2025-01-02, confidence 0.46, ⚠ conflicting)",
        "- [episodic q1] no metadata (superseded)",
    ]


@pytest.mark.parametrize("budget", [20, 37, 50, 64, 100, 151, 300])
def test_budget_respected_whole_lines(budget: int) -> None:
    items = _items(12)
    out = render_memories(items, budget)
    assert count_tokens(out) <= budget
    lines = out.splitlines()
    assert lines[0] == "Relevant memories:"
    full = [tokens.format_memory_line(i) for i in items]
    if count_tokens("Relevant memories:\n" + full[0]) > budget:  # first line alone too big
        assert len(lines) == 2 and lines[1].startswith("- [episodic 0000abcd] Memory") and "…" in lines[1]
        return
    assert lines[1:] == full[: len(lines) - 1]  # whole lines, in order
    if len(lines) - 1 < len(items):  # stopped: the next line would not fit
        assert count_tokens(out + "\n" + full[len(lines) - 1]) > budget


def test_first_item_truncated_when_alone_too_big() -> None:
    big = {"id": "bigbigbig1", "kind": "semantic", "content": "word " * 500, "confidence": 0.5}
    out = render_memories([big, *_items(3)], 40)
    assert count_tokens(out) <= 40
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[1].startswith("- [semantic bigbigbi] word") and "…" in lines[1]
    assert lines[1].endswith("(confidence 0.50)")


def test_nothing_fits_and_edge_cases() -> None:
    assert render_memories([], 100) == ""
    assert render_memories(_items(2), 0) == ""
    assert render_memories(_items(2), 2) == ""  # header alone is over budget
    no_header = render_memories(_items(2), 100, header=None)
    assert no_header.startswith("- [episodic 0000abcd]") and len(no_header.splitlines()) == 2


def test_module_doctests() -> None:
    failures, _ = doctest.testmod(tokens)
    assert failures == 0


def test_public_api_pinned() -> None:
    assert sorted(tokens.__all__) == [
        "count_tokens",
        "format_memory_line",
        "get_encoding",
        "render_memories",
        "truncate_to_tokens",
    ]
