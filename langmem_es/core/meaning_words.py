"""The words and the record every reader of a statement's meaning shares (issue 45): what marks
a change, a past state or a previous value, a negation, a date; the attributes with several
values; and :class:`Meaning`, what a sentence is read as. The lowest floor of the belief rules:
:mod:`.belief_meaning`, :mod:`.belief_rules` and :mod:`.meaning_learned` read from it, it reads
from none of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "ACQUIRED",
    "ANECDOTE",
    "CHANGED",
    "DATE",
    "FOR_A_WHILE",
    "FROM_THEN",
    "EVENT_FILLER",
    "HEDGE",
    "MONTH",
    "MULTI",
    "NEG",
    "PAST",
    "PAST_STATE",
    "PREVIOUS",
    "SINCE_NOW",
    "STAND_IN",
    "Meaning",
    "date_value",
]

#: attributes with several values at once (allergies): another value is another fact, never a change
MULTI = frozenset({"sensitivity"})

#: what a sentence says to mark a change ("new", "now", "these days", "just moved", "have since" …)
CHANGED = re.compile(
    r"\b(?:new|now|nowadays|these days|current|currently|at the moment|just|since|recently|lately|as of|from now on|"
    r"any ?more|no longer|gone|become|became|turned|switched|changed|moved|relocated|settled|started|joined|"
    r"took over|instead|(?:taken|took|landed|accepted|got) (?:a|an) (?:new )?(?:job|position|role|post)|"
    r"hired|transferred|retrained|requalified|qualified as|promoted|took (?:me|us) on|put down roots|"
    r"set up (?:home|house)|ended up|swapped|ditched|"
    r"handed (?:me )?over|(?:gone|went) over to|signed up with)\b",
    re.IGNORECASE,
)
#: words that put the sentence itself in the past ("before", "used to", "as a kid")
PAST = re.compile(
    r"\b(?:before|previously|formerly|former|used to|old|previous|ago|years back|back then|growing up|"
    r"in my (?:twenties|teens|thirties|youth)|as a (?:kid|child|student|teenager)|when (?:i|we|the user) (?:was|were))\b",
    re.IGNORECASE,
)
#: what says a statement is not (yet) so: a question, a hedge, a plan ("Do I live in Leeds now?", "I might move to Leeds")
HEDGE = re.compile(
    r"\?\s*$|\b(?:might|maybe|perhaps|possibly|probably|thinking (?:about|of)|planning|plan to|hoping|hope to|considering|"
    r"(?:would like|wants?) to(?! be\b)|going to move|if (?:i|we) (?:move|get|take)|"
    r"if\b[^.;]*\b(?:will|'ll|would|'d)|(?:i|we)(?:'ll| will| shall|'d| would) (?:move|relocate|switch|join)|"
    r"said (?:that )?(?:i|we) should|(?:i|we) should (?:move|switch|join|leave|look|consider)|ought to|"
    r"so (?:i|we) can|one day|someday|turned down|declined|said no to|"
    r"(?:people|they|everyone|everybody|he|she|(?-i:[A-Z][a-z]+)) (?:assume|assumes|assumed|think|thinks|thought) (?:that )?(?:i|we)\b)\b",
    re.IGNORECASE,
)
#: a negation
NEG = re.compile(r"\b(?:not|never|no|don't|doesn't|didn't|won't|can't|cannot)\b|n't\b", re.IGNORECASE)

#: one date: a day and a month, maybe a year
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
DATE = re.compile(
    rf"\b(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?(?: of)? (?P<m1>{MONTH})|(?P<m2>{MONTH}) (?P<d2>\d{{1,2}})(?:st|nd|rd|th)?)"
    rf"(?:,? (?P<y>\d{{4}}))?\b",
    re.IGNORECASE,
)

#: words of a dated sentence that do not say which event it is ("the launch *is on* 12 March")
EVENT_FILLER = frozenset(
    "be is are was the a an on at in for of we our us i my it its this that date day due happen happens happening take "
    "takes taking place fall falls come comes coming up set scheduled planned go goes going out will 's".split()
)


def date_value(m: re.Match[str]) -> frozenset[str]:
    """A :data:`DATE` match as its day, month (three letters) and year, whatever the order said."""
    day = m["d1"] or m["d2"]
    month = (m["m1"] or m["m2"]).casefold()[:3]
    return frozenset({str(int(day)), month, *([m["y"]] if m["y"] else [])})


#: Words that put a statement's value in the past ("before", "previously", "my former employer").
PREVIOUS = re.compile(
    r"\b(?:before|previously|formerly|former|used to|back then|back in (?:the day|(?:19|20)\d\d)|prior|earlier|ex-|at the time|"
    r"once (?:lived|worked|had|owned|was|were)|as a (?:kid|child|student|teenager)|growing up|in the past|"
    r"(?:my|our|his|her|their|the user's) old|when (?:i|we) (?:was|were))\b",
    re.IGNORECASE,
)


#: a time that says a state is for a while or an event once, of any attribute ("I'm driving the
#: firm's van this week", "I got a phishing email from X this morning")
FOR_A_WHILE = re.compile(
    r"\b(?:this|next|for the) (?:week|weekend|month)\b|\bfor now\b|\buntil\b|\btemporarily\b|\bwhile\b|"
    r"\bfor (?:a|one|two|three|a few|a couple of) (?:days?|nights?|weeks?|weekends?|bit)\b|\bback (?:on|next|by)\b|"
    r"\b(?:this|yesterday) (?:morning|afternoon|evening)\b|\btoday\b|\btonight\b",
    re.IGNORECASE,
)
#: a time said as a beginning, not a stay ("As of this month I live in Leeds")
FROM_THEN = re.compile(r"\b(?:as of|starting|from (?:this|next|last))\b", re.IGNORECASE)


#: A stand-in while the held thing or person is out of use: no change of it ("The Fiesta is in the
#: garage, so I'm driving a hire car", "Gmail went down, so I emailed from Outlook", "Dr Kim is covering")
STAND_IN = re.compile(
    r"\b(?:in the garage|in for (?:repairs?|a service|service)|broke down|broken down|is broken|went down|is down|"
    r"crashed|not working|out of action|covering|standing in|filling in|stand-in|hire car|courtesy car|loan car|"
    r"rental car)\b(?![^.;]*\b(?:for good|beyond repair|written off|scrapped|died|dead)\b)",
    re.IGNORECASE,
)


#: A time that puts a whole story in the holder's past ("We moved from York to Leeds when I was a
#: kid", "Growing up, we moved to Leeds"): a change told of then is no change now.
ANECDOTE = re.compile(
    r"\b(?:when (?:i|we|the user) (?:was|were)\b|as a (?:kid|child|student|teenager|teen|boy|girl)\b|"
    r"growing up\b|back in the day\b|in my (?:twenties|teens|thirties|youth|childhood)\b)",
    re.IGNORECASE,
)


#: Verbs of a lasting state in the past tense: told of another value, a state that was.
PAST_STATE = re.compile(
    r"\b(?:lived|worked|resided|stayed|studied|attended|rented|owned|drove|had|used|played|belonged|"
    r"(?:was|were)(?!\s+\w+ed\b))\b",  # not a passive change ("the flight was rebooked")
    re.IGNORECASE,
)


#: Verbs of getting something in the past tense: a past event that may bring a new value ("I bought
#: a Ford", "We found a flat in Leeds", "We hired Marco"), not a habit that was.
ACQUIRED = re.compile(
    r"\b(?:bought|purchased|adopted|hired|leased|acquired|found|landed|won|inherited|signed|got|picked up|"
    r"took on|chose|picked|booked|ordered|received)\b",
    re.IGNORECASE,
)


#: a lasting state told in the present perfect up to now ("I've lived in Leeds since May"): the present
SINCE_NOW = re.compile(
    r"\b(?:i've|we've|i have|we have|has|have)\s+(?:\w+\s+)?(?:lived|worked|been|stayed|resided)\b[^.;]*"
    r"\b(?:since|for the (?:past|last))\b|\bsince\b[^.;]*\b(?:i've|we've|i have|we have|has|have)\s+(?:\w+\s+)?"
    r"(?:lived|worked|been|stayed|resided)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Meaning:
    """What a sentence says: whose fact, which attributes, the value, and whether it says a change,
    a past state or a negation."""

    holder: str
    attributes: frozenset[str]
    values: frozenset[str]
    changed: bool = False
    past: bool = False
    negated: bool = False


def same_form(a: frozenset[str], b: frozenset[str]) -> bool:
    """Are two values of one form: both numbers of about one length, both addresses, or both words?

    >>> same_form(frozenset({"07700900123"}), frozenset({"07700900456"})), same_form(frozenset({"12345678"}), frozenset({"07700900456"}))
    (True, False)
    """

    def form(values: frozenset[str]) -> tuple[str, int]:
        if any("@" in v for v in values):
            return "address", 0
        digits = [v for v in values if v.isdigit() and len(v) >= 5]
        return ("number", len(digits[0])) if digits else ("words", 0)

    (fa, na), (fb, nb) = form(a), form(b)
    return fa == fb and abs(na - nb) <= 1
