"""What a sentence claims: :class:`Statement`, and the names of polarities and relations.

Pure data; :mod:`.statements` reads sentences into statements and relates them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Relation = Literal["update", "denial", "reinforcement", "other_key", "lookalike", "unrelated"]
RELATIONS: tuple[Relation, ...] = ("update", "denial", "reinforcement", "other_key", "lookalike", "unrelated")
Polarity = Literal["assert", "update", "deny"]
Tense = Literal["past", "present", "future"]


@dataclass(frozen=True)
class Statement:
    """What one sentence claims. ``holder[0]`` is ``"user"`` for the speaker ("I", "my"),
    ``"we"`` for "we/our", a lower-cased name ("alice"), or ``"*"`` for an unowned "the X"."""

    text: str
    holder: tuple[str, ...] = ("*",)
    names: frozenset[str] = frozenset()
    thing: str = ""
    instance: frozenset[str] = frozenset()
    frame: str = ""
    item: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()
    negated: bool = False
    change: bool = False
    ending: bool = False
    tense: Tense = "present"
    replaced: frozenset[str] = field(default_factory=frozenset)
    habitual: bool = False
    """A present-tense "don't/doesn't" habit or preference ("I don't eat meat"): negative, yet an assertion."""
    event: bool = False
    """A past action, not a change ("I met Anna at PyCon", "I ate sushi"; not "I moved to …"):
    another one does not replace it."""
    when: frozenset[str] = frozenset()
    """The clause's time qualifiers ("on Mondays", "in 2021", "at 10am"), values or not: a
    statement that repeats a fact at another time is not a repeat of it."""
    head: str = ""
    """The head noun of a multi-valued frame's value ("window seats" → ``seat``)."""
    others: tuple[Statement, ...] = ()
    """The sentence's other coordinate clauses ("the user's sister lives in York and the user
    moved to Leeds"): a held fact one of them updates is updated."""

    @property
    def first_person(self) -> bool:
        return self.holder[0] in ("user", "we")

    @property
    def polarity(self) -> Polarity:
        """``deny`` a flat denial, ``update`` a stated change or correction, else ``assert``."""
        if self.ending or self.change or self.replaced:
            return "update"
        return "deny" if self.negated and not self.habitual else "assert"

    @property
    def key(self) -> str:
        """A canonical subject key: ``user.home``, ``user.sister.home``, ``user.flight_return.when``."""
        holder = ["user" if h == "*" else h for h in self.holder]
        thing = "_".join([*sorted(self.instance), *self.thing.split()] if self.thing else [])
        frame = "" if self.frame in ("be", "*") and thing else self.frame
        parts = [*holder, thing, frame, "_".join(sorted(self.item))]
        return ".".join(_slug(p) for p in parts if p and _slug(p))

    @property
    def summary(self) -> str:
        """The claim in one line, as the rules' examples show it: ``user.home = leeds (change)``."""
        marks = [mark for mark in ("negated", "habitual", "change", "ending", "event") if getattr(self, mark)]
        said = f"{self.key} = {' '.join(sorted(self.values))}" if self.values else self.key
        return said + (f" ({', '.join(marks)})" if marks else "")

    @property
    def words(self) -> frozenset[str]:
        """Every normalised content word of the claim (holder, thing, frame, values)."""
        return frozenset(
            {
                *self.holder,
                *self.names,
                *self.thing.split(),
                *self.instance,
                *self.frame.split("_"),
                *self.item,
                *self.values,
            }
            - {"*", "", "be"}
        )


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", text.casefold()).strip("_")
