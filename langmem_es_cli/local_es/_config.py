"""Pure parts of the local cluster: versions, layout, ports, elasticsearch.yml.

Nothing here starts a process or touches the network, so it is unit-tested directly.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from langmem_es.errors import PortInUseError

ES_VERSION = "8.19.8"
"""The Elasticsearch version fetched by default (and used by docker-compose.yml).

8.19 because langchain-elasticsearch 1.x needs the 8.19 Python client, and 8.19 runs
on JDK 17 (9.x needs JDK 21+)."""

MAVEN_GROUP = "org.elasticsearch.distribution.integ-test-zip"
MAVEN_ARTIFACT = "elasticsearch"
MIN_JAVA = 17
#: The newest JDK Elasticsearch 8.19.8 supports: the one its own distribution bundles.
MAX_JAVA = 25
DEFAULT_HTTP_PORT = 9200
DEFAULT_TRANSPORT_PORT = 9300
DEFAULT_HEAP = "512m"
LICENSES = ("basic", "trial")


def maven_coordinates(version: str = ES_VERSION) -> str:
    """``group:artifact:version:zip`` as ``mvn dependency:copy -Dartifact=`` wants it."""
    return f"{MAVEN_GROUP}:{MAVEN_ARTIFACT}:{version}:zip"


def zip_name(version: str = ES_VERSION) -> str:
    return f"{MAVEN_ARTIFACT}-{version}.zip"


@dataclass(frozen=True)
class PortRange:
    """Ports a node may bind: Elasticsearch takes the first free one of ``low..high``.

    >>> str(PortRange(9200, 9299)), str(PortRange(9250, 9250))
    ('9200-9299', '9250')
    """

    low: int
    high: int

    def __post_init__(self) -> None:
        if not 1 <= self.low <= self.high <= 65535:
            raise ValueError(f"bad port range {self.low}-{self.high}")

    @property
    def fixed(self) -> bool:
        return self.low == self.high

    def __str__(self) -> str:
        return str(self.low) if self.fixed else f"{self.low}-{self.high}"


DEFAULT_HTTP_RANGE = PortRange(DEFAULT_HTTP_PORT, DEFAULT_HTTP_PORT + 99)
DEFAULT_TRANSPORT_RANGE = PortRange(DEFAULT_TRANSPORT_PORT, DEFAULT_TRANSPORT_PORT + 99)


def _as_range(port: int | PortRange) -> PortRange:
    return port if isinstance(port, PortRange) else PortRange(port, port)


@dataclass(frozen=True)
class NodeSpec:
    """One node of a local cluster: the port ranges it may bind, and its directories."""

    index: int
    name: str
    http: PortRange
    transport: PortRange
    dir: Path

    @property
    def http_port(self) -> int:
        """The HTTP port when it is fixed (a range is bound by Elasticsearch: see ``ports_file``)."""
        if not self.http.fixed:
            raise ValueError(f"node {self.name} binds HTTP from {self.http}: read the port it bound")
        return self.http.low

    @property
    def transport_port(self) -> int:
        if not self.transport.fixed:
            raise ValueError(f"node {self.name} binds transport from {self.transport}: read the port it bound")
        return self.transport.low

    @property
    def seeds_file(self) -> Path:
        """The file seed provider's list (``unicast_hosts.txt``): re-read on every discovery round."""
        return self.config_dir / "unicast_hosts.txt"

    def ports_file(self, kind: str) -> Path:
        """Where the node writes the ``http`` or ``transport`` address it bound (``node.portsfile``)."""
        return self.logs_dir / f"{kind}.ports"

    @property
    def config_dir(self) -> Path:
        return self.dir / "config"

    @property
    def data_dir(self) -> Path:
        return self.dir / "data"

    @property
    def logs_dir(self) -> Path:
        return self.dir / "logs"

    @property
    def tmp_dir(self) -> Path:
        return self.dir / "tmp"

    @property
    def pid_file(self) -> Path:
        return self.dir / "es.pid"

    @property
    def stdout_file(self) -> Path:
        return self.logs_dir / "stdout.log"


@dataclass(frozen=True)
class ClusterSpec:
    """What `langmem-es es start` was asked to run."""

    name: str
    cluster_dir: Path
    nodes: tuple[NodeSpec, ...]
    version: str = ES_VERSION
    license: str = "basic"
    heap: str = DEFAULT_HEAP
    settings: dict = field(default_factory=dict)

    @property
    def url(self) -> str:
        """The first node's URL (its HTTP port must be fixed; else read what it bound)."""
        return f"http://127.0.0.1:{self.nodes[0].http_port}"

    @property
    def seed_hosts(self) -> list[str]:
        return [f"127.0.0.1:{n.transport_port}" for n in self.nodes]

    @property
    def cluster_name(self) -> str:
        return f"langmem-es-{self.name}"


def plan_cluster(
    name: str,
    cluster_dir: Path,
    http_ports: Sequence[int | PortRange],
    transport_ports: Sequence[int | PortRange],
    *,
    version: str = ES_VERSION,
    license: str = "basic",
    heap: str = DEFAULT_HEAP,
) -> ClusterSpec:
    """Lay out the nodes of cluster ``name`` under ``cluster_dir``."""
    if len(http_ports) != len(transport_ports):
        raise ValueError("one HTTP and one transport port per node")
    if len(http_ports) not in (1, 2, 3):
        raise ValueError("a local cluster has 1, 2 or 3 nodes")
    if license not in LICENSES:
        raise ValueError(f"license must be one of {LICENSES}, not {license!r}")
    nodes = tuple(
        NodeSpec(
            index=i,
            name=f"{name}-{i}",
            http=_as_range(h),
            transport=_as_range(t),
            dir=cluster_dir / f"node-{i}",
        )
        for i, (h, t) in enumerate(zip(http_ports, transport_ports, strict=False))
    )
    return ClusterSpec(
        name=name,
        cluster_dir=cluster_dir,
        nodes=nodes,
        version=version,
        license=license,
        heap=heap,
    )


def render_elasticsearch_yml(
    spec: ClusterSpec, node: NodeSpec, *, bootstrap: bool, seeds: Sequence[str] | None = None
) -> str:
    """The ``elasticsearch.yml`` of ``node``.

    ``bootstrap`` is True the first time a multi-node cluster starts: only then is
    ``cluster.initial_master_nodes`` written (Elasticsearch warns if it stays set).
    Ports are ranges Elasticsearch binds from (``node.portsfile`` makes it write what it
    bound); ``seeds`` are the transport addresses known when the node starts: those
    recorded at the last start (default: the fixed transport ports of every node).
    Multi-node clusters also read the file seed provider's list
    (:attr:`NodeSpec.seeds_file`), which the launcher rewrites as each node binds: the
    nodes, started side by side, learn one another's ports whichever of them holds the
    vote that elects the master.

    Security is on with TLS off on HTTP and transport. That is accepted because every
    node binds to 127.0.0.1: a loopback-bound node is in *development mode*, where
    the bootstrap check that asks for transport TLS with security on is only a
    warning. It is a developer/test cluster; never bind it to another address.
    """
    lines = [
        "# written by `langmem-es es start` - rewritten on every start",
        f"cluster.name: {spec.cluster_name}",
        f"node.name: {node.name}",
        f"path.data: {node.data_dir}",
        f"path.logs: {node.logs_dir}",
        "network.host: 127.0.0.1",
        f"http.port: {node.http}",
        f"transport.port: {node.transport}",
        "node.portsfile: true",
    ]
    if len(spec.nodes) == 1:
        lines.append("discovery.type: single-node")
    else:
        hosts = list(spec.seed_hosts if seeds is None else seeds)
        lines.append("discovery.seed_hosts: []" if not hosts else "discovery.seed_hosts:")
        lines += [f"  - {h}" for h in hosts]
        lines.append("discovery.seed_providers: file")
        # a node's start must not wait for a master that the others, still starting, elect with it
        lines.append("discovery.initial_state_timeout: 0s")
        if bootstrap:
            lines.append("cluster.initial_master_nodes:")
            lines += [f"  - {n.name}" for n in spec.nodes]
    lines += [
        "xpack.security.enabled: true",
        "xpack.security.http.ssl.enabled: false",
        "xpack.security.transport.ssl.enabled: false",
        # a dev cluster on a developer's disk: never go read-only at 95 % full
        "cluster.routing.allocation.disk.threshold_enabled: false",
        "action.destructive_requires_name: false",
    ]
    for key, value in spec.settings.items():
        lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"


def render_seeds_file(addresses: Iterable[str]) -> str:
    """The ``unicast_hosts.txt`` of a node: one ``host:port`` a line, each once, in order.

    >>> render_seeds_file(["127.0.0.1:9302", "127.0.0.1:9303", "127.0.0.1:9302"]).splitlines()
    ['# written by `langmem-es es start`', '127.0.0.1:9302', '127.0.0.1:9303']
    """
    return "\n".join(["# written by `langmem-es es start`", *dict.fromkeys(addresses)]) + "\n"


def prefer_ports(ranges: Sequence[PortRange], previous: Sequence[int | None] | None) -> list[PortRange]:
    """Each node's range, narrowed to start at the port it bound last time when that is in it.

    Elasticsearch binds the first free port of a range, so a restarted node gets its old
    port back when it is free (the other nodes' recorded seeds then still point at it),
    and the next free one otherwise. A fixed port, or one outside the range, stays as is.

    >>> [str(r) for r in prefer_ports([PortRange(9300, 9399)] * 2, [9302, None])]
    ['9302-9399', '9300-9399']
    """
    out = list(ranges)
    for i, (span, port) in enumerate(zip(ranges, previous or (), strict=False)):
        if port is not None and not span.fixed and span.low <= port <= span.high:
            out[i] = PortRange(port, span.high)
    return out


def java_opts(heap: str) -> str:
    """``ES_JAVA_OPTS`` for a fixed heap."""
    return f"-Xms{heap} -Xmx{heap}"


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    """True when ``host:port`` can be bound right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def plan_ports(nodes: int, port: str | int | None) -> tuple[list[PortRange], list[PortRange]]:
    """HTTP and transport port ranges per node for ``--port``.

    ``None``: every node binds from 9200-9299 (HTTP) and 9300-9399 (transport).
    ``"9250"``: node *i* binds exactly 9250+*i* (checked free now, so a taken port fails
    before any download). ``"9250-9260"``: every node binds from that range. A range
    with fewer free ports than nodes right now is a :class:`PortInUseError` at once too
    (Elasticsearch still binds the ports itself, so a port taken later is no surprise:
    it takes the next free one).

    >>> [str(r) for r in plan_ports(1, None)[0]], [str(r) for r in plan_ports(3, "9250")[0]]
    (['9200-9299'], ['9250', '9251', '9252'])
    """
    transport = [DEFAULT_TRANSPORT_RANGE] * nodes
    if port is None:
        http = [DEFAULT_HTTP_RANGE] * nodes
    else:
        low, _, high = str(port).partition("-")
        if not high:
            fixed = choose_ports(nodes, requested=int(low), prefer=int(low))
            _enough_free(DEFAULT_TRANSPORT_RANGE, nodes, "transport")
            return [PortRange(p, p) for p in fixed], transport
        span = PortRange(int(low), int(high))
        if span.high - span.low + 1 < nodes:
            raise ValueError(f"port range {span} is too small for {nodes} nodes")
        http = [span] * nodes
    _enough_free(http[0], nodes, "HTTP")
    _enough_free(DEFAULT_TRANSPORT_RANGE, nodes, "transport")
    return http, transport


def _enough_free(span: PortRange, nodes: int, kind: str) -> None:
    free = sum(port_free(p) for p in range(span.low, span.high + 1))
    if free < nodes:
        raise PortInUseError(
            f"{kind} ports {span} on 127.0.0.1: {free} free, {nodes} node(s) need one each "
            f"(choose another range with --port, or stop what listens there)"
        )


def choose_ports(
    count: int,
    *,
    requested: int | None,
    prefer: int,
    avoid: Iterable[int] = (),
    search_to: int = 400,
) -> list[int]:
    """``count`` consecutive free ports.

    With ``requested``, exactly ``requested..requested+count-1`` or
    :class:`PortInUseError`. Otherwise ``prefer..`` when free, else the next free
    run of ``count`` ports above it.
    """
    avoid = set(avoid)
    if requested is not None:
        ports = list(range(requested, requested + count))
        taken = [p for p in ports if p in avoid or not port_free(p)]
        if taken:
            raise PortInUseError(
                f"port {taken[0]} on 127.0.0.1 is already in use "
                f"(choose another with --port, or stop what listens there)"
            )
        return ports
    start = prefer
    while start < prefer + search_to:
        ports = list(range(start, start + count))
        if all(p not in avoid and port_free(p) for p in ports):
            return ports
        start += 1
    raise PortInUseError(f"no {count} free consecutive ports in {prefer}..{prefer + search_to}")
