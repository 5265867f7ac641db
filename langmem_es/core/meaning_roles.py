"""The role a one-value sentence gives its value, and whether two sentences give one role
(issue 45, class 4: a keyless update in other words).

"My dentist is X" and "I see Y for my teeth now" give their values one role in two frames: a
noun the value *is* ("my dentist") or what the holder *does* with it ("see … for my teeth").
A sentence's **role words** are what is left of it once its value, its holder's words, the
words of a change ("new", "now", "switched") and the light words of either frame (be, have,
go, get, see, take, articles, prepositions; generic nouns such as "provider" or "company")
are taken out: ``dentist`` / ``teeth``, ``car insurance`` / ``insured``, ``broadband`` /
``internet``, ``vet`` / ``dog``.

Two sentences give one role when

* both are **noun frames** ("my N is X", "X is my N") and every role word of the shorter one is
  a word of the other, or shares its stem ("insurance" / "insurer"): another noun names another
  thing ("my dentist" is no "my doctor", however close the two embed);
* else (a verb frame on either side) every role word of the shorter one is a word (or stem) of
  the other, or their role phrases embed at least :data:`ROLE_FLOOR` close (the offline model; the floor chosen by leave-one-family-out
  cross-validation over the tuning families, ``scripts/meaning_cv.py --roles``): "I take the dog
  to X" is no "I take the car to Y".

Only asked where neither the rules nor the exemplar labels read an attribute on either side,
by :func:`slot_readings`, which reads both statements as values of one such attribute — one
frame said again (:data:`SLOT_FLOOR`) or one role in two frames — under every guard of a
reading (one holder, no past state, negation, stay, question or hedge); a change must still be
said.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from . import meaning_learned as learned
from .meaning_nearest import Exemplars, Settings
from .meaning_words import Meaning

__all__ = [
    "CLAUSE_FLOOR",
    "ROLE_FLOOR",
    "SLOT_FLOOR",
    "gives_one_role",
    "noun_frame",
    "role_words",
    "same_role",
    "slot_readings",
]

#: how close two role phrases in different frames must embed (cosine), chosen by
#: leave-one-family-out cross-validation over the tuning families (``scripts/meaning_cv.py --roles``)
ROLE_FLOOR = 0.55

#: nouns any service is called: no role is told by them, but a new sentence may name its role
#: with one ("my new broadband provider")
_GENERIC = frozenset("provider providers supplier suppliers company companies firm service services".split())
#: words no role is told by: persons and possessives, negations (a reading compares those), articles,
#: prepositions, be/have/do, the light verbs of the verb frames, the generic nouns, and the words
#: of a time ("last month", "in the autumn")
_LIGHT = _GENERIC | frozenset(
    """i i'm i've i'd i'll me my mine myself we we're we've our ours us user x n e his her their its
    not no never
    the a an this that these those some
    to for with from at in on of by as into onto through via over
    is are am was were be been being 's 're 'm 've 'd 'll
    have has had do does did done
    go goes going went gone get gets getting got see sees seeing saw seen take takes taking took
    use uses using used come comes coming came pay pays paid
    people place one it it's only all up really
    last next this week weeks month months year years day days spring summer autumn fall winter
    morning evening weekend ago after""".split()
)
_NOUN_FRAME = re.compile(r"^(?:my|our)\b[^.?!]*?\b(?:is|are)\b|\b(?:is|are)\s+(?:my|our)\b", re.IGNORECASE)


def _tokens(slot: str) -> list[str]:
    low = slot.casefold().replace("\u2019", "'")
    low = re.sub(r"'(re|s|m|ve|d|ll)\b", r" '\1", low)
    return re.findall(r"[a-z']+", low)


@lru_cache(maxsize=4096)
def role_words(slot: str) -> tuple[str, ...]:
    """The role words of a sentence as :func:`~.meaning_learned.slot_text` gives it (values
    masked, change words out).

    >>> role_words("My car insurance is with X."), role_words("I see X for my teeth."), role_words("My broadband provider is X.")
    (('car', 'insurance'), ('teeth',), ('broadband',))
    """
    return tuple(w for w in _tokens(slot) if w not in _LIGHT and "'" not in w)  # no contraction ("don't")


def noun_frame(slot: str) -> bool:
    """Is the value what a noun of the holder's *is* ("my dentist is X", "X is our vet")?"""
    return bool(_NOUN_FRAME.search(slot))


def _fold(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


#: everyday words that name one role: the one who does it and what they do for the holder
#: ("my accountant" / "does my taxes", "my bank" / "for banking"); a lexicon of equivalents, no
#: more: a word in two roles ("phone", "car", "contract", "shop") is in none
ROLE_GROUPS: tuple[frozenset[str], ...] = tuple(
    frozenset(g.split())
    for g in (
        "accountant accountants bookkeeper tax taxes",
        "dentist dentists dental teeth tooth",
        "doctor doctors gp",
        "vet vets veterinary veterinarian",
        "hairdresser hairdressers barber barbers hair haircut haircuts",
        "bank banks banking",
        "university uni college study studying studies student students",
        "energy electricity gas",
        "broadband internet wifi fibre",
        "network carrier sim mobile",
        "optician opticians optometrist glasses spectacles",
        "nursery childminder childcare daycare",
        "mechanic mechanics servicing serviced",
        "cleaner cleaners cleaning",
        "plumber plumbing",
        "solicitor solicitors lawyer lawyers",
        "babysitter nanny",
        "therapist therapists therapy counsellor counselling psychotherapist",
        "physio physios physiotherapist physiotherapy",
        "pharmacy pharmacist chemist prescription prescriptions meds",
        "supermarket supermarkets groceries grocery",
        "mortgage mortgages remortgage remortgaged lender",
        "gym gyms workout workouts",
    )
)
_GROUP_OF = {w: i for i, g in enumerate(ROLE_GROUPS) for w in g}


def _same_stem(a: str, b: str) -> bool:
    """One word, one stem of five letters or more ("insurance" / "insurer", "vet" / "vets"), or
    one role's words (:data:`ROLE_GROUPS`: "accountant" / "taxes"; a word of the lexicon shares
    no stem with a word outside its role: "accountant" / "account")."""
    ga, gb = _GROUP_OF.get(a), _GROUP_OF.get(b)
    if ga is not None and ga == gb:
        return True
    a, b = _fold(a), _fold(b)
    if ga is not None or gb is not None:
        return a == b  # a role the lexicon names shares no stem with another word ("accountant" / "account")
    return a == b or len(os.path.commonprefix([a, b])) >= 5


def _other_groups(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Do both sides name a role of :data:`ROLE_GROUPS`, and no role in common?"""
    ga, gb = {_GROUP_OF[w] for w in a if w in _GROUP_OF}, {_GROUP_OF[w] for w in b if w in _GROUP_OF}
    return bool(ga) and bool(gb) and not ga & gb


def _words_covered(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return all(any(_same_stem(w, v) for v in long_) for w in short)


def same_role(held_slot: str, said_slot: str, *, floor: float | None = None) -> tuple[str, ...] | None:
    """Do two one-value sentences (as :func:`~.meaning_learned.slot_text` gives them) give their
    values one role? The new sentence's role words that name it (each one of the held words, or
    of their stem, or embedding at least the floor close to the held role), or ``None`` (see the
    module's docstring; ``None`` too when the offline model is missing). A
    word of the new sentence that is none of those ("my dentist moved *his practice*") is left
    out: the reading's guard then refuses a thing the held sentence does not name."""
    a, b = role_words(held_slot), role_words(said_slot)
    if not a or not b:
        return None
    generic = tuple(w for w in _tokens(said_slot) if w in _GENERIC)
    if noun_frame(held_slot) and noun_frame(said_slot):
        return (*b, *generic) if _words_covered(a, b) else None
    if _other_groups(a, b):
        return None  # the lexicon names two roles ("teeth" / "therapy"), however close they embed
    if not (_words_covered(a, b) or _close(a, b, floor)):
        return None
    named = [w for w in b if any(_same_stem(w, v) for v in a) or _close((w,), a, floor)]
    if named and named[-1] == b[-1]:
        named = list(b)  # the head names the role: its modifiers come with it ("car insurance")
    return (*named, *generic)


def _close(a: tuple[str, ...], b: tuple[str, ...], floor: float | None) -> bool:
    vectors = learned.embed([" ".join(a), " ".join(b)])
    return vectors is not None and float(vectors[0] @ vectors[1]) >= (ROLE_FLOOR if floor is None else floor)


#: how close two statements' masked sentences, change words left out, must embed to set one
#: attribute no label names ("I'm insured with X" / "My car insurance is with X"): chosen by
#: leave-one-family-out cross-validation over the tuning families (``scripts/meaning_cv.py --slots``)
SLOT_FLOOR = 0.8
_ANY_SCORE = Settings(k=1, floor=-1.0, margin=-1.0)


def slot_readings(old: str, old_owner: str, new: str, new_owner: str) -> tuple[Meaning, Meaning] | None:
    """Both statements read as values of one attribute no label names, when the held sentence
    is the new one's only exemplar and they embed at least :data:`SLOT_FLOOR` close ("My dentist
    is X" / "My new dentist is Y"), or say one role in two frames (:func:`same_role`: "My
    dentist is X" / "I go to Y for my teeth now"): under the learned reading's guards (one
    holder, no past state, negation, stay, question or hedge; no thing the examples do not name)."""
    if not learned.enabled() or learned._missing:
        return None
    held, said = learned._normalised(old, old_owner), learned._normalised(new, new_owner)
    if not (learned._one_value(held) and learned._one_value(said)):
        return None
    example, held_slot, said_slot = learned.mask(held), learned.slot_text(held), learned.slot_text(said)
    vectors = learned.embed([example, held_slot, said_slot])
    if vectors is None:
        return None
    role = same_role(held_slot, said_slot)  # one role, in its words or another frame's
    if float(vectors[1] @ vectors[2]) < SLOT_FLOOR and not role:
        return None
    texts: tuple[str, ...] = (example,)
    if role:  # the held frame with the new words of its role: a thing either names is the slot's ("insurer")
        texts = (example, f"{example} {' '.join(role)}")
        vectors = learned.embed(list(texts))
        if vectors is None:
            return None
    n = len(texts)
    ex = Exemplars(("s",) * n, ("slot",) * n, ("held",) * n, texts, vectors[:n])
    a = learned.reading(old, old_owner, frozenset({"slot"}), ex=ex, settings=_ANY_SCORE)
    b = learned.reading(new, new_owner, frozenset({"slot"}), ex=ex, settings=_ANY_SCORE)
    return (a, b) if a is not None and b is not None else None


#: how close a clause that names a new value must embed to the held sentence (both masked, change
#: words out) to give its value the held one's role, when another clause said the held value is
#: over ("Claire Dunn left the clinic, so …"): above every look-alike pair of another role written
#: to trap it (at most 0.59: "I live in X" / "I drive via X"), below SLOT_FLOOR (one frame said again)
CLAUSE_FLOOR = 0.65


def gives_one_role(old: str, old_owner: str, new: str, new_owner: str) -> bool:
    """Does the new clause give its value the held sentence's role: one role in their words or
    another frame's (:func:`same_role`), or their masked sentences at least :data:`CLAUSE_FLOOR`
    close ("I work at X" / "I've been at X": 0.72; "My boss is X" / "X knows about the project": 0.49)?"""
    if not learned.enabled() or learned._missing:
        return False
    held_slot = learned.slot_text(learned._normalised(old, old_owner))
    said_slot = learned.slot_text(learned._normalised(new, new_owner))
    if same_role(held_slot, said_slot):
        return True
    vectors = learned.embed([held_slot, said_slot])
    return vectors is not None and float(vectors[0] @ vectors[1]) >= CLAUSE_FLOOR
