"""Changes said in other words: does a new statement change what a held one names, though it
sets no attribute in the same words?

A change that names what the held fact names ("I gave up on French and started Italian" ←
"I'm learning French"), or speaks of the same life domain (:data:`~.lexicon.TOPICS`: "moved
my email to Proton" ← "I use Gmail"); one more ("also", "too") rather than another; an amount
of a thing; a kind denied or preferred. The rules of :mod:`.relations` ask these questions;
:mod:`.life_events` and :mod:`.amounts` hold the others. Pure functions of two parsed statements.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from . import lexicon
from .phrases import american, content_lemmas, noun_lemmas, particle, reading
from .types import Statement

if TYPE_CHECKING:
    from spacy.tokens import Token


def changes_what_it_names(o: Statement, n: Statement) -> bool:
    """``n`` says something changed and names a thing ``o`` holds, in words no rule reads as one
    attribute ("I gave up on French and started Italian" ← "I'm learning French"; "My doctor took
    me off metformin" ← "I'm on metformin"); not one more event, not an addition ("also", "too")."""
    if not (n.change or n.ending) or n.negated or (o.event and n.event) or _ADDITIVE.search(n.text):
        return False
    # not the holder, not a unit ("kg"), not what the new statement describes ("my car needs new tyres")
    # nor the names of two other values ("Dr Shah" / "Dr Kim": a title and a name, not a thing held)
    holders = {*o.holder, *n.holder, *o.names, *n.names, *_other_names(o.text, n.text)}
    held = noun_lemmas(o.text) - lexicon.GENERIC_NOUNS - lexicon.MEASURES - holders
    said = argument_nouns(n.text) - lexicon.GENERIC_NOUNS - lexicon.MEASURES - holders - _subjects(n.text)
    if any(a == b or (len(a) >= 6 and len(b) >= 6 and a[:6] == b[:6]) for a in held for b in said):
        if _bought_new(n.text) and not (o.frame in _HAVING or o.frame.startswith("own_") or o.thing):
            return False  # "I bought a new guitar" leaves "I play guitar in a band"
        if sets_what_is_held(o, n):
            return False  # "I switched my Mac to dark mode" sets the Mac, it does not replace it
        # said to be new only by "now"/"these days", in another frame, it is a new habit beside the
        # fact ("I now walk the dogs twice a day" leaves "I have two dogs")
        return o.frame == n.frame or n.ending or _changed_by_verb(n.text)
    return same_domain(o, n)


def _other_names(a: str, b: str) -> frozenset[str]:
    """The proper-noun words of two sentences naming other things ("Dr Shah" / "Dr Kim"), or none
    when one sentence's names hold the other's ("French" / "French and Italian")."""
    x, y = (frozenset(t.lower_ for t in reading(s) if t.pos_ == "PROPN") for s in (a, b))
    return x | y if x and y and not (x <= y or y <= x) else frozenset()


_HAVING = frozenset({"have", "use", "drive", "ride", "wear", "own", "get"})


_ACQUIRING = frozenset({"buy", "get", "order", "purchase", "pick"})


def sets_what_is_held(o: Statement, n: Statement) -> bool:
    """A change verb acts on the thing ``o`` holds and puts it to a setting that names nothing
    ("switched my Mac to dark mode" ← "I use a Mac"), not to another thing ("switched my phone
    to an iPhone")."""
    held = (o.values | o.item) - set(o.thing.split())  # the thing held as a value, not a value of the thing
    for verb in reading(n.text):
        if verb.pos_ != "VERB" or verb.lemma_.lower() not in _CHANGING:
            continue
        objects = {american(c.lemma_.lower()) for c in verb.children if c.dep_ == "dobj"}
        targets = [p for c in verb.children if c.dep_ == "prep" and c.lower_ in ("to", "into") for p in c.children]
        if objects & held and targets and not any(t.pos_ == "PROPN" or t.like_num for p in targets for t in p.subtree):
            return True
    return False


def _bought_new(text: str) -> bool:
    """Something new was acquired ("bought a new guitar", "got a new phone"), and nothing else
    said it changed: a change only of what one has, uses or drives."""
    doc = reading(text)
    new = any(
        t.lower_ == "new" and t.dep_ == "amod" and t.head.dep_ == "dobj" and t.head.head.lemma_ in _ACQUIRING
        for t in doc
    )
    return new and not any(t.pos_ == "VERB" and t.lemma_.lower() in _CHANGING for t in doc)


def _changed_by_verb(text: str) -> bool:
    """Does a verb (or phrasal verb) of the sentence say something changed ("switched", "gave
    up", "took me off"), rather than only an adverb ("now", "these days")?"""
    return any(
        (
            t.pos_ == "VERB"
            and (t.lemma_.lower() in _CHANGING or (t.lemma_.lower(), particle(t)) in lexicon.CHANGE_PHRASALS)
        )
        or (t.lower_ in lexicon.CHANGE_ADJECTIVES and t.dep_ == "amod")
        for t in reading(text)
    )


def same_domain(o: Statement, n: Statement) -> bool:
    """One life domain in other words ("moved my email to Proton" ← "I use Gmail"), a liking
    only by a liking ("I'm learning Rust now" leaves "my preferred language is Python"), not
    said of another of the speaker's things ("my landlord raised the rent" leaves "I rent my flat")."""
    liking = (_PREFERENCE.search(o.text) is None) == (_PREFERENCE.search(n.text) is None)
    about = n.thing not in _subjects(n.text) or any(n.thing in words for words in lexicon.TOPICS.values())
    if not (liking and about):
        return False
    said = _topic_words(n.text) - lexicon.TOPIC_NAMES | _changed_domains(n.text)
    return any(  # and names a value in it, or changes the domain itself ("changed schools", "quit smoking"),
        # not only speaks of it ("I now read my email in the morning" changes no provider)
        said & lexicon.TOPICS.get(t, frozenset()) or t in _phrase_topics(n.text)
        for t in topics(o.text) & topics(n.text)
    )


def _changed_domains(text: str) -> set[str]:
    """Words naming a domain that a change verb governs: "changed schools", "quit smoking"."""
    return {
        t.lower_ if t.lower_ in lexicon.TOPIC_NAMES else american(t.lemma_.lower())
        for t in reading(text)
        if (t.lower_ in lexicon.TOPIC_NAMES or american(t.lemma_.lower()) in lexicon.TOPIC_NAMES)
        and t.head.lemma_.lower() in _CHANGING
    }


def argument_nouns(text: str) -> frozenset[str]:
    """The nouns of a sentence but those that only qualify another noun ("office" in "a new
    office chair", "Mac" in "a new mouse for my Mac")."""
    return frozenset(
        american(t.lemma_.lower())
        for t in reading(text)
        if t.pos_ in ("NOUN", "PROPN") and t.lower_ not in lexicon.SPEAKER_NOUNS and not _only_qualifies(t)
    )


def _only_qualifies(tok: Token) -> bool:
    """A word that only qualifies another: a noun naming a kind of another ("office" in "office
    chair"; not a name's title, "dog" in "the dog Max"), or the object of a qualifying
    preposition ("a desk for the office", "the team at Google")."""
    if tok.dep_ == "compound":
        return tok.head.pos_ == "NOUN"
    return tok.dep_ == "pobj" and tok.head.dep_ == "prep" and _qualifies(tok.head)


def _qualifies(prep: Token) -> bool:
    """A preposition whose object only qualifies: any after a noun ("the team at Google", "a
    glass of wine"), "for my Mac" after an object (what for) — not "signed up for a marathon",
    "gave up on French" nor "more into X than Muse"."""
    word, head = prep.lower_, prep.head
    if head.pos_ in ("NOUN", "PROPN"):
        return word != "than"  # "the team at Google", "a glass of wine"
    return word == "for" and any(c.dep_ == "dobj" for c in head.children)  # "bought a mouse for my Mac"


#: A person's attributes that hold one value: there "also" is the speaker's ("… and I also moved
#: to Leeds"), not one more home. A role is not one of them ("Maria is also the product owner
#: for billing").
ONE_VALUED = frozenset(lexicon.PERSON_FRAMES.values()) - lexicon.MULTI_VALUED - {"role"}


def adds(n: Statement) -> bool:
    """``n`` says it is one more ("I also swim on Fridays", "… on Fridays too", "… as well"):
    the held value stays. "Too" only on the verb ("the rent is too high" changes it)."""
    for t in reading(n.text):
        if t.lower_ == "also" or (t.lower_ == "too" and t.head.pos_ in ("VERB", "AUX")):
            return True
        if t.lower_ == "well" and t.i > 0 and t.nbor(-1).lower_ == "as" and t.head.pos_ in ("VERB", "AUX"):
            return True
    return False


def described_not_named(o: Statement, n: Statement) -> bool:
    """``o`` names who or what a thing is ("My manager is Sarah", "My phone is a Pixel") and
    ``n`` names nothing in its place, only describes it ("My manager moved to a new office",
    "My manager is great"): the thing is the same one."""
    if not o.thing or n.negated or n.ending or o.frame == n.frame == "when":
        return False  # a time said in words ("monthly") is still a time, not a description
    return bool(o.values) and o.values <= _named(o) and bool(n.values) and not _named(n)


def _named(st: Statement) -> frozenset[str]:
    """The values a statement gives as names or codes: capitalised past the first word, or
    holding a digit or an @ ("Sarah", "Pixel 8", "a@b.com")."""
    capitalised = {t.lower_ for t in reading(st.text) if t.pos_ == "PROPN" or t.i > 0 and t.text[:1].isupper()}
    return frozenset(v for v in st.values if v in capitalised or any(c.isdigit() or c == "@" for c in v))


def _subjects(text: str) -> frozenset[str]:
    """The lemmas of a sentence's subjects ("my landlord raised the rent": landlord)."""
    return frozenset(american(t.lemma_.lower()) for t in reading(text) if t.dep_ in ("nsubj", "nsubjpass"))


@lru_cache(maxsize=8192)
def topics(text: str) -> frozenset[str]:
    """The life domains of :data:`~.lexicon.TOPICS` a sentence speaks of.

    >>> sorted(topics("I moved my email to Proton")), sorted(topics("I cycle to work now"))
    (['email'], ['commute'])
    """
    words = _topic_words(text)
    found = {name for name, said in lexicon.TOPICS.items() if words & said}
    return frozenset(found | _phrase_topics(text))


@lru_cache(maxsize=8192)
def _topic_words(text: str) -> frozenset[str]:
    """The words of a sentence that may place it in a domain: not its subject, not a noun that
    only qualifies another ("office chair", "a desk for the office")."""
    return frozenset(
        w
        for t in reading(text)
        if t.dep_ not in ("nsubj", "nsubjpass") and not _only_qualifies(t)
        for w in (american(t.lemma_.lower()), t.lower_)
    )


def _phrase_topics(text: str) -> set[str]:
    return {name for name, pattern in lexicon.TOPIC_PHRASES.items() if re.search(pattern, text, re.I)}


#: Verbs that say something changed, was switched, ended or given up.
_CHANGING = lexicon.CHANGE_VERBS | lexicon.SWITCH_VERBS | lexicon.ENDING_VERBS | lexicon.GIVE_UP_VERBS


_RATE = re.compile(r"\b(a|an|per|each) (day|night|week|month|year)\b", re.I)  # "a pack a day"


_PREFERENCE = re.compile(r"\b(prefer\w*|favou?rite|likes?|loves?|wants?)\b", re.I)


_ADDITIVE = re.compile(r"\b(also|too|as well|another|additionally|again)\b", re.I)


def quantifies(o: Statement, head: str) -> bool:
    """``o`` gives an amount or a frequency of ``head`` in its own words: "I eat meat every day"
    for meat, "I run 10 km a week" for km ("I love coffee" is no amount of coffee)."""
    words = content_lemmas(o.text)
    if head not in words | o.values | o.item | {o.head} and not topics(head) & topics(o.text):
        return False  # no amount of ``head``, nor of its domain ("cigarettes" ← "I smoke a pack a day")
    said = {t.lower() for t in re.findall(r"[A-Za-z]+", o.text)}
    return (
        any(w[:1].isdigit() for w in words | o.values | o.item)
        or bool(said & lexicon.FREQUENCY_WORDS)
        or _RATE.search(o.text) is not None
    )


def denies_the_kind(o: Statement, n: Statement) -> bool:
    """``n`` denies its holder has any of a kind ``o`` holds one of: "I don't have any pets" ←
    "I have a dog", "I'm not allergic to anything" ← "I'm allergic to peanuts"."""
    if not n.negated or o.negated or o.holder != n.holder or o.frame != n.frame or not o.item or not n.item:
        return False
    return bool(n.item & lexicon.ANYTHING) or any(o.item & lexicon.KINDS_OF.get(kind, frozenset()) for kind in n.item)


def named_one_of(o: Statement, n: Statement) -> bool:
    """``o`` owns a named X ("a dog named Rex", frame ``own_dog``) and ``n`` speaks of having Xs."""
    return n.frame == "have" and len(n.item) == 1 and o.frame == "own_" + next(iter(n.item))


def prefers_another(o: Statement, n: Statement) -> bool:
    """Both say which one of a kind their holder prefers, and ``n`` another one: "I prefer light
    mode in my editor" ← "I prefer dark mode in my editor", "imperial units" ← "metric units"
    (one is preferred; "I like tea" and "I like coffee" are both held)."""
    return (
        o.frame == n.frame == "like"
        and o.holder == n.holder
        and not (o.negated or n.negated or o.ending or n.ending)
        and bool(o.head)
        and o.head == n.head
        and not (o.item <= n.item or n.item <= o.item)
        and "prefer" in content_lemmas(o.text)
        and "prefer" in content_lemmas(n.text)
    )


def names_more(o: Statement, n: Statement) -> bool:
    """Does ``n`` name a thing ``o`` does not mention ("… in my terminal too" ← "… in my editor")?"""

    def folded(word: str) -> str:
        word = american(word.lower())
        return word[:-1] if len(word) > 3 and word.endswith("s") else word

    said = {folded(t.text) for t in reading(o.text)} | {folded(t.lemma_) for t in reading(o.text)}
    return any(
        t.pos_ in ("NOUN", "PROPN") and t.lower_ not in lexicon.SPEAKER_NOUNS and folded(t.text) not in said
        for t in reading(n.text)
    )


_SWITCHING = frozenset({"switch", "change", "swap", "move"})


def switch_touches(o: Statement, n: Statement) -> bool:
    """Does a switch of no named attribute speak of the held fact? The nouns it names besides its
    new value ("broadband" in "I've switched broadband to X") must be words of the held fact (or
    share five letters: "insurer" / "insurance"), or the two speak of one life domain
    (:func:`topics`); a switch naming only its value ("I switched to Gmail") touches
    whatever it follows — a bare plural is no value: "I've switched jobs" names jobs."""
    doc = reading(n.text)
    plural = {  # "switched jobs", "changed banks": the kind switched, said as a bare plural object
        american(t.lemma_.lower())
        for t in doc
        if t.tag_ == "NNS" and t.dep_ == "dobj" and t.head.lemma_ in _SWITCHING and not list(t.children)
    }
    value_words = {w for v in n.values for w in v.split()} - plural  # "I've switched jobs" names jobs: no value
    named = {american(t.lemma_.lower()) for t in doc if t.pos_ == "NOUN"} - value_words - lexicon.TIME_NOUNS
    if not named:
        return True
    held = content_lemmas(o.text)
    if any(a == b or (len(a) >= 5 and a[:5] == b[:5]) for a in named for b in held):
        return True
    return bool(topics(o.text) & topics(n.text))


def value_given_elsewhere(o: Statement, n: Statement) -> bool:
    """Does ``n`` give a value ``o`` names to another named attribute of the holder, and nothing
    else ("My new boss is Priya" / "I'm in a relationship with Priya"; "My new role is teacher" /
    "My piano teacher is Mrs Okoye")? Priya is now the boss too; the relationship stands.

    >>> from langmem_es.core.statements.sentences import read
    >>> value_given_elsewhere(read("I'm in a relationship with Priya"), read("My new boss is Priya"))
    True
    """
    named = [k for k in (named_key(o), named_key(n)) if k is not None]
    words = {w for v in n.values for w in v.split()}
    if len(named) < 2 or named[0] == named[1] or n.ending or n.negated:
        return False  # one attribute, or the value left ("We left St Peter's and joined …")
    return bool(words) and words <= noun_lemmas(o.text) | o.values


#: frames that name one single-valued attribute of one holder (a named attribute, not a kind of facts)
NAMED_FRAMES = frozenset(
    f
    for f in {*lexicon.PERSON_FRAMES.values(), "contact", "diet"}
    if not f.endswith("@") and f not in lexicon.MULTI_VALUED
)


def named_key(st: Statement) -> str | None:
    """The key of the named, single-valued attribute of one holder a statement sets
    (``user.home``, ``user.manager``), or ``None`` (a multi-valued frame, an item, an event …)."""
    named = bool(st.thing) or st.frame in NAMED_FRAMES
    return st.key if named and not st.item and st.key else None
