"""The PostgresStore peer for real: a private PostgreSQL with pgvector started by the tools,
a put/search round trip, the ``postgres`` system of ``langmem-es eval`` and ``langmem-es bench
--smoke --peers postgres``. Needs ``langmem-es[peers]`` (in the test extra)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings

from langmem_es_eval.peers import postgres as pg_mod
from langmem_es_eval.peers.postgres import LocalPostgres, PeerUnavailable, open_postgres_store, peer_installed
from tests.fixtures.embed import bag_of_words

pytestmark = pytest.mark.skipif(not peer_installed(), reason="pip install 'langmem-es[peers]'")

DIMS = 384


class BagOfWords(Embeddings):
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return bag_of_words(texts, DIMS)

    def embed_query(self, text: str) -> list[float]:
        return bag_of_words([text], DIMS)[0]


@pytest.fixture(scope="module")
def server():
    with LocalPostgres() as pg:
        yield pg


def test_server_starts_with_pgvector_and_stops_clean() -> None:
    pg = LocalPostgres().start()
    run_dir, proc = pg.dir, pg._proc
    assert run_dir is not None and run_dir.is_dir() and proc is not None
    assert "pgvector" in pg.version
    pg.stop()
    assert proc.poll() is not None and not run_dir.exists()
    pg.stop()  # idempotent


def test_put_search_round_trip(server: LocalPostgres) -> None:
    uri = server.create_database("test")
    try:
        with open_postgres_store(uri, BagOfWords(), dims=DIMS) as store:
            ns = ("t", "a")
            store.put(ns, "k1", {"text": "the beagle is named Pixel"})
            store.put(ns, "k2", {"text": "the bakery sells rye sourdough"})
            store.put(("t", "b"), "k3", {"text": "the beagle next door"})
            assert store.get(ns, "k1").value == {"text": "the beagle is named Pixel"}
            hits = store.search(ns, query="what is the beagle named", limit=5)
            assert [h.key for h in hits][0] == "k1" and {h.key for h in hits} == {"k1", "k2"}  # other namespace out
        assert server.database_bytes(uri) > 0
    finally:
        server.drop_database(uri)


def test_missing_extra_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    real = pg_mod.importlib.util.find_spec
    monkeypatch.setattr(pg_mod.importlib.util, "find_spec", lambda n, *a: None if n == "pgserver" else real(n, *a))
    with pytest.raises(PeerUnavailable, match=r"pip install 'langmem-es\[peers\]'"):
        pg_mod.require_peer()
    from langmem_es_eval.registry import make_system
    from langmem_es_eval.systems import EvalContext, SystemUnavailable

    with pytest.raises(SystemUnavailable, match="langmem-es"):
        make_system("postgres", EvalContext())


def _dataset(path: Path) -> Path:
    facts = [
        ("Ann", "I adopted a beagle named Pixel last spring."),
        ("Bob", "Weekend plans: paddling on the lake."),
        ("Ann", "My sister lives in Lisbon and teaches chemistry."),
        ("Bob", "I finally fixed the bicycle gears yesterday."),
    ]
    conv = {
        "conv_id": "c1",
        "speakers": ["Ann", "Bob"],
        "sessions": [
            {
                "session_id": "session_1",
                "date_time": "1 May 2023",
                "timestamp": "2023-05-01T10:00:00",
                "turns": [{"turn_id": f"D1:{i + 1}", "speaker": s, "text": t} for i, (s, t) in enumerate(facts)],
            }
        ],
        "questions": [
            {"qid": "q1", "question": "What is the name of Ann's beagle?", "category": 4, "evidence": ["D1:1"]},
            {"qid": "q2", "question": "Where does Ann's sister teach chemistry?", "category": 1, "evidence": ["D1:3"]},
        ],
    }
    path.write_text(json.dumps(conv) + "\n")
    return path


def test_eval_system_ranks_like_dense(tmp_path: Path) -> None:
    from langmem_es_eval.baselines import DenseSystem
    from langmem_es_eval.locomo import load_dataset
    from langmem_es_eval.registry import make_system
    from langmem_es_eval.runner import run_eval
    from langmem_es_eval.systems import EvalContext

    data = _dataset(tmp_path / "mini.jsonl")
    context = EvalContext(embeddings_factory=BagOfWords)
    [conv] = load_dataset(data)
    system, dense = make_system("postgres", context), DenseSystem(context)
    try:
        system.index(conv)
        dense.index(conv)
        for q in conv.questions:
            ours, theirs = system.search(conv.conv_id, q.question, 3), dense.search(conv.conv_id, q.question, 3)
            assert set(ours) == set(theirs) and ours[0] == theirs[0] == q.evidence[0]
        assert "pgvector" in system.info["server"]  # type: ignore[attr-defined]
    finally:
        system.close()
    res = run_eval(data, ["postgres"], progress=False, context=context, print_report=False)
    assert not res["errors"] and res["systems"]["postgres"]["overall"]["recall@10"] == 1.0


def test_bench_smoke_with_postgres_peer(tmp_path: Path) -> None:
    from langmem_es_bench import cli

    out = tmp_path / "out"
    printed = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(printed):
        mp.setenv("LANGMEM_ES_BENCH_CACHE", str(tmp_path / "cache"))
        code = cli.main(
            ["--backend", "sqlite", "--smoke", "--no-competitors", "--peers", "postgres", "--out", str(out)]
        )
    assert code == 0, printed.getvalue()[-3000:]
    results = json.loads((out / "results.json").read_text())
    peer = results["systems"]["postgres"]
    assert {"ingest", "scale", "tenants"} <= set(peer) and "error" not in peer["scale"]
    assert [p["size"] for p in peer["scale"]["pre_recall"]] == [100, 300]
    points = results["peers"]["postgres"]["points"]
    assert [(p["size"], p["backend"]) for p in points] == [(100, "sqlite"), (300, "sqlite")]
    for p in points:
        assert p["pre_recall"]["postgres"]["n"] > 0 and p["write_visible"]["langmem_es"]["n"] > 0
    assert "peers side by side" in printed.getvalue() and "postgres's at every size" in printed.getvalue()


def test_server_runs_from_an_installation_its_account_cannot_reach(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A virtualenv in a folder closed to others (CI's ``mktemp -d``): run as the system user, the
    server runs from a copy of the bundled installation the tools make once."""
    import os
    import shutil

    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    wheel = pg_mod.postgres_bin().parent  # …/site-packages/pgserver/pginstall
    install = closed / "site" / "pgserver" / "pginstall"
    shutil.copytree(wheel, install, symlinks=True)
    if (wheel.parent.parent / "pgserver.libs").is_dir():  # the libraries the programs load, as the wheel lays them
        shutil.copytree(wheel.parent.parent / "pgserver.libs", closed / "site" / "pgserver.libs", symlinks=True)
    monkeypatch.setattr(pg_mod, "require_peer", lambda: install / "bin")
    server = LocalPostgres().start()
    try:
        if os.geteuid() == 0:  # as root the server runs as the langmem-es account: it needed the copy
            assert server.dir is not None and list(server.dir.parent.glob("pginstall-*"))
        assert "pgvector" in server.version
    finally:
        server.stop()
