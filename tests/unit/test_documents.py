"""The equality tokens of stored values: written in one pass, the same text as before.

Stored documents keep the ``flat`` tokens they were written with, and filters compare
against tokens computed now: :func:`canonical` must give exactly the text of its first
definition (the value normalised, then ``json`` with sorted keys) for every value.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Mapping
from datetime import datetime, timezone
from typing import Any

import pytest

from langmem_es.documents import MAX_FLAT_CHARS, SEP, canonical, value_fields


def _norm(v: Any) -> Any:
    """The first definition's normalisation (kept here as the reference)."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        f = float(v)
        return int(f) if f.is_integer() and abs(f) < 2**53 else f
    if isinstance(v, Mapping):
        return {str(k): _norm(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_norm(x) for x in v]
    return str(v)


def reference_canonical(value: Any) -> str:
    return json.dumps(_norm(value), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def reference_value_fields(value: Mapping[str, Any]) -> dict[str, Any]:
    def walk(v: Any, path: str) -> Iterator[tuple[str, Any]]:
        yield path, v
        if isinstance(v, Mapping):
            for k, x in v.items():
                yield from walk(x, f"{path}.{k}" if path else str(k))

    flat, nums = [], []
    for path, leaf in walk(value, ""):
        if not path:
            continue
        token = path + SEP + reference_canonical(leaf)
        if len(token) <= MAX_FLAT_CHARS:
            flat.append(token)
        if isinstance(leaf, (int, float)) and not isinstance(leaf, bool) and math.isfinite(leaf):
            nums.append({"p": path, "v": float(leaf)})
    return {"flat": flat, "nums": nums}


LEAVES: list[Any] = [
    None,
    True,
    False,
    0,
    -0.0,
    1,
    1.0,
    -7.0,
    2.5,
    1e-300,
    1e300,
    2**53,
    2**53 + 1,
    -(2**60),
    float("nan"),
    float("inf"),
    float("-inf"),
    "",
    "é ü 漢字",
    'quote " back \\ slash',
    "line\nbreak\ttab\x00nul",
    "\u2028 separator",
    datetime(2026, 1, 2, tzinfo=timezone.utc),
    b"bytes",
]


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth >= 4 or roll < 0.5:
        return rng.choice(LEAVES)
    if roll < 0.7:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if roll < 0.75:
        return tuple(_value(rng, depth + 1) for _ in range(rng.randrange(3)))
    keys = ["a", "b", "z", "é", "1", 1, 2.0, "content", "metadata", True]
    return {rng.choice(keys): _value(rng, depth + 1) for _ in range(rng.randrange(5))}


@pytest.mark.parametrize("leaf", LEAVES, ids=[repr(x)[:20] for x in LEAVES])
def test_each_leaf_is_written_as_before(leaf: Any) -> None:
    assert canonical(leaf) == reference_canonical(leaf)
    assert canonical([leaf, {"k": leaf}]) == reference_canonical([leaf, {"k": leaf}])


def test_random_values_are_written_as_before() -> None:
    rng = random.Random(13)
    for _ in range(3000):
        v = _value(rng)
        assert canonical(v) == reference_canonical(v), v
        item = {"content": "x", "v": v, "metadata": {"nested": v, 3: {"deeper": v}}}
        assert value_fields(item) == reference_value_fields(item), item


def test_keys_equal_as_strings_keep_the_last_value_as_before() -> None:
    v = {1: "first", "1": "second", "b": {2: 1.0, "2": 2}}
    assert canonical(v) == reference_canonical(v) == '{"1":"second","b":{"2":2}}'
    assert value_fields(v) == reference_value_fields(v)


def test_a_long_leaf_is_no_token_but_its_number_siblings_are() -> None:
    item = {"content": "x" * (MAX_FLAT_CHARS + 1), "n": 3}
    fields = value_fields(item)
    assert fields == reference_value_fields(item)
    assert [t.split(SEP)[0] for t in fields["flat"]] == ["n"]
    assert fields["nums"] == [{"p": "n", "v": 3.0}]


def test_huge_integers_fail_as_before() -> None:
    with pytest.raises(OverflowError):
        reference_canonical(10**400)
    with pytest.raises(OverflowError):
        canonical(10**400)
