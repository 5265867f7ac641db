"""The `langmem-es` command never surprises: bad input is one line, before any download or write.

Each test runs the real command in a subprocess (a fresh interpreter, like a user's shell)
with LANGMEM_ES_HOME in a temporary directory, and checks both the message and that
nothing was created.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from langmem_es.errors import ConfigurationError
from langmem_es_cli._checks import file_path, parse_heap, parse_port_range
from langmem_es_cli.local_es import PortRange, clean, plan_ports, render_elasticsearch_yml
from langmem_es_cli.local_es._config import plan_cluster

ROOT = Path(__file__).resolve().parents[2]


def langmem_es(
    *argv: str, home: Path, env: dict[str, str] | None = None, timeout: float = 60
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
    )


def one_line_error(proc: subprocess.CompletedProcess[str], typename: str) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert "Traceback" not in proc.stderr
    assert lines[-1].startswith(f"langmem-es: error: {typename}: "), proc.stderr
    assert [ln for ln in lines if ln.startswith("langmem-es: error")] == [lines[-1]]
    return lines[-1]


def files_under(path: Path) -> list[Path]:
    return sorted(path.rglob("*")) if path.exists() else []


# --------------------------------------------------------------------------- es start


def test_bad_heap_fails_at_once_before_any_download(tmp_path: Path) -> None:
    home = tmp_path / "home"
    t0 = time.monotonic()
    proc = langmem_es("es", "start", "--name", "heap-check", "--heap", "lots", home=home)
    line = one_line_error(proc, "ConfigurationError")
    assert "--heap 'lots'" in line and "512m" in line
    assert time.monotonic() - t0 < 30  # no download, no JVM
    assert files_under(home) == []


@pytest.mark.parametrize("value", ["64m", "0g", "1.5g", "512", "-1m"])
def test_heap_sizes_refused(value: str) -> None:
    with pytest.raises(ConfigurationError, match="--heap"):
        parse_heap(value)


def test_heap_sizes_accepted() -> None:
    assert [parse_heap(v) for v in ("256m", "1G", "2g", "1048576k")] == ["256m", "1g", "2g", "1048576k"]


def test_bad_port_fails_at_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    line = one_line_error(
        langmem_es("es", "start", "--name", "port-check", "--port", "92x0", home=home), "ConfigurationError"
    )
    assert "--port '92x0'" in line
    assert files_under(home) == []
    with pytest.raises(ConfigurationError):
        parse_port_range("9300-9200")


def test_ports_are_ranges_elasticsearch_binds_itself(tmp_path: Path) -> None:
    http, transport = plan_ports(1, None)
    assert (http, transport) == ([PortRange(9200, 9299)], [PortRange(9300, 9399)])
    http, _ = plan_ports(3, "9250-9260")
    assert http == [PortRange(9250, 9260)] * 3
    spec = plan_cluster("r", tmp_path, http, [PortRange(9300, 9399)] * 3)
    yml = render_elasticsearch_yml(spec, spec.nodes[1], bootstrap=True, seeds=["127.0.0.1:9301"])
    assert "http.port: 9250-9260" in yml and "transport.port: 9300-9399" in yml
    assert "node.portsfile: true" in yml  # what it bound is read back, not guessed
    assert "  - 127.0.0.1:9301" in yml


def test_a_range_with_no_free_port_fails_at_once_before_any_download(tmp_path: Path) -> None:
    import socket

    from langmem_es_cli.local_es import choose_ports

    low = choose_ports(2, requested=None, prefer=29400)[0]
    held = []
    try:
        for port in (low, low + 1):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", port))
            s.listen(1)
            held.append(s)
        home = tmp_path / "home"
        t0 = time.monotonic()
        proc = langmem_es("es", "start", "--name", "full", "--nodes", "2", "--port", f"{low}-{low + 1}", home=home)
        line = one_line_error(proc, "PortInUseError")
        assert f"HTTP ports {low}-{low + 1} on 127.0.0.1: 0 free, 2 node(s) need one each" in line
        assert time.monotonic() - t0 < 30 and files_under(home) == []  # no download, nothing written
        held.pop().close()  # one free port, two nodes: still refused
        with pytest.raises(Exception, match="1 free, 2 node"):
            plan_ports(2, f"{low}-{low + 1}")
        assert plan_ports(1, f"{low}-{low + 1}")[0] == [PortRange(low, low + 1)]
    finally:
        for s in held:
            s.close()


def test_a_port_taken_after_the_check_is_named_from_the_bind_error_above_the_stack(tmp_path: Path) -> None:
    """The race the range check cannot close: Elasticsearch's bind error, in one line, without Java frames."""
    from langmem_es_cli.local_es._nodes import bind_failure

    spec = plan_cluster("race", tmp_path, [PortRange(9290, 9290)], [PortRange(9300, 9399)])
    node = spec.nodes[0]
    node.logs_dir.mkdir(parents=True)
    node.stdout_file.write_text(
        "[2026-12-01T00:00:00,000][ERROR][o.e.b.Elasticsearch] [race-0] fatal exception while booting Elasticsearch\n"
        "org.elasticsearch.http.BindHttpException: Failed to bind to 127.0.0.1:[9290]\n"
        + "\tat org.elasticsearch.http.AbstractHttpServerTransport.bindAddress(AbstractHttpServerTransport.java:1)\n"
        * 20
        + "Caused by: java.net.BindException: Address already in use\n"
        "\tat java.base/sun.nio.ch.Net.bind0(Native Method)\n"
    )
    assert bind_failure(spec, node) == (
        "BindHttpException: Failed to bind to 127.0.0.1:[9290] (Address already in use)"
    )
    node.stdout_file.write_text("[...] some other failure\n")
    assert bind_failure(spec, node) is None


# --------------------------------------------------------------------------- es clean


def test_es_clean_removes_what_start_left(tmp_path: Path) -> None:
    from langmem_es_cli.local_es import layout

    home = tmp_path / "home"
    env = {"LANGMEM_ES_HOME": str(home)}
    lay = layout(env)  # as root, the runtime may live outside home (see Layout)
    lay.downloads.mkdir(parents=True)
    (lay.downloads / "elasticsearch-8.19.8.zip").write_bytes(b"zip")
    (lay.dist_root / "elasticsearch-8.19.8" / "bin").mkdir(parents=True)
    for name in ("one", "two"):
        (lay.cluster_dir(name) / "node-0" / "data").mkdir(parents=True)
        lay.info_file(name).parent.mkdir(parents=True, exist_ok=True)
        lay.info_file(name).write_text(json.dumps({"name": name, "pids": []}))

    removed = clean("one", environ=env)
    assert set(removed) == {lay.cluster_dir("one"), lay.info_file("one")}
    assert lay.info_file("two").exists() and lay.cluster_dir("two").exists()

    proc = langmem_es("es", "clean", "--keep-download", home=home)
    assert proc.returncode == 0, proc.stderr
    assert "removed:" in proc.stdout
    assert files_under(home) == [lay.downloads, lay.downloads / "elasticsearch-8.19.8.zip"]
    assert lay.runtime == home or not lay.runtime.exists()

    proc = langmem_es("es", "clean", home=home)
    assert proc.returncode == 0 and not lay.downloads.exists()
    assert langmem_es("es", "clean", home=home).stdout.strip() == "nothing to remove"


def test_es_clean_refuses_a_running_cluster(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "clusters").mkdir(parents=True)
    # a process whose command line says elasticsearch: what `start` records as a node
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "elasticsearch"])
    try:
        (home / "clusters" / "live.json").write_text(json.dumps({"name": "live", "pids": [proc.pid]}))
        with pytest.raises(Exception, match="still running.*es stop --name live"):
            clean(environ={"LANGMEM_ES_HOME": str(home)})
        assert (home / "clusters" / "live.json").exists()
    finally:
        proc.kill()
        proc.wait()


# --------------------------------------------------------------------------- paths


def test_decay_refuses_a_missing_directory(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent" / "dir" / "x.db"
    for extra in ([], ["--dry-run"]):
        line = one_line_error(
            langmem_es("decay", "--tenant", "acme", "--sqlite", str(missing), *extra, home=tmp_path / "home"),
            "ConfigurationError",
        )
        assert "--create" in line
    assert not (tmp_path / "nonexistent").exists()


def test_decay_refuses_a_missing_database_unless_create(tmp_path: Path) -> None:
    db = tmp_path / "typo.db"
    one_line_error(
        langmem_es("decay", "--tenant", "acme", "--sqlite", str(db), home=tmp_path / "home"), "ConfigurationError"
    )
    assert not db.exists()
    proc = langmem_es(
        "decay",
        "--tenant",
        "acme",
        "--sqlite",
        str(tmp_path / "new" / "m.db"),
        "--create",
        "--json",
        home=tmp_path / "home",
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["tenant"] == "acme"


def test_demo_refuses_a_missing_directory(tmp_path: Path) -> None:
    missing = tmp_path / "nope" / "demo.db"
    line = one_line_error(langmem_es("demo", "--path", str(missing), home=tmp_path / "home"), "ConfigurationError")
    assert "does not exist" in line and "--create" in line
    assert not (tmp_path / "nope").exists()


def test_file_path_rules(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="is a directory"):
        file_path(str(tmp_path), create=False)
    made = file_path(str(tmp_path / "a" / "b" / "x.db"), create=True)
    assert made.parent.is_dir() and not made.exists()


# --------------------------------------------------------------------------- setup, doctor, bench


def test_setup_creates_the_tables_and_is_idempotent(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "memory.db"
    for _ in range(2):
        proc = langmem_es("setup", "--sqlite", str(db), "--json", home=tmp_path / "home")
        assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["capabilities"]["engine"] == "sqlite"
    with sqlite3.connect(db) as conn:
        tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
    assert any("semantic" in t for t in tables) and any("items" in t for t in tables)


def test_doctor_with_a_url_that_is_not_one(tmp_path: Path) -> None:
    line = one_line_error(
        langmem_es("doctor", home=tmp_path / "home", env={"LANGMEM_ES_URL": "not-a-url"}), "ConfigurationError"
    )
    assert "LANGMEM_ES_URL='not-a-url'" in line and "http://127.0.0.1:9200" in line


def test_bench_report_only_of_a_missing_or_foreign_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    line = one_line_error(
        langmem_es("bench", "--report-only", str(missing), home=tmp_path / "home"), "ConfigurationError"
    )
    assert "no such file" in line
    foreign = tmp_path / "other.json"
    foreign.write_text('{"hello": 1}')
    one_line_error(langmem_es("bench", "--report-only", str(foreign), home=tmp_path / "home"), "ConfigurationError")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert "is not JSON" in one_line_error(
        langmem_es("bench", "--report-only", str(broken), home=tmp_path / "home"), "ConfigurationError"
    )


# --------------------------------------------------------------------------- load


def test_load_says_when_it_caps_and_shows_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from langmem_es.backends.sqlite import SQLiteBackend
    from langmem_es.core import MemoryCore
    from langmem_es_cli import load

    monkeypatch.setattr(load, "MAX_SECONDS", 1.5)
    monkeypatch.setattr(load, "PROGRESS_EVERY", 0.5)
    lines: list[str] = []
    core = MemoryCore(SQLiteBackend(str(tmp_path / "l.db")), embeddings=load.fast_embed)
    core.setup()
    try:
        report = load.run_load(core, seconds=30, threads=2, tenants=3, progress=lines.append)
    finally:
        core.close()
    assert lines[0] == "load: --seconds 30 capped to 1.5 (the limits are 0..1.5)"
    assert any(ln.startswith("load: ") and " ops, " in ln for ln in lines[1:])
    assert report["seconds"] < 10 and report["ops"] > 0


# --------------------------------------------------------------------------- repository hygiene


def test_env_file_is_ignored_by_git() -> None:
    assert ".env" in (ROOT / ".gitignore").read_text().split()


def test_no_path_of_a_developer_machine_in_the_repository() -> None:
    import re

    listed = subprocess.run(["git", "ls-files"], capture_output=True, text=True, cwd=ROOT, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    machine = re.compile(r"(?<![\w.])/(?:work|root|home/\w+|Users/\w+)/")
    found = []
    for name in listed.stdout.splitlines():
        if name.endswith((".py", ".md", ".json", ".toml", ".yml", ".yaml", ".ipynb", ".sh")) or name == ".ci/run":
            path = ROOT / name
            if not path.is_file():
                continue
            text = path.read_text(errors="replace")
            found += [f"{name}: {m.group(0)}" for m in machine.finditer(text)]
    assert found == [], found


def test_saved_results_name_no_machine_path() -> None:
    for path in (ROOT / "docs" / "results").glob("*.json"):
        dataset = json.loads(path.read_text())["metadata"]["dataset"]
        assert "path" not in dataset and dataset["name"].endswith(".jsonl") and len(dataset["sha256"]) == 64


# --------------------------------------------------------------------------- the base install

_WITHOUT_EXTRAS = """
import importlib.abc, runpy, sys
BLOCKED = {"rich", "matplotlib", "langchain_elasticsearch", "langchain", "psutil", "sentence_transformers"}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (not in the base install)")
        return None
sys.meta_path.insert(0, Block())
sys.argv = ["langmem-es", *sys.argv[1:]]
runpy.run_module("langmem_es_cli.main", run_name="__main__")
"""


def test_demo_and_help_run_on_the_base_install(tmp_path: Path) -> None:
    """`pip install -e .` (no extras) runs the README's first command: the extras' packages are hidden here."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LANGMEM_ES")}
    env.update({"LANGMEM_ES_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)})

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", _WITHOUT_EXTRAS, *argv],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            cwd=tmp_path,
        )

    demo = run("demo")
    assert demo.returncode == 0, demo.stderr[-2000:]
    outcomes = demo.stdout.split("Scenario outcomes")[1]  # exit 0 already says every scenario passed
    assert outcomes.count("PASS") == 3 and "FAIL " not in outcomes
    assert "[bold" not in demo.stdout  # markup rendered away without rich
    for command in ("es", "doctor", "decay", "setup", "eval", "bench"):
        assert run(command, "--help").returncode == 0, command
