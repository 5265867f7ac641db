"""The largest content of one ``remember``: one constant for the Python API and the HTTP API (1 MiB).

A 2 MB event took ~224 s through ``core.remember`` (every passage embedded, no progress)
while the HTTP API answered 413 at once; both now refuse past the same size.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from langmem_es.core import MemoryCore
from langmem_es.core.validation import MAX_CONTENT_BYTES, check_content_size
from langmem_es.errors import InvalidMemoryError
from langmem_es.model import Identity
from tests.fixtures.embed import bag_of_words

ME = Identity(tenant="size", user_id="u")


def test_the_http_api_and_the_python_api_share_one_limit() -> None:
    from langmem_es.server import ServerSettings
    from langmem_es_cli.main import build_parser

    assert MAX_CONTENT_BYTES == 1_048_576
    assert ServerSettings().max_body_bytes == MAX_CONTENT_BYTES
    serve = build_parser().parse_args(["serve", "--tokens", "t.toml"])
    assert serve.max_body is None  # the server's own default: the constant


def test_content_over_the_limit_is_one_line_naming_size_limit_and_what_to_use() -> None:
    check_content_size("é" * (MAX_CONTENT_BYTES // 2))  # exactly 1 MiB of UTF-8
    with pytest.raises(InvalidMemoryError) as info:
        check_content_size("é" * (MAX_CONTENT_BYTES // 2) + "x")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("content is 1,048,577 bytes; remember takes at most 1,048,576 (1 MiB")
    assert "remember_many(items, progress=...)" in message


def test_remember_refuses_two_megabytes_at_once(tmp_path: Path) -> None:
    from langmem_es.backends.sqlite import SQLiteBackend

    core = MemoryCore(SQLiteBackend(str(tmp_path / "m.db")), embeddings=lambda t: bag_of_words(t, 16))
    core.setup()
    try:
        text = "The harbour ledger lists one more crate. " * 51_000  # 2.1 MB
        t0 = time.monotonic()
        with pytest.raises(InvalidMemoryError, match=r"content is 2,091,000 bytes; remember takes at most 1,048,576"):
            core.remember(ME, text, kind="episodic")
        assert time.monotonic() - t0 < 1.0
        assert core.export(ME, scopes=["private"]) == []
    finally:
        core.close()
