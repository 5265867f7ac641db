"""The LangGraph store tests we do not run, by exact name, each with its reason.

Keys are the suite names of :mod:`lg_conformance_runner`; test names are the function
name (``Class::function`` inside a class; every parametrisation) or one parametrisation
(``function[id]``). :data:`DESELECTED` holds what no store of ours runs,
:data:`DESELECTED_PER_STORE` what one store cannot run. Three kinds of reason only: the
test checks LangGraph's own SQLite internals, it builds no store at all (it would pass
whatever store we plug in, so it would only inflate the count), or it calls the sync
API on the event loop's own thread, which an async-client store must refuse.
"""

from __future__ import annotations

NO_STORE = "builds no store: tests a LangGraph helper or a mock store of its own"

DESELECTED: dict[str, dict[str, str]] = {
    "checkpoint": {
        "test_dedupe_ops_maps_repeated_reads_and_puts_to_one_op": NO_STORE,
        "test_get_text_at_path": NO_STORE,
        "test_get_text_at_path_with_non_dict_mapping": NO_STORE,
        "test_async_batch_store": NO_STORE,
        "test_async_batch_store_handles_cancellation": NO_STORE,
        "test_validate_op_namespace_rejects_invalid_labels": NO_STORE,
        "test_validate_op_namespace_allows_empty_prefix_and_wildcards": NO_STORE,
    },
    "checkpoint-sqlite": {
        "test_nonnull_migrations": "SqliteStore internals: iterates SqliteStore.MIGRATIONS (SQL statements)",
        "test_list_namespaces_prefix_uses_indexable_condition": (
            "SqliteStore internals: inspects the SQL that BaseSqliteStore generates"
        ),
        "test_escape_glob_literal": NO_STORE,
        "test_namespace_match_pattern": NO_STORE,
        "test_vector_store_initialization": "SqliteStore internals: reads store.conn and its sqlite-vec tables",
        "test_sql_injection_vulnerability": (
            "SqliteStore's own guard: it splices filter keys into SQL, so it refuses keys outside "
            "[A-Za-z0-9_.-]; ours never splice keys and accept any key, as InMemoryStore does "
            "(tests/contract: test_filter_key_injection_finds_nothing)"
        ),
    },
}

ON_LOOP = (
    "calls the sync API on the event loop's thread (directly or through a MockAsyncBatchedStore "
    "that wraps our store's sync batch); AsyncElasticsearchMemoryStore refuses that with "
    "InvalidStateError rather than deadlock, as LangGraph's AsyncPostgresStore does"
)

DESELECTED_PER_STORE: dict[tuple[str, str], dict[str, str]] = {
    ("checkpoint", "aes"): {
        "test_async_batch_store_resilience": ON_LOOP,
        "test_cannot_put_empty_namespace": ON_LOOP,
        "test_async_search_and_listing_keep_empty_prefixes_and_wildcards[True]": ON_LOOP,
        "test_async_batch_store_deduplication": ON_LOOP,
        "test_async_batched_vector_search_concurrent": ON_LOOP,
    },
}


def reason_for(suite: str, store: str, name: str) -> str | None:
    """Why test ``name`` (``function`` or ``function[id]``) is not run, or ``None``."""
    table = {**DESELECTED.get(suite, {}), **DESELECTED_PER_STORE.get((suite, store), {})}
    return table.get(name) or table.get(name.split("[", 1)[0])
