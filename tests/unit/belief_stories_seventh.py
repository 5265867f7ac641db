"""The seventh held-out half for class 4 (issue 45): keyless updates in new words, and the kept
cases beside them.

Written by someone who had not read the rules, before any further class 4 rule; measured,
never tuned on. Half the update families name common attributes (home, employer, job title,
manager, partner, phone number, email address, car, doctor, bank); the other half name
attributes no earlier half names (optician, personal trainer, solicitor, pension provider,
music streaming service, cleaner, book club, dog walker, daily newspaper). The shapes are ones
the earlier halves do not use: the value first, the passive, a fronted time phrase, a reason
clause, two clauses the first of which names the old value as over, chatty and elliptical
lines, and an agent's third-person note about the user. The kept families leave the held fact
current: a one-off errand or trip, a conditional plan, another holder, a past value, a
temporary stand-in, a specialist or another account beside the held one, a question, a second
paper bought now and then.
"""

from __future__ import annotations

from tests.unit.belief_stories import F, Family

HELD_OUT_SEVENTH: dict[str, Family] = {
    # -- update, common attributes in new shapes ----------------------------------------------------
    "4/home-seventh": F(
        "4",
        "update",
        ["I live in {A}.", "The user's home is in {A}."],
        [
            "The removal van dropped the last boxes off in {B} on Saturday, so that's home now.",
            "After years of renting in {A}, we've bought a terrace in {B} and moved in.",
            "Because rents in {A} got silly, I moved out to {B} in the spring.",
            "The user moved house to {B} over the summer.",
        ],
        [("Norwich", "Plymouth")],
    ),
    "4/employer-seventh": F(
        "4",
        "update",
        ["I'm employed at {A}."],
        [
            "My last day at {A} was in March; {B} took me on straight after.",
            "{B} offered me more money, so I left {A} and work there now.",
            "Been with {B} about a month now — {A} feels like ages ago.",
            "The user is now on staff at {B}.",
        ],
        [("Brightline Logistics", "Harbour Analytics")],
    ),
    "4/job-title-seventh": F(
        "4",
        "update",
        ["I work as a {A}."],
        [
            "Since May I've been the {B} at the restaurant.",
            "Not a {A} any more: they made me {B}.",
            "{B} — that's my job title since the promotion.",
            "The user was promoted to {B} last month.",
        ],
        [("sous chef", "head chef")],
    ),
    "4/manager-seventh": F(
        "4",
        "update",
        ["My boss is {A}."],
        [
            "I'm managed by {B} now that {A} has retired.",
            "{A} handed our team over to {B}, so he's my boss from this week.",
            "The user's line manager changed to {B} in the restructure.",
        ],
        [("Helen", "Omar")],
    ),
    "4/partner-seventh": F(
        "4",
        "update",
        ["I'm in a relationship with {A}."],
        [
            "{A} and I called it a day in the spring; I've been going out with {B} since June.",
            "{B} moved in with me last month — we've been together ever since {A} and I split.",
            "Because {A} took the job in Canada, we ended things; {B} is my partner now.",
            "The user's current partner is {B}.",
        ],
        [("Priya", "Hannah")],
    ),
    "4/phone-seventh": F(
        "4",
        "update",
        ["You can reach me on {A}."],
        [
            "I lost my phone and couldn't keep the old number, so {B} is my number going forward.",
            "{A} is disconnected — call {B} instead.",
            "The user's mobile number was changed to {B}.",
        ],
        [("07700 900111", "07700 900888")],
    ),
    "4/email-seventh": F(
        "4",
        "update",
        ["My email address is {A}."],
        [
            "My uni account {A} has been shut down, so email me at {B}.",
            "{B} — that's the address to email me at now.",
            "I no longer check {A}; all my mail goes to {B}.",
        ],
        [("s.khan@uni.ac.uk", "samkhan@fastmail.com")],
    ),
    "4/car-seventh": F(
        "4",
        "update",
        ["I drive a {A}."],
        [
            "The {A} was written off in the crash, and the insurance paid for a {B}, which is what I drive now.",
            "Just picked up my {B} from the dealer — the {A} is gone.",
            "The user's car was replaced with a {B} in March.",
        ],
        [("Skoda Octavia", "Tesla Model 3")],
    ),
    "4/doctor-seventh": F(
        "4",
        "update",
        ["My doctor is {A}."],
        [
            "{A} has left the practice, and I've been transferred to {B}.",
            "Whenever I'm ill now, I book in with {B}; she's been my doctor since {A} left.",
            "The user's GP was changed to {B} after the surgery merged.",
        ],
        [("Dr Moore", "Dr Chen")],
    ),
    "4/bank-seventh": F(
        "4",
        "update",
        ["My current account is with {A}."],
        [
            "I closed my {A} account because of the fees; everything is with {B} now.",
            "Since I switched banks last month, my salary goes into my {B} current account.",
            "The user's current account was moved to {B} using the switching service.",
        ],
        [("Barclays", "First Direct")],
    ),
    # -- update, attributes no earlier half names ---------------------------------------------------
    "4/optician-seventh": F(
        "4",
        "update",
        ["I get my eyes tested at {A}."],
        [
            "{B} does my eye tests now; {A} kept losing my records.",
            "After the move, my optician is {B}.",
            "The user switched opticians to {B}.",
        ],
        [("Vision Express", "Specsavers")],
    ),
    "4/personal-trainer-seventh": F(
        "4",
        "update",
        ["My personal trainer is {A}."],
        [
            "{A} went off on maternity leave, so {B} takes my PT sessions now.",
            "PT's with {B} these days.",
            "Three weeks ago I started training with {B} instead of {A}.",
        ],
        [("Jess", "Callum")],
    ),
    "4/solicitor-seventh": F(
        "4",
        "update",
        ["My solicitor is {A}."],
        [
            "{B} handles my legal stuff these days.",
            "Fed up with {A}'s fees, I took my legal work to {B}.",
            "The user has moved their legal work from {A} to {B}.",
        ],
        [("Mr Whitfield", "Ms Osei")],
    ),
    "4/pension-seventh": F(
        "4",
        "update",
        ["My pension is with {A}."],
        [
            "I consolidated my pots and transferred the lot from {A} to {B}.",
            "{B} manages my pension these days.",
            "The user's pension was moved over to {B} last year.",
        ],
        [("Scottish Widows", "Vanguard")],
    ),
    "4/music-streaming-seventh": F(
        "4",
        "update",
        ["I listen to music on {A}."],
        [
            "The price rise at {A} was the last straw, so my music comes from {B} now.",
            "{B} has all my playlists now — I moved them across from {A}.",
            "Music-wise, it's {B} for me now.",
        ],
        [("Spotify", "Apple Music")],
    ),
    "4/cleaner-seventh": F(
        "4",
        "update",
        ["Our cleaner is {A}."],
        [
            "Since January the house has been cleaned by {B}.",
            "We let {A} go and hired {B} to do the cleaning.",
            "{B} does our cleaning now, every Thursday.",
        ],
        [("Mrs Doyle", "Agnieszka")],
    ),
    "4/book-club-seventh": F(
        "4",
        "update",
        ["I'm in the {A} book club."],
        [
            "I quit {A} and joined {B} instead; the books are better.",
            "My book club is {B} now, since {A} folded.",
            "The user switched book clubs to {B}.",
        ],
        [("Riverside Readers", "Chapter & Verse")],
    ),
    "4/dog-walker-seventh": F(
        "4",
        "update",
        ["{A} walks our dog."],
        [
            "The dog is walked by {B} now that {A} has moved away.",
            "Since half term, {B} has been taking Biscuit out at lunchtime instead of {A}.",
            "Dog walker: {B}. {A} stopped doing it.",
        ],
        [("Kieran", "Paws & Go")],
    ),
    "4/newspaper-seventh": F(
        "4",
        "update",
        ["I read the {A} every morning."],
        [
            "I cancelled the {A} and get the {B} delivered instead.",
            "The {B} is my daily paper now.",
            "Ever since the election coverage, I've been reading the {B} instead of the {A}.",
        ],
        [("Guardian", "Times")],
    ),
    # -- kept: the held fact stays current ----------------------------------------------------------
    # a one-off errand, another holder, a conditional plan
    "4/safety-seventh-home-errand": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "We drove to {B} to pick up a sofa.",
            "My son's uni halls are in {B}.",
            "If the job comes through, we'll move to {B}.",
        ],
        [("Norwich", "Plymouth")],
    ),
    # a client, another holder, a past contract
    "4/safety-seventh-employer-client": F(
        "4",
        "kept",
        ["I'm employed at {A}."],
        [
            "{B} has just signed a contract with us.",
            "My husband starts at {B} in May.",
            "I did a short contract at {B} before I joined {A}.",
        ],
        [("Brightline Logistics", "Harbour Analytics")],
    ),
    # another holder, a past crush, a friend
    "4/safety-seventh-partner-others": F(
        "4",
        "kept",
        ["I'm in a relationship with {A}."],
        [
            "My brother's new girlfriend is {B}.",
            "I had a crush on {B} at school.",
            "{B} is my best friend from work.",
        ],
        [("Priya", "Hannah")],
    ),
    # another line, another holder, a past number
    "4/safety-seventh-phone-lines": F(
        "4",
        "kept",
        ["You can reach me on {A}."],
        [
            "The office switchboard is {B}.",
            "My daughter's number is {B}, in case of emergency.",
            "{B} was my number back when I lived in Leeds.",
        ],
        [("07700 900111", "07700 900888")],
    ),
    # a courtesy car, a hire car, another holder's wish
    "4/safety-seventh-car-temporary": F(
        "4",
        "kept",
        ["I drive a {A}."],
        [
            "The garage lent me a {B} while the {A} is in for repairs.",
            "We hired a {B} for the trip to Cornwall.",
            "My wife has her eye on a {B}.",
        ],
        [("Skoda Octavia", "Tesla Model 3")],
    ),
    # a specialist, a consultant, another holder
    "4/safety-seventh-doctor-specialists": F(
        "4",
        "kept",
        ["My doctor is {A}."],
        [
            "My GP referred me to {B}, a dermatologist.",
            "{B} is the consultant who did my knee operation.",
            "My husband's doctor is {B}.",
        ],
        [("Dr Moore", "Dr Chen")],
    ),
    # another account, another product, a question
    "4/safety-seventh-bank-accounts": F(
        "4",
        "kept",
        ["My current account is with {A}."],
        [
            "I've opened a savings account with {B} for the better rate.",
            "My credit card is from {B}.",
            "Is {B} worth switching to?",
        ],
        [("Barclays", "First Direct")],
    ),
    # a second paper now and then, another holder, a past habit
    "4/safety-seventh-newspaper-also": F(
        "4",
        "kept",
        ["I read the {A} every morning."],
        [
            "On Sundays I also buy the {B}.",
            "My dad reads the {B}.",
            "I used to read the {B} as a student.",
        ],
        [("Guardian", "Times")],
    ),
}
