"""Run LangGraph's own store tests against langmem-es stores.

The tests come from the source distributions of the installed ``langgraph-checkpoint``
(``tests/test_store.py``, written against ``InMemoryStore``) and
``langgraph-checkpoint-sqlite`` (``tests/test_store.py``, against ``SqliteStore``),
downloaded with ``pip download --no-binary :all: --no-deps`` into a cache directory at
test time — never copied into this repository — and run unmodified in a pytest
subprocess with :mod:`lg_conformance_plugin` swapping our store in.

    python tests/langgraph_conformance/lg_conformance_runner.py --suite checkpoint --store es

(``--store`` one of ``sqlite``, ``es``, ``aes``; Elasticsearch from the environment or
the running local cluster ``default``.)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

SUITES = {"checkpoint": "langgraph-checkpoint", "checkpoint-sqlite": "langgraph-checkpoint-sqlite"}
STORES = {
    "sqlite": "SQLiteMemoryStore",
    "es": "ElasticsearchMemoryStore",
    "aes": "AsyncElasticsearchMemoryStore",
}
TEST_FILE = "tests/test_store.py"


class FetchError(RuntimeError):
    """The LangGraph test sources could not be obtained."""


def cache_dir() -> Path:
    """``$LANGMEM_ES_CONFORMANCE_CACHE`` or ``<tmp>/langmem-es-langgraph-tests``."""
    value = os.environ.get("LANGMEM_ES_CONFORMANCE_CACHE")
    return Path(value) if value else Path(tempfile.gettempdir()) / "langmem-es-langgraph-tests"


def installed_version(dist: str) -> str:
    try:
        return version(dist)
    except PackageNotFoundError as exc:
        raise FetchError(f"{dist} is not installed: pip install -e '.[test]'") from exc


def fetch_tests(dist: str, cache: Path | None = None) -> Path:
    """The unpacked sdist root of the installed version of ``dist`` (its ``tests/`` only)."""
    ver = installed_version(dist)
    cache = cache or cache_dir()
    root = cache / f"{dist}-{ver}"
    if (root / TEST_FILE).is_file():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{dist}-", dir=cache))
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-binary",
                ":all:",
                "--no-deps",
                "--disable-pip-version-check",
                "-q",
                "-d",
                str(work),
                f"{dist}=={ver}",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        archives = sorted(work.glob("*.tar.gz"))
        if proc.returncode != 0 or not archives:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            raise FetchError(f"pip download of the {dist}=={ver} sdist failed: {' | '.join(tail) or 'no archive'}")
        unpacked = work / "unpacked"
        _extract_tests(archives[0], unpacked)
        if not (unpacked / TEST_FILE).is_file():
            raise FetchError(f"the {dist}=={ver} sdist has no {TEST_FILE}")
        for name in ("pyproject.toml",):  # its pytest settings (asyncio_mode = auto)
            if not (unpacked / name).is_file():
                raise FetchError(f"the {dist}=={ver} sdist has no {name}")
        try:
            unpacked.rename(root)  # atomic: a concurrent run may have won, which is fine
        except OSError:
            if not (root / TEST_FILE).is_file():
                raise
        return root
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _extract_tests(archive: Path, dest: Path) -> None:
    """Extract ``<top>/tests/*`` and ``<top>/pyproject.toml`` only, refusing unsafe paths."""
    dest.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            parts = Path(member.name).parts
            if len(parts) < 2 or not member.isfile() or ".." in parts or Path(member.name).is_absolute():
                continue
            rel = Path(*parts[1:])
            if rel.parts[0] != "tests" and str(rel) != "pyproject.toml":
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            assert source is not None
            target.write_bytes(source.read())


@dataclass
class Outcome:
    """What one run of a suite against one store gave."""

    suite: str
    store: str
    returncode: int
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    deselected: int = 0
    failures: list[str] = field(default_factory=list)
    output: str = ""

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.failed and not self.errors and self.passed > 0

    def summary(self) -> str:
        return (
            f"{self.suite} on {STORES[self.store]}: {self.passed} passed, {self.failed} failed, "
            f"{self.errors} errors, {self.skipped} skipped, {self.deselected} deselected"
        )


def run_suite(suite: str, store: str, *, pytest_args: tuple[str, ...] = (), timeout: float = 1200) -> Outcome:
    """Run ``suite`` (a key of :data:`SUITES`) with ``store`` (a key of :data:`STORES`)."""
    if suite not in SUITES or store not in STORES:
        raise ValueError(f"suite is one of {sorted(SUITES)} and store one of {sorted(STORES)}")
    root = fetch_tests(SUITES[suite])
    junit = Path(tempfile.mkstemp(prefix="lgconf-", suffix=".xml")[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(HERE), *filter(None, [env.get("PYTHONPATH")])])
    env["LANGMEM_ES_CONFORMANCE_STORE"] = store
    env["LANGMEM_ES_CONFORMANCE_SUITE"] = suite
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        TEST_FILE,
        "-p",
        "lg_conformance_plugin",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "-o",
        "asyncio_default_fixture_loop_scope=function",
        "-q",
        "-rfE",
        "--tb=line",
        f"--junitxml={junit}",
        *pytest_args,
    ]
    try:
        proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=timeout)
        outcome = Outcome(suite, store, proc.returncode, output=proc.stdout + proc.stderr)
        _read_junit(junit, outcome)
    finally:
        junit.unlink(missing_ok=True)
    return outcome


def _read_junit(path: Path, outcome: Outcome) -> None:
    if path.stat().st_size == 0:
        return
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        kinds = {child.tag for child in case}
        if "failure" in kinds:
            outcome.failed += 1
            outcome.failures.append(f"FAILED {name}: {_message(case, 'failure')}")
        elif "error" in kinds:
            outcome.errors += 1
            outcome.failures.append(f"ERROR {name}: {_message(case, 'error')}")
        elif "skipped" in kinds:
            outcome.skipped += 1
        else:
            outcome.passed += 1
    for line in outcome.output.splitlines()[-5:]:  # "... N deselected ..." in pytest's last line
        for part in line.replace(",", " ").split(" deselected")[:-1]:
            words = part.split()
            if words and words[-1].isdigit():
                outcome.deselected = int(words[-1])


def _message(case: ET.Element, tag: str) -> str:
    node = case.find(tag)
    text = (node.get("message") if node is not None else "") or ""
    return text.strip().splitlines()[0][:300] if text.strip() else "(no message)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=sorted(SUITES), action="append")
    parser.add_argument("--store", choices=sorted(STORES), action="append")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args(argv)
    worst = 0
    for suite in args.suite or list(SUITES):
        for store in args.store or list(STORES):
            outcome = run_suite(suite, store, pytest_args=tuple(args.pytest_args))
            print(outcome.summary())
            for line in outcome.failures:
                print("  " + line)
            if not outcome.ok:
                worst = 1
                if not outcome.failures:
                    print(outcome.output[-3000:])
    return worst


if __name__ == "__main__":
    sys.exit(main())
