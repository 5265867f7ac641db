"""Which words of a question a BM25 hit must hold: not only the words that make it a question.

A question shares its question words with every other question: in a user's memory of a
few hundred short turns, "what" in "what about the weather tomorrow?" is rare enough to
outrank the one log line "What TLS error did the gateway log show?" is about. Both
backends still score every word of the question (leaving words out of the query cost
recall: "How long has Nate had his turtles?" finds "I've had them for 3 years" through
"had", "Where am I living these days?" finds "I moved to Leeds" through "I"), but a hit
must hold one word that is not an article, a question word or a form of "do" or "be".
On the LoCoMo dev split (SQLite and Elasticsearch) and the long-conversation yardstick
recall is unchanged (docs/recall-experiments.md).
"""

from __future__ import annotations

import re

__all__ = ["FUNCTION_WORDS", "content_words"]

#: The words of a question that say it is a question rather than what it is about:
#: articles, question words, and the auxiliaries "do" and "be". Pronouns and prepositions are
#: not among them: "Where am I living these days?" finds "I moved to Leeds" through "I".
FUNCTION_WORDS = frozenset(
    """
a an the what which who whom whose when where why how whether
do does did am is are was were be been being
""".split()
)

_EDGES = "\"'“”‘’()[]{}<>,.;:!?"
_CONTRACTED = re.compile(r"^([a-z]+)'(?:s|re|ve|ll|d|m|t)$")


def _function_word(chunk: str) -> bool:
    core = chunk.strip(_EDGES).lower().replace("’", "'")
    contracted = _CONTRACTED.match(core)
    return core in FUNCTION_WORDS or (contracted is not None and contracted.group(1) in FUNCTION_WORDS)


def content_words(text: str) -> str | None:
    """The words of ``text`` that are not :data:`FUNCTION_WORDS`, each as written ("E-4012",
    "v2.3.1", "AT&T's" stay whole), when it has words of both kinds; ``None`` when it has no
    function word or nothing else (then any of its words will do).

    >>> content_words("What TLS error did the gateway log show?")
    'TLS error gateway log show?'
    >>> content_words("Why does E-4012 happen on v2.3.1, and what's AT&T's fix?")
    "E-4012 happen on v2.3.1, and AT&T's fix?"
    >>> content_words("What is the?"), content_words("gateway TLS error")
    (None, None)
    """
    chunks = text.split()
    kept = [chunk for chunk in chunks if not _function_word(chunk)]
    return " ".join(kept) if kept and len(kept) < len(chunks) else None
