"""langchain-tests' standard tool tests for the four memory tools (embedded store).

The tools read the identity from the run's config, never from arguments. The standard tests
invoke tools without a config, as a parent runnable would after setting its config in the
context; the fixture below does exactly that (``var_child_runnable_config``), which is how
LangChain passes a parent's config to a child call.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.runnables.config import var_child_runnable_config
from langchain_core.tools import BaseTool
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from langmem_es.store import SQLiteMemoryStore
from langmem_es.tools import create_memory_tools

_STORE = SQLiteMemoryStore()
_TOOLS = {t.name: t for t in create_memory_tools(_STORE)}
_CONFIG = {"configurable": {"tenant_id": "acme", "user_id": "standard-tests", "agent_id": "bot", "thread_id": "t"}}
_PLAYBOOK = (
    _TOOLS["remember"]
    .invoke(
        {
            "content": "Printer jammed: open tray 2 and remove the paper.",
            "kind": "procedural",
            "reason": "Common office fix.",
        },
        config=_CONFIG,
    )
    .split("[procedural ")[1]
    .split("]")[0]
)

EXAMPLES: dict[str, dict[str, Any]] = {
    "remember": {
        "content": "The user prefers metric units.",
        "reason": "Answers should use them.",
        "subject_key": "user.units",
    },
    "recall": {"query": "which units does the user prefer?", "k": 3},
    "forget": {"subject_key": "user.fax_machine"},
    "record_outcome": {"playbook_id": _PLAYBOOK, "success": True, "note": "Worked first time."},
}


@pytest.fixture(autouse=True)
def _identity_in_context() -> Iterator[None]:
    token = var_child_runnable_config.set(_CONFIG)  # type: ignore[arg-type]
    try:
        yield
    finally:
        var_child_runnable_config.reset(token)


class _Base:
    name: str

    @property
    def tool_constructor(self) -> BaseTool:
        return _TOOLS[self.name]

    @property
    def tool_constructor_params(self) -> dict:
        return {}

    @property
    def tool_invoke_params_example(self) -> dict:
        return EXAMPLES[self.name]


class TestRememberUnit(_Base, ToolsUnitTests):
    name = "remember"


class TestRecallUnit(_Base, ToolsUnitTests):
    name = "recall"


class TestForgetUnit(_Base, ToolsUnitTests):
    name = "forget"


class TestRecordOutcomeUnit(_Base, ToolsUnitTests):
    name = "record_outcome"


class TestRememberStandard(_Base, ToolsIntegrationTests):
    name = "remember"


class TestRecallStandard(_Base, ToolsIntegrationTests):
    name = "recall"


class TestForgetStandard(_Base, ToolsIntegrationTests):
    name = "forget"


class TestRecordOutcomeStandard(_Base, ToolsIntegrationTests):
    name = "record_outcome"


def test_the_examples_really_run_with_the_context_identity() -> None:
    assert _TOOLS["remember"].invoke(EXAMPLES["remember"]).startswith("Remembered [semantic ")
    assert "metric units" in _TOOLS["recall"].invoke(EXAMPLES["recall"])
    assert _TOOLS["record_outcome"].invoke(EXAMPLES["record_outcome"]).startswith("Recorded success")
