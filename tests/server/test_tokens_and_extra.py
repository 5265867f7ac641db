"""Token files, the per-token limiter, and the missing-extra hint."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from langmem_es.errors import AuthenticationError, ConfigurationError
from langmem_es.server.auth import RateLimiter, TokenTable, digest

from .conftest import cli_env


def test_toml_and_json_token_files_map_tokens_to_identities(tmp_path: Path) -> None:
    toml = tmp_path / "t.toml"
    toml.write_text(
        '[[tokens]]\ntoken = "s3cret-sam"\ntenant = "acme"\nuser_id = "sam"\nroles = ["owner"]\n'
        f'[[tokens]]\ntoken_sha256 = "{digest("hashed-bot-1")}"\ntenant = "acme"\nagent_id = "bot"\n'
    )
    table = TokenTable.load(toml)
    _, sam = table.identify("Bearer s3cret-sam")
    assert (sam.tenant, sam.user_id, sam.is_owner) == ("acme", "sam", True)
    _, bot = table.identify("bearer hashed-bot-1")
    assert (bot.agent_id, bot.roles) == ("bot", frozenset({"member"}))
    js = tmp_path / "t.json"
    js.write_text(
        json.dumps(
            {"tokens": [{"token": "json-token-1", "tenant": "t", "user_id": "u", "expires": "2030-01-01T00:00:00Z"}]}
        )
    )
    table = TokenTable.load(js)
    assert table.identify("Bearer json-token-1")[1].tenant == "t"
    with pytest.raises(AuthenticationError, match="expired"):
        table.identify("Bearer json-token-1", now=datetime(2030, 1, 1, tzinfo=timezone.utc))


@pytest.mark.parametrize(
    "entry, message",
    [
        ({"tenant": "a", "user_id": "u"}, "exactly one of token / token_sha256"),
        ({"token": "short", "tenant": "a", "user_id": "u"}, "at least 8 characters"),
        ({"token": "long-enough", "user_id": "u"}, "token entry 1"),
        ({"token": "long-enough", "tenant": "a"}, "needs user_id or agent_id"),
        ({"token": "long-enough", "tenant": "a", "user_id": "u", "roles": ["admin"]}, "unknown role"),
        ({"token": "long-enough", "tenant": "a", "user_id": "u", "expires": "soon"}, "ISO 8601"),
        ({"token": "long-enough", "tenant": "a", "user_id": "u", "tenant_id": "b"}, "unknown key"),
        ({"token_sha256": "abc", "tenant": "a", "user_id": "u"}, "64 hex digits"),
    ],
)
def test_bad_token_entries_are_refused_with_one_line(tmp_path: Path, entry: dict, message: str) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"tokens": [entry]}))
    with pytest.raises(ConfigurationError, match=message):
        TokenTable.load(path)


def test_unreadable_or_shapeless_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="cannot read token file"):
        TokenTable.load(tmp_path / "missing.toml")
    (tmp_path / "bad.toml").write_text("tokens = 3")
    with pytest.raises(ConfigurationError, match="needs a list 'tokens'"):
        TokenTable.load(tmp_path / "bad.toml")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ConfigurationError, match="not JSON"):
        TokenTable.load(tmp_path / "bad.json")


def test_rate_limiter_is_a_bucket_per_key() -> None:
    limiter = RateLimiter(rate=1000.0, burst=2)
    assert [limiter.allow("a") for _ in range(2)] == [0.0, 0.0]
    assert limiter.allow("a") > 0 and limiter.allow("b") == 0.0


def test_serve_without_the_extra_prints_the_install_hint(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['fastapi'] = None\n"
        "from langmem_es_cli.main import main\n"
        f"sys.exit(main(['serve', '--tokens', {str(tmp_path / 't.toml')!r}]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=cli_env(), check=False, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "langmem-es: error: MissingDependencyError: the memory server needs the 'fastapi' "
        "package (fastapi missing): pip install 'langmem-es[server]'"
    )
