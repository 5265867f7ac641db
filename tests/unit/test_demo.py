"""`langmem-es demo` end to end on the embedded backend: no server, no key, no network."""

from __future__ import annotations

import io
import re
import time

import pytest
from rich.console import Console

from langmem_es_cli import main as cli
from langmem_es_cli.demo import run_demo
from langmem_es_cli.demo_conversation import PROBLEM, choose_fix, parse_memory_lines


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGMEM_ES_DEMO_MODEL", raising=False)


def test_cli_demo_runs_to_the_end(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    started = time.perf_counter()
    assert cli.main(["demo"]) == 0
    elapsed = time.perf_counter() - started
    out = capsys.readouterr().out
    assert elapsed < 60
    assert "SCRIPTED" in out and "embedded SQLite" in out
    # each turn shows what was pre-recalled and what was written
    assert out.count("User:") == 7 and out.count("Agent:") == 7
    assert out.count("written before the agent ran") == 7 and "pre-recalled" in out
    # the hub: reset suggested in March, failures recorded in March and last week, not suggested today
    assert "Suggestion: Smart hub offline: factory-reset the hub." in out
    assert "Recorded failure for playbook" in out and "failed 2x" in out
    today = out.split("Session 3")[1]
    hub_turn = today.split("And the hub is offline AGAIN")[1].split("User:")[0]
    assert "Withheld — already failed for this problem" in hub_turn
    answer = hub_turn.split("Agent:")[1]
    assert "Suggestion: Smart hub keeps going offline: update the hub firmware" in answer
    assert "Not suggesting again: Smart hub offline" in answer
    # the move: supersession reported, history shows Bristol
    assert "(new version, private). It replaces" in out and "kept in history as superseded" in out
    assert "You live in Edinburgh" in out and "Before that: Bristol" in out
    # same-turn visibility
    devices = re.search(r"Your devices: (.*)\.", out).group(1).split(", ")
    assert sorted(devices) == ["Nest thermostat", "Philips Hue bridge", "smart hub"]  # any order: ranked by recall
    # the outcome table
    for name in (
        "hub reset not suggested a third time",
        "Bristol → Edinburgh superseded, old fact in history",
        "new device visible in the same turn",
    ):
        assert name in out
    assert out.count("PASS") == 3 and not re.search(r"\bFAIL\b", out)


def test_report_and_keep(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "demo.db"
    report = run_demo(path=str(path), keep=True, console=Console(file=io.StringIO(), width=200))
    assert report.ok and report.scripted and report.backend == "sqlite"
    assert path.exists()  # --keep leaves the memory for inspection


def test_choose_fix_prefers_offered_and_skips_failed() -> None:
    text = (
        "2 playbook(s) for 'x', best first:\n"
        "- [procedural aaaaaaaaaaaaaaaaaaaaaaaa] Reset it. Steps: 1) a (2026-01-01, shared, confidence 1.00, worked 5x,"
        f" failed 1x) FAILED before for: {PROBLEM} — do not suggest it again for that\n"
        "- [procedural bbbbbbbbbbbbbbbbbbbbbbbb] Update firmware. (2026-01-01, shared, confidence 1.00)\n"
        "Withheld — already failed for this problem:\n"
        "- [procedural cccccccccccccccccccccccc] Unplug it. (2026-01-01, shared, confidence 1.00, worked 0x, failed 2x)"
    )
    best, failed = choose_fix(text, PROBLEM)
    assert best is not None and best["id"] == "b" * 24
    assert {p["id"] for p in failed} == {"a" * 24, "c" * 24}
    assert parse_memory_lines(text)[0]["worked"] == 5


def test_a_real_model_path_runs_without_the_script() -> None:
    from langchain_core.messages import AIMessage

    from langmem_es.integration.scripted import ScriptedChatModel

    buf = io.StringIO()
    lazy = ScriptedChatModel(policy=lambda messages: AIMessage("Noted."))  # a "real" model that never uses tools
    report = run_demo(model=lazy, console=Console(file=buf, width=200))
    out = buf.getvalue()
    assert not report.scripted and "SCRIPTED" not in out and "a real model (ScriptedChatModel)" in out
    assert report.outcomes["Bristol → Edinburgh superseded, old fact in history"] is False  # nothing was remembered
    assert out.count("Agent: Noted.") == 7


def test_a_bad_model_spec_is_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGMEM_ES_DEMO_MODEL", "no-such-provider:model")
    assert cli.main(["demo"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("langmem-es: error: LangmemEsError: could not create the chat model 'no-such-provider:model'")
