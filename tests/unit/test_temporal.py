"""Query-time temporal understanding: the dates a question names, as windows."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from langmem_es.rank.temporal import TimeHint, Window, time_match, time_windows

REF = datetime(2023, 5, 20, 15, 0, tzinfo=timezone.utc)  # a Saturday


def spans(text: str, ref: datetime | None = REF) -> list[str]:
    return [str(w) for w in time_windows(text, ref).windows]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What did she show me on October 13, 2023?", ["2023-10-13..2023-10-13"]),
        ("What did Gina find on 1 February, 2023?", ["2023-02-01..2023-02-01"]),
        ("the 3rd of March 2022", ["2022-03-03..2022-03-03"]),
        ("deployed 2024-01-31", ["2024-01-31..2024-01-31"]),
        ("What did they paint in July 2023?", ["2023-07-01..2023-07-31"]),
        ("a workout class in December 2023", ["2023-12-01..2023-12-31"]),
        ("How many times has she gone to the beach in 2023?", ["2023-01-01..2023-12-31"]),
    ],
)
def test_absolute_dates_need_no_reference(text: str, expected: list[str]) -> None:
    assert spans(text, None) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What did we do two weeks ago?", ["2023-04-29..2023-05-07"]),
        ("3 days ago", ["2023-05-16..2023-05-18"]),
        ("a month ago", ["2023-04-01..2023-04-30"]),
        ("two years ago", ["2021-01-01..2021-12-31"]),
        ("Where did she go last spring?", ["2022-03-01..2022-05-31"]),
        ("last winter", ["2022-12-01..2023-02-28"]),
        ("what are the plans for this summer", ["2023-06-01..2023-08-31"]),
        ("last week", ["2023-05-08..2023-05-14"]),
        ("last month", ["2023-04-01..2023-04-30"]),
        ("last year", ["2022-01-01..2022-12-31"]),
        ("yesterday", ["2023-05-19..2023-05-19"]),
    ],
)
def test_relative_phrases_read_against_the_reference(text: str, expected: list[str]) -> None:
    assert spans(text) == expected


def test_relative_phrases_without_reference_are_skipped() -> None:
    assert not time_windows("what did we do last week?", None)


def test_an_anchoring_date_replaces_the_reference() -> None:
    # "the weekend before April 10, 2023" (a Monday): 7-9 April, not the day itself
    assert spans("What did she join last weekend before April 10, 2023?", None) == ["2023-04-07..2023-04-09"]


def test_a_month_without_year_is_any_years_month() -> None:
    hint = time_windows("When did she go camping in June?", REF)
    assert hint.months == frozenset({6}) and not hint.windows


def test_no_time_no_hint() -> None:
    assert not time_windows("May I ask what she likes?", REF)
    assert not time_windows("What is Caroline's favourite book?", REF)


def test_time_match_inside_after_and_outside() -> None:
    hint = TimeHint((Window(date(2023, 7, 1), date(2023, 8, 1)),))
    assert time_match(hint, datetime(2023, 7, 15)) == 1.0
    assert 0.0 < time_match(hint, datetime(2023, 8, 5)) < 1.0  # told a few days later
    assert time_match(hint, datetime(2023, 9, 15)) == 0.0
    assert time_match(hint, datetime(2023, 6, 30)) == 0.0  # before it happened
    assert time_match(hint, None) == 0.0
    assert time_match(TimeHint(months=frozenset({6})), date(2021, 6, 3)) == 1.0
