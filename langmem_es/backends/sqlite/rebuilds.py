"""When a cache that other connections' commits keep throwing away is worth building again."""

from __future__ import annotations

__all__ = ["RebuildGate"]


class RebuildGate:
    """Counts the searches that go without a cache and says when to build it: once ``first``
    have, and — each time another connection's commit throws the built one away — once twice as
    many as before have (at least ``floor``), so that several processes writing one file do not
    rebuild it after nearly every write of the others.

    >>> gate = RebuildGate(first=0, floor=2)
    >>> gate.ready(), gate.dropped(), [gate.ready() for _ in range(3)]
    (True, None, [False, False, True])
    """

    __slots__ = ("after", "floor", "uses")

    def __init__(self, first: int, floor: int) -> None:
        self.after, self.floor, self.uses = first, floor, 0

    def ready(self) -> bool:
        """Build it now? If not, this search goes without it (and is counted)."""
        if self.uses >= self.after:
            return True
        self.uses += 1
        return False

    def dropped(self) -> None:
        """Another connection's commit threw the built cache away."""
        self.after, self.uses = max(2 * self.after, self.floor), 0
