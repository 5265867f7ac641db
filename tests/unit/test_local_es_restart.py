"""A restarted multi-node local cluster re-forms: every node can find every other one.

The failure this guards against: a 2-node cluster's voting configuration holds one
node. If that node is started second, it elects itself at once and, being master,
stops searching for peers; the node started first, seeded with nothing, never finds
it and the cluster stays at one node (a ``HealthTimeoutError`` on restart). So each
node is seeded with the transport addresses recorded at the last start, and every
node's seeds file is rewritten as each node binds. The nodes start side by side.

The launcher runs here against a fake ``bin/elasticsearch`` that binds nothing but
writes the ports files the real one writes, and keeps a copy of the seeds it was
started with. It starts only once every node's launcher has been run (it waits for
the others' marks), so a launcher that started the nodes one after another fails.
"""

from __future__ import annotations

import stat
from pathlib import Path

import yaml

from langmem_es_cli.local_es import PortRange, plan_cluster, render_elasticsearch_yml
from langmem_es_cli.local_es._config import prefer_ports, render_seeds_file
from langmem_es_cli.local_es._fetch import Java
from langmem_es_cli.local_es._nodes import recorded_seeds
from langmem_es_cli.local_es._processes import launch as _launch
from langmem_es_local.runtime import RunAs

# `elasticsearch -d -p PIDFILE`: "bind" the first port of each configured range
FAKE_ES = r"""#!/bin/sh
yml="$ES_PATH_CONF/elasticsearch.yml"
logs=$(sed -n 's/^path.logs: //p' "$yml")
http=$(sed -n 's/^http.port: \([0-9]*\).*/\1/p' "$yml")
transport=$(sed -n 's/^transport.port: \([0-9]*\).*/\1/p' "$yml")
cp "$ES_PATH_CONF/unicast_hosts.txt" "$logs/seeds-at-start.txt"
touch "$logs/../../launched-$transport"
n=0
while [ "$(ls "$logs/../.." | grep -c '^launched-')" -lt "$FAKE_NODES" ]; do
  n=$((n + 1)); [ "$n" -gt 100 ] && exit 1; sleep 0.1
done
echo "127.0.0.1:$http" > "$logs/http.ports"
echo "127.0.0.1:$transport" > "$logs/transport.ports"
echo $$ > "$3"
"""


def fake_dist(root: Path) -> Path:
    exe = root / "bin" / "elasticsearch"
    exe.parent.mkdir(parents=True)
    exe.write_text(FAKE_ES)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return root


def seeds_in(path: Path) -> list[str]:
    return [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]


def test_a_restarted_node_prefers_the_ports_it_bound_last_time() -> None:
    ranges = [PortRange(9300, 9399)] * 3
    assert prefer_ports(ranges, [9305, 9306, None]) == [PortRange(9305, 9399), PortRange(9306, 9399), ranges[2]]
    assert prefer_ports(ranges, None) == ranges
    assert prefer_ports([PortRange(9250, 9250)], [9300]) == [PortRange(9250, 9250)]  # a fixed --port wins
    assert prefer_ports([PortRange(9250, 9260)], [9300]) == [PortRange(9250, 9260)]  # outside the range: ignored


def test_recorded_seeds_come_from_the_state_file() -> None:
    assert recorded_seeds({"transport_ports": [9302, 9303]}) == ["127.0.0.1:9302", "127.0.0.1:9303"]
    assert recorded_seeds(None) == [] and recorded_seeds({}) == []
    assert render_seeds_file(["a:1", "b:2", "a:1"]).splitlines()[1:] == ["a:1", "b:2"]


def test_multi_node_yml_reads_the_seeds_file_and_bootstraps_only_once(tmp_path: Path) -> None:
    spec = plan_cluster("duo", tmp_path, [PortRange(9200, 9299)] * 2, [PortRange(9300, 9399)] * 2)
    first = yaml.safe_load(render_elasticsearch_yml(spec, spec.nodes[0], bootstrap=True, seeds=[]))
    assert first["discovery.seed_providers"] == "file"
    assert first["cluster.initial_master_nodes"] == ["duo-0", "duo-1"]
    again = yaml.safe_load(render_elasticsearch_yml(spec, spec.nodes[0], bootstrap=False, seeds=["127.0.0.1:9303"]))
    assert again["discovery.seed_hosts"] == ["127.0.0.1:9303"]
    assert "cluster.initial_master_nodes" not in again
    single = plan_cluster("one", tmp_path, [9200], [9300])
    assert "seed_providers" not in render_elasticsearch_yml(single, single.nodes[0], bootstrap=False)


def test_nodes_start_side_by_side_each_seeded_with_the_addresses_recorded_last_time(tmp_path: Path) -> None:
    dist = fake_dist(tmp_path / "dist")
    java = Java(home=tmp_path / "jdk", major=17, version="17")
    # last start: node 0 bound 9312, node 1 bound 9313; node 0 now gets 9312 again, node 1 must move
    transport = prefer_ports([PortRange(9300, 9399)] * 2, [9312, 9320])
    spec = plan_cluster("duo", tmp_path / "c", [PortRange(9200, 9299)] * 2, transport)
    for node in spec.nodes:
        for d in (node.config_dir, node.logs_dir):
            d.mkdir(parents=True)
    recorded = recorded_seeds({"transport_ports": [9312, 9313]})

    # both nodes are launched before either has started (the fake waits for both marks)
    _pids, _http, bound = _launch(spec, dist, java, RunAs(user="me"), {"FAKE_NODES": "2"}, None, 30, recorded)

    assert bound == [9312, 9320]
    # each node started knowing where the others were last time ...
    for node in spec.nodes:
        assert seeds_in(node.logs_dir / "seeds-at-start.txt") == ["127.0.0.1:9312", "127.0.0.1:9313"]
        yml = yaml.safe_load(node.config_dir.joinpath("elasticsearch.yml").read_text())
        assert yml["discovery.seed_hosts"] == ["127.0.0.1:9312", "127.0.0.1:9313"]
    # ... and, as the second bound another port, every node's seeds file now names it
    for node in spec.nodes:
        assert seeds_in(node.seeds_file)[:2] == ["127.0.0.1:9312", "127.0.0.1:9320"]
