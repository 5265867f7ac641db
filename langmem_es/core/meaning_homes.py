"""A home or an employer said without a home or work word (issue 45, class 4): "I'm in Leeds
now", "Settled in Leeds at last", "I'm a Leeds resident now", "I've taken a job at Globex" — and
never a stay ("I'm in Paris this week", "… for work", "… on holiday"). The readers of
:func:`langmem_es.core.belief_meaning.meaning` for these phrasings; pure.
"""

from __future__ import annotations

import re

__all__ = ["Found", "in_place", "named_elsewhere"]

Found = tuple[str, frozenset[str], frozenset[str], bool | None]
"""(holder, attributes, values, negated or ``None``) of a phrase read."""

# -- a home said without a home word: "I'm in Leeds now", "Settled in Leeds at last" -------------
_PLACE = r"(?P<v>[A-Z][\w-]+(?: [A-Z][\w-]+)?)"
_IN_PLACE = re.compile(
    r"^(?:(?i:nowadays|these days|now|currently),?\s+)?(?i:i'm|i am|we're|we are|the user is|the user's)\s+"
    r"(?:(?i:now|currently|still|finally|happily)\s+)?(?:(?i:living|based|settled|staying for good)\s+)?(?i:in)\s+"
    + _PLACE
)
_SETTLED = re.compile(
    r"\b(?i:settled|settling|made (?:my|our|a) (?:home|life))\s+(?i:down\s+)?(?i:in)\s+"
    + _PLACE
    + r"|^(?i:(?:i|we)(?:'ve| have)?|the user(?: has)?)\s+(?i:settled)\s+(?i:in)\s+"
    + _PLACE.replace("?P<v>", "?P<w>")
)
#: what says a stay, not a home ("I'm in Paris this week", "… for work", "… on holiday")
_STAY = re.compile(
    r"\b(?:this|next|for the) (?:week|weekend|month|morning|afternoon|evening)|\btoday\b|\btonight\b|\bon (?:holiday|vacation|business|a trip)\b|"
    r"\bfor (?:work|a conference|a meeting|a few days|a couple of days|the day|now)\b|\bvisiting\b|\btrip\b|\buntil\b|\bbriefly\b|\bright now\b",
    re.IGNORECASE,
)
#: a lasting state: said so ("now", "these days", "for good") or a settling
_LASTING = re.compile(r"\b(?:now|nowadays|these days|currently|for good|permanently|settled|finally)\b", re.IGNORECASE)


_RESIDENT = re.compile(
    r"^(?i:i'm|i am|we're|we are|the user is)\s+(?:(?i:now)\s+)?(?i:an?)\s+(?:"
    + _PLACE
    + r"\s+(?i:resident|local)\b|(?i:resident|local) (?i:of)\s+"
    + _PLACE.replace("?P<v>", "?P<w>")
    + ")"
)
_NEW_HOME = re.compile(
    r"\b(?i:bought|rent|rented|renting|found|got|moved into)\s+(?i:a|an|our|my)\s+(?:(?i:new)\s+)?"
    r"(?i:place|house|flat|home|apartment)\s+(?i:in)\s+" + _PLACE
)
_LIVE_THERE = re.compile(r"\blive there\b|\bliving there\b|\bmoved in\b", re.IGNORECASE)
#: a job taken at a named employer ("I've taken a job at Globex", "I landed a new job with Hooli")
_JOB_AT = re.compile(
    r"^(?i:i|i've|i have|the user|the user has)\s+(?:(?i:just|now|recently)\s+)?(?i:taken|took|got|landed|accepted|started|"
    r"start|begun|began)\s+(?i:a|an|the)\s+(?:(?i:new)\s+)?(?i:job|position|role|post)\s+(?i:at|with)\s+"
    r"(?P<v>[A-Z][\w&-]*(?: [A-Z][\w&-]*)?)"
)
#: at a named employer, said as lasting ("I'm at Globex these days"; "now" alone may be a visit)
_AT_ORG = re.compile(
    r"^(?i:i'm|i am|the user is)\s+(?:(?i:now)\s+)?(?i:at)\s+(?P<v>[A-Z][\w&-]*(?: [A-Z][\w&-]*)?)"
    r"\s*,?\s+(?i:these days|nowadays|full-time|full time|permanently)\b"
)


def named_elsewhere(text: str, low: str) -> Found | None:
    """A home or an employer named in a phrase that needs no home or work word ("I'm a Leeds
    resident now", "I'm a resident of Leeds", "I bought a place in Leeds and live there now", "I've taken a job at Globex",
    "I'm at Globex these days")."""
    if _STAY.search(low):
        return None
    m = _RESIDENT.search(text)
    if m is None:
        m = _NEW_HOME.search(text) if _LIVE_THERE.search(low) else None
    place = m and (m["v"] or m.groupdict().get("w"))
    if place and place.casefold() not in _NOT_PLACES:
        return "user", frozenset({"home"}), frozenset({place.casefold()}), None
    m = _JOB_AT.search(text) or _AT_ORG.search(text)
    if m is not None:
        return "user", frozenset({"employer"}), frozenset({m["v"].casefold()}), None
    return None


def in_place(text: str, low: str) -> Found | None:
    """A home said as where the user lastingly is ("I'm in Leeds now", "Settled in Leeds at last")."""
    if _STAY.search(low) or not _LASTING.search(low):
        return None
    m = _IN_PLACE.search(text) or _SETTLED.search(text)
    if not m:
        return None
    place = m["v"] if "v" in m.groupdict() and m["v"] else m.groupdict().get("w")
    if not place or place.casefold() in _NOT_PLACES:
        return None
    return "user", frozenset({"home"}), frozenset({place.casefold()}), None


#: capitalised words after "in" that are not places ("I'm in Sales now", "I'm in March …")
_NOT_PLACES = frozenset(
    "sales marketing finance engineering support charge love trouble luck january february march april may june july "
    "august september october november december i the a".split()
)
