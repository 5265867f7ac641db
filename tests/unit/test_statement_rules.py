"""Every rule of statement understanding has its example, and the example holds.

A rule is one small function a pattern (``langmem_es.core.statements``): the clause rules
(the speaker's arrangements, complements, copulas, predicates, possession, frames, and what
a clause says beside its claim), the patterns a sentence is read by around its main clause
(a label, a correction, a verdict, the marks of a change), and the relation rules. Each one's docstring gives its example
sentence as a doctest calling the rule itself, so each rule has its own test here.
"""

from __future__ import annotations

import doctest
import inspect
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from langmem_es.core.statements import (
    arrangements,
    clauses,
    copulas,
    frames,
    possession,
    predicates,
    relations,
    sentences,
)

RULES: list[Callable[..., Any]] = [
    *arrangements.RULES,
    *clauses.RULES,
    clauses.fragment,
    *clauses.QUALIFIERS,
    *copulas.RULES,
    copulas.described,
    *predicates.RULES,
    *possession.RULES,
    *frames.RULES,
    frames.framed,
    *sentences.PATTERNS,
    *relations.EVENTS,
    *relations.RULES,
]

#: Public functions of the rule modules that are not rules: the readers that run them, and helpers.
NOT_RULES = {
    "clauses.clause",
    "clauses.root_clause",
    "copulas.copula",
    "possession.timed_thing",
    "relations.relate",
    "sentences.read_ahead",
    "relations.as_said",
    "sentences.read",
    "sentences.classify",
}


def _name(rule: Callable[..., Any]) -> str:
    return f"{rule.__module__.rsplit('.', 1)[-1]}.{rule.__name__}"


@pytest.mark.parametrize("rule", RULES, ids=_name)
def test_rule_example(rule: Callable[..., Any]) -> None:
    module = sys.modules[rule.__module__]
    tests = doctest.DocTestFinder().find(rule, rule.__name__, module=module, globs=vars(module))
    assert sum(len(t.examples) for t in tests) >= 1, f"{_name(rule)} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {_name(rule)} failed"


@pytest.mark.parametrize(
    "module",
    [arrangements, clauses, copulas, predicates, possession, frames, sentences, relations],
    ids=lambda m: m.__name__.rsplit(".", 1)[-1],
)
def test_every_rule_is_listed(module: ModuleType) -> None:
    """A public function of a rule module is a listed rule (so it has its test above) or a reader."""
    listed = {_name(rule) for rule in RULES}
    public = {
        _name(f)
        for name, f in vars(module).items()
        if inspect.isfunction(f) and f.__module__ == module.__name__ and not name.startswith("_")
    }
    assert public - listed - NOT_RULES == set()
