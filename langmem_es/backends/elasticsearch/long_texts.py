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

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

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
        self._max = max_chars
        self._chars = 0
        self._kept: OrderedDict[Version, str] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, version: Version) -> str | None:
        with self._lock:
            text = self._kept.get(version)
            if text is not None:
                self._kept.move_to_end(version)
            return text

    def keep(self, version: Version, text: str) -> None:
        if len(text) > min(LONGEST, self._max):
            return
        with self._lock:
            old = self._kept.pop(version, None)
            self._chars += len(text) - (len(old) if old is not None else 0)
            self._kept[version] = text
            while self._chars > self._max:
                _, dropped = self._kept.popitem(last=False)
                self._chars -= len(dropped)
