"""The models' objects are frozen out of full garbage collections (and an opt-out leaves the collector alone)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap

import pytest

from langmem_es.longlived import freeze_long_lived

SCRIPT = textwrap.dedent(
    """
    import gc, time
    from langmem_es.embeddings import default_embeddings
    from langmem_es.core.statements.phrases import reading

    default_embeddings().embed_query("warm up")
    reading("The user moved to Edinburgh last week.")
    t = time.perf_counter()
    gc.collect()
    print(gc.get_freeze_count(), round((time.perf_counter() - t) * 1000, 1))
    """
)


@pytest.mark.parametrize(("opt_out", "frozen"), [("1", True), ("0", False)])
def test_loading_the_models_freezes_what_they_made(opt_out: str, frozen: bool) -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env={**os.environ, "LANGMEM_ES_GC_FREEZE": opt_out},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    count = int(out[0])
    if frozen:
        assert count > 50_000  # the imports and both models: what a full collection no longer walks
    else:
        assert count == 0


def test_opt_out_is_read_each_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGMEM_ES_GC_FREEZE", "off")
    before = gc.get_freeze_count()
    assert freeze_long_lived() is False
    assert gc.get_freeze_count() == before
