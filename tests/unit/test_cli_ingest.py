"""``langmem-es ingest``: a document or a conversation into one user's memory, with progress, run
as a user runs it (a subprocess) on the embedded store."""

from __future__ import annotations

import json
from pathlib import Path

from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.core import MemoryCore
from langmem_es.model import Identity
from langmem_es_cli.ingest import sections
from tests.unit.test_cli_one_line_errors import langmem_es, one_line_error


def _recall(db: Path, user: str, query: str) -> list[str]:
    core = MemoryCore(SQLiteBackend(str(db)))
    try:
        return [r.memory.content for r in core.recall(Identity(tenant="acme", user_id=user), query, k=5).memories]
    finally:
        core.close()


def test_a_long_document_goes_in_as_sections_with_progress(tmp_path: Path) -> None:
    paragraphs = [f"Section {i}: the build agent {i} restarted after a disk alert on rack {i % 7}." for i in range(400)]
    paragraphs[250] = "The backup key for the staging vault is kept in the blue safe on floor three."
    doc = tmp_path / "runbook.md"
    doc.write_text("\n\n".join(paragraphs))
    db = tmp_path / "m.db"
    argv = ["ingest", str(doc), "--tenant", "acme", "--user", "sam", "--sqlite", str(db), "--section-chars", "2000"]
    done = langmem_es(*argv, home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ingested"] == len(sections(doc.read_text(), 2000)) > 10
    progress = [ln for ln in done.stderr.splitlines() if ln.startswith("ingested ")]
    assert progress and progress[-1].startswith(f"ingested {out['ingested']}/{out['ingested']} messages")
    assert "MB/min" in progress[-1]
    assert any("blue safe" in text for text in _recall(db, "sam", "where is the staging vault backup key?"))
    assert _recall(db, "gil", "where is the staging vault backup key?") == []  # sam's, not another user's
    again = langmem_es(*argv, home=tmp_path / "home")  # the same file again writes nothing twice
    assert json.loads(again.stdout)["first_id"] == out["first_id"]
    core = MemoryCore(SQLiteBackend(str(db)))
    try:
        held = core.export(Identity(tenant="acme", user_id="sam"), scopes=["private"], include_tombstones=False)
        assert len(held) == out["ingested"]
    finally:
        core.close()


def test_a_conversation_as_jsonl(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    lines = [
        {"content": "User: my dentist appointment moved to Friday 9am", "event_time": "2026-03-02T10:00:00Z"},
        "Assistant: noted, Friday 9am for the dentist.",
        {"content": "User: also the car goes in for service on Monday", "session_id": "s2"},
    ]
    chat.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    db = tmp_path / "m.db"
    who = ["--tenant", "acme", "--user", "sam", "--sqlite", str(db)]
    done = langmem_es("ingest", str(chat), *who, home=tmp_path / "h")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ingested"] == 3
    assert any("dentist" in t for t in _recall(db, "sam", "when is the dentist?"))


def test_bad_input_is_one_line_and_opens_nothing(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"content": "fine"}\nnot json\n')
    who = ["--tenant", "a", "--user", "u", "--sqlite", str(db)]
    line = one_line_error(langmem_es("ingest", str(bad), *who, home=tmp_path / "h"), "ConfigurationError")
    assert "bad.jsonl line 2 is not JSON" in line
    missing = langmem_es("ingest", str(tmp_path / "nope.txt"), *who, home=tmp_path / "h")
    assert "nope.txt: no such file" in one_line_error(missing, "ConfigurationError")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("caf\xe9 notes".encode("latin-1"))
    not_utf8 = langmem_es("ingest", str(latin), *who, home=tmp_path / "h")
    assert "is not UTF-8 text (byte 0xe9 at offset 3)" in one_line_error(not_utf8, "ConfigurationError")
    assert not db.exists()
