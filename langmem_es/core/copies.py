"""Which other memories state a forgotten fact (pure): forgetting reaches every copy.

A semantic fact is usually extracted from a message that is also kept as an episodic
event, and a playbook may cite it. When the fact is forgotten, those copies go too:

* **linked evidence** — the event or playbook *is* one of the fact's sources (its id is
  in ``fact.sources``), cites the fact (the fact's id is in its sources), or shares a
  message or turn reference with it (``message:…``, ``turn:…``: one utterance);
* **the same claim in other words** — an event close to the fact in meaning (cosine at
  least ``threshold``) that also carries most of the fact's content words. Both are
  required, so "I have a red bike" goes with "The user has a red bike", but "I ride to
  work" does not.

Documents and broad references (``doc:handbook``) are not utterances: sharing one does
not make an event a copy (forget by ``source=`` for that).
"""

from __future__ import annotations

import re
import unicodedata

from ..model import Memory

UTTERANCE_PREFIXES = ("message:", "msg:", "turn:", "utterance:", "event:")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP = frozenset(
    "a an the is are was were be been being am i me my mine you your we our they their he she his her it its "
    "of in on at to for from by with and or but that this these those there here as do does did has have had "
    "not no never s t user users now actually also just still".split()
)


def words(text: str) -> set[str]:
    """Folded content words (stop words and one-letter tokens dropped; a trailing plural s folded)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text).casefold() if not unicodedata.combining(c))
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in _WORD.findall(folded)
            if w not in _STOP and len(w) > 1}


def linked(fact: Memory, other: Memory) -> bool:
    """Is ``other`` tied to ``fact`` by evidence: one is the other's source, or both cite one utterance?"""
    if other.id in fact.sources or fact.id in other.sources:
        return True
    shared = set(fact.sources) & set(other.sources)
    return any(s.startswith(UTTERANCE_PREFIXES) for s in shared)


def states_same_claim(fact: Memory, event: Memory, similarity: float, threshold: float) -> bool:
    """Conservative: close in meaning and at least two thirds of the fact's content words present."""
    if similarity < threshold:
        return False
    fact_words = words(fact.content)
    if not fact_words:
        return False
    return len(fact_words & words(event.content)) * 3 >= 2 * len(fact_words)


def is_copy(fact: Memory, other: Memory, similarity: float, threshold: float) -> bool:
    """Does ``other`` (an episodic event or a playbook) state ``fact``, or was it its source?"""
    if other.id == fact.id:
        return False
    if linked(fact, other):
        return True
    return other.kind == "episodic" and states_same_claim(fact, other, similarity, threshold)
