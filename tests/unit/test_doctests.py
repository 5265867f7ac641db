"""Every docstring example of the shipped packages runs (docs are tests)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("langmem_es", "langmem_es_cli", "langmem_es_eval", "langmem_es_bench")


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        pkg = importlib.import_module(package)
        names.append(package)
        names += [
            m.name for m in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}.") if not m.name.endswith("__main__")
        ]
    return sorted(names)


MODULES = _modules()


def test_modules_found() -> None:
    assert {"langmem_es.embeddings", "langmem_es.core", "langmem_es_cli._checks"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
