"""Chat-style statements in the form the statement reader expects (pure).

People tell an assistant facts the way they type: "btw i moved to leeds last month",
"switched to protonmail fyi", "yep still at initech". The parser reads such text badly
(a lowercase "i", no subject, names in lowercase), so :func:`tidy` rewrites it first:
the pronoun and apostrophes restored, chat fillers dropped, a missing "I" supplied, and in
all-lowercase text the names capitalised (entities, days and months, and a bare noun after
"to/at/in/from" or "is"). Well-formed text comes back unchanged.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import lexicon
from .phrases import reading

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_I = re.compile(r"\bi\b")
_CONTRACTIONS = {
    "im": "I'm",
    "ive": "I've",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "isnt": "isn't",
    "arent": "aren't",
    "wasnt": "wasn't",
    "werent": "weren't",
    "cant": "can't",
    "couldnt": "couldn't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "wouldnt": "wouldn't",
}
_CONTRACTION = re.compile(r"\b(" + "|".join(_CONTRACTIONS) + r")\b")
_FILLER = r"(?:btw|fyi|fwiw|tbh|tbf|ngl|imo|ps|oh|ok|okay|yeah|yep|yup|hey|hi|lol|haha|so yeah|just fyi|heads up)"
#: short forms typed in chat, read as the word the lexicon knows ("not veggie anymore", "my sis")
_SHORT_FORMS = {"veggie": "vegetarian", "sis": "sister", "hubby": "husband", "gf": "girlfriend", "bf": "boyfriend"}
_SHORT_FORM = re.compile(r"\b(" + "|".join(_SHORT_FORMS) + r")\b", re.I)
_LEADING = re.compile(r"^\s*(?:" + _FILLER + r")\b[\s,:;.!-]*", re.I)
_TRAILING = re.compile(r"[\s,;-]*\b(?:" + _FILLER + r")\s*[.!]*\s*$", re.I)
#: A leading "no wait", "oops": the speaker correcting themself, read as "No, …".
_CORRECTING = re.compile(r"^\s*(?:no+[\s,]+wait|wait|oops|whoops|my bad|actually no)\b[\s,:;.!-]+(?=\S)", re.I)
_SMILEY = re.compile(r"\s*(?::-?[)(DPp]|;-?\)|<3|xd)\s*", re.I)
_BANGS = re.compile(r"([!?])[!?]+")
#: Entities that name something in a lowercase sentence ("sarah", "spanish", "leeds").
_NAMED = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "LANGUAGE", "FAC", "PRODUCT"})
#: Days and months to capitalise ("on thursdays", "in march"; not "may").
_CALENDAR = lexicon.WEEKDAYS | {d + "s" for d in lexicon.WEEKDAYS} | (lexicon.MONTHS - {"may"})
#: Nouns said bare after a preposition that are not names: "at work", "moved to town".
_BARE_NOUNS = frozenset(
    """home work school bed church town college university uni hospital office prison court lunch dinner
breakfast class campus mass sea time night noon midnight midday today tomorrow tonight yesterday""".split()
)
_PLACE_PREPS = frozenset({"to", "at", "in", "from", "for", "with", "near", "into"})
#: "new number: 07700 900999", "address: 4 Mill Lane": a short name of a thing, a colon, its value.
_FIELD = re.compile(r"^\s*((?:my |our |the user's )?(?:new |current )?[a-z][a-z' -]{1,30}?)\s*:\s+(\S.*)$", re.I)
#: Words before a colon that label a message, not a thing ("update: …": statements.py reads them).
_LABELS = frozenset("update updated correction corrected fyi note edit ps new reminder btw todo".split())


def tidy(text: str) -> str:
    """``text`` as the statement reader reads best; unchanged when it is already well formed.

    >>> tidy("btw i moved to leeds last month")
    'I moved to Leeds last month.'
    >>> tidy("yep still at initech")
    "I'm still at Initech."
    >>> tidy("new number: 07700 900999")
    'My new number is 07700 900999.'
    >>> tidy("not veggie anymore fwiw")
    "I'm not vegetarian anymore."
    >>> tidy("I live in Bristol.")
    'I live in Bristol.'
    """
    lowercase = not any(c.isupper() for c in text)
    out = _CORRECTING.sub("No, ", text)
    out = _SMILEY.sub(" ", out)
    out = _BANGS.sub(r"\1", out)
    unfilled = _LEADING.sub("", out)
    typed = text.lstrip()[:1].islower() or unfilled != out  # else a sentence: no parse is spent on it
    out = unfilled
    out = _TRAILING.sub("", out)
    out = _I.sub("I", out)
    out = _CONTRACTION.sub(lambda m: _CONTRACTIONS[m.group(1)], out)
    out = _SHORT_FORM.sub(lambda m: _SHORT_FORMS[m.group(1).lower()], out)
    out = " ".join(out.split())
    if not out:
        return text
    out = _field(out)
    if out.lower().startswith("user "):  # "user eats meat again": the tools' third person
        out = "The user " + out[5:]
    if out[-1] not in ".!?":
        out += "."
    if typed:
        out = _with_subject(out[0].lower() + out[1:] if out[:2] not in ("I ", "I'") else out)
    if lowercase:
        out = _capitalised(reading(out))
    out = out[0].upper() + out[1:]
    return out if out != text.strip() else text


def _field(text: str) -> str:
    """A thing and its value written as a form field is a sentence: "new number: 07700 900999" →
    "my new number is 07700 900999" (not a label such as "update:", nor a value that says something)."""
    m = _FIELD.match(text)
    if m is None or m.group(1).strip().lower() in _LABELS or len(m.group(1).split()) > 4:
        return text
    value = m.group(2).rstrip(".!")
    if any(t.pos_ in ("VERB", "AUX") for t in reading(value)):
        return text
    name = m.group(1).strip()
    name = name if name.isupper() else name[0].lower() + name[1:]  # "Standup: 10am" is the standup's
    owned = name.lower().startswith(("my ", "our ", "the user's "))
    return f"{name if owned else 'my ' + name} is {value}"


def _with_subject(text: str) -> str:
    """A statement typed without its subject is the speaker's: "Switched to protonmail" → "I
    switched to protonmail", "Still at initech" → "I'm still at initech"."""
    doc = reading(text)
    first = doc[0]
    has_verb = any(t.pos_ in ("VERB", "AUX") for t in doc)
    bare_not = first.lower_ == "not" and not any(t.pos_ == "AUX" for t in doc)  # "not veggie anymore"
    still = first.lower_ in ("still", "now", "currently", "back") or text.lower().startswith("no longer ")
    if bare_not or (not has_verb and still):
        return "I'm " + first.lower_ + text[len(first.text) :]
    if first.tag_ == "VBG" and first.dep_ == "amod":  # "visiting leeds next week": parsed as a noun phrase
        return "I'm " + text
    root = next((t for t in doc if t.dep_ == "ROOT"), first)
    subject = any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in root.children)
    modal = first.tag_ == "MD" and first.head.i == root.i  # "might try protonmail"
    if subject or root.pos_ != "VERB" or (root.tag_ not in ("VBD", "VBN", "VBG") and not modal):
        return text
    leading = ("advmod", "aux", "auxpass", "neg")
    if not (first.i == root.i or (first.dep_ in leading and first.head.i == root.i)):
        return text
    if root.tag_ == "VBG" and first.tag_ != "MD":
        return "I'm " + text
    return "I " + text


def _capitalised(doc: Doc) -> str:
    """An all-lowercase sentence with its names capitalised."""
    words = []
    for t in doc:
        word = t.text
        if t.is_alpha and t.text.islower() and _is_name(t):
            word = t.text[0].upper() + t.text[1:]
        words.append(word + t.whitespace_)
    return "".join(words)


def _is_name(tok: Token) -> bool:
    low = tok.lower_
    if low in _CALENDAR or tok.ent_type_ in _NAMED:
        return True
    if tok.pos_ not in ("NOUN", "PROPN", "ADJ") or low in _BARE_NOUNS:
        return False
    if any(c.dep_ in ("det", "poss", "amod", "nummod", "compound") for c in tok.children):
        return False  # "a tesla", "my car": a common noun
    after_place = tok.dep_ == "pobj" and tok.head.lower_ in _PLACE_PREPS
    return after_place or (tok.dep_ == "attr" and tok.head.lemma_ == "be" and tok.pos_ != "ADJ")
