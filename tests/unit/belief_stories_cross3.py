"""A third held-out trap set for the worse class 4 mistake (issue 45): a statement that replaces
the held fact though it is about something else, and so loses it.

Written by someone who had not read the rules, after session 33's last change; measured once at
the session's end, never tuned on. Every family is ``kept``: the held fact is of one attribute,
and each new statement shares a frame, a word or a kind of value with it without changing it.
The traps, none of them in :mod:`tests.unit.belief_stories_cross` or ``_cross2``: products and
brands (an appliance named like a company one could work for, a rival's products bought by an
employee, a voice assistant named like a partner, things named after a district: boots, a bun,
a flower show), hypotheticals and daydreams, text drafted or proofread for someone else,
fiction (a novel, an escape room, a TV show, a video game, a life-simulation game, toys),
a celebrity crush and a hall pass said as a joke, irony about who is "the boss", dress-up,
an experience day and a child's pretend job, "I'm a ..." said of a trait or a star sign rather
than a job, a new colour of the same car, incoming and unwanted calls, an email address that
was taken or is only wished for, a new display name or signature on the same address, idle
questions about another employer, and a short forced stay away from home (a flood, a hospital,
jury service, a power cut).
"""

from __future__ import annotations

from tests.unit.belief_stories import F, Family

CROSS_HELD_OUT_3: dict[str, Family] = {
    # -- the employer ----------------------------------------------------------------------------------
    # an appliance brand named like a company one could work for
    "x3/employer-appliance-brand": F(
        "4",
        "kept",
        ["I work at {A}.", "{A} is my employer."],
        [
            "just got a {B} and the house has never been cleaner",
            "my {B} stopped sucking properly, is it worth repairing?",
            "treated myself to a {B} in the Black Friday sale",
        ],
        [("KPMG", "Dyson")],
    ),
    # a rival's products bought by someone who works at the held company
    "x3/employer-rival-products": F(
        "4",
        "kept",
        ["I work at {A}."],
        [
            "just swapped my iPhone for a {B} Galaxy, don't tell my colleagues 🤫",
            "we bought a {B} telly for the lounge",
            "my {A} Watch died so i'm trying a {B} one",
            "{B} make the best fridges, change my mind",
        ],
        [("Apple", "Samsung")],
    ),
    # idle questions about another employer
    "x3/employer-idle-question": F(
        "4",
        "kept",
        ["I work for {A}."],
        [
            "what's the interview process like at {B}?",
            "does {B} pay engineers better than {A}?",
            "do you know anyone who's worked at {B}? just curious",
            "is {B} still hiring after all the layoffs?",
        ],
        [("Rolls-Royce", "Jaguar Land Rover")],
    ),
    # -- the home --------------------------------------------------------------------------------------
    # things named after a district: boots, a bun, a flower show, a jibe about SUVs
    "x3/home-district-named-things": F(
        "4",
        "kept",
        ["We live in {A}.", "I live in {A}."],
        [
            "just bought some new {B} boots for the winter",
            "having a {B} bun with my coffee, don't judge",
            "the {B} Flower Show was heaving this year",
            "my neighbour calls our SUV a {B} tractor, rude",
        ],
        [("Bristol", "Chelsea")],
    ),
    # daydreams and hypotheticals
    "x3/home-daydream": F(
        "4",
        "kept",
        ["I live in {A}.", "I'm based in {A}."],
        [
            "if we ever won the lottery we'd live in {B}",
            "in another life i'd be living in {B}",
            "imagine living somewhere like {B}. sigh.",
            "if my job went fully remote i'd be tempted by {B}, but it hasn't",
        ],
        [("Leicester", "Lisbon")],
    ),
    # text drafted or proofread for someone else
    "x3/home-drafted-for-others": F(
        "4",
        "kept",
        ["I'm based in {A}."],
        [
            "can you tidy this up for my sister's instagram: 'new chapter, we've moved to {B}!'",
            "help me word a card for Jo and Sam: 'congrats on the big move to {B}!'",
            "proofread my friend's email pls: 'Hi all, I've now relocated to {B}; my new address is below.'",
            "my mate wants a caption for her leaving do, something like 'off to {B}, see ya {A}!' — any better ideas?",
        ],
        [("Leicester", "Valencia")],
    ),
    # fiction: a novel, an escape room, a TV show
    "x3/home-fiction": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "the main character in my novel lives in {B}",
            "in the book i'm writing, the heroine moves to {B} in chapter three",
            "the escape room we did was set in a flat in {B}",
            "watching a show about a couple who move to {B} and now i'm obsessed",
        ],
        [("Leicester", "Paris")],
    ),
    # a short forced stay away: a flood, a hospital, jury service, a power cut
    "x3/home-forced-stay": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "our flat flooded so we're in a hotel in {B} until the insurers sort it",
            "i've been in hospital in {B} since tuesday, should be home by the weekend",
            "doing two weeks of jury service in {B}, so i'm on the train there every day",
            "power cut on our street, we're at a travelodge in {B} for the night",
        ],
        [("Leicester", "Derby")],
    ),
    # -- the partner -----------------------------------------------------------------------------------
    # a voice assistant named like a person
    "x3/partner-voice-assistant": F(
        "4",
        "kept",
        ["My girlfriend is {A}."],
        [
            "told {B} to turn the lights off and she played Taylor Swift instead 🙄",
            "we got an Echo Dot, so {B} does the shopping list now",
            "{B} keeps waking me up with the weather at 6am, how do i turn that off?",
            "asked {B} to add oat milk to the list and she added 'goat milk' lol",
        ],
        [("Ella", "Alexa")],
    ),
    # a celebrity crush and a hall pass, said as jokes
    "x3/partner-celebrity-joke": F(
        "4",
        "kept",
        ["My husband is {A}."],
        [
            "{B} is my celebrity husband obviously, {A} knows the deal lol",
            "if {B} ever knocks on my door, sorry {A} 😂",
            "rewatched Luther last night. {B}, marry me 😍 (joking, {A})",
            "my hall pass is {B}, {A}'s is Margot Robbie haha",
        ],
        [("Mark", "Idris Elba")],
    ),
    # -- the job title ---------------------------------------------------------------------------------
    # dress-up, a game, an experience day, a child's pretend job
    "x3/job-title-pretend": F(
        "4",
        "kept",
        ["I'm a {A}."],
        [
            "going as a {B} for the work halloween party",
            "my Sims character just got promoted to {B} lol",
            "did a {B} experience day for my birthday, climbed the ladder and everything",
            "my four-year-old announced she's a {B} now and won't take the helmet off",
        ],
        [("pharmacist", "firefighter")],
    ),
    # "I'm a ..." of a trait or a star sign
    "x3/job-title-trait-frame": F(
        "4",
        "kept",
        ["I'm a {A}."],
        [
            "i'm a {B}, for what it's worth",
            "honestly i'm such a {B}",
            "turns out i'm a total {B}",
        ],
        [("solicitor", "night owl"), ("solicitor", "Capricorn")],
    ),
    # -- the car ---------------------------------------------------------------------------------------
    # toys, a construction set, a video game, a wallpaper
    "x3/car-toys-and-games": F(
        "4",
        "kept",
        ["I drive a {A}."],
        [
            "my son got a remote-control {B} for his birthday",
            "spent the whole weekend building the Lego {B}",
            "finally unlocked the {B} in Forza 🏎️",
            "my laptop wallpaper is a {B}, a girl can dream",
        ],
        [("Vauxhall Astra", "Lamborghini Huracán")],
    ),
    # the same car in a new colour
    "x3/car-new-colour": F(
        "4",
        "kept",
        ["I drive a {A}.", "Our car is a {A}."],
        [
            "my car's {B} now, had it wrapped on saturday",
            "the car is {B} these days, the old red paint was peeling",
            "went {B} with the car, looks mean",
        ],
        [("Ford Focus", "matte black")],
    ),
    # -- the phone number ------------------------------------------------------------------------------
    # incoming and unwanted calls
    "x3/phone-incoming-calls": F(
        "4",
        "kept",
        ["My number is {A}.", "You can ring me on {A}."],
        [
            "got a missed call from {B}, any idea who that is?",
            "{B} keeps ringing me at dinner time, is it a scam?",
            "block {B} please, it's the double-glazing people again",
        ],
        [("07700 900341", "020 7946 0123")],
    ),
    # -- the email address -----------------------------------------------------------------------------
    # an address that was taken, or is only wished for
    "x3/email-taken-or-wished": F(
        "4",
        "kept",
        ["My email is {A}."],
        [
            "tried to register {B} but someone already has it 😩",
            "would {B} look more professional? i haven't set it up",
            "if i ever buy my own domain i'll go with {B}",
            "{B} would be the dream address but it's £2,000 lol",
        ],
        [("sam.hart@hotmail.co.uk", "sam@hart.com")],
    ),
    # a new display name or signature on the same address
    "x3/email-display-name": F(
        "4",
        "kept",
        ["My email is {A}."],
        [
            "changed my email signature to '{B}'",
            "my email display name is {B} now",
            "the sender name on my emails says {B} now, looks more pro",
        ],
        [("sam.hart@hotmail.co.uk", "Sam Hart | Design Studio")],
    ),
    # -- the manager -----------------------------------------------------------------------------------
    # irony about who is "the boss"
    "x3/manager-irony": F(
        "4",
        "kept",
        ["My manager is {A}."],
        [
            "{B} from accounts acts like he's my boss, he really isn't",
            "lol my cat is my real manager, she decides when i log off",
            "honestly my toddler is the boss of me these days",
            "{B} jokingly called himself my new manager at lunch; he's on a totally different team",
        ],
        [("Gemma", "Darren")],
    ),
}
