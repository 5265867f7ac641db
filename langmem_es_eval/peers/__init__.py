"""Peers: stores other people would pick instead of ours, measured side by side.

:mod:`.postgres` starts a private PostgreSQL with pgvector (from the ``pgserver`` wheel) and
opens LangGraph's ``PostgresStore`` on it; :mod:`.postgres_system` is that store as a system
of ``langmem-es eval``. ``langmem-es bench --peers postgres`` measures the same store through
:mod:`langmem_es_bench.postgres_target`. Everything here needs ``pip install 'langmem-es[peers]'``.
"""

from langmem_es_eval.peers.postgres import (
    INSTALL_HINT,
    LocalPostgres,
    PeerUnavailable,
    open_postgres_store,
    peer_installed,
    require_peer,
)

__all__ = ["INSTALL_HINT", "LocalPostgres", "PeerUnavailable", "open_postgres_store", "peer_installed", "require_peer"]
