"""Find a JDK, fetch the integ-test-zip with Maven, unpack it into the cache."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from langmem_es.errors import DownloadError, JavaNotFoundError, MavenNotFoundError, NotEnoughDiskError
from langmem_es_cli.local_es._config import ES_VERSION, MAX_JAVA, MIN_JAVA, maven_coordinates, zip_name
from langmem_es_local.runtime import Progress, report_progress

JVM_DIRS = ("/usr/lib/jvm",)
# room for the data/logs of a small dev cluster besides the unpacked files
RUN_HEADROOM = 512 * 1024 * 1024


@dataclass(frozen=True)
class Java:
    home: Path
    major: int
    version: str


_VERSION_RE = re.compile(r'version "([^"]+)"')


def java_major(version: str) -> int:
    """``"17.0.15"`` → 17, ``"1.8.0_392"`` → 8, ``"25"`` → 25."""
    parts = re.split(r"[._+-]", version)
    if parts[0] == "1" and len(parts) > 1:
        return int(parts[1])
    return int(parts[0])


def _probe_java(java_bin: Path) -> Java | None:
    try:
        out = subprocess.run([str(java_bin), "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = _VERSION_RE.search(out.stderr + out.stdout)
    if not m:
        return None
    try:
        major = java_major(m.group(1))
    except ValueError:
        return None
    return Java(home=java_bin.resolve().parent.parent, major=major, version=m.group(1))


def _java_candidates(environ: Mapping[str, str], jvm_dirs: Iterable[str]) -> tuple[list[Path], list[Path]]:
    """The JDKs named by the environment (in order), and the others found (``java`` on ``PATH``, ``jvm_dirs``)."""
    named = [
        Path(environ[v]) / "bin" / "java"
        for v in ("LANGMEM_ES_JAVA_HOME", "ES_JAVA_HOME", "JAVA_HOME")
        if environ.get(v)
    ]
    found: list[Path] = []
    on_path = shutil.which("java", path=environ.get("PATH", ""))
    if on_path:
        found.append(Path(on_path))
    for d in jvm_dirs:
        root = Path(d)
        if root.is_dir():
            found += sorted(p / "bin" / "java" for p in root.iterdir() if not p.is_symlink())
    return named, found


def find_java(
    environ: Mapping[str, str] | None = None,
    *,
    jvm_dirs: Iterable[str] | None = None,
    min_major: int = MIN_JAVA,
    max_major: int = MAX_JAVA,
) -> Java:
    """The JDK to run Elasticsearch on: ``min_major <= major <= max_major``.

    A JDK the environment names wins, in this order: ``$LANGMEM_ES_JAVA_HOME``,
    ``$ES_JAVA_HOME``, ``$JAVA_HOME``. Else the newest of ``java`` on ``PATH`` and
    ``/usr/lib/jvm/*``: Elasticsearch's own distribution bundles the newest it supports
    (JDK 25 for 8.19.8), and only from JDK 21 on does it search vectors with SIMD (Lucene's
    Panama vectorization and its native vector library; on 17 both are off, and a kNN search
    is slower). Raises :class:`JavaNotFoundError`.
    """
    env = os.environ if environ is None else environ
    seen: list[str] = []
    named, found = _java_candidates(env, JVM_DIRS if jvm_dirs is None else jvm_dirs)
    usable: list[Java] = []
    for cand in named + found:
        if not cand.is_file():
            continue
        java = _probe_java(cand)
        if java is None:
            continue
        if not min_major <= java.major <= max_major:
            seen.append(f"{java.home} ({java.version})")
        elif cand in named:
            return java
        else:
            usable.append(java)
    if usable:
        return max(usable, key=lambda j: j.major)  # the first found of the newest major
    if seen:
        raise JavaNotFoundError(
            f"no suitable JDK: Elasticsearch {ES_VERSION} needs Java {min_major}-{max_major}, "
            f"found only {', '.join(seen)}; set LANGMEM_ES_JAVA_HOME "
            f"(e.g. apt-get install openjdk-17-jre-headless)"
        )
    raise JavaNotFoundError(
        f"no Java found: Elasticsearch needs a JDK {min_major}+; install one "
        f"(e.g. apt-get install openjdk-17-jre-headless) or set LANGMEM_ES_JAVA_HOME"
    )


def find_maven(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    mvn = shutil.which("mvn", path=env.get("PATH", ""))
    if not mvn:
        raise MavenNotFoundError(
            "`mvn` not found on PATH: it fetches the Elasticsearch distribution from "
            "Maven Central (apt-get install maven), or put "
            f"{zip_name()} into $LANGMEM_ES_HOME/downloads/ yourself"
        )
    return mvn


def check_disk(path: Path, needed: int, what: str) -> None:
    """Raise :class:`NotEnoughDiskError` unless ``needed`` bytes are free at ``path``."""
    probe = path
    while not probe.exists():
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    if free < needed:
        raise NotEnoughDiskError(
            f"not enough disk space to {what}: {needed / 2**20:.0f} MiB needed, {free / 2**20:.0f} MiB free at {probe}"
        )


def download_zip(
    downloads: Path,
    version: str = ES_VERSION,
    *,
    progress: Progress | None = None,
    environ: Mapping[str, str] | None = None,
    mvn_args: Sequence[str] = (),
) -> tuple[Path, bool]:
    """The distribution zip in ``downloads``; returns ``(path, was_cached)``.

    Fetches it with ``mvn dependency:copy`` only when it is not there yet.
    """
    target = downloads / zip_name(version)
    if target.is_file() and zipfile.is_zipfile(target):
        report_progress(progress, f"distribution {version}: cached ({target})")
        return target, True
    mvn = find_maven(environ)
    downloads.mkdir(parents=True, exist_ok=True)
    check_disk(downloads, 2 * 110 * 2**20, "download the distribution")
    coords = maven_coordinates(version)
    report_progress(progress, f"distribution {version}: downloading {coords} with Maven ...")
    cmd = [
        mvn,
        "-B",
        *mvn_args,
        "dependency:copy",
        f"-Dartifact={coords}",
        f"-DoutputDirectory={downloads}",
    ]
    t0 = time.monotonic()
    env = dict(os.environ if environ is None else environ)
    try:
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
    except OSError as exc:
        raise DownloadError(f"could not run {mvn}: {exc}") from exc
    tail: list[str] = []
    assert proc.stdout is not None
    done = threading.Event()

    fetched = [0]  # files Maven downloaded (its plugins on a fresh ~/.m2, then the zip)

    def heartbeat() -> None:  # Maven in batch mode is silent during a long transfer
        while not done.wait(10.0):
            report_progress(
                progress, f"  ... still fetching ({time.monotonic() - t0:.0f}s, {fetched[0]} file(s) so far)"
            )

    beat = threading.Thread(target=heartbeat, daemon=True)
    beat.start()
    try:
        for line in proc.stdout:
            line = line.rstrip()
            tail = (tail + [line])[-15:]
            if line.startswith("[INFO] Downloaded from"):
                fetched[0] += 1
            if (line.startswith("[INFO] Download") and zip_name(version) in line) or line.startswith("[INFO] Copying"):
                report_progress(progress, "  " + line.removeprefix("[INFO] "))
        rc = proc.wait()
    finally:
        done.set()
    if rc != 0 or not target.is_file():
        errors = [ln for ln in tail if "ERROR" in ln] or tail
        raise DownloadError(
            f"mvn dependency:copy of {coords} failed (exit {rc}): " + " | ".join(ln.strip() for ln in errors[:3])
        )
    report_progress(progress, f"  downloaded {target.stat().st_size / 2**20:.0f} MiB in {time.monotonic() - t0:.1f}s")
    return target, False


def unpack(zip_path: Path, dist_root: Path, version: str = ES_VERSION, *, progress: Progress | None = None) -> Path:
    """Unpack into ``dist_root/elasticsearch-<version>`` once; return that directory."""
    dest = dist_root / f"elasticsearch-{version}"
    if (dest / "bin" / "elasticsearch").is_file():
        return dest
    with zipfile.ZipFile(zip_path) as zf:
        infos = zf.infolist()
        size = sum(i.file_size for i in infos)
        dist_root.mkdir(parents=True, exist_ok=True)
        check_disk(dist_root, size + RUN_HEADROOM, "unpack Elasticsearch")
        report_progress(progress, f"unpacking {len(infos)} files ({size / 2**20:.0f} MiB) ...")
        tmp = dist_root / f".unpack-{version}-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        for info in infos:
            out = Path(zf.extract(info, tmp))
            mode = (info.external_attr >> 16) & 0o7777
            if mode:
                os.chmod(out, mode)
            elif info.is_dir():
                os.chmod(out, 0o755)
    top = tmp / f"elasticsearch-{version}"
    if not top.is_dir():
        shutil.rmtree(tmp, ignore_errors=True)
        raise DownloadError(f"{zip_path} does not contain elasticsearch-{version}/")
    os.chmod(top, 0o755)
    os.replace(top, dest)
    shutil.rmtree(tmp, ignore_errors=True)
    return dest


def modules_in(dist: Path) -> list[str]:
    """The module directory names of an unpacked distribution."""
    mod = dist / "modules"
    return sorted(p.name for p in mod.iterdir()) if mod.is_dir() else []


def stderr_progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)
