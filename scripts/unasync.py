"""Generate the synchronous twin of every ``_async/`` package folder.

Code with I/O is written once, async, under a folder named ``_async``; this script
writes the sibling ``_sync`` folder by a short, token-level rename map. Run it after
editing async code; ``--check`` (run in CI) fails if a generated file is stale.

    python scripts/unasync.py           # regenerate
    python scripts/unasync.py --check   # exit 1 on any difference
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "langmem_es"
HEADER = "# generated from the _async twin by scripts/unasync.py — do not edit\n"

RENAMES = {
    "_async": "_sync",
    "__aenter__": "__enter__",
    "__aexit__": "__exit__",
    "__aiter__": "__iter__",
    "__anext__": "__next__",
    "AsyncIterator": "Iterator",
    "AsyncIterable": "Iterable",
    "AsyncGenerator": "Generator",
    "asynccontextmanager": "contextmanager",
    "aclose": "close",
    "async_bulk": "bulk",
    "async_scan": "scan",
    "async_streaming_bulk": "streaming_bulk",
    "aembed_query": "embed_query",
    "aembed_documents": "embed_documents",
    "arerank": "rerank",
    "ainvoke": "invoke",
}
ASYNC_NAME = re.compile(r"^Async([A-Z]\w*)$")
TEXT_RENAMES = [("asyncio.sleep(", "time.sleep("), ("import asyncio\n", "import time\n")]


def _name(token: str) -> str:
    if token in RENAMES:
        return RENAMES[token]
    m = ASYNC_NAME.match(token)
    return m.group(1) if m else token


def convert(source: str) -> str:
    """The sync version of one async module."""
    for old, new in TEXT_RENAMES:
        source = source.replace(old, new)
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    # rebuild text line by line, dropping the column of removed keywords
    lines = source.splitlines(keepends=True)
    edits: dict[int, list[tuple[int, int, str]]] = {}
    for tok in tokens:
        if tok.type == tokenize.NAME and tok.string in ("async", "await"):
            (row, col), (_, end) = tok.start, tok.end
            line = lines[row - 1]
            while end < len(line) and line[end] == " ":
                end += 1
            edits.setdefault(row, []).append((col, end, ""))
        elif tok.type == tokenize.NAME and _name(tok.string) != tok.string:
            edits.setdefault(tok.start[0], []).append((tok.start[1], tok.end[1], _name(tok.string)))
        elif tok.type == tokenize.STRING and tok.start[0] == tok.end[0]:
            # module paths ("…_async…") and exported names ("AsyncX" in __all__)
            text = tok.string.replace("_async", "_sync")
            quote = text[0]
            if ASYNC_NAME.match(text.strip("\"'")):
                text = quote + _name(text.strip("\"'")) + quote
            if text != tok.string:
                edits.setdefault(tok.start[0], []).append((tok.start[1], tok.end[1], text))
    for row, row_edits in edits.items():
        line = lines[row - 1]
        for start, end, new in sorted(row_edits, reverse=True):
            line = line[:start] + new + line[end:]
        lines[row - 1] = line
    return HEADER + "".join(_drop_repeated_imports(lines))


def _drop_repeated_imports(lines: list[str]) -> list[str]:
    """``import asyncio`` becomes ``import time``: keep one of each top-level import line."""
    seen: set[str] = set()
    out = []
    for line in lines:
        if line.startswith(("import ", "from ")) and line in seen:
            continue
        if line.startswith(("import ", "from ")):
            seen.add(line)
        out.append(line)
    return out


def targets() -> list[tuple[Path, Path]]:
    pairs = []
    for src_dir in sorted(PACKAGE.rglob("_async")):
        if not src_dir.is_dir():
            continue
        dst_dir = src_dir.with_name("_sync")
        for src in sorted(src_dir.glob("*.py")):
            pairs.append((src, dst_dir / src.name))
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a generated file differs")
    args = parser.parse_args(argv)
    stale = []
    for src, dst in targets():
        new = convert(src.read_text(encoding="utf-8"))
        old = dst.read_text(encoding="utf-8") if dst.exists() else None
        if new == old:
            continue
        if args.check:
            stale.append(dst)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_text(new, encoding="utf-8")
            print(f"wrote {dst.relative_to(ROOT)}")
    if stale:
        print("stale generated files (run python scripts/unasync.py):", *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
