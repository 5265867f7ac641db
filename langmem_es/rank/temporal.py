"""Query-time temporal understanding (pure): the dates a question names, as time windows.

"What did she paint on October 13, 2023?", "in July 2023", "in 2022", "two weeks ago",
"last spring", "the weekend before April 10, 2023" — a question that names a time says
where on the time line its answer lies. :func:`time_windows` turns those phrases into
half-open ``[start, end)`` windows; a relative phrase ("last week") is read against
``reference`` (recall's ``as_of``, else now), or against the date it is anchored to in
the same sentence ("the weekend before April 10, 2023"). A month without a year
("in June") is a :class:`TimeHint` month of any year.

Recall uses the windows as a soft boost (:func:`time_match`): an event told on a date
inside a window, or shortly after it (people tell what happened last week), ranks
higher; nothing is filtered out, and a question naming no time changes nothing.

>>> ref = datetime(2023, 5, 20)
>>> [str(w) for w in time_windows("What did we do two weeks ago?", ref).windows]
['2023-04-29..2023-05-07']
>>> [str(w) for w in time_windows("Where did she go last spring?", ref).windows]
['2022-03-01..2022-05-31']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

__all__ = ["TimeHint", "Window", "time_match", "time_windows"]

_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}
_MONTH = r"(?P<{n}>January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?"
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "few": 3,
}  # fmt: skip
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "fall": (9, 11), "autumn": (9, 11), "winter": (12, 2)}

# month day, year | day month year | month year | a year alone
_MDY = re.compile(_MONTH.format(n="m") + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>(?:19|20)\d\d)\b")
_DMY = re.compile(
    r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH.format(n="m") + r",?\s+(?P<y>(?:19|20)\d\d)\b"
)
_ISO = re.compile(r"\b(?P<y>(?:19|20)\d\d)-(?P<m>\d\d)-(?P<d>\d\d)\b")
_MY = re.compile(_MONTH.format(n="m") + r",?\s+(?:of\s+)?(?P<y>(?:19|20)\d\d)\b")
_Y = re.compile(r"\b(?:in|during|of|since|from|throughout)\s+(?P<y>(?:19|20)\d\d)\b")
_M = re.compile(r"\b(?:in|during|early|late|mid|since|of|this|last)\s+-?" + _MONTH.format(n="m") + r"(?!\s*\d)")
_AGO = re.compile(
    r"\b(?P<n>\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple of|few)\s+"
    r"(?P<u>day|week|month|year)s?\s+ago\b",
    re.IGNORECASE,
)
_LAST = re.compile(
    r"\b(?P<w>last|this|past|previous)\s+(?P<u>week(?:end)?|month|year|spring|summer|fall|autumn|winter)\b",
    re.IGNORECASE,
)
_DAYWORD = re.compile(r"\b(?P<w>yesterday|today|tonight|recently|lately)\b", re.IGNORECASE)
_ANCHOR = re.compile(r"\b(?:before|prior to|as of|by|on)\s+$", re.IGNORECASE)


@dataclass(frozen=True)
class Window:
    """A half-open span of days ``[start, end)``."""

    start: date
    end: date

    def __str__(self) -> str:
        return f"{self.start.isoformat()}..{(self.end - timedelta(days=1)).isoformat()}"


@dataclass(frozen=True)
class TimeHint:
    """What a question says about time: day windows, and months of any year."""

    windows: tuple[Window, ...] = ()
    months: frozenset[int] = field(default_factory=frozenset)

    def __bool__(self) -> bool:
        return bool(self.windows or self.months)


def _month_window(y: int, m: int) -> Window:
    end = date(y + 1, 1, 1) if m == 12 else date(y, m + 1, 1)
    return Window(date(y, m, 1), end)


def _day(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _relative(unit: str, which: str, n: int, ref: date) -> Window | None:
    """The window of "``n`` ``unit``s ago" (``which`` = "ago") or "last/this ``unit``"."""
    unit = unit.lower()
    if which == "ago":
        if unit == "day":
            d = ref - timedelta(days=n)
            return Window(d - timedelta(days=1), d + timedelta(days=2))
        if unit == "week":
            d = ref - timedelta(weeks=n)
            return Window(d - timedelta(days=7), d + timedelta(days=2))
        if unit == "month":
            y, m = divmod(ref.year * 12 + ref.month - 1 - n, 12)
            return _month_window(y, m + 1)
        return Window(date(ref.year - n, 1, 1), date(ref.year - n + 1, 1, 1))
    this = which == "this"
    if unit == "week":
        start = ref - timedelta(days=ref.weekday()) - (timedelta(0) if this else timedelta(weeks=1))
        return Window(start, start + timedelta(days=7))
    if unit == "weekend":
        saturday = ref - timedelta(days=(ref.weekday() - 5) % 7)
        if this and saturday + timedelta(days=7) <= ref + timedelta(days=1):
            saturday += timedelta(days=7)
        return Window(saturday - timedelta(days=1), saturday + timedelta(days=2))
    if unit == "month":
        y, m = divmod(ref.year * 12 + ref.month - 1 - (0 if this else 1), 12)
        return _month_window(y, m + 1)
    if unit == "year":
        y = ref.year - (0 if this else 1)
        return Window(date(y, 1, 1), date(y + 1, 1, 1))
    first, last = _SEASONS[unit]
    seasons = [
        Window(date(y, first, 1), _month_window(y + (1 if first > last else 0), last).end)
        for y in range(ref.year - 2, ref.year + 2)
    ]
    if this:  # the season we are in, else this year's
        inside = [w for w in seasons if w.start <= ref < w.end]
        return inside[0] if inside else next(w for w in seasons if w.start.year == ref.year)
    return max((w for w in seasons if w.end <= ref), key=lambda w: w.start)


def time_windows(text: str, reference: datetime | date | None = None) -> TimeHint:
    """The times ``text`` names, as windows (see the module docstring).

    Relative phrases need ``reference`` (or an anchoring date in the text) and are skipped
    without one; absolute dates never need it.
    """
    ref = reference.date() if isinstance(reference, datetime) else reference
    windows: list[Window] = []
    months: set[int] = set()
    taken: list[tuple[int, int]] = []
    anchors: list[tuple[int, date]] = []

    def free(m: re.Match[str]) -> bool:
        return not any(a < m.end() and m.start() < b for a, b in taken)

    for rx in (_MDY, _DMY, _ISO):
        for m in rx.finditer(text):
            if not free(m):
                continue
            month = int(m["m"]) if m["m"].isdigit() else _MONTHS[m["m"].lower().rstrip(".")]
            d = _day(int(m["y"]), month, int(m["d"]))
            if d is None:
                continue
            taken.append(m.span())
            if _ANCHOR.search(text[: m.start()]):  # "the weekend before April 10": an anchor, not the event's day
                anchors.append((m.start(), d))
                if re.search(r"\b(?:before|prior to)\s+$", text[: m.start()], re.IGNORECASE):
                    continue
            windows.append(Window(d, d + timedelta(days=1)))
    for m in _MY.finditer(text):
        if free(m):
            taken.append(m.span())
            windows.append(_month_window(int(m["y"]), _MONTHS[m["m"].lower().rstrip(".")]))
    for m in _Y.finditer(text):
        if free(m):
            taken.append(m.span())
            y = int(m["y"])
            windows.append(Window(date(y, 1, 1), date(y + 1, 1, 1)))
    for m in _M.finditer(text):
        if free(m):
            taken.append(m.span())
            months.add(_MONTHS[m["m"].lower().rstrip(".")])

    def anchor_for(pos: int) -> date | None:
        after = [d for p, d in anchors if p > pos]
        return after[0] if after else ref

    for m in _AGO.finditer(text):
        base = anchor_for(m.start())
        if base is None:
            continue
        n = int(m["n"]) if m["n"].isdigit() else _NUMBERS[m["n"].lower()]
        w = _relative(m["u"], "ago", n, base)
        if w:
            windows.append(w)
    for m in _LAST.finditer(text):
        base = anchor_for(m.start())
        if base is None:
            continue
        which = "this" if m["w"].lower() == "this" else "last"
        w = _relative(m["u"], which, 1, base)
        if w:
            windows.append(w)
    for m in _DAYWORD.finditer(text):
        base = anchor_for(m.start())
        if base is None:
            continue
        word = m["w"].lower()
        if word == "yesterday":
            windows.append(Window(base - timedelta(days=1), base))
        elif word in ("today", "tonight"):
            windows.append(Window(base, base + timedelta(days=1)))
        else:
            windows.append(Window(base - timedelta(days=30), base + timedelta(days=1)))
    return TimeHint(tuple(dict.fromkeys(windows)), frozenset(months))


def time_match(hint: TimeHint, when: datetime | date | None, *, slack_days: float = 10.0) -> float:
    """How well an event told at ``when`` fits ``hint``: 1 inside a window or a named month,
    falling linearly to 0 over ``slack_days`` after it (what happened is told later, rarely
    earlier), else 0. ``when=None`` scores 0."""
    if when is None or not hint:
        return 0.0
    d = when.date() if isinstance(when, datetime) else when
    best = 0.0
    for w in hint.windows:
        if w.start <= d < w.end:
            return 1.0
        if d >= w.end and slack_days > 0:
            best = max(best, 1.0 - (d - w.end).days / slack_days)
    if hint.months:
        if d.month in hint.months:
            return 1.0
        prev = (d.replace(day=1) - timedelta(days=1)).month
        if prev in hint.months and slack_days > 0:
            best = max(best, 1.0 - (d.day - 1) / slack_days)
    return max(0.0, best)


def parse_times(values: Sequence[str | None]) -> list[datetime | None]:
    """ISO 8601 strings (as stored) as datetimes; ``None`` for what does not parse."""
    out: list[datetime | None] = []
    for v in values:
        try:
            out.append(datetime.fromisoformat(v.replace("Z", "+00:00")) if v else None)
        except ValueError:
            out.append(None)
    return out
