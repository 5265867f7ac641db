"""The LangGraph store tests we do not run, by exact name, each with its reason.

Keys are the suite names of :mod:`lg_conformance_runner`; test names are the function
name (``Class::function`` inside a class), every parametrisation included. Two kinds of
reason only: the test checks LangGraph's own SQLite internals, or it builds no store
at all (it would pass whatever store we plug in, so it would only inflate the count).
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
    },
}
