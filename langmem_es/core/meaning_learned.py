"""A learned attribute recogniser and key-part canonicaliser for belief maintenance (issue 45).

The rules of :mod:`.belief_meaning` read an attribute from words they list. Where they read
none, this module reads it from *labelled example sentences*: the sentence (its values masked)
is embedded with the bundled offline model (all-MiniLM-L6-v2, int8 ONNX, the process-wide
:func:`~langmem_es.embeddings.default_embeddings`, loaded on first use) and labelled by its
nearest exemplars (``meaning_exemplars.tsv``: sentences written for it and the tuning story
families' templates; the held-out families are not in it). A caller's key part
(``user.telephone``) is read the same way against labelled key phrases.

It only answers questions; :mod:`.belief_meaning` decides, under the safety rules: a learned
reading must agree with an attribute the rules read on the other side (or, where the rules read
neither side, with the new statement's own learned reading), it never reads another holder, a
past value, an ending, a negation or a stay, and a new value with no change said stays
``unsure``. :func:`same_event` tells whether two sentences giving one date name one event in
other words (their event words embed at least :data:`EVENT_FLOOR` close). When the offline model is not installed (or ``LANGMEM_ES_LEARNED_MEANING=0``) it
answers nothing and the rules decide alone.

The exemplar vectors ship in ``meaning_exemplars.npz`` (float16, with a digest of the
exemplars; recomputed in-process when the file does not match). ``python -m
langmem_es.core.meaning_learned`` rewrites it. Thresholds: :data:`SETTINGS`, chosen by
leave-one-family-out cross-validation over the tuning families (``scripts/meaning_cv.py``).
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .meaning_mask import CALENDAR as _CALENDAR
from .meaning_mask import EMAIL as _EMAIL
from .meaning_mask import MASK_NAMES, mask, names
from .meaning_mask import NUMBER as _NUMBER
from .meaning_mask import masked as _masked
from .meaning_nearest import Exemplars, Settings, decide, nearest
from .meaning_words import (
    CHANGED,
    DATE,
    EVENT_FILLER,
    HEDGE,
    MULTI,
    NEG,
    PAST,
    PAST_STATE,
    PREVIOUS,
    Meaning,
    date_value,
)

__all__ = [
    "ANY",
    "SETTINGS",
    "Exemplars",
    "Settings",
    "enabled",
    "exemplars",
    "key_label",
    "label",
    "mask",
    "names",
    "prepare",
]

#: ``wanted`` for :func:`reading` when the rules read neither side: any single-valued attribute
ANY = frozenset({"*"})

EXEMPLAR_FILE = Path(__file__).with_name("meaning_exemplars.tsv")
VECTOR_FILE = Path(__file__).with_name("meaning_exemplars.npz")


#: least cosine of two dated sentences' event phrases for one event (:func:`same_event`), chosen by
#: cross-validation over labelled dated sentences (``scripts/meaning_cv.py --events``)
EVENT_FLOOR = 0.67

#: chosen by leave-one-family-out cross-validation over the tuning families (``scripts/meaning_cv.py``;
#: docs/belief-maintenance.md): no destructive miss, within 0.01 of the best share, the fewest false readings
SETTINGS = Settings(k=1, floor=0.7, margin=0.0, key_floor=0.5, key_margin=0.1)


def enabled() -> bool:
    """Is the learned reading on (``LANGMEM_ES_LEARNED_MEANING`` not ``0``)?"""
    return os.environ.get("LANGMEM_ES_LEARNED_MEANING", "1") != "0"


# -- exemplars and their vectors ---------------------------------------------------------------
def _read_tsv(path: Path) -> list[tuple[str, str, str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            kind, lab, source, text = line.split("\t")
            rows.append((kind, lab, source, text))
    return rows


def _digest(rows: list[tuple[str, str, str, str]]) -> str:
    from ..embeddings.int8 import default_precision

    lines = [f"mask_names={MASK_NAMES}", f"embedder={default_precision()}", *(f"{k}\t{t}" for k, _, _, t in rows)]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _embed_text(kind: str, text: str) -> str:
    return mask(text) if kind == "s" else event_phrase(text) if kind == "d" else text


_lock = threading.Lock()
_cache: OrderedDict[str, np.ndarray] = OrderedDict()
_CACHE_SIZE = 4096
#: labels of the shipped exemplars, by (exemplars, text)
_labels: OrderedDict[tuple[int, str], str | None] = OrderedDict()
_missing = False


def _keep(cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    """Keep ``value`` under ``key``; the oldest go past :data:`_CACHE_SIZE` entries."""
    with _lock:
        cache[key] = value
        while len(cache) > _CACHE_SIZE:
            cache.popitem(last=False)


def embed(texts: list[str]) -> np.ndarray | None:
    """Unit vectors of ``texts`` from the offline model (cached), or ``None`` when it is missing."""
    from ..errors import EmbeddingError, MissingDependencyError

    global _missing
    todo = [t for t in dict.fromkeys(texts) if t not in _cache]
    if todo:
        if _missing:
            return None
        try:
            from ..embeddings import default_embeddings

            fresh = default_embeddings().embed_array(todo)
        except (MissingDependencyError, EmbeddingError, OSError):
            _missing = True  # not installed: the rules decide alone, and no later write tries again
            return None
        for t, v in zip(todo, fresh, strict=True):
            _keep(_cache, t, np.asarray(v, dtype=np.float32))
    with _lock:
        for t in texts:
            if t in _cache:
                _cache.move_to_end(t)
        got = [_cache.get(t) for t in texts]
    if any(g is None for g in got):
        return None
    return np.stack([g for g in got if g is not None])


@lru_cache(maxsize=1)
def exemplars() -> Exemplars | None:
    """The labelled exemplars with their vectors (shipped, or computed once), or ``None``."""
    rows = _read_tsv(EXEMPLAR_FILE)
    digest = _digest(rows)
    vectors: np.ndarray | None = None
    if VECTOR_FILE.is_file():
        with np.load(VECTOR_FILE, allow_pickle=False) as f:
            if str(f["digest"]) == digest and f["vectors"].shape[0] == len(rows):
                vectors = f["vectors"].astype(np.float32)
    if vectors is None:
        vectors = embed([_embed_text(k, t) for k, _, _, t in rows])
        if vectors is None:
            return None
    kinds, labels, sources, texts = (tuple(col) for col in zip(*rows, strict=True))
    ex = Exemplars(kinds, labels, sources, texts, vectors)
    # a sentence the guards rule out before the recogniser runs (a stay, a question) is never compared
    return ex.subset(np.array([k == "k" or not _guarded(t) for k, t in zip(kinds, texts, strict=True)]))


def _guarded(text: str) -> bool:
    from .meaning_homes import _STAY

    return bool(_HEDGE.search(text) or _STAY.search(text))


def write_vectors() -> Path:
    """Embed every exemplar and write :data:`VECTOR_FILE` (run after editing the exemplars)."""
    rows = _read_tsv(EXEMPLAR_FILE)
    vectors = embed([_embed_text(k, t) for k, _, _, t in rows])
    if vectors is None:
        raise RuntimeError("the offline embedding model is not installed")
    np.savez_compressed(VECTOR_FILE, vectors=vectors.astype(np.float16), digest=np.array(_digest(rows)))
    exemplars.cache_clear()
    return VECTOR_FILE


def label(text: str, *, ex: Exemplars | None = None, settings: Settings | None = None) -> str | None:
    """The attribute label a sentence sets by its nearest exemplars (``home``, ``diet:vegan`` …), or ``None``.

    >>> label("I've put down roots in Hull.") in ("home", None)
    True
    """
    shipped = ex is None and settings is None  # kept by text: a write asks again for each held fact
    ex = ex if ex is not None else (exemplars() if enabled() else None)
    if ex is None:
        return None
    if shipped and (id(ex), text) in _labels:
        return _labels[id(ex), text]
    s = settings or SETTINGS
    vec = embed([mask(text)])
    found = None if vec is None else decide(nearest(vec[0], ex, "s", s.k), s.floor, s.margin)
    if shipped and vec is not None:
        _keep(_labels, (id(ex), text), found)
    return found


def key_label(words: str, *, ex: Exemplars | None = None, settings: Settings | None = None) -> str | None:
    """The attribute a key part names by its nearest labelled key phrases (``telephone`` → ``phone``), or ``None``."""
    ex = ex if ex is not None else (exemplars() if enabled() else None)
    if ex is None or not words.strip():
        return None
    s = settings or SETTINGS
    vec = embed([words])
    return None if vec is None else decide(nearest(vec[0], ex, "k", s.k), s.key_floor, s.key_margin)


# -- a learned reading, for belief_meaning.compare -----------------------------------------------
_HEDGE = re.compile(rf"\?|\bif\b|{HEDGE.pattern}", re.I)
#: a name said first as the value ("X is where I live now", "X is my new boss"), not as a holder ("X is moving")
_VALUE_FIRST = re.compile(
    r"^X (?:is|'s|has become|became|has been|'s been) (?:now |still |currently )?(?:my |our |where |home\b)"
)
#: a purpose owned by the speaker ("for my counselling"): a home move only for a reason to move
_FOR_MY = re.compile(r"\bfor (?:my|our) (?:\w+ )?(\w+)")
#: a fronted topic, a gerund ("For note-taking, …", "For banking …")
_TOPIC = re.compile(r"^for [\w-]*ing\b")
#: a company named by what it supplies ("energy_company", "phone_provider"), as the reader frames it
_THINGS_COMPANY = re.compile(r"^(?!current_|new_|main_)[a-z]+_(?:company|firm|provider|supplier)$")
_FIRST_PERSON = frozenset("i i'm i've me my mine we we're we've our us user".split())
#: a label's own person words ("my wife is Anna" is the partner, not a relative's fact)
_OWN_PEOPLE = {"partner": frozenset("partner spouse wife husband girlfriend boyfriend fiance fiancee".split())}


def values_of(text: str, lab: str) -> frozenset[str]:
    """The value a sentence gives the learned label: implied by it (``diet:vegan``), an email,
    a number, the names it says, or the statement reader's values (a job: "teaching")."""
    from . import statements

    if ":" in lab:
        return frozenset({lab.split(":", 1)[1]})
    if lab == "birthday" and (dated := DATE.search(text)):
        return date_value(dated)
    found = {e.casefold().rstrip(".") for e in _EMAIL.findall(text)}
    found |= {d for d in (re.sub(r"\D", "", n) for n in _NUMBER.findall(text)) if len(d) >= 5}
    if found:
        return frozenset(found)
    names = _masked(text)[1]
    if names:
        return frozenset(names)
    return statements.parse(text).values if lab == "job" else frozenset()


@lru_cache(maxsize=8192)
def _normalised(text: str, owner: str) -> str:
    """The sentence the rules read (:func:`~.statements.casual.tidy`: "i moved to leeds" as "I
    moved to Leeds."), one space between words, straight apostrophes, and the owner's own name
    as "The user"."""
    from .statements.casual import tidy

    text = tidy(re.sub(r"\s+", " ", text.strip().replace("\u2019", "'")))
    me = owner.split(":", 1)[1].casefold() if owner.startswith("user:") else ""
    if me:
        text = re.sub(rf"^{re.escape(me)}('s)?\b", lambda m: "The user" + (m[1] or ""), text, flags=re.IGNORECASE)
    return text


def prepare(said: Sequence[tuple[str, str]]) -> None:
    """Embed the (content, owner) statements a write is about to read against each other in one
    batch (kept in the cache), instead of one embedding a reading: a new fact meets several held
    ones (their masked sentences, and for :func:`.meaning_roles.slot_readings` those without the change words).
    Nothing when the learned reading is off or its model missing."""
    if said and enabled() and not _missing:
        texts = [_normalised(text, owner) for text, owner in said]
        embed([mask(t) for t in texts] + [slot_text(t) for t in texts if _one_value(t)])


def reading(
    text: str,
    owner: str,
    wanted: frozenset[str],
    *,
    ex: Exemplars | None = None,
    settings: Settings | None = None,
    traits: bool = False,
) -> Meaning | None:
    """A :class:`~.meaning_words.Meaning` of a sentence the rules read no attribute of, when its
    nearest exemplars name one of ``wanted`` (the attributes the rules read on the other side) —
    never for another holder, a past state, a negation the exemplars do not share, a stay, a
    question or a hedge; else ``None``."""
    from . import statements
    from .statements import lexicon

    wanted = frozenset(w for w in wanted if w not in MULTI and not w.startswith("date:"))
    shipped = ex is None  # the shipped exemplars: their labels are kept by text (label)
    ex = ex if ex is not None else (exemplars() if wanted and enabled() else None)
    if ex is not None and "*" in wanted:
        wanted = ex.attributes - MULTI
    if ex is None or not wanted:
        return None
    text = _normalised(text, owner)
    low = text.casefold().rstrip(".!")
    if _guarded(text):
        return None
    lab = label(text, ex=None if shipped else ex, settings=settings)
    if lab is None or lab.split(":", 1)[0] not in wanted or (traits and ":" not in lab):
        return None  # (``traits``: only a label that implies its value, "drinking:none")
    attribute = lab.split(":", 1)[0]
    own = _OWN_PEOPLE.get(attribute, frozenset())
    words = set(re.findall(r"[a-z]+", low))
    st = statements.parse(text)
    first = bool(words & _FIRST_PERSON)
    if (words & lexicon.PEOPLE) - own or set(st.holder[1:]) - own or re.search(r"\b(?!user's)\w+'s\s", low):
        return None  # a relative's or someone's fact ("my sister's new place …", "Tom's …")
    said = ex.words.get(lab, frozenset())
    if st.thing and not all({t, t + "s", t + "es"} & said for t in re.split(r"[\s_]+", st.thing) if t):
        return None  # a thing its examples never name: that thing's fact ("my office moved to Leeds", "my work phone")
    if attribute == "employer" and _THINGS_COMPANY.search(st.frame):
        return None  # "my new energy company": the company of a thing (energy, phone, insurance), no employer
    value_first = st.holder[0] in _masked(text)[1] and _VALUE_FIRST.match(mask(text))  # "Leeds is where I live now"
    if (
        st.holder[0] not in ("user", "we", "*")
        and not first
        and not value_first
        and st.holder[0] not in mask(text).casefold()
    ):
        return None  # a name as the holder ("Tom lives in Leeds now"; "Home is Leeds now" is no one's name)
    if attribute in ("employer", "job") and words & lexicon.NOT_ROLES:
        return None  # "I'm a member at X", "a customer of X": no one's employer
    if attribute == "home" and any(w not in lexicon.MOVE_REASONS for w in _FOR_MY.findall(low)):
        return None  # "I moved to X for my weekly shop": a service changed, not a home
    if attribute in ("home", "employer", "job") and _TOPIC.match(low):
        return None  # "For note-taking I've moved over to X": the sentence is about that
    if st.ending:
        return None  # an ending ("Sam and I broke up") is no reading of the value it ends
    if PAST.search(low) or PREVIOUS.search(text) or (st.tense == "past" and not st.change and PAST_STATE.search(text)):
        return None  # a past state: never read by example
    negated = bool(NEG.search(low))
    if negated != _negated_exemplar(text, lab, ex):
        return None  # "I do eat meat" is not "I don't eat meat", however close they embed
    values = values_of(text, lab)
    if not values:
        return None
    changed = bool(CHANGED.search(low)) or st.change
    return Meaning("user", frozenset({attribute}), values, changed, False, False)


def _one_value(text: str) -> bool:
    """One name is the sentence's only value: no second name (which flight, which meeting), no
    number, time or date (when), no one-off event ("flew to X in March"), not one more ("also")."""
    from . import statements
    from .statements import changes

    masked = mask(text)
    if len(re.findall(r"\b[XNE]\b", masked)) != 1 or re.search(r"\d", text) or DATE.search(text):
        return False
    if set(re.findall(r"[a-z]+", masked.casefold())) & _CALENDAR:
        return False
    st = statements.parse(text)
    return not st.event and not changes.adds(st)  # "I'm also learning X": one more, not another value


def slot_text(text: str) -> str:
    """The masked sentence without the words that mark a change ("My new dentist is X now" →
    "My dentist is X"): what two sayings of one attribute share.

    >>> slot_text("These days I'm insured with Admiral now.")
    "I'm insured with X."
    """
    out = re.sub(r"\s+", " ", CHANGED.sub(" ", mask(text))).strip()
    out = re.sub(r"\s+([.,!?])", r"\1", out)
    return out[:1].upper() + out[1:]


def same_event(a: str, b: str, *, floor: float | None = None) -> bool:
    """Do two sentences that give one date name one event in other words ("We go live on 12 March" /
    "The launch is on 12 March")? Their event phrases — the date masked, values masked, person
    folded — embed at least ``floor`` close (:data:`EVENT_FLOOR`, by cross-validation over
    labelled dated sentences: ``scripts/meaning_cv.py --events``). A question, a hedge or a
    stay is never read so.
    """
    if not enabled() or _guarded(a) or _guarded(b):
        return False
    pa, pb = event_phrase(a), event_phrase(b)
    if not pa or not pb:
        return False
    vec = embed([pa, pb])
    return vec is not None and float(vec[0] @ vec[1]) >= (EVENT_FLOOR if floor is None else floor)


def event_phrase(text: str) -> str:
    """The words of a dated sentence that say which event it is: the date, the people and the
    words of any date ("is on", "happens", "scheduled") left out.

    >>> event_phrase("We're going live on 12 March."), event_phrase("Launch day: 12 March")
    ('live', 'launch')
    """
    low = DATE.sub(" ", text).casefold().replace("\u2019", "'")
    low = re.sub(r"'(?:re|s|m|ve|d|ll)\b", " ", low)
    return " ".join(w for w in re.findall(r"[a-z][a-z-]*", low) if w not in EVENT_FILLER and w not in _EVENT_PEOPLE)


#: people and small words an event phrase leaves out as well
_EVENT_PEOPLE = frozenset(
    "i me my we us our you your they them their have has had get gets got by from for to until with".split()
)


def _negated_exemplar(text: str, lab: str, ex: Exemplars) -> bool:
    """Is the nearest exemplar of ``lab`` a negated sentence?"""
    vec = embed([mask(text)])
    rows = ex.rows_of("s", lab)
    if vec is None or not len(rows):
        return False
    best = int(rows[int(np.argmax(ex.vectors[rows] @ vec[0]))])
    return bool(NEG.search(ex.texts[best].casefold()))


def _main() -> Any:
    print(write_vectors())


if __name__ == "__main__":
    _main()
