"""One turn of the demo through the agent's graph, printed as it goes (what was written and
pre-recalled before the model ran, each tool call with its result, the answer), and the
workspace's knowledge base seeded and printed before the first session."""

from __future__ import annotations

import time
from typing import Any

from langmem_es_cli._console import escape
from langmem_es_cli.demo_conversation import SEED_PLAYBOOKS


def seed_knowledge_base(core: Any, team: Any, console: Any) -> dict[str, str]:

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


def run_turn(graph: Any, cfg: dict[str, Any], text: str, console: Any) -> dict[str, Any]:
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
