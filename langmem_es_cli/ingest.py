"""``langmem-es ingest FILE``: a conversation or a long document into one user's memory, with progress.

::

    langmem-es ingest chat.jsonl --tenant acme --user sam                  # Elasticsearch (LANGMEM_ES_URL …)
    langmem-es ingest notes.md --tenant acme --user sam --sqlite memory.db # the embedded store
    cat log.txt | langmem-es ingest - --tenant acme --user sam --session incident-42

A ``.jsonl`` file holds one message a line: an object with ``content`` and any of
``remember``'s arguments (``event_time``, ``session_id``, ``metadata``, ``sources`` …), or a
plain string. Any other file is text: it is written as its sections — paragraphs gathered
up to ``--section-chars`` characters, split at blank lines — each an episodic event of one
session (``--session``, else the file's name), so a long paste stays searchable passage by
passage and the progress moves. Events go through ``remember_many`` (the bulk write path:
deterministic ids, so running the same file again writes nothing twice). Progress on stderr:
messages, megabytes, MB/min and the time left.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["read_items", "register", "sections"]

SECTION_CHARS = 8_000


def sections(text: str, max_chars: int = SECTION_CHARS) -> list[str]:
    """``text`` as consecutive sections of whole paragraphs, each at most ``max_chars`` characters
    (a longer paragraph is cut at line ends, then anywhere).

    >>> sections("a\\n\\nb\\n\\nc", max_chars=4)
    ['a\\n\\nb', 'c']
    >>> [len(s) for s in sections("x" * 10, max_chars=4)]
    [4, 4, 2]
    """
    pieces: list[str] = []
    for paragraph in (p.strip("\n") for p in text.split("\n\n")):
        if not paragraph.strip():
            continue
        while len(paragraph) > max_chars:
            cut = paragraph.rfind("\n", 0, max_chars)
            cut = cut if cut > 0 else max_chars
            pieces.append(paragraph[:cut])
            paragraph = paragraph[cut:].lstrip("\n")
        pieces.append(paragraph)
    out: list[str] = []
    for piece in pieces:
        if out and len(out[-1]) + 2 + len(piece) <= max_chars:
            out[-1] += "\n\n" + piece
        else:
            out.append(piece)
    return out


def read_items(path: str, *, session: str | None, section_chars: int = SECTION_CHARS) -> list[dict[str, Any]]:
    """The ``remember_many`` items of ``path`` (``-``: stdin); ConfigurationError, one line, when unreadable."""
    from langmem_es.errors import ConfigurationError

    name = "stdin" if path == "-" else path
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise ConfigurationError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise ConfigurationError(f"{name} is a directory; give a .jsonl or text file") from None
    except UnicodeDecodeError as exc:
        raise ConfigurationError(
            f"{name} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    except OSError as exc:
        raise ConfigurationError(f"{name}: cannot read it ({exc.strerror})") from None
    if path.endswith(".jsonl"):
        items: list[dict[str, Any]] = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise ConfigurationError(f"{name} line {n} is not JSON: {exc}") from None
            if isinstance(obj, str):
                obj = {"content": obj}
            if not isinstance(obj, dict) or not isinstance(obj.get("content"), str) or not obj["content"].strip():
                raise ConfigurationError(f"{name} line {n}: each line is a text or an object with a 'content' text")
            if obj.get("event_time") is not None:
                from langmem_es.documents import parse_time

                when = parse_time(obj["event_time"])
                if when is None:
                    raise ConfigurationError(
                        f"{name} line {n}: event_time {obj['event_time']!r} is not an ISO 8601 time"
                    )
                obj["event_time"] = when
            if session and "session_id" not in obj:
                obj["session_id"] = session
            items.append(obj)
        return items
    own_session = session or Path(name).name
    return [{"content": s, "session_id": own_session} for s in sections(text, section_chars)]


def progress_line(total_bytes: int, sizes: list[int], say: Callable[[str], None]) -> Callable[[int, int], None]:
    """A ``remember_many`` progress callback printing messages, MB, MB/min and the time left."""
    started = time.perf_counter()
    done_bytes = [0]
    last = [0.0]
    prefix = [0]

    def report(done: int, total: int) -> None:
        while prefix[0] < done:
            done_bytes[0] += sizes[prefix[0]]
            prefix[0] += 1
        elapsed = time.perf_counter() - started
        now = time.perf_counter()
        if done < total and now - last[0] < 2:
            return
        last[0] = now
        rate = done_bytes[0] / 1e6 / max(elapsed, 1e-9) * 60
        left = (total_bytes - done_bytes[0]) / 1e6 / rate * 60 if rate > 0 else float("nan")
        eta = (
            f", about {left / 60:.0f} min left"
            if done < total and left >= 90
            else (f", about {left:.0f} s left" if done < total else f" in {elapsed:.0f} s")
        )
        say(
            f"ingested {done:,}/{total:,} messages ({done_bytes[0] / 1e6:.1f} of {total_bytes / 1e6:.1f} MB, "
            f"{rate:.2f} MB/min{eta})"
        )

    return report


def _batch_size(sizes: list[int]) -> int:
    """Messages a batch: about 100 kB of text (some seconds of embedding), so progress moves.

    >>> _batch_size([8_000] * 50), _batch_size([80] * 5000)
    (12, 256)
    """
    mean = sum(sizes) / max(1, len(sizes))
    return max(1, min(256, int(100_000 // max(mean, 1))))


def _ingest(args: argparse.Namespace) -> int:
    from langmem_es.core import MemoryCore
    from langmem_es.errors import ConfigurationError
    from langmem_es.model import Identity

    if args.section_chars < 200:
        raise ConfigurationError(f"--section-chars {args.section_chars}: give at least 200")
    items = read_items(args.file, session=args.session, section_chars=args.section_chars)
    if not items:
        raise ConfigurationError(f"{args.file}: nothing to ingest (no text)")
    identity = Identity(tenant=args.tenant, user_id=args.user)
    sizes = [len(it["content"].encode("utf-8")) for it in items]
    say = (lambda m: None) if args.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    say(f"ingesting {len(items):,} messages ({sum(sizes) / 1e6:.1f} MB) for {args.user} of {args.tenant} …")
    from ._checks import deployment_backend

    backend = deployment_backend(args)  # after the file is read: a bad file opens nothing
    try:
        backend.setup()
        ids = MemoryCore(backend).remember_many(
            identity,
            items,
            kind="episodic",
            scope=args.scope,
            batch_size=_batch_size(sizes),
            progress=progress_line(sum(sizes), sizes, say),
        )
    finally:
        backend.close()
    print(json.dumps({"ingested": len(ids), "bytes": sum(sizes), "first_id": ids[0], "last_id": ids[-1]}))
    return 0


def register(sub: Any) -> None:
    """Add ``ingest`` to the ``langmem-es`` subcommands."""
    p = sub.add_parser(
        "ingest",
        help="a conversation (.jsonl) or a long document into one user's episodic memory, with progress",
        description=__doc__.split("\n\n")[0].split(": ", 1)[1],
    )
    p.add_argument("file", help="a .jsonl file of messages, a text file, or - for stdin")
    p.add_argument("--tenant", required=True, help="tenant (workspace)")
    p.add_argument("--user", required=True, help="the user whose memory it is")
    p.add_argument("--scope", choices=("private", "shared"), default="private", help="default: private")
    p.add_argument("--session", help="session id of the events (text: default the file's name)")
    p.add_argument(
        "--section-chars",
        type=int,
        default=SECTION_CHARS,
        help=f"text files: longest section written as one event (default {SECTION_CHARS:,} characters)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--prefix", default="langmem", help="Elasticsearch index prefix (default: langmem)")
    where.add_argument("--sqlite", metavar="PATH", help="use the embedded SQLite database at PATH")
    p.set_defaults(func=_ingest)
