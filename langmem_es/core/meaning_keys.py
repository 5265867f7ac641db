"""Keys in other spellings (issue 45): which caller's subject keys name one subject — shared
words, one synonym group of their heads (``user.phone`` / ``user.mobile_number``), or a head read
by example (:func:`.meaning_learned.key_label`: ``user.telephone``) — and never across people,
times or identifiers (``user.sister.phone``, ``user.previous_employer``, ``device.0``). Pure; read
by :mod:`.belief_rules` (which re-exports :func:`keys_close`, :func:`one_head`,
:func:`same_key_ids`, :func:`key_words`). Imports neither :mod:`.belief_rules` nor
:mod:`.belief_meaning`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import statements
from .statements import lexicon

__all__ = ["CATEGORY_KEYS", "category_key", "key_label", "key_words", "keys_close", "one_head", "same_key_ids"]

_KEY_STOP = frozenset({"user", "users", "the", "a", "of", "my", "current", "info", "data", "fact"})


def key_words(key: str) -> set[str]:
    """``user.home_city`` → ``{"home", "city"}`` (spelling-folded, no filler words)."""
    words = {statements.american(w) for w in re.split(r"[._\-:/\s]+", key.casefold()) if len(w) > 1}
    return words - _KEY_STOP


def _key_ids(key: str) -> set[str]:
    """The segments of a key that carry digits (identifiers: ``device.7f.0`` → ``{"7f", "0"}``)."""
    return {w for w in re.split(r"[._\-:/\s]+", key.casefold()) if any(c.isdigit() for c in w)}


def keys_close(a: str, b: str, cosine: float, threshold: float) -> bool:
    """Two keys for one subject: most words shared, or some shared and close in meaning.

    Keys that differ in an identifier (a segment with digits: ``device.0`` and
    ``device.1``) name different subjects, however alike their words.

    >>> keys_close("device.7f.0", "device.7f.1", 0.99, 0.8), keys_close("user.home_city", "user.city", 0.5, 0.8)
    (False, True)
    """
    if _key_ids(a) != _key_ids(b) or _times_of(a) != _times_of(b) or _people(a) != _people(b):
        return False  # another subject, another time, another holder (user.sister.phone is not user.phone)
    if key_label(a) is not None and key_label(a) == key_label(b):
        return True  # one thing in other words: user.phone / user.mobile_number, user.boss / work.direct_supervisor
    wa, wb = key_words(a), key_words(b)
    if not wa or not wb:
        return False
    shared = len(wa & wb) / len(wa | wb)
    return shared >= 0.5 or (shared > 0 and cosine >= threshold) or cosine >= max(threshold, 0.9)


#: Key words that put a key's fact in another time than the present: ``user.previous_employer``
#: is never ``user.employer`` (a key the caller gave is never remapped to one of another meaning).
_KEY_TIMES = frozenset("previous former past old prior ex earlier first original childhood next future".split())


def _times_of(key: str) -> set[str]:
    """The words of ``key`` that place its fact in time (see :data:`_KEY_TIMES`).

    >>> sorted(_times_of("user.previous_employer")), sorted(_times_of("user.employer"))
    (['previous'], [])
    """
    return {w for w in re.split(r"[._\-:/\s]+", key.casefold()) if w in _KEY_TIMES}


#: Everyday names of one attribute, as the last part of a key says them (the head of the key).
_KEY_SYNONYMS: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "phone mobile cell cellphone telephone phone_number mobile_number cell_number mobile_phone cell_phone",
        "boss manager supervisor line_manager direct_supervisor direct_manager team_lead reporting_manager",
        "job job_title title role position occupation profession work_role",
        "employer company workplace firm current_employer",
        "email e_mail email_address mail_address",
        "partner spouse wife husband girlfriend boyfriend",
        "home_city city home_town_current location residence current_city",
        "address home_address street_address postal_address",
        "birthday date_of_birth dob birth_date",
    )
)


def _head_group(key: str) -> int | None:
    """Which synonym group the head of ``key`` names (its last part, else that part's last word).

    >>> _head_group("user.mobile_number") == _head_group("user.phone"), _head_group("user.pets")
    (True, None)
    """
    last = key.casefold().replace("-", "_").split(".")[-1]
    words = last.split("_")
    while len(words) > 1 and words[-1] in _KEY_TAILS:  # user.mobile_phone_number, user.partner_full_name
        words = words[:-1]
    for word in (last, "_".join(words)):
        for i, group in enumerate(_KEY_SYNONYMS):
            if word in group:
                return i
    for i, group in enumerate(_KEY_SYNONYMS):  # the head word, qualified only by its own group's words
        if words[-1] in group and all(w in _KEY_QUALIFIERS or w in group for w in words[:-1]):
            return i
    return None


#: words that qualify a key's head without naming another thing (``current_employer``); "energy" in
#: ``energy_company`` names one (the energy supplier, not the employer)
_KEY_QUALIFIERS = frozenset("current new main primary present actual latest own personal my".split())


#: Last words of a key part that say how a value is written, not what it is (``..._number``,
#: ``..._full_name``): the head is what comes before them (``account_number`` names no head).
_KEY_TAILS = frozenset("name number no num full value details detail info string text primary main".split())


#: the attribute each synonym group names (the learned key labels use the same names)
_GROUP_NAMES = ("phone", "manager", "job", "employer", "email", "partner", "home", "address", "birthday")


def key_label(key: str) -> str | None:
    """The attribute a key's head names: its synonym group, else by the nearest labelled key
    phrases (:func:`.meaning_learned.key_label`: ``user.telephone`` → ``phone``), else ``None``."""
    group = _head_group(key)
    return _GROUP_NAMES[group] if group is not None else _learned_key(key.casefold().replace("-", "_").split(".")[-1])


@lru_cache(maxsize=4096)
def _learned_key(head: str) -> str | None:
    from .meaning_learned import key_label

    return key_label(head.replace("_", " ")) if len(head) > 1 and not head.isdigit() else None


def _people(key: str) -> set[str]:
    """The people a key's parts before its head name (``user.sister.phone`` → ``{"sister"}``):
    a synonym never carries a fact across holders."""
    parts = key.casefold().replace("-", "_").split(".")[:-1]
    return {w for p in parts for w in p.split("_") if w in lexicon.PEOPLE}


def one_head(a: str, b: str) -> bool:
    """Do two keys name one attribute of one holder by their heads alone (one synonym group, the
    same people, times and identifiers: ``user.boss`` / ``work.supervisor``)?

    >>> one_head("user.boss", "work.supervisor"), one_head("user.phone", "user.sister.phone")
    (True, False)
    """
    if _people(a) != _people(b) or _times_of(a) != _times_of(b) or _key_ids(a) != _key_ids(b):
        return False  # checked first: a head read by example costs an embedding
    label = key_label(a)
    return label is not None and label == key_label(b)


def same_key_ids(a: str | None, b: str | None) -> bool:
    """Do two keys carry the same identifiers (segments with digits: ``device.0`` is not ``device.1``)?"""
    return _key_ids(a or "") == _key_ids(b or "")


#: Last words of a subject key that name a kind of facts, not one fact ("user.health",
#: "user.pets"): several facts of the kind hold under it at once.
CATEGORY_KEYS = frozenset(
    "health medical pets pet animals family relatives preferences preference prefs likes dislikes hobbies "
    "interests food work job career schedule contact contacts info notes profile personal facts details misc "
    "general background habits routine travel devices tech".split()
)


def category_key(key: str | None) -> bool:
    """Does ``key`` name a kind of facts rather than one fact (``user.health``, ``team.misc``)?"""
    return key is not None and key.replace("-", "_").split(".")[-1].split("_")[-1].lower() in CATEGORY_KEYS
