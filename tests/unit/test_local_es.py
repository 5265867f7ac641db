"""Config generation and error paths of `langmem-es es` (no server is started)."""

from __future__ import annotations

import json
import os
import socket
import stat
import zipfile
from pathlib import Path

import pytest
import yaml

from langmem_es import settings
from langmem_es.errors import (
    ClusterUnavailableError,
    DownloadError,
    ElasticsearchStartError,
    JavaNotFoundError,
    LangmemEsError,
    MavenNotFoundError,
    NotEnoughDiskError,
    PortInUseError,
)
from langmem_es_cli import main as cli
from langmem_es_cli.local_es import (
    ES_VERSION,
    _fetch,
    choose_ports,
    download_zip,
    find_java,
    maven_coordinates,
    plan_cluster,
    render_elasticsearch_yml,
    unpack,
)
from langmem_es_cli.local_es._fetch import check_disk, java_major


@pytest.fixture
def listening_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    yield s.getsockname()[1]
    s.close()


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    monkeypatch.setenv("LANGMEM_ES_HOME", str(h))
    return h


def fake_tool(bin_dir: Path, name: str, script: str) -> Path:
    bin_dir.mkdir(parents=True, exist_ok=True)
    p = bin_dir / name
    p.write_text("#!/bin/sh\n" + script + "\n")
    p.chmod(p.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return p


# --------------------------------------------------------------------------- config


def test_version_and_coordinates():
    assert ES_VERSION == "8.19.8"
    assert maven_coordinates() == ("org.elasticsearch.distribution.integ-test-zip:elasticsearch:8.19.8:zip")


def test_single_node_yml(tmp_path):
    spec = plan_cluster("default", tmp_path / "c", [9200], [9300])
    node = spec.nodes[0]
    cfg = yaml.safe_load(render_elasticsearch_yml(spec, node, bootstrap=False))
    assert cfg["cluster.name"] == "langmem-es-default"
    assert cfg["node.name"] == "default-0"
    assert cfg["network.host"] == "127.0.0.1"
    assert cfg["http.port"] == 9200 and cfg["transport.port"] == 9300
    assert cfg["discovery.type"] == "single-node"
    assert "cluster.initial_master_nodes" not in cfg
    assert cfg["path.data"] == str(tmp_path / "c" / "node-0" / "data")
    assert cfg["path.logs"] == str(tmp_path / "c" / "node-0" / "logs")
    assert cfg["xpack.security.enabled"] is True
    assert cfg["xpack.security.http.ssl.enabled"] is False
    assert cfg["xpack.security.transport.ssl.enabled"] is False
    assert spec.url == "http://127.0.0.1:9200"


def test_three_node_yml_bootstrap_then_restart(tmp_path):
    spec = plan_cluster("trio", tmp_path, [9200, 9201, 9202], [9300, 9301, 9302])
    assert [n.name for n in spec.nodes] == ["trio-0", "trio-1", "trio-2"]
    assert len({n.dir for n in spec.nodes}) == 3
    for node in spec.nodes:
        first = yaml.safe_load(render_elasticsearch_yml(spec, node, bootstrap=True))
        assert "discovery.type" not in first
        assert first["discovery.seed_hosts"] == ["127.0.0.1:9300", "127.0.0.1:9301", "127.0.0.1:9302"]
        assert first["cluster.initial_master_nodes"] == ["trio-0", "trio-1", "trio-2"]
        assert first["http.port"] == 9200 + node.index
        assert first["network.host"] == "127.0.0.1"  # loopback = dev mode, see docstring
        again = yaml.safe_load(render_elasticsearch_yml(spec, node, bootstrap=False))
        assert "cluster.initial_master_nodes" not in again


@pytest.mark.parametrize(
    "http,transport,lic",
    [
        ([9200, 9201, 9202, 9203], [9300, 9301, 9302, 9303], "basic"),  # 4 nodes
        ([9200], [9300, 9301], "basic"),  # mismatch
        ([9200], [9300], "gold"),  # licence
    ],
)
def test_plan_rejects(tmp_path, http, transport, lic):
    with pytest.raises(ValueError):
        plan_cluster("x", tmp_path, http, transport, license=lic)


def test_java_opts_heap():
    from langmem_es_cli.local_es._config import java_opts

    assert java_opts("512m") == "-Xms512m -Xmx512m"


# --------------------------------------------------------------------------- ports


def test_requested_port_in_use(listening_port):
    with pytest.raises(PortInUseError, match=str(listening_port)):
        choose_ports(1, requested=listening_port, prefer=9200)


def test_requested_range_partly_in_use(listening_port):
    with pytest.raises(PortInUseError):
        choose_ports(3, requested=listening_port - 1, prefer=9200)


def test_preferred_port_skipped_when_busy(listening_port):
    ports = choose_ports(1, requested=None, prefer=listening_port)
    assert ports[0] != listening_port and ports[0] > listening_port


def test_avoid_list_is_respected():
    free = choose_ports(2, requested=None, prefer=20000)
    again = choose_ports(2, requested=None, prefer=20000, avoid=free)
    assert not set(free) & set(again)


# --------------------------------------------------------------------------- java


@pytest.mark.parametrize("v,major", [("17.0.15", 17), ("1.8.0_392", 8), ("25", 25), ("21-ea", 21)])
def test_java_major(v, major):
    assert java_major(v) == major


def test_no_java_at_all(tmp_path):
    env = {"PATH": str(tmp_path / "empty")}
    with pytest.raises(JavaNotFoundError, match="no Java found"):
        find_java(env, jvm_dirs=())


def test_java_too_old(tmp_path):
    fake_tool(tmp_path / "bin", "java", "echo 'openjdk version \"11.0.2\" 2019-01-15' >&2")
    env = {"PATH": str(tmp_path / "bin")}
    with pytest.raises(JavaNotFoundError, match="11.0.2"):
        find_java(env, jvm_dirs=())


def test_java_from_env_home(tmp_path):
    jdk = tmp_path / "jdk"
    fake_tool(jdk / "bin", "java", "echo 'openjdk version \"17.0.9\" 2023-10-17' >&2")
    java = find_java({"PATH": "", "LANGMEM_ES_JAVA_HOME": str(jdk)}, jvm_dirs=())
    assert java.major == 17 and java.home == jdk.resolve()


def _jdk(root, name, version):
    fake_tool(root / name / "bin", "java", f"echo 'openjdk version \"{version}\" 2026-01-20' >&2")
    return root / name


def test_newest_supported_java_is_chosen(tmp_path):
    """Elasticsearch bundles the newest JDK it supports; only from 21 on does it search vectors with SIMD."""
    jvm = tmp_path / "jvm"
    _jdk(tmp_path, "path-jdk", "17.0.15")
    for name, version in [("a-17", "17.0.15"), ("b-25", "25.0.3"), ("c-21", "21.0.8"), ("d-26", "26")]:
        _jdk(jvm, name, version)
    env = {"PATH": str(tmp_path / "path-jdk" / "bin")}
    java = find_java(env, jvm_dirs=[str(jvm)])
    assert java.major == 25 and java.home == (jvm / "b-25").resolve()  # 26 is past what 8.19.8 supports


def test_a_named_java_wins_over_a_newer_one(tmp_path):
    jvm = tmp_path / "jvm"
    _jdk(jvm, "b-25", "25.0.3")
    named = _jdk(tmp_path, "mine", "17.0.9")
    java = find_java({"PATH": "", "ES_JAVA_HOME": str(named)}, jvm_dirs=[str(jvm)])
    assert java.major == 17 and java.home == named.resolve()


# --------------------------------------------------------------------------- fetch


def test_no_maven(tmp_path):
    with pytest.raises(MavenNotFoundError, match="mvn"):
        download_zip(tmp_path / "dl", environ={"PATH": str(tmp_path / "empty")})


def make_zip(path: Path, version: str = ES_VERSION) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        info = zipfile.ZipInfo(f"elasticsearch-{version}/bin/elasticsearch")
        info.external_attr = (0o755 | stat.S_IFREG) << 16
        zf.writestr(info, "#!/bin/sh\n")
        zf.writestr(f"elasticsearch-{version}/modules/x-pack-core/a.jar", "x")
        zf.writestr(f"elasticsearch-{version}/config/elasticsearch.yml", "")
    return path


def test_cached_zip_needs_no_maven(tmp_path):
    dl = tmp_path / "dl"
    make_zip(dl / f"elasticsearch-{ES_VERSION}.zip")
    said: list[str] = []
    path, cached = download_zip(dl, environ={"PATH": ""}, progress=said.append)
    assert cached and path.is_file()
    assert any("cached" in s for s in said)


def test_download_failure(tmp_path):
    fake_tool(tmp_path / "bin", "mvn", 'echo "[ERROR] Could not find artifact org.elasticsearch:x in central"; exit 1')
    with pytest.raises(DownloadError, match="Could not find artifact"):
        download_zip(tmp_path / "dl", environ={"PATH": str(tmp_path / "bin")})


def test_download_success_with_fake_mvn(tmp_path):
    src = make_zip(tmp_path / "src" / f"elasticsearch-{ES_VERSION}.zip")
    # the fake mvn copies the zip to -DoutputDirectory=...
    fake_tool(
        tmp_path / "bin",
        "mvn",
        f'''
for a in "$@"; do case "$a" in -DoutputDirectory=*) out="${{a#-DoutputDirectory=}}";; esac; done
echo "[INFO] Copying elasticsearch-{ES_VERSION}.zip to $out"
/bin/cp "{src}" "$out/"''',
    )
    said: list[str] = []
    path, cached = download_zip(tmp_path / "dl", environ={"PATH": str(tmp_path / "bin")}, progress=said.append)
    assert not cached and path.is_file()
    assert any("Copying" in s for s in said)


def test_unpack_keeps_exec_bit_and_is_idempotent(tmp_path):
    z = make_zip(tmp_path / "x.zip")
    dest = unpack(z, tmp_path / "dist")
    es = dest / "bin" / "elasticsearch"
    assert os.access(es, os.X_OK)
    assert unpack(z, tmp_path / "dist") == dest
    assert _fetch.modules_in(dest) == ["x-pack-core"]


def test_not_enough_disk(tmp_path):
    with pytest.raises(NotEnoughDiskError, match="MiB needed"):
        check_disk(tmp_path, 1 << 60, "unpack Elasticsearch")


def test_unpack_checks_disk(tmp_path, monkeypatch):
    z = make_zip(tmp_path / "x.zip")
    monkeypatch.setattr(_fetch, "RUN_HEADROOM", 1 << 60)
    with pytest.raises(NotEnoughDiskError):
        unpack(z, tmp_path / "dist")


def test_error_tree():
    for exc in (JavaNotFoundError, MavenNotFoundError, DownloadError, NotEnoughDiskError, PortInUseError):
        assert issubclass(exc, ElasticsearchStartError)
    assert issubclass(ElasticsearchStartError, LangmemEsError)
    assert issubclass(ClusterUnavailableError, LangmemEsError)


# --------------------------------------------------------------------------- CLI


def run_cli(argv, capsys):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code, err, typename):
    assert code == 2
    lines = err.strip().splitlines()  # progress lines may come first
    errors = [ln for ln in lines if ln.startswith("langmem-es: error:")]
    assert errors == [lines[-1]], err
    assert lines[-1].startswith(f"langmem-es: error: {typename}: ")
    assert "Traceback" not in err


def test_cli_port_in_use(home, listening_port, capsys):
    code, out, err = run_cli(["es", "start", "--port", str(listening_port)], capsys)
    assert_one_line_error(code, err, "PortInUseError")


def test_cli_missing_java(home, tmp_path, monkeypatch, capsys):
    for var in ("JAVA_HOME", "ES_JAVA_HOME", "LANGMEM_ES_JAVA_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(_fetch, "JVM_DIRS", ())
    code, out, err = run_cli(["es", "start"], capsys)
    assert_one_line_error(code, err, "JavaNotFoundError")


def test_cli_missing_maven(home, tmp_path, monkeypatch, capsys):
    jdk = tmp_path / "jdk"
    fake_tool(jdk / "bin", "java", "echo 'openjdk version \"17.0.9\" 2023-10-17' >&2")
    monkeypatch.setenv("LANGMEM_ES_JAVA_HOME", str(jdk))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    code, out, err = run_cli(["es", "start"], capsys)
    assert_one_line_error(code, err, "MavenNotFoundError")


def test_cli_status_and_stop_when_never_started(home, capsys):
    code, out, _ = run_cli(["es", "status"], capsys)
    assert code == 1 and "not running" in out
    code, out, _ = run_cli(["es", "stop"], capsys)
    assert code == 0 and "not running" in out


def test_cli_env_without_cluster(home, capsys):
    code, out, err = run_cli(["es", "env", "--name", "nope"], capsys)
    assert_one_line_error(code, err, "ClusterUnavailableError")


def write_info(home: Path, name: str, pids: list[int]) -> None:
    f = home / "clusters" / f"{name}.json"
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(
        json.dumps(
            {"name": name, "url": "http://127.0.0.1:9999", "user": "elastic", "password": "pw-x_y", "pids": pids}
        )
    )


def test_cli_env_prints_exports(home, capsys):
    write_info(home, "trial", [])
    code, out, _ = run_cli(["es", "env", "--name", "trial", "--prefix", "LANGMEM_ES_TRIAL"], capsys)
    assert code == 0
    assert out.splitlines() == [
        "export LANGMEM_ES_TRIAL_URL=http://127.0.0.1:9999",
        "export LANGMEM_ES_TRIAL_USER=elastic",
        "export LANGMEM_ES_TRIAL_PASSWORD=pw-x_y",
    ]


def test_cli_has_es_group_and_registry():
    parser = cli.build_parser()
    ns = parser.parse_args(["es", "start", "--nodes", "3", "--license", "trial"])
    assert ns.nodes == 3 and ns.license == "trial" and ns.heap == "512m"
    assert ns.version == ES_VERSION and ns.name == "default"
    with pytest.raises(SystemExit):
        parser.parse_args(["es", "start", "--nodes", "4"])
    assert cli.add_es_commands in cli._GROUPS


# --------------------------------------------------------------------------- settings


def test_settings_defaults(tmp_path):
    s = settings.load_settings({"HOME": str(tmp_path)})
    assert s.url is None and s.user == "elastic" and s.password is None
    s = settings.load_settings(
        {"LANGMEM_ES_URL": "http://h:1", "LANGMEM_ES_PASSWORD": "p", "LANGMEM_ES_HOME": str(tmp_path)}
    )
    assert s.url == "http://h:1" and s.password == "p" and s.home == tmp_path


def test_connection_from_env_variables():
    env = {
        "LANGMEM_ES_URL": "http://a:9200",
        "LANGMEM_ES_PASSWORD": "pw",
        "LANGMEM_ES_TRIAL_URL": "http://b:9200",
        "LANGMEM_ES_TRIAL_API_KEY": "k==",
    }
    c = settings.connection_from_env(environ=env)
    assert c.url == "http://a:9200" and c.user == "elastic" and c.source == "env"
    assert c.client_kwargs() == {"hosts": ["http://a:9200"], "basic_auth": ("elastic", "pw")}
    t = settings.connection_from_env("trial", environ=env)
    assert t.client_kwargs() == {"hosts": ["http://b:9200"], "api_key": "k=="}
    assert t.as_env("LANGMEM_ES_TRIAL")["LANGMEM_ES_TRIAL_URL"] == "http://b:9200"


def test_connection_falls_back_to_running_local_cluster(tmp_path):
    env = {"LANGMEM_ES_HOME": str(tmp_path)}
    assert settings.connection_from_env(environ=env) is None
    write_info(tmp_path, "default", [os.getpid()])
    c = settings.connection_from_env(environ=env)
    assert c is not None and c.source == "local:default" and c.password == "pw-x_y"


def test_connection_ignores_stopped_local_cluster(tmp_path):
    env = {"LANGMEM_ES_HOME": str(tmp_path)}
    write_info(tmp_path, "default", [])
    assert settings.connection_from_env(environ=env) is None
    with pytest.raises(ClusterUnavailableError, match="LANGMEM_ES_URL"):
        settings.require_connection(environ=env)


def test_env_prefix():
    assert settings.env_prefix() == "LANGMEM_ES"
    assert settings.env_prefix("trial") == "LANGMEM_ES_TRIAL"
    assert settings.env_prefix("my-es") == "LANGMEM_ES_MY_ES"


# --------------------------------------------------------------------------- health


def test_health_timeout_carries_log_tail(tmp_path):
    from langmem_es.errors import HealthTimeoutError
    from langmem_es_cli.local_es._health import wait_health as _wait_health

    port = choose_ports(1, requested=None, prefer=29200)[0]  # nothing listens there
    spec = plan_cluster("slow", tmp_path, [port], [port + 1])
    node = spec.nodes[0]
    node.logs_dir.mkdir(parents=True)
    (node.logs_dir / f"{spec.cluster_name}.log").write_text("\n".join(f"log line {i}" for i in range(30)) + "\n")
    with pytest.raises(HealthTimeoutError) as err:
        _wait_health(spec, "pw", pids=[], timeout=1.0, progress=None)
    msg = str(err.value)
    assert "after 1s" in msg
    assert "log line 29" in msg and "log line 10" in msg and "log line 9\n" not in msg


def test_health_dead_process_fails_fast(tmp_path):
    from langmem_es.errors import HealthTimeoutError
    from langmem_es_cli.local_es._health import wait_health as _wait_health

    port = choose_ports(1, requested=None, prefer=29300)[0]
    spec = plan_cluster("dead", tmp_path, [port], [port + 1])
    with pytest.raises(HealthTimeoutError, match="died"):
        _wait_health(spec, "pw", pids=[2**22 + 12345], timeout=60.0, progress=None)
