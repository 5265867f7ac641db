"""Long texts of recall's hits, kept by document version (issue 47).

A recall leg reads a memory's ``text`` from its doc-value copy, which holds at most
:data:`~.mappings.TEXT_DOC_VALUE_CHARS` characters; a longer text (a pasted document, a log)
is read from ``_source`` in one ``mget`` — and that ``_source`` also holds every passage
vector, which the engine parses to filter: tens of milliseconds when a long conversation's
recalls return its long memories turn after turn. A version — index, id, sequence number and
primary term — names one exact text (a rewrite gets a new sequence number, a re-created
document too), so a text read once is kept under the version the ``mget`` read and given to a
later hit of that very version. Bounded by characters; a text above :data:`LONGEST` is not kept.

>>> texts = VersionedTexts(max_chars=10)
>>> texts.keep(("i", "a", 3, 1), "twelve chars")  # above the budget: not kept
>>> texts.keep(("i", "b", 4, 1), "six ch")
>>> texts.find(("i", "b", 4, 1)), texts.find(("i", "b", 5, 1))
('six ch', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...text_memo import BoundedLRU

__all__ = ["LONGEST", "Version", "VersionedTexts", "version_of"]

#: (index, id, sequence number, primary term)
Version = tuple[str, str, int, int]
#: the longest text kept (characters)
LONGEST = 1_000_000


def version_of(hit: Mapping[str, Any], id_: str) -> Version | None:
    """The version of a hit or a got document that carries one (``seq_no_primary_term``)."""
    seq, term = hit.get("_seq_no"), hit.get("_primary_term")
    if isinstance(seq, int) and isinstance(term, int):
        return str(hit["_index"]), id_, seq, term
    return None


class VersionedTexts:
    """At most ``max_chars`` characters of texts, by version, the least recently used dropped first."""

    def __init__(self, max_chars: int = 16_000_000) -> None:
        self._kept: BoundedLRU[Version, str] = BoundedLRU(max_chars, weigh=len)

    def find(self, version: Version) -> str | None:
        return self._kept.find(version)

    def keep(self, version: Version, text: str) -> None:
        if len(text) <= LONGEST:
            self._kept.keep(version, text)  # a text above the whole budget is not kept either
