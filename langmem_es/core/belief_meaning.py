"""What a statement means, in everyday equivalents: holder, attribute, value, polarity (issue 45).

The statement reader (:mod:`.statements`) reads a sentence by its grammar; people say one fact
in many ways the grammar does not tie together: a health fact through its effect ("Peanuts
make me break out in hives" is the peanut allergy), a trait through what it implies ("I don't
eat meat" is vegetarian), a date with another verb ("We're launching on 12 March" is the
launch date), a form line ("DOB: 4 July 1990") or a new value in new words ("My new place is
in Leeds" is the home). :func:`meaning` reads a sentence into a :class:`Meaning` — who it is
about, which attribute (a set: "I'm now with Jordan" is a partner or an employer), the value,
whether it says a change — and :func:`compare` tells what a new statement does to a held one
by meaning alone:

* ``reinforcement`` — same holder, one attribute, the same value (in its everyday equivalents);
* ``update`` — same holder, one single-valued attribute, another value, and the sentence says
  it changed ("new", "now", "these days", "just", "have since", "currently", "gone" …);
* ``unsure`` — same holder and single-valued attribute, another value, no change said: the
  rules cannot tell a change from a stale or mistaken mention, so both facts stay (and the
  write says so);
* ``None`` — nothing to say (other holder, other attribute, no reading).

Pure, cached; the tables below and in :mod:`.meaning_traits` are the small lexicon of everyday
equivalents. Where the rules read an attribute on one side only (or on neither),
:mod:`.meaning_learned` may read it by example (the offline model, loaded on first use), under
the same verdicts (:func:`readings`). A question reads as nothing, a hedge as no change said,
and a phrase read as the user's whose subject is someone else as theirs (safety rules).
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import Literal

from . import statements
from .meaning_homes import in_place, named_elsewhere
from .meaning_traits import DIETS
from .meaning_traits import Found as _Found
from .meaning_traits import canonical_value as _canonical_value
from .meaning_traits import sensitivity as _sensitivity
from .meaning_traits import trait as _trait
from .meaning_words import CHANGED as _CHANGED
from .meaning_words import DATE as _DATE
from .meaning_words import EVENT_FILLER as _EVENT_FILLER
from .meaning_words import HEDGE as _HEDGE
from .meaning_words import MONTH as _MONTH
from .meaning_words import MULTI, Meaning
from .meaning_words import NEG as _NEG
from .meaning_words import PAST as _PAST
from .meaning_words import date_value as _date_value
from .statements import lexicon

Verdict = Literal["reinforcement", "update", "unsure"]

#: attribute -> the words (key parts, field names, head nouns) that name it
ATTRIBUTES: dict[str, frozenset[str]] = {
    name: frozenset(words.split())
    for name, words in {
        "home": "home place flat apartment house address residence home_city city hometown home_address based live "
        "living settled relocate",
        "employer": "employer company workplace firm current_employer",
        "job": "job job_title title role position occupation profession",
        "phone": "phone number mobile cell cellphone telephone tel phone_number mobile_number",
        "email": "email e_mail email_address",
        "partner": "partner spouse wife husband girlfriend boyfriend",
        "manager": "manager boss supervisor line_manager report",
        "diet": "diet",
        "drinking": "drinking alcohol",
        "smoking": "smoking smoker",
        "handedness": "handedness",
        "birthday": "birthday birth_date date_of_birth dob birth born",
        "car": "car drive vehicle",
        "sensitivity": "allergic allergy allergies intolerant intolerance",
    }.items()
}
#: multi-word field names, read before single words
_PHRASES = {
    "date of birth": "birthday",
    "phone number": "phone",
    "mobile number": "phone",
    "email address": "email",
    "e-mail": "email",
    "job title": "job",
    "line manager": "manager",
    "home address": "home",
}

#: everyday equivalents of values (one thing in other words)
# -- forms and copulas: "Field: value", "My new place is in Leeds", "Home is Leeds now" ----------
_FORM = re.compile(r"^\s*(?P<field>[A-Za-z][A-Za-z '/-]{0,30}?)\s*:\s*(?P<value>[^:\n]+?)\s*\.?\s*$")
_COPULA = re.compile(
    r"^(?P<who>(?:(?:my|our|his|her|their|the user's|[a-z]+'s)\s+)*)(?:(?:new|current|present|latest|actual)\s+)?"
    r"(?P<field>[a-z][a-z -]{1,30}?)(?:\s+(?:is|are)|'s)\s+(?:now\s+|currently\s+|still\s+)?(?P<at>in\s+|at\s+|with\s+|a\s+|an\s+)?"
    r"(?P<value>[^,;]+?)(?:,?\s+(?:now|these days|nowadays|currently|at the moment))?\s*(?:[,;.].*)?$"
)
_VALUE_FIRST = re.compile(
    r"^(?P<value>[A-Z][\w-]*(?: [A-Z][\w-]*)?|\+?\d[\d ().-]{3,}\d|\S+@\S+\.\w+) (?:is|has become|became|has been|'s been) (?:now |still |currently )?(?:(?P<who>my|our|the user's) )?"
    r"(?:new |current )?(?P<field>[a-z][a-z -]{1,30}?)"
    r"(?:,?\s+(?:now|these days|nowadays|currently|since [\w ]+|for [\w ]+))?\s*\.?\s*$"
)
_WITH = re.compile(
    r"\b(?i:i'm|i am|the user is)\s+(?i:now\s+|currently\s+)?"
    r"(?P<how>(?i:with|seeing|dating|going\s+out\s+with|in\s+a\s+relationship\s+with))\s+"
    r"(?P<someone>(?i:(?:someone|somebody|a\s+(?:guy|girl|man|woman|lad|lass|bloke))(?:\s+new)?\s+(?:named|called)\s+))?"
    r"(?P<v>[A-Z][a-z]++)(?:\s+[A-Z][a-z]++)*+(?!\s+for\b)"
)

# -- dates: one event on one date, whatever the verb --------------------------------------------------


def _fold(word: str) -> str:
    """A word and its nominalisation as one ("renewal" / "renews", "launching" / "launch")."""
    w = word.casefold()
    for suffix in ("ing", "al", "ment", "ion", "es", "s", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            return w[: -len(suffix)]
    return w


def _value(text: str) -> frozenset[str]:
    """The value a phrase names: its digits when it is a number, else its word lemmas, with equivalents."""
    digits = re.sub(r"\D", "", text)
    if len(digits) >= 5 and not _DATE.search(text):
        return frozenset({digits})
    dated = _DATE.search(text)
    if dated:
        return _date_value(dated)
    text = re.sub(r"^(?:a|an|the)\s+", "", text.strip(), flags=re.IGNORECASE)
    names = re.findall(r"\b[A-Z][\w-]*", text)  # a name is kept as written ("Leeds"), as the reader keeps it
    words = statements.word_lemmas(" ".join(w for w in text.split() if not w[:1].isupper()))
    return frozenset({*(_canonical_value(w) for w in words), *(n.casefold() for n in names)})


def _attributes_of(words: set[str]) -> frozenset[str]:
    return frozenset(a for a, names in ATTRIBUTES.items() if words & names)


def _field_attributes(field: str) -> frozenset[str]:
    f = field.casefold().strip()
    for phrase, attribute in _PHRASES.items():
        if phrase in f:
            return frozenset({attribute})
    words = [w for w in re.split(r"[\s/_-]+", f) if w and w not in _FIELD_FUNCTION]  # "Where I live", "Lives in"
    words = [w[:-1] if w.endswith("s") and _attributes_of({w[:-1]}) and not _attributes_of({w}) else w for w in words]
    if not words:
        return frozenset()
    whole = _attributes_of({"_".join(words)})
    if whole:
        return whole
    head = _attributes_of({words[-1]})
    # "account number" is not the phone: a qualifier must be one of the attribute's own words
    return head if all(w in _QUALIFIERS or _attributes_of({w}) == head for w in words[:-1]) else frozenset()


#: words of a field name that say no thing ("Where I live: York", "Lives in: York")
_FIELD_FUNCTION = frozenset("where i in at of who what is are am do does".split())
#: words that qualify an attribute's name without naming another thing ("current employer")
_QUALIFIERS = frozenset("my our the new current present main primary personal actual latest own".split())


def _holder_of(who: str) -> str | None:
    """``my`` / ``the user's`` → the user; ``my sister's`` → ``sister``; a name → that name."""
    parts = [p for p in who.casefold().split() if p]
    others = [p[:-2] for p in parts if p.endswith("'s") and p not in ("user's",)]
    return others[-1] if others else "user"


@lru_cache(maxsize=8192)
def meaning(content: str, owner: str = "") -> Meaning | None:
    """The statement's meaning, or ``None`` when no attribute is read.

    >>> m = meaning("Peanuts make me break out in hives.")
    >>> (m.holder, sorted(m.attributes), sorted(m.values))
    ('user', ['sensitivity'], ['peanut'])
    >>> m = meaning("My new place is in Leeds.")
    >>> (sorted(m.attributes), m.values == meaning("I live in Leeds.").values, m.changed)
    (['home'], True, True)
    >>> meaning("DOB: 4 July 1990").values == meaning("I was born on 4 July 1990.").values
    True
    """
    text = re.sub(r"\s+", " ", content.strip().replace("\u2019", "'"))
    me = owner.split(":", 1)[1].casefold() if owner.startswith("user:") else ""
    if me:  # "Sam lives in York" in user:sam's memories is the user's own
        text = re.sub(rf"^{re.escape(me)}('s)?\b", lambda m: "The user" + (m[1] or ""), text, flags=re.IGNORECASE)
    low = text.casefold().rstrip(".!")
    if text.rstrip().endswith("?"):
        return None  # a question says nothing is so ("Do I live in Leeds now?")
    changed, past, negated = bool(_CHANGED.search(low)), bool(_PAST.search(low)), bool(_NEG.search(low))
    changed = changed and not _HEDGE.search(text)  # "I might move to Leeds": no change said, at most unsure
    for reader in (_form, _sensitivity, _trait, _copula, _with, in_place, named_elsewhere, _dated):
        found = reader(text, low)
        if found is not None:
            holder, attributes, values, neg = found
            if attributes and values:
                holder = _parsed_holder(text, holder, attributes, values)
                return Meaning(holder, attributes, values, changed, past, neg if neg is not None else negated)
    return _read(text, changed, past, negated)


def _parsed_holder(text: str, holder: str, attributes: frozenset[str], values: frozenset[str]) -> str:
    """Safety rule, never across holders: a phrase read as the user's ("settled in Leeds") whose
    subject the statement reader reads as someone else ("My sister settled in Leeds", "Tom settled
    in Leeds") is that person's — unless that person is the attribute itself ("my partner is Sam")
    or its value said first ("York is home")."""
    if holder != "user":
        return holder
    from .meaning_learned import names

    st = statements.parse(text)
    own = set().union(*(ATTRIBUTES.get(a, frozenset()) for a in attributes))
    people = [p for p in st.holder[1:] if p in lexicon.PEOPLE and p not in own]
    if people:
        return people[-1]
    first = st.holder[0] if st.holder else "user"
    if first not in ("user", "i", "we") and first in names(text) and first not in values:
        return first  # a name as the subject ("Tom settled in Leeds")
    return holder


def _form(text: str, low: str) -> _Found | None:
    m = _FORM.match(text)
    if not m or len(m["field"].split()) > 4:
        return None
    field = m["field"]
    holder = "user"
    people = [w for w in re.split(r"[\s'/_-]+", field.casefold()) if w in lexicon.PEOPLE]
    if people:
        holder = people[0]
    return holder, _field_attributes(field), _value(m["value"]), False


def _copula(text: str, low: str) -> _Found | None:
    m = _VALUE_FIRST.match(text)
    if m:
        attributes = _field_attributes(m["field"])
        if not m["who"] and attributes != {"home"}:
            return None  # "Tom is manager now": whose manager is not said ("Leeds is home now" is one's own)
        return ("user", attributes, _value(m["value"]), None) if attributes else None
    m = _COPULA.match(low)
    if not m:
        return None
    attributes = _field_attributes(m["field"])
    if not attributes:
        return None
    if attributes == {"job"} and (m["at"] or "").strip() in ("at", "with"):
        attributes = frozenset({"employer"})  # "my new job is at Globex": where, not what
    start = len(m["who"]) + (text[len(m["who"]) :].casefold().find(m["value"]) if m["value"] else 0)
    return _holder_of(m["who"]) or "user", attributes, _value(text[start : start + len(m["value"])]), None


def _with(text: str, low: str) -> _Found | None:
    m = _WITH.search(text) if re.search(r"\b(?:i'm|i am|the user is)\b", low) else None
    if m is None:
        return None
    # "with" is a partner or an employer; the others, or "with someone named …", a partner
    dating = m["how"].casefold() != "with" or bool(m["someone"])
    return ("user", frozenset({"partner"} if dating else {"partner", "employer"}), frozenset({m["v"].casefold()}), None)


def _dated(text: str, low: str) -> _Found | None:
    m = _DATE.search(text)
    if not m or re.search(r"\bborn\b|\bbirth", low):
        return None
    rest = (low[: m.start()] + " " + low[m.end() :]).replace("'re", " ").replace("'s", " ")
    event = frozenset(_fold(w) for w in re.findall(r"[a-z]+", rest) if w not in _EVENT_FILLER)
    if not event:
        return None
    who = "user" if re.search(r"\b(?:i|my|me)\b", low) else "*"
    return who, frozenset({"date:" + "+".join(sorted(event))}), _date_value(m), None


#: a passive's agent ("… has been cleaned by Agnieszka")
_BY_AGENT = re.compile(r"\b(?:been|was|were|is|are|got|gets)\s+\w+ed\s+by\s+[A-Z]")
#: attributes whose values are names: a reading of the statement reader sets them only with a name
_NAMED = frozenset({"manager", "partner", "home", "employer"})


def _capitalised(value: str, text: str) -> bool:
    return any(w[:1].isupper() for w in re.findall(rf"\b{re.escape(value)}\w*", text, re.IGNORECASE))


def _read(text: str, changed: bool, past: bool, negated: bool) -> Meaning | None:
    """The statement reader's own reading, its key's words named as an attribute."""
    st = statements.parse(text)
    holder = st.holder[0] if st.holder else ""
    if holder in ("user", "i"):
        holder = "user"
    elif not holder:
        return None
    parts = [*st.key.split("."), st.frame or "", st.thing or ""]
    words = {w for part in parts if part for w in (part, *(part.split("_") if _field_attributes(part) else ()))}
    words -= {holder}
    if st.thing and not _field_attributes(st.thing):
        return None  # a thing's ("Bitwarden is where my logins live"), not the holder's attribute
    if len(st.holder) > 1:  # "my partner is Sam": the attribute is the person the key names, by name
        if st.frame != "name":
            return None  # "my manager moved to a new office": a fact about that person
        words = set(st.holder[1:])
    attributes = _attributes_of(words)
    if "home" in attributes and _BY_AGENT.search(text):
        return None  # "the house has been cleaned by Agnieszka": who did it is no home
    values = frozenset(_canonical_value(v) for v in st.values)
    dated = _DATE.search(text)
    if dated and any(re.fullmatch(_MONTH, v) for v in values):
        values = _date_value(dated)
    if not values and "sensitivity" in attributes:
        values = frozenset({_canonical_value(st.key.split(".")[-1])})
    if not attributes or not values:
        return None
    if attributes & _NAMED and not all(
        re.search(rf"\b{re.escape(v)}", text, re.IGNORECASE) and _capitalised(v, text) for v in values
    ):
        return None  # "My manager moved to a new office": no one named in the held one's place
    return Meaning(holder, attributes, values, changed or st.change, past, st.negated)


def compare(old: str, old_owner: str, new: str, new_owner: str) -> Verdict | None:
    """What the new statement does to the held one by meaning (see the module's doc).

    >>> compare("I'm allergic to peanuts.", "", "Peanuts make me break out in hives.", "")
    'reinforcement'
    >>> compare("I'm based in York.", "", "My new place is in Leeds.", "")
    'update'
    >>> compare("I'm based in York.", "", "My sister's new place is in Leeds.", "") is None
    True
    """
    a, b = readings(old, old_owner, new, new_owner)
    if a is not None and b is not None and _same_day_other_words(a, b):
        from .meaning_learned import same_event

        if same_event(old, new):  # one event on one date in other words ("We go live on 12 March" / "The launch …")
            return "reinforcement"
    return judge(a, b) or _job_and_employer(old, a, new, b)


#: the employer a job is held at ("a nurse at St Mary's hospital", "an engineer for Globex")
_JOB_AT = re.compile(r"\b(?:at|for|with)\s+(?:the\s+)?(?P<org>[A-Z][\w'&.-]*(?:\s+(?:of\s+)?[A-Z][\w'&.-]*)*)")


def _job_and_employer(old: str, a: Meaning | None, new: str, b: Meaning | None) -> Verdict | None:
    """A job held at a named employer and an employer said alone bear on each other. A new
    employer after "I work as a nurse at St Mary's" ("I'm now working at the Royal Infirmary")
    may end the job there or move it — the sentence does not say whether the nurse stays a
    nurse — so both stay: ``unsure``; the same employer repeats it. A job at a new employer
    after the employer alone ("I'm a nurse at the Royal Infirmary now" / "I work at St Mary's")
    says all the held fact did: an update when a change is said, else ``unsure``.

    >>> _job_and_employer("I work as a nurse at St Mary's.", meaning("I work as a nurse at St Mary's."),
    ...                   "I'm now working at the Royal Infirmary.", meaning("I'm now working at the Royal Infirmary."))
    'unsure'
    """
    if a is None or b is None or a.holder != b.holder or a.negated or b.negated or b.past:
        return None
    if a.attributes == {"job"} and "employer" in b.attributes and "job" not in b.attributes:
        org = _employer_of_job(old)
        if not org:
            return None  # a job said without where: an employer is another fact
        return "reinforcement" if b.values <= org else "unsure"
    if a.attributes == {"employer"} and b.attributes == {"job"}:
        org = _employer_of_job(new)
        if not org or a.values <= org:
            return None  # the same employer: the job is one more fact about it
        return "update" if b.changed else "unsure"
    return None


def _employer_of_job(text: str) -> frozenset[str]:
    """The words of the employer a job sentence names ("… at St Mary's hospital": st, mary, hospital)."""
    m = _JOB_AT.search(text)
    if m is None:
        return frozenset()
    return frozenset(w.casefold() for w in re.findall(r"[A-Za-z]+", m["org"].replace("'s", "")))


def readings(old: str, old_owner: str, new: str, new_owner: str) -> tuple[Meaning | None, Meaning | None]:
    """Both statements' meanings: by the rules, else — where the rules read one side, or neither —
    by example (:func:`.meaning_learned.reading`), an attribute the other side is read as (both
    unread: the new statement first, one embedding, the held one only when it is read)."""
    a, b = meaning(old, old_owner), meaning(new, new_owner)
    if a is None or b is None:
        from .meaning_learned import ANY, reading
        from .meaning_words import same_form

        by_rules_neither = a is None and b is None
        if by_rules_neither:
            b = reading(new, new_owner, ANY)
        if a is None and b is not None:
            a = reading(old, old_owner, b.attributes)
        elif a is not None:
            b = reading(new, new_owner, a.attributes)
        if by_rules_neither and b is None:
            # neither side names an attribute the rules or the labels know: the held sentence as
            # the only example of its own ("My dentist is X" / "My new dentist is Y")
            from .meaning_roles import slot_readings

            a, b = slot_readings(old, old_owner, new, new_owner) or (None, None)
        if a is None or b is None or not same_form(a.values, b.values):
            return None, None  # a value of another form ("account number 12345678" is not a phone number)
    return a, b


def _same_day_other_words(a: Meaning, b: Meaning) -> bool:
    """Two dated events of one holder, on one date, named in words the rules do not tie together."""
    dated = all(x.attributes and all(t.startswith("date:") for t in x.attributes) for x in (a, b))
    return (
        dated
        and not _one_event(a.attributes, b.attributes)
        and not (a.attributes & b.attributes)
        and a.values == b.values
        and a.negated == b.negated
        and not (a.past or b.past)
        and (a.holder == b.holder or "*" in (a.holder, b.holder))
    )


def judge(a: Meaning | None, b: Meaning | None) -> Verdict | None:
    """What a new statement read as ``b`` does to a held one read as ``a`` (see :func:`compare`)."""
    if a is None or b is None or a.negated != b.negated:
        return None
    shared = a.attributes & b.attributes or _one_event(a.attributes, b.attributes)
    if a.holder != b.holder and "*" not in (a.holder, b.holder):
        if {a.holder, b.holder} != {"user", "we"} or shared != {"home"}:
            return None  # (a home said of "we" is the user's too: "We've moved to Leeds" / "I live in York")
    if not shared:
        return None
    if _same(a.values, b.values):
        return "reinforcement"
    if "diet" in shared and not (a.values | b.values) <= DIETS:
        return None  # a food eaten is not a diet ("I started eating more tofu")
    if shared <= MULTI or any(s.startswith("date:") for s in shared) or b.past:
        return None
    return "update" if b.changed else "unsure"


def _one_event(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """Dated events named one with fewer words ("the ACME contract renews" / "ACME's renewal")."""
    for x, y in itertools.product(a, b):
        if x.startswith("date:") and y.startswith("date:"):
            ex, ey = set(x[5:].split("+")), set(y[5:].split("+"))
            if ex <= ey or ey <= ex:
                return frozenset({x if len(ex) <= len(ey) else y})
    return frozenset()


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    return a == b or statements.same_value(a, b) or (bool(a) and bool(b) and (a <= b or b <= a) and len(a | b) <= 3)


def affirms(text: str) -> bool:
    """Does a sentence with a negation state a positive trait ("Meat is not something I eat": vegetarian)?

    >>> affirms("Meat is not something I eat."), affirms("I'm not vegetarian.")
    (True, False)
    """
    if not _NEG.search(text.casefold()):
        return False
    m = meaning(text)
    if m is None:  # the rules read nothing: a trait by example ("Alcohol is not for me": drinking, none)
        from .meaning_learned import ANY, reading

        m = reading(text, "", ANY, traits=True)
    return m is not None and not m.negated
