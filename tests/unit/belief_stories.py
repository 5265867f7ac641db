"""A generator of belief stories in template families (issue 45), shared by the unit and the
scenario tests.

Each family is one story type (an attribute, a way of saying it); its templates vary the
surface form — tense, person, voice, word order, markers ("now", "these days", "just",
"have since", "currently"), form-like lines ("Field: value"), questions and hedges, and, for
class 3, the caller's spelling of the key. The families of every class are split into a
*tuning* half (what the rules were written against) and a *held-out* half, written and
committed before any rule for that class was tuned on them; the held-out half is measured,
never tuned on. Classes 2 and 4 were split first; classes 3 and 5 (whose rules came earlier,
from hand-written user stories) got their families later, both halves measured before any
change. :data:`HELD_OUT_NEW` is a second held-out half for class 4, written after the first
had been read three times and before any further class 4 rule; a third and a fourth followed
(read in session 33: :data:`READ`), and a fifth to an eighth, written by writers who had not
read the rules (:mod:`tests.unit.belief_stories_fifth`, ``_sixth``, ``_seventh``, ``_eighth``; each
measured once, then read in session 33). :mod:`tests.unit.belief_stories_cross` and ``_cross2``
hold kept stories only: another attribute's statement in words that look like the held one's.
``_ninth`` and ``_cross3`` were written after session 33's last change and measured once; their
misses have not been read (they are in no half here; their floors are in the tests).

A story is ``(class, family, held, said, expected)``: the held fact, the new statement (keyless
unless the family gives keys; the second from the same user unless the family says
``who="agents"``: one agent's shared fact, another agent's statement) and what the new
statement must do to the held fact:

* ``update`` — supersede it (history kept);
* ``reinforcement`` — repeat it (no second fact);
* ``denial`` — deny it, held until confirmed (it stays active meanwhile);
* ``correction`` — deny it at once (the user's own correction under the fact's key);
* ``kept`` — leave it active and add nothing that replaces or denies it (another holder, a
  past value, another value of a many-valued attribute, another key's fact).

``python -m tests.unit.belief_stories`` prints the share right per class and half, at the
level of the pure rules and the learned reading (:func:`judged`; ``LANGMEM_ES_LEARNED_MEANING=0``:
the rules alone); ``--sqlite`` plays two stories a family through
``remember`` on SQLite too (:func:`play`; ``--elasticsearch``: on the Elasticsearch of
``LANGMEM_ES_URL`` or ``langmem-es es start``); ``--families`` per family; ``--misses`` the tuning
half's misses only.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass(frozen=True)
class Family:
    """One story type: held templates ``{A}``, new templates ``{B}``, and value pairs ``(A, B)``."""

    cls: str
    expected: str
    held: tuple[str, ...]
    said: tuple[str, ...]
    values: tuple[tuple[str, str], ...]
    owner: str = "user:sam"
    #: (held key, said key) pairs: each story is played with every pair (none: keyless)
    keys: tuple[tuple[str | None, str | None], ...] = ((None, None),)
    #: who says what: ``self`` (the user, privately, both) or ``agents`` (one agent states a
    #: shared fact, another denies or restates it)
    who: str = "self"


def F(
    cls: str,
    expected: str,
    held: list[str],
    said: list[str],
    values: list[tuple[str, str]],
    *,
    keys: list[tuple[str | None, str | None]] | None = None,
    who: str = "self",
) -> Family:
    return Family(cls, expected, tuple(held), tuple(said), tuple(values), keys=tuple(keys or [(None, None)]), who=who)


# ---------------------------------------------------------------------------------------------
# Class 4: a keyless update in new words supersedes the held fact.
# ---------------------------------------------------------------------------------------------
TUNING: dict[str, Family] = {
    "4/home": F(
        "4",
        "update",
        ["I'm based in {A}.", "I live in {A}.", "The user lives in {A}."],
        [
            "My new place is in {B}.",
            "I live in {B} now.",
            "These days I'm based in {B}.",
            "I just moved to {B}.",
            "The user has since relocated to {B}.",
            "Home is {B} now.",
            "I'm currently living in {B}.",
            # added after the first held-out half had been read (said without a home word)
            "I'm in {B} now.",
            "Settled in {B} at last.",
            "As of this month I live in {B}.",
            "I'm in {B} these days.",
            "We've settled in {B}.",
        ],
        [("York", "Leeds"), ("Bristol", "Cardiff")],
    ),
    "4/employer": F(
        "4",
        "update",
        ["I work at {A}.", "The user is employed by {A}."],
        [
            "My new employer is {B}.",
            "I'm now working for {B}.",
            "These days I work at {B}.",
            "I just joined {B}.",
            "The user currently works at {B}.",
        ],
        [("Initech", "Globex"), ("Acme", "Hooli")],
    ),
    # added with the second held-out half written and unread (none of its forms)
    "4/home-more": F(
        "4",
        "update",
        ["I live in {A}.", "I'm based in {A}."],
        [
            "{B} is my new home.",
            "Our new house is in {B}.",
            "I'm a {B} resident now.",
            "Home's {B} these days.",
            "I bought a place in {B} and live there now.",
        ],
        [("York", "Leeds"), ("Bristol", "Cardiff")],
    ),
    "4/employer-more": F(
        "4",
        "update",
        ["I work at {A}.", "I'm employed by {A}."],
        [
            "I quit {A} and I'm with {B} now.",
            "I've taken a job at {B}.",
            "I'm at {B} these days.",
            "My new job is at {B}.",
        ],
        [("Initech", "Globex")],
    ),
    "4/safety-more": F(
        "4",
        "kept",
        ["I live in {A}.", "I work at {A}."],
        [
            "I'm at {B} for a meeting.",
            "My brother is a {B} resident now.",
            "Our old house was in {B}.",
            "I quit {B} years ago.",
        ],
        [("York", "Leeds")],
    ),
    "4/phone": F(
        "4",
        "update",
        ["My phone number is {A}.", "The user's number is {A}."],
        ["My new number is {B}.", "My phone number is now {B}.", "You can reach me on {B} now."],
        [("07700 900123", "07700 900456")],
    ),
    "4/partner": F(
        "4",
        "update",
        ["My partner is {A}.", "The user's partner is {A}."],
        ["My new partner is {B}.", "I'm now with {B}.", "These days my partner is {B}."],
        [("Sam", "Jordan")],
    ),
    "4/diet": F(
        "4",
        "update",
        ["I'm {A}.", "The user is {A}."],
        ["I've gone {B}.", "I'm {B} now.", "These days I'm {B}."],
        [("vegetarian", "vegan"), ("vegan", "pescatarian")],
    ),
    "4/safety-holder": F(
        "4",
        "kept",
        ["I'm based in {A}.", "The user lives in {A}."],
        ["My sister's new place is in {B}.", "My brother just moved to {B}.", "My mum lives in {B} now."],
        [("York", "Leeds")],
    ),
    "4/safety-stay": F(
        "4",
        "kept",
        ["I'm based in {A}.", "I live in {A}."],
        [
            "I'm in {B} this week.",
            "I'm in {B} on holiday now.",
            "I'm in {B} for a conference.",
            "Now I'm in {B} until Friday.",
        ],
        [("York", "Leeds")],
    ),
    "4/safety-past": F(
        "4",
        "kept",
        ["I'm based in {A}.", "I work at {A}."],
        ["My old place was in {B}.", "I lived in {B} before.", "Before that I worked at {B}."],
        [("York", "Leeds")],
    ),
    # added in session 30, after the third held-out half was written (none of its attributes or
    # forms): attributes no exemplar label names, said in other words with a change; and, kept,
    # other attributes said in the same frames
    "4/dentist": F(
        "4",
        "update",
        ["My dentist is {A}.", "I see {A} for my teeth."],
        ["My new dentist is {B}.", "I go to {B} for my teeth now.", "These days {B} is my dentist."],
        [("Dr Shah", "Dr Kim")],
    ),
    "4/insurer": F(
        "4",
        "update",
        ["My car insurance is with {A}.", "I'm insured with {A}."],
        ["I'm insured with {B} now.", "My car insurance is with {B} these days.", "My new insurer is {B}."],
        [("Aviva", "Admiral")],
    ),
    "4/broadband": F(
        "4",
        "update",
        ["My broadband provider is {A}.", "I get my internet from {A}."],
        ["I get my internet from {B} now.", "My new broadband provider is {B}.", "I've switched broadband to {B}."],
        [("Sky", "Vodafone")],
    ),
    "4/vet": F(
        "4",
        "update",
        ["Our vet is {A}.", "I take the dog to {A}."],
        ["Our new vet is {B}.", "I take the dog to {B} these days.", "We've switched vets to {B}."],
        [("Castle Vets", "Parkside Vets")],
    ),
    "4/safety-slot": F(
        "4",
        "kept",
        ["My dentist is {A}.", "I'm insured with {A}.", "I take the dog to {A}."],
        [
            "My new doctor is {B}.",
            "My sister is insured with {B} now.",
            "I take the kids to {B} these days.",
            "I might switch to {B}.",
            "My old dentist was {B}.",
        ],
        [("Dr Shah", "Dr Kim")],
    ),
    "4/safety-slot-frames": F(
        "4",
        "kept",
        ["My dentist is {A}.", "I'm insured with {A}.", "I get my internet from {A}.", "I take the dog to {A}."],
        [
            "My new optician is {B}.",
            "I now bank with {B}.",
            "I take the car to {B} these days.",
            "My new energy supplier is {B}.",
            "I get my groceries from {B} now.",
        ],
        [("Brightwell", "Ashford")],
    ),
    # session 33: what one is to a place or a service is no employer, and a service moved no home
    "4/safety-services": F(
        "4",
        "kept",
        ["I work at {A}.", "I live in {A}.", "I'm a nurse at {A}."],
        [
            "I'm a member at {B} now.",
            "I've got a membership at {B} now.",
            "I'm a customer of {B} these days.",
            "I'm a patient at {B} now.",
            "{B} is where I work out these days.",
            "I work out at {B} now.",
            "I moved to {B} for my weekly shop.",
            "I've moved to {B} for my counselling.",
        ],
        [("Northgate", "Kingsway")],
    ),
    # -- class 2: the same fact in other words reinforces --------------------------------------
    "2/allergy-effect": F(
        "2",
        "reinforcement",
        ["I'm allergic to {A}.", "The user is allergic to {A}."],
        ["{A} make me break out in hives.", "Eating {A} makes me break out in hives.", "{A} give me a reaction."],
        [("peanuts", ""), ("shellfish", "")],
    ),
    "2/vegetarian-trait": F(
        "2",
        "reinforcement",
        ["I'm vegetarian.", "The user is a vegetarian."],
        ["I don't eat meat.", "Meat is not something I eat.", "The user doesn't eat meat."],
        [("", "")],
    ),
    "2/teetotal-trait": F(
        "2",
        "reinforcement",
        ["I don't drink alcohol.", "The user doesn't drink."],
        ["I'm teetotal.", "The user is teetotal."],
        [("", "")],
    ),
    "2/date-verb": F(
        "2",
        "reinforcement",
        ["The launch is on {A}.", "We launch on {A}."],
        ["The launch date is {A}.", "Launch happens on {A}.", "We're launching on {A}."],
        [("12 March", ""), ("1 June", "")],
    ),
    "2/form-line": F(
        "2",
        "reinforcement",
        ["My date of birth is {A}.", "I was born on {A}."],
        ["Date of birth: {A}", "DOB: {A}", "Birthday: {A}"],
        [("4 July 1990", "")],
    ),
    "2/control-other-value": F(
        "2",
        "kept",
        ["I'm allergic to {A}."],
        ["{B} make me break out in hives.", "{B} give me a reaction."],
        [("peanuts", "shellfish")],
    ),
    # -- class 3: another spelling of the key (the caller's keys) -------------------------------
    "3/synonym": F(
        "3",
        "update",
        ["My phone number is {A}.", "You can reach me on {A}."],
        ["My mobile number is {B}.", "My number is {B} now."],
        [("07700 900123", "07700 900456")],
        keys=[("user.phone", "user.mobile_number"), ("user.phone_number", "user.cell")],
    ),
    "3/qualified-head": F(
        "3",
        "update",
        ["My boss is {A}.", "I report to {A}."],
        ["My direct supervisor is {B}.", "I report to {B} now."],
        [("Dana", "Priya")],
        keys=[("user.boss", "work.direct_supervisor"), ("user.manager", "team.line_manager")],
    ),
    "3/longer-key": F(
        "3",
        "update",
        ["I work as a {A}.", "My job is {A}."],
        ["My job title is {B}.", "I'm a {B} now."],
        [("nurse", "teacher")],
        keys=[("user.job", "user.job_title")],
    ),
    "3/synonym-unread": F(
        "3",
        "update",
        ["My boss is {A}.", "I report to {A}."],
        ["{B} manages me now.", "{B} these days."],
        [("Dana", "Priya")],
        keys=[("user.boss", "work.supervisor"), ("user.manager", "user.line_manager_name")],
    ),
    "3/synonym-unread-job": F(
        "3",
        "update",
        ["I work as a {A}."],
        ["{B} these days.", "Working as a {B}."],
        [("nurse", "teacher")],
        keys=[("user.job", "user.job_title"), ("user.occupation", "profile.role")],
    ),
    "3/longer-key-tail": F(
        "3",
        "update",
        ["My mobile is {A}.", "You can text me on {A}."],
        ["My mobile phone number is {B}.", "Text me on {B} from now on."],
        [("07700 900123", "07700 900456")],
        keys=[("user.mobile", "user.mobile_phone_number"), ("user.cell", "profile.cell_number_primary")],
    ),
    "3/longer-key-tail-name": F(
        "3",
        "update",
        ["My partner is {A}."],
        ["My partner is {B} now.", "I'm with {B} these days."],
        [("Sam", "Jordan")],
        keys=[("user.partner", "user.partner_full_name")],
    ),
    "3/safety-tail-other-thing": F(
        "3",
        "kept",
        ["My phone number is {A}."],
        ["My passport number is {B}.", "My customer number is {B}."],
        [("07700 900123", "X1234567")],
        keys=[("user.phone_number", "user.passport_number"), ("user.mobile", "user.customer_number")],
    ),
    "3/longer-key-employer": F(
        "3",
        "update",
        ["I work at {A}."],
        ["I work at {B} now.", "My employer is {B}."],
        [("Initech", "Globex")],
        keys=[("user.company", "user.current_employer")],
    ),
    "3/denial-other-key": F(
        "3",
        "correction",
        ["My boss is {A}."],
        ["{A} is not my supervisor.", "I don't report to {A}."],
        [("Dana", "")],
        keys=[("user.boss", "work.supervisor")],
    ),
    "3/same-value-other-key": F(
        "3",
        "reinforcement",
        ["My phone number is {A}."],
        ["Mobile: {A}", "My mobile number is {A}."],
        [("07700 900123", "")],
        keys=[("user.phone", "user.mobile")],
    ),
    "3/safety-holder-key": F(
        "3",
        "kept",
        ["My phone number is {A}."],
        ["My sister's number is {B}."],
        [("07700 900123", "07700 900456")],
        keys=[("user.phone", "user.sister.phone")],
    ),
    "3/safety-time-key": F(
        "3",
        "kept",
        ["I work at {A}."],
        ["I worked at {B} before.", "My previous employer was {B}."],
        [("Initech", "Globex")],
        keys=[("user.employer", "user.previous_employer")],
    ),
    # -- class 5: denials in other forms ------------------------------------------------------------
    "5/echo": F(
        "5",
        "denial",
        ["I live in {A}.", "The user lives in {A}."],
        ["{A}? I was only there on holiday.", "{A}? No, I only visited once."],
        [("Paris", ""), ("Rome", "")],
    ),
    "5/echo-employer": F(
        "5",
        "denial",
        ["I work at {A}."],
        ["{A}? I only interviewed there.", "{A}? No, I never worked there."],
        [("Google", "")],
    ),
    "5/own-keyed": F(
        "5",
        "correction",
        ["I live in {A}."],
        ["I don't live in {A}.", "I never lived in {A}."],
        [("Paris", "")],
        keys=[("user.home_city", "user.home_city")],
    ),
    "5/other-denial": F(
        "5",
        "denial",
        ["The launch is on {A}."],
        ["The launch is not on {A}."],
        [("12 March", "")],
        keys=[("project.launch_date", "project.launch_date")],
        who="agents",
    ),
    "5/control-echo-other": F(
        "5",
        "kept",
        ["I live in {A}."],
        ["{B}? I was only there on holiday."],
        [("Paris", "Rome")],
    ),
}

HELD_OUT: dict[str, Family] = {
    "4/home-settled": F(
        "4",
        "update",
        ["I'm living in {A}.", "Sam lives in {A}.", "Home for me is {A}."],
        [
            "Nowadays I'm in {B}.",
            "As of this month I live in {B}.",
            "I've recently relocated to {B}.",
            "We've just moved to {B}.",
            "My address is now in {B}.",
            "Sam is currently based in {B}.",
            "I think I'm settled in {B} now.",
        ],
        [("Manchester", "Glasgow"), ("Oslo", "Bergen")],
    ),
    "4/job-title": F(
        "4",
        "update",
        ["I work as a {A}.", "I'm a {A}.", "The user's job is {A}."],
        ["I'm now a {B}.", "My new role is {B}.", "These days I work as a {B}.", "The user has since become a {B}."],
        [("nurse", "teacher"), ("data analyst", "product manager")],
    ),
    "4/email": F(
        "4",
        "update",
        ["My email is {A}.", "You can email me at {A}."],
        ["My new email is {B}.", "My email address is now {B}.", "Please use {B} for email from now on."],
        [("sam@old.org", "sam@new.io")],
    ),
    "4/manager": F(
        "4",
        "update",
        ["My manager is {A}.", "I report to {A}."],
        [
            "My new boss is {B}.",
            "I report to {B} now.",
            "{B} is my manager these days.",
            "I've since started reporting to {B}.",
        ],
        [("Dana", "Priya")],
    ),
    "4/car": F(
        "4",
        "update",
        ["I drive a {A}.", "My car is a {A}."],
        ["My new car is a {B}.", "I drive a {B} these days.", "I'm currently driving a {B}."],
        [("Ford Fiesta", "Toyota Yaris")],
    ),
    "4/safety-holder": F(
        "4",
        "kept",
        ["I live in {A}.", "Home for me is {A}."],
        ["My neighbour's new place is in {B}.", "My friend is now based in {B}.", "My dad just moved to {B}."],
        [("Manchester", "Glasgow")],
    ),
    "4/safety-past": F(
        "4",
        "kept",
        ["I live in {A}.", "Sam lives in {A}."],
        ["Years ago my home was {B}.", "I lived in {B} in my twenties.", "My previous place was in {B}."],
        [("Manchester", "Glasgow")],
    ),
    # -- class 2 --------------------------------------------------------------------------------
    "2/allergy-effect": F(
        "2",
        "reinforcement",
        ["I have a {A} allergy.", "I'm allergic to {A}."],
        ["{A} give me a rash.", "I get hives from {A}.", "I swell up if I eat {A}.", "I react badly to {A}."],
        [("peanuts", ""), ("strawberries", "")],
    ),
    "2/intolerance": F(
        "2",
        "reinforcement",
        ["I'm lactose intolerant.", "The user is lactose intolerant."],
        ["Dairy upsets my stomach.", "Milk makes me ill.", "I can't digest dairy."],
        [("", "")],
    ),
    "2/trait": F(
        "2",
        "reinforcement",
        ["{A}"],
        ["{B}"],
        [
            ("I'm vegan.", "I don't eat any animal products."),
            ("I'm teetotal.", "I never drink alcohol."),
            ("I'm left-handed.", "I write with my left hand."),
            ("The user is a vegetarian.", "The user never eats meat."),
        ],
    ),
    "2/date-verb": F(
        "2",
        "reinforcement",
        ["The contract renews on {A}.", "Our renewal is on {A}."],
        ["Renewal is due on {A}.", "The contract comes up for renewal on {A}.", "The renewal date is {A}."],
        [("1 March", ""), ("15 October", "")],
    ),
    "2/form-line": F(
        "2",
        "reinforcement",
        ["I work at {A}.", "My employer is {A}."],
        ["Employer: {A}", "Company: {A}", "Current employer: {A}"],
        [("Initech", ""), ("Globex", "")],
    ),
    "2/form-line-phone": F(
        "2",
        "reinforcement",
        ["My phone number is {A}.", "You can reach me on {A}."],
        ["Phone: {A}", "Mobile: {A}", "Tel: {A}"],
        [("07700 900123", "")],
    ),
    "2/control-other-value": F(
        "2",
        "kept",
        ["I have a {A} allergy."],
        ["{B} give me a rash.", "I get hives from {B}."],
        [("peanuts", "strawberries")],
    ),
    # -- class 3 (written before any rule was tuned on generated class 3 stories) ----------------
    "3/synonym": F(
        "3",
        "update",
        ["My number is {A}.", "Call me on {A}."],
        ["My contact number is {B}.", "Reach me on {B} from now on.", "Cell: {B}"],
        [("07700 900123", "07700 900789")],
        keys=[("user.telephone", "user.contact_number"), ("profile.mobile", "user.cell_phone_number")],
    ),
    "3/qualified-head": F(
        "3",
        "update",
        ["{A} is my manager.", "I report to {A}."],
        ["My line manager is now {B}.", "{B} took over as my boss."],
        [("Dana", "Priya"), ("Tom", "Aisha")],
        keys=[("user.manager", "work.reporting_line_manager"), ("user.supervisor", "employment.boss")],
    ),
    "3/longer-key": F(
        "3",
        "update",
        ["I work at {A}.", "My employer is {A}."],
        ["I've joined {B}.", "My employer is {B} now."],
        [("Initech", "Globex")],
        keys=[("user.employer", "user.employer_name"), ("user.workplace", "work.current_workplace")],
    ),
    "3/longer-key-city": F(
        "3",
        "update",
        ["I live in {A}."],
        ["I moved to {B}.", "I'm living in {B} now."],
        [("York", "Leeds")],
        keys=[("user.city", "user.city_of_residence"), ("user.home", "user.home_location")],
    ),
    "3/denial-other-key": F(
        "3",
        "correction",
        ["I work at {A}."],
        ["I don't work at {A}.", "{A} is not my employer."],
        [("Initech", "")],
        keys=[("user.employer", "work.company")],
    ),
    "3/same-value-other-key": F(
        "3",
        "reinforcement",
        ["My email is {A}."],
        ["Email: {A}", "You can write to me at {A}."],
        [("sam@old.org", "")],
        keys=[("user.email", "contact.email_address")],
    ),
    "3/safety-holder-key": F(
        "3",
        "kept",
        ["My email is {A}."],
        ["My partner's email is {B}."],
        [("sam@old.org", "alex@new.io")],
        keys=[("user.email", "user.partner.email")],
    ),
    "3/safety-other-attribute": F(
        "3",
        "kept",
        ["My phone number is {A}."],
        ["My account number is {B}."],
        [("07700 900123", "40440212")],
        keys=[("user.phone", "user.account_number")],
    ),
    # -- class 5 (written before any rule was tuned on generated class 5 stories) ----------------
    "5/echo": F(
        "5",
        "denial",
        ["I'm based in {A}.", "Sam lives in {A}.", "My home is in {A}."],
        [
            "{A}? Never lived there, I just visited.",
            "{A}? Not really, I was only there for work.",
            "Live in {A}? No, that was just a trip.",
        ],
        [("Lisbon", ""), ("Berlin", "")],
    ),
    "5/echo-employer": F(
        "5",
        "denial",
        ["I work at {A}.", "My employer is {A}."],
        ["{A}? No, I only did a short contract there.", "Working at {A}? I was never employed there."],
        [("Globex", "")],
    ),
    "5/own-keyed": F(
        "5",
        "correction",
        ["My partner is {A}.", "I'm married to {A}."],
        ["{A} is not my partner.", "I'm not with {A}.", "That's wrong, I'm not married to {A}."],
        [("Alex", "")],
        keys=[("user.partner", "user.partner")],
    ),
    "5/own-keyed-employer": F(
        "5",
        "correction",
        ["I work at {A}."],
        ["I don't work at {A}.", "It's not true that I work at {A}."],
        [("Initech", "")],
        keys=[("user.employer", "user.employer")],
    ),
    "5/other-denial": F(
        "5",
        "denial",
        ["The office is in {A}.", "Our office is located in {A}."],
        ["The office is not in {A}.", "Our office isn't in {A}."],
        [("Leeds", "")],
        keys=[("org.office_city", "org.office_city")],
        who="agents",
    ),
    "5/control-echo-other": F(
        "5",
        "kept",
        ["I'm based in {A}."],
        ["{B}? I was only there for work.", "{B}? No, just a weekend trip."],
        [("Lisbon", "Porto")],
    ),
}

#: Class 4 again, written after the first held-out half had been read three times (so it no
#: longer measured anything unseen), before any further rule for class 4: measured, not tuned on.
HELD_OUT_NEW: dict[str, Family] = {
    "4/home-words": F(
        "4",
        "update",
        ["I live in {A}.", "My home is in {A}.", "The user lives in {A}."],
        [
            "I've made {B} my home.",
            "Home these days is {B}.",
            "The user now resides in {B}.",
            "{B} is where I live now.",
            "I call {B} home now.",
            "I rent a flat in {B} now.",
        ],
        [("Bath", "Leeds"), ("Lyon", "Nice")],
    ),
    "4/employer-moves": F(
        "4",
        "update",
        ["I work at {A}.", "I'm employed at {A}."],
        [
            "I left {A} for {B}.",
            "I've switched jobs, I'm at {B} now.",
            "I started at {B} last week.",
            "I work for {B} now.",
        ],
        [("Initech", "Globex")],
    ),
    "4/phone-new": F(
        "4",
        "update",
        ["My mobile is {A}.", "My phone number is {A}."],
        ["New number: {B}", "I've changed my number to {B}.", "My number changed to {B}."],
        [("07700 900123", "07700 900999")],
    ),
    "4/partner-new": F(
        "4",
        "update",
        ["I'm dating {A}.", "My girlfriend is {A}."],
        ["I'm seeing {B} these days.", "My girlfriend is now {B}."],
        [("Maya", "Chloe")],
    ),
    "4/safety-home": F(
        "4",
        "kept",
        ["I live in {A}.", "My home is in {A}."],
        ["My parents now live in {B}.", "I grew up in {B}.", "We spent last summer in {B}."],
        [("Bath", "Leeds")],
    ),
    "4/safety-employer": F(
        "4",
        "kept",
        ["I work at {A}."],
        ["My wife just joined {B}.", "I interned at {B} years ago."],
        [("Initech", "Globex")],
    ),
}

#: Class 4 a third time, written in session 30 after the second half had been read, before any
#: further rule for class 4: other homes said in other words, other attributes, other safety
#: cases. Measured, not tuned on.
HELD_OUT_THIRD: dict[str, Family] = {
    "4/home-phrases": F(
        "4",
        "update",
        ["I live in {A}.", "I'm based in {A}."],
        [
            "I've put down roots in {B}.",
            "{B} is home for me now.",
            "We've set up home in {B}.",
            "I'm a {B} local these days.",
            "I've got a flat in {B} now and live there.",
            "I'm living over in {B} now.",
            "I've been living in {B} since March.",
        ],
        [("Derby", "Exeter"), ("Turin", "Milan")],
    ),
    "4/school": F(
        "4",
        "update",
        ["I study at {A}.", "I'm a student at {A}."],
        ["I've transferred to {B}.", "These days I study at {B}.", "My new university is {B}."],
        [("UCL", "Durham")],
    ),
    "4/bank": F(
        "4",
        "update",
        ["I bank with {A}.", "My bank is {A}."],
        ["I've moved my money to {B}.", "My bank these days is {B}.", "I'm with {B} for banking now."],
        [("Monzo", "Starling")],
    ),
    "4/employer-offer": F(
        "4",
        "update",
        ["I work at {A}.", "My employer is {A}."],
        [
            "{B} hired me last month.",
            "I now work for {B}.",
            "I've gone to work for {B}.",
            "I accepted an offer from {B} and started on Monday.",
        ],
        [("Initech", "Umbrella")],
    ),
    "4/safety-third": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "I'm visiting {B} now.",
            "My cousin has settled in {B}.",
            "I was born in {B}.",
            "I might move to {B} next year.",
            "Should I move to {B}?",
        ],
        [("Derby", "Exeter")],
    ),
}

#: Class 4 a fourth time, written in session 32 before any rule of that session: attributes
#: no family has named (hairdresser, GP, energy supplier, mobile network, accountant), homes
#: and employers in words no family has used, and the kept side: other holders, hedges,
#: past values, questions and other attributes in the same frames. Measured, not tuned on.
HELD_OUT_FOURTH: dict[str, Family] = {
    "4/hairdresser": F(
        "4",
        "update",
        ["My hairdresser is {A}.", "I get my hair cut at {A}."],
        [
            "I get my hair cut at {B} now.",
            "My new hairdresser is {B}.",
            "These days {B} does my hair.",
            "I've started going to {B} for haircuts.",
        ],
        [("Salon Rouge", "Cutting Room")],
    ),
    "4/gp": F(
        "4",
        "update",
        ["My GP is {A}.", "I'm registered with {A}."],
        ["I'm registered with {B} now.", "My new GP is {B}.", "I've changed my GP to {B}."],
        [("Dr Patel", "Dr Evans")],
    ),
    "4/energy": F(
        "4",
        "update",
        ["My energy supplier is {A}.", "I get my electricity from {A}."],
        [
            "I get my electricity from {B} now.",
            "I've switched energy supplier to {B}.",
            "My gas and electricity come from {B} these days.",
            "My new energy company is {B}.",
        ],
        [("Octopus", "EDF")],
    ),
    "4/mobile-network": F(
        "4",
        "update",
        ["My mobile network is {A}.", "My phone contract is with {A}."],
        ["I've moved my phone contract to {B}.", "My new network is {B}.", "These days my phone is with {B}."],
        [("O2", "Three")],
    ),
    "4/accountant": F(
        "4",
        "update",
        ["My accountant is {A}.", "{A} does my taxes."],
        ["{B} does my taxes now.", "My new accountant is {B}.", "These days my tax return is done by {B}."],
        [("Jane Moss", "Tom Reid")],
    ),
    "4/home-fourth": F(
        "4",
        "update",
        ["I live in {A}.", "Home is {A}."],
        [
            "I've relocated to {B}.",
            "I'm a resident of {B} now.",
            "These days I call {B} home.",
            "We bought a house in {B} and moved in last week.",
        ],
        [("Bath", "Norwich")],
    ),
    "4/employer-fourth": F(
        "4",
        "update",
        ["I work at {A}.", "I'm employed by {A}."],
        [
            "I'm on the payroll at {B} now.",
            "I joined {B} in May.",
            "I've started a new job at {B}.",
            "These days I'm employed by {B}.",
        ],
        [("Acme", "Hooli")],
    ),
    "4/safety-fourth-services": F(
        "4",
        "kept",
        ["My hairdresser is {A}.", "I get my electricity from {A}."],
        [
            "My mum gets her hair cut at {B} now.",
            "I'm thinking of switching to {B}.",
            "I used to go to {B}.",
            "Is {B} any good?",
            "My new dentist is {B}.",
        ],
        [("Northgate", "Riverside")],
    ),
    "4/safety-fourth-home": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "My office is in {B} now.",
            "I'm staying in {B} for the weekend.",
            "My daughter lives in {B} now.",
            "I grew up in {B}.",
            "We're considering moving to {B}.",
        ],
        [("Bath", "Norwich")],
    ),
}

#: every family whose stories have been read: the tuning half, and class 4's third and fourth
#: halves, whose misses were printed in session 33 (tuning since: the exemplars take their
#: templates, scripts/meaning_exemplars.py); belief_stories_fifth.HELD_OUT_FIFTH is the held-out one
READ: dict[str, Family] = {**TUNING, **HELD_OUT_THIRD, **HELD_OUT_FOURTH}

#: tuning families added in session 30 for attributes no label names: the held sentence is the
#: new one's only example (meaning_roles.slot_readings). Session 32 read one role in another
#: frame too ("I see X for my teeth" / "My new dentist is Y": meaning_roles); what stays open
#: (kept beside the old fact, the safe side): "I take the dog to X" / "We've switched vets to Y"
OPEN_TUNING_FAMILIES = {"4/vet": 1}

#: an allergy pair's two ordered sentences must not swap (the effect first, then the name)
REVERSED = {"2/allergy-effect", "2/intolerance", "2/trait", "2/form-line", "2/form-line-phone", "2/date-verb"}


@dataclass(frozen=True)
class Story:
    cls: str
    family: str
    held: str
    said: str
    expected: str
    owner: str = "user:sam"
    held_key: str | None = None
    said_key: str | None = None
    who: str = "self"


def _cap(s: str) -> str:
    return s[0].upper() + s[1:] if s else s


def stories(families: dict[str, Family]) -> Iterator[Story]:
    """Every story of the families (reversed too where the order does not matter)."""
    seen = set()
    for name, fam in families.items():
        for h, s, (a, b), (hk, sk) in itertools.product(fam.held, fam.said, fam.values, fam.keys):
            pairs = [(_cap(h.format(A=a, B=b)), _cap(s.format(A=a, B=b)))]
            if name in REVERSED:
                pairs.append(pairs[0][::-1])
            for held, said in pairs:
                if (held, said, hk, sk) not in seen:
                    seen.add((held, said, hk, sk))
                    yield Story(fam.cls, name, held, said, fam.expected, fam.owner, hk, sk, fam.who)


#: attributes whose families name one thing in other words (a family's attribute is its name's first word)
SAME_ATTRIBUTE = (
    {"home", "address"},
    {"employer", "job"},
    {"phone", "handset", "mobile"},
    {"school", "child"},
    {"gp", "doctor"},
    {"broadband", "internet"},
)


def cross_attribute_stories(halves: Sequence[dict[str, Family]], *, first_held_only: bool = True) -> Iterator[Story]:
    """A statement of one attribute said after a fact of another: every update family's new
    sentences (those not naming the held value) after every other attribute's held ones. Each
    must leave the held fact as it is (``kept``): "I've switched energy supplier to EDF" is no
    new employer, "I'm seeing Chloe these days" none either."""

    def attribute(name: str) -> str:
        return name.split("/")[1].split("-")[0]

    def same(a: str, b: str) -> bool:
        return a == b or any(a in g and b in g for g in SAME_ATTRIBUTE)

    updates = {n: f for half in halves for n, f in half.items() if f.cls == "4" and f.expected == "update"}
    updates = {n: f for n, f in updates.items() if f.keys == ((None, None),)}
    for (held_name, held_fam), (said_name, said_fam) in itertools.permutations(updates.items(), 2):
        if same(attribute(held_name), attribute(said_name)):
            continue
        a, b = held_fam.values[0][0], said_fam.values[0][1]
        for h in held_fam.held[:1] if first_held_only else held_fam.held:
            for t in (t for t in said_fam.said if "{A}" not in t):
                held, said = _cap(h.format(A=a, B=b)), _cap(t.format(A=a, B=b))
                yield Story("4", f"{held_name}>{said_name}", held, said, "kept", held_fam.owner)


def verdict(relation: str, polarity: str) -> str:
    """What a relation does to the held fact, in the stories' terms."""
    if relation == "update":
        return "update"
    if relation == "reinforcement":
        return "reinforcement"
    if relation == "denial":
        return "denial"
    return "kept"  # a denial of something else (or nothing held) leaves the held fact as it is


def judged(story: Story) -> str:
    """What the pure rules make of a story. A keyed story follows the write path's key rules
    (:func:`belief_rules.keys_close` with no embedding similarity, so a lower bound; or a new
    value of the one named attribute), then its polarity and relation; keyless, the relation."""
    from langmem_es.core import belief_rules
    from langmem_es.model import Memory

    pol = belief_rules.polarity(story.said)
    owner = story.owner if story.who == "self" else "agent:planner"
    rel = belief_rules._relation(story.held, owner, "assert", story.said, owner, pol)
    if story.said_key is None:
        return verdict(rel, pol)
    if pol == "assert" and rel == "denial":
        pol = "deny"  # the write path reads a negation of a held fact as its denial (negates_held)
    common = {"kind": "semantic", "scope": "private", "tenant": "t", "owner": owner, "written_at": _NOW}
    old = Memory(id="held", content=story.held, subject_key=story.held_key, **common)
    new = Memory(id="said", content=story.said, subject_key=story.said_key, polarity=pol, **common)
    related = rel in ("update", "reinforcement", "denial")
    one = (
        story.said_key == story.held_key
        or (related and belief_rules.keys_close(story.said_key, story.held_key or "", 0.0, 0.6))
        or belief_rules.keyed_by_head(old, new)
    )
    if not one and not (
        rel == "update"
        and belief_rules.one_attribute(old, new)
        and belief_rules.same_key_ids(story.said_key, story.held_key)
    ):
        return "kept"  # another key: the held fact stays as it is
    if pol == "deny":
        return "correction" if story.who == "self" else "denial"
    if rel == "reinforcement":
        return "reinforcement"
    if belief_rules.another_fact_under_key([old], new):
        return "kept"
    return "update"


_NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


def shares(families: dict[str, Family], by: str = "cls") -> dict[str, tuple[float, int]]:
    tally: dict[str, list[bool]] = {}
    for st in stories(families):
        tally.setdefault(getattr(st, by), []).append(judged(st) == st.expected)
    return {k: (sum(v) / len(v), len(v)) for k, v in tally.items()}


def misses(families: dict[str, Family]) -> list[tuple[Story, str]]:
    return [(st, got) for st in stories(families) for got in [judged(st)] if got != st.expected]


def sample(families: dict[str, Family], per_family: int = 2) -> list[Story]:
    """``per_family`` stories of every family, spread over its stories."""
    by_family: dict[str, list[Story]] = {}
    for s in stories(families):
        by_family.setdefault(s.family, []).append(s)
    return [s for group in by_family.values() for s in group[:: max(1, len(group) // per_family)][:per_family]]


WHY = "Answers about the user depend on it."


def play(
    core, story: Story, tenant: str | None = None, *, check_recall: bool = True, unsure: list[bool] | None = None
) -> str:  # type: ignore[no-untyped-def]
    """The story through the write path (``remember``, then ``get`` and ``recall``): what the
    second write did to the first fact, in the stories' terms. ``unsure`` receives whether the
    second write said it was unsure (both kept; the second names the first as one it may replace)."""
    import uuid

    from langmem_es.model import Identity

    tenant = tenant or f"t-{uuid.uuid4().hex[:8]}"
    if story.who == "agents":
        first, second = Identity(tenant=tenant, agent_id="planner"), Identity(tenant=tenant, agent_id="researcher")
        scope = "shared"
    else:
        first = second = Identity(tenant=tenant, user_id=story.owner.split(":", 1)[1], agent_id="assistant")
        scope = "private"
    held = core.remember(first, story.held, reason=WHY, subject_key=story.held_key, scope=scope)
    said = core.remember(second, story.said, reason=WHY, subject_key=story.said_key, scope=scope)
    if unsure is not None:
        unsure.append(bool(said.unsure))
    status = core.get(first, held.id).status
    if said.action == "reinforced":
        return "reinforcement"
    if status == "superseded":
        if said.memory is not None and said.memory.polarity == "deny":
            return "correction"
        if check_recall:
            recalled = [m.memory.content for m in core.recall(first, story.said, kinds=["semantic"]).memories]
            assert story.held not in recalled and story.said in recalled  # the current fact; the old one in history
        return "update"
    if said.action == "pending_denial" and said.memory is not None and held.id in said.memory.supersedes:
        return "denial"
    return "kept"


def _es_core():  # type: ignore[no-untyped-def]
    """A memory core on the Elasticsearch of ``LANGMEM_ES_URL`` (or the local ``langmem-es es start``
    cluster), in indices of its own; ``(core, drop)``."""
    import uuid

    from langmem_es.backends.elasticsearch import ElasticsearchBackend
    from langmem_es.core import MemoryCore, Policy
    from langmem_es.settings import require_connection

    backend = ElasticsearchBackend(require_connection().client(), prefix=f"gen-{uuid.uuid4().hex[:8]}")
    backend.setup()
    return MemoryCore(backend, rules=Policy(shared_writers={"*"})), backend.drop


def _sqlite_core():  # type: ignore[no-untyped-def]
    import uuid

    from langmem_es.backends.sqlite import SQLiteBackend
    from langmem_es.core import MemoryCore, Policy

    backend = SQLiteBackend(":memory:", prefix=f"gen_{uuid.uuid4().hex[:8]}")
    backend.setup()
    return MemoryCore(backend, rules=Policy(shared_writers={"*"}))


HALVES = (
    ("tuning", "TUNING"),
    ("held-out", "HELD_OUT"),
    ("held-out new", "HELD_OUT_NEW"),
    ("held-out 3rd", "HELD_OUT_THIRD"),
    ("held-out 4th", "HELD_OUT_FOURTH"),
    ("held-out 5th", "HELD_OUT_FIFTH"),
    ("held-out 6th", "HELD_OUT_SIXTH"),
    ("held-out 7th", "HELD_OUT_SEVENTH"),
    ("held-out 8th", "HELD_OUT_EIGHTH"),
)


#: halves that live in modules of their own (they import this one): name -> module
_OWN_MODULES = {
    "HELD_OUT_FIFTH": "tests.unit.belief_stories_fifth",
    "HELD_OUT_SIXTH": "tests.unit.belief_stories_sixth",
    "HELD_OUT_SEVENTH": "tests.unit.belief_stories_seventh",
    "HELD_OUT_EIGHTH": "tests.unit.belief_stories_eighth",
}


def half(name: str) -> dict[str, Family]:
    """A half by its name in :data:`HALVES`."""
    if name in _OWN_MODULES:
        families: dict[str, Family] = getattr(importlib.import_module(_OWN_MODULES[name]), name)
        return families
    return dict(globals()[name])


if __name__ == "__main__":
    import sys

    halves = [(label, half(name)) for label, name in HALVES]
    for label, fams in halves:
        for k, (share, n) in sorted(shares(fams, "cls").items()):
            print(f"{label:12s} class {k}: {share:.3f} of {n}  (pure: the rules and the learned reading)")
        if "--families" in sys.argv:
            for k, (share, n) in sorted(shares(fams, "family").items()):
                print(f"{label:12s}   {k:28s} {share:.3f} of {n}")
    played = [("SQLite", _sqlite_core, None)] if "--sqlite" in sys.argv else []
    if "--elasticsearch" in sys.argv:  # the same on Elasticsearch (LANGMEM_ES_URL or `langmem-es es start`)
        es, drop = _es_core()
        played.append(("Elasticsearch", lambda: es, drop))
    for backend_name, make, drop in played:  # two stories a family through remember (--all: every story)
        core = make()
        for label, fams in halves:
            tally: dict[str, list[bool]] = {}
            kept_unsure: dict[str, list[bool]] = {}  # --unsure: per wanted outcome, kept and said unsure?
            for st in stories(fams) if "--all" in sys.argv else sample(fams):
                flag: list[bool] = []
                got = play(core, st, check_recall=False, unsure=flag)
                tally.setdefault(st.cls, []).append(got == st.expected)
                if got == "kept" and st.cls == "4":
                    kept_unsure.setdefault(st.expected, []).append(flag[0])
                if got != st.expected and label == "tuning" and "--misses" in sys.argv:
                    print(f"  {backend_name} miss {st.family}: {st.held!r} -> {st.said!r}: {got} (want {st.expected})")
            for k, v in sorted(tally.items()):
                print(f"{label:12s} class {k}: {sum(v) / len(v):.3f} of {len(v)}  (through remember, {backend_name})")
            if "--unsure" in sys.argv:  # the class 4 stories kept both: how many said unsure
                for want, flags in sorted(kept_unsure.items()):
                    print(f"{label:12s} class 4 kept, want {want}: {sum(flags)} of {len(flags)} said unsure")
        if drop is not None:
            drop()
    if "--misses" in sys.argv:  # the tuning half's misses only: the held-out halves are not tuned on
        for st, got in misses(TUNING):
            print(
                f"{st.family}: {st.held!r} -> {st.said!r} [{st.held_key} -> {st.said_key}]: {got} (want {st.expected})"
            )
