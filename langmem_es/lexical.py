"""Which words of a question a BM25 hit must hold: more than the words every sentence has.

Both backends score every word of the question (leaving words out of the query cost recall:
"What movie did Joanna watch on 1 May?" lost "May"), but a hit must hold one word that is
not a *function word*: an article or other determiner, a question word, a pronoun, a form
of "do", "be" or "have", a preposition or a conjunction.
Without it a memory that shares only such words with the question is a text hit, and in a
store of a few memories those words are as rare as any: "what pet do I have?" led with
"I'm vegetarian" (through "I") and "what do I drive?" too, above "My dog Biscuit …" and "My
car is …", which only the dense leg found; a text hit is worth a second vote in fusion. In a
large store such hits sit at the bottom of the text leg, where they can still fill it when few
memories hold the question's other words ("Who is my current employer?" once found "I just
started at Globex" through "my"/"I"): measured on the LoCoMo dev split and the
long-conversation yardstick in docs/recall-experiments.md.
"""

from __future__ import annotations

import re

__all__ = ["FUNCTION_WORDS", "content_words"]

#: The words of a question that say it is a question, or join or point at its words, rather
#: than what it is about. Not the modals ("May" is a month) nor negations.
FUNCTION_WORDS = frozenset(
    """
a an the what which who whom whose when where why how whether
do does did am is are was were be been being have has had having
i me my mine myself we us our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs themselves
this that these those any some each every all both either neither
about above across after against along among around as at before behind below beneath beside
besides between beyond by down during except for from in inside into near of off on onto out
outside over per since than through throughout till to toward towards under until up upon via
with within without
and but or nor so yet if because while although though
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
    "E-4012 happen v2.3.1, AT&T's fix?"
    >>> content_words("What is the?"), content_words("gateway TLS error")
    (None, None)
    """
    chunks = text.split()
    kept = [chunk for chunk in chunks if not _function_word(chunk)]
    return " ".join(kept) if kept and len(kept) < len(chunks) else None
