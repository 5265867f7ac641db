"""One role said in two frames (issue 45, class 4): "My dentist is X" / "I go to Y for my teeth now".

Role words, noun frames and :func:`same_role` on their own, then through
:func:`belief_meaning.compare` (what the write path asks): a change said in another frame
updates, another noun, another holder, a past value, a negation or a thing the held sentence
does not name never does.
"""

from __future__ import annotations

import pytest

from langmem_es.core import belief_meaning, meaning_learned, meaning_roles

pytestmark = pytest.mark.skipif(meaning_learned.exemplars() is None, reason="the offline model is not installed")


def _slot(text: str) -> str:
    return meaning_learned.slot_text(text)


def test_role_words_leave_out_the_value_the_holder_the_change_and_the_light_words() -> None:
    assert meaning_roles.role_words(_slot("My new dentist is Dr Kim now.")) == ("dentist",)
    assert meaning_roles.role_words(_slot("I go to Dr Kim for my teeth these days.")) == ("teeth",)
    assert meaning_roles.role_words(_slot("I get my internet from Vodafone.")) == ("internet",)
    assert meaning_roles.role_words(_slot("My broadband provider is Sky.")) == ("broadband",)
    assert meaning_roles.role_words(_slot("I don't speak French.")) == ("speak",)


def test_noun_frames() -> None:
    assert meaning_roles.noun_frame(_slot("My car insurance is with Aviva."))
    assert meaning_roles.noun_frame(_slot("These days Dr Kim is my dentist."))
    assert not meaning_roles.noun_frame(_slot("I'm insured with Aviva."))
    assert not meaning_roles.noun_frame(_slot("I take the dog to Castle Vets."))


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("My dentist is Dr Shah.", "I go to Dr Kim for my teeth now."),
        ("I see Dr Shah for my teeth.", "My new dentist is Dr Kim."),
        ("My car insurance is with Aviva.", "I'm insured with Admiral now."),
        ("I get my internet from Sky.", "My new broadband provider is Vodafone."),
        ("Our vet is Castle Vets.", "I take the dog to Parkside Vets these days."),
    ],
)
def test_one_role_in_another_frame_with_a_change_said_updates(held: str, said: str) -> None:
    assert meaning_roles.same_role(_slot(held), _slot(said))
    assert belief_meaning.compare(held, "user:sam", said, "user:sam") == "update"


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("My dentist is Dr Shah.", "My new doctor is Dr Kim."),  # another noun: another thing
        ("My broadband provider is Sky.", "My new energy supplier is Octopus."),
        ("I take the dog to Castle Vets.", "I take the car to Kwik Fit these days."),
        ("I get my internet from Sky.", "I get my groceries from Tesco now."),
        ("My dentist is Dr Patel.", "My dentist moved his practice to Leeds."),  # the dentist's practice
        ("I see Dr Shah for my teeth.", "My sister's new dentist is Dr Kim."),  # another holder
        ("I see Dr Shah for my teeth.", "My old dentist was Dr Kim."),  # a past value
        ("I see Dr Shah for my teeth.", "I might switch dentists to Dr Kim."),  # a hedge
    ],
)
def test_another_role_holder_or_time_never_updates(held: str, said: str) -> None:
    assert belief_meaning.compare(held, "user:sam", said, "user:sam") != "update"


def test_a_negation_is_never_a_repeat_of_what_it_negates() -> None:
    assert belief_meaning.compare("I speak French.", "", "I don't speak French.", "") != "reinforcement"


def test_without_a_change_said_both_stay() -> None:
    got = belief_meaning.compare("I see Dr Shah for my teeth.", "user:sam", "My dentist is Dr Kim.", "user:sam")
    assert got in ("unsure", None)


def test_getting_a_service_from_somewhere_is_no_reaction() -> None:
    assert belief_meaning.meaning("I get my internet from Vodafone now.", "user:sam") is None
    hives = belief_meaning.meaning("I get hives from peanuts.", "user:sam")
    assert hives is not None and hives.attributes == frozenset({"sensitivity"})


def test_an_upper_case_role_before_its_copula_is_no_value() -> None:
    assert meaning_learned.mask("My GP is Dr Patel.") == "My GP is X."
    assert meaning_learned.mask("Our HR contact is Jo Bell.") == "Our HR contact is X."
    assert meaning_learned.mask("My Tesla is fast.") == "My X is fast."  # no name after it: the thing
    assert belief_meaning.compare("My GP is Dr Patel.", "", "My new GP is Dr Evans.", "") == "update"
    assert belief_meaning.compare("My GP is Dr Patel.", "", "My new dentist is Dr Evans.", "") is None


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("My energy supplier is Octopus.", "My new energy company is EDF."),  # a generic noun beside the role
        ("I bank with Monzo.", "I'm with Starling for banking now."),  # "with X for N" names the role, no partner
        ("My accountant is Jane Moss.", "Tom Reid does my taxes now."),  # one role's words (ROLE_GROUPS)
        ("I live in Bath.", "I'm a resident of Norwich now."),
        ("I work at Initech.", "Umbrella hired me last month."),  # a change said by its verb
    ],
)
def test_everyday_equivalents_of_a_role_update(held: str, said: str) -> None:
    assert belief_meaning.compare(held, "", said, "") == "update"


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("My energy supplier is Octopus.", "My new phone company is EE."),
        ("I work at Initech.", "I'm with Starling for banking now."),
        ("My accountant is Jane Moss.", "Tom Reid does my hair now."),
        ("My dentist is Dr Shah.", "My new doctor is Dr Kim."),
        ("I live in Bath.", "My sister is a resident of Norwich now."),
        ("My barber is Luca.", "When I was younger, Marco cut my hair."),  # one role, in the past
    ],
)
def test_words_of_another_role_never_update(held: str, said: str) -> None:
    assert belief_meaning.compare(held, "", said, "") != "update"
