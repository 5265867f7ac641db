"""Changes said in other words: the rules :func:`~.statements.relate` reads a new statement by
when it changes a held one without setting the same attribute in the same words.

A change that names what the held fact names, or speaks of the same life domain
(:data:`~.lexicon.TOPICS`: "moved my email to Proton" ← "I use Gmail"); a move,
or a home bought, ending where and how one lived; a birth ending a pregnancy; a pursuit
ending once what it sought is had; a diet yielding only to a food it rules out; a new
amount of one unit; a thing's time, date or measured number moved; what one had taken
over by another; a break-up ending a partner; a graduation ending a student role; a
household ("we") speaking for the speaker. Pure functions of two parsed statements.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from . import lexicon
from .phrases import DATE_WORDS, american, content_lemmas, is_clock_time, noun_lemmas, particle, reading
from .types import Relation, Statement

if TYPE_CHECKING:
    from spacy.tokens import Token


def changes_what_it_names(o: Statement, n: Statement) -> bool:
    """``n`` says something changed and names a thing ``o`` holds, in words no rule reads as one
    attribute ("I gave up on French and started Italian" ← "I'm learning French"; "My doctor took
    me off metformin" ← "I'm on metformin"); not one more event, not an addition ("also", "too")."""
    if not (n.change or n.ending) or n.negated or (o.event and n.event) or _ADDITIVE.search(n.text):
        return False
    # not the holder, not a unit ("kg"), not what the new statement describes ("my car needs new tyres")
    holders = {*o.holder, *n.holder, *o.names, *n.names}
    held = noun_lemmas(o.text) - lexicon.GENERIC_NOUNS - lexicon.MEASURES - holders
    said = _argument_nouns(n.text) - lexicon.GENERIC_NOUNS - lexicon.MEASURES - holders - _subjects(n.text)
    if any(a == b or (len(a) >= 6 and len(b) >= 6 and a[:6] == b[:6]) for a in held for b in said):
        if _bought_new(n.text) and not (o.frame in _HAVING or o.frame.startswith("own_") or o.thing):
            return False  # "I bought a new guitar" leaves "I play guitar in a band"
        if sets_what_is_held(o, n):
            return False  # "I switched my Mac to dark mode" sets the Mac, it does not replace it
        # said to be new only by "now"/"these days", in another frame, it is a new habit beside the
        # fact ("I now walk the dogs twice a day" leaves "I have two dogs")
        return o.frame == n.frame or n.ending or _changed_by_verb(n.text)
    return same_domain(o, n)


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


def _argument_nouns(text: str) -> frozenset[str]:
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


def diet_clash(o: Statement, n: Statement) -> bool | None:
    """A diet and something eaten (either order): does the food break the diet? ``None`` when
    the two are not a diet and a food."""
    if not (o.frame == n.frame == "diet") or o.holder != n.holder:
        return None
    for rule, food in ((o, n), (n, o)):
        diets = [lexicon.DIETS[v] for v in rule.values if v in lexicon.DIETS]
        eaten = {v.removeprefix("eat_") for v in food.values if v.startswith("eat_")}
        if diets and eaten and not food.negated and not rule.negated and not food.ending:
            return any(e in d or e.rstrip("s") in d for e in eaten for d in diets)
    return None


def pursuit_met(o: Statement, n: Statement) -> bool:
    """``o`` seeks something ("saving for a car", "looking for a job") and ``n`` says it was
    had ("I bought the car", "I found a job at Stripe"): the pursuit is over."""
    pursuit = re.search(lexicon.PURSUIT, o.text, re.I)
    if pursuit is None or not n.event or n.negated or o.holder != n.holder:
        return False
    sought = {  # what follows "saving for", "training for": "a car", "a 10k"
        american(t.lemma_.lower())
        for t in reading(o.text)
        if t.idx >= pursuit.end() and (t.pos_ in ("NOUN", "PROPN") or (t.like_num and not t.is_digit))
    } - lexicon.GENERIC_NOUNS
    return bool(sought & (_argument_nouns(n.text) | content_lemmas(n.text)))


_AMOUNT = re.compile(
    r"\b(\d+(?:\.\d+)?|" + "|".join(w for w in lexicon.NUMBER_WORDS if len(w) > 2) + r")\s*([a-z%£$€]+)", re.I
)


def _amounts(text: str) -> list[tuple[str, str]]:
    """(number, unit) of each amount a sentence gives: "3 nodes", "six hours", "5km" — not a
    code whose letters follow its digits in capitals ("BS1 4DJ", seat "14C")."""
    out = []
    for found in _AMOUNT.finditer(text):
        number, unit = found.groups()
        if found.start(2) == found.end(1) and not unit.islower() and unit not in "%£$€":
            continue
        value = str(lexicon.NUMBER_WORDS.get(number.lower(), number))
        out.append((value, unit.lower().rstrip("s")))
    return out


def new_amount(o: Statement, n: Statement) -> bool:
    """Each says one amount of the same unit and they differ: "six hours a night" → "eight hours"."""
    a, b = _amounts(o.text), _amounts(n.text)
    return len(a) == len(b) == 1 and a[0][1] == b[0][1] and a[0][0] != b[0][0]


def other_measure(o: Statement, n: Statement) -> bool:
    """``o`` counts something ("the cluster has 3 nodes") and ``n`` gives no count of it but
    names something else ("the cluster runs Elasticsearch 8.19"): another attribute."""
    if o.frame == n.frame == "when":
        return False  # "every two weeks" says how often, not how many
    if any(unit.istitle() for _, unit in _AMOUNT.findall(o.text)):
        return False  # "12 Park Road" is an address, not a count
    counted = {unit for _, unit in _amounts(o.text)}
    if len(counted) != 1 or counted & {unit for _, unit in _amounts(n.text)}:
        return False
    named = {v for v in n.values if not v[:1].isdigit()}
    return bool(named) and not named & o.values


def moved_value(o: Statement, n: Statement) -> bool:
    """A thing's time, date or measured number said to have changed: "Standup moved to 10:00" ←
    "The team standup is at 9:30", "The deadline was pushed back to June 15" ← "… is June 1",
    "The staging database moved to port 6432" ← "… runs on port 5432", "We scaled the cluster
    to 5 nodes" ← "The cluster has 3 nodes" — not another thing's ("the production database")."""
    if not n.change or n.negated or n.ending or not o.thing:
        return False
    if o.holder != n.holder and o.holder != ("*",):
        return False
    if n.thing:
        same = n.thing == o.thing or o.thing.endswith(" " + n.thing) or n.thing.endswith(" " + o.thing)
    else:  # the thing is what a change verb acts on: "we scaled the cluster to …"
        same = o.thing.split()[-1] in n.values | n.item
    named_o, named_n = _names(o.text), _names(n.text)
    if not same or (o.instance and n.instance and o.instance != n.instance):
        return False  # "the meeting with sales" is not "the meeting with design"
    if named_o and named_n and named_o.isdisjoint(named_n):
        return False  # another instance: "the flight to Paris" is not "the flight to Rome"
    a, b = o.values | o.when, n.values | n.when
    times_a, times_b = {v for v in a if is_clock_time(v)}, {v for v in b if is_clock_time(v)}
    if times_a and times_b:
        return times_a != times_b
    dates_a, dates_b = {v for v in a if v in DATE_WORDS}, {v for v in b if v in DATE_WORDS}
    nums_a, nums_b = {v for v in a if v[:1].isdigit()}, {v for v in b if v[:1].isdigit()}
    if dates_a and dates_b:
        return dates_a != dates_b or nums_a != nums_b
    if new_amount(o, n):
        return True
    units = (a - nums_a) & (b - nums_b)  # "port 5432" / "port 6432"
    return len(nums_a) == len(nums_b) == 1 and nums_a != nums_b and bool(units)


def handed_over(o: Statement, n: Statement) -> bool:
    """What ``o``'s holder had passes to another: "Bob took over the billing service from Alice"
    or "Alice handed the billing service over to Bob" ← "Alice owns the billing service"."""
    had = {v for v in o.item or o.values if not v[:1].isdigit()}
    if not had or o.holder == ("*",):
        return False
    held = {o.holder[-1], *o.names}
    for verb in reading(n.text):
        if verb.pos_ != "VERB":
            continue
        lemma, part = verb.lemma_.lower(), particle(verb)
        objects = {american(t.lemma_.lower()) for c in verb.children if c.dep_ == "dobj" for t in c.subtree}
        if not objects & had:
            continue
        preps: dict[str, set[str]] = {}  # "from Maria", on the verb or on its object
        for c in verb.subtree:
            if c.dep_ == "prep" and c.head in (verb, *verb.children):
                preps.setdefault(c.lower_, set()).update(t.lower_ for p in c.children for t in p.subtree)
        subjects = {t.lower_ for c in verb.children if c.dep_ == "nsubj" for t in c.subtree}
        if lemma == "take" and part == "over" and preps.get("from", set()) & held:
            return True
        if lemma in ("hand", "pass", "give") and "to" in preps and subjects & held:
            return True
    return False


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


def _names(text: str) -> frozenset[str]:
    """The proper names of a sentence (not its first word)."""
    return frozenset(t.lower_ for t in reading(text) if t.pos_ == "PROPN" and t.i > 0)


def measures_one(o: Statement, n: Statement) -> bool:
    """Both amounts measure one thing, named in both in some form: "I take 20mg of sertraline" /
    "my sertraline dose went up to 40mg", "weighs 90 kg" / "lost weight, 82 kg now" — not
    "lifts 100 kg at the gym"."""

    def things(st: Statement) -> set[str]:
        words = content_lemmas(st.text) - lexicon.MEASURES - lexicon.GENERIC_NOUNS - {*st.holder, *st.names}
        return {w for w in words if not w[:1].isdigit() and len(w) >= 4}

    return any(a[:5] == b[:5] for a in things(o) for b in things(n))


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


def counts_children(o: Statement, n: Statement) -> bool:
    """``n`` gives a number of children and ``o`` had one kind of child: "I have two kids" ← "I have a son"."""
    return (
        o.frame == n.frame == "have"
        and o.holder == n.holder
        and bool(o.item)
        and o.item <= lexicon.CHILD_NOUNS
        and n.item == {"child"}
        and any(v[:1].isdigit() for v in n.values)
    )


def born_to(o: Statement, n: Statement) -> bool:
    """``o`` says someone is expecting a baby and ``n`` that a baby was born to them: "the baby
    arrived" ← "I'm pregnant", not "my sister's baby was born" ← "I'm pregnant"."""
    if o.negated or _EXPECTING.search(o.text) is None or _BIRTH.search(n.text) is None:
        return False
    parents = [w for w in n.holder[1:] if w not in lexicon.CHILD_NOUNS and w not in ("twin", "one")]
    return n.holder[0] in ("user", "we", "*") and set(parents) <= set(o.holder[1:])


def moves_out(o: Statement, n: Statement) -> bool:
    """``o`` is where or how someone lives (renting a flat, living with someone) and ``n`` moves
    them or has them buy or rent another home: the arrangement ends."""
    arrangement = o.frame == "live_with" or (
        o.frame.split("_")[0] in lexicon.TENURE_FRAMES and bool(o.values & lexicon.HOME_NOUNS)
    )
    moved = ("home" in (n.frame, lexicon.PERSON_FRAMES.get(n.frame)) and (n.change or n.event)) or (
        n.frame.split("_")[0] in ("buy", *lexicon.TENURE_FRAMES)
        and bool(n.values & lexicon.HOME_NOUNS)
        and (n.event or n.change)
    )
    household = {o.holder, n.holder} <= {("user",), ("we",)}
    return arrangement and moved and not n.negated and not o.negated and (o.holder == n.holder or household)


#: Verbs that say something changed, was switched, ended or given up.
_CHANGING = lexicon.CHANGE_VERBS | lexicon.SWITCH_VERBS | lexicon.ENDING_VERBS | lexicon.GIVE_UP_VERBS
_RATE = re.compile(r"\b(a|an|per|each) (day|night|week|month|year)\b", re.I)  # "a pack a day"
_PREFERENCE = re.compile(r"\b(prefer\w*|favou?rite|likes?|loves?|wants?)\b", re.I)
_EXPECTING = re.compile(r"\b(pregnant|expecting a baby|expecting)\b", re.I)
_BIRTH = re.compile(
    r"\b(gave birth|(was|were) born|(baby|son|daughter|twins|little one) (arrived|came|is here|are here)|"
    r"had (the|our|a|my) (baby|son|daughter|twins))\b",
    re.I,
)


def graduated(o: Statement, n: Statement) -> bool:
    """``n`` says the holder of a student role ``o`` graduated: "I graduated in June" ends "I'm a student"."""
    return (
        o.frame == "role"
        and bool(o.values & lexicon.STUDENT_ROLES)
        and n.holder == o.holder
        and _GRADUATED.search(n.text) is not None
    )


_GRADUATED = re.compile(r"\b(graduated|finished (my|the user's|their) (degree|studies))\b", re.I)
_ADDITIVE = re.compile(r"\b(also|too|as well|another|additionally|again)\b", re.I)


def breaks_up_with(o: Statement, n: Statement) -> bool:
    """``n`` says the speaker no longer has a partner, and ``o`` names the speaker's partner."""
    if n.frame != "marital" or not n.values & lexicon.UNPARTNERED or n.negated or o.holder[0] != "user":
        return False
    partner = (
        o.thing in lexicon.PARTNER_NOUNS
        or o.frame.removeprefix("own_") in lexicon.PARTNER_NOUNS
        or (len(o.holder) == 2 and o.holder[1] in lexicon.PARTNER_NOUNS)
    )
    named = n.values - lexicon.UNPARTNERED  # "Tom and I broke up": Tom
    return partner and n.holder == ("user",) and (not named or bool(named & (o.values | o.names)))


def plan_called_off(o: Statement, n: Statement) -> bool:
    """A plan to go somewhere ended by its trip being cancelled: "The user's trip to Japan got
    cancelled" ← "The user is going to Japan in April" (not another's trip: the holder must match)."""
    if o.frame not in lexicon.PLAN_FRAMES or not o.values or n.negated or not _one_holder(o, n) or n.holder == ("*",):
        return False
    doc = reading(n.text)
    cancelled = any(
        t.lemma_.lower() in lexicon.CANCEL_VERBS or (t.lemma_.lower(), particle(t)) == ("call", "off") for t in doc
    )
    trip = any(t.lemma_.lower() in lexicon.TRIP_NOUNS for t in doc)
    return cancelled and trip and bool(o.values & (content_lemmas(n.text) | _names(n.text) | n.instance))


def _one_holder(o: Statement, n: Statement) -> bool:
    return o.holder == n.holder or bool(o.names & n.names)


def ownership(o: Statement, n: Statement) -> Relation | None:
    """Who owns a named thing, said actively or passively: another owner is an update ("The
    payments team owns checkout now" ← "Checkout is owned by the web team"), the same one a
    repeat ("The billing service is owned by Alice" ← "Alice owns the billing service"); ``None``
    when either is not about owning that thing ("a house" is one of many)."""
    held, said = _ownership(o.text), _ownership(n.text)
    if held is None or said is None or n.negated or n.ending or held[1] != said[1]:
        return None
    return "reinforcement" if held[0] == said[0] else "update"


def _ownership(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """(owner words, thing words) of "X owns the Y" or "the Y is owned by X", the Y definite or a name."""
    for verb in reading(text):
        if verb.pos_ != "VERB" or verb.lemma_.lower() not in lexicon.OWNING_VERBS:
            continue
        kids = list(verb.children)
        subj = next((c for c in kids if c.dep_ in ("nsubj", "nsubjpass")), None)
        obj = next((c for c in kids if c.dep_ == "dobj"), None)
        agent = next((o for c in kids if c.dep_ == "agent" for o in c.children if o.dep_ == "pobj"), None)
        owner, thing = (agent, subj) if agent is not None else (subj, obj)
        if owner is None or thing is None or any(c.lower_ in ("a", "an") for c in thing.children):
            continue
        who, what = _nouns(owner), _nouns(thing)
        if who and what:
            return who, what
    return None


def _nouns(tok: Token) -> frozenset[str]:
    return frozenset(american(t.lemma_.lower()) for t in tok.subtree if t.pos_ in ("NOUN", "PROPN"))


def took_over_role(o: Statement, n: Statement) -> bool:
    """Another took over the role ``o``'s holder has: "Tom took over as product owner for search"
    ← "Maria is the product owner for search" (not "… for billing": what qualifies the role
    must be said too)."""
    if o.frame != "role" or not n.frame.startswith("take_over_as") or not n.values or n.negated:
        return False
    if o.holder == n.holder or o.holder == ("*",) or n.holder == ("*",):
        return False
    role = {v for v in n.values if not v[:1].isdigit()}
    return bool(role) and role <= o.values and o.values - role <= content_lemmas(n.text)


def left_post(o: Statement, n: Statement) -> bool:
    """Leaving one's employer ends the role one held there: "Dana left the company" ← "Dana is
    the tech lead" (not a role in one's family: "Dana is my sister")."""
    return (
        n.ending
        and n.frame == "employer"
        and o.frame == "role"
        and o.holder == n.holder
        and not n.negated
        and not o.values & lexicon.PEOPLE
        and bool(n.values & lexicon.EMPLOYER_NOUNS or _names(n.text) & n.values)  # not "left early for lunch"
    )


def household(o: Statement, n: Statement) -> bool:
    """A home, the children or a thing said of "we" and of the speaker (or the speaker's family)
    is one: "We just moved to Bath" moves "I live in Bristol" and "My family lives in Ohio";
    "we have three kids now" counts "I have two kids"; "our cat" is "my cat"."""
    holders = {o.holder, n.holder}
    children = o.frame == n.frame == "have" and bool(o.item) and o.item | n.item <= lexicon.CHILD_NOUNS
    thing = bool(o.thing) and o.thing == n.thing and o.instance == n.instance
    return (
        (o.frame == n.frame == "home" or children or thing)
        and ("we",) in holders
        and all(h == ("we",) or (h[0] == "user" and h[1:] in ((), ("family",))) for h in holders)
    )


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
