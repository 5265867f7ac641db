"""The demo's conversation: three sessions of one user (the dates they happen on, what the
user says), the shared playbooks seeded before them, and the scripted agent that plays the
conversation when no LLM is configured (one move per model call: tool calls or the answer,
read from the memory the tools return)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

PROBLEM = "smart hub offline"


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


def scripted_model(turns: dict[str, Turn]) -> Any:
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
