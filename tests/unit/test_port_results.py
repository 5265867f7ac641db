"""``find_result`` / ``nearest_result`` type one answer of ``read_many`` and refuse the other kind."""

from __future__ import annotations

import pytest

from langmem_es.port import Hit, StoredDoc, Version, find_result, nearest_result

DOC = StoredDoc("semantic", {"id": "a"}, Version(1))
HIT = Hit("semantic", {"id": "a"}, 0.9)


def test_a_find_answer_is_its_stored_documents() -> None:
    assert find_result([DOC]) == [DOC]
    assert find_result([]) == []


def test_a_nearest_answer_is_its_hits() -> None:
    assert nearest_result([HIT]) == [HIT]
    assert nearest_result([]) == []


def test_the_wrong_kind_of_answer_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Nearest's hits"):
        find_result([HIT])
    with pytest.raises(TypeError, match="Find's stored documents"):
        nearest_result([DOC])
