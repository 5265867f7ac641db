"""What is read off a long text, kept by a key of the text (so it is read once, not on every recall).

Recall returns the same memories turn after turn, and some of them are long (a pasted
document, a log): splitting one into passages, folding it for its hash or listing its words
costs milliseconds each time. :class:`TextMemo` keeps such results in a bounded, thread-safe
LRU keyed by a short key of the text (plus the reading's own parameters), so it never holds the
text itself — a cache keyed by the text would keep every long content it ever saw alive.

Two keys: :func:`fingerprint` (the text's length and Python's own string hash, SipHash with a
key drawn per process: ~18 µs for 60,000 characters here, what a dictionary keyed by the text
would pay) for what only recall's order or the passage it shows depends on, and :func:`digest`
(128 bits of SHA-256, ~45 µs) where a collision could merge two memories (a content's hash).

>>> memo = TextMemo(2)
>>> memo.get("a long text", 3, lambda: "computed")
'computed'
>>> memo.get("a long text", 3, lambda: "not again")
'computed'
>>> memo.get("a long text", 4, lambda: "another parameter")
'another parameter'
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["BoundedLRU", "TextMemo", "digest", "fingerprint"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def digest(text: str) -> bytes:
    """A 128-bit digest of ``text`` (lone surrogates included, as Python holds them)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:16]


def fingerprint(text: str) -> tuple[int, int]:
    """``text``'s length and string hash, for results a collision could only misorder. The
    hash's key is drawn per process (unless ``PYTHONHASHSEED`` fixes it), so no outsider can aim
    at a collision; and what is kept under it is offsets, word sets and scores — never another
    text's content."""
    return len(text), hash(text)


class BoundedLRU(Generic[K, V]):
    """Values by key, thread-safe, at most ``budget`` of them by ``weigh`` (each counts 1 unless
    told), the least recently used dropped first; a value heavier than the budget is not kept.

    >>> lru = BoundedLRU(10, weigh=len)
    >>> lru.keep("a", "twelve chars"); lru.keep("b", "six ch"); lru.keep("c", "four")
    >>> lru.find("a"), lru.find("b"), lru.find("c")
    (None, 'six ch', 'four')
    >>> lru.keep("d", "five!"); lru.find("b"), lru.find("c")  # "b" was used least recently
    (None, 'four')
    """

    def __init__(self, budget: int, *, weigh: Callable[[V], int] = lambda _: 1) -> None:
        if budget < 1:
            raise ValueError("a memo keeps at least one result")
        self._budget = budget
        self._weigh = weigh
        self._used = 0
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, key: K) -> V | None:
        """The value kept under ``key``, or ``None``."""
        with self._lock:
            value = self._kept.get(key)
            if value is not None:
                self._kept.move_to_end(key)
            return value

    def keep(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key`` (unless it alone outweighs the budget)."""
        weight = self._weigh(value)
        if weight > self._budget:
            return
        with self._lock:
            old = self._kept.pop(key, None)
            self._used += weight - (self._weigh(old) if old is not None else 0)
            self._kept[key] = value
            while self._used > self._budget:
                _, dropped = self._kept.popitem(last=False)
                self._used -= self._weigh(dropped)

    def __len__(self) -> int:
        return len(self._kept)


class TextMemo(Generic[V]):
    """At most ``size`` results computed from texts, the least recently used dropped first,
    keyed by ``key`` of the text (:func:`fingerprint`, or :func:`digest`)."""

    def __init__(self, size: int, *, key: Callable[[str], Hashable] = fingerprint) -> None:
        self._key = key
        self._kept: BoundedLRU[tuple[Hashable, Hashable], V] = BoundedLRU(size)

    def get(self, text: str, params: Hashable, compute: Callable[[], V]) -> V:
        """The result kept for ``text`` read with ``params``, else ``compute()`` (then kept).
        Results are shared between callers: keep them immutable."""
        found = self.find(text, params)
        if found is not None:
            return found
        value = compute()  # outside the lock: two threads may compute one text, both alike
        self.keep(text, params, value)
        return value

    def find(self, text: str, params: Hashable) -> V | None:
        """The result kept for ``text`` read with ``params``, or ``None``."""
        return self._kept.find((self._key(text), params))

    def keep(self, text: str, params: Hashable, value: V) -> None:
        """Keep ``value`` as what ``text`` read with ``params`` gives (for a result computed
        elsewhere, e.g. awaited)."""
        self._kept.keep((self._key(text), params), value)

    def __len__(self) -> int:
        return len(self._kept)
