"""Terminal output for the CLI: rich when installed (``langmem-es[cli]``), plain text otherwise.

The commands print through :func:`console`, :func:`escape` and :func:`table`, which
keep rich's small subset they use (``print``, ``rule``, markup, a table), so the base
install needs no extra package.

>>> c = PlainConsole(file=__import__("io").StringIO())
>>> c.print("[bold]Hello[/] " + escape("[episodic m1]"))
>>> c.file.getvalue()
'Hello [episodic m1]\\n'
"""

from __future__ import annotations

import re
import sys
from typing import Any, TextIO

__all__ = ["PlainConsole", "PlainTable", "console", "escape", "table"]

_TAG = re.compile(r"(?<!\\)\[/?[a-z #0-9_.-]*\]")


def _plain(text: str) -> str:
    """Rich markup removed, escaped brackets restored."""
    return _TAG.sub("", text).replace("\\[", "[")


def _have_rich() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def escape(text: str) -> str:
    """Escape ``[`` so the text is printed literally (by rich or :class:`PlainConsole`)."""
    if _have_rich():
        from rich.markup import escape as rich_escape

        return rich_escape(text)
    return text.replace("[", "\\[")


class PlainTable:
    """The part of ``rich.table.Table`` the CLI uses, rendered as aligned text."""

    def __init__(self, title: str = "", **_: Any) -> None:
        self.title = title
        self.columns: list[str] = []
        self.rows: list[list[str]] = []

    def add_column(self, header: str, **_: Any) -> None:
        self.columns.append(header)

    def add_row(self, *cells: str) -> None:
        self.rows.append([_plain(c) for c in cells])

    def render(self) -> str:
        widths = [max([len(h)] + [len(r[i]) for r in self.rows]) for i, h in enumerate(self.columns)]
        lines = [self.title] if self.title else []
        lines.append("  ".join(h.ljust(w) for h, w in zip(self.columns, widths, strict=True)).rstrip())
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in self.rows]
        return "\n".join(lines)


class PlainConsole:
    """The part of ``rich.console.Console`` the CLI uses, without colours."""

    def __init__(self, file: TextIO | None = None, width: int = 88, **_: Any) -> None:
        self.file = file if file is not None else sys.stdout
        self.width = width

    def print(self, *objects: Any, **_: Any) -> None:
        text = " ".join(o.render() if isinstance(o, PlainTable) else _plain(str(o)) for o in objects)
        print(text, file=self.file)

    def rule(self, title: str = "", **_: Any) -> None:
        title = _plain(title)
        bar = "─" * max(3, (self.width - len(title) - 2) // 2)
        print(f"{bar} {title} {bar}" if title else "─" * self.width, file=self.file)


def console(**kwargs: Any) -> Any:
    """A ``rich.console.Console`` when rich is installed, else a :class:`PlainConsole`."""
    if _have_rich():
        from rich.console import Console

        return Console(**kwargs)
    return PlainConsole(**kwargs)


def table(**kwargs: Any) -> Any:
    """A ``rich.table.Table`` when rich is installed, else a :class:`PlainTable`."""
    if _have_rich():
        from rich.table import Table

        return Table(**kwargs)
    return PlainTable(**kwargs)
