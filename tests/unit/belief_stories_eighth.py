"""The eighth held-out half for class 4 (issue 45): keyless updates in new words, and the kept
cases beside them.

Written by someone who had not read the rules; measured once at the end of session 33, never
tuned on. Half the update families name the attributes people most often tell an assistant
(home, street address, employer, job title, manager, partner, phone number, email address,
car); the other half name everyday attributes no earlier half names (hairdresser, vet, energy
supplier, internet provider, mobile network, a child's nursery, running club, web browser,
diet). The shapes: the value first, the passive, fronted time phrases, reason clauses, two
clauses the first of which names the old value as over, chatty and elliptical lines, British
and American phrasings, and an agent's third-person note about the user. The kept families
leave the held fact current: a failed purchase, a wish or a plan, a side job, a sponsor, a
competitor, shadowing, an advertised post, a relative's past, a past or an ex, another
person's relation, a work address beside a personal one, another holder's car, a question, a
quote turned down, a former supplier.
"""

from __future__ import annotations

from tests.unit.belief_stories import F, Family

HELD_OUT_EIGHTH: dict[str, Family] = {
    # -- update, common attributes in new shapes ----------------------------------------------------
    "4/home-eighth": F(
        "4",
        "update",
        ["I live in {A}.", "The user lives in {A}."],
        [
            "Packed up the flat in {A} last month — {B}'s home now.",
            "We closed on a house in {B} and moved in last week.",
            "The user has moved from {A} to {B}.",
        ],
        [("Leicester", "Glasgow")],
    ),
    "4/address-eighth": F(
        "4",
        "update",
        ["My address is {A}, Derby."],
        [
            "We've moved round the corner, to {B}.",
            "All my post is redirected to {B} now — we moved last week.",
            "{B} is where we live now; {A} has been sold.",
        ],
        [("12 Park Lane", "5 Mill Street")],
    ),
    "4/employer-eighth": F(
        "4",
        "update",
        ["I work for {A}.", "The user is employed at {A}."],
        [
            "Got poached by {B} — started there on the first.",
            "After the layoffs at {A}, I was hired by {B}.",
            "{A} is behind me now; I'm a {B} employee.",
        ],
        [("Northwind Traders", "Contoso")],
    ),
    "4/job-title-eighth": F(
        "4",
        "update",
        ["I'm a {A}."],
        [
            "Passed my interview — I'm a {B} now!",
            "My role was regraded to {B} after the restructure.",
            "No longer a {A}: the trust appointed me {B} in May.",
        ],
        [("staff nurse", "ward sister")],
    ),
    "4/manager-eighth": F(
        "4",
        "update",
        ["My manager is {A}."],
        [
            "{B} took over my team when {A} left, so I answer to him now.",
            "New manager as of Monday — {B}.",
            "The user now reports to {B}.",
        ],
        [("Fiona", "Raj")],
    ),
    "4/partner-eighth": F(
        "4",
        "update",
        ["My girlfriend is {A}.", "I'm dating {A}."],
        [
            "{A} and I are over. I'm seeing {B} now.",
            "My girlfriend these days is {B}; {A} and I split at Easter.",
            "The user's girlfriend is now {B}, not {A}.",
        ],
        [("Lucy", "Maya")],
    ),
    "4/phone-eighth": F(
        "4",
        "update",
        ["My mobile number is {A}."],
        [
            "Switched networks and had to take a new number: {B}.",
            "{A} no longer works — I can be reached on {B}.",
            "New mobile number, folks: {B}.",
        ],
        [("07700 900417", "07700 900952")],
    ),
    "4/email-eighth": F(
        "4",
        "update",
        ["My email is {A}."],
        [
            "I've closed my old {A} account — use {B} going forward.",
            "The only inbox I check now is {B}.",
            "My email got changed to {B} when I left BT broadband.",
        ],
        [("sam.w@btinternet.com", "samwhite@gmail.com")],
    ),
    "4/car-eighth": F(
        "4",
        "update",
        ["I drive a {A}.", "Our car is a {A}."],
        [
            "The {A} went to a new owner in May; we've got a {B} now.",
            "Because of the new clean air zone, we swapped the {A} for a {B}.",
            "Our lease on the {A} was up, so we leased a {B} instead.",
        ],
        [("Nissan Qashqai", "Hyundai Ioniq 5")],
    ),
    # -- update, everyday attributes no earlier half names ------------------------------------------
    "4/hairdresser-eighth": F(
        "4",
        "update",
        ["I get my hair cut at {A}."],
        [
            "My hair's done at {B} these days.",
            "{A} got too pricey, so I go to {B} now.",
            "New salon: {B}. Much better than {A}.",
        ],
        [("Toni & Guy", "Headmasters")],
    ),
    "4/vet-eighth": F(
        "4",
        "update",
        ["Our vet is {A}."],
        [
            "After our local {A} closed, we registered the dog with {B}.",
            "Our dog is seen by {B} now.",
            "{B} looks after our pets now.",
        ],
        [("Medivet", "Vets4Pets")],
    ),
    "4/energy-eighth": F(
        "4",
        "update",
        ["Our energy supplier is {A}."],
        [
            "Our gas and electric were switched over to {B} last week.",
            "{A} kept overcharging us, so {B} supplies our energy now.",
            "Energy's with {B} now.",
        ],
        [("British Gas", "Octopus Energy")],
    ),
    "4/internet-provider-eighth": F(
        "4",
        "update",
        ["Our internet provider is {A}."],
        [
            "We canceled {A} and got {B} installed on Tuesday.",
            "The internet at home comes from {B} now.",
            "Since we got fiber, it's {B} for internet.",
        ],
        [("Comcast", "Verizon Fios")],
    ),
    "4/mobile-network-eighth": F(
        "4",
        "update",
        ["I'm on {A} for my mobile."],
        [
            "Ported my number over to {B} last week.",
            "My SIM's from {B} now.",
            "Left {A} when the contract ended; {B} is my network now.",
        ],
        [("EE", "Giffgaff")],
    ),
    "4/nursery-eighth": F(
        "4",
        "update",
        ["Our daughter goes to {A} nursery."],
        [
            "Our daughter's at {B} nursery now; it's nearer my office.",
            "We took her out of {A} and she goes to {B} now.",
            "{B} has her three days a week now instead of {A}.",
        ],
        [("Little Acorns", "Busy Bees")],
    ),
    "4/running-club-eighth": F(
        "4",
        "update",
        ["My running club is {A}."],
        [
            "Switched clubs — I'm a {B} member now.",
            "I let my {A} membership lapse and joined {B}.",
            "These days it's {B} I do my Tuesday runs with.",
        ],
        [("Riverside Striders", "Parkside Harriers")],
    ),
    "4/browser-eighth": F(
        "4",
        "update",
        ["My browser is {A}."],
        [
            "Uninstalled {A}; {B} is my default browser now.",
            "I've made {B} my browser of choice.",
            "For web browsing it's {B} now.",
        ],
        [("Chrome", "Firefox")],
    ),
    "4/diet-eighth": F(
        "4",
        "update",
        ["I eat a {A} diet."],
        [
            "I've gone fully {B} since January.",
            "Cut out dairy and eggs too, so I'm {B} now.",
            "The user follows a {B} diet now.",
        ],
        [("vegetarian", "vegan")],
    ),
    # -- kept: the held fact stays current ----------------------------------------------------------
    # a purchase that fell through, a wish that cannot be met, a retirement plan
    "4/safety-eighth-home-plans": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "We had an offer accepted on a flat in {B}, but the sale fell through.",
            "I'd move to {B} tomorrow if my job allowed it.",
            "{B} is on our shortlist for when we retire.",
        ],
        [("Leicester", "Glasgow")],
    ),
    # a competitor, a weekend side job, a sponsor
    "4/safety-eighth-employer-others": F(
        "4",
        "kept",
        ["I work for {A}."],
        [
            "{B} bought out our biggest competitor last month.",
            "I do a bit of freelance work for {B} on the odd weekend.",
            "{B} sponsored our office charity run.",
        ],
        [("Northwind Traders", "Contoso")],
    ),
    # shadowing, a relative's past, an advertised post
    "4/safety-eighth-title-others": F(
        "4",
        "kept",
        ["I'm a {A}."],
        [
            "I'm shadowing the {B} this week to see if the role suits me.",
            "My mum was a {B} for thirty years.",
            "They've advertised a {B} post on my ward; I might apply.",
        ],
        [("staff nurse", "ward sister")],
    ),
    # a first girlfriend, an ex, the girlfriend's sister
    "4/safety-eighth-partner-past": F(
        "4",
        "kept",
        ["My girlfriend is {A}."],
        [
            "{B} was my first girlfriend, back in Year 9.",
            "I bumped into my ex, {B}, at the supermarket.",
            "{B} is {A}'s sister, and she's great.",
        ],
        [("Lucy", "Maya")],
    ),
    # a work address beside the personal one
    "4/safety-eighth-email-work": F(
        "4",
        "kept",
        ["My personal email is {A}."],
        [
            "My work email is {B}.",
            "Clients write to me at {B}.",
            "Use {B} only for work; anything personal still goes to {A}.",
        ],
        [("sam.w@btinternet.com", "s.white@northwind.co.uk")],
    ),
    # another holder, a plan, a question
    "4/safety-eighth-car-others": F(
        "4",
        "kept",
        ["I drive a {A}."],
        [
            "My son passed his test and bought a {B}.",
            "We're thinking of a {B} when the {A}'s lease runs out.",
            "Would a {B} be cheaper to run than my {A}?",
        ],
        [("Nissan Qashqai", "Hyundai Ioniq 5")],
    ),
    # a quote turned down, another holder, a former supplier
    "4/safety-eighth-energy-others": F(
        "4",
        "kept",
        ["Our energy supplier is {A}."],
        [
            "{B} sent us a cheaper quote, but we're staying put for now.",
            "My parents have switched their energy to {B}.",
            "We used to be with {B} before we moved here.",
        ],
        [("British Gas", "Octopus Energy")],
    ),
}
