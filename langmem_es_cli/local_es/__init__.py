"""A real Elasticsearch on demand, without Docker.

Fetches Elastic's runnable test distribution
(``org.elasticsearch.distribution.integ-test-zip:elasticsearch:<version>:zip``) from
Maven Central with ``mvn dependency:copy`` once into ``$LANGMEM_ES_HOME/downloads``,
unpacks it, and runs one to three nodes on 127.0.0.1 with security on and a generated
``elastic`` password. ``langmem-es es start|stop|status|env`` is the CLI over this.

>>> from langmem_es_cli.local_es import ES_VERSION, maven_coordinates
>>> maven_coordinates(ES_VERSION)
'org.elasticsearch.distribution.integ-test-zip:elasticsearch:8.19.8:zip'
"""

from langmem_es_cli.local_es._cluster import clean, cluster_status, list_clusters, start_cluster, stop_cluster
from langmem_es_cli.local_es._config import (
    DEFAULT_HEAP,
    ES_VERSION,
    MIN_JAVA,
    ClusterSpec,
    NodeSpec,
    PortRange,
    choose_ports,
    maven_coordinates,
    plan_cluster,
    plan_ports,
    port_free,
    render_elasticsearch_yml,
)
from langmem_es_cli.local_es._fetch import check_disk, download_zip, find_java, find_maven, modules_in, unpack
from langmem_es_cli.local_es._state import read_info
from langmem_es_local.runtime import ES_SYSTEM_USER, Layout, layout

__all__ = [
    "DEFAULT_HEAP",
    "ES_SYSTEM_USER",
    "ES_VERSION",
    "MIN_JAVA",
    "ClusterSpec",
    "Layout",
    "NodeSpec",
    "PortRange",
    "check_disk",
    "clean",
    "choose_ports",
    "cluster_status",
    "download_zip",
    "find_java",
    "find_maven",
    "layout",
    "list_clusters",
    "maven_coordinates",
    "modules_in",
    "plan_cluster",
    "plan_ports",
    "port_free",
    "read_info",
    "render_elasticsearch_yml",
    "start_cluster",
    "stop_cluster",
    "unpack",
]
