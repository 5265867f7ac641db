"""Statement understanding: what a sentence claims, about whom, and how it bears on another.

The one module that denial detection, key inference, contradiction detection and
near-duplicate detection share. :func:`parse` turns a sentence into a
:class:`Statement` — *holder* (whose fact: the speaking user, "my sister", "Alice"),
*attribute* (the thing and predicate frame: home, employer, favorite color, the return
flight's time), *values* (normalised names, lemmas, numbers, dates), negation, tense and
change — and :func:`relate` says what a new statement does to a stored one:
``update`` · ``denial`` · ``reinforcement`` · ``other_key`` (same holder, another
attribute) · ``lookalike`` (same kind of attribute, another holder or instance) ·
``unrelated``.

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
which predicates name one attribute — is in :mod:`.statement_lexicon`.

Parts: :mod:`.statement_types` (the data), :mod:`.statement_phrases` (tokens, spelling,
noun phrases, values), :mod:`.statement_clauses` (one clause → a statement); this module
reads whole sentences and relates statements. Pure and deterministic: no I/O beyond
loading the model.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from . import statement_lexicon as L
from .statement_clauses import clause
from .statement_phrases import (
    DATE_WORDS,
    MODEL,
    american,
    content_lemmas,
    dated,
    noun_lemmas,
    reading,
    values_of,
    word_lemmas,
)
from .statement_types import RELATIONS, Polarity, Relation, Statement

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

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
    "relate",
    "same_attribute",
    "same_holder",
    "same_kind",
    "same_value",
    "topics",
    "word_lemmas",
]

_VERDICTS = frozenset({"wrong", "true", "untrue", "incorrect", "correct", "right", "false", "mistake"})


#: A leading label before the sentence itself ("Update: my phone is now …", "FYI - …").
_LABEL = re.compile(
    r"\s*(update|updated|correction|corrected|fyi|note|edit|ps|p\.s\.|new)\s*[:\-\u2013\u2014]\s+", re.I
)


@lru_cache(maxsize=8192)
def parse(text: str) -> Statement:
    """The claim of ``text`` (its most informative clause), with sentence-level change marks.

    A leading label is read as what it says, not as the subject: "Update: my phone is now
    555-9876" is the phone's statement, a change.
    """
    label = _LABEL.match(text)
    if label and text[label.end() :].strip():
        st = parse(text[label.end() :])
        changed = label.group(1).lower() in ("update", "updated", "correction", "corrected", "new")
        return replace(st, text=text, change=st.change or changed)
    doc = reading(text)
    heads = [
        t
        for t in doc
        if t.dep_ == "ROOT" or (t.pos_ in ("VERB", "AUX") and t.dep_ in ("conj", "ccomp", "advcl", "parataxis"))
    ]
    best: Statement | None = None
    best_score = -1.0
    best_head: Token | None = None
    clauses = _resolve_pronouns([clause(text, head) for head in heads])
    for head, st in zip(heads, clauses, strict=False):
        score = (
            (2.0 if st.holder != ("*",) or st.thing else 0.0)
            + (1.0 if st.values or st.item else 0.0)
            + (0.5 if not st.negated else 0.0)
            + (0.1 if head.dep_ == "ROOT" else 0.0)
            - (2.0 if st.values and st.values <= _VERDICTS else 0.0)
        )
        if score > best_score:
            best, best_score, best_head = st, score, head
    st = best or Statement(text=text)
    for other in clauses:  # "I'm not from Bristol, I'm from Leeds": one clause corrects the other
        if (
            other.negated
            and not st.negated
            and other is not st
            and other.frame == st.frame
            and other.values
            and st.values
            and other.values != st.values
        ):
            st = replace(st, replaced=frozenset(st.replaced | other.values))
    change, ending = _change_marks(doc)
    if best_head is not None and _judged_false(best_head):  # "It is incorrect that the API is public."
        st = replace(st, negated=not st.negated, habitual=False)
    elif _rejects(doc) and st.negated:  # "That's not true, I don't have a dog": a denial, not a habit
        st = replace(st, habitual=False)
    elif _rejects(doc) and st.values:  # "No, I live in York": a correction naming the value
        change = True
    replaced = frozenset(st.replaced | _corrected(doc) | _instead_of(doc, change))
    others = tuple(
        c
        for h, c in zip(heads, clauses, strict=False)
        if h is not best_head and h.dep_ in ("ROOT", "conj", "parataxis") and not (c.negated or c.event)
    )
    return replace(
        st,
        change=change or st.change or bool(replaced),
        ending=ending or st.ending,
        replaced=replaced,
        negated=st.negated and not ending,
        others=others,
    )


def _resolve_pronouns(clauses: list[Statement]) -> list[Statement]:
    """A clause whose subject is "she", "he" or "they" is about the person an earlier clause of
    the sentence named: "My daughter changed schools, she's at Hillview now"."""
    named: tuple[str, ...] | None = None
    out = []
    for c in clauses:
        if c.holder == ("*",) and c.thing in ("she", "he", "they") and named is not None:
            c = replace(c, holder=named, thing="")
        elif c.holder[0] == "user" and len(c.holder) > 1:
            named = c.holder
        out.append(c)
    return out


def _change_marks(doc: Doc) -> tuple[bool, bool]:
    low = [t.lower_ for t in doc]
    text = " ".join(low)
    ending = bool(
        re.search(r"\bno longer\b|\bused to\b|\b(not|n't)\b.*\bany ?more\b|\bpass(ed|es)? away\b|\bdied\b", text)
    ) or any(
        t.lemma_.lower() in L.ENDING_VERBS
        and t.pos_ == "VERB"
        and not any(p.dep_ == "prep" and dated(list(p.subtree)) for p in t.children)
        for t in doc
    )
    additive = bool(re.search(r"\b(also|too|as well|another|additionally)\b", text))  # "now also takes the bus"
    change = (
        ending
        or (not additive and bool(re.search(r"\bthese days\b", text)))
        or any(
            (t.pos_ == "VERB" and t.lemma_.lower() in L.CHANGE_VERBS)
            or (t.pos_ == "VERB" and (t.lemma_.lower(), _particle(t)) in L.CHANGE_PHRASALS)
            or (t.lower_ in L.CHANGE_ADVERBS and t.pos_ == "ADV" and not additive)
            or (t.lower_ in L.CHANGE_ADJECTIVES and t.dep_ == "amod" and not additive)
            for t in doc
        )
    )
    return change, ending


def _particle(verb: Token) -> str:
    """The particle of a phrasal verb, however the parse attached it ("took me off X", "went up to")."""
    return next(
        (
            c.lower_
            for c in verb.children
            if c.dep_ == "prt" or (c.dep_ in ("prep", "advmod") and c.lower_ in ("off", "up", "down", "out"))
        ),
        "",
    )


def _judged_false(head: Token) -> bool:
    """Is this clause the "that …" complement of a verdict of falsehood ("it is incorrect that …")?"""
    if head.dep_ not in ("ccomp", "csubj") or not any(c.dep_ == "mark" and c.lower_ == "that" for c in head.children):
        return False
    verdict = head.head
    words = {c.lower_ for c in verdict.children if c.dep_ in ("acomp", "attr")}
    negative = any(c.dep_ == "neg" for c in verdict.children)
    return bool(words & {"incorrect", "wrong", "untrue", "false"}) or (negative and bool(words & {"true", "correct"}))


def _rejects(doc: Doc) -> bool:
    """The sentence rejects a claim as a whole: "that's wrong", "not true", "incorrect"."""
    text = " ".join(t.lower_ for t in doc)
    return bool(
        re.search(
            r"\b(that|this|it)\s*('s|is|was)\s*(not true|wrong|incorrect|untrue|false)\b"
            r"|^(wrong|incorrect|not true|untrue|no|nope)\b",
            text,
        )
    )


def _corrected(doc: Doc) -> set[str]:
    """Values a sentence says are wrong, replaced or given up: "not Bristol", "from piano",
    "replaced my Ford", "I'm off fish"."""
    out: set[str] = set()
    for t in doc:
        if t.dep_ == "neg" and t.head.pos_ in ("PROPN", "NOUN", "NUM"):
            out |= values_of([t.head])
        if (
            t.dep_ == "neg"
            and t.head.lemma_ == "be"
            and any(c.lower_ in L.DEMONSTRATIVE for c in t.head.children if c.dep_ == "nsubj")
        ):
            out |= values_of([c for c in t.head.children if c.dep_ in ("attr", "acomp")]) - _VERDICTS
        if t.lower_ == "from" and t.dep_ == "prep" and t.head.lemma_.lower() in L.CHANGE_VERBS:
            out |= values_of([c for c in t.children if c.dep_ == "pobj"])
        if t.dep_ == "dobj" and t.lower_ not in L.FIRST_PERSON and _gives_up(t.head):
            out |= values_of([t])
        if t.dep_ == "prep" and (
            (t.lower_ == "off" and t.head.lemma_ == "be") or (t.lower_ == "with" and t.head.lower_ == "done")
        ):  # "I'm off fish now", "I'm done with Twitter"
            out |= values_of([c for c in t.children if c.dep_ == "pobj"])
    return out


def _instead_of(doc: Doc, change: bool) -> set[str]:
    """Values a sentence puts a new one in place of: "tea instead of coffee", "Linux rather than
    Windows", and — said as a change — "now prefers Go over Python"."""
    out: set[str] = set()
    for t in doc[1:]:
        before = doc[t.i - 1].lower_
        marker = (before, t.lower_) in (("instead", "of"), ("rather", "than")) or (
            t.lower_ == "over" and change and any(v.lemma_.lower() in L.PREFER_VERBS for v in doc[: t.i])
        )
        if marker:
            noun = next((w for w in doc[t.i + 1 : t.i + 4] if w.pos_ in ("NOUN", "PROPN")), None)
            if noun is not None:
                out |= values_of([noun])
    return out


def _gives_up(verb: Token) -> bool:
    """A verb whose object stops being the case: "replaced my Ford", "sold the Honda", "gave up coffee"."""
    lemma = verb.lemma_.lower()
    if lemma in ("replace", "trade", "swap"):
        return True
    done = verb.tag_ in ("VBD", "VBN") or verb.lower_ == "quit"  # "sold the Honda", not "sells insurance"
    return done and (
        lemma in L.GIVE_UP_VERBS
        or (lemma == "give" and any(c.dep_ == "prt" and c.lower_ == "up" for c in verb.children))
    )


# ----------------------------------------------------------------------------- relations


def core_values(values: frozenset[str]) -> frozenset[str]:
    """Numbers and names when a value has them (units, fillers, verbs aside), else all of it."""
    core = frozenset(v for v in values if v[:1].isdigit() or v.isalpha() is False or v in DATE_WORDS)
    return core or values


def same_value(a: frozenset[str], b: frozenset[str]) -> bool:
    """The same value in other words: equal cores, or one names a part of the other ("Ford" / "Ford Focus")."""
    if not a or not b:
        return not a and not b
    ca, cb = a, b
    na = {v for v in a if v[:1].isdigit()}
    nb = {v for v in b if v[:1].isdigit()}
    if (na or nb) and na != nb:
        return False
    return ca <= cb or cb <= ca


def overlap(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a & b)


def same_holder(a: Statement, b: Statement) -> bool:
    if a.holder == b.holder or (a.names & b.names) or (a.names & {b.holder[-1]}) or (b.names & {a.holder[-1]}):
        return True
    return a.holder == ("*",) or b.holder == ("*",)


def same_kind(a: Statement, b: Statement) -> bool:
    """The same kind of attribute, whoever holds it: both a home, both a flight's time."""
    return a.thing == b.thing and a.frame == b.frame and bool(a.frame)


def same_attribute(a: Statement, b: Statement) -> bool:
    if not same_kind(a, b) or a.instance != b.instance:
        return False
    if a.item or b.item:
        return same_value(a.item, b.item)
    return True


def relate(old: str | Statement, new: str | Statement) -> Relation:
    """What ``new`` does to the stored fact ``old`` (see the module docstring for the classes).

    A sentence is read through its main clause; when that one leaves ``old`` alone, another
    coordinate clause that updates it still does ("my sister lives in York and I moved to Leeds").
    """
    o = old if isinstance(old, Statement) else parse(old)
    n = new if isinstance(new, Statement) else parse(new)
    rel = _relate(o, n)
    if rel in ("other_key", "lookalike", "unrelated") and any(_relate(o, c) == "update" for c in n.others):
        return "update"
    return rel


def _relate(o: Statement, n: Statement) -> Relation:
    if _breaks_up_with(o, n):
        return "update"  # "Mia and I broke up" ends "I have a girlfriend, Mia"
    if n.ending and o.frame.startswith("own_") and n.holder[0] in o.values:
        return "update"  # "Max passed away" ends "I have a dog named Max"
    if o.frame == "role" and o.values & L.STUDENT_ROLES and n.holder == o.holder and _GRADUATED.search(n.text):
        return "update"  # "I graduated in June" ends "I'm a student"
    if _born_to(o, n):
        return "update"  # "the baby arrived" ends "I'm 5 months pregnant"
    if _moves_out(o, n):
        return "update"  # "we bought a house" ends "I rent my flat"; a move ends "lives with us"
    if _pursuit_met(o, n):
        return "update"  # "I bought the car last week" ends "I'm saving for a car"
    if _household(o, n):
        o = replace(o, holder=n.holder)
    if n.change and o.frame == n.frame and o.holder == n.holder and o.thing.endswith(" " + n.thing) and n.thing:
        o = replace(o, thing=n.thing)  # "the deadline got pushed" is "the project deadline" said shorter
    diet = _diet_clash(o, n)
    if diet is not None:
        return "update" if diet else "other_key"  # "I eat a lot of beans" leaves "I'm vegetarian"
    if n.change and o.frame == n.frame and o.holder == n.holder and _new_amount(o, n):
        return "update"  # "I've been sleeping eight hours lately" ← "I sleep about six hours a night"
    holder = same_holder(o, n)
    if n.replaced and holder and overlap(n.replaced, o.values | o.item | content_lemmas(o.text)):
        return "update"  # it names what it replaces: "… in Obsidian instead of Notion" ← "… in Notion"
    if not holder:
        return "lookalike" if same_kind(o, n) else "unrelated"
    if n.frame == "*":
        named = {n.head, *(v for v in n.values if not v[:1].isdigit())} - {""}
        if n.head and not any(_quantifies(o, w) for w in named):
            if n.change and not n.negated and _same_domain(o, n):
                return "update"  # "I've gone back to regular coffee" ← "I drink decaf only"
            return "other_key"  # a new amount of another thing, or of one ``o`` gives no amount of
        return "update" if n.change and not same_value(o.values, n.values) else "other_key"
    if (n.negated or n.ending) and o.holder == n.holder and _named_one_of(o, n):
        return "update" if n.ending else "denial"  # "has a dog named Rex" ← "doesn't have a dog (any more)"
    if n.change and _counts_children(o, n):
        return "update"  # "I have two kids now" ← "I have a son"
    if n.change and o.frame == n.frame and o.head and o.head == n.head and o.item != n.item:
        return "update"  # another one of the same thing, said to be a change: "now takes the 7:40 train" ← 8:15
    if not same_attribute(o, n):
        if same_kind(o, n) and o.instance != n.instance:
            return "lookalike"
        if "*" in (o.holder[0], n.holder[0]) or o.holder != n.holder and not (o.names & n.names):
            return "lookalike" if same_kind(o, n) else "unrelated"
        return "update" if _changes_what_it_names(o, n) else "other_key"
    if (
        o.holder != n.holder
        and "*" not in (o.holder[0], n.holder[0])
        and not (o.names & n.names)
        and not (o.names & {n.holder[-1]})
        and not (n.names & {o.holder[-1]})
    ):
        return "lookalike"
    if n.ending:
        return "update"
    if n.negated:
        return (
            "denial" if not n.values or overlap(n.values, o.values) or same_value(o.values, n.values) else "other_key"
        )
    if same_value(o.values, n.values):
        if n.when and not n.when <= o.when | o.values:  # the same thing at another time
            return "update" if n.change and o.when else "other_key"
        return "reinforcement"
    if o.event and n.event and not (n.ending or n.replaced):
        return "other_key"  # two one-off past actions ("I met Anna …", "I met Tom …"): both happened
    return "update"


def _changes_what_it_names(o: Statement, n: Statement) -> bool:
    """``n`` says something changed and names a thing ``o`` holds, in words no rule reads as one
    attribute ("I gave up on French and started Italian" ← "I'm learning French"; "My doctor took
    me off metformin" ← "I'm on metformin"); not one more event, not an addition ("also", "too")."""
    if not (n.change or n.ending) or n.negated or (o.event and n.event) or _ADDITIVE.search(n.text):
        return False
    holders = {*o.holder, *n.holder, *o.names, *n.names}  # the holder is not what changed
    held = noun_lemmas(o.text) - L.GENERIC_NOUNS - holders
    said = _argument_nouns(n.text) - L.GENERIC_NOUNS - holders
    if any(a == b or (len(a) >= 6 and len(b) >= 6 and a[:6] == b[:6]) for a in held for b in said):
        return True
    return _same_domain(o, n)


def _same_domain(o: Statement, n: Statement) -> bool:
    """One life domain in other words ("moved my email to Proton" ← "I use Gmail"), a liking
    only by a liking ("I'm learning Rust now" leaves "my preferred language is Python"), not
    said of another of the speaker's things ("my landlord raised the rent" leaves "I rent my flat")."""
    liking = (_PREFERENCE.search(o.text) is None) == (_PREFERENCE.search(n.text) is None)
    about = n.thing not in _subjects(n.text) or any(n.thing in words for words in L.TOPICS.values())
    return liking and about and bool(topics(o.text) & topics(n.text))


def _argument_nouns(text: str) -> frozenset[str]:
    """The nouns of a sentence but those that only qualify another noun ("office" in "a new
    office chair", "Mac" in "a new mouse for my Mac")."""
    return frozenset(
        american(t.lemma_.lower())
        for t in reading(text)
        if t.pos_ in ("NOUN", "PROPN")
        and t.lower_ not in L.SPEAKER_NOUNS
        and t.dep_ != "compound"
        and not (t.dep_ == "pobj" and t.head.dep_ == "prep" and _qualifies(t.head))
    )


def _qualifies(prep: Token) -> bool:
    """A preposition whose object only qualifies: "for my Mac" after an object (what for), "of
    wine" or "with milk" after a noun — not "signed up for a marathon", "gave up on French" nor
    "more into X than Muse"."""
    word, head = prep.lower_, prep.head
    if head.pos_ in ("NOUN", "PROPN"):
        return word in ("for", "of", "with")
    return word == "for" and any(c.dep_ == "dobj" for c in head.children)  # "bought a mouse for my Mac"


def _diet_clash(o: Statement, n: Statement) -> bool | None:
    """A diet and something eaten (either order): does the food break the diet? ``None`` when
    the two are not a diet and a food."""
    if not (o.frame == n.frame == "diet") or o.holder != n.holder:
        return None
    for rule, food in ((o, n), (n, o)):
        diets = [L.DIETS[v] for v in rule.values if v in L.DIETS]
        eaten = {v.removeprefix("eat_") for v in food.values if v.startswith("eat_")}
        if diets and eaten and not food.negated and not rule.negated and not food.ending:
            return any(e in d or e.rstrip("s") in d for e in eaten for d in diets)
    return None


def _pursuit_met(o: Statement, n: Statement) -> bool:
    """``o`` seeks something ("saving for a car", "looking for a job") and ``n`` says it was
    had ("I bought the car", "I found a job at Stripe"): the pursuit is over."""
    pursuit = re.search(L.PURSUIT, o.text, re.I)
    if pursuit is None or not n.event or n.negated or o.holder != n.holder:
        return False
    sought = {  # what follows "saving for", "training for": "a car", "a 10k"
        american(t.lemma_.lower())
        for t in reading(o.text)
        if t.idx >= pursuit.end() and (t.pos_ in ("NOUN", "PROPN") or (t.like_num and not t.is_digit))
    } - L.GENERIC_NOUNS
    return bool(sought & (_argument_nouns(n.text) | content_lemmas(n.text)))


_AMOUNT = re.compile(
    r"\b(\d+(?:\.\d+)?|" + "|".join(w for w in L.NUMBER_WORDS if len(w) > 2) + r")\s*([a-z%£$€]+)", re.I
)


def _new_amount(o: Statement, n: Statement) -> bool:
    """Each says one amount of the same unit and they differ: "six hours a night" → "eight hours"."""

    def amounts(text: str) -> list[tuple[str, str]]:
        out = []
        for number, unit in _AMOUNT.findall(text):
            value = str(L.NUMBER_WORDS.get(number.lower(), number))
            out.append((value, unit.lower().rstrip("s")))
        return out

    a, b = amounts(o.text), amounts(n.text)
    return len(a) == len(b) == 1 and a[0][1] == b[0][1] and a[0][0] != b[0][0]


def _subjects(text: str) -> frozenset[str]:
    """The lemmas of a sentence's subjects ("my landlord raised the rent": landlord)."""
    return frozenset(american(t.lemma_.lower()) for t in reading(text) if t.dep_ in ("nsubj", "nsubjpass"))


@lru_cache(maxsize=8192)
def topics(text: str) -> frozenset[str]:
    """The life domains of :data:`~.statement_lexicon.TOPICS` a sentence speaks of.

    >>> sorted(topics("I moved my email to Proton")), sorted(topics("I cycle to work now"))
    (['email'], ['commute'])
    """
    words = {
        w
        for t in reading(text)
        if t.dep_ not in ("nsubj", "nsubjpass", "compound")  # what it is about, or a kind of chair
        and not (t.dep_ == "pobj" and t.head.dep_ == "prep" and _qualifies(t.head))  # "a desk for the office"
        for w in (american(t.lemma_.lower()), t.lower_)
    }
    found = {name for name, lexicon in L.TOPICS.items() if words & lexicon}
    return frozenset(found | {name for name, pattern in L.TOPIC_PHRASES.items() if re.search(pattern, text, re.I)})


def _counts_children(o: Statement, n: Statement) -> bool:
    """``n`` gives a number of children and ``o`` had one kind of child: "I have two kids" ← "I have a son"."""
    return (
        o.frame == n.frame == "have"
        and o.holder == n.holder
        and bool(o.item)
        and o.item <= L.CHILD_NOUNS
        and n.item == {"child"}
        and any(v[:1].isdigit() for v in n.values)
    )


def _born_to(o: Statement, n: Statement) -> bool:
    """``o`` says someone is expecting a baby and ``n`` that a baby was born to them: "the baby
    arrived" ← "I'm pregnant", not "my sister's baby was born" ← "I'm pregnant"."""
    if o.negated or _EXPECTING.search(o.text) is None or _BIRTH.search(n.text) is None:
        return False
    parents = [w for w in n.holder[1:] if w not in L.CHILD_NOUNS and w not in ("twin", "one")]
    return n.holder[0] in ("user", "we", "*") and set(parents) <= set(o.holder[1:])


def _moves_out(o: Statement, n: Statement) -> bool:
    """``o`` is where or how someone lives (renting a flat, living with someone) and ``n`` moves
    them or has them buy or rent another home: the arrangement ends."""
    arrangement = o.frame == "live_with" or (o.frame.split("_")[0] in L.TENURE_FRAMES and bool(o.values & L.HOME_NOUNS))
    moved = ("home" in (n.frame, L.PERSON_FRAMES.get(n.frame)) and (n.change or n.event)) or (
        n.frame.split("_")[0] in ("buy", *L.TENURE_FRAMES) and bool(n.values & L.HOME_NOUNS) and (n.event or n.change)
    )
    household = {o.holder, n.holder} <= {("user",), ("we",)}
    return arrangement and moved and not n.negated and not o.negated and (o.holder == n.holder or household)


_RATE = re.compile(r"\b(a|an|per|each) (day|night|week|month|year)\b", re.I)  # "a pack a day"
_PREFERENCE = re.compile(r"\b(prefer\w*|favou?rite|like|love)\b", re.I)
_EXPECTING = re.compile(r"\b(pregnant|expecting a baby|expecting)\b", re.I)
_BIRTH = re.compile(
    r"\b(gave birth|(was|were) born|(baby|son|daughter|twins|little one) (arrived|came|is here|are here)|"
    r"had (the|our|a|my) (baby|son|daughter|twins))\b",
    re.I,
)
_GRADUATED = re.compile(r"\b(graduated|finished (my|the user's|their) (degree|studies))\b", re.I)
_ADDITIVE = re.compile(r"\b(also|too|as well|another|additionally|again)\b", re.I)


def _breaks_up_with(o: Statement, n: Statement) -> bool:
    """``n`` says the speaker no longer has a partner, and ``o`` names the speaker's partner."""
    if n.frame != "marital" or not n.values & L.UNPARTNERED or n.negated or o.holder[0] != "user":
        return False
    partner = (
        o.thing in L.PARTNER_NOUNS
        or o.frame.removeprefix("own_") in L.PARTNER_NOUNS
        or (len(o.holder) == 2 and o.holder[1] in L.PARTNER_NOUNS)
    )
    named = n.values - L.UNPARTNERED  # "Tom and I broke up": Tom
    return partner and n.holder == ("user",) and (not named or bool(named & (o.values | o.names)))


def _household(o: Statement, n: Statement) -> bool:
    """A home (or the children) said of "we" and of the speaker (or the speaker's family) is
    one: "We just moved to Bath" moves "I live in Bristol" and "My family lives in Ohio";
    "we have three kids now" counts "I have two kids"."""
    holders = {o.holder, n.holder}
    children = o.frame == n.frame == "have" and bool(o.item) and o.item | n.item <= L.CHILD_NOUNS
    return (
        (o.frame == n.frame == "home" or children)
        and ("we",) in holders
        and all(h == ("we",) or (h[0] == "user" and h[1:] in ((), ("family",))) for h in holders)
    )


def _quantifies(o: Statement, head: str) -> bool:
    """``o`` gives an amount or a frequency of ``head`` in its own words: "I eat meat every day"
    for meat, "I run 10 km a week" for km ("I love coffee" is no amount of coffee)."""
    words = content_lemmas(o.text)
    if head not in words | o.values | o.item | {o.head} and not topics(head) & topics(o.text):
        return False  # no amount of ``head``, nor of its domain ("cigarettes" ← "I smoke a pack a day")
    said = {t.lower() for t in re.findall(r"[A-Za-z]+", o.text)}
    return (
        any(w[:1].isdigit() for w in words | o.values | o.item)
        or bool(said & L.FREQUENCY_WORDS)
        or _RATE.search(o.text) is not None
    )


def _named_one_of(o: Statement, n: Statement) -> bool:
    """``o`` owns a named X ("a dog named Rex", frame ``own_dog``) and ``n`` speaks of having Xs."""
    return n.frame == "have" and len(n.item) == 1 and o.frame == "own_" + next(iter(n.item))


def classify(text: str) -> Polarity:
    """``assert``, ``update`` or ``deny`` for one statement on its own."""
    return parse(text).polarity
