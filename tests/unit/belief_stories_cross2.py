"""A second held-out trap set for the worse class 4 mistake (issue 45): a statement about another
attribute, another person, the past or a non-change that replaces the held fact and so loses it.

Written by someone who had not read the rules; measured once, never tuned on. Every family is
``kept``: the held fact is of one attribute, and each new statement shares words, frames, verbs
or values with it without changing it. The traps, none of them in
:mod:`tests.unit.belief_stories_cross`: the same value for another attribute (a company and a
sports club named like the home city, a partner named like a city, an employer's name in an
email address), relatives' and friends' moves and new jobs, past-tense anecdotes with the
moving verbs, reported speech and advice, a denied or refused employer, work that is no change
of employer (a loan to a client, a conference, an audit, an account, a site), vehicles that are
not one's car (a work van, a test drive, a borrowed car, a taxi, a car club), numbers that are
not one's own mobile (reception at work, a friend's, a school's, a helpline), another person's
email addresses, places that are not one's home (a holiday let, one's parents' house, the
office), managers that are not one's own (a neighbouring team's, one's report, a skip-level
boss, another office's head), other people's relationships and a refused date, a job title
someone else holds or one studies for, and a new handset that keeps the number.
"""

from __future__ import annotations

from tests.unit.belief_stories import F, Family

CROSS_HELD_OUT_2: dict[str, Family] = {
    # -- the home ------------------------------------------------------------------------------------
    # a building society, savings and a rugby club named like a city: no move
    "x2/home-company-named-like-city": F(
        "4",
        "kept",
        ["I live in {A}.", "Home is {A}."],
        [
            "I've just started a job at {B} Building Society.",
            "Our savings account is with {B} Building Society now.",
            "I've become a {B} Rhinos season-ticket holder.",
        ],
        [("York", "Leeds")],
    ),
    # relatives move, not the user
    "x2/home-relatives-moves": F(
        "4",
        "kept",
        ["I live in {A}.", "The user lives in {A}."],
        [
            "My son moved to {B} for his apprenticeship.",
            "My parents have just sold up and moved to {B}.",
            "The user's sister relocated to {B} last month.",
        ],
        [("Cambridge", "Leeds")],
    ),
    # the moving verbs in past anecdotes
    "x2/home-past-anecdotes": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "In 2019 I moved to {B} for a summer to work in a bar.",
            "When I was nine, we moved to {B} for a year because of Dad's job.",
            "I lived in {B} for six months on my placement year, ages ago.",
            "Back in 2015 I relocated to {B} for a few months, then came back home.",
            "The first time I moved out of my parents' place, it was to a bedsit in {B}.",
        ],
        [("Exeter", "Leeds")],
    ),
    # other people's advice and opinions about moving
    "x2/home-reported-speech": F(
        "4",
        "kept",
        ["I'm based in {A}.", "I live in {A}."],
        [
            "My boss said I should move to {B} to be nearer head office.",
            "Everyone keeps telling me I'd love living in {B}.",
            "My mum thinks we ought to relocate to {B} to be closer to her.",
        ],
        [("Norwich", "Bristol")],
    ),
    # a holiday let, the parents' house, the office
    "x2/home-not-home": F(
        "4",
        "kept",
        ["I live in {A}.", "My home is in {A}."],
        [
            "We've bought a holiday let in {B} to rent out to tourists.",
            "I'm spending Christmas at my parents' house in {B}.",
            "My office is in {B}, half an hour on the train.",
        ],
        [("Reading", "Oxford")],
    ),
    # -- the employer --------------------------------------------------------------------------------
    # relatives and friends get jobs at, or retire from, another company
    "x2/employer-relatives-jobs": F(
        "4",
        "kept",
        ["I work at {A}."],
        [
            "My wife got a job at {B}.",
            "My dad's just retired from {B} after thirty years.",
            "Our eldest has been taken on as an apprentice at {B}.",
            "My flatmate started at {B} on Monday.",
            "{B} just hired my best friend as their new finance director.",
        ],
        [("Norland Insurance", "Globex")],
    ),
    # a refused or denied employer
    "x2/employer-negated": F(
        "4",
        "kept",
        ["I work at {A}.", "I'm employed by {A}."],
        [
            "I'd never work for {B}, whatever they paid me.",
            "I turned down an offer from {B} last week; I'm staying at {A}.",
            "People assume I work for {B}, but I don't.",
        ],
        [("Ardent Health", "Halvorsen Pharma")],
    ),
    # work at or for a client that is no change of employer
    "x2/employer-work-not-a-move": F(
        "4",
        "kept",
        ["I work at {A}."],
        [
            "{A} has loaned me out to {B} for a six-month project, and I'm back in June.",
            "I'm presenting at the {B} supplier conference next week.",
            "I'm auditing {B}'s books this quarter.",
            "I've been put in charge of the {B} account.",
            "I spend most days on site at {B} for a client project.",
        ],
        [("Kestrel Consulting", "Rolls-Royce")],
    ),
    # the employer's name in a personal email address or a product
    "x2/employer-email-domain": F(
        "4",
        "kept",
        ["I work at {A}.", "{A} is my employer."],
        [
            "My new email address is {B}.",
            "Please use {B} for anything personal from now on.",
            "I've started using {A} VPN on my laptop.",
        ],
        [("Proton", "sam.ng@proton.me")],
    ),
    # -- the job title -------------------------------------------------------------------------------
    # a title someone else holds, is hired for, or one studies for
    "x2/job-title-not-mine": F(
        "4",
        "kept",
        ["I'm a {A}.", "My job title is {A}."],
        [
            "I'm interviewing a {B} for our team on Thursday.",
            "My sister has just landed a {B} role.",
            "I'm doing an evening course so I can become a {B} one day.",
        ],
        [("data analyst", "data scientist")],
    ),
    # -- the manager ---------------------------------------------------------------------------------
    # a neighbouring team's manager, one's own report, a skip-level boss, another office's head
    "x2/manager-not-mine": F(
        "4",
        "kept",
        ["My manager is {A}.", "I report to {A}."],
        [
            "{B} is now managing the team next to ours.",
            "I manage {B} now — he joined my team on Monday.",
            "My manager's boss is {B} since the shake-up.",
            "{B}, who runs our London office, is visiting next week.",
        ],
        [("Priya", "Declan")],
    ),
    # -- the partner ---------------------------------------------------------------------------------
    # a partner named like a city: a trip, a namesake, a move together, a puppy's name
    "x2/partner-name-as-place": F(
        "4",
        "kept",
        ["My partner is {A}.", "I'm married to {A}."],
        [
            "We're spending our anniversary in {A} this year.",
            "My new colleague is also called {A}, which gets confusing.",
            "We've just moved to {B}, and {A} loves the new house.",
            "We named our new puppy {B}.",
        ],
        [("Florence", "Chester")],
    ),
    # a friend's engagement, a refused date, a past date, a wedding, a godchild
    "x2/partner-denied-and-others": F(
        "4",
        "kept",
        ["My girlfriend is {A}."],
        [
            "My best mate proposed to {B} last night!",
            "{B} asked me out, but I told her I'm with {A}.",
            "I took {B} to the school prom in 2009.",
            "{A} and I are going to {B}'s wedding in June.",
            "I'm godparent to {B}'s little boy.",
        ],
        [("Chloe", "Ellie")],
    ),
    # -- the phone number ----------------------------------------------------------------------------
    # numbers that are not one's own mobile
    "x2/phone-not-own": F(
        "4",
        "kept",
        ["My mobile number is {A}.", "You can text me on {A}."],
        [
            "If I don't pick up, try the main reception at work on {B}.",
            "Jo's got a new phone, and her number is {B}.",
            "Ring the school on {B} if Amy's ill.",
            "The helpline for my broadband is {B}.",
        ],
        [("07700 900135", "0113 496 0718")],
    ),
    # a new handset keeps the number
    "x2/phone-new-handset": F(
        "4",
        "kept",
        ["My phone number is {A}."],
        [
            "I got a new phone yesterday, a {B}.",
            "My phone's been upgraded to a {B}; same number as before.",
            "The {B} I ordered arrived today, so I've retired my old handset.",
        ],
        [("07700 900482", "Pixel 9")],
    ),
    # -- the email address ---------------------------------------------------------------------------
    # other people's addresses
    "x2/email-others": F(
        "4",
        "kept",
        ["My email is {A}."],
        [
            "Send the invoice to {B}, that's our bookkeeper.",
            "My husband's new email is {B}.",
            "Can you add {B} to my contacts? It's my accountant.",
            "I got a phishing email from {B} this morning.",
            "The club secretary's address is {B}, if you want to join.",
        ],
        [("sam.reid@proton.me", "j.patel@ledgerwise.co.uk")],
    ),
    # -- the car -------------------------------------------------------------------------------------
    # a vehicle driven for work
    "x2/car-work-vehicles": F(
        "4",
        "kept",
        ["My car is a {A}.", "I own a {A}."],
        [
            "At work I drive a {B} all day.",
            "The company has given me a {B} for deliveries.",
            "I'm driving the firm's {B} this week while the usual driver is off.",
            "My new job involves driving a {B} between depots.",
        ],
        [("Honda Jazz", "Ford Transit")],
    ),
    # a test drive, a borrowed car, a taxi, a car club
    "x2/car-test-drive-borrow": F(
        "4",
        "kept",
        ["I drive a {A}."],
        [
            "I test drove a {B} on Saturday, just for fun.",
            "My neighbour let me borrow his {B} to move some furniture.",
            "The taxi that took me to the airport was a {B}.",
            "I booked a {B} through the car club for the afternoon.",
        ],
        [("Mazda 3", "Volvo XC40")],
    ),
}
