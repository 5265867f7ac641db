"""``langmem-es demo``: a scripted multi-session conversation that shows memory working.

Runs on the embedded backend (SQLite in a temporary directory: no server, no API key,
no network) or, with ``--backend elasticsearch``, on the cluster configured in the
environment (``LANGMEM_ES_URL`` … or ``langmem-es es start``). Three sessions with one
user show:

* a smart-hub factory reset tried in March and again last week: both failures are
  recorded on the playbook, and today the same fix is not suggested a third time;
* the user moving from Bristol to Edinburgh: the new fact supersedes the old one, which
  stays visible in the history;
* a new device mentioned and the device list asked for in the same message: the fact
  written by a tool call is found by the next tool call of the same turn.

Without an LLM the agent's moves are scripted (and the output says so); the memory is
real — every write and recall goes through the graph, the tools and the memory core.
With ``LANGMEM_ES_DEMO_MODEL`` (or ``--model``) set to an ``init_chat_model`` spec such
as ``openai:gpt-4o-mini``, the same conversation runs a real agent.

This module imports only the standard library at import time, so the CLI stays fast.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from langmem_es_cli._checks import file_path
from langmem_es_cli._console import console as make_console
from langmem_es_cli._console import escape
from langmem_es_cli._console import table as make_table
from langmem_es_cli.demo_conversation import PROBLEM, Session, conversation, scripted_model
from langmem_es_cli.demo_turns import run_turn, seed_knowledge_base

__all__ = ["DEMO_MODEL_ENV", "DemoReport", "register", "run_demo"]

DEMO_MODEL_ENV = "LANGMEM_ES_DEMO_MODEL"

# --------------------------------------------------------------------------- running it


@dataclass
class DemoReport:
    backend: str
    scripted: bool
    outcomes: dict[str, bool] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return bool(self.outcomes) and all(self.outcomes.values())


class _Clock:
    """The demo's clock: the session's date, advancing in real time within it."""

    def __init__(self) -> None:
        self.base = datetime.now(timezone.utc)
        self.started = time.perf_counter()

    def set(self, when: datetime) -> None:
        self.base, self.started = when, time.perf_counter()

    def __call__(self) -> datetime:
        return self.base + timedelta(seconds=time.perf_counter() - self.started)


def _init_model(spec: str) -> Any:
    from langmem_es.errors import LangmemEsError

    try:
        from langchain.chat_models import init_chat_model

        return init_chat_model(spec)
    except ImportError as exc:
        raise LangmemEsError(
            f"{DEMO_MODEL_ENV}={spec!r} needs langchain and the provider's package "
            f"(e.g. pip install langchain langchain-openai): {exc}"
        ) from exc
    except Exception as exc:  # unknown provider, missing API key ...
        raise LangmemEsError(
            f"could not create the chat model {spec!r} ({DEMO_MODEL_ENV}): {type(exc).__name__}: {exc}"
        ) from exc


def _open_backend(kind: str, path: str | None) -> tuple[Any, str, Callable[[], None]]:
    if kind == "sqlite":
        from langmem_es.backends.sqlite import SQLiteBackend

        tmp = None
        if path is None:
            tmp = tempfile.mkdtemp(prefix="langmem-es-demo-")
            path = os.path.join(tmp, "memory.db")
        backend = SQLiteBackend(path)

        def cleanup() -> None:
            backend.close()
            if tmp:
                shutil.rmtree(tmp, ignore_errors=True)

        return backend, f"embedded SQLite at {path}", cleanup

    from langmem_es.backends.elasticsearch import ElasticsearchBackend
    from langmem_es_cli._checks import connection, es_client

    conn = connection()
    client = es_client(request_timeout=30)  # refuses a URL that answers but is not Elasticsearch
    prefix = f"langmem-demo-{uuid.uuid4().hex[:8]}"
    es_backend = ElasticsearchBackend(client, prefix=prefix)

    def drop() -> None:
        try:
            es_backend.drop()
        finally:
            client.close()

    return es_backend, f"Elasticsearch at {conn.url} (indices {prefix}-*)", drop


def run_demo(
    *,
    backend: str = "sqlite",
    model: str | Any = None,
    path: str | None = None,
    keep: bool = False,
    console: Any = None,
) -> DemoReport:
    """Run the demo conversation and print it; returns the scenario outcomes."""
    from langgraph.checkpoint.memory import InMemorySaver

    from langmem_es.agent import create_memory_agent
    from langmem_es.core import MemoryCore, Policy
    from langmem_es.model import Identity

    console = console or make_console()
    started = time.perf_counter()
    sessions = conversation()
    turns = {t.user: t for s in sessions for t in s.turns}
    scripted = model is None
    if scripted:
        chat = scripted_model(turns)
    elif isinstance(model, str):
        chat = _init_model(model)
    else:
        chat = model
    store_backend, where, cleanup = _open_backend(backend, path)
    clock = _Clock()
    # the workspace's knowledge base is written by one agent the developer enables for shared writes
    core = MemoryCore(store_backend, clock=clock, rules=Policy(shared_writers={"support-team"}))
    report = DemoReport(backend=backend, scripted=scripted)
    try:
        core.setup()
        console.rule("[bold]langmem-es demo")
        console.print(f"Memory: {where}.")
        if scripted:
            console.print(
                "[yellow]No LLM configured: the agent's moves are SCRIPTED[/] (set "
                f"{DEMO_MODEL_ENV}=openai:gpt-4o-mini, or any init_chat_model spec, to run a real agent). "
                "The memory is real: every write and recall below goes through the LangGraph graph, the "
                "memory tools and the memory core."
            )
        else:
            console.print(f"Agent: a real model ({model if isinstance(model, str) else type(model).__name__}).")
        user = Identity(tenant="acme-support", user_id="sam", agent_id="helpdesk")
        team = Identity(tenant="acme-support", agent_id="support-team")
        clock.set(sessions[0].when(datetime.now(timezone.utc)) - timedelta(days=30))
        ids = seed_knowledge_base(core, team, console)
        graph = create_memory_agent(chat, store=core, checkpointer=InMemorySaver())
        transcript: dict[str, dict[str, Any]] = {}
        for session in sessions:
            clock.set(session.when(datetime.now(timezone.utc)))
            console.print()
            console.rule(f"[bold cyan]{session.title}[/] · {clock().date().isoformat()} · thread {session.thread}")
            cfg = {
                "configurable": {
                    "tenant_id": user.tenant,
                    "user_id": user.user_id,
                    "agent_id": user.agent_id,
                    "thread_id": session.thread,
                }
            }
            for turn in session.turns:
                transcript[turn.user] = run_turn(graph, cfg, turn.user, console)
        report.outcomes, report.details = _check(core, user, ids, transcript, sessions)
        _print_outcomes(report, console)
    finally:
        if keep:
            console.print(f"Kept: {where}")
        else:
            cleanup()
    report.seconds = round(time.perf_counter() - started, 1)
    console.print(f"[dim]finished in {report.seconds}s[/]")
    return report


def _check(
    core: Any, user: Any, ids: dict[str, str], transcript: dict[str, dict[str, Any]], sessions: list[Session]
) -> tuple[dict[str, bool], dict[str, str]]:
    """Scenario outcomes, read from the memory itself (and the final turns' tool trail)."""
    outcomes: dict[str, bool] = {}
    details: dict[str, str] = {}
    today = sessions[-1].turns
    # 1. the reset: two failures recorded for the problem, and not suggested today
    reset = core.get(user, ids["reset"])
    failed_for = reset.metadata.get("failed_for", []) if reset else []
    hub = transcript[today[1].user]
    suggestion = next((line for line in hub["answer"].splitlines() if line.startswith("Suggestion:")), hub["answer"])
    outcomes["hub reset not suggested a third time"] = bool(
        reset
        and reset.failure_count >= 2
        and PROBLEM in failed_for
        and ids["reset"] not in suggestion
        and "factory-reset" not in suggestion
    )
    details["hub reset not suggested a third time"] = (
        f"reset playbook failed {reset.failure_count if reset else 0}x for {PROBLEM!r}; today's suggestion: "
        f"{suggestion.removeprefix('Suggestion: ').split(' Steps:')[0]}"
    )
    # 2. the move: Edinburgh active, Bristol superseded and still in the history
    history = core.history(user, "user.home_city")
    states = [(m.content, m.status) for m in history]
    outcomes["Bristol → Edinburgh superseded, old fact in history"] = (
        "The user lives in Bristol.",
        "superseded",
    ) in states and ("The user lives in Edinburgh.", "active") in states
    details["Bristol → Edinburgh superseded, old fact in history"] = "history(user.home_city): " + "; ".join(
        f"{c} [{s}]" for c, s in states
    )
    # 3. same-turn visibility: the Hue bridge, written by a tool call, found by the next one in that turn
    hue = transcript[today[0].user]
    names = [n for n, _ in hue["tool_results"]]
    recall_after_write = (
        [c for n, c in hue["tool_results"][names.index("remember") + 1 :] if n == "recall"]
        if "remember" in names
        else []
    )
    outcomes["new device visible in the same turn"] = any("Hue bridge" in c for c in recall_after_write)
    details["new device visible in the same turn"] = hue["answer"]
    return outcomes, details


def _print_outcomes(report: DemoReport, console: Any) -> None:

    console.print()
    table = make_table(title="Scenario outcomes", show_lines=False)
    table.add_column("scenario")
    table.add_column("result")
    table.add_column("evidence", overflow="fold")
    for name, ok in report.outcomes.items():
        table.add_row(name, "[green]PASS[/]" if ok else "[red]FAIL[/]", escape(report.details.get(name, "")))
    console.print(table)


# --------------------------------------------------------------------------- CLI


def register(subparsers: Any) -> None:
    """Add ``langmem-es demo`` to the CLI (``subparsers`` of :func:`langmem_es_cli.main.build_parser`)."""
    p = subparsers.add_parser(
        "demo",
        help="a scripted multi-session conversation showing memory at work",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument(
        "--backend",
        choices=("sqlite", "elasticsearch"),
        default="sqlite",
        help="sqlite: embedded, in a temp dir (default); elasticsearch: the cluster from LANGMEM_ES_URL "
        "or `langmem-es es start`",
    )
    p.add_argument(
        "--model",
        default=None,
        help=f"an init_chat_model spec for a real agent (default: ${DEMO_MODEL_ENV}; unset: scripted)",
    )
    p.add_argument(
        "--path", default=None, help="SQLite file to use (default: a temporary directory); its directory must exist"
    )
    p.add_argument("--create", action="store_true", help="with --path: create its directory if missing")
    p.add_argument("--keep", action="store_true", help="keep the memory (SQLite file / Elasticsearch indices)")
    p.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    model = args.model or os.environ.get(DEMO_MODEL_ENV) or None
    path = str(file_path(args.path, create=args.create)) if args.path else None
    report = run_demo(backend=args.backend, model=model, path=path, keep=args.keep)
    return 0 if report.ok or not report.scripted else 1


if __name__ == "__main__":  # pragma: no cover
    parser = argparse.ArgumentParser(prog="python -m langmem_es_cli.demo")
    register(parser.add_subparsers(dest="command"))
    sys.exit(_main(parser.parse_args(["demo", *sys.argv[1:]])))
