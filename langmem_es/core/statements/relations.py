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
which predicates name one attribute — is in :mod:`.lexicon`.

Parts: :mod:`.types` (the data), :mod:`.phrases` (tokens, spelling,
noun phrases, values), :mod:`.clauses` (one clause → a statement),
:mod:`.changes` (a change said in other words); this module
reads whole sentences and relates statements. Pure and deterministic: no I/O beyond
loading the model.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from . import changes, lexicon
from .casual import tidy
from .changes import topics
from .clauses import clause
from .phrases import (
    DATE_WORDS,
    MODEL,
    american,
    content_lemmas,
    dated,
    particle,
    reading,
    values_of,
    word_lemmas,
)
from .types import RELATIONS, Polarity, Relation, Statement

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


#: The memory tools' third person: "The user relocated …" (not "The user's …").
_THE_USER = re.compile(r"\s*the user\s+(?!'s\b)", re.I)


@lru_cache(maxsize=8192)
def parse(text: str) -> Statement:
    """The claim of ``text`` (its most informative clause), with sentence-level change marks.

    A leading label is read as what it says, not as the subject: "Update: my phone is now
    555-9876" is the phone's statement, a change. A sentence in the tools' third person that
    the parser reads without its subject ("The user commutes by train": "user commutes" taken
    for one noun) is read as the user's own words.
    """
    text = tidy(text)  # chat-style text ("btw i moved to leeds") read as the sentence it stands for
    st = _parse(text)
    said = _THE_USER.match(text)
    if said and st.holder[:1] != ("user",):
        own = _parse("I " + text[said.end() :])
        if own.holder[:1] == ("user",):
            return own
    return st


def _parse(text: str) -> Statement:
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
        if h is not best_head
        and (h.dep_ in ("ROOT", "conj", "parataxis") or _spliced(h))
        and not (c.negated or c.event)
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


#: Verbs whose complement clause is what someone says or thinks, not the speaker's claim.
_REPORTING = frozenset("say tell think believe know hope mean guess feel hear claim reckon suppose wish".split())


def _spliced(head: Token) -> bool:
    """A clause the parser hung under the next one when a comma joins two claims: "I'm seeing
    someone now, her name is Sam" (not "I think I'm moving", what someone says or thinks)."""
    return (
        head.dep_ == "ccomp"
        and head.i < head.head.i
        and head.head.lemma_.lower() not in _REPORTING
        and not any(c.dep_ == "mark" for c in head.children)
        and any(t.text == "," for t in head.doc[head.i : head.head.i])
    )


def _change_marks(doc: Doc) -> tuple[bool, bool]:
    low = [t.lower_ for t in doc]
    text = " ".join(low)
    ending = bool(
        re.search(r"\bno longer\b|\bused to\b|\b(not|n't)\b.*\bany ?more\b|\bpass(ed|es)? away\b|\bdied\b", text)
    ) or any(
        (t.lemma_.lower() in lexicon.ENDING_VERBS or (t.lemma_.lower(), particle(t)) in lexicon.ENDING_PHRASALS)
        and t.pos_ == "VERB"
        # "left Google in 2019", "laid off from my previous job in 2019": a past ending, not the held one's
        and not any(p.dep_ == "prep" and p is not t and dated(list(p.subtree)) for p in t.subtree)
        for t in doc
    )
    additive = bool(re.search(r"\b(also|too|as well|another|additionally)\b", text))  # "now also takes the bus"
    change = (
        ending
        or (not additive and bool(re.search(r"\bthese days\b", text)))
        or any(
            (t.pos_ == "VERB" and t.lemma_.lower() in lexicon.CHANGE_VERBS)
            or (t.pos_ == "VERB" and (t.lemma_.lower(), particle(t)) in lexicon.CHANGE_PHRASALS)
            or (t.lower_ in lexicon.CHANGE_ADVERBS and t.pos_ == "ADV" and not additive)
            or (t.lower_ in lexicon.CHANGE_ADJECTIVES and t.dep_ == "amod" and not additive)
            or (t.lemma_.lower() in lexicon.CHANGE_NOUNS and t.dep_ == "dobj" and t.head.lemma_ in ("get", "receive"))
            for t in doc
        )
    )
    return change, ending


def _judged_false(head: Token) -> bool:
    """Is this clause the "that …" complement of a verdict of falsehood ("it is incorrect that …"),
    or what the speaker says they never said ("I never said I liked jazz")?"""
    said = head.head
    if (
        head.dep_ == "ccomp"
        and said.lemma_.lower() in ("say", "tell", "claim", "mention")
        and any(c.dep_ == "neg" or c.lower_ == "never" for c in said.children)
        and any(c.dep_ == "nsubj" and c.lower_ in lexicon.FIRST_PERSON for c in said.children)
    ):
        return True
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
            and any(c.lower_ in lexicon.DEMONSTRATIVE for c in t.head.children if c.dep_ == "nsubj")
        ):
            out |= values_of([c for c in t.head.children if c.dep_ in ("attr", "acomp")]) - _VERDICTS
        if t.lower_ == "from" and t.dep_ == "prep" and t.head.lemma_.lower() in lexicon.CHANGE_VERBS:
            out |= values_of([c for c in t.children if c.dep_ == "pobj"])
        if t.dep_ == "dobj" and t.lower_ not in lexicon.FIRST_PERSON and _gives_up(t.head):
            out |= values_of([t])
        if t.dep_ == "prep" and (
            (t.lower_ == "off" and t.head.lemma_ == "be") or (t.lower_ == "with" and t.head.lower_ == "done")
        ):  # "I'm off fish now", "I'm done with Twitter"
            out |= values_of([c for c in t.children if c.dep_ == "pobj"])
    return out


def _instead_of(doc: Doc, change: bool) -> set[str]:
    """Values a sentence puts a new one in place of: "tea instead of coffee", "Linux rather than
    Windows", and — said as a change — "now prefers Go over Python", "more into Radiohead than Muse"."""
    out: set[str] = set()
    for t in doc[1:]:
        before = doc[t.i - 1].lower_
        marker = (
            (before, t.lower_) in (("instead", "of"), ("rather", "than"))
            or (t.lower_ == "over" and change and any(v.lemma_.lower() in lexicon.PREFER_VERBS for v in doc[: t.i]))
            or (t.lower_ == "than" and change and any(w.lower_ == "more" for w in doc[: t.i]))
        )  # "more into X than Muse"
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
        lemma in lexicon.GIVE_UP_VERBS
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


def _said_by_its_form(o: Statement, n: Statement) -> bool:
    """``n`` names ``o``'s thing by the form its value takes ("number"), and the values look
    alike: "My new number is 07700 900456" ← "My phone number is 07700 900123" (not an
    account number of another length)."""
    if n.thing not in lexicon.GENERIC_HEADS or n.thing == o.thing or n.thing not in word_lemmas(o.text):
        return False
    if len(o.values) != 1 or len(n.values) != 1:
        return False
    [a], [b] = o.values, n.values
    return a.isdigit() and b.isdigit() and abs(len(a) - len(b)) <= 1


def same_kind(a: Statement, b: Statement) -> bool:
    """The same kind of attribute, whoever holds it: both a home, both a flight's time
    (an office address is an address as a home is)."""
    return _kind(a) == _kind(b) and bool(a.frame)


def _kind(s: Statement) -> tuple[str, str]:
    if s.thing in lexicon.THING_FRAMES and s.frame in ("be", "when", "where"):
        return "", lexicon.THING_FRAMES[s.thing]
    return s.thing, s.frame


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
    if rel == "update" and not n.ending and n.frame not in changes.ONE_VALUED and changes.adds(n):
        return "other_key"  # one more: "I also swim on Fridays" leaves "I swim on Mondays"
    if rel == "reinforcement" and changes.adds(n) and changes.names_more(o, n):
        return "other_key"  # the same, somewhere more: "… dark mode in my terminal too" ← "… in my editor"
    return rel


def _relate(o: Statement, n: Statement) -> Relation:
    if changes.breaks_up_with(o, n):
        return "update"  # "Mia and I broke up" ends "I have a girlfriend, Mia"
    if n.ending and o.frame.startswith("own_") and n.holder[0] in o.values:
        return "update"  # "Max passed away" ends "I have a dog named Max"
    if changes.plan_called_off(o, n):
        return "update"  # "the trip to Japan got cancelled" ends "going to Japan in April"
    owned = changes.ownership(o, n)
    if owned is not None:
        return owned  # "The payments team owns checkout now" ← "Checkout is owned by the web team"
    if changes.took_over_role(o, n):
        return "update"  # "Tom took over as product owner for search" ← "Maria is the product owner for search"
    if changes.left_post(o, n):
        return "update"  # "Dana left the company" ends "Dana is the tech lead"
    if changes.graduated(o, n):
        return "update"  # "I graduated in June" ends "I'm a student"
    if changes.born_to(o, n):
        return "update"  # "the baby arrived" ends "I'm 5 months pregnant"
    if changes.moves_out(o, n):
        return "update"  # "we bought a house" ends "I rent my flat"; a move ends "lives with us"
    if changes.pursuit_met(o, n):
        return "update"  # "I bought the car last week" ends "I'm saving for a car"
    if changes.household(o, n):
        o = replace(o, holder=n.holder)
    if (
        n.change
        and o.frame == n.frame
        and o.holder == n.holder
        and n.thing
        and (o.thing.endswith(" " + n.thing) or _said_by_its_form(o, n))
    ):  # said shorter: "the deadline got pushed" ← "the project deadline", "my new number" ← "my phone number"
        o = replace(o, thing=n.thing)
    diet = changes.diet_clash(o, n)
    if diet is not None:
        return "update" if diet else "other_key"  # "I eat a lot of beans" leaves "I'm vegetarian"
    other_instance = bool(o.instance and n.instance and o.instance != n.instance)
    if (
        n.change
        and o.holder == n.holder
        and not other_instance
        and changes.new_amount(o, n)
        and (o.frame == n.frame or changes.measures_one(o, n))
    ):
        return "update"  # "I've been sleeping eight hours lately" ← "I sleep about six hours a night"
    if changes.handed_over(o, n):
        return "update"  # "Bob took over the billing service from Alice" ← "Alice owns the billing service"
    if changes.moved_value(o, n):
        return "update"  # "Standup moved to 10:00" ← "The team standup is at 9:30"
    holder = same_holder(o, n)
    if n.replaced and holder and overlap(n.replaced, o.values | o.item | content_lemmas(o.text)):
        return "update"  # it names what it replaces: "… in Obsidian instead of Notion" ← "… in Notion"
    if not holder:
        return "lookalike" if same_kind(o, n) else "unrelated"
    if n.frame == "*":
        named = {n.head, *(v for v in n.values if not v[:1].isdigit())} - {""}
        if n.head and not any(changes.quantifies(o, w) for w in named):
            if n.change and not n.negated and changes.same_domain(o, n):
                return "update"  # "I've gone back to regular coffee" ← "I drink decaf only"
            return "other_key"  # a new amount of another thing, or of one ``o`` gives no amount of
        if changes.sets_what_is_held(o, n):
            return "other_key"  # "I switched my Mac to dark mode" leaves "I use a Mac for work"
        return "update" if n.change and not same_value(o.values, n.values) else "other_key"
    if (n.negated or n.ending) and o.holder == n.holder and changes.named_one_of(o, n):
        return "update" if n.ending else "denial"  # "has a dog named Rex" ← "doesn't have a dog (any more)"
    if changes.denies_the_kind(o, n):
        return "denial"  # "I have a dog" ← "I don't have any pets"
    if n.change and changes.counts_children(o, n):
        return "update"  # "I have two kids now" ← "I have a son"
    if n.change and o.frame == n.frame and o.head and o.head == n.head and o.item != n.item:
        return "update"  # another one of the same thing, said to be a change: "now takes the 7:40 train" ← 8:15
    if changes.prefers_another(o, n):
        return "update"  # one preferred of a kind: "I prefer light mode" ← "I prefer dark mode"
    if o.holder == n.holder and n.values and n.values < o.values and n.when - o.when:
        return "other_key"  # a time for what is held: "I now take my sertraline in the morning"
    if o.holder == n.holder and o.thing == n.thing and changes.described_not_named(o, n):
        return "other_key"  # what the held one does or is like: "My manager moved to a new office"
    if not same_attribute(o, n):
        if same_kind(o, n) and o.instance != n.instance:
            return "lookalike"
        if "*" in (o.holder[0], n.holder[0]) or o.holder != n.holder and not (o.names & n.names):
            return "lookalike" if same_kind(o, n) else "unrelated"
        return "update" if changes.changes_what_it_names(o, n) else "other_key"
    if (
        o.holder != n.holder
        and "*" not in (o.holder[0], n.holder[0])
        and not (o.names & n.names)
        and not (o.names & {n.holder[-1]})
        and not (n.names & {o.holder[-1]})
    ):
        return "lookalike"
    if n.ending and n.when and n.tense == "past" and not overlap(n.values, o.values):
        return "other_key"  # another one that ended then: "laid off from my previous job in 2019"
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
    if changes.other_measure(o, n):
        return "other_key"  # "the cluster runs Elasticsearch 8.19" leaves "the cluster has 3 nodes"
    return "update"


def classify(text: str) -> Polarity:
    """``assert``, ``update`` or ``deny`` for one statement on its own."""
    return parse(text).polarity
