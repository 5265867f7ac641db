"""Text heuristics of belief maintenance, pure: denial, change, near-duplicate, contradiction.

Rule-based and lexical. Used by the semantic write path (which claim a statement
repeats, denies or updates) and by playbook filtering (which problem a playbook failed on).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any, Literal

from ..model import Memory, content_hash


# Present-tense "don't / doesn't" is left out on purpose: it states a habit or preference
# ("I don't eat meat") — an assertion — unless the sentence also rejects a claim ("no,").
_DENY = re.compile(
    r"\b(never|not true|not correct|not right|is not|was not|are not|were not|isn'?t|wasn'?t|aren'?t|weren'?t|"
    r"didn'?t|did not|haven'?t|have not|hasn'?t|has not|hadn'?t|had not|no|nope|wrong|incorrect|untrue|false|"
    r"mistaken|a mistake|not)\b",
    re.IGNORECASE,
)
_CHANGE = re.compile(
    r"\b(no longer|not any ?more|any ?more|moved|move|moving|relocated|now|nowadays|these days|switched|changed|"
    r"started|stopped|quit|became|become|instead|from now on|going forward|used to|joined|upgraded|"
    r"downgraded|replaced|renamed|got married|got divorced|retired)\b|\b(my|our|his|her|their|the|a) new\b",
    re.IGNORECASE,
)
_CORRECTION_WITH_VALUE = re.compile(
    r"\b(it'?s|it is|actually|rather|but)\b.*\b(not|isn'?t|wasn'?t)\b"
    r"|\b(not|isn'?t|wasn'?t|never)\b[^.;]*[,;:]\s*(but|rather|it'?s|it is|i'?m|i am|we'?re|we are|he'?s|she'?s|"
    r"they'?re|it was|i was)\b(?![^.]*\b(not|never|n'?t)\b)",
    re.IGNORECASE,
)
Statement = Literal["assert", "update", "deny"]


def classify_statement(content: str) -> Statement:
    """Rule-based: ``update``, ``deny`` or ``assert``.

    * ``update`` — a statement of change: "I moved to Edinburgh", "I no longer live in
      Bristol", "From now on call me Sam". It asserts the new state and supersedes.
    * ``deny`` — a flat denial with no replacement value: "I never lived in Bristol",
      "That's wrong, Alice isn't vegetarian". Held at reduced confidence until confirmed.
    * ``assert`` — a plain statement: "Alice lives in Bristol". Present-tense
      "don't/doesn't" states a habit or preference ("I don't eat meat") and is an
      assertion too, unless the sentence also rejects a claim ("No, I don't have kids").

    A correction that names the right value ("It's not Bristol, it's Leeds") is an
    update: it asserts Leeds.
    """
    text = " ".join(content.split())
    if _CHANGE.search(text):
        return "update"
    if _CORRECTION_WITH_VALUE.search(text):
        return "update"
    if _DENY.search(text):
        return "deny"
    return "assert"


def classify_polarity(content: str) -> str:
    """``deny`` for a flat denial ("I never lived in Bristol"), else ``assert``.

    A statement of change ("I moved to Edinburgh", "I no longer live in Bristol") is an
    update, not a denial: it asserts the new state.
    """
    return "deny" if classify_statement(content) == "deny" else "assert"


_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP = frozenset(
    "a an the is are was were be been being am i me my mine you your we our they their he she his her it its "
    "of in on at to for from by with and or but that this these those there here as do does did has have had "
    "not no never n't s t user users".split()
)


def content_words(text: str) -> set[str]:
    """Folded content words (no stop words, no negations) for lexical comparisons."""
    folded = unicodedata.normalize("NFKD", text).casefold()
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return {w for w in _WORD.findall(folded) if w not in _STOP and len(w) > 1}


def near_duplicate(old_content: str, new_content: str, similarity: float, threshold: float) -> bool:
    """The same claim in other words: very close in meaning *and* the same content words.

    Similarity alone is not enough — "renews on 1 March" and "renews on 1 April" embed
    almost identically — so every content word (values, names, numbers) must match too;
    only word order, stop words, inflection and punctuation may differ.
    """
    if similarity < threshold:
        return False

    def words(text: str) -> tuple[set[str], list[str]]:  # content words; numbers in order
        tokens = _WORD.findall(unicodedata.normalize("NFKD", text).casefold())
        return ({_stem(w) for w in tokens if not w.isdigit() and w not in _STOP and len(w) > 1},
                [w for w in tokens if w.isdigit()])

    return words(old_content) == words(new_content)


def key_terms(subject_key: str) -> set[str]:
    """The words of a subject key: ``user.favourite_colour`` → ``{"favourite", "colour"}``."""
    return {w for w in re.split(r"[._\-:/\s]+", subject_key.casefold()) if len(w) > 2 and w not in _STOP}


def likely_contradiction(old_content: str, old_key: str | None, new_content: str, similarity: float,
                         threshold: float) -> bool:
    """Is ``new_content`` (written without a subject key) a new value for ``old_key``?

    Similarity plus key: the two claims must be close in embedding space (``similarity``
    ≥ ``threshold``) *and* the new one must be about the key — it names the key's words
    ("favourite colour") or has the same frame as the old claim with only the value
    swapped ("Alice lives in Bristol" → "Alice lives in Leeds"). Without a key on the
    old fact nothing is inferred: "likes cats" and "likes dogs" can both be true.
    """
    if not old_key or similarity < threshold:
        return False
    new_words = content_words(new_content)
    old_words = content_words(old_content)
    if key_terms(old_key) & new_words and key_terms(old_key) & old_words:
        return True
    shared = old_words & new_words
    return len(shared) >= 2 and len(old_words - new_words) <= 2 and len(new_words - old_words) <= 2


def denies(old_content: str, denial: str, similarity: float, threshold: float) -> bool:
    """Does the flat denial ``denial`` negate the claim ``old_content``?

    Close in embedding space and the old claim's content words are (almost) all in the
    denial: "Alice never lived in Bristol" denies "Alice lives in Bristol" (after
    folding "lived"/"lives" to a shared stem).
    """
    if similarity < threshold:
        return False
    old = {_stem(w) for w in content_words(old_content)}
    new = {_stem(w) for w in content_words(denial)}
    return bool(old) and len(old - new) <= max(0, len(old) // 4)


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s", "d"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def failed_for_query(memory: Memory | Mapping[str, Any], query: str, *, overlap: float = 0.6) -> bool:
    """Post-filter for recall: did this playbook already fail for the problem in ``query``?

    ``record_outcome(..., success=False, problem=...)`` appends the problem to
    ``metadata["failed_for"]``. A playbook is withheld when one of those problems is the
    query (same fingerprint) or ``overlap`` of its content words are in the query.
    Works on a :class:`Memory` or a stored document (its ``value``).
    """
    meta = memory.metadata if isinstance(memory, Memory) else (memory.get("value", memory) or {}).get("metadata") or {}
    failed = meta.get("failed_for") or []
    if not failed:
        return False
    qhash = content_hash(query)
    qwords = {_stem(w) for w in content_words(query)}
    for problem in failed:
        if not isinstance(problem, str):
            continue
        if content_hash(problem) == qhash:
            return True
        pwords = {_stem(w) for w in content_words(problem)}
        if pwords and len(pwords & qwords) / len(pwords) >= overlap:
            return True
    return False
