"""The rules of belief maintenance, pure: how a new semantic statement bears on held facts.

Built on :mod:`.statements` (the one place that reads sentences). The semantic write
path (``_async/beliefs.py``) asks these questions and acts on the answers:

* :func:`relation` — does a new statement repeat, update, deny, or merely resemble a
  held fact (another holder: "my sister lives in York"; another instance: the return
  flight)? Look-alikes and unrelated statements never take a fact's key.
* :func:`keys_close` — is a caller's subject key another spelling of a key already held
  for the same subject (``user.location.city`` for ``user.home_city``)?
* :func:`may_supersede` — a weaker statement never silently replaces a stronger one, and
  only an explicit update (the caller's own key or ``replaces=``) unseats a frozen fact.
* :func:`initial_confidence` — calibrated by origin, below 1.0, so reinforcement has room.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache, partial
from typing import Literal

from ..model import Memory
from . import belief_meaning, statements
from . import meaning_words as words
from .meaning_clauses import (
    another_value_form,
    ended_by_clauses,
    extends_held_name,
    one_of_several,
    one_role_in_clause,
    said_over,
    still_held,
    update_by_clauses,
)
from .meaning_homes import _STAY
from .meaning_keys import _head_group, _times_of, category_key
from .meaning_keys import key_label as _key_label
from .meaning_keys import key_words as key_words  # re-exported: the write path reads the key rules here
from .meaning_keys import keys_close as keys_close
from .meaning_keys import one_head as one_head
from .meaning_keys import same_key_ids as same_key_ids
from .statements import changes, lexicon
from .statements.casual import tidy

Origin = Literal["user", "tool", "extracted"]
ORIGINS: tuple[Origin, ...] = ("user", "tool", "extracted")
DEFAULT_ORIGIN_CONFIDENCE: Mapping[str, float] = {"user": 0.8, "tool": 0.7, "extracted": 0.6}


def polarity(text: str) -> Literal["assert", "deny"]:
    """``deny`` for a flat denial ("I never lived in Bristol") or a claim echoed as a question
    and corrected ("Paris? I was only there on holiday."), else ``assert`` (changes assert the
    new state)."""
    if echoed_claim(text):
        return "deny"
    if statements.parse(text).polarity != "deny":
        return "assert"
    return "assert" if belief_meaning.affirms(text) else "deny"  # "Meat is not something I eat": a diet


#: "Paris? I was only there on holiday." — a claim echoed as a question, then narrowed or denied.
_ECHO = re.compile(r"^\s*(?P<echo>[^?.!\n]{1,60})\?\s+(?P<rest>\S.*)$", re.DOTALL)
_NARROWED = re.compile(r"\b(?:only|just|never|not|no longer|n't)\b|^\s*no\b", re.IGNORECASE)


def echoed_claim(text: str) -> str:
    """The words a sentence echoes as a question before narrowing or denying them ("Paris" in
    "Paris? I was only there on holiday."), or ``""``.

    >>> echoed_claim("Paris? I was only there on holiday."), echoed_claim("Paris? Yes, since May.")
    ('Paris', '')
    """
    m = _ECHO.match(text)
    return m["echo"].strip() if m and _NARROWED.search(m["rest"]) else ""


def own_correction(denial: Memory, denied: list[Memory]) -> bool:
    """Is ``denial`` the user's own correction of their own facts: written in their private
    scope, about themselves, denying only facts of that scope? (The user is the authority on
    themselves; a denial from anyone else waits for an independent confirmation.)"""
    if denial.scope != "private" or not denial.owner.startswith("user:") or not denied:
        return False
    if any(m.owner != denial.owner or m.scope != "private" for m in denied):
        return False
    return statement(denial).holder[0] == "user"


def stated_change(text: str) -> bool:
    """Does the sentence itself say something changed ("moved", "no longer", "took over", "not X, Y")?"""
    return statements.parse(text).polarity == "update"


def initial_confidence(origin: str, polarity_: str, table: Mapping[str, float], denial_confidence: float) -> float:
    """The default confidence of a new statement: by origin (user > tool > extraction), a denial lower."""
    if polarity_ == "deny":
        return denial_confidence
    return float(table.get(origin, table.get("user", 0.8)))


def statement(memory: Memory) -> statements.Statement:
    """The memory's statement; in a user's own memories their user id names the speaker
    ("Alice lives in Bristol" in ``user:alice``'s memories is "I live in Bristol")."""
    return _statement(memory.content, memory.owner)


def _statement(content: str, owner: str) -> statements.Statement:
    st = statements.parse(content)
    me = owner.split(":", 1)[1].casefold() if owner.startswith("user:") else ""
    if me and st.holder[0] != "user" and st.holder[0].split(" ")[0] == me:
        st = replace(st, holder=("user", *st.holder[1:]))
    return st


def relation(old: Memory, new: Memory) -> statements.Relation:
    """What ``new`` does to the held fact ``old`` (statements' relation, polarity-aware).

    It reads only the two contents, owners and polarities, so it is computed once for them:
    a write reads its statement against the same held facts for several rules."""
    return _relation(old.content, old.owner, old.polarity, new.content, new.owner, new.polarity)


@lru_cache(maxsize=8192)
def _relation(
    old_content: str, old_owner: str, old_polarity: str, new_content: str, new_owner: str, new_polarity: str
) -> statements.Relation:
    # every rule below reads the sentences as the statement reader does ("ditched puregym" as "Ditched PureGym.")
    old_content, new_content = tidy(old_content), tidy(new_content)
    said = _statement(new_content, new_owner)
    rel = statements.relate(_statement(old_content, old_owner), said)
    if (
        rel in ("unrelated", "other_key")
        and old_polarity == new_polarity
        and statements.content_lemmas(old_content) == statements.content_lemmas(new_content)
        and bool(words.NEG.search(old_content))
        == bool(words.NEG.search(new_content))  # not "I smoke" / "I don't smoke"
    ):
        rel = "reinforcement"  # the same words in another order: "Peanuts: Alice is allergic to those."
    if (
        rel == "reinforcement"
        and _digits(old_content)
        and _digits(new_content)
        and _digits(old_content) != _digits(new_content)
    ):
        rel = "update"  # a number the parse left outside the value ("Refunds above 500 EUR …")
    if rel == "reinforcement" and _other_names(old_content, new_content):
        # a name the parse left outside the value ("I get my internet from Sky" / "… from Vodafone
        # now"): another value, never a repeat that would drop it; a change only when one is said
        rel = "update" if stated_change(new_content) or words.CHANGED.search(new_content) else "unrelated"
    if (
        rel == "reinforcement"
        and old_polarity == new_polarity == "assert"
        and _negation_differs(old_content, new_content)
    ):
        rel = "unrelated"  # "I smoke" is no repeat of "I don't smoke", whatever their words share
    if old_polarity == "deny" and rel == "reinforcement" and new_polarity == "assert":
        return "update"  # re-asserting what a pending denial rejected
    if rel == "other_key" and old_polarity == new_polarity == "assert":
        rel = _qualified_head(old_content, old_owner, new_content, new_owner) or rel
    misread = rel == "lookalike" and (
        (_no_one_else(old_content, old_owner) and _no_one_else(new_content, new_owner))
        or _one_role(old_content, old_owner, new_content, new_owner)
    )
    if (rel in ("unrelated", "other_key", "denial") or misread) and old_polarity == new_polarity == "assert":
        # the same fact, or a new value of it, in other words: read by meaning (holder, attribute, value)
        by_meaning = belief_meaning.compare(old_content, old_owner, new_content, new_owner)
        if by_meaning == "reinforcement" or (by_meaning == "update" and rel != "denial"):
            rel = by_meaning
        elif (
            by_meaning == "unsure" and rel == "lookalike" and _one_role(old_content, old_owner, new_content, new_owner)
        ):
            rel = "other_key"  # one holder after all, another value, no change said: unsure, both stay
    elif rel == "update" and old_polarity == new_polarity == "assert" and not stated_change(new_content):
        # the parse reads another value, the meaning the same one, and no change is said
        # ("I don't eat meat" / "The user is a vegetarian"): a repeat
        rules_read = belief_meaning.meaning(old_content, old_owner) and belief_meaning.meaning(new_content, new_owner)
        same = rules_read and belief_meaning.compare(old_content, old_owner, new_content, new_owner) == "reinforcement"
        if same and not said.ending:
            rel = "reinforcement"
    if (
        rel in ("unrelated", "other_key", "lookalike", "reinforcement")
        and old_polarity == new_polarity == "assert"
        and not words.FOR_A_WHILE.search(new_content)
        and said_over(old_content, new_content)
    ):  # a change told over clauses ("Ditched PureGym — I'm a member at Anytime Fitness now"), or an end

        def part_relation(part: str) -> statements.Relation:
            return _relation(old_content, old_owner, old_polarity, part, new_owner, new_polarity)

        if update_by_clauses(
            old_content,
            new_content,
            part_relation,
            partial(one_role_in_clause, old_content, old_owner, new_owner=new_owner),
        ) or ended_by_clauses(old_content, new_content, part_relation):
            rel = "update"
        elif rel == "reinforcement":
            rel = "unrelated"  # a message that says the held value is over repeats nothing: both stay
    echo = echoed_claim(new_content) if new_polarity == "deny" else ""
    if echo and rel != "denial" and old_polarity == "assert" and _names_held(echo, old_content, old_owner):
        return "denial"  # "Paris? I was only there on holiday." after "I live in Paris."
    if rel == "update" and new_polarity != "deny" and previous_value(old_content, old_owner, new_content, new_owner):
        return "lookalike"  # another instance of the attribute: a past one, beside the present
    if rel == "update" and words.STAND_IN.search(new_content) and not words.STAND_IN.search(old_content):
        return "unrelated"  # a stand-in while the held one is out of use ("… in the garage, so a hire car")
    if rel == "update" and words.ANECDOTE.search(new_content):
        return "lookalike"  # a change told of the holder's past ("… when I was a kid"): no change now
    if rel == "update" and (
        another_value_form(old_content, new_content) or extends_held_name(old_content, new_content)
    ):
        return "unrelated"  # a value of another form, or another thing named like the held value ("Proton VPN")
    if rel == "update" and new_polarity == "assert" and still_held(old_content, new_content):
        return "unrelated"  # "I'm not leaving Initech, whatever Globex offers": the held value stays
    if rel == "update" and _one_of_several(old_content, old_owner, new_content, new_owner):
        return "other_key"  # one of several held facts changed: the others hold, both stay (unsure)
    if rel == "update" and words.HEDGE.search(new_content) and not echo:
        return "unrelated"  # a question or a hedge says no change: both stay ("I might move to Leeds")
    if rel == "update" and not words.FROM_THEN.search(new_content) and not stated_change(new_content):
        # a stay is no new value ("I'm staying in Leeds until Friday", "driving a van this week")
        if (said.frame == "home" and _STAY.search(new_content)) or (
            words.FOR_A_WHILE.search(new_content) and not said.ending
        ):
            return "unrelated"
    return rel


def undecided(old: Memory, new: Memory) -> bool:
    """Rule 'when unsure, both stay': can the rules not tell whether ``new`` replaces ``old``?
    True when both set one single-valued attribute of one holder with different values and
    ``new`` neither says a change nor is read as a repeat, an update, a denial, another holder
    or a past value ("I'm based in Leeds" beside "I live in York"). Both facts stay active;
    the write says it was unsure (:attr:`~.results.WriteResult.unsure`)."""
    if old.polarity != "assert" or new.polarity != "assert":
        return False
    if relation(old, new) in ("update", "reinforcement", "denial", "lookalike"):
        return False
    if _one_of_several(tidy(old.content), old.owner, tidy(new.content), new.owner):
        return True  # "I sold the Golf." ← "I live in Leeds, work at Initech and drive a Golf."
    return belief_meaning.compare(old.content, old.owner, new.content, new.owner) == "unsure"


@lru_cache(maxsize=8192)
def _one_of_several(old_content: str, old_owner: str, new_content: str, new_owner: str) -> bool:
    """:func:`.meaning_clauses.one_of_several` by the rules (kept: asked by _relation and undecided)."""
    return one_of_several(
        old_content, new_content, lambda part: _relation(part, old_owner, "assert", new_content, new_owner, "assert")
    )


def _qualified_head(old_content: str, old_owner: str, new_content: str, new_owner: str) -> statements.Relation | None:
    """One holder's one attribute named with a qualifier or a synonym ("my boss" / "my direct
    supervisor"): an update when the value differs, a repeat when it is the same."""
    held, new = _statement(old_content, old_owner), _statement(new_content, new_owner)
    if held.holder != new.holder or not held.values or not new.values or held.key == new.key:
        return None  # the same key read as another attribute: the statements know why ("also", …)
    if changes.adds(new) or words.PREVIOUS.search(new_content) or _times_of(held.key) != _times_of(new.key):
        return None  # one more, or a past one
    group = _head_group(held.key)
    if group is None or group != _head_group(new.key):
        return None
    return "reinforcement" if statements.same_value(held.values, new.values) else "update"


def _negation_differs(old_content: str, new_content: str) -> bool:
    """Is one statement negated and the other not, and not one meaning in other words
    ("I don't eat meat" / "I'm vegetarian" are one; "I don't smoke" / "I smoke" are not)?"""
    if bool(words.NEG.search(old_content)) == bool(words.NEG.search(new_content)):
        return False
    return belief_meaning.compare(old_content, "", new_content, "") != "reinforcement"


def _one_role(old_content: str, old_owner: str, new_content: str, new_owner: str) -> bool:
    """Do both statements name the user's one person by words of one attribute ("my wife" / "my
    spouse", "my boss" / "my supervisor"): one holder's role, not two people?"""
    held, new = _statement(old_content, old_owner).holder, _statement(new_content, new_owner).holder
    if held[0] != "user" or new[0] != "user" or len(held) != 2 or len(new) != 2:
        return False
    a, b = (frozenset(x for x, w in belief_meaning.ATTRIBUTES.items() if h[1] in w) for h in (held, new))
    return len(a) == 1 and a == b


def _no_one_else(content: str, owner: str) -> bool:
    """Is the statement reader's holder of ``content`` no one but the user — the user, or a common
    word it took for a holder ("Home is now Leeds": not a person, not a name)? Then "another holder"
    is the parse's, and the meaning's holder decides."""
    from .meaning_learned import names

    holder = _statement(content, owner).holder
    if holder[0] in ("user", "i", "we"):
        return len(holder) == 1
    if len(holder) > 1 or holder[0] in lexicon.PEOPLE:
        return False
    if holder[0] not in names(content):
        return True
    read = belief_meaning.meaning(content, owner)  # "York is home": the name is the value, said first
    return read is not None and read.holder == "user" and holder[0] in read.values


def _names_held(echo: str, content: str, owner: str) -> bool:
    """Does the echoed phrase name the held fact's value (its value words all in the echo, or the echo in them)?"""
    held = _statement(content, owner).values
    said = statements.word_lemmas(echo)
    return bool(held) and bool(said) and (held <= said or said <= held)


def previous_value(old_content: str, old_owner: str, new_content: str, new_owner: str) -> bool:
    """Safety rule: does the new statement tell a *previous, different* value of the attribute the
    held fact sets ("I lived in Bristol before", "The user previously worked at Globex", "My
    former employer was Globex", "I used to work at Globex" — held: Glasgow, Initech)? Such a
    statement never replaces the present fact, whatever its wording. A statement that the held
    value itself is over ("I used to live in Glasgow", "I no longer work at Initech") is a change,
    and a change told in the past ("I moved to Leeds last month") too.

    >>> previous_value("The user lives in Glasgow.", "", "I lived in Bristol before.", "")
    True
    >>> previous_value("The user lives in Glasgow.", "", "I moved to Leeds last month.", "")
    False
    >>> previous_value("The user lives in Glasgow.", "", "I used to live in Glasgow.", "")
    False
    """
    held, new = _statement(old_content, old_owner), _statement(new_content, new_owner)
    if new.values:
        if statements.same_value(new.values, held.values) or new.replaced & held.values:
            return False  # the held value: a repeat, or a change or an ending of it
    elif not held.values or held.values <= statements.word_lemmas(new_content):
        return False  # no value of its own read, and the held one named: about the held value
    if words.PREVIOUS.search(new_content):
        return True
    if new.ending and not new.values:  # "I used to be on the billing team": another value that ended
        return True
    # a state or a habit told in the past ("I lived in Bristol", "The user worked at Globex", "I
    # commuted by bus", "I reported to Greta"), not an event that changed it ("I moved to …",
    # "We bought a house", "Bob took over …", "I settled in Leeds")
    if words.SINCE_NOW.search(new_content):
        return False  # "I've lived in Leeds since May": a state up to now, the present
    if new.tense != "past" or new.change or new.ending:
        return False
    if words.PAST_STATE.search(new_content):
        return True
    # a past habit that set the held fact's own attribute to another value ("I commuted by bus" /
    # "The user commutes by bike"); not a past event of another key, nor one that names whom or
    # what the held fact names: either may be what changed it ("The user's wife gave birth" /
    # "… is pregnant", "The user and Tom separated" / "The user is married to Tom")
    from .meaning_learned import names

    return (
        new.event
        and new.key == held.key
        and not words.CHANGED.search(new_content)
        and not words.ACQUIRED.search(new_content)
        and not names(old_content) & names(new_content)
    )


def another_fact_under_key(held: list[Memory], new: Memory) -> bool:
    """Is ``new`` another fact than every held one under its key, so that it must not replace
    them: about another holder (a lookalike), said to be one more ("also has a cat"), or of
    another kind under a key naming a kind of facts ("allergic to peanuts" and "takes
    sertraline" under ``user.health``)? A key naming one fact is trusted otherwise."""
    asserted = [m for m in held if m.polarity == "assert"]
    if not asserted:
        return False
    relations = [relation(m, new) for m in asserted]
    if all(r == "lookalike" for r in relations):
        return True
    apart = all(r in ("other_key", "unrelated", "lookalike") for r in relations)
    return apart and (changes.adds(statement(new)) or category_key(new.subject_key))


def attribute(memory: Memory) -> str | None:
    """The named, single-valued attribute of one holder the statement sets (``user.home``,
    ``user.contact``, ``user.timezone``), or ``None`` (a multi-valued frame, an event …)."""
    return changes.named_key(statement(memory))


def restates_attribute(fact: Memory, event: Memory) -> bool:
    """Does ``event`` (a message of the fact's own holder) state the fact's one-valued
    attribute again, with this value or another ("I'm based in Glasgow now, so …" for "The
    user lives in Bristol")? Any clause of it counts: forgetting where one lives reaches every
    message of theirs that said it."""
    wanted = attribute(fact)
    if wanted is None or not wanted.startswith("user."):
        return False
    st = _statement(event.content, fact.owner)
    return any(c.key == wanted and not c.negated for c in (st, *st.others))


def one_attribute(old: Memory, new: Memory) -> bool:
    """Do both statements set one named attribute of one holder, however little their words
    have in common ("Please contact me by email" / "Text me instead")?"""
    a = attribute(new)
    return a is not None and attribute(old) == a


def one_meaning(old: Memory, new: Memory) -> bool:
    """Do both mean one attribute of one holder, read in everyday equivalents
    (:mod:`.belief_meaning`: "I don't drink alcohol" / "I'm teetotal")?"""
    return belief_meaning.compare(old.content, old.owner, new.content, new.owner) is not None


def one_topic(old: Memory, new: Memory) -> bool:
    """Do both speak of one life domain (:data:`~.statements.lexicon.TOPICS`) in words that
    embed far apart ("My preferred language is Python" / "I prefer Rust these days")?"""
    return bool(statements.topics(new.content) & statements.topics(old.content))


def keyed_by_head(old: Memory, new: Memory) -> bool:
    """Rule for a caller's key in another spelling: when the new statement cannot be read against
    the held one (nothing in common read: "Priya manages me now." filed as ``work.supervisor``
    beside "My boss is Dana." as ``user.boss``), the keys' heads decide — one attribute of one
    holder. Never when the statement reads as another holder's, one more, a past value or
    another attribute it names."""
    if not (old.subject_key and new.subject_key and new.polarity == "assert" and old.polarity == "assert"):
        return False
    if not one_head(old.subject_key, new.subject_key):
        return False
    rel = relation(old, new)
    if rel in ("unrelated", "other_key") and _read_as_head(old, new):
        return True  # both read as the keys' one attribute of one holder, no change said: one key
    if rel == "other_key" and attribute(new) is not None:
        return False  # the statement names another attribute than the key's head
    if rel not in ("unrelated", "other_key"):
        return False
    st = statement(new)
    if changes.adds(st) or words.PREVIOUS.search(new.content) or any(h in lexicon.PEOPLE for h in st.holder):
        return False  # one more, a past one, or a relative's ("my sister's boss …")
    if words.HEDGE.search(new.content):
        return False  # a question or a hedge ("Might get a new number, …?") states no value
    read = belief_meaning.meaning(new.content, new.owner)
    if _head_group(old.subject_key) is None or _head_group(new.subject_key) is None:
        # a head read by example: the statement must name that attribute too (by the rules or by example)
        named = _key_attribute(new.subject_key) or ""
        from .meaning_learned import reading

        read = read if read is not None else reading(new.content, new.owner, frozenset({named}))
        return read is not None and named in read.attributes and read.holder in ("user", "*")
    return read is None or read.holder in ("user", "*")


def _key_attribute(key: str) -> str | None:
    """The attribute of a statement a key's head names (:func:`.meaning_keys.key_label`; an
    address is the home)."""
    named = _key_label(key)
    return "home" if named == "address" else named


def _read_as_head(old: Memory, new: Memory) -> bool:
    """Limit (c): are both statements read (by the rules or by example) as the one attribute the
    two keys' heads name, of the user, with another value and no change said ("My spouse is Beth"
    as ``user.spouse`` beside "My wife is Anna" as ``user.wife``)? The caller filed it under its
    spelling of the held key: one key. Never a past value, a hedge, another holder or a negation."""
    named = _key_attribute(new.subject_key or "")
    if not named or words.HEDGE.search(new.content) or words.PREVIOUS.search(new.content):
        return False
    if previous_value(old.content, old.owner, new.content, new.owner):
        return False
    a, b = belief_meaning.readings(old.content, old.owner, new.content, new.owner)
    return (
        a is not None
        and b is not None
        and a.attributes == b.attributes == {named}
        and a.holder == b.holder == "user"
        and not (a.negated or b.negated or b.past)
        and belief_meaning.judge(a, b) == "unsure"
    )


def may_supersede(old: Memory, new: Memory, *, explicit: bool, margin: float) -> bool:
    """May ``new`` replace ``old`` at once? Else a conflict is opened and ``old`` stays.

    ``explicit``: the caller named the fact (its own subject key, or ``replaces=``).
    A frozen fact yields only to an explicit update. Otherwise a statement at least as
    confident as the fact replaces it, and so does one that states a change in its own
    words ("I moved to Leeds") and is at most ``margin`` less confident; a weaker mention
    does not.
    """
    if old.frozen:
        return explicit
    if new.confidence >= old.confidence:
        return True
    return new.confidence + margin >= old.confidence and stated_change(new.content)


def reinforced(confidence: float, step: float, cap: float) -> float:
    """Confidence after an independent confirmation: ``+ step``, never above ``cap`` (< 1.0)."""
    return round(min(cap, confidence + step), 6)


def _other_names(old_content: str, new_content: str) -> bool:
    """Do the two sentences name values by names, neither the other's ("Sky" / "Vodafone", "Castle
    Vets" / "Parkside Vets"; not "Anna" / "Anna Smith")?"""
    from .meaning_learned import names

    a, b = names(old_content), names(new_content)
    return bool(a) and bool(b) and not (a <= b or b <= a)


def _digits(text: str) -> set[str]:
    return {re.sub(r"[,\s]", "", d) for d in re.findall(r"\d[\d,]*", text)}
