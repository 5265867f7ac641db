"""The learned attribute recogniser and key canonicaliser (issue 45): what it reads, and the
safety rules it never crosses. The sentences here are written for these tests (none is a
held-out story's)."""

from __future__ import annotations

import itertools

import pytest

from langmem_es.core import belief_meaning, belief_rules, meaning_learned

pytestmark = pytest.mark.skipif(meaning_learned.exemplars() is None, reason="the offline embedding model is missing")


def _relation(held: str, said: str) -> str:
    return belief_rules._relation(held, "user:sam", "assert", said, "user:sam", belief_rules.polarity(said))


def test_the_exemplar_vectors_ship_with_the_exemplars() -> None:
    """The shipped vectors match the exemplars (else every process would embed them again)."""
    import numpy as np

    rows = meaning_learned._read_tsv(meaning_learned.EXEMPLAR_FILE)
    with np.load(meaning_learned.VECTOR_FILE, allow_pickle=False) as f:
        assert str(f["digest"]) == meaning_learned._digest(rows)


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("I live in York.", "I call Leeds home now."),
        ("I work at Initech.", "Globex pays my salary these days."),
        ("My partner is Sam.", "I've been going out with Jordan lately."),
    ],
)
def test_a_new_value_in_words_no_rule_lists_updates_by_example(held: str, said: str) -> None:
    assert belief_meaning.compare(held, "", said, "") == "update"


def test_without_a_change_said_a_value_read_by_example_stays_unsure() -> None:
    assert belief_meaning.meaning("Leeds is my base.", "") is None  # read by example only
    assert belief_meaning.compare("I live in York.", "", "Leeds is my base.", "") == "unsure"
    # ("I've put down roots in Leeds" says a change since session 33: meaning_words.CHANGED)


HELD = ["I live in York.", "I work at Initech.", "My manager is Dana.", "My partner is Sam."]
#: new values of the held attributes, said of another holder, of the past, as a stay, a plan or a
#: question, or of another person's role: never an update or a denial, whatever the example says
NEVER = [
    "My brother calls {v} home now.",
    "My sister's salary is paid by {v} these days.",
    "Tom is going out with {v} lately.",
    "Years ago I called {v} home.",
    "Before that, {v} paid my salary.",
    "I used to answer to {v}.",
    "I'm in {v} for the weekend.",
    "I might call {v} home one day.",
    "Do I answer to {v} now?",
    "{v} is my mentor now.",
    "{v} is my personal trainer these days.",
    "My office moved to {v}.",
    "The user's gym is in {v} now.",
]


@pytest.mark.parametrize(("held", "said"), list(itertools.product(HELD, NEVER)))
def test_the_learned_reading_never_crosses_the_safety_rules(held: str, said: str) -> None:
    for value in ("Leeds", "Globex", "Priya"):
        new = said.format(v=value)
        assert _relation(held, new) not in ("update", "denial"), new


def test_a_number_of_another_form_is_not_the_phone() -> None:
    assert belief_meaning.compare("My account number is 12345678.", "", "My new number is 07700 900456.", "") is None


def test_keys_in_other_words_are_one_key_but_never_across_holders_or_things() -> None:
    assert belief_rules.keys_close("user.telephone", "user.phone", 0.0, 0.6)
    assert not belief_rules.keys_close("user.passport_no", "user.phone", 0.0, 0.6)
    assert not belief_rules.one_head("user.telephone", "user.sister.phone")
    assert not belief_rules.one_head("user.previous_telephone", "user.phone")


def test_off_or_without_the_model_the_rules_decide_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGMEM_ES_LEARNED_MEANING", "0")
    assert belief_meaning.compare("I live in York.", "", "I call Leeds home now.", "") is None
    monkeypatch.setenv("LANGMEM_ES_LEARNED_MEANING", "1")
    monkeypatch.setattr(meaning_learned, "exemplars", lambda: None)
    assert meaning_learned.label("I call Leeds home now.") is None
    assert belief_meaning.compare("I live in York.", "", "I call Leeds home now.", "") is None


def test_a_missing_model_is_tried_once_then_the_rules_decide_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from collections import OrderedDict

    import langmem_es.embeddings as embeddings
    from langmem_es.errors import MissingDependencyError

    tried: list[int] = []

    class Missing:
        def embed_array(self, texts: list[str]) -> None:
            tried.append(len(texts))
            raise MissingDependencyError("no tokenizer")

    monkeypatch.setattr(embeddings, "default_embeddings", Missing)
    monkeypatch.setattr(meaning_learned, "_missing", False)
    monkeypatch.setattr(meaning_learned, "_cache", OrderedDict())
    monkeypatch.setattr(meaning_learned, "_labels", OrderedDict())
    for said in ("I call Leeds home now.", "Our postcode is in Leeds now."):
        assert meaning_learned.label(said) is None
        assert belief_meaning.compare("I live in York.", "", said, "") is None
    assert len(tried) == 1


def test_on_the_pair_table_the_learned_reading_changes_no_verdict_for_the_worse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Through belief_rules._relation (what the write path asks), with the learned reading off and on."""
    from tests.fixtures.report import load

    rows = load()
    got = {}
    for on in ("0", "1"):
        monkeypatch.setenv("LANGMEM_ES_LEARNED_MEANING", on)
        belief_rules._relation.cache_clear()
        got[on] = [
            belief_rules._relation(old, "", "assert", new, "", belief_rules.polarity(new)) for _, _, old, new in rows
        ]
    belief_rules._relation.cache_clear()
    changed = [(r[0], a, b) for r, a, b in zip(rows, got["0"], got["1"], strict=True) if a != b]
    assert all(gold == after for gold, _, after in changed), changed


# -- this round: the reading asked when neither side is read, keys read as one attribute, traits,
# -- dated events, and the safety guards (sentences written for these tests)
def test_when_the_rules_read_neither_side_both_are_read_by_example() -> None:
    assert belief_meaning.compare("I call York home.", "", "These days I call Leeds home.", "") == "update"
    assert belief_meaning.compare("I call York home.", "", "My brother calls Leeds home these days.", "") is None


@pytest.mark.parametrize(
    "said",
    [
        "I might move to Leeds.",
        "Do I live in Leeds now?",
        "I'm thinking of settling in Leeds.",
        "I'm staying in Leeds until Friday.",
        "My sister settled in Leeds.",
        "Tom settled in Leeds.",
        "My parents have settled in Leeds now.",
    ],
)
def test_a_question_a_hedge_a_stay_or_another_holder_never_updates_a_home(said: str) -> None:
    for held in ("I live in York.", "I bought a house in York.", "I made York my home."):
        assert _relation(held, said) not in ("update", "reinforcement"), (held, said)


def test_a_home_said_of_we_or_with_its_value_first_is_the_users() -> None:
    assert _relation("Home is York.", "We've moved over to Leeds.") == "update"
    assert _relation("York is home.", "Home is now Leeds.") == "update"


def test_a_negation_is_no_repeat_and_a_negated_trait_is_no_denial() -> None:
    assert _relation("I don't smoke.", "I smoke.") != "reinforcement"
    assert belief_rules.polarity("Alcohol is not for me.") == "assert"
    assert _relation("I'm teetotal.", "Alcohol is not for me.") == "reinforcement"
    assert _relation("I'm a vegetarian.", "I haven't eaten meat in ten years.") == "reinforcement"
    assert _relation("I'm a non-smoker.", "I don't smoke.") == "reinforcement"


def _keyed(held: str, held_key: str, said: str, said_key: str) -> str:
    from tests.unit.belief_stories import Story, judged

    return judged(Story("3", "test", held, said, "update", "user:sam", held_key, said_key))


def test_keys_whose_heads_and_statements_read_as_one_attribute_are_one_key() -> None:
    phone = "My phone number is 07700 900123."
    assert _keyed(phone, "user.phone", "Reach me on 07700 900456.", "user.mobile") == "update"
    assert _keyed(phone, "user.phone", "Cell: 07700 900456", "user.cell_number") == "update"
    assert _keyed("I work as a nurse.", "user.job", "Occupation: teacher", "profile.profession") == "update"
    # never a hedge, a past value, another holder or another thing
    assert _keyed(phone, "user.phone", "Might get a new number, 07700 900456?", "user.mobile") == "kept"
    assert _keyed(phone, "user.phone", "My old mobile was 07700 900456.", "user.mobile") == "kept"
    assert _keyed(phone, "user.phone", "My sister's mobile is 07700 900456.", "user.sister.mobile") == "kept"
    assert _keyed(phone, "user.phone", "My work phone is 07700 900456.", "user.work_phone") == "kept"


def test_one_date_in_other_event_words_is_one_event_only_when_they_embed_close() -> None:
    assert meaning_learned.event_phrase("We're going live on 12 March.") == "live"
    assert (
        belief_meaning.compare("The launch is on 12 March.", "", "My dentist appointment is on 12 March.", "") is None
    )
    assert meaning_learned.same_event("My interview is on 9 May.", "They interview me on 9 May.")
    assert not meaning_learned.same_event("Our wedding is on 14 June.", "The party is on 14 June.")


def test_a_state_up_to_now_is_the_present_and_a_current_value_says_so() -> None:
    assert _relation("I live in York.", "I've lived in Leeds since May.") == "update"
    assert _relation("I live in York.", "Since May I've lived in Leeds.") == "update"
    assert _relation("I live in York.", "My current address is in Leeds.") == "update"
    # a past state is still no update, nor one told of another holder
    assert _relation("I live in York.", "I lived in Leeds before.") != "update"
    assert _relation("I live in York.", "My sister has lived in Leeds since May.") != "update"


def test_one_role_in_other_words_and_a_value_said_first_are_one_fact() -> None:
    assert _keyed("My wife is Anna.", "user.wife", "My spouse is Anna.", "user.spouse") == "reinforcement"
    assert _keyed("My wife is Anna.", "user.wife", "My spouse is Beth.", "user.spouse") == "update"
    phone = "My phone number is 07700 900123."
    assert _keyed(phone, "user.phone", "07700 900123 is my mobile.", "user.mobile") == "reinforcement"
    assert _relation("My wife is Anna.", "My sister is Beth.") != "update"


def test_a_wish_to_be_treated_another_way_is_a_preference_not_a_hedge() -> None:
    """ "wants to be contacted by email" states the present preference; "want to move" a plan."""
    from langmem_es.core.meaning_words import HEDGE

    assert HEDGE.search("I want to move to Leeds.") and HEDGE.search("I would like to live in York.")
    assert not HEDGE.search("The user wants to be contacted by email from now on.")
    assert not HEDGE.search("I would like to be called Sam.")
