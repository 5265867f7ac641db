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
import re
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

__all__ = ["DEMO_MODEL_ENV", "DemoReport", "register", "run_demo"]

DEMO_MODEL_ENV = "LANGMEM_ES_DEMO_MODEL"
PROBLEM = "smart hub offline"

# --------------------------------------------------------------------------- the conversation


@dataclass
class Turn:
    user: str
    moves: list[Callable[[Ctx], Any]]
    """Scripted agent: one function per model call; each returns tool calls or the final answer."""


@dataclass
class Session:
    title: str
    thread: str
    when: Callable[[datetime], datetime]
    turns: list[Turn]


@dataclass
class Ctx:
    memory_block: str
    tool_results: list[tuple[str, str]]
    move: int


def _calls(*calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"tool_calls": list(calls)}


_LINE = re.compile(
    r"^- \[(?P<kind>\w+) (?P<id>[0-9a-f]+)\] (?P<text>.*?) \((?P<date>\d{4}-\d\d-\d\d), (?P<meta>[^)]*)\)"
    r"(?: FAILED before for: (?P<failed>.*?) — do not suggest it again for that)?$"
)


def parse_memory_lines(text: str) -> list[dict[str, Any]]:
    """The memories of a recall result / memory block, as the model reads them."""
    out = []
    for line in text.splitlines():
        m = _LINE.match(line.strip())
        if m:
            d = m.groupdict()
            worked = re.search(r"worked (\d+)x, failed (\d+)x", d["meta"])
            d["worked"], d["failures"] = (int(worked.group(1)), int(worked.group(2))) if worked else (0, 0)
            d["failed_for"] = [p.strip() for p in (d["failed"] or "").split(";") if p.strip()]
            d["superseded"] = "superseded" in d["meta"]
            out.append(d)
    return out


def choose_fix(recall_text: str, problem: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The scripted agent's rule: the first playbook offered, and the ones withheld.

    The filtering is the memory core's: ``record_outcome(success=False, problem=...)``
    records the problem on the playbook, and ``MemoryCore.playbooks(problem)`` (behind the
    recall tool's ``problem`` argument) withholds a fix that failed for it and ranks the rest
    by relevance × success rate. As a second line of defence the agent also skips any
    offered playbook marked as failed for ``problem``.
    """
    offered_text, _, withheld_text = recall_text.partition("Withheld — already failed for this problem:")
    offered = [p for p in parse_memory_lines(offered_text) if p["kind"] == "procedural"]
    failed = [p for p in parse_memory_lines(withheld_text) if p["kind"] == "procedural"]
    failed += [p for p in offered if problem in p["failed_for"]]
    fresh = [p for p in offered if problem not in p["failed_for"]]
    return (fresh[0] if fresh else None), failed


def _last_result(ctx: Ctx, name: str) -> str:
    for n, content in reversed(ctx.tool_results):
        if n == name:
            return content
    return ""


def _suggest(ctx: Ctx) -> str:
    best, failed = choose_fix(_last_result(ctx, "recall"), PROBLEM)
    parts = []
    if best:
        parts.append(f"Suggestion: {best['text']} [playbook {best['id']}]")
    else:
        parts.append("Suggestion: none of the playbooks I know is left to try — I'll escalate to a technician.")
    for p in failed:
        parts.append(
            f"Not suggesting again: {p['text'].split(':')[0]} [playbook {p['id']}] — it already failed "
            f"for '{PROBLEM}' ({p['failures']}x: recorded)."
        )
    return "\n".join(parts)


def _record_reset_failure(note: str) -> Callable[[Ctx], Any]:
    def move(ctx: Ctx) -> Any:
        reset = [p for p in parse_memory_lines(_last_result(ctx, "recall")) if "factory-reset" in p["text"]]
        if not reset:
            return "I could not find the reset playbook to record the outcome."
        return _calls(
            ("record_outcome", {"playbook_id": reset[0]["id"], "success": False, "problem": PROBLEM, "note": note})
        )

    return move


def _devices_answer(ctx: Ctx) -> str:
    devices = [
        p
        for p in parse_memory_lines(_last_result(ctx, "recall"))
        if p["kind"] == "semantic" and "has a" in p["text"] and not p["superseded"]
    ]
    names = [re.sub(r"^The user has (a |an )?", "", p["text"]).rstrip(".") for p in devices]
    return "Your devices: " + ", ".join(names) + "." if names else "I don't know your devices yet."


def _home_answer(ctx: Ctx) -> str:
    homes = [p for p in parse_memory_lines(_last_result(ctx, "recall")) if "lives in" in p["text"]]
    now = [p for p in homes if not p["superseded"]]
    before = [p for p in homes if p["superseded"]]
    text = (
        f"You live in {now[0]['text'].split('lives in ')[-1].rstrip('.')} [{now[0]['id']}]."
        if now
        else "I don't know where you live."
    )
    if before:
        text += (
            " Before that: "
            + ", ".join(
                f"{p['text'].split('lives in ')[-1].rstrip('.')} (since {p['date']}, now superseded) [{p['id']}]"
                for p in before
            )
            + "."
        )
    return text


def _fact(content: str, key: str, reason: str) -> tuple[str, dict[str, Any]]:
    return ("remember", {"content": content, "subject_key": key, "reason": reason, "kind": "semantic"})


WHY_HOME = "Local services, engineers and advice depend on where the user lives."
WHY_DEVICE = "Troubleshooting depends on which devices the user has."
HUB_QUERY = ("recall", {"query": "smart hub factory reset playbook", "kinds": ["procedural"]})
FIX_QUERY = ("recall", {"query": "smart hub keeps going offline", "problem": PROBLEM})


def conversation() -> list[Session]:
    def march(now):
        return datetime(now.year if now.month > 3 else now.year - 1, 3, 12, 10, 0, tzinfo=timezone.utc)

    return [
        Session(
            "Session 1 — March",
            "session-march",
            march,
            [
                Turn(
                    "Hi! I live in Bristol, and my smart hub keeps dropping offline. Any idea?",
                    [
                        lambda c: _calls(
                            _fact("The user lives in Bristol.", "user.home_city", WHY_HOME),
                            _fact("The user has a smart hub.", "user.devices.smart_hub", WHY_DEVICE),
                            FIX_QUERY,
                        ),
                        _suggest,
                    ],
                ),
                Turn(
                    "I did the factory reset. It came back for a day, now it's offline again.",
                    [
                        lambda c: _calls(HUB_QUERY),
                        _record_reset_failure("Offline again a day after the reset."),
                        lambda c: "Sorry — I've recorded that the factory reset did not fix it.",
                    ],
                ),
            ],
        ),
        Session(
            "Session 2 — last week",
            "session-last-week",
            lambda now: now - timedelta(days=7),
            [
                Turn(
                    "Quick update: I've moved from Bristol to Edinburgh. Also, I have a Nest thermostat now.",
                    [
                        lambda c: _calls(
                            _fact("The user lives in Edinburgh.", "user.home_city", WHY_HOME),
                            _fact("The user has a Nest thermostat.", "user.devices.thermostat", WHY_DEVICE),
                        ),
                        lambda c: "Noted: Edinburgh (Bristol is kept in your history), and the Nest thermostat.",
                    ],
                ),
                Turn(
                    "The hub went offline again, so I tried the factory reset once more — no luck.",
                    [
                        lambda c: _calls(HUB_QUERY),
                        _record_reset_failure("Tried again a week ago: still offline."),
                        lambda c: "Recorded: the reset failed a second time. Next time I'll suggest something else.",
                    ],
                ),
            ],
        ),
        Session(
            "Session 3 — today",
            "session-today",
            lambda now: now,
            [
                Turn(
                    "I just plugged in a new Philips Hue bridge. Which devices do I have now?",
                    [
                        lambda c: _calls(
                            _fact("The user has a Philips Hue bridge.", "user.devices.hue_bridge", WHY_DEVICE)
                        ),
                        lambda c: _calls(
                            ("recall", {"query": "which devices does the user have", "kinds": ["semantic"], "k": 10})
                        ),
                        _devices_answer,
                    ],
                ),
                Turn(
                    "And the hub is offline AGAIN. What should I try?",
                    [
                        lambda c: _calls(FIX_QUERY),
                        _suggest,
                    ],
                ),
                Turn(
                    "Remind me — where do I live, and where did I live before?",
                    [
                        lambda c: _calls(
                            (
                                "recall",
                                {"query": "where does the user live", "kinds": ["semantic"], "include_history": True},
                            )
                        ),
                        _home_answer,
                    ],
                ),
            ],
        ),
    ]


SEED_PLAYBOOKS: list[dict[str, Any]] = [
    {
        "content": "Smart hub offline: factory-reset the hub.",
        "steps": [
            "Hold the reset button for 10 seconds",
            "Wait for the light to blink blue",
            "Re-pair your devices in the app",
        ],
        "reason": "The first-line fix for hubs that drop off the network.",
        "successes": 5,
    },
    {
        "content": "Smart hub keeps going offline: update the hub firmware and move it to the 2.4 GHz Wi-Fi band.",
        "steps": [
            "Open the app, Settings > Hub > Firmware, install the update",
            "In the router settings, give the hub a 2.4 GHz-only network",
            "Power-cycle the hub",
        ],
        "reason": "Fixes hubs that drop offline repeatedly when a reset did not help.",
        "successes": 2,
    },
]


# --------------------------------------------------------------------------- the scripted agent


def _scripted_model(turns: dict[str, Turn]) -> Any:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    from langmem_es.integration.scripted import ScriptedChatModel

    counter = iter(range(1_000_000))

    def policy(messages: list[Any]) -> Any:
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        turn = turns[messages[last_human].content]
        after = messages[last_human + 1 :]
        move = sum(isinstance(m, AIMessage) for m in after)
        ctx = Ctx(
            memory_block=str(messages[0].content) if messages and messages[0].type == "system" else "",
            tool_results=[(m.name or "", str(m.content)) for m in after if isinstance(m, ToolMessage)],
            move=move,
        )
        out = turn.moves[min(move, len(turn.moves) - 1)](ctx)
        if isinstance(out, dict):
            return AIMessage(
                "",
                tool_calls=[
                    {"name": n, "args": a, "id": f"call_{next(counter)}", "type": "tool_call"}
                    for n, a in out["tool_calls"]
                ],
            )
        return AIMessage(out)

    return ScriptedChatModel(policy=policy)


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
        chat = _scripted_model(turns)
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
        ids = _seed(core, team, console)
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
                transcript[turn.user] = _run_turn(graph, cfg, turn.user, console)
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


def _seed(core: Any, team: Any, console: Any) -> dict[str, str]:

    console.print("\n[bold]Workspace knowledge base[/] (shared playbooks written by the support team before March):")
    ids = {}
    for i, pb in enumerate(SEED_PLAYBOOKS):
        w = core.remember(
            team, pb["content"], kind="procedural", scope="shared", reason=pb["reason"], steps=pb["steps"]
        )
        for _ in range(pb["successes"]):
            core.record_outcome(team, w.id, True)
        ids["reset" if i == 0 else "firmware"] = w.id
        console.print(
            "  • " + escape(f"[procedural {w.id}] {pb['content']} (worked {pb['successes']}x)"), soft_wrap=True
        )
    return ids


def _run_turn(graph: Any, cfg: dict[str, Any], text: str, console: Any) -> dict[str, Any]:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    events: list[dict[str, Any]] = []
    final: dict[str, Any] = {}
    before = graph.get_state(cfg).values.get("messages", []) if graph.checkpointer else []
    t0 = time.perf_counter()
    for mode, chunk in graph.stream({"messages": [HumanMessage(text)]}, cfg, stream_mode=["custom", "values"]):
        if mode == "custom" and isinstance(chunk, dict) and "langmem_es" in chunk:
            events.append(chunk)
        elif mode == "values":
            final = chunk
    elapsed = (time.perf_counter() - t0) * 1000
    new = final.get("messages", [])[len(before) :]
    console.print(f"\n[bold green]User:[/] {escape(text)}")
    for e in events:
        if e["langmem_es"] == "episodic_write":
            console.print(
                f"  [magenta]written before the agent ran[/]: {escape('[episodic ' + e['id'] + ']')} the raw message",
                soft_wrap=True,
            )
        elif e["langmem_es"] == "pre_recall":
            block = e["block"]
            if block:
                console.print(
                    f"  [blue]pre-recalled[/] ({len(e['ids'])} memories, {e['timings_ms'].get('total', 0):.0f} ms):"
                )
                for line in block.splitlines()[1:]:
                    console.print("    " + escape(line), soft_wrap=True)
            else:
                console.print("  [blue]pre-recalled[/]: nothing relevant yet")
    tool_results = []
    results = {m.tool_call_id: m for m in new if isinstance(m, ToolMessage)}
    for m in new:
        if not (isinstance(m, AIMessage) and m.tool_calls):
            continue
        for call in m.tool_calls:
            args = ", ".join(f"{k}={v!r}" for k, v in call["args"].items() if k not in ("reason", "steps"))
            console.print(f"  [yellow]agent → {call['name']}[/]({escape(args)})", soft_wrap=True)
            res = results.get(call["id"] or "")
            if res is None:
                continue
            tool_results.append((res.name, str(res.content)))
            label = "written" if res.name in ("remember", "record_outcome", "forget") else "recalled"
            lines = str(res.content).splitlines()
            console.print(f"    [magenta]{label}[/]: {escape(lines[0])}", soft_wrap=True)
            for line in lines[1:]:
                console.print("      " + escape(line), soft_wrap=True)
    answer = next((str(m.content) for m in reversed(new) if isinstance(m, AIMessage) and not m.tool_calls), "")
    console.print(f"[bold]Agent:[/] {escape(answer)}", soft_wrap=True)
    console.print(f"  [dim]{elapsed:.0f} ms for the turn[/]")
    return {"events": events, "tool_results": tool_results, "answer": answer}


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
