"""The fifth held-out half for class 4 (issue 45): keyless updates in new words, and the kept
cases beside them.

Written by someone who had not read the rules, before any further class 4 rule; measured,
never tuned on. The attributes are ones no earlier family names (gym, phone handset, laptop,
a child's school rather than the user's own, landlord, physiotherapist, therapist, the
language one is learning, commute, shift pattern, team at work, mortgage lender, supermarket,
pharmacy, surname, wedding date), said in shapes the earlier halves do not use. The kept
families leave the held fact current: another holder, a plan, a question or a refusal, a past
value, a one-off or temporary situation, another member of a many-valued habit, another
attribute in the same frame.
"""

from __future__ import annotations

from tests.unit.belief_stories import F, Family

HELD_OUT_FIFTH: dict[str, Family] = {
    # -- update: the new statement supersedes the held fact ----------------------------------------
    "4/gym-fifth": F(
        "4",
        "update",
        ["I go to the gym at {A}.", "I've got a membership at {A}."],
        [
            "Ditched {A} — I'm a member at {B} now.",
            "{B} is where I work out these days.",
        ],
        [("PureGym", "Anytime Fitness")],
    ),
    "4/handset-fifth": F(
        "4",
        "update",
        ["My phone is {A}."],
        [
            "I finally upgraded to {B}.",
            "My phone got replaced with {B} after the screen cracked.",
            "The handset I carry around nowadays is {B}.",
        ],
        [("an iPhone 12", "a Pixel 8")],
    ),
    "4/laptop-fifth": F(
        "4",
        "update",
        ["My laptop is a {A}."],
        [
            "My old laptop died, so I'm on a {B} now.",
            "I bought a {B} and sold the {A}.",
            "I do all my work on a {B} these days.",
        ],
        [("MacBook Air", "ThinkPad X1")],
    ),
    "4/child-school-fifth": F(
        "4",
        "update",
        ["My son Leo goes to {A}.", "Leo's school is {A}."],
        [
            "Leo has recently started at {B}.",
            "We moved Leo to {B} after half term.",
        ],
        [("St Mary's Primary", "Oakfield Primary")],
    ),
    "4/landlord-fifth": F(
        "4",
        "update",
        ["My landlord is {A}.", "I rent my flat from {A}."],
        [
            "{B} bought the building last month and took over as landlord.",
            "As of last month I rent from {B}.",
        ],
        [("Mr Hughes", "Greenway Lettings")],
    ),
    "4/physio-fifth": F(
        "4",
        "update",
        ["{A} is my physiotherapist."],
        [
            "I've been handed over to {B} for my physio.",
            "{A} left the clinic, so {B} treats me now.",
            "My physio sessions are with {B} at the moment.",
        ],
        [("Claire Dunn", "Marcus Obi")],
    ),
    "4/therapist-fifth": F(
        "4",
        "update",
        ["My therapist is {A}."],
        [
            "I stopped seeing {A} and found a new therapist, {B}.",
            "It's {B} I see for therapy now.",
            "I've since moved to {B} for my counselling.",
        ],
        [("Dr Ellis", "Ruth Ng")],
    ),
    "4/language-fifth": F(
        "4",
        "update",
        ["I'm learning {A}.", "The language I'm studying is {A}."],
        [
            "I gave up on {A} and I'm learning {B} instead.",
            "These days {B} is the only language I'm studying.",
        ],
        [("Spanish", "Japanese")],
    ),
    "4/commute-fifth": F(
        "4",
        "update",
        ["I commute by {A}.", "I get to work by {A}."],
        [
            "Since the fares went up I've been taking the {B} to work.",
            "My commute is by {B} nowadays.",
        ],
        [("train", "bus")],
    ),
    "4/shift-fifth": F(
        "4",
        "update",
        ["I work {A}."],
        [
            "They've moved me onto {B}.",
            "No more {A} for me, it's {B} now.",
            "I've been on {B} since the new rota came out.",
        ],
        [("night shifts", "day shifts")],
    ),
    "4/team-fifth": F(
        "4",
        "update",
        ["I'm on the {A} team."],
        [
            "After the reorg I ended up on the {B} team.",
            "I've been moved across to {B}.",
            "I've joined {B} and left the {A} team behind.",
        ],
        [("Payments", "Search")],
    ),
    "4/mortgage-fifth": F(
        "4",
        "update",
        ["Our mortgage is with {A}."],
        [
            "We remortgaged with {B} in the autumn.",
            "{B} holds our mortgage now.",
            "When our fix ended we moved the mortgage over to {B}.",
        ],
        [("Nationwide", "Halifax")],
    ),
    "4/supermarket-fifth": F(
        "4",
        "update",
        ["I do my weekly shop at {A}.", "{A} is where I buy my food."],
        [
            "I've started doing the big shop at {B} to save money.",
            "We switched to {B} for our food shopping.",
        ],
        [("Tesco", "Aldi")],
    ),
    "4/pharmacy-fifth": F(
        "4",
        "update",
        ["I get my prescriptions from {A}."],
        [
            "My prescriptions go to {B} now.",
            "I've nominated {B} as my pharmacy.",
            "I collect my meds from {B} these days.",
        ],
        [("Boots", "Lloyds Pharmacy")],
    ),
    "4/surname-fifth": F(
        "4",
        "update",
        ["My surname is {A}."],
        [
            "I took my husband's name, so I'm Sam {B} now.",
            "Since the wedding my last name has been {B}.",
            "It's {B} now, not {A}; I changed it by deed poll.",
        ],
        [("Carter", "Okafor")],
    ),
    "4/wedding-date-fifth": F(
        "4",
        "update",
        ["Our wedding is on {A}.", "We're getting married on {A}."],
        [
            "We've moved the wedding to {B}.",
            "The venue cancelled, so we're getting married on {B} instead.",
        ],
        [("14 June", "6 September")],
    ),
    # -- kept: the held fact stays current ----------------------------------------------------------
    # other holders, and another event, in the wedding's frames
    "4/safety-fifth-wedding-others": F(
        "4",
        "kept",
        ["Our wedding is on {A}."],
        [
            "My brother is getting married on {B}.",
            "Our friends have moved their wedding to {B}.",
            "We're going to my cousin's wedding on {B}.",
            "Our engagement party is on {B}.",
        ],
        [("14 June", "6 September")],
    ),
    # plans, questions, undecided advice, a refusal, an aversion
    "4/safety-fifth-mortgage-hedge": F(
        "4",
        "kept",
        ["Our mortgage is with {A}."],
        [
            "We might remortgage with {B} when our fix ends.",
            "Does {B} do decent remortgage deals?",
            "Our broker suggested {B}, but we haven't decided yet.",
            "{B} turned down our remortgage application.",
            "I wouldn't touch {B} for a mortgage.",
        ],
        [("Nationwide", "Halifax")],
    ),
    # past values (and a relative's name)
    "4/safety-fifth-surname-past": F(
        "4",
        "kept",
        ["My surname is {A}."],
        [
            "My maiden name was {B}.",
            "Before I got married my surname was {B}.",
            "At school everyone knew me as Sam {B}.",
            "My mum's surname is {B}.",
        ],
        [("Carter", "Okafor")],
    ),
    # a past habit, a one-off, another holder
    "4/safety-fifth-commute": F(
        "4",
        "kept",
        ["I get to work by {A}."],
        [
            "I used to take the {B} to work before I moved.",
            "The trains were on strike, so I took the {B} today.",
            "When I was at school I went everywhere by {B}.",
            "My wife gets to work by {B}.",
        ],
        [("train", "bus")],
    ),
    # temporary stand-ins, another holder
    "4/safety-fifth-laptop-temporary": F(
        "4",
        "kept",
        ["My laptop is a {A}."],
        [
            "I'm borrowing a {B} from work while mine is being repaired.",
            "IT gave me a loaner {B} until Friday.",
            "I'm typing this on my friend's {B}.",
            "My daughter just got a {B} for uni.",
        ],
        [("MacBook Air", "ThinkPad X1")],
    ),
    # another shop beside the weekly one, and a question
    "4/safety-fifth-shop-also": F(
        "4",
        "kept",
        ["I do my weekly shop at {A}."],
        [
            "I also nip into {B} for bread and milk.",
            "Now and then I pick up wine at {B}.",
            "{B} is handy for top-up shops too.",
            "Should I try {B} for the weekly shop?",
        ],
        [("Tesco", "Aldi")],
    ),
    # other attributes (and another holder) in the pharmacy's frames
    "4/safety-fifth-pharmacy-frames": F(
        "4",
        "kept",
        ["I get my prescriptions from {A}."],
        [
            "I get my glasses from {B} now.",
            "My mum's prescriptions go to {B} now.",
            "I've booked an eye test at {B}.",
            "My contact lenses come from {B} these days.",
        ],
        [("Boots", "Specsavers")],
    ),
}
