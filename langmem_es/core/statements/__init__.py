"""Statement understanding: what a sentence claims, about whom, and how it bears on another.

The one package that denial detection, key inference, contradiction detection and
near-duplicate detection share. Its face is small:

* :func:`read` (also :func:`parse`) turns a sentence into a :class:`Statement` — *holder*
  (whose fact: the speaking user, "my sister", "Alice"), *attribute* (the thing and predicate
  frame: home, employer, favorite color, the return flight's time), *values* (normalised names,
  lemmas, numbers, dates), negation, tense and change;
* :func:`relate` says what a new statement does to a stored one: ``update`` · ``denial`` ·
  ``reinforcement`` · ``other_key`` (same holder, another attribute) · ``lookalike`` (same kind
  of attribute, another holder or instance) · ``unrelated``;
* :func:`classify` gives one statement's polarity: ``assert``, ``update`` or ``deny``.

>>> read("I moved to Leeds").summary, relate("I live in Bristol", "I moved to Leeds")
('user.home = leeds (change)', 'update')

**Library: spaCy 3.8 with its small English pipeline** (``en_core_web_sm``, 12 MB of
weights, CPU, no torch; loaded once, ~1 s; ~7 ms a sentence, results cached). Chosen over
lemmatiser-only libraries (simplemma, lemminflect) because the hard cases need *syntax*,
not just lemmas: who the subject is ("my sister lives in York" is not the user's home),
passive voice ("I'm employed by Initech"), negation scope ("no longer" ends a fact,
"never" denies it), tense from morphology, inverted copulas ("Blue is my favourite
colour") and entity types that tell a date from a place. Its lemmatiser is rule- and
lookup-based on the tagger's part of speech ("lived"/"lives"/"living" → "live", but
"leaves" the verb ≠ "leaves" the noun). Spelling variants are folded to American
spelling with **breame**'s British/American word lists (favourite → favorite,
organise → organize). The English the grammar cannot tell — which nouns are people,
which predicates name one attribute — is data: :mod:`.lexicon` (``lexicon.json``).

Parts, from words up (each imports only those before it):

* :mod:`.types` — the data (:class:`Statement`, the names of polarities and relations);
* :mod:`.lexicon` — the English known by name;
* :mod:`.phrases`, :mod:`.values` — the pipeline, spelling, noun phrases, values;
* :mod:`.casual` — chat-style text read as the sentence it stands for;
* :mod:`.parts` — a clause's parts, and statements several rules build alike;
* :mod:`.arrangements`, :mod:`.copulas`, :mod:`.predicates`, :mod:`.possession`,
  :mod:`.frames` — one rule a pattern of a clause, each with its example;
* :mod:`.clauses` — one clause → a statement; :mod:`.sentences` — a whole sentence;
* :mod:`.compare`, :mod:`.changes`, :mod:`.amounts`, :mod:`.life_events` — comparing two
  statements, and changes said in other words;
* :mod:`.relations` — :func:`relate`, one rule a pattern.

Pure and deterministic: no I/O beyond loading the model and the lexicon.
"""

from __future__ import annotations

from .changes import topics
from .compare import core_values, overlap, same_attribute, same_holder, same_kind, same_value
from .phrases import MODEL, american, content_lemmas, word_lemmas
from .relations import relate
from .sentences import classify, parse, read, read_ahead
from .types import RELATIONS, Polarity, Relation, Statement

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
    "read_ahead",
    "read",
    "relate",
    "same_attribute",
    "same_holder",
    "same_kind",
    "same_value",
    "topics",
    "word_lemmas",
]
