"""The ninth held-out half for class 4 (issue 45): keyless updates in new words, and the kept
cases beside them.

Written by someone who had not read the rules, after session 33's last change; measured once at
the session's end, never tuned on. Half the update families name the attributes people most
often tell an assistant (home, street address, employer, job title, manager, partner, phone
number, email address, car); the other half name everyday attributes no earlier half names
(the name one goes by, one's weight, a weekly day off, the garage that services the car, a
coworking space, a financial adviser, a usual coffee order, a child's tutor). The shapes are
the way people type to an assistant: short, lowercase, chatty ("btw", "fyi", "quick update:"),
with emoji, a request or a second, unrelated matter in the same message, a form-like line, and
the new value with only a time marker. The kept families leave the held fact current: a move or
a job not yet begun, a house-sit, a headhunter turned down, a festival burner phone and an
on-call phone, a stand-in manager and a mentor, a car on order and a sister's car, a junk email
address, a goal weight and another holder's weight, the full name on a passport.
"""

from __future__ import annotations

from tests.unit.belief_stories import F, Family

HELD_OUT_NINTH: dict[str, Family] = {
    # -- update, common attributes in chatty shapes ----------------------------------------------------
    "4/home-ninth": F(
        "4",
        "update",
        ["I live in {A}.", "I'm based in {A}."],
        [
            "btw we're in {B} now, the move finally happened last weekend",
            "quick update: said goodbye to {A} for good, the new flat's in {B}. also can you remind me to"
            " cancel the old council tax?",
            "been in {B} since the 3rd and i'm still unpacking boxes",
            "fyi {B} is treating me well so far haha, moved up in october",
        ],
        [("Nottingham", "Edinburgh")],
    ),
    "4/address-ninth": F(
        "4",
        "update",
        ["My address is {A}."],
        [
            "can you change my address to {B}? we moved in on friday",
            "got the keys to {B} and handed back the old ones, so that's where we live now",
            "address change: {B} (don't send anything to {A} any more)",
        ],
        [("22 Hawthorn Close, Bath", "9 Quarry Road, Bath")],
    ),
    "4/employer-ninth": F(
        "4",
        "update",
        ["I work at {A}."],
        [
            "first week at {B} done!! so much nicer than {A}",
            "quick profile update — employer's {B} now, i left {A} in the summer",
            "new job!! {B}, started tuesday. any tips for surviving the first month?",
            "handed back my {A} laptop and badge last friday; {B} onboarding all this week",
        ],
        [("Arup", "Atkins")],
    ),
    "4/job-title-ninth": F(
        "4",
        "update",
        ["I'm a {A}."],
        [
            "they bumped me up to {B} at my review today 🎉",
            "fyi my title's {B} now, pay rise and everything",
            "{B} since april, though honestly the work's much the same lol",
            "can you put {B} instead of {A} on my cv? that's my actual title now",
        ],
        [("junior developer", "senior developer")],
    ),
    "4/manager-ninth": F(
        "4",
        "update",
        ["My manager is {A}."],
        [
            "had my first 1:1 with {B} today, he's my manager now that {A} has gone to the Dublin office",
            "reorg happened. new boss = {B}.",
            "{B} is who i report into these days, {A}'s moved on",
        ],
        [("Siobhan", "Tariq")],
    ),
    "4/partner-ninth": F(
        "4",
        "update",
        ["I'm seeing {A}."],
        [
            "so {A} is officially my ex. {B} and i made it official last night 🥰",
            "my new boyfriend {B} says hi lol",
            "relationship status: {B}. {A} is history",
        ],
        [("Jamie", "Connor")],
    ),
    "4/phone-ninth": F(
        "4",
        "update",
        ["My number is {A}."],
        [
            "got a new number because of all the spam calls: {B}. save it!",
            "{B} is my mobile now, the {A} sim is in the bin",
            "can you update my contact number to {B}? switched sims last night",
        ],
        [("07700 900273", "07700 900518")],
    ),
    "4/email-ninth": F(
        "4",
        "update",
        ["My email is {A}."],
        [
            "finally off hotmail — i'm {B} from now on",
            "pls use {B} for emails, i've stopped logging into {A}",
            "fyi new email: {B}. also can you draft a note to Kate about friday's meeting?",
        ],
        [("sam.hart@hotmail.co.uk", "samhart.design@gmail.com")],
    ),
    "4/car-ninth": F(
        "4",
        "update",
        ["I drive a {A}."],
        [
            "sold the {A} on autotrader and picked up a {B} the same day",
            "loving the {B} so far, way better on fuel than the old {A}",
            "car update: it's a {B} now, the {A} finally died on the M6",
        ],
        [("Ford Focus", "Toyota Corolla")],
    ),
    # -- update, everyday attributes no earlier half names ---------------------------------------------
    "4/preferred-name-ninth": F(
        "4",
        "update",
        ["Please call me {A}."],
        [
            "actually can you call me {B} from now on? i've gone off {A}",
            "i'm going by {B} these days, feels more grown up",
            "new year, new name — {B} please, not {A}",
        ],
        [("Jess", "Jessica")],
    ),
    "4/weight-ninth": F(
        "4",
        "update",
        ["I weigh {A}."],
        [
            "weigh-in this morning: {B}! down from {A} 💪",
            "i'm {B} now, the running's really paying off",
            "scales said {B} today, lowest i've been in years",
        ],
        [("92 kg", "84 kg")],
    ),
    "4/day-off-ninth": F(
        "4",
        "update",
        ["My day off is {A}."],
        [
            "rota's changed, i'm off on {B}s now instead of {A}s",
            "they've swapped my day off to {B}, starting this week",
            "{B} is my free day now so let's plan stuff around that",
        ],
        [("Wednesday", "Monday")],
    ),
    "4/mechanic-ninth": F(
        "4",
        "update",
        ["I take the car to {A} for servicing."],
        [
            "found a new garage, {B}. cheaper than {A} and they actually explain stuff",
            "booked the service at {B} — that's where the car goes now",
            "the car's looked after by {B} these days",
        ],
        [("Kwik Fit", "Halfords Autocentre")],
    ),
    "4/coworking-ninth": F(
        "4",
        "update",
        ["My coworking space is {A}."],
        [
            "cancelled my desk at {A} and got a hot desk at {B} instead",
            "i've moved my desk to {B}, the coffee is way better",
            "new coworking spot from this month: {B}",
        ],
        [("WeWork Aldgate", "Second Home Spitalfields")],
    ),
    "4/financial-adviser-ninth": F(
        "4",
        "update",
        ["My financial adviser is {A}."],
        [
            "{B} inherited my portfolio when {A} retired",
            "i'm with {B} for financial advice now, {A} never returned my calls",
            "had my first review with {B}, my new adviser. feeling much better about the pension",
        ],
        [("Martin Shaw", "Nadia Rahman")],
    ),
    "4/coffee-ninth": F(
        "4",
        "update",
        ["My usual coffee order is a {A}."],
        [
            "gone off dairy, so it's an {B} for me these days",
            "new usual: {B} ☕",
            "if you're ordering for me, make it an {B} now, not a {A}",
        ],
        [("flat white", "oat cortado")],
    ),
    "4/tutor-ninth": F(
        "4",
        "update",
        ["Our son's maths tutor is {A}."],
        [
            "{A} couldn't fit him in any more so {B} tutors him now",
            "maths tutoring for our boy is with {B} now — started last week",
            "swapped tutors: {B} on tuesdays from now on",
        ],
        [("Mr Bell", "Priya Nair")],
    ),
    # -- kept: the held fact stays current -------------------------------------------------------------
    # a move not yet made, a house-sit, a flat still for sale
    "4/safety-ninth-home-not-yet": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "we exchange on a place in {B} next month, fingers crossed",
            "house-sitting for my aunt in {B} till the 20th, then back home",
            "our flat in {A} is on the market; hoping to be in {B} by spring",
        ],
        [("Nottingham", "Edinburgh")],
    ),
    # a job signed for but not begun, a headhunter turned down, a recruiter's chat
    "4/safety-ninth-employer-notice": F(
        "4",
        "kept",
        ["I work at {A}."],
        [
            "signed with {B} today!! start date's 1 april, so two more months at {A}",
            "{B} headhunted me again, told them i'm happy where i am",
            "had a good chat with a recruiter from {B}, nothing's decided though",
        ],
        [("Arup", "Atkins")],
    ),
    # a burner for a weekend, an on-call phone, an old business card
    "4/safety-ninth-phone-temporary": F(
        "4",
        "kept",
        ["My number is {A}."],
        [
            "got a cheap burner for the festival, {B}, just for this weekend",
            "work gave me an on-call phone, {B}; my own number hasn't changed",
            "{B} is the number on my old business cards, ignore it",
        ],
        [("07700 900273", "07700 900604")],
    ),
    # a stand-in while the manager is away, a reorg not confirmed, a mentor
    "4/safety-ninth-manager-cover": F(
        "4",
        "kept",
        ["My manager is {A}."],
        [
            "{B} is covering for {A} while she's off for a fortnight",
            "{B} will be my boss if the reorg goes ahead, but nothing's confirmed",
            "{B} is my mentor, separate from my line manager",
        ],
        [("Siobhan", "Tariq")],
    ),
    # a car on order, a sister's car while mine is off the road, a question about the next one
    "4/safety-ninth-car-pending": F(
        "4",
        "kept",
        ["I drive a {A}."],
        [
            "put a deposit down on a {B}, delivery's not till september",
            "the {A}'s off the road till next week, so i'm cadging lifts in my sister's {B}",
            "{B} or Honda Civic for my next car? the {A} is on its last legs",
        ],
        [("Ford Focus", "Toyota Corolla")],
    ),
    # a second address for junk and sign-ups only
    "4/safety-ninth-email-alias": F(
        "4",
        "kept",
        ["My email is {A}."],
        [
            "i made {B} just for shopping sign-ups, keep using {A} for everything else",
            "all the spam goes to {B}, it's my junk address, don't use it for anything real",
            "set up {B} for the kids' school newsletters only",
        ],
        [("sam.hart@hotmail.co.uk", "samhart.offers@gmail.com")],
    ),
    # a goal, a past weight, another holder
    "4/safety-ninth-weight-others": F(
        "4",
        "kept",
        ["I weigh {A}."],
        [
            "goal weight: {B} by the summer!",
            "i was {B} before lockdown, sigh",
            "my husband's {B} now, he's smashing it",
        ],
        [("92 kg", "84 kg")],
    ),
    # the full name others use or the passport holds, a niece named after the user
    "4/safety-ninth-name-others": F(
        "4",
        "kept",
        ["Please call me {A}."],
        [
            "my grandma only ever calls me {B}, bless her",
            "{B} is on my passport, but nobody actually uses it",
            "my baby niece is called {B}, after me!",
        ],
        [("Jess", "Jessica")],
    ),
}
