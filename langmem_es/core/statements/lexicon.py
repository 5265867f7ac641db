"""Word lists for :mod:`langmem_es.core.statements` — the English it knows by name.

Grammar (lemmas, parts of speech, dependencies, tense, named entities) comes from the
parser; these lists only name what grammar cannot tell: which nouns are people who own
facts, which predicates mean the same attribute, which verbs mark a change, and which
modifiers pick out one instance of a kind ("the *return* flight").
"""

from __future__ import annotations

FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
FIRST_PLURAL = frozenset({"we", "us", "our", "ours", "ourselves"})
# Verbs of a state, not of an action, also in the past tense ("I had two cats", "I lived in
# Bristol" is an action: two of them both happened).
STATE_VERBS = frozenset({"be", "have", "get", "own", "keep", "know", "belong", "contain", "cost", "weigh", "measure"})

# Head nouns that only say what form a thing takes: "email address" is the email, "phone
# number" the phone, "Twitter handle" the Twitter account.
GENERIC_HEADS = frozenset({"address", "number", "handle"})

# Nouns that are another word for one thing a person has: "two kids" are "2 children", "my
# new boss" is the manager "my manager" named, "my cell number" the phone.
SAME_NOUN = {
    "kid": "child",
    "kiddo": "child",
    "automobile": "car",
    "boss": "manager",
    "supervisor": "manager",
    "cell": "phone",
    "cellphone": "phone",
    "mobile": "phone",
}

# Possessed things that are the attribute a person frame sets: "my home is in Bristol" is
# "I live in Bristol".
THING_FRAMES = {"home": "home", "address": "home", "employer": "employer", "birthplace": "birthplace", "name": "name"}

# How memories name their user in the third person ("The user lives in …", "User prefers …"):
# the same holder as "I".
SPEAKER_NOUNS = frozenset({"user"})
DEMONSTRATIVE = frozenset({"that", "this", "it", "there", "which", "what", "who"})

# Nouns that denote a person (or pet) who holds facts of their own: "my sister lives in York"
# is about the sister. Anything else possessed is an attribute: "my rent", "my manager".
PEOPLE = frozenset(
    """
sister brother mother mum mom father dad parent parents son daughter child children kid kids
wife husband partner spouse boyfriend girlfriend fiance fiancee aunt uncle niece nephew cousin
grandmother grandfather grandma grandpa granny grandson granddaughter neighbor friend
flatmate roommate housemate colleague coworker stepson stepdaughter baby twin family
""".split()
)

# Modifiers that single out one instance of a kind: "the return flight" beside "the outbound
# flight", "my work email" beside "my email", "my oldest son" beside "my youngest son".
INSTANCE = frozenset(
    """
outbound return inbound back first second third fourth last next previous other oldest eldest
youngest elder younger middle work office home personal private business backup primary
secondary main spare old morning afternoon evening
""".split()
)

# Verbs (and phrasal frames) that state a change of state; ENDING ones end it without a value.
CHANGE_VERBS = frozenset(
    """
move relocate switch change become join start replace trade turn raise rise increase decrease
drop cut push postpone reschedule rebook promote upgrade downgrade rename marry divorce
leave quit stop retire transfer convert migrate update swap shift scale bump lower reduce extend expand shrink delay
""".split()
)
# What one gets that is itself a change: "got a raise", "got a promotion".
CHANGE_NOUNS = frozenset({"raise", "rise", "promotion", "transfer"})
# Verbs that put one thing in another's place: "switched to almond milk", "upgraded to an iPhone 15".
SWITCH_VERBS = frozenset({"switch", "change", "replace", "trade", "swap", "convert", "upgrade", "downgrade"})
ENDING_VERBS = frozenset({"quit", "stop", "leave", "retire", "cease"})
# Phrasal verbs that end a job: "I was laid off from Meta", "they let me go".
ENDING_PHRASALS = frozenset({("lay", "off"), ("let", "go")})
# A plan and what calls it off: "the trip to Japan got cancelled" ends "going to Japan in April".
PLAN_FRAMES = frozenset({"go_to", "fly_to", "travel_to", "visit", "go", "head_to"})
TRIP_NOUNS = frozenset("trip visit holiday vacation journey flight tour getaway".split())
CANCEL_VERBS = frozenset({"cancel", "scrap", "abandon", "drop", "shelve"})
# Going somewhere on set days, and being there: "I go into the office on Mondays" / "I'm in the
# office on Tuesdays now" say where one is on which days.
PRESENCE_FRAMES = frozenset({"go_to", "go_into", "come_to", "come_into", "where"})
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
MONTHS = frozenset("january february march april may june july august september october november december".split())
# What one follows in sport is one's team: "now supports Chelsea" ← "favourite team is Arsenal".
TEAM_VERBS = frozenset({"support", "follow", "root_for"})
# Verbs that say who answers for a thing (one owner at a time): "the web team owns checkout".
OWNING_VERBS = frozenset({"own", "maintain"})
# What one leaves when one leaves one's employer: "Dana left the company".
EMPLOYER_NOUNS = frozenset("company job firm employer business organization startup agency team".split())
# Where one is in one's schooling: "my son is in high school", "started university".
SCHOOL_NOUNS = frozenset(
    "school university college uni kindergarten nursery preschool sixth-form academy polytechnic".split()
)
# Verbs that move a thing onto a new value: "migrated the database to Postgres", "moved staging to GCP".
MOVE_VERBS = frozenset({"migrate", "move", "port", "transfer", "shift"})
# Verbs whose object is no longer the case once done: "sold the Honda" ends "drives a Honda".
GIVE_UP_VERBS = frozenset({"sell", "quit", "cancel", "ditch", "abandon"})
# Verbs that, with "down/up to", give a new amount: "cut down to one coffee a day".
AMOUNT_VERBS = frozenset({"cut", "go", "come", "scale", "work", "build", "drop", "get", "step", "ramp"})

# Verbs that give a thing a new name: "we renamed our cat Mochi".
RENAME_VERBS = frozenset({"rename", "rebrand", "retitle"})
# Wishing to be called something states the name one goes by: "asked to be called Robert".
WISH_VERBS = frozenset({"ask", "want", "like", "prefer", "wish", "request", "insist", "love"})
NAMING_VERBS = frozenset({"call", "know", "address", "name"})
# Asking someone to stop doing something ends one's liking of it: "asked me to stop using emojis".
ASK_VERBS = frozenset({"ask", "tell", "want", "request", "beg"})

# What a habit of doing something on a day is called as a thing ("we meet on Mondays" → the meeting);
# other verbs name it by themselves ("we release every Thursday" → the release).
ACTIVITY_NOUNS = {"meet": "meeting", "train": "training", "ship": "shipping"}
# Daily routines said with a verb and as a time: "I get up at 7" is the wake-up time, "goes to bed
# at 10" the bedtime (keys: the verb with its particle, and what it goes to).
ROUTINES = {"wake_up": "wake-up time", "get_up": "wake-up time", "go_to bed": "bedtime", "go bed": "bedtime"}

# Verbs of choosing one thing over another: "now prefers Go over Python" puts Go in Python's place.
PREFER_VERBS = frozenset({"prefer", "choose", "pick", "favor", "favour"})
# Verbs of disliking: "I hate jazz" says what "I don't like jazz" says.
DISLIKE_VERBS = frozenset({"hate", "dislike", "detest", "loathe", "despise"})


# Kinds and what each holds: "I don't have any pets" denies "I have a dog". Anything holds all.
def _word_sets(lists: dict[str, str]) -> dict[str, frozenset[str]]:
    return {name: frozenset(words.split()) for name, words in lists.items()}


KINDS_OF = _word_sets(
    {
        "pet": "dog puppy cat kitten fish goldfish hamster rabbit bunny guinea bird parrot budgie horse pony snake "
        "lizard gecko turtle tortoise ferret mouse rat chinchilla",
        "child": "son daughter baby kid boy girl stepson stepdaughter",
        "sibling": "brother sister",
        "vehicle": "car van truck motorbike motorcycle scooter",
    }
)
ANYTHING = frozenset({"anything", "any"})
# Nouns of a span of time, and the words that make one a time: "these days", "this year" say
# when, not what ("full time" says how).
TIME_NOUNS = frozenset("day week month year time while moment season weekend night".split())
TIME_DETERMINERS = frozenset("these this those that last next every each all past coming recent".split())
CHANGE_ADVERBS = frozenset({"now", "nowadays", "anymore", "instead", "again", "actually", "lately"})
# Phrasal verbs (verb, particle) that say something changed: "took me off metformin", "went up to 40mg".
CHANGE_PHRASALS = frozenset(
    {
        ("take", "off"),
        ("go", "up"),
        ("go", "down"),
        ("go", "back"),
        ("step", "down"),
        ("step", "up"),
        ("ramp", "up"),
        ("give", "up"),
        ("come", "off"),
        ("move", "out"),
    }
)
CHANGE_ADJECTIVES = frozenset({"new", "current"})
STILL = frozenset({"still"})

# What one moves when one moves home ("we moved house"); moving anything else ("moved the
# standup to 10am") is not a new home.
HOME_NOUNS = frozenset({"house", "home", "flat", "apartment"})

# Nouns of a place one lives in: "moved to a small town" is a new home, "moved to a new team" is not.
PLACE_NOUNS = frozenset(
    """
city town village country countryside suburb suburbs state province region area neighborhood
neighbourhood district coast island capital abroad
""".split()
)

# Predicate frames (verb lemma + particle/preposition) that name one attribute of a person.
# "move to" and "live in" set the same attribute; "work in" (a city) and "work at" (an
# employer) do not.
PERSON_FRAMES: dict[str, str] = {
    "live_in": "home",
    "live_at": "home",
    "reside_in": "home",
    "base_in": "home",
    "move_to": "home",
    "move_into": "home",
    "relocate_to": "home",
    "relocate_from": "home",
    "relocate": "home",
    "settle_in": "home",
    "stay_in": "home",
    "move": "home",
    "work_at": "employer",
    "lay_off_from": "employer",
    "lay_off": "employer",
    "work_for": "employer",
    "employ_by": "employer",
    "employ_at": "employer",
    "hire_by": "employer",
    "hire_at": "employer",
    "join": "employer",
    "quit": "employer",
    "start_job_at": "employer",
    "work_job_at": "employer",
    "leave": "employer",
    "work_as": "role",
    "retrain_as": "role",
    "train_as": "role",
    "qualify_as": "role",
    "requalify_as": "role",
    "become": "role",
    "retire": "role",
    "report_to": "manager@",  # "@": the value is the attribute named after "@" (my manager is X)
    "drive": "car@",
    "own_car": "car@",
    "bear_in": "birth",
    "bear_on": "birth_date",
    "bear": "birth",
    "study_at": "school",
    "attend": "school",
    "go_to_school": "school",
    "call": "name",
    "go_by": "name",
    "promote_to": "role",
    "name": "name",
    "turn": "age",
    "marry": "marital",
    "engage_to": "marital",
    "engage": "marital",
    "divorce": "marital",
    "separate": "marital",
    "split_up": "marital",
    "break_up": "marital",
    "date": "marital",
    "eat_meat": "diet",
    "eat": "diet",
    "love": "like",
    "enjoy": "like",
    "adore": "like",
    "like": "like",
    "prefer": "like",
}
# Frames where a person holds many values at once: the value is part of the key
# ("likes jazz" and "likes cats" are two facts; "lives in Bristol" and "in Leeds" are one).
MULTI_VALUED = frozenset(
    """
like speak play learn visit support watch use own have organize organise read go_to take drink
allergic collect teach follow study know write sing cook ride wear go catch
""".split()
)
# Adjectives or nouns after "be" that name an attribute ("I am vegan" → diet).
COMPLEMENT_CLASS: dict[str, str] = {
    **dict.fromkeys("vegetarian vegan pescatarian carnivore omnivore meat".split(), "diet"),
    **dict.fromkeys("single married divorced engaged widowed separated".split(), "marital"),
    **dict.fromkeys("old young age".split(), "age"),
    **dict.fromkeys("tall short height".split(), "height"),
    "allergy": "allergic",
    "allergic": "allergic",
}
DIET_VERBS = frozenset({"eat"})
#: Verbs that ask to be reached, and the channel each names ("" = the channel follows "by", "on" …);
#: also the channel nouns after "contact me by …".
CONTACT_VERBS = {
    "contact": "",
    "reach": "",
    "email": "email",
    "e-mail": "email",
    "mail": "email",
    "text": "text",
    "sms": "text",
    "message": "message",
    "dm": "message",
    "call": "phone",
    "phone": "phone",
    "ring": "phone",
    "telephone": "phone",
    "whatsapp": "whatsapp",
}
CONTACT_PREPS = frozenset({"by", "on", "via", "through", "over"})
#: Roles that graduating ends.
STUDENT_ROLES = frozenset({"student", "undergraduate", "undergrad", "postgraduate", "postgrad", "pupil", "phd"})
#: Nouns too general to tie a change to a held fact ("these days", "a lot of time").
GENERIC_NOUNS = frozenset(
    "day days week month year time thing lot way bit today tonight morning evening night weekend".split()
)
#: Life domains whose words name one matter in other words: a change said in one of them
#: ("I moved my email to Proton", "I cycle to work now") updates a held fact in another word
#: of the same domain ("I use Gmail", "I commute by car"). Only words that rarely mean
#: anything else: no "drink" (coffee), no "phone" (a number), no "go" (a verb).
TOPICS = _word_sets(
    {
        "alcohol": "alcohol alcoholic wine beer booze sober sobriety teetotal teetotaler whisky whiskey vodka gin "
        "cocktail liquor",
        "smoking": "smoke smoker smoking cigarette cigar vape vaping nicotine",
        "workplace": "remote remotely office hybrid onsite",
        "commute": "commute commuter",
        "email": "email gmail outlook hotmail proton protonmail inbox fastmail",
        "language": "python rust golang java javascript typescript kotlin swift ruby php haskell scala elixir "
        "c++ c# perl lua dart clojure",
        "tenure": "rent renting renter tenant lease mortgage homeowner",
        "caffeine": "decaf decaffeinated caffeine caffeinated espresso coffee",
        "school": "school primary secondary academy kindergarten nursery preschool grade",
        "internet": "broadband internet isp fibre fiber",
        "editor": "vscode vim neovim emacs intellij pycharm sublime notepad++ helix",
    }
)
#: Words that name a domain rather than a value in it: "I now read my email in the morning"
#: speaks of email but names no provider, so it changes no "I use Gmail".
TOPIC_NAMES = frozenset({"email", "inbox", "alcohol", "smoking", "commute", "commuter", "caffeine", "school"})
#: Units of measure: two amounts in kilograms are not one thing ("weighs 90 kg", "lifts 100 kg").
MEASURES = frozenset(
    """
kg kilo kilogram gram mg microgram mcg lb lbs stone km kilometre kilometer mile metre meter cm mm
ml litre liter hour minute second step calorie kcal percent
""".split()
)
#: Phrases that put a sentence in a domain where no single word does ("I cycle to work").
TOPIC_PHRASES: dict[str, str] = {
    "commute": r"\b(to|from) (work|the office)\b|\bcommut",
    "workplace": r"\bwork(s|ed|ing)? from home\b|\bwfh\b",
    "pay": r"\b(salary|salaries|wages?|pay ?(rise|raise|cut)|(got|get|gets|getting) a raise|raise to)\b"
    r"|\b(my|the user's|their|his|her) pay\b",
    "bank": r"\bbank(s|ed|ing)? with\b|\bswitched banks\b|\b(bank|current|checking) accounts?\b|"
    r"\b(moved|switched|transferred) (my|their|his|her|our) accounts?\b",
    "music": r"\b(spotify|tidal|deezer|apple music|youtube music|amazon music|pandora|soundcloud)\b",
    "workweek": r"\bwork(s|ed|ing)? (\d|one|two|three|four|five|six) days a week\b|\b(full|part)[- ]time\b",
    "school": r"\b(year|grade) \d+\b|\b(first|second|third|fourth|fifth|sixth) grade\b",
    # how long the assistant's answers should be: "prefers concise answers" / "wants detailed explanations"
    "answers": r"\b(concise|brief|short|shorter|terse|succinct|detailed|thorough|long|longer|lengthy|verbose|in-depth|"
    r"step-by-step)\s+(answers?|repl(y|ies)|responses?|explanations?)\b",
    "pronouns": r"\bpronouns?\b|\b(she|he|they|xe|ze)/(her|him|them|they|she|he|xem|hir)\b",
}
#: What each diet rules out: "I eat a lot of beans" leaves "I'm vegetarian", "I started eating
#: chicken again" ends it.
MEAT = frozenset(
    "meat chicken beef pork lamb bacon ham turkey steak sausage burger mince veal duck venison poultry".split()
)
FISH = frozenset("fish seafood salmon tuna cod prawn shrimp sushi crab lobster mussel oyster sardine anchovy".split())
DIETS: dict[str, frozenset[str]] = {
    "vegetarian": MEAT | FISH,
    "veggie": MEAT | FISH,
    "vegan": MEAT | FISH | frozenset("dairy egg cheese milk butter honey yogurt yoghurt cream".split()),
    "pescatarian": MEAT,
    "pescetarian": MEAT,
}
#: A pursuit that ends when what it seeks is had: "I'm saving for a car" ← "I bought the car".
PURSUIT = (
    r"\b(saving (up )?for|looking for|searching for|hunting for|applying for|training for|preparing for|"
    r"studying for|trying to (get|find|buy))\b"
)
#: Frames of how one holds a home ("I rent my flat", "we share a flat"): a move ends them.
TENURE_FRAMES = frozenset({"rent", "lease", "share", "share_with", "rent_with"})
#: A kind of child one has, for counts of children ("I have a son" → "two kids now").
CHILD_NOUNS = frozenset({"child", "son", "daughter", "boy", "girl", "baby", "stepson", "stepdaughter"})

#: Nouns whose one modifier is a schedule the speaker keeps: "the night shift", "Eastern time".
SCHEDULE_NOUNS = {"shift": "shift", "time": "timezone", "timezone": "timezone", "zone": "timezone"}
#: A partner one has ("my wife is Anna", "I have a girlfriend, Mia"), and the statuses that end one.
PARTNER_NOUNS = frozenset({"girlfriend", "boyfriend", "partner", "wife", "husband", "fiance", "fiancee", "spouse"})
UNPARTNERED = frozenset({"separated", "divorced", "single", "widowed"})
#: Verbs that end a marriage or a relationship, and the status they leave.
SEPARATION_VERBS = {"separate": "separated", "split": "separated", "break": "separated", "divorce": "divorced"}

# Words that carry no value: units, currencies and fillers dropped before values compare.
UNITS = frozenset(
    """
£ $ € pound pounds dollar dollars euro euros gbp usd eur quid per a an the month year week day
monthly yearly annually weekly daily p.m. a.m. pm am o'clock
""".split()
)
#: Words that say how often: a statement with one gives an amount of what it does.
FREQUENCY_WORDS = frozenset(
    {"every", "daily", "weekly", "monthly", "nightly", "once", "twice", "times", "per", "always", "usually"}
)
NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "a": 1,
    "an": 1,
    "single": 1,
    "couple": 2,
    "dozen": 12,
}
TEMPORAL_PREPS = frozenset({"since", "until", "till", "during", "after", "before", "ago"})
