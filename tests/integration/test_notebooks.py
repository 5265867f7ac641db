"""The notebooks run top to bottom (nbclient): 01 on the embedded backend, 02 and 03 on the real
Elasticsearch of the environment (``es_basic``: fails, never skips, in CI). Each notebook asserts
its own claims in its cells; they are committed with outputs cleared."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
ALL = ["01_quickstart.ipynb", "02_elasticsearch.ipynb", "03_multi_agent.ipynb"]


def execute(name: str) -> nbformat.NotebookNode:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return nb


def text_of(nb: nbformat.NotebookNode) -> str:
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            out.append(o.get("text") or str(o.get("data", {}).get("text/plain", "")))
    return "\n".join(out)


@pytest.mark.parametrize("name", ALL)
def test_committed_with_outputs_cleared(name: str) -> None:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: clear outputs before committing"


def test_quickstart_embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGMEM_ES_DEMO_MODEL", raising=False)
    out = text_of(execute("01_quickstart.ipynb"))
    assert "superseded" in out and "green Brompton" in out


@pytest.fixture
def es_prefix(es_basic: Any, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    from langmem_es.backends.elasticsearch import ElasticsearchBackend

    prefix = f"test-nb-{uuid.uuid4().hex[:10]}"
    monkeypatch.setenv("LANGMEM_ES_NOTEBOOK_PREFIX", prefix)
    monkeypatch.setenv("LANGMEM_ES_NOTEBOOK_BACKEND", "elasticsearch")
    yield prefix
    ElasticsearchBackend(es_basic, prefix=prefix).drop()  # whatever the notebook managed to clean up


def test_elasticsearch_notebook(es_prefix: str, es_basic: Any) -> None:
    out = text_of(execute("02_elasticsearch.ipynb"))
    assert "fusion:" in out and "as of the first write: Sam lives in Bristol." in out
    assert not es_basic.indices.get(index=f"{es_prefix}-*", allow_no_indices=True)  # the notebook dropped its indices


def test_multi_agent_notebook(es_prefix: str) -> None:
    out = text_of(execute("03_multi_agent.ipynb"))
    assert "support sees: No memories found." in out
    assert "CONFLICT open" in out and "resolved winner" in out
