"""The Elasticsearch client's orjson serializers: same results as the standard library's."""

from __future__ import annotations

import json

import numpy as np
import pytest
from elasticsearch.serializer import JsonSerializer, NdjsonSerializer

from langmem_es.backends.elasticsearch.serializers import (
    OrjsonJsonSerializer,
    OrjsonNdjsonSerializer,
    fast_serializers,
)
from langmem_es.settings import Connection

VALUES = [
    {"text": "café ☕ \u2028", "n": 3, "f": 0.1, "neg": -2.5e-8, "b": True, "none": None},
    {"big": 2**70, "small": -(2**64) - 1, "list": [1, 2**63, 0.5]},
    {"vector": [0.123456789, -1.0, 3.4e38], "nested": {"a": [{"b": []}]}},
]


@pytest.mark.parametrize("value", VALUES)
def test_json_round_trips_like_the_standard_library(value):
    fast, slow = OrjsonJsonSerializer(), JsonSerializer()
    assert fast.loads(fast.dumps(value)) == slow.loads(slow.dumps(value)) == value
    assert json.loads(fast.dumps(value)) == value


def test_ndjson_bodies_and_numpy_vectors():
    fast, slow = OrjsonNdjsonSerializer(), NdjsonSerializer()
    lines = [{"index": {"_id": "1"}}, {"v": np.asarray([0.5, 0.25], dtype=np.float32), "k": 2**65}]
    body = fast.dumps(lines)
    assert body.endswith(b"\n") and body.count(b"\n") == 2
    assert slow.loads(body) == [{"index": {"_id": "1"}}, {"v": [0.5, 0.25], "k": 2**65}]
    assert fast.loads(body) == slow.loads(body)


def test_long_integers_in_responses_are_read_exactly():
    fast = OrjsonJsonSerializer()
    assert fast.loads(b'{"a": 123456789012345678901234567890, "b": [1, -98765432109876543210]}') == {
        "a": 123456789012345678901234567890,
        "b": [1, -98765432109876543210],
    }


def test_clients_made_here_use_them_unless_told_otherwise():
    client = Connection(url="http://127.0.0.1:1").client()
    assert isinstance(client.transport.serializers.get_serializer("application/json"), OrjsonJsonSerializer)
    assert isinstance(client.transport.serializers.get_serializer("application/x-ndjson"), OrjsonNdjsonSerializer)
    for compat in ("application/vnd.elasticsearch+json", "application/vnd.elasticsearch+x-ndjson"):
        assert isinstance(
            client.transport.serializers.get_serializer(compat), (OrjsonJsonSerializer, OrjsonNdjsonSerializer)
        )
    plain = Connection(url="http://127.0.0.1:1").client(serializer=JsonSerializer())
    assert not isinstance(plain.transport.serializers.get_serializer("application/json"), OrjsonJsonSerializer)
    assert set(fast_serializers()) == {"application/json", "application/x-ndjson"}


@pytest.mark.parametrize(
    "body",
    [
        b'{"id": "12345678901234567890123", "f": 0.12345678901234567890123}',
        b"[9223372036854775807, -9223372036854775808, 1e300]",
        b'{"a":[ 18446744073709551616 ]}',
        bytearray(b'{"a": 99999999999999999999}'),
    ],
)
def test_long_digit_runs_anywhere_read_like_the_standard_library(body):
    assert OrjsonJsonSerializer().loads(body) == JsonSerializer().loads(body)
