"""A store made before facts carried their ``attribute`` keeps maintaining beliefs after the upgrade.

``setup()`` adds the field in place (Elasticsearch: mapping version 3; SQLite: a column).
Facts written before it are read against new statements by meaning, as before; facts
written after it are also found by the attribute they set, however differently a later
change is worded and however many other facts share more of its words.
"""

from __future__ import annotations

import copy
import sqlite3
import uuid
from typing import Any

import pytest

from langmem_es.backends.elasticsearch import ElasticsearchBackend, mappings
from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.backends.sqlite import schema as S
from langmem_es.core import MemoryCore
from langmem_es.core import belief_rules as R
from langmem_es.model import Identity
from tests.fixtures.embed import bag_of_words

pytestmark = pytest.mark.integration

DIMS = 32
ALICE = Identity(tenant="acme", user_id="alice")
WHY = "Replies go out the way the user wants them."
#: facts that share more words with "Actually, text me instead." than the contact fact does
CROWD = [f"Text {n} is the note I keep for me instead of a list." for n in range(14)]


def embed(texts: list[str]) -> list[list[float]]:
    return bag_of_words(texts, DIMS)


def _exercise(old: MemoryCore, upgrade: Any) -> None:
    """Before the upgrade: a home fact. After it: the home moves (found by meaning), and a
    contact channel changes among a crowd of closer facts (found by its attribute)."""
    home = old.remember(ALICE, "I live in Bristol.", reason=WHY)
    core = upgrade()
    moved = core.remember(ALICE, "I moved to Leeds, I live in Leeds now.", reason=WHY)
    assert moved.action == "superseded" and moved.superseded == [home.id], (moved.action, moved.note)
    email = core.remember(ALICE, "Please contact me by email.", reason=WHY)
    for fact in CROWD:
        core.remember(ALICE, fact, reason=WHY)
    text = core.remember(ALICE, "Actually, text me instead.", reason=WHY)
    assert text.action == "superseded" and text.superseded == [email.id], (text.action, text.note)


def _before_attribute(dims: int) -> dict[str, Any]:
    body = copy.deepcopy(CURRENT(dims, packed=False))  # made before the pack
    body["properties"].pop("attribute")
    body["_meta"]["langmem_es_mapping_version"] = 2
    return body


CURRENT = mappings.mappings


def test_elasticsearch_indices_made_before_attribute_gain_it(es_basic, monkeypatch) -> None:
    prefix = f"attr-{uuid.uuid4().hex[:10]}"
    backend = ElasticsearchBackend(es_basic, prefix=prefix, dims=DIMS)
    alias = backend.alias("semantic")
    try:
        with monkeypatch.context() as m:  # the previous release's mapping
            m.setattr(mappings, "mappings", _before_attribute)
            m.setattr(mappings, "MAPPING_VERSION", 2)
            old = MemoryCore(backend, embeddings=embed)
            old.setup()
        assert "attribute" not in es_basic.indices.get_mapping(index=alias).body.popitem()[1]["mappings"]["properties"]

        def upgrade() -> MemoryCore:
            old.backend.refresh(["semantic"])  # what the old process wrote is searchable by the new one
            core = MemoryCore(ElasticsearchBackend(es_basic, prefix=prefix, dims=DIMS), embeddings=embed)
            core.setup()  # additive, in place
            (body,) = es_basic.indices.get_mapping(index=alias).body.values()
            assert body["mappings"]["_meta"]["langmem_es_mapping_version"] == mappings.MAPPING_VERSION >= 3
            assert body["mappings"]["properties"]["attribute"] == {"type": "keyword"}
            return core

        _exercise(old, upgrade)
    finally:
        backend.drop()


def test_sqlite_files_made_before_attribute_gain_the_column(tmp_path, monkeypatch) -> None:
    path = str(tmp_path / "old.db")
    # the previous release's file: no attribute column, no index on it
    monkeypatch.setattr(S, "SCALAR_FIELDS", tuple(f for f in S.SCALAR_FIELDS if f != "attribute"))
    monkeypatch.setattr(S, "INDEXED_FIELDS", tuple(f for f in S.INDEXED_FIELDS if f != "attribute"))
    monkeypatch.setattr(R, "attribute", lambda memory: None)  # nor did its facts carry one
    S._upsert_sql.cache_clear()
    old = MemoryCore(SQLiteBackend(path), embeddings=embed)
    old.setup()

    def semantic_columns() -> set[str]:
        with sqlite3.connect(path) as conn:
            (table,) = [
                t
                for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                if t.endswith("semantic")
            ]
            return {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}

    assert "attribute" not in semantic_columns()

    def upgrade() -> MemoryCore:
        old.close()
        monkeypatch.undo()
        S._upsert_sql.cache_clear()  # built from the old release's columns
        core = MemoryCore(SQLiteBackend(path), embeddings=embed)
        core.setup()  # additive, in place
        assert "attribute" in semantic_columns()
        return core

    _exercise(old, upgrade)
