"""What a new user mistypes gets one line, creates nothing and names the fix (issue 43's smaller items).

Each test runs the real command in a subprocess (a fresh interpreter, like a user's shell)
with LANGMEM_ES_HOME in a temporary directory and no LANGMEM_ES_* of this machine.
"""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOKENS = '[[tokens]]\ntoken = "tok-owner-olga"\ntenant = "acme"\nuser_id = "olga"\nroles = ["owner"]\n'


def langmem_es(
    *argv: str, home: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LANGMEM_ES")}
    environ.update({"LANGMEM_ES_HOME": str(home), "PYTHONPATH": str(ROOT), **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "langmem_es_cli.main", *argv],
        capture_output=True,
        text=True,
        env=environ,
        timeout=timeout,
        cwd=home.parent,
        stdin=subprocess.DEVNULL,
    )


def one_line_error(proc: subprocess.CompletedProcess[str], typename: str) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[-1].startswith(f"langmem-es: error: {typename}: "), proc.stderr
    assert [ln for ln in lines if "error" in ln.lower()] == [lines[-1]], proc.stderr
    return lines[-1]


# --------------------------------------------------------------------------- --path of serve and mcp


@pytest.mark.parametrize(
    "argv",
    [
        ("mcp", "--tenant", "acme", "--user", "sam"),
        ("serve", "--tokens", "TOKENS", "--port", "1"),
    ],
    ids=["mcp", "serve"],
)
def test_serve_and_mcp_refuse_a_store_path_whose_directory_does_not_exist(tmp_path: Path, argv) -> None:
    tokens = tmp_path / "tokens.toml"
    tokens.write_text(TOKENS)
    missing = tmp_path / "no" / "such" / "dir" / "m.db"
    argv = tuple(str(tokens) if a == "TOKENS" else a for a in argv)
    line = one_line_error(
        langmem_es(*argv, "--path", str(missing), "--embeddings", "fast", home=tmp_path / "home"),
        "ConfigurationError",
    )
    assert f"--path '{missing}': directory '{missing.parent}' does not exist" in line and "--create" in line
    assert not (tmp_path / "no").exists()


# --------------------------------------------------------------------------- token files


def test_a_token_file_that_is_not_utf8_is_one_line_naming_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for name in ("tokens.toml", "tokens.json"):
        bad = tmp_path / name
        bad.write_bytes(b'[[tokens]]\ntoken = "caf\xe9-secret"\n')
        for argv in (
            ("serve", "--tokens", str(bad), "--path", str(tmp_path / "m.db")),
            ("load", "--target", "http://127.0.0.1:9", "--tokens", str(bad)),
        ):
            line = one_line_error(langmem_es(*argv, home=home), "ConfigurationError")
            assert f"token file {bad} is not UTF-8 text (byte 0xe9 at offset 23)" in line, line
    assert not (tmp_path / "m.db").exists()


def test_load_refuses_tokens_without_a_target(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.toml"
    tokens.write_text(TOKENS)
    line = one_line_error(
        langmem_es("load", "--tokens", str(tokens), "--seconds", "1", home=tmp_path / "home"), "InvalidArgumentError"
    )
    assert "--tokens is for --target URL" in line


# --------------------------------------------------------------------------- a URL that is not Elasticsearch


class _NotElasticsearch(http.server.BaseHTTPRequestHandler):
    status = 404

    def _answer(self) -> None:
        body = b"<html><body><h1>Not Found</h1></body></html>"
        self.send_response(self.status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(params=[404, 200], ids=["404", "200"])
def not_elasticsearch(request: pytest.FixtureRequest) -> Iterator[tuple[str, int]]:
    """``(url, status)``: a plain web server on a loopback port answering every request with ``status`` and HTML."""
    handler = type("Handler", (_NotElasticsearch,), {"status": request.param})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", request.param
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("argv", [("doctor",), ("demo", "--backend", "elasticsearch")], ids=["doctor", "demo"])
def test_a_url_that_answers_but_is_not_elasticsearch(tmp_path: Path, not_elasticsearch: tuple[str, int], argv) -> None:
    url, status = not_elasticsearch
    line = one_line_error(langmem_es(*argv, home=tmp_path / "home", env={"LANGMEM_ES_URL": url}), "ConfigurationError")
    assert f"LANGMEM_ES_URL='{url}' answered (HTTP {status}) but is not Elasticsearch" in line, line
    assert "http://127.0.0.1:9200" in line


# --------------------------------------------------------------------------- argparse


@pytest.mark.parametrize(
    "argv, command",
    [(("serve", "--bogus"), "serve"), (("es", "start", "--bogus"), "es start"), (("mcp", "--tenant"), "mcp")],
    ids=["serve", "es-start", "mcp-missing-value"],
)
def test_a_mistyped_flag_prints_the_subcommands_usage(tmp_path: Path, argv, command: str) -> None:
    proc = langmem_es(*argv, home=tmp_path / "home")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"usage: langmem-es {command} "), proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith(f"langmem-es {command}: error: "), proc.stderr
    assert not (tmp_path / "home").exists()
