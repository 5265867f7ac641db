"""Which other memories state a forgotten fact (pure): forgetting reaches every copy.

A semantic fact is usually extracted from a message that is also kept as an episodic
event, and a playbook may cite it. When the fact is forgotten, those copies go too (and
when the event is forgotten, the facts it states, by the same tests the other way round):

* **linked evidence** — the event or playbook *is* one of the fact's sources (its id is
  in ``fact.sources``), cites the fact (the fact's id is in its sources), or shares a
  message or turn reference with it (``message:…``, ``turn:…``: one utterance);
* **the same claim in other words** — an event close to the fact in meaning (cosine at
  least ``threshold``) that carries the fact's content words, in the first person where
  it lacks the subject's name (:func:`states_same_claim`). So "I have a red bike" goes
  with "Alice has a red bike", but "I ride my bike to work" and "Bob has a red bike" do not.

And forgetting by a description reaches only what the description is about
(:func:`describes`): the memory nearest to "the office Wi-Fi password" is not forgotten when
it is a locker code.

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
    return {
        w[:-1] if len(w) > 3 and w.endswith("s") else w for w in _WORD.findall(folded) if w not in _STOP and len(w) > 1
    }


def linked(fact: Memory, other: Memory) -> bool:
    """Is ``other`` tied to ``fact`` by evidence: one is the other's source, or both cite one utterance?"""
    if other.id in fact.sources or fact.id in other.sources:
        return True
    shared = set(fact.sources) & set(other.sources)
    return any(s.startswith(UTTERANCE_PREFIXES) for s in shared)


def _unaccented(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _tokens(text: str) -> list[str]:
    return _WORD.findall(_unaccented(text))


def _names(text: str, *, sentence_starts: bool = True) -> set[str]:
    """Capitalised words that are not stop words (folded): names of people, places, products.
    ``sentence_starts=False`` leaves out a sentence's first word ("Sure. Also, my code is …").

    >>> sorted(_names("Sure. Also, Bob said hi", sentence_starts=False))
    ['bob']
    """
    folded = _unaccented(text)
    out = set()
    for m in _WORD.finditer(folded):
        w = m.group()
        if not w[:1].isupper() or w.casefold() in _STOP:
            continue
        before = folded[: m.start()].rstrip(" \t\"'\u201c\u2018(")
        if not sentence_starts and (not before or before[-1] in ".!?:\n"):
            continue
        out.add(w.casefold())
    return out


_SELF = frozenset({"i", "my", "me", "mine", "we", "our"})


def describes(description: str, content: str, similarity: float, threshold: float) -> bool:
    """Is ``content`` about ``description`` (what a user asked to forget)? Close in meaning
    (cosine at least ``threshold``), or holding every content word of the description.

    >>> describes("the door code", "The door code is 4417.", 0.2, 0.35)
    True
    >>> describes("the office Wi-Fi password", "My locker combination is 31-07-99.", 0.17, 0.35)
    False
    """
    if similarity >= threshold:
        return True
    wanted = words(description)
    return bool(wanted) and wanted <= words(content)


def informative(text: str) -> bool:
    """Does ``text`` say something beyond a pleasantry: a number or code, or three content words?

    >>> informative("My locker combination is 31-07-99."), informative("See you tomorrow!")
    (True, False)
    """
    found = words(text)
    return len(found) >= 3 or bool(_literals(found))


def _literals(found: set[str]) -> set[str]:
    """The folded content words (of :func:`words`) holding a digit: numbers, codes, house numbers, versions."""
    return {w for w in found if any(c.isdigit() for c in w)}


def states_same_claim(fact: Memory, event: Memory, similarity: float, threshold: float) -> bool:
    """Conservative: close in meaning, at least two content words in common, and the event says
    the fact in the first person — every fact word it lacks is the subject's name ("Alice's
    parcel code is 4471" ← "My parcel code is 4471"), and it names nobody the fact does not."""
    if similarity < threshold:
        return False
    fact_words, event_words = words(fact.content), words(event.content)
    common = fact_words & event_words
    if len(common) < min(2, len(fact_words)) or not common:
        return False
    missing = fact_words - event_words
    said_again = _SELF & {t.casefold() for t in _tokens(event.content)}
    if missing and not (missing <= _names(fact.content) and said_again):
        # or the fact's own value (its numbers and codes) with most of its words, in the first
        # person: "I told the bot my address is 12 Elm Street" ← "My home address is 12 Elm Street"
        literals = _literals(fact_words)
        if not (said_again and literals and literals <= event_words and 5 * len(common) >= 3 * len(fact_words)):
            return False
    return not (_names(event.content, sentence_starts=False) - fact_words - _names(fact.content))


def is_copy(fact: Memory, other: Memory, similarity: float, threshold: float) -> bool:
    """Does ``other`` (an episodic event or a playbook) state ``fact``, or was it its source?"""
    if other.id == fact.id:
        return False
    if linked(fact, other):
        return True
    return other.kind == "episodic" and states_same_claim(fact, other, similarity, threshold)
