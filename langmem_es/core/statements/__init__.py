"""Statement understanding (pure language, no I/O): what a sentence claims, and how it bears on another.

:func:`read` (also :func:`parse`) turns a sentence into a :class:`Statement`; :func:`relate`
says what a new statement does to a stored one; :func:`classify` gives one statement's
polarity. See :mod:`.relations` for the classes and the library.
"""

from __future__ import annotations

from .relations import (
    MODEL,
    RELATIONS,
    Polarity,
    Relation,
    Statement,
    american,
    classify,
    content_lemmas,
    core_values,
    overlap,
    parse,
    relate,
    same_attribute,
    same_holder,
    same_kind,
    same_value,
    topics,
    word_lemmas,
)

read = parse

__all__ = [
    "MODEL",
    "RELATIONS",
    "Polarity",
    "Relation",
    "Statement",
    "american",
    "classify",
    "content_lemmas",
    "core_values",
    "overlap",
    "parse",
    "read",
    "relate",
    "same_attribute",
    "same_holder",
    "same_kind",
    "same_value",
    "topics",
    "word_lemmas",
]
