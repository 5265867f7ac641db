"""docs/roles.md: the recipes (setting, onboarding, offboarding) run as written, in order."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "roles.md"


def _recipes() -> list[str]:
    """The python blocks under "## Recipes", in order."""
    text = DOC.read_text(encoding="utf-8").split("## Recipes", 1)[1]
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_onboarding_and_offboarding_recipes_run() -> None:
    blocks = _recipes()
    assert len(blocks) == 3, "setting, onboarding, offboarding"
    scope: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), scope)  # noqa: S102 - the documentation is the test
    assert scope["removed"]["semantic"] == {"private": 1, "shared": 1}
