"""A second retrieval hop (pure part): the words the first hop's best hits add.

Multi-hop questions ("What does my sister's new employer make?") name one end of a chain;
the first hop finds the turn naming the sister, and that turn names what the question
does not (her name). The second hop searches again with those words. Which words: those
of the best hits that the question lacks, rare among all candidates (a word every
candidate shares says nothing), and preferably names (capitalised mid-sentence).

>>> expansion_terms("Where does my sister work?",
...                 ["My sister Lurena moved to Oslo.", "Lurena loves it there."],
...                 ["My sister Lurena moved to Oslo.", "Lurena loves it there.", "I moved too."], n_terms=2)
['lurena', 'oslo']
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

__all__ = ["expansion_terms"]

_WORD = re.compile(r"[^\W_][^\W_'’]*", re.UNICODE)
_STOP = frozenset(
    "a an the is are was were be been being am i me my mine you your we our they their he she his her him it its "
    "of in on at to for from by with and or but that this these those there here as do does did has have had "
    "not no never so too very just really what when where which who whom why how can could would should will "
    "shall may might must also about into over after before then than them us one some any all more most much "
    "yes yeah oh hey hi thanks thank okay ok well like get got go going gonna wanna lot lots sure great good "
    "nice cool awesome amazing love".split()
)


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def expansion_terms(query: str, best: Sequence[str], window: Sequence[str], *, n_terms: int = 5) -> list[str]:
    """Up to ``n_terms`` lowercased words of the ``best`` hits' texts worth a second
    search: absent from the query, not stop words, rare across ``window`` (the texts of
    every candidate), counted once per hit holding them; names weigh double."""
    asked = {w.lower() for w in _words(query)}
    df: dict[str, int] = {}
    for text in window:
        for w in {w.lower() for w in _words(text)}:
            df[w] = df.get(w, 0) + 1
    n = max(len(window), 1)
    score: dict[str, float] = {}
    for text in best:
        words = _words(text)
        names = {w.lower() for k, w in enumerate(words) if k and w[0].isupper()}
        for w in {w.lower() for w in words}:
            if w in asked or w in _STOP or len(w) < 3 or w.isdigit():
                continue
            idf = math.log(1 + n / (1 + df.get(w, 0)))
            score[w] = score.get(w, 0.0) + idf * (2.0 if w in names else 1.0)
    return [w for w, _ in sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))[:n_terms]]
