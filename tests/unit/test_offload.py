"""The async core reads statements and loads its language models off its event loop."""

from __future__ import annotations

import threading

from langmem_es.backends.sqlite import AsyncSQLiteBackend
from langmem_es.core import AsyncMemoryCore
from langmem_es.core.statements import sentences
from langmem_es.model import Identity
from tests.fixtures.embed import bag_of_words


async def test_a_new_statement_is_read_in_a_worker_thread(monkeypatch) -> None:
    loop_thread = threading.get_ident()
    threads: dict[str, set[int]] = {}
    original = sentences.read

    def recording(text: str):  # noqa: ANN202 - the Statement of the original
        threads.setdefault(text, set()).add(threading.get_ident())
        return original(text)

    monkeypatch.setattr(sentences, "read", recording)
    core = AsyncMemoryCore(AsyncSQLiteBackend(":memory:"), embeddings=lambda t: bag_of_words(t, 16))
    await core.setup()
    try:
        text = "My sister Dana moved to Porto in the spring of last year."
        result = await core.remember(Identity(tenant="t", user_id="u"), text, reason="Family news.")
        assert result.action == "created"
        first = threads[text]
        assert first and loop_thread not in first  # read ahead in a worker, later reads hit the cache
    finally:
        await core.close()
