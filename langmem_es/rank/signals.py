"""Query-time signals added to the reranked order (pure): time and names the question shares.

After fusion and reranking, the best candidates are already in the window; what is often
wrong is their order among near-equals. Cheap, general signals reorder them, each a
feature in ``[0, 1]`` added at a small weight to the reranked score (no round trip, a few
regular expressions over the window's texts):

* ``when`` — the question asks *when* ("When did…", "How long ago…", "What year…"):
  candidates that state a time ("yesterday", "last week", "two years ago", a date, a
  month) answer that kind of question; the others only share its topic.
* ``window`` — the question names a time ("in July 2023", "two weeks ago", "last
  spring"; :mod:`langmem_es.rank.temporal`): events told inside the window, or soon after,
  rank higher.
* ``names`` — the question names people, places or things (capitalised words): the
  share of those names, weighted by rarity among the candidates, that the candidate's
  own content holds.
* ``neighbours`` — session-neighbour support: a conversation spreads one topic over
  neighbouring turns, so a candidate whose session neighbour (an event its indexed
  context holds, :mod:`langmem_es.core.context`) scored high is lifted by that score.
* ``now`` — the question asks for the present ("now", "these days", "currently",
  "still"): among the window's candidates, later events rank higher (an update is told
  after what it replaces).
* ``others`` — the question asks about the asker ("where do I live?", naming no one else):
  a candidate whose sentence is about another person of the asker's ("My brother lives in
  Glasgow", not "My brother and I …") ranks lower.

Each is 0 for a question that gives it nothing to go on, so such questions keep their order.

>>> docs = {"a": {"text": "I love hiking."}, "b": {"text": "I went hiking yesterday!"}}
>>> [i for i, _ in adjust("When did Ann go hiking?", [("a", 1.0), ("b", 0.99)], docs, SignalWeights(when=0.1))]
['b', 'a']
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from ..documents import LazyJSON
from .temporal import time_match, time_windows

__all__ = [
    "SignalWeights",
    "adjust",
    "as_time",
    "asks_now",
    "about_another",
    "asks_about_asker",
    "asks_when",
    "question_names",
    "reads_text",
    "states_time",
]

#: a question asking for a time; "When should I…", "When can we…" ask for advice instead
_WHEN = re.compile(
    r"^\W*(?:when\b(?!\s+(?:should|shall|can|could|would|might|may|must|ought)\b)|"
    r"what (?:year|month|date|day|time|week)\b|which (?:year|month|day|week)\b|how long ago\b|since when\b)",
    re.IGNORECASE,
)
_MONTH_NAMES = "January|February|March|April|June|July|August|September|October|November|December"
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_UNITS = r"(?:days?|nights?|weeks?|weekends?|months?|years?)"
_TIME = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|recently|lately|ago|"
    r"(?:last|this|next|past|previous) (?:week|weekend|month|year|night|spring|summer|fall|autumn|winter|"
    + _WEEKDAYS
    + r")|"
    r"(?:19|20)\d\d|" + _MONTH_NAMES + r"|"
    r"(?:\d+|a|an|one|two|three|four|five|six|few|couple of) " + _UNITS + r" (?:ago|back|before|earlier|later)|"
    r"(?:on|every|next|last|this|by) (?:" + _WEEKDAYS + r")s?|"
    r"\d{1,2}:\d\d|\d{1,2} ?(?:am|pm)|\d{1,2}(?:st|nd|rd|th)? (?:of )?may|may \d{1,2}(?:st|nd|rd|th)?|"
    r"the other day|this morning|last night)\b",
    re.IGNORECASE,
)
TIME_PATTERN = _TIME
"""What states a time in a text (:func:`states_time`); the learned ranker reads it once per text."""
_NAME = re.compile(r"[A-Z][\w'’-]*")
_FUNCTION_WORDS = frozenset(
    "what when where who whom whose which why how did does do is are was were has have had would could should "
    "can will i a an the in on at of for to and or my your his her their our its".split()
    + _MONTH_NAMES.lower().split("|")
    + ["may", *_WEEKDAYS.split("|")]
)


@dataclass(frozen=True)
class SignalWeights:
    """Weights of the query-time signals: each feature (0..1) times its weight, as a share of
    the window's best reranked score, is added to a candidate's score."""

    when: float = 0.0
    """A "when" question: the candidate states a time."""
    window: float = 0.0
    """The question names a time: the candidate's event time falls in it (or soon after)."""
    names: float = 0.0
    """The question's names (rarity-weighted) in the candidate's own content."""
    neighbours: float = 0.0
    """Share of the best session neighbour's reranked score added to a candidate."""
    window_slack_days: float = 10.0
    """How long after a named window an event still counts (what happened is told later)."""
    now: float = 0.0
    """A question about the present: times the candidate's place in the window's event times (newest 1)."""
    others: float = 0.0
    """A question about the asker: subtracted from a candidate about another person of theirs."""

    def __bool__(self) -> bool:
        return bool(self.when or self.window or self.names or self.neighbours or self.now or self.others)


def reads_text(query: str, weights: SignalWeights) -> bool:
    """Will :func:`adjust` read the candidates' texts for ``query``? (Recall then has its legs
    bring them back; the time window and the present read ``event_time`` only.)"""
    return bool(weights.neighbours or (weights.when and asks_when(query)) or (weights.names and question_names(query)))


_NOW = re.compile(
    r"\b(?:now|currently|current|these days|nowadays|at the moment|still|any ?more|lately|latest|most recent)\b",
    re.IGNORECASE,
)


def asks_now(query: str) -> bool:
    """Does the question ask about the present ("What do I drive these days?")?

    >>> asks_now("What do I drive these days?"), asks_now("What did I drive in 2019?")
    (True, False)
    """
    return _NOW.search(query) is not None


#: the people of one's life a sentence may be about instead of its speaker
PEOPLE = frozenset(
    "aunt baby boss boy boys boyfriend brother brothers child children colleague colleagues cousin cousins coworker "
    "dad daughter daughters family father fiance fiancee fiancé fiancée flatmate friend friends girlfriend "
    "granddad grandad granddaughter grandfather grandma grandmother grandpa grandparents grandson granny "
    "girl girls housemate hubby husband kid kids lad lads lass manager mate mates mom mother mum nan neighbor neighbors neighbour "
    "neighbours nephew niece parent parents partner relative relatives roommate sibling siblings sister "
    "sisters son sons spouse stepdad stepdaughter stepmom stepmum stepson teammate teen teenager toddler twin uncle wife".split()
)
_ASKER = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|the user)\b", re.IGNORECASE)
_ASKS_WHO = re.compile(r"^\W*(?:who|whom|whose)\b", re.IGNORECASE)
#: a sentence whose subject is one of the speaker's people ("My older brother lives …", "The
#: user's wife works …"), not a thing of theirs ("My sister's car …") nor them and the speaker
_ABOUT_OTHER = re.compile(
    r"^\W*(?:my|our|the user's)\s+(?:(?:older|younger|big|little|baby|eldest|oldest|youngest|twin|best|new|ex|late)"
    r"[\s-]+)?(?P<who>[^\W\d_]+)\b(?!['’]s\b)(?![\s,]+(?:and|&)\s)(?P<rest>[^.!?\n]*)",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|[Mm]e|[Ww]e|[Ww]e're|[Ww]e've|[Uu]s|[Mm]yself)\b")


def asks_about_asker(query: str) -> bool:
    """Does the question ask about the asker, naming no one else ("where do I live?"; not "where
    does my sister live?", "who do I live with?" or "what did Priya recommend?")?

    >>> asks_about_asker("where do I live?"), asks_about_asker("where does my sister live?")
    (True, False)
    """
    if not _ASKER.search(query) or _ASKS_WHO.search(query) or question_names(query):
        return False
    return not PEOPLE.intersection(re.findall(r"[^\W\d_]+", query.casefold()))


@lru_cache(maxsize=16_384)
def about_another(text: str) -> bool:
    """Is the sentence about another person of the speaker's, and not the speaker too?

    >>> about_another("My brother lives in Glasgow."), about_another("My brother and I went to Rome.")
    (True, False)
    >>> about_another("My sister's car failed its MOT."), about_another("My dog is called Rex.")
    (False, False)
    """
    m = _ABOUT_OTHER.match(text)
    return m is not None and m["who"].casefold() in PEOPLE and not _FIRST_PERSON.search(m["rest"])


def asks_when(query: str) -> bool:
    """Does the question ask for a time ("When…", "What year…", "How long ago…")? Not when it
    asks for advice ("When should I…").

    >>> asks_when("When did I move to Lisbon?"), asks_when("When should I schedule my training?")
    (True, False)
    """
    return _WHEN.search(query) is not None


@lru_cache(maxsize=16_384)
def states_time(text: str) -> bool:
    """Does ``text`` say when something happened ("yesterday", "last May", "in 2022")? (Kept per
    text: a "when" question reads it for each of 80 candidates, ~0.1 ms a 2,000-character text.)"""
    return _TIME.search(text) is not None


def question_names(query: str) -> list[str]:
    """Capitalised words of the question other than its first word and function words,
    lowercased, without a possessive ``'s``."""
    words = _NAME.finditer(query)
    out: dict[str, None] = {}
    for m in words:
        if m.start() == 0 or query[: m.start()].rstrip().endswith((".", "?", "!")):
            continue
        w = re.sub(r"['’]s$", "", m.group(0)).lower()
        if w and w not in _FUNCTION_WORDS:
            out.setdefault(w, None)
    return list(out)


def _contains(word: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def _own(doc: Mapping[str, Any], chars: int) -> str:
    """The candidate's own content (``value.content`` when the leg brought it, as SQLite's do),
    else the first line of its indexed text: what follows is its neighbours' context."""
    value = doc.get("value")
    if isinstance(value, LazyJSON):  # read without decoding the rest of the value
        content = value.peek("content")
    else:
        value = value or {}
        content = value.get("content") if isinstance(value, Mapping) else None
    if isinstance(content, str):
        return content[:chars]
    return str(doc.get("text", ""))[:chars].split("\n", 1)[0]


def adjust(
    query: str,
    ranked: Sequence[tuple[str, float]],
    docs: Mapping[str, Mapping[str, Any]],
    weights: SignalWeights,
    *,
    reference: datetime | None = None,
    window: int = 80,
    chars: int = 2_000,
) -> list[tuple[str, float]]:
    """``ranked`` with the first ``window`` candidates rescored by the query-time signals and
    re-sorted; the rest keep their places after them. ``docs`` maps ids to stored documents
    (``value.content`` when present, else ``text``; ``event_time``); ``chars`` of each are read."""
    head = list(ranked[:window])
    if not weights or not head:
        return list(ranked)
    n = len(head)
    extra = [0.0] * n
    if weights.neighbours:
        score = dict(head)
        for j, (i, _) in enumerate(head):
            near = [score[o] for o in session_neighbours(i, [o for o, _ in head], docs)]
            extra[j] += weights.neighbours * max(near, default=0.0)
    if weights.when and asks_when(query):
        for j, (i, _) in enumerate(head):
            extra[j] += weights.when * float(states_time(_own(docs[i], chars)))
    if weights.window:
        hint = time_windows(query, reference)
        if hint:
            for j, (i, _) in enumerate(head):
                when = as_time(docs[i].get("event_time"))
                extra[j] += weights.window * time_match(hint, when, slack_days=weights.window_slack_days)
    if weights.now and asks_now(query):
        times = sorted({str(docs[i].get("event_time") or docs[i].get("written_at") or "") for i, _ in head})
        place = {t: k / max(len(times) - 1, 1) for k, t in enumerate(times)}
        for j, (i, _) in enumerate(head):
            extra[j] += weights.now * place[str(docs[i].get("event_time") or docs[i].get("written_at") or "")]
    if weights.others and asks_about_asker(query):
        for j, (i, _) in enumerate(head):
            extra[j] -= weights.others * float(about_another(_own(docs[i], 300)))
    names = question_names(query) if weights.names else []
    if names:
        texts = [_own(docs[i], chars).lower() for i, _ in head]
        held = [[_contains(w, t) for t in texts] for w in names]
        idf = [math.log((n + 1) / (sum(h) + 1)) for h in held]
        total = sum(idf)
        if total > 0:
            for j in range(n):
                extra[j] += weights.names * sum(f for f, h in zip(idf, held, strict=True) if h[j]) / total
    if not any(extra):
        return list(ranked)
    scale = max(s for _, s in head)  # weights are shares of the best score: any reranker's scale
    scale = scale if scale > 0 else 1.0
    rescored = sorted(((i, s + scale * e) for (i, s), e in zip(head, extra, strict=True)), key=lambda p: -p[1])
    return rescored + list(ranked[window:])


#: Characters at the end of an event's indexed text searched for its neighbours: the
#: context (up to two turns each side, each cut to 2,000 characters, and the date).
CONTEXT_TAIL = 9_000


def _lead(doc: Mapping[str, Any]) -> str:
    """The start of an event's content as its indexed text begins (first line, 80 characters)."""
    return str(doc.get("text", "")).split("\n", 1)[0][:80]


def session_neighbours(i: str, ids: Sequence[str], docs: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Those of ``ids`` in ``i``'s session whose content begins inside ``i``'s indexed
    context (the tail of its text): its neighbouring turns, as ingest linked them."""
    doc = docs[i]
    session = doc.get("session_id")
    if not session:
        return []
    tail = str(doc.get("text", ""))
    lead_i = _lead(doc)
    tail = tail[len(lead_i) :][-CONTEXT_TAIL:]
    out = []
    for o in ids:
        if o == i or docs[o].get("session_id") != session:
            continue
        lead = _lead(docs[o])
        if len(lead) >= 8 and lead in tail:
            out.append(o)
    return out


def as_time(value: Any) -> datetime | None:
    """An event time as stored (a datetime, or ISO text), else ``None``."""
    if isinstance(value, datetime):
        return value
    if not value:
        return None
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
