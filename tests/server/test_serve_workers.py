"""``langmem-es serve --workers 2``: several server processes on one port share one store."""

from __future__ import annotations

from pathlib import Path

from .conftest import start_server, stop_server
from .test_http_api import recall_texts, remember


def test_two_workers_serve_one_store(tmp_path: Path) -> None:
    srv = start_server(tmp_path, "--workers", "2")
    try:
        with srv.client("member") as sam, srv.client("other") as gil:
            written = [
                remember(sam, f"Sam opened locker L-{100 + i} at the gym on day {i}.", kind="episodic")
                for i in range(6)
            ]
            assert len({w["id"] for w in written}) == 6
            # each recall lands on either process: every one sees every write, and only its tenant's
            for _ in range(6):
                assert "Sam opened locker L-103 at the gym on day 3." in recall_texts(sam, "locker L-103", k=10)
                assert "Sam opened locker L-103 at the gym on day 3." not in recall_texts(gil, "locker L-103", k=10)
        assert "2 worker processes" in srv.log.read_text()
    finally:
        stop_server(srv)


def test_workers_out_of_range_is_one_line_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    tokens = tmp_path / "t.json"
    tokens.write_text('{"tokens": [{"token": "abcdefgh1234", "tenant": "t", "user_id": "u"}]}')
    command = ["serve", "--tokens", str(tokens), "--workers", "0", "--path", str(tmp_path / "m.db")]
    done = subprocess.run(
        [sys.executable, "-m", "langmem_es_cli.main", *command], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "--workers 0: give 1 to 64" in done.stderr
    assert not (tmp_path / "m.db").exists()
