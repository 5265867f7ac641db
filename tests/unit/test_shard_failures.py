"""Reading shard failures out of Elasticsearch answers (pure; bodies as 8.19 sends them).

The bodies below were recorded from a 2-node cluster with one node killed; the
end-to-end behaviour against such a cluster is in tests/reliability/test_partial_shards.py.
"""

from __future__ import annotations

import dataclasses

import pytest

from langmem_es.backends.elasticsearch import shards
from langmem_es.errors import ClusterUnavailableError, QueryError, ShardsUnavailableError, UnavailableShard

PARTIAL = {
    "took": 22,
    "timed_out": False,
    "_shards": {
        "total": 2,
        "successful": 1,
        "skipped": 0,
        "failed": 1,
        "failures": [
            {
                "shard": 0,
                "index": "mem-semantic-000001",
                "node": None,
                "reason": {"type": "no_shard_available_action_exception", "reason": None},
            }
        ],
    },
    "hits": {"total": {"value": 1, "relation": "eq"}, "hits": []},
}
WHOLE = {
    "took": 3,
    "timed_out": False,
    "_shards": {"total": 2, "successful": 2, "skipped": 0, "failed": 0},
    "hits": {"hits": []},
}
REJECTED = {  # allow_partial_search_results=false with a primary unassigned
    "error": {
        "root_cause": [],
        "type": "search_phase_execution_exception",
        "reason": "",
        "phase": "query",
        "grouped": True,
        "failed_shards": [],
        "caused_by": {
            "type": "search_phase_execution_exception",
            "reason": "Search rejected due to missing shards [[mem-audit-000001][0]]. Consider "
            "using `allow_partial_search_results` setting to bypass this error.",
            "phase": "query",
            "grouped": True,
            "failed_shards": [],
        },
    },
    "status": 503,
}
REJECTED_SORTED = {  # a sorted search is rejected in the can_match phase: the top reason says "start"
    "error": {
        "root_cause": [],
        "type": "search_phase_execution_exception",
        "reason": "start",
        "phase": "can_match",
        "grouped": True,
        "failed_shards": [],
        "caused_by": {
            "type": "search_phase_execution_exception",
            "reason": "Search rejected due to missing shards [[mem-semantic-000001][0]]. Consider "
            "using `allow_partial_search_results` setting to bypass this error.",
            "phase": "can_match",
            "grouped": True,
            "failed_shards": [],
        },
    },
    "status": 503,
}
DISCONNECTED = {  # the node died during the query phase, before the master noticed
    "error": {
        "root_cause": [{"type": "node_disconnected_exception", "reason": "[n0][127.0.0.1:9302] disconnected"}],
        "type": "search_phase_execution_exception",
        "reason": "Partial shards failure",
        "phase": "query",
        "failed_shards": [
            {
                "shard": 0,
                "index": "mem-semantic-000001",
                "node": "KBXV",
                "reason": {"type": "node_disconnected_exception", "reason": "[n0][127.0.0.1:9302] disconnected"},
            }
        ],
    },
    "status": 502,
}
ALL_FAILED = {
    "error": {
        "root_cause": [{"type": "no_shard_available_action_exception", "reason": None}],
        "type": "search_phase_execution_exception",
        "reason": "all shards failed",
        "phase": "query",
        "grouped": True,
        "failed_shards": [
            {
                "shard": 0,
                "index": "mem-semantic-000001",
                "node": None,
                "reason": {"type": "no_shard_available_action_exception", "reason": None},
            }
        ],
    },
    "status": 503,
}
BAD_QUERY = {
    "error": {
        "root_cause": [{"type": "query_shard_exception", "reason": "failed to create query"}],
        "type": "search_phase_execution_exception",
        "reason": "all shards failed",
        "phase": "query",
        "failed_shards": [
            {
                "shard": 0,
                "index": "mem-semantic-000001",
                "reason": {"type": "query_shard_exception", "reason": "failed to create query"},
            }
        ],
    },
    "status": 400,
}
WRITE_TIMEOUT = {
    "error": {
        "type": "unavailable_shards_exception",
        "reason": "[mem-episodic-000001][0] primary shard is not active Timeout: [1m], request: [BulkShardRequest "
        "[[mem-episodic-000001][0]] containing [index {[mem-episodic-000001][2]}]]",
    },
    "status": 503,
}
MGET = {
    "docs": [
        {"_index": "mem-audit-000001", "_id": "1", "_seq_no": 0, "_primary_term": 1, "found": True, "_source": {}},
        {
            "_index": "mem-semantic-000001",
            "_id": "1",
            "error": {
                "root_cause": [
                    {"type": "no_shard_available_action_exception", "reason": "No shard available for [...]"}
                ],
                "type": "no_shard_available_action_exception",
                "reason": "No shard available for [...]",
            },
        },
    ]
}


def test_a_whole_answer_passes_and_a_partial_one_names_its_shard():
    shards.require_complete(WHOLE, "a search")
    assert shards.missing_shards(WHOLE) == []
    [missing] = shards.missing_shards(PARTIAL)
    assert (missing.index, missing.shard) == ("mem-semantic-000001", 0)
    with pytest.raises(ShardsUnavailableError) as info:
        shards.require_complete(PARTIAL, "a search of mem-semantic")
    assert info.value.shards == (missing,)
    assert "mem-semantic-000001[0]" in str(info.value) and "_cluster/health" in str(info.value)
    assert "cannot reach" not in str(info.value)


def test_timed_out_or_unaccounted_shards_are_partial_too():
    timed_out = {**WHOLE, "timed_out": True}
    assert shards.missing_shards(timed_out) and "timed out" in shards.missing_shards(timed_out)[0].reason
    silent = {"_shards": {"total": 3, "successful": 2, "skipped": 0, "failed": 0}}  # one neither ok nor failed
    assert shards.missing_shards(silent)[0].reason.startswith("1 of 3")
    with pytest.raises(ShardsUnavailableError):
        shards.require_complete({"count": 4, **silent}, "a count")


def test_rejected_and_all_failed_searches_name_the_shard():
    [(rejected, _)] = shards.from_error_body(503, REJECTED)
    assert (rejected.index, rejected.shard) == ("mem-audit-000001", 0)
    [(sorted_, _)] = shards.from_error_body(503, REJECTED_SORTED)
    assert str(sorted_) == "mem-semantic-000001[0]" and "missing shards" in sorted_.reason
    [(gone, _)] = shards.from_error_body(502, DISCONNECTED)
    assert str(gone) == "mem-semantic-000001[0]"
    [(failed, _)] = shards.from_error_body(503, ALL_FAILED)
    assert str(failed) == "mem-semantic-000001[0]"
    [(write, _)] = shards.from_error_body(503, WRITE_TIMEOUT)
    assert str(write) == "mem-episodic-000001[0]"
    err = shards.shards_error(shards.from_error_body(503, WRITE_TIMEOUT), "a bulk write", read=False)
    assert isinstance(err, ShardsUnavailableError) and isinstance(err, ClusterUnavailableError)
    assert "the write did not happen" in str(err)


def test_a_bad_query_is_not_a_shard_outage():
    assert shards.from_error_body(400, BAD_QUERY) == []
    bad_partial = {
        **PARTIAL,
        "_shards": {
            **PARTIAL["_shards"],
            "failures": [
                {
                    "shard": 0,
                    "index": "x",
                    "reason": {"type": "query_shard_exception", "reason": "failed to create query"},
                }
            ],
        },
    }
    with pytest.raises(QueryError):
        shards.require_complete(bad_partial, "a search")
    assert shards.from_error_body(429, {"error": {"type": "es_rejected_execution_exception"}}) == []


def test_failed_gets_are_not_misses_and_take_their_numbers_from_health():
    [failed] = shards.failed_gets(MGET)
    assert failed.index == "mem-semantic-000001" and failed.shard is None
    health = {
        "indices": {
            "mem-semantic-000001": {
                "shards": {
                    "0": {"status": "red", "primary_active": False},
                    "1": {"status": "green", "primary_active": True},
                }
            }
        }
    }
    assert shards.numbered([failed], health) == [dataclasses.replace(failed, shard=0)]
    assert shards.numbered([failed], {}) == [failed]  # no health at hand: named by index alone
    assert str(UnavailableShard("i", None)) == "i[?]"
