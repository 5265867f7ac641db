"""Chat-style statements are read as the sentences they stand for."""

import pytest

from langmem_es.core.statements import relate
from langmem_es.core.statements.casual import tidy


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("btw i moved to leeds last month", "I moved to Leeds last month."),
        ("switched to protonmail fyi", "I switched to Protonmail."),
        ("yep still at initech", "I'm still at Initech."),
        ("gave up on spanish tbh", "I gave up on Spanish."),
        ("got engaged last weekend :)", "I got engaged last weekend."),
        ("might try protonmail at some point", "I might try protonmail at some point."),
        ("user eats meat again these days", "The user eats meat again these days."),
        ("deploys are on thursdays now", "Deploys are on Thursdays now."),
        ("im not sure", "I'm not sure."),
        ("standup moved to 10 from tomorrow", "Standup moved to 10 from tomorrow."),
        ("new number: 07700 900999", "My new number is 07700 900999."),
        ("Standup: 10am daily", "My standup is 10am daily."),
        ("My email: sam@example.com", "My email is sam@example.com."),
        ("Update: my phone is now 555-9876.", "Update: my phone is now 555-9876."),  # a label, read elsewhere
        ("The plan: we ship on Friday", "The plan: we ship on Friday."),  # a value that says something
    ],
)
def test_chat_style_is_tidied(typed: str, read: str) -> None:
    assert tidy(typed) == read
    assert tidy(read) == read  # once is enough


@pytest.mark.parametrize(
    "text",
    ["I live in Bristol.", "The user's flight to Lisbon is on 14 June.", "Dana left early for lunch!", "Is it?"],
)
def test_well_formed_text_is_left_alone(text: str) -> None:
    assert tidy(text) == text
    assert tidy(text.rstrip(".!?")) == text.rstrip(".!?") + "."  # only a full stop is added


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        ("I live in Bristol.", "btw i moved to leeds last month", "update"),
        ("I work at Initech.", "just started a new job at globex!!", "update"),
        ("I use Gmail.", "switched to protonmail fyi", "update"),
        ("I'm learning Spanish.", "gave up on spanish tbh", "update"),
        ("I work at Initech.", "yep still at initech", "reinforcement"),
        ("I work at Initech.", "my friend just started at globex", "unrelated"),
        ("I use Gmail.", "might try protonmail at some point", "other_key"),
        ("My phone number is 07700 900123.", "new number: 07700 900999", "update"),
        ("My favourite colour is green.", "favourite colour: blue", "update"),
    ],
)
def test_chat_style_statements_relate_as_sentences(old: str, new: str, relation: str) -> None:
    assert relate(old, new) == relation
